"""GNU Backgammon's Match ID: bit-for-bit agreement with gnubg's own output, and the IDs of
real game states worked out by hand."""

from __future__ import annotations

import base64
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from bot.engine import (
    Game,
    InvalidIdError,
    InvalidPositionError,
    MatchIdFields,
    MatchOptions,
    ResultKind,
)
from bot.engine.match_id import (
    GAME_DROP,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
)

DATA = Path(__file__).resolve().parents[1] / "data" / "match_ids.jsonl"
CASES: list[dict[str, Any]] = [json.loads(line) for line in DATA.read_text().splitlines() if line]

NO_JACOBY_BIT = 66  # the bit after score 1: set unless a money game uses the Jacoby rule


def fields_of(case: dict[str, Any]) -> MatchIdFields:
    """The fields gnubg was given; its money games were written with the Jacoby rule on."""
    return MatchIdFields(
        match_length=case["match_length"],
        score=tuple(case["score"]),
        cube=case["cube"],
        cube_owner=case["cube_owner"],
        on_roll=case["on_roll"],
        turn=case["on_roll"],
        crawford=bool(case["crawford"]),
        double_offered=bool(case["double_offered"]),
        resigned=case["resigned"],
        dice=tuple(case["dice"]),
        game_state=case["game_state"],
        jacoby=case["match_length"] == 0,
    )


def bits_of(match_id: str) -> int:
    return int.from_bytes(base64.b64decode(match_id), "little")


def case_id(case: dict[str, Any]) -> str:
    return case["match_id"]


def test_the_data_covers_money_games_matches_and_every_flag() -> None:
    assert len(CASES) == 300
    assert any(c["match_length"] == 0 for c in CASES)
    assert any(c["match_length"] == 1 for c in CASES)
    assert {c["resigned"] for c in CASES} == {0, 1, 2, 3}
    assert any(c["crawford"] for c in CASES)
    assert any(c["double_offered"] for c in CASES)
    assert any(c["dice"][0] < c["dice"][1] for c in CASES)  # gnubg writes the larger first


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_encode_matches_gnubg(case: dict[str, Any]) -> None:
    assert fields_of(case).encode() == case["match_id"]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_decode_gives_back_the_fields(case: dict[str, Any]) -> None:
    fields = fields_of(case)
    high, low = max(fields.dice), min(fields.dice)
    assert MatchIdFields.decode(case["match_id"]) == dataclasses.replace(fields, dice=(high, low))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_decode_then_encode_is_the_identity(case: dict[str, Any]) -> None:
    assert MatchIdFields.decode(case["match_id"]).encode() == case["match_id"]


def test_the_no_jacoby_bit() -> None:
    money = MatchIdFields(0, (0, 0), 1, -1, 0, 0, False, False, 0, (0, 0), GAME_PLAYING)
    with_jacoby = dataclasses.replace(money, jacoby=True).encode()
    without = dataclasses.replace(money, jacoby=False).encode()
    assert bits_of(with_jacoby) >> NO_JACOBY_BIT & 1 == 0
    assert bits_of(without) >> NO_JACOBY_BIT & 1 == 1
    assert bits_of(with_jacoby) ^ bits_of(without) == 1 << NO_JACOBY_BIT
    assert without == "MAEAAAAAAAAE"
    assert MatchIdFields.decode(with_jacoby).jacoby is True
    assert MatchIdFields.decode(without).jacoby is False


@pytest.mark.parametrize("jacoby", [False, True])
@pytest.mark.parametrize("length", [1, 5, 25])
def test_a_match_always_sets_the_no_jacoby_bit(length: int, jacoby: bool) -> None:
    fields = MatchIdFields(length, (0, 0), 1, -1, 0, 0, False, False, 0, (0, 0), GAME_PLAYING)
    encoded = dataclasses.replace(fields, jacoby=jacoby).encode()
    assert bits_of(encoded) >> NO_JACOBY_BIT & 1 == 1
    assert MatchIdFields.decode(encoded).jacoby is False


def test_every_case_in_a_match_has_the_bit_set_and_money_games_have_it_clear() -> None:
    for case in CASES:
        bit = bits_of(case["match_id"]) >> NO_JACOBY_BIT & 1
        assert bit == (case["match_length"] > 0), case


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("MAEAAAAAAAA", "12-character"),  # one short
        ("MAEAAAAAAAAEA", "12-character"),
        ("MAEAAAAAAA!E", "not a valid"),
        ("MAEAAAAAAA==", "not a valid"),
        ("", "12-character"),
    ],
)
def test_decode_refuses_what_is_not_a_match_id(text: str, why: str) -> None:
    with pytest.raises(InvalidIdError, match=why):  # an InvalidPositionError, for old callers
        MatchIdFields.decode(text)


@pytest.mark.parametrize(
    "change",
    [
        {"cube": 3},
        {"cube": 0},
        {"cube": 1 << 16},
        {"match_length": 1 << 15},
        {"score": (0, 1 << 15)},
        {"on_roll": 2},
        {"resigned": 4},
        {"dice": (8, 1)},
    ],
)
def test_encode_refuses_fields_that_do_not_fit(change: dict[str, Any]) -> None:
    fields = MatchIdFields(5, (0, 0), 1, -1, 0, 0, False, False, 0, (0, 0), GAME_PLAYING)
    with pytest.raises(InvalidPositionError):
        dataclasses.replace(fields, **change).encode()


# --- Game.match_id() for concrete states ------------------------------------------------


def test_opening_roll_3_1_in_a_5_point_match_worked_out_bit_by_bit() -> None:
    game = Game.new(MatchOptions(length=5)).opening_roll(3, 1)
    # byte 0: cube log2 0, owner 3 (centred) in bits 4-5          -> 0x30
    # byte 1: game state 1 (bit 8), die 1 = 3 starts at bit 15    -> 0x81
    # byte 2: die 1's high bit (16), die 2 = 1 (bit 18), length 5
    #         in bits 21-35 (bits 21 and 23)                       -> 0xA5
    # bytes 3-7: zero scores; byte 8: the no-Jacoby bit 66         -> 0x04
    raw = bytes([0x30, 0x81, 0xA5, 0, 0, 0, 0, 0, 0x04])
    assert base64.b64encode(raw).decode() == "MIGlAAAAAAAE"
    assert game.match_id() == "MIGlAAAAAAAE"
    assert MatchIdFields.decode(game.match_id()) == MatchIdFields(
        match_length=5,
        score=(0, 0),
        cube=1,
        cube_owner=-1,
        on_roll=0,
        turn=0,
        crawford=False,
        double_offered=False,
        resigned=0,
        dice=(3, 1),
        game_state=GAME_PLAYING,
    )


def test_opening_roll_won_by_player_1_puts_the_larger_die_first() -> None:
    fields = MatchIdFields.decode(Game.new(MatchOptions(length=5)).opening_roll(2, 6).match_id())
    assert (fields.on_roll, fields.turn, fields.dice) == (1, 1, (6, 2))


def test_before_the_opening_roll() -> None:
    fields = MatchIdFields.decode(Game.new(MatchOptions(length=7)).match_id())
    assert fields.game_state == GAME_NONE
    assert fields.dice == (0, 0)
    assert fields.match_length == 7


def test_a_money_game_without_jacoby_sets_the_bit() -> None:
    game = Game.new().opening_roll(3, 1)
    assert MatchIdFields.decode(game.match_id()).jacoby is False
    assert bits_of(game.match_id()) >> NO_JACOBY_BIT & 1 == 1
    jacoby = Game.new(MatchOptions(jacoby=True)).opening_roll(3, 1)
    assert MatchIdFields.decode(jacoby.match_id()).jacoby is True
    assert bits_of(jacoby.match_id()) >> NO_JACOBY_BIT & 1 == 0


def _rolled_to_player_1() -> Game:
    """A 7-point match at 2-1: player 0 opened with 3-1, player 1 is about to roll."""
    game = dataclasses.replace(Game.new(MatchOptions(length=7)), score=(2, 1))
    return game.opening_roll(3, 1).move("8/5 6/5")


def test_a_pending_double() -> None:
    doubled = _rolled_to_player_1().double()
    assert MatchIdFields.decode(doubled.match_id()) == MatchIdFields(
        match_length=7,
        score=(2, 1),
        cube=1,  # the cube turns only when the double is taken
        cube_owner=-1,
        on_roll=1,
        turn=0,  # player 0 must answer
        crawford=False,
        double_offered=True,
        resigned=0,
        dice=(0, 0),
        game_state=GAME_PLAYING,
    )


def test_after_the_take() -> None:
    fields = MatchIdFields.decode(_rolled_to_player_1().double().take().match_id())
    assert (fields.cube, fields.cube_owner, fields.on_roll, fields.turn) == (2, 0, 1, 1)
    assert not fields.double_offered


def test_a_resignation_offer_after_rolling() -> None:
    game = _rolled_to_player_1().roll((5, 2)).offer_resignation(1, ResultKind.GAMMON)
    fields = MatchIdFields.decode(game.match_id())
    assert fields.resigned == 2
    assert fields.on_roll == 1
    assert fields.turn == 0  # the opponent of the resigner answers
    assert fields.dice == (5, 2)
    assert fields.game_state == GAME_PLAYING


def test_a_dropped_double_counts_the_points_in_the_score() -> None:
    dropped = _rolled_to_player_1().double().drop()
    fields = MatchIdFields.decode(dropped.match_id())
    assert fields.game_state == GAME_DROP
    assert fields.score == (2, 2)
    assert not fields.double_offered


def test_an_accepted_resignation() -> None:
    game = _rolled_to_player_1().offer_resignation(0, ResultKind.BACKGAMMON)
    fields = MatchIdFields.decode(game.accept_resignation().match_id())
    assert fields.game_state == GAME_RESIGNED
    assert fields.resigned == 3
    assert fields.score == (2, 4)


def test_a_game_borne_off() -> None:
    from bot.engine import Position

    board = [0] * 26
    board[1] = 1
    board[19] = -15  # the opponent has borne off nothing: a gammon
    game = dataclasses.replace(
        _rolled_to_player_1(), position=Position.from_board(board), on_roll=0
    )
    over = game.roll((6, 5)).move("1/off")
    fields = MatchIdFields.decode(over.match_id())
    assert fields.game_state == GAME_OVER
    assert fields.score == (4, 1)
    assert fields.dice == (0, 0)


def test_the_crawford_game_sets_the_crawford_bit() -> None:
    game = dataclasses.replace(Game.new(MatchOptions(length=5)), score=(4, 2), crawford=True)
    assert MatchIdFields.decode(game.opening_roll(6, 1).match_id()).crawford is True
