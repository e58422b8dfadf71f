"""eXtreme Gammon's XGID, field by field: the text and XgidFields, worked out by hand, and
every way the text can be wrong refused with its own code."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine import EngineErrorCode, InvalidIdError, Position, XgidFields
from bot.engine.xgid import XgOffer
from tests.engine.support import positions
from tests.engine.test_properties import PROPERTY_SETTINGS

OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10"


def test_the_opening_field_by_field() -> None:
    fields = XgidFields.decode(OPENING)
    # Seen from the bottom player: 2 on their 24-point (B), 5 on the 13 (E), 3 on the 8 (C),
    # 5 on the 6 (E); the top player's letters mirror them.
    assert fields.board == Position.start()
    assert fields.board.board[24] == 2 and fields.board.board[1] == -2
    assert (fields.cube_log2, fields.cube_position, fields.turn) == (0, 0, 1)
    assert (fields.dice, fields.offer) == ((5, 2), None)
    assert (fields.score_bottom, fields.score_top, fields.rules) == (0, 0, 0)
    assert (fields.match_length, fields.max_cube_log2) == (5, 10)
    assert fields.encode() == OPENING


def test_the_bars_are_the_first_and_last_characters() -> None:
    # The top player has 2 on the bar (b, first), the bottom player 1 (A, last); the top
    # player's 13 checkers stand on the bottom player's 1-point (m), the bottom player's 14
    # on their own 24-point (N).
    fields = XgidFields.decode("bm----------------------NA:0:0:-1:00:0:0:0:0:10")
    board = fields.board.board
    assert (board[0], board[25], board[1], board[24]) == (2, 1, -13, 14)
    assert fields.board.borne_off() == (0, 0)
    assert fields.turn == -1 and fields.dice is None
    assert fields.encode() == "XGID=bm----------------------NA:0:0:-1:00:0:0:0:0:10"


@pytest.mark.parametrize(
    ("field5", "dice", "offer"),
    [
        ("00", None, None),
        ("52", (5, 2), None),
        ("25", (2, 5), None),  # kept as written: the record orders the dice
        ("66", (6, 6), None),
        ("D", None, XgOffer.DOUBLE),
        ("B", None, XgOffer.BEAVER),
        ("R", None, XgOffer.RACCOON),
    ],
)
def test_the_dice_field(field5: str, dice: tuple[int, int] | None, offer: XgOffer | None) -> None:
    text = f"XGID=-b----E-C---eE---c-e----B-:1:1:1:{field5}:2:0:3:0:10"
    fields = XgidFields.decode(text)
    assert (fields.dice, fields.offer) == (dice, offer)
    assert fields.encode() == text


@pytest.mark.parametrize(
    "text",
    [
        "-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10",  # no prefix
        "xgid=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10",
        "  XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10\n",
    ],
)
def test_the_prefix_and_spaces_are_optional(text: str) -> None:
    assert XgidFields.decode(text).encode() == OPENING


BAD: list[tuple[str, EngineErrorCode, dict[str, Any]]] = [
    ("", EngineErrorCode.XGID_FIELD_COUNT, {"count": 1}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5", EngineErrorCode.XGID_FIELD_COUNT, {}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10:", EngineErrorCode.XGID_FIELD_COUNT, {}),
    ("XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:0:5:10", EngineErrorCode.XGID_BOARD, {}),
    ("XGID=-b----E-C---eE---c-e----B--:0:0:1:52:0:0:0:5:10", EngineErrorCode.XGID_BOARD, {}),
    ("XGID=-b----E-C---eE---c-e----Bx:0:0:1:52:0:0:0:5:10", EngineErrorCode.XGID_BOARD, {}),
    ("XGID=-b----E-C---eE---c-e----B0:0:0:1:52:0:0:0:5:10", EngineErrorCode.XGID_BOARD, {}),
    ("XGID=-b----E-C---eE---c-e----BÉ:0:0:1:52:0:0:0:5:10", EngineErrorCode.XGID_BOARD, {}),
    # a capital (the bottom player) on the top player's bar, a small letter on the bottom's
    ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10", EngineErrorCode.XGID_BOARD, {}),
    ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:52:0:0:0:5:10", EngineErrorCode.XGID_BOARD, {}),
    # 16 checkers: the bottom player's 5 on the 6-point, 3 on the 8, 6 (F) on the 13, 2 on
    # the 24
    (
        "XGID=-b----E-C---eF---c-e----B-:0:0:1:52:0:0:0:5:10",
        EngineErrorCode.TOO_MANY_CHECKERS,
        {"mine": 16, "theirs": 15},
    ),
    ("XGID=-b----E-C---eE---c-e----B-:x:0:1:52:0:0:0:5:10", EngineErrorCode.XGID_FIELD, {}),
    (
        "XGID=-b----E-C---eE---c-e----B-:-1:0:1:52:0:0:0:5:10",
        EngineErrorCode.XGID_FIELD,
        {"number": 2, "value": "-1"},
    ),
    (
        "XGID=-b----E-C---eE---c-e----B-:0:2:1:52:0:0:0:5:10",
        EngineErrorCode.XGID_FIELD,
        {"number": 3, "value": "2"},
    ),
    (
        "XGID=-b----E-C---eE---c-e----B-:0:0:0:52:0:0:0:5:10",
        EngineErrorCode.XGID_FIELD,
        {"number": 4, "value": "0"},
    ),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:+1:52:0:0:0:5:10", EngineErrorCode.XGID_FIELD, {}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0: 1:52:0:0:0:5:10", EngineErrorCode.XGID_FIELD, {}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:5:10", EngineErrorCode.DICE_INVALID, {}),
    (
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:50:0:0:0:5:10",
        EngineErrorCode.DICE_INVALID,
        {"dice": "50"},
    ),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:5:0:0:0:5:10", EngineErrorCode.DICE_INVALID, {}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:d:0:0:0:5:10", EngineErrorCode.DICE_INVALID, {}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:521:0:0:0:5:10", EngineErrorCode.DICE_INVALID, {}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:-1:0:0:5:10", EngineErrorCode.XGID_FIELD, {}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0::0:5:10", EngineErrorCode.XGID_FIELD, {}),
    (
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:4:5:10",
        EngineErrorCode.XGID_FIELD,
        {"number": 8, "value": "4"},
    ),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:٥:10", EngineErrorCode.XGID_FIELD, {}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:1_0", EngineErrorCode.XGID_FIELD, {}),
    ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:99", EngineErrorCode.XGID_FIELD, {}),
]


@pytest.mark.parametrize(("text", "code", "params"), BAD)
def test_what_is_not_an_xgid_is_refused_with_its_reason(
    text: str, code: EngineErrorCode, params: dict[str, Any]
) -> None:
    with pytest.raises(InvalidIdError) as refused:
        XgidFields.decode(text)
    assert refused.value.code is code
    assert params.items() <= refused.value.params.items()


@st.composite
def xgid_fields(draw: st.DrawFn) -> XgidFields:
    """Any fields the text can carry, consistent or not (the codec does not judge)."""
    offer = draw(st.sampled_from([None, *XgOffer]))
    dice = None
    if offer is None and draw(st.booleans()):
        dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return XgidFields(
        board=draw(positions()),
        cube_log2=draw(st.integers(0, 15)),
        cube_position=draw(st.integers(-1, 1)),
        turn=draw(st.sampled_from([1, -1])),
        dice=dice,
        offer=offer,
        score_bottom=draw(st.integers(0, 999)),
        score_top=draw(st.integers(0, 999)),
        rules=draw(st.integers(0, 3)),
        match_length=draw(st.integers(0, 999)),
        max_cube_log2=draw(st.integers(0, 15)),
    )


@PROPERTY_SETTINGS
@given(fields=xgid_fields())
def test_fields_written_read_back_the_same(fields: XgidFields) -> None:
    text = fields.encode()
    assert text.startswith("XGID=") and len(text.split(":")) == 10
    assert XgidFields.decode(text) == fields
