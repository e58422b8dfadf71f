"""``/backgammon position``'s best play beside GNU Backgammon 2-ply's, on the same positions.

Positions come from money games the expert level plays against itself (seeded dice, the
cube left centred): every checker play with a choice, as players meet them. GNU Backgammon
(one gnubg process for the whole batch, :func:`tests.gnubg_support.run_script`) sets each
board and roll and asks its hint at 2 plies, cubeful, money with the cube centred and no
Jacoby (the position's own terms), and reports its best play and how far its second is
behind. The bot's best play is the one ``/backgammon position`` shows: the hint machinery at
the analysis depth, the very function the analysis lane runs (:func:`bot.workers.
position_hints`). The two are compared by the position they lead to, never by their
notation. Where GNU's best leads its second by :data:`CLEAR` or more the choice is clear,
and there the bot should agree at least :data:`AGREEMENT` of the time (issue 38).
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.computer import ComputerPlayer
from bot.computer.positions import PLAYS_SHOWN
from bot.engine import Game, MatchOptions, Phase, Play, PositionRecord, parse_play
from bot.workers import position_hints
from tests.gnubg_support import run_script

CLEAR = 0.05  # GNU's best ahead of its second by this much: a clear choice
AGREEMENT = 0.90  # the share of clear choices where the bot's best must be GNU's

# Runs inside gnubg. Plain Python: gnubg's own interpreter has nothing of ours installed.
_DRIVER = textwrap.dedent(
    """
    import json, os
    import gnubg

    job = json.load(open(os.environ["GAMMON_GNUBG_JOB"]))
    for command in (
        "set threads 1",
        "set jacoby off",
        "set player 0 human",
        "set player 1 human",
        "set evaluation chequerplay evaluation plies %d" % job["plies"],
        "set evaluation chequerplay evaluation cubeful on",
        "set evaluation chequerplay evaluation noise 0",
        "new game",
    ):
        gnubg.command(command)
    results = []
    for item in job["positions"]:
        gnubg.command("set board " + item["position_id"])
        gnubg.command("set dice %d %d" % tuple(item["dice"]))
        hint = gnubg.hint(2)["hint"]
        moves = [entry["move"] for entry in hint]
        lead = hint[0]["equity"] - hint[1]["equity"] if len(hint) > 1 else 9.0
        results.append({"moves": moves, "lead": lead})
    with open(os.environ["GAMMON_GNUBG_OUT"], "w") as out:
        json.dump(results, out)
    """
)


@dataclass(frozen=True, slots=True)
class Compared:
    """One position: GNU's best play and its lead over its second, and the bot's best."""

    record: PositionRecord
    gnu_best: str
    gnu_lead: float
    bot_best: str
    agree: bool

    @property
    def clear(self) -> bool:
        return self.gnu_lead >= CLEAR


def sample_positions(count: int, seed: int) -> list[PositionRecord]:
    """``count`` checker plays with a choice, from seeded expert self-play money games."""
    rng = random.Random(seed)
    player = ComputerPlayer("expert", seed=seed)
    found: list[PositionRecord] = []
    while len(found) < 3 * count:
        game = Game.new(MatchOptions(jacoby=False))
        while game.phase is Phase.OPENING:
            game = game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        while game.phase is not Phase.OVER:
            if game.phase is Phase.ROLL:
                game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
                continue
            if len(game.legal_plays()) > 1:
                found.append(PositionRecord.from_game(game))
            game = game.play(player.choose_play(game))
    return rng.sample(found, count)


def gnubg_hints(
    records: Sequence[PositionRecord], workdir: Path, *, plies: int = 2, timeout: float = 3600
) -> list[tuple[list[str], float]]:
    """Each position's two best plays by GNU Backgammon (its notation) and the lead."""
    job = {
        "plies": plies,
        "positions": [
            {"position_id": record.position_id(), "dice": list(record.dice or (0, 0))}
            for record in records
        ],
    }
    run = run_script(_DRIVER, job, workdir, timeout=timeout)
    return [(item["moves"], float(item["lead"])) for item in run.result]


def compare(
    records: Sequence[PositionRecord], gnu: Sequence[tuple[list[str], float]]
) -> list[Compared]:
    """The bot's best play (``/backgammon position``'s) beside GNU's, on each position where
    GNU's choice is clear (the others are left out: two plays within a few hundredths are a
    toss-up for any two engines)."""
    out = []
    for record, (moves, lead) in zip(records, gnu, strict=True):
        if lead < CLEAR:
            continue
        game = record.to_game()
        assert game.dice is not None
        plays = game.legal_plays()
        gnu_play = parse_play(game.position, game.dice, moves[0], plays)
        advice = position_hints(game, PLAYS_SHOWN)
        assert isinstance(advice, list) and advice
        best: Play = advice[0].play
        agree = game.position.apply(best) == game.position.apply(gnu_play)
        out.append(Compared(record, moves[0], lead, str(best), agree))
    return out


def agreement(compared: Sequence[Compared]) -> tuple[int, int]:
    """(clear positions, clear positions where the bot's best is GNU's)."""
    clear = [item for item in compared if item.clear]
    return len(clear), sum(item.agree for item in clear)
