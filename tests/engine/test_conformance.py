"""The engine agrees with GNU Backgammon on every case of tests/data/legal_plays.jsonl."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Position, legal_plays
from tests.engine.support import case_id, conformance_cases

CASES = conformance_cases()


def test_the_data_covers_what_it_claims() -> None:
    tags = {tag for case in CASES for tag in case["tags"]}
    assert len(CASES) == 600
    assert {"bar", "dance", "bearoff_gap", "doublet", "partial", "higher_die_rule"} <= tags
    assert {"order_matters", "no_move", "hit", "one_die_only", "closed_board"} <= tags


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_legal_plays_match_gnubg(case: dict[str, Any]) -> None:
    position = Position.from_board(case["board"])
    plays = legal_plays(position, tuple(case["dice"]))
    assert plays.max_dice == case["max_dice"]
    assert sorted(result.to_board() for result in plays.results()) == case["results"]
    assert len(plays) == len(case["results"])
    assert plays.is_forced_pass == (case["max_dice"] == 0)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_each_play_reaches_its_result_with_max_dice(case: dict[str, Any]) -> None:
    position = Position.from_board(case["board"])
    plays = legal_plays(position, tuple(case["dice"]))
    for result, play in plays.items():
        assert position.apply(play) == result
        assert play.dice_used() == case["max_dice"]
        assert play in plays
        assert result in plays


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_position_ids_match_gnubg_and_round_trip(case: dict[str, Any]) -> None:
    position = Position.from_board(case["board"])
    assert position.position_id() == case["position_id"]
    assert Position.from_id(case["position_id"]) == position
    assert repr(position) == f"Position({case['position_id']!r})"
    for board in case["results"]:
        result = Position.from_board(board)
        assert Position.from_id(result.position_id()) == result
        # The opponent is on roll next; their view must round-trip too.
        assert Position.from_id(result.flip().position_id()) == result.flip()


# Distinct legal plays from the opening position (tests/data/CONFORMANCE.md).
OPENING_COUNTS = {
    "11": 42, "21": 15, "31": 16, "41": 14, "51": 8, "61": 10,
    "22": 75, "32": 17, "42": 18, "52": 8, "62": 14,
    "33": 73, "43": 17, "53": 9, "63": 14,
    "44": 52, "54": 9, "64": 14,
    "55": 4, "65": 7,
    "66": 11,
}  # fmt: skip


@pytest.mark.parametrize(("roll", "count"), OPENING_COUNTS.items())
def test_opening_play_counts(roll: str, count: int) -> None:
    d1, d2 = int(roll[0]), int(roll[1])
    assert len(legal_plays(Position.start(), (d1, d2))) == count
    # The order the dice are given in changes nothing.
    assert len(legal_plays(Position.start(), (d2, d1))) == count


def test_opening_position_id() -> None:
    assert Position.start().position_id() == "4HPwATDgc/ABMA"
    assert Position.from_id("4HPwATDgc/ABMA") == Position.start()
