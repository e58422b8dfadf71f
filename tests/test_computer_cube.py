"""World-class cube decisions against GNU Backgammon's own, on a set of positions.

Debian's GNU Backgammon (``gnubg``) analyses each position's cube action at 2-ply, cubeful
(its "world class" setting; our world-class is bgsage at 3 plies, the same depth), with the
game's options: a money game with and without the Jacoby rule and beavers, and match play
with its match equity table. Where GNU's decision is not close (each alternative at least
``CLOSE`` from the best, by its own equities) the computer must take the same proper
action; close ones are left out, since two engines may fairly differ there. The test
skips without gnubg except on CI (tests/gnubg_support.py).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.computer import ComputerPlayer
from bot.engine import Game, MatchOptions, Phase
from tests.gnubg_support import require_gnubg

CLOSE = 0.04  # equity: closer than this, GNU's own decision is a coin toss between two

# Runs inside gnubg: one cube analysis per job, between markers.
_DRIVER = textwrap.dedent(
    """
    import json, os, sys
    import gnubg

    for command in (
        "set player 0 human",
        "set player 1 human",
        "set evaluation cubedecision evaluation plies 2",
        "set evaluation cubedecision evaluation cubeful on",
        "set evaluation cubedecision evaluation prune on",
        "set evaluation cubedecision evaluation noise 0",
    ):
        gnubg.command(command)
    for number, job in enumerate(json.load(open(os.environ["GAMMON_GNUBG_JOB"]))):
        gnubg.command("set jacoby " + ("on" if job["jacoby"] else "off"))
        gnubg.command("set beavers " + ("3" if job["beavers"] else "0"))
        gnubg.command("new session")
        gnubg.command("set matchid " + job["match_id"])
        gnubg.command("set board " + job["position_id"])
        print("@@@ BEGIN", number, flush=True)
        gnubg.command("hint")
        sys.stdout.flush()
        print("@@@ END", number, flush=True)
    """
)


@dataclass(frozen=True)
class GnuCube:
    no_double: float
    double_take: float
    double_pass: float
    action: str  # GNU's words, "redouble" said "double" (our CubeAction's values)


def gnu_cube_decisions(games: list[Game]) -> list[GnuCube]:
    gnubg = require_gnubg()
    import json

    jobs = [
        {
            "match_id": game.match_id(),
            "position_id": game.position_id(),
            "jacoby": game.options.jacoby,
            "beavers": game.options.beavers,
        }
        for game in games
    ]
    with tempfile.TemporaryDirectory() as folder:
        job, driver = Path(folder) / "job.json", Path(folder) / "driver.py"
        job.write_text(json.dumps(jobs))
        driver.write_text(_DRIVER)
        done = subprocess.run(
            [gnubg, "-t", "-q", "-p", str(driver)],
            env={**os.environ, "GAMMON_GNUBG_JOB": str(job)},
            capture_output=True,
            text=True,
            timeout=600,
            check=True,
        )
    found = []
    for number in range(len(games)):
        text = done.stdout.split(f"@@@ BEGIN {number}\n")[1].split(f"@@@ END {number}")[0]
        equities = {
            name: float(value)
            for name, value in re.findall(
                r"^\d\. (No (?:re)?double|(?:Re)?[Dd]ouble, (?:pass|take))\s+([-+]\d\.\d+)",
                text,
                re.MULTILINE,
            )
        }
        action = re.search(r"Proper cube action: (.+?)(?: \(|$)", text, re.MULTILINE)
        assert action and len(equities) == 3, text
        words = {
            name.replace("Redouble", "Double").replace("redouble", "double"): value
            for name, value in equities.items()
        }
        found.append(
            GnuCube(
                no_double=words["No double"],
                double_take=words["Double, take"],
                double_pass=words["Double, pass"],
                action=action.group(1).replace("Redouble", "Double").replace("redouble", "double"),
            )
        )
    return found


def cube_positions(options: MatchOptions, count: int, seed: int) -> list[Game]:
    """Positions before the roll where the player on roll may double, from expert
    self-play; the games race on where the players double, so the set has doubles, takes
    and passes as well as quiet positions."""
    expert = ComputerPlayer("expert", seed=seed)
    rng = random.Random(seed)
    found: list[Game] = []
    game = Game.new(options)
    while len(found) < count:
        if game.phase is Phase.OVER:
            game = Game.new(options)
        elif game.phase is Phase.OPENING:
            game = game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif game.phase is Phase.ROLL:
            if game.can_double() and rng.random() < 0.12:
                found.append(game)
            game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif game.phase is Phase.DOUBLED:
            game = game.take()
        else:
            game = game.play(expert.choose_play(game))
    return found


def clear(gnu: GnuCube) -> bool:
    """Whether GNU's own equities make its decision a clear one."""
    doubled = min(gnu.double_take, gnu.double_pass)
    return abs(gnu.no_double - doubled) >= CLOSE and (
        abs(gnu.double_take - gnu.double_pass) >= CLOSE or gnu.no_double > doubled
    )


def test_world_class_cube_actions_agree_with_gnu_backgammon_2_ply() -> None:
    pytest.importorskip("bgsage")
    games = (
        cube_positions(MatchOptions(), 8, seed=3)
        + cube_positions(MatchOptions(jacoby=True, beavers=True), 5, seed=4)
        + cube_positions(MatchOptions(length=7), 7, seed=5)
    )
    gnu = gnu_cube_decisions(games)
    world_class = ComputerPlayer("world-class")
    compared = 0
    for game, theirs in zip(games, gnu, strict=True):
        if not clear(theirs):
            continue
        ours = world_class.cube_hint(game)
        assert str(ours.action) == theirs.action, (game.position_id(), game.match_id(), theirs)
        compared += 1
    assert compared >= 8
