"""Drive the real GNU Backgammon (Debian's ``gnubg``) from the tests.

:func:`run_script` runs a script with gnubg's embedded Python over a batch of work in one
process, which starts once (about a second) whatever the batch. :func:`import_files` is one
such script: a batch of ``.mat`` or ``.sgf`` files, each read back as JSON (each game's
records: the position before every move, the dice, cube actions, resignations; each game's
result; the final Position and Match IDs). Reading many files in one process also proves a
file leaves no state behind for the next.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# Debian installs games outside the usual PATH.
_CANDIDATES = ("gnubg", "/usr/games/gnubg")

# Runs inside gnubg. Plain Python: gnubg's own interpreter has nothing of ours installed.
_DRIVER = textwrap.dedent(
    """
    import json, os, sys
    import gnubg

    job = json.load(open(os.environ["GAMMON_GNUBG_JOB"]))
    results = []
    for item in job:
        print("@@@ FILE", item["path"], flush=True)
        gnubg.command("set jacoby " + ("on" if item["jacoby"] else "off"))
        gnubg.command(item["command"] + " " + item["path"])
        sys.stdout.flush()
        try:
            match = gnubg.match(0, 1, 0, 0)
        except Exception as exc:
            match = {"games": [], "error": repr(exc)}
        try:
            final = [gnubg.positionid(), gnubg.matchid()]
        except ValueError:
            final = None
        results.append({"match": match, "final": final})
        print("@@@ DONE", flush=True)
    with open(os.environ["GAMMON_GNUBG_OUT"], "w") as out:
        json.dump(results, out)
    """
)


def gnubg_path() -> str | None:
    for candidate in _CANDIDATES:
        found = shutil.which(candidate)
        if found:
            return found
    return None


def require_gnubg() -> str:
    """gnubg's path; skips the test without it, except on CI (CI=true), where it fails."""
    path = gnubg_path()
    if path is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("GNU Backgammon (gnubg) is not installed, and CI must run these tests")
        pytest.skip("GNU Backgammon (gnubg) is not installed: apt-get install gnubg")
    return path


@dataclass(frozen=True)
class Imported:
    """What gnubg read from one file."""

    match: dict[str, Any]
    final: tuple[str, str] | None  # Position ID and Match ID at the end
    output: str  # what gnubg printed while importing (warnings show up here)

    @property
    def games(self) -> list[dict[str, Any]]:
        return list(self.match["games"])

    def warnings(self) -> list[str]:
        words = ("warning", "unrecognised", "invalid", "record found", "not a valid", "illegal")
        return [
            line.strip()
            for line in self.output.splitlines()
            if any(word in line.lower() for word in words)
        ]


@dataclass(frozen=True)
class ScriptRun:
    """What one gnubg process made of a script: the JSON it wrote, and what it printed."""

    result: Any
    output: str


def run_script(script: str, job: object, workdir: Path, *, timeout: float = 60.0) -> ScriptRun:
    """Run ``script`` with gnubg's embedded Python, in one gnubg process.

    The script reads ``job`` as JSON from the file named by ``$GAMMON_GNUBG_JOB`` and writes
    its result as JSON to the file named by ``$GAMMON_GNUBG_OUT``. gnubg's settings live in a
    home of the test's own, and its input is closed: a question it asks (``set xgid`` asks
    whether to swap the players) takes its non-interactive answer, yes, instead of waiting
    for a terminal.
    """
    gnubg = require_gnubg()
    workdir.mkdir(parents=True, exist_ok=True)
    driver = workdir / "gnubg_driver.py"
    driver.write_text(script, encoding="utf-8")
    job_file = workdir / "gnubg_job.json"
    out = workdir / "gnubg_out.json"
    out.unlink(missing_ok=True)
    job_file.write_text(json.dumps(job), encoding="utf-8")
    home = workdir / "home"
    home.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "HOME": str(home),  # gnubg keeps settings in ~/.gnubg: keep the tests' own
        "GAMMON_GNUBG_JOB": str(job_file),
        "GAMMON_GNUBG_OUT": str(out),
    }
    done = subprocess.run(
        [gnubg, "-t", "-q", "-p", str(driver)],
        cwd=workdir,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=timeout,
        check=False,
    )
    if not out.exists():
        raise AssertionError(f"gnubg failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return ScriptRun(json.loads(out.read_text(encoding="utf-8")), done.stdout)


def import_files(
    files: Sequence[tuple[Path, bool]], workdir: Path, *, timeout: float = 60.0
) -> list[Imported]:
    """Read each (path, jacoby) in one gnubg process, in order.

    ``.mat`` files are imported (``import mat``) and ``.sgf`` files loaded (``load match``);
    ``jacoby`` is gnubg's own setting while it reads the file, which ``.mat`` cannot state.
    """
    job = [
        {
            "path": str(path),
            "jacoby": jacoby,
            "command": "load match" if path.suffix == ".sgf" else "import mat",
        }
        for path, jacoby in files
    ]
    run = run_script(_DRIVER, job, workdir, timeout=timeout)
    chunks = run.output.split("@@@ FILE ")[1:]
    imported = []
    for index, result in enumerate(run.result):
        chunk = chunks[index] if index < len(chunks) else ""
        final = result["final"]
        imported.append(Imported(result["match"], (final[0], final[1]) if final else None, chunk))
    return imported
