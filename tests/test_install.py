"""What a fresh install gets: the README's commands, the optional PostgreSQL driver, the
pinned constraints, and the invite URL's permissions (issue #25, part D)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")

# Starts the bot with asyncpg unimportable, as after `pip install -e .` (no [postgres]):
# a None in sys.modules makes `import asyncpg` raise ModuleNotFoundError(name="asyncpg").
WITHOUT_ASYNCPG = (
    "import runpy, sys; sys.modules['asyncpg'] = None; "
    "sys.argv[0] = 'bot'; runpy.run_module('bot', run_name='__main__', alter_sys=True)"
)


def run_without_asyncpg(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN="MTAwMDAwMDAwMDAwMDAwMDAw.GfAkEd.not-a-real-token-0123456789",
        DATABASE_URL="postgresql://gammon:s3cret@/gammon?host=/nonexistent",
    )
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_ASYNCPG, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


@pytest.mark.parametrize(("args", "status"), [([], 1), (["migrate"], 2)])
def test_a_postgresql_url_without_asyncpg_is_one_line_and_a_failure(
    tmp_path: Path, args: list[str], status: int
) -> None:
    result = run_without_asyncpg(args, tmp_path)
    assert result.returncode == status, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "asyncpg" in lines[0] and '".[postgres]"' in lines[0], lines[0]
    assert "s3cret" not in lines[0] and "gammon:***@" in lines[0]
    assert "Traceback" not in result.stderr


def test_sqlite_never_needs_asyncpg(tmp_path: Path) -> None:
    """`pip install -e .` (README command 1) is enough for the default database."""
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import asyncio, sys; sys.modules['asyncpg'] = None\n"
            "from bot.storage import open_store\n"
            "async def main():\n"
            "    store = await open_store(sys.argv[1])\n"
            "    print(await store.schema_version())\n"
            "    await store.close()\n"
            "asyncio.run(main())",
            str(tmp_path / "g.db"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 0


# --- the invite URL ----------------------------------------------------------------------

# Every permission the bot uses, by discord.py's name and the name Discord's pages show.
USED = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
}


def test_the_readme_invite_asks_for_exactly_the_permissions_the_bot_uses() -> None:
    import discord

    from bot.client import INVITE_PERMISSIONS

    wanted = discord.Permissions(**dict.fromkeys(USED, True))
    assert wanted == INVITE_PERMISSIONS
    urls = re.findall(r"https://discord\.com/oauth2/authorize\?\S*?permissions=(\d+)", README)
    stated = re.findall(r"permissions \((\d+)\)", README)
    assert urls and stated, "the README's invite URL and its permission list"
    assert {int(n) for n in urls + stated} == {wanted.value}
    section = README[README.index("## Connecting it to Discord") : README.index("## Commands")]
    listed = " ".join(section.split())  # the list wraps over lines
    for name in USED.values():
        assert name in listed, name
    # A game thread needs these two (cogs/publishing.py checks them before opening one).
    assert wanted.create_public_threads and wanted.send_messages_in_threads


# --- the README's commands, CI and the pinned versions -----------------------------------


def readme_test_command() -> str:
    block = README[README.index("# 2. Install and run the tests") :]
    return block.splitlines()[1].strip()


def test_ci_runs_the_readmes_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = readme_test_command()
    assert "-c constraints.txt" in command
    assert command in ci.splitlines()


def test_the_constraints_pin_every_dependency_within_its_range() -> None:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    pins: dict[str, Version] = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = Version(version.strip())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    for text in [*project["dependencies"], *extras["postgres"], *extras["test"]]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        if name == "gammon-bot":
            continue  # the project's own extra
        if requirement.marker is not None and not requirement.marker.evaluate():
            continue  # not for this platform: pip leaves it out and ignores its pin
        assert name in pins, f"{name} is not pinned in constraints.txt (regenerate it)"
        assert requirement.specifier.contains(pins[name], prereleases=True), (text, pins[name])
