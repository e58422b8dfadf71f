"""The committed browser client (bot/web/static) is built from the sources in web/.

Without node: the bundle records the SHA-256 of the sources it was built from, and the
sources must still hash the same. With node and web/node_modules (``npm ci``): a fresh
build must give the same bytes."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
STATIC = ROOT / "bot" / "web" / "static"


def sources_hash() -> str:
    digest = hashlib.sha256()
    names = [f"src/{p.name}" for p in sorted((WEB / "src").iterdir(), key=lambda p: p.name)]
    for name in [*names, "package-lock.json", "build.mjs"]:
        digest.update(name.encode() + b"\0")
        digest.update((WEB / name).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def test_the_committed_bundle_was_built_from_these_sources() -> None:
    recorded = (STATIC / "sources.sha256").read_text().strip()
    assert recorded == sources_hash(), "web/ changed: run `npm ci && npm run build` in web/"


def test_a_fresh_build_gives_the_committed_files(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None or not (WEB / "node_modules" / "esbuild").is_dir():
        pytest.skip("node and web/node_modules (npm ci) are needed to rebuild the client")
    env = {**os.environ, "OUT": str(tmp_path)}
    subprocess.run([node, "build.mjs"], cwd=WEB, env=env, check=True, timeout=60)
    for built in sorted(tmp_path.iterdir()):
        assert built.read_bytes() == (STATIC / built.name).read_bytes(), built.name
