"""Which decisions of the server's games become puzzles, and the strongest level's check.

A decision becomes a puzzle when (issue 29, after GNU Backgammon and lichess-puzzler):

- its game is a finished match of this server, never a live one; a tournament's games only
  once the tournament has ended; games against the computer count;
- no player of the game has asked to keep their games out;
- there was a choice (no forced play; no cube decision when the cube cannot be turned, so
  none in the Crawford game);
- the answer made lost at least :data:`BAD_ERROR` (0.08, GNU Backgammon's "bad");
- the best answer beats the second best by at least :data:`CLEAR_MARGIN` (0.04), so there
  is one answer, as lichess-puzzler demands;
- no puzzle with the same :class:`~bot.features.puzzles.rules.model.PuzzleKey` (position, dice,
score,
  cube) exists yet.

The analysis runs at the computer's usual level; before a puzzle is published,
:func:`confirm` checks it again with equities from the strongest level, which the caller
computes in a worker process (the seam is the ``reevaluate`` callback of
:func:`confirm_all`). Pure: no evaluation happens here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.core.records import Status
from bot.features.puzzles.rules.model import AnalysedDecision, Candidate, Puzzle, PuzzleKey, ranked

__all__ = [
    "BAD_ERROR",
    "CLEAR_MARGIN",
    "TOLERANCE",
    "Exclusion",
    "Reevaluate",
    "Rejection",
    "Seat",
    "SourceGame",
    "TournamentStage",
    "confirm",
    "confirm_all",
    "exclusion",
    "rejection",
    "select_puzzles",
]

# GNU Backgammon's "bad": the answer made must have lost at least this much equity.
BAD_ERROR = 0.08
# The best answer must beat the second best by this much, so that one answer is right.
CLEAR_MARGIN = 0.04
# Equities come rounded from the evaluator; a difference within this of a threshold counts
# as on it (0.50 - 0.46 is 0.04000000000000004 in floating point, and must be 0.04).
TOLERANCE = 1e-9


class TournamentStage(StrEnum):
    """Where the tournament a game belongs to stands."""

    RUNNING = "running"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class Seat:
    """A player of the source game: a user (None: the computer) and their privacy choice."""

    user_id: int | None
    keep_out: bool = False  # "don't use my games for puzzles"


@dataclass(frozen=True, slots=True)
class SourceGame:
    """The match the decisions come from, as far as the selection needs to know it."""

    match_id: int
    status: Status
    seats: tuple[Seat, Seat]
    tournament: TournamentStage | None = None  # None: not a tournament game


class Exclusion(StrEnum):
    """Why no decision of a whole match may become a puzzle."""

    NOT_FINISHED = "not_finished"  # live, or ended without a result
    TOURNAMENT_RUNNING = "tournament_running"
    KEPT_OUT = "kept_out"  # a player keeps their games out


class Rejection(StrEnum):
    """Why one decision does not become a puzzle."""

    FORCED = "forced"  # only one legal answer
    CRAWFORD = "crawford"  # no cube decision in the Crawford game
    SMALL_ERROR = "small_error"  # the answer made lost less than BAD_ERROR
    NO_CLEAR_ANSWER = "no_clear_answer"  # the best is not CLEAR_MARGIN ahead of the second
    DUPLICATE = "duplicate"  # a puzzle with the same key exists


Reevaluate = Callable[[Puzzle], Sequence[Candidate]]
"""Every legal answer of a puzzle's decision, with its equity at the strongest level."""


def exclusion(source: SourceGame) -> Exclusion | None:
    """Why ``source`` may give no puzzle at all, or None when its decisions may."""
    if source.status is not Status.FINISHED:
        return Exclusion.NOT_FINISHED
    if source.tournament is TournamentStage.RUNNING:
        return Exclusion.TOURNAMENT_RUNNING
    if any(seat.keep_out for seat in source.seats):
        return Exclusion.KEPT_OUT
    return None


def rejection(decision: AnalysedDecision, known: Collection[PuzzleKey] = ()) -> Rejection | None:
    """Why ``decision`` makes no puzzle, or None when it makes one."""
    order = ranked(decision.candidates)
    if len(order) < 2:
        return Rejection.FORCED
    if decision.kind.cube and decision.situation.crawford:
        return Rejection.CRAWFORD
    best, second = order[0], order[1]
    made = next(item for item in order if item.answer == decision.made)
    if best.equity - made.equity < BAD_ERROR - TOLERANCE:
        return Rejection.SMALL_ERROR
    if best.equity - second.equity < CLEAR_MARGIN - TOLERANCE:
        return Rejection.NO_CLEAR_ANSWER
    if PuzzleKey.of(decision.kind, decision.situation) in known:
        return Rejection.DUPLICATE
    return None


def select_puzzles(
    source: SourceGame,
    decisions: Iterable[AnalysedDecision],
    *,
    known: Collection[PuzzleKey] = (),
) -> list[Puzzle]:
    """The puzzles one analysed match gives, in the order of its decisions.

    ``known`` are the keys of the puzzles the server already has; a key met twice in the
    match gives one puzzle (the first). The puzzles are unconfirmed: publish one only after
    :func:`confirm` (or :func:`confirm_all`) has checked it at the strongest level.
    """
    if exclusion(source) is not None:
        return []
    seen = set(known)
    found: list[Puzzle] = []
    for decision in decisions:
        if rejection(decision, seen) is not None:
            continue
        puzzle = Puzzle(
            kind=decision.kind,
            situation=decision.situation,
            candidates=ranked(decision.candidates),
            made=decision.made,
            match_id=source.match_id,
            game_number=decision.game_number,
            owner_id=source.seats[decision.player].user_id,
            level=decision.level,
        )
        seen.add(puzzle.key)
        found.append(puzzle)
    return found


def confirm(puzzle: Puzzle, candidates: Sequence[Candidate], *, level: str) -> Puzzle | None:
    """The puzzle with the strongest level's equities, or None when they undo it.

    ``candidates`` must answer the same decision: the same legal answers (a different set
    means the caller evaluated another position, which is a bug, so it raises ValueError).
    The puzzle stands when, with the new equities, the answer made still lost at least
    :data:`BAD_ERROR` and the best answer is still :data:`CLEAR_MARGIN` ahead.
    """
    old = {item.answer for item in puzzle.candidates}
    new = {item.answer for item in candidates}
    if old != new:
        raise ValueError(f"the re-evaluation answers {sorted(new)}, the puzzle asks {sorted(old)}")
    order = ranked(list(candidates))
    made = next(item for item in order if item.answer == puzzle.made)
    if order[0].equity - made.equity < BAD_ERROR - TOLERANCE:
        return None
    if order[0].equity - order[1].equity < CLEAR_MARGIN - TOLERANCE:
        return None
    return replace(puzzle, candidates=order, confirmed_level=level)


def confirm_all(puzzles: Iterable[Puzzle], reevaluate: Reevaluate, *, level: str) -> list[Puzzle]:
    """The puzzles that stand at the strongest level, re-evaluated by ``reevaluate``.

    ``reevaluate`` does the engine's work (run the whole call in a worker process: it is
    CPU bound); this function only decides.
    """
    confirmed: list[Puzzle] = []
    for puzzle in puzzles:
        checked = confirm(puzzle, reevaluate(puzzle), level=level)
        if checked is not None:
            confirmed.append(checked)
    return confirmed
