"""Any position analysed: the advice for a position a player pastes, and deeper when asked.

:class:`PositionAdvice` is what ``/backgammon position`` (and the "Analyse this position"
message command) answers: the position as read (a :class:`~bot.engine.PositionRecord`), the
engine game built from it, and the hint machinery's advice at the analysis depth
(:func:`bot.computer.analysis.hints`: the best plays, or the cube decision).

**Deeper when asked** (:class:`DeepAdvice`): the plays the world-class search put within
:data:`PLAY_WINDOW` of its best (at most :data:`MOST_PLAYS`, at least two), or the cube
decision, are rolled out (:class:`~bot.computer.rollouts.BgsageRollout` with
:data:`DEEP`: bgsage's "2T" truncated rollout, each game cut 7 plies on, but 144 games a
play where bgsage rolls 360, to finish in about 10 s here; the standard errors it reports
say what that costs). bgsage measured its 2T well ahead of its own 3-ply search, the
world-class level's (``XG_COMPARISON.md``: PR 0.27 against 0.60 over 17,535 money decisions,
its own reference).
A cube decision is :data:`CUBE_BATCHES` rollouts of :data:`CUBE_DEEP` (108 games each, the
same 432 in all as three of 144, but an even number of batches keeps both processes of a
2-core machine's lane busy to the end) from different seeds, averaged. Each rollout is one
call in the analysis lane, so a front end can show progress between them.

Pure: values and the arithmetic that combines rollouts; the rollouts run in the workers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.computer.analysis import CubeHint, PlayHint
from bot.computer.cube import beaver_value, beavers_allowed, proper_action
from bot.computer.evaluator import CubeEquities
from bot.computer.rollouts import CubeRollout, RolledOut, RolloutSettings
from bot.engine import Game, Phase, Play, PositionRecord

__all__ = [
    "CUBE_BATCHES",
    "CUBE_DEEP",
    "DEEP",
    "MOST_PLAYS",
    "PLAYS_SHOWN",
    "PLAY_WINDOW",
    "DeepAdvice",
    "DeepPlay",
    "PositionAdvice",
    "combine",
    "deep_candidates",
    "deep_cube",
    "deep_kind",
]

PLAYS_SHOWN = 5  # the best plays a position's analysis lists
DEEP = RolloutSettings(trials=144, truncation=7, plies=2)
PLAY_WINDOW = 0.12  # plays this close to the search's best are rolled out...
MOST_PLAYS = 4  # ...at most this many (a play's rollout takes 1-4 s in the lane here)
CUBE_DEEP = RolloutSettings(trials=108, truncation=7, plies=2)  # a batch of a cube decision
CUBE_BATCHES = 4  # a cube decision: this many rollouts of CUBE_DEEP, averaged


@dataclass(frozen=True, slots=True)
class PositionAdvice:
    """A position and what the computer makes of it at the analysis depth."""

    record: PositionRecord
    game: Game
    advice: list[PlayHint] | CubeHint


@dataclass(frozen=True, slots=True)
class DeepPlay:
    """A play rolled out: its equity and standard error, and what the search said of it."""

    play: Play
    equity: float
    error: float
    searched: float

    @property
    def notation(self) -> str:
        return str(self.play)


@dataclass(frozen=True, slots=True)
class DeepAdvice:
    """The deeper analysis of a position: its plays rolled out (best first), or its cube
    decision rolled out (``cube``, with the standard errors of no double and double/take)."""

    record: PositionRecord
    game: Game
    settings: RolloutSettings
    plays: tuple[DeepPlay, ...] = ()
    cube: CubeHint | None = None
    cube_errors: tuple[float, float] = (0.0, 0.0)
    rollouts: int = 0  # how many rollouts it took (each ``settings.trials`` games)


def deep_kind(game: Game) -> str | None:
    """What a deeper analysis of ``game`` rolls out: ``"plays"`` (a checker play with a
    choice), ``"cube"`` (a cube decision that can be made), or None (nothing to deepen: a
    forced play, a cube that cannot turn, a beaver waiting)."""
    if game.phase is Phase.MOVE:
        return "plays" if len(game.legal_plays()) > 1 else None
    if game.phase is Phase.DOUBLED:
        return None if game.beaver_pending else "cube"
    if game.phase is Phase.ROLL and game.can_double():
        return "cube"
    return None


def deep_candidates(hints: Sequence[PlayHint]) -> list[PlayHint]:
    """The plays worth rolling out: within :data:`PLAY_WINDOW` of the best, at most
    :data:`MOST_PLAYS`, and at least the best two."""
    if not hints:
        return []
    best = hints[0].equity
    close = [hint for hint in hints if best - hint.equity <= PLAY_WINDOW][:MOST_PLAYS]
    return close if len(close) >= 2 else list(hints[:2])


def combine(estimates: Sequence[RolledOut]) -> RolledOut:
    """Independent rollouts of one thing, as one: their mean, and its standard error."""
    if not estimates:
        raise ValueError("nothing to combine")
    count = len(estimates)
    mean = sum(item.equity for item in estimates) / count
    error = math.sqrt(sum(item.error**2 for item in estimates)) / count
    return RolledOut(mean, error)


def deep_cube(game: Game, batches: Sequence[CubeRollout]) -> tuple[CubeHint, tuple[float, float]]:
    """The cube decision of ``game`` from its rollouts, as :func:`bot.computer.analysis.
    cube_hint` gives it from a search (the doubler's equities), with the standard errors of
    no double and double/take."""
    no_double = combine([batch.no_double for batch in batches])
    double_take = combine([batch.double_take for batch in batches])
    double_pass = batches[0].double_pass
    equities = CubeEquities(no_double.equity, double_take.equity, double_pass)
    beavers = beavers_allowed(game)
    hint = CubeHint(
        action=proper_action(equities, beavers),
        no_double=equities.no_double,
        double_take=equities.double_take,
        double_pass=equities.double_pass,
        double_beaver=beaver_value(equities.double_take) if beavers else None,
        redouble=game.cube_owner is not None,
    )
    return hint, (no_double.error, double_take.error)
