// Builds the browser client into the Python package (bot/web/static/), which ships the
// built files: the bot runs without node. `npm ci && npm run build`, then commit the output;
// tests/web/test_bundle.py checks that it matches these sources.
import { build } from "esbuild";
import { copyFileSync } from "node:fs";

const out = new URL("../bot/web/static/", import.meta.url).pathname;
await build({
  entryPoints: { board: "src/pages.js", activity: "src/activity.js" },
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  outdir: out,
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(new URL("src/style.css", import.meta.url), `${out}style.css`);
