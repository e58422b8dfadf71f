"""Shared helpers for the engine tests: hand-built positions and the conformance data."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from bot.engine import CubeOffer, LegalPlays, Position, PositionRecord
from bot.engine.game import MAX_CUBE
from bot.engine.position import CHECKERS

DATA = Path(__file__).resolve().parent.parent / "data"


def pos(points: dict[int, int]) -> Position:
    """A position from the player on roll's view, written as {point: count}.

    Positive counts are the player on roll's checkers, negative the opponent's; key 25 is the
    player on roll's bar and key 0 the opponent's bar (both positive). Checkers not placed
    have been borne off.

    >>> pos({25: 1, 19: -2}).board[19], pos({25: 1}).bar
    (-2, 1)
    """
    board = [0] * 26
    for point, count in points.items():
        board[point] = count
    return Position.from_board(board)


def formatted(plays: LegalPlays) -> set[str]:
    """The legal plays as GNU Backgammon would write them."""
    return {str(play) for play in plays}


@cache
def conformance_cases() -> tuple[dict[str, Any], ...]:
    """Every line of tests/data/legal_plays.jsonl (GNU Backgammon's own move generator)."""
    lines = (DATA / "legal_plays.jsonl").read_text().splitlines()
    return tuple(json.loads(line) for line in lines if line.strip())


def case_id(case: dict[str, Any]) -> str:
    """A readable test id: the tags, the dice and the Position ID."""
    d1, d2 = case["dice"]
    return f"{'+'.join(case['tags'])}-{d1}{d2}-{case['position_id']}"


# --- random states a game can be in, for the ID round trips -------------------------------


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position where each side still has 1-15 checkers, on points and bars, never both
    sides on one point."""
    board = [0] * 26
    for _ in range(draw(st.integers(1, CHECKERS))):  # the player on roll: 1-24 and bar 25
        board[draw(st.integers(1, 25))] += 1
    open_points = [p for p in range(1, 25) if board[p] == 0] + [0]  # 0: the opponent's bar
    for _ in range(draw(st.integers(1, CHECKERS))):
        point = draw(st.sampled_from(open_points))
        board[point] += 1 if point == 0 else -1
    return Position.from_board(board)


@st.composite
def records(draw: st.DrawFn, *, offers: bool = True) -> PositionRecord:
    """A state a game can really be in: the score inside the match, Crawford only at
    match point, a cube the doubler may turn, beavers only in money games that allow them.

    An owned cube is always above 1 (a take turns it), and a centred one above 1 only in a
    money game (automatic doubles); a beaver is never of such a centred cube, since a Match ID
    cannot say whether the beavered cube was centred."""
    length = draw(st.sampled_from([0, 0, 1, 3, 5, 7, 11, 25]))
    on_roll = draw(st.integers(0, 1))
    if length:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    else:
        score = (draw(st.integers(0, 30)), draw(st.integers(0, 30)))
    crawford = bool(length) and score.count(length - 1) == 1 and draw(st.booleans())
    jacoby = not length and draw(st.booleans())
    beavers = not length and draw(st.booleans())
    cube_in_use = draw(st.sampled_from([True, True, True, False]))
    cube, owner = 1, None
    if cube_in_use and not crawford:
        cube = 1 << draw(st.integers(0, 12))
        if cube > 1:
            owners: list[int | None] = [0, 1, None] if not length else [0, 1]
            owner = draw(st.sampled_from(owners))
    offer = None
    may_double = cube_in_use and not crawford and length != 1 and owner in (None, on_roll)
    if offers and may_double and draw(st.booleans()):
        offer = CubeOffer.DOUBLE
        if beavers and cube * 4 <= MAX_CUBE and (cube == 1 or owner == on_roll):
            offer = draw(st.sampled_from([CubeOffer.DOUBLE, CubeOffer.BEAVER]))
        if cube * 2 > MAX_CUBE:
            offer = None
    dice = None
    if offer is None and draw(st.booleans()):
        dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return PositionRecord(
        position=draw(positions()),
        on_roll=on_roll,
        dice=dice,
        cube=cube,
        cube_owner=owner,
        score=score,
        length=length,
        crawford=crawford,
        jacoby=jacoby,
        beavers=beavers,
        cube_in_use=cube_in_use,
        offer=offer,
    )
