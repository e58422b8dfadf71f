"""Hand-built analysed decisions: a situation, the answers with their equities, what was made."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bot.core.records import Status
from bot.features.puzzles.rules import (
    AnalysedDecision,
    Candidate,
    CubeOwner,
    Puzzle,
    PuzzleKind,
    Seat,
    Situation,
    SourceGame,
    select_puzzles,
)

START_ID = "4HPwATDgc/ABMA"  # the starting position
OTHER_ID = "sGfwATDgc/ABMA"  # after an opening 3-1 played 8/5 6/5


def situation(
    *,
    position_id: str = START_ID,
    dice: tuple[int, int] | None = (3, 1),
    score: tuple[int, int] = (0, 0),
    length: int = 7,
    cube: int = 1,
    cube_owner: CubeOwner = CubeOwner.CENTRE,
    crawford: bool = False,
) -> Situation:
    return Situation(
        position_id=position_id,
        match_id="cAkAAAAAAAAA",
        dice=dice,
        score=score,
        length=length,
        cube=cube,
        cube_owner=cube_owner,
        crawford=crawford,
    )


def decision(
    equities: Mapping[str, float],
    made: str,
    *,
    kind: PuzzleKind = PuzzleKind.CHECKER_PLAY,
    player: int = 0,
    game_number: int = 1,
    **where: Any,
) -> AnalysedDecision:
    """A decision whose answers are the keys of ``equities`` (their own notation too)."""
    if kind.cube:
        where.setdefault("dice", None)
    return AnalysedDecision(
        kind=kind,
        situation=situation(**where),
        player=player,
        made=made,
        candidates=tuple(Candidate(answer, answer, value) for answer, value in equities.items()),
        game_number=game_number,
        level="expert",
    )


ALICE, BOB = 101, 202


def source(
    *,
    status: Status = Status.FINISHED,
    seats: tuple[Seat, Seat] = (Seat(ALICE), Seat(BOB)),
    **more: Any,
) -> SourceGame:
    return SourceGame(match_id=7, status=status, seats=seats, **more)


# A checker play that lost 0.20, with the best play 0.10 clear of the second.
BAD_PLAY = {"best": 0.30, "second": 0.20, "made": 0.10}


def puzzle(**changes: Any) -> Puzzle:
    """A selected puzzle (from BAD_PLAY, Alice's mistake), with ``changes``."""
    [found] = select_puzzles(source(), [decision(BAD_PLAY, "made")])
    return replace(found, **changes)
