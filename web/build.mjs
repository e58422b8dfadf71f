// Builds the browser client into the Python package (bot/web/static/), which ships the
// built files: the bot runs without node. `npm ci && npm run build`, then commit the output.
// OUT=<dir> builds elsewhere (tests/web/test_bundle.py compares such a build with the
// committed one); sources.sha256 records the sources a build came from, so the same test
// can tell, without node, that the committed bundle is not older than web/src.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, readFileSync, readdirSync, writeFileSync } from "node:fs";

const here = new URL(".", import.meta.url).pathname;
const out = process.env.OUT ? `${process.env.OUT.replace(/\/$/, "")}/` : `${here}../bot/web/static/`;
await build({
  entryPoints: { board: `${here}src/pages.js`, activity: `${here}src/activity.js` },
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  outdir: out,
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(`${here}src/style.css`, `${out}style.css`);

const hash = createHash("sha256");
const sources = readdirSync(`${here}src`).sort().map((name) => `src/${name}`);
for (const name of [...sources, "package-lock.json", "build.mjs"]) {
  hash.update(name + "\0");
  hash.update(readFileSync(`${here}${name}`));
  hash.update("\0");
}
writeFileSync(`${out}sources.sha256`, hash.digest("hex") + "\n");
