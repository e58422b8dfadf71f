"""Shared helpers for the engine tests: hand-built positions and the conformance data."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from bot.engine import LegalPlays, Position
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
