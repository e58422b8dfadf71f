"""Standard notation both ways: GNU Backgammon's way of writing plays, and what people type."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import (
    IllegalPlayError,
    InvalidNotationError,
    Move,
    Position,
    format_moves,
    legal_plays,
    parse_play,
)
from bot.engine import notation as notation_module
from bot.engine.notation import parse_hops
from tests.engine.support import case_id, conformance_cases, pos


def start_with(**changes: int) -> Position:
    """The opening position with some points changed: start_with(p7=-1, p12=-4)."""
    board = Position.start().to_board()
    for name, count in changes.items():
        board[int(name[1:])] = count
    return Position.from_board(board)


START = Position.start()
# The opponent has a blot on our 7-point (one checker taken from their midpoint).
BLOT_ON_7 = start_with(p7=-1, p12=-4)
# The opponent has made our 7-point.
BLOCKED_7 = start_with(p7=-2, p12=-3)
# One of our back checkers is on the bar.
ON_BAR = start_with(p24=1, p25=1)
# ... and the opponent has a blot on our 20-point.
ON_BAR_BLOT_20 = start_with(p24=1, p25=1, p19=-4, p20=-1)
# All fifteen home, ready to bear off.
BEAR_OFF = pos({6: 2, 5: 2, 4: 3, 3: 3, 2: 3, 1: 2, 19: -15})
# A lone back checker with the opponent's blots on 18 and/or 19.
BLOT_18 = pos({24: 1, 1: 14, 18: -1})
BLOTS_18_19 = pos({24: 1, 1: 14, 18: -1, 19: -1})


# --- formatting ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "expected"),
    [
        ([Move(24, 18), Move(18, 13)], "24/13"),
        ([Move(24, 18, True), Move(18, 13)], "24/18*/13"),
        ([Move(24, 20, True), Move(20, 16, True)], "24/20*/16*"),
        ([Move(24, 20), Move(20, 16), Move(16, 12, True), Move(12, 8)], "24/12*/8"),
        ([Move(8, 5), Move(6, 5), Move(8, 5), Move(6, 5)], "8/5(2) 6/5(2)"),
        ([Move(13, 8)] * 4, "13/8(4)"),
        ([Move(25, 22)], "bar/22"),
        ([Move(25, 20, True), Move(20, 14)], "bar/20*/14"),
        ([Move(6, 0)], "6/off"),
        ([Move(6, 2), Move(2, 0)], "6/off"),
        ([Move(13, 7, True), Move(8, 7)], "13/7* 8/7"),
        ([Move(8, 7, True), Move(13, 7)], "13/7* 8/7"),  # marked once, on the first shown
        ([Move(6, 5), Move(13, 7)], "13/7 6/5"),
        ([Move(13, 7), Move(13, 8)], "13/8 13/7"),
        ([Move(5, 0), Move(5, 1)], "5/1 5/off"),
        ([Move(12, 9, True), Move(9, 6), Move(12, 9), Move(9, 6)], "12/9*/6(2)"),
        ([Move(25, 22), Move(25, 22), Move(22, 19), Move(19, 16)], "bar/16 bar/22"),
        ([], "(no move)"),
    ],
)
def test_format_moves_like_gnubg(moves: list[Move], expected: str) -> None:
    assert format_moves(moves) == expected


def test_single_moves_print_themselves() -> None:
    assert [str(Move(25, 22)), str(Move(6, 0)), str(Move(13, 7, True))] == [
        "bar/22",
        "6/off",
        "13/7*",
    ]


# --- parsing what people type ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "dice", "text", "expected"),
    [
        (START, (6, 1), "13/7 8/7", "13/7 8/7"),
        (START, (6, 1), "8/7 13/7", "13/7 8/7"),
        (START, (1, 6), "13/7 8/7", "13/7 8/7"),
        (START, (6, 1), "13/7, 8/7", "13/7 8/7"),
        (START, (6, 1), "13/7,8/7", "13/7 8/7"),
        (START, (6, 1), "  13 / 7   8/7 ", "13/7 8/7"),
        (START, (6, 1), "13/7* 8/7", "13/7 8/7"),  # a stray * is forgiven
        (BLOT_ON_7, (6, 1), "13/7* 8/7", "13/7* 8/7"),
        (BLOT_ON_7, (6, 1), "13/7 8/7", "13/7* 8/7"),  # the missing * too
        (BLOT_ON_7, (5, 1), "13/7*", "13/7*"),
        (START, (6, 5), "24/18/13", "24/13"),
        (START, (6, 5), "24/13", "24/13"),
        (START, (5, 6), "24/18 18/13", "24/13"),
        (START, (3, 3), "13/7(2)", "13/7(2)"),
        (START, (3, 3), "13/10/7(2)", "13/7(2)"),
        (START, (1, 1), "8/7(2) 6/5(2)", "8/7(2) 6/5(2)"),
        (START, (1, 1), "6/5(2), 8/7(2)", "8/7(2) 6/5(2)"),
        (START, (2, 2), "8/6(2) 6/4(2)", "8/4(2)"),
        (START, (2, 2), "6/4(2) 8/6(2)", "8/4(2)"),
        (START, (6, 6), "24/18(2) 13/7(2)", "24/18(2) 13/7(2)"),
        (ON_BAR, (3, 1), "bar/22 6/5", "bar/22 6/5"),
        (ON_BAR, (3, 1), "25/22 6/5", "bar/22 6/5"),
        (ON_BAR, (3, 1), "BAR/22 6/5", "bar/22 6/5"),
        (ON_BAR, (1, 3), "6/5 bar/22", "bar/22 6/5"),  # the entering move may come second
        (ON_BAR_BLOT_20, (5, 1), "bar/20* 6/5", "bar/20* 6/5"),
        (ON_BAR_BLOT_20, (5, 1), "bar/20 6/5", "bar/20* 6/5"),
        (BEAR_OFF, (6, 5), "6/off 5/off", "6/off 5/off"),
        (BEAR_OFF, (6, 5), "6/0 5/0", "6/off 5/off"),
        (BEAR_OFF, (6, 5), "6/OFF 5/Off", "6/off 5/off"),
        (BEAR_OFF, (5, 6), "5/off, 6/off", "6/off 5/off"),
        (BLOT_18, (6, 5), "24/13", "24/13"),  # quiet: through the 19-point
        (BLOT_18, (6, 5), "24/18*/13", "24/18*/13"),
        (BLOT_18, (6, 5), "24/18/13", "24/18*/13"),  # landing on 18 hits, written or not
        (BLOT_18, (6, 5), "24/19/13", "24/13"),
    ],
)
def test_parse_accepted_forms(
    position: Position, dice: tuple[int, int], text: str, expected: str
) -> None:
    play = parse_play(position, dice, text)
    assert str(play) == expected
    assert play in legal_plays(position, dice)


def test_parsed_plays_reach_the_right_positions() -> None:
    assert START.apply(parse_play(START, (3, 1), "8/5 6/5")) == start_with(p8=2, p6=4, p5=2)
    hit = BLOT_18.apply(parse_play(BLOT_18, (6, 5), "24/18*/13"))
    assert hit == pos({13: 1, 1: 14, 0: 1})
    quiet = BLOT_18.apply(parse_play(BLOT_18, (6, 5), "24/13"))
    assert quiet == pos({13: 1, 1: 14, 18: -1})
    entered = ON_BAR.apply(parse_play(ON_BAR, (3, 1), "bar/22 6/5"))
    assert entered == start_with(p24=1, p22=1, p6=4, p5=1)


def test_parse_hops_expands_counts_and_chains() -> None:
    hops = parse_hops("24/18*/13(2)")
    assert [(h.source, h.target, h.marked_hit) for h in hops] == [
        (24, 18, True),
        (18, 13, False),
        (24, 18, True),
        (18, 13, False),
    ]
    # No roll plays 8/5(2) 6/5(2) (a 3 and a 1 are not a doublet), but it is well written.
    assert [(h.source, h.target) for h in parse_hops("8/5(2) 6/5(2)")] == [
        (8, 5),
        (8, 5),
        (6, 5),
        (6, 5),
    ]
    with pytest.raises(IllegalPlayError, match="it needs more than the 3-1 you rolled"):
        parse_play(START, (3, 1), "8/5(2) 6/5(2)")
    assert parse_hops("(no move)") == []
    assert parse_hops("Pass") == []


def test_a_forced_pass_is_written_no_move() -> None:
    closed = pos({25: 1, 6: 5, **{point: -2 for point in range(19, 25)}})
    for text in ["(no move)", "pass", "no move"]:
        assert parse_play(closed, (6, 5), text).moves == ()
    with pytest.raises(IllegalPlayError, match=r"^You cannot move with 6-5: no checker can move"):
        parse_play(closed, (6, 5), "bar/19")


def test_you_cannot_pass_with_a_legal_play() -> None:
    with pytest.raises(IllegalPlayError, match=r"^You can move with 6-5, so you must\. Legal: "):
        parse_play(START, (6, 5), "pass")


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "   ", "hello", "13-7", "13 7", "13/27", "7/13", "13/13", "13/bar", "off/3",
     "13/7(5)", "13/7(0)", "13/7/", "/7", "13//7", "13/7 8/7 6/5 24/23 13/12 8/2 6/1 5/4 4/3"],
)  # fmt: skip
def test_syntax_errors_are_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotationError):
        parse_play(START, (6, 1), text)


def test_a_huge_string_is_refused_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_generation(*args: object) -> None:
        raise AssertionError("legal plays were generated for a 3000-character string")

    monkeypatch.setattr(notation_module, "legal_plays", no_generation)
    with pytest.raises(InvalidNotationError, match="too long"):
        parse_play(START, (6, 1), "13/7 " * 600)


@pytest.mark.parametrize(
    ("position", "dice", "text", "message"),
    [
        (ON_BAR, (3, 1), "13/10 6/5", "You must enter from the bar first."),
        (ON_BAR, (3, 1), "24/21 24/23", "You must enter from the bar first."),
        (
            BLOCKED_7,
            (6, 5),
            "13/7 13/8",
            "13/7 13/8 is not legal with 6-5: the 7-point is blocked. Legal: ",
        ),
        (
            BLOCKED_7,
            (5, 6),
            "13/8 13/7",
            "13/8 13/7 is not legal with 5-6: the 7-point is blocked. Legal: ",
        ),
        (START, (6, 5), "24/18", "Use both dice: 24/18 alone leaves the 5 unplayed."),
        (START, (5, 6), "24/18", "Use both dice: 24/18 alone leaves the 5 unplayed."),
        (START, (6, 5), "13/8", "Use both dice: 13/8 alone leaves the 6 unplayed."),
        (
            START,
            (6, 6),
            "13/7(2)",
            "13/7(2) is not legal with 6-6: you can play 4 of your 6s, not 2. Legal: ",
        ),
        (
            pos({24: 1, 1: 14, 13: -2}),
            (6, 5),
            "24/19",
            "24/19 is not legal with 6-5: only one die can be played, so you must play the 6.",
        ),
        (
            START,
            (6, 5),
            "9/3 9/4",
            "9/3 9/4 is not legal with 6-5: you have no checker on the 9-point.",
        ),
        (
            START,
            (6, 5),
            "13/7 13/8 8/3",
            "13/7 13/8 8/3 is not legal with 6-5: it needs more than the 6-5 you rolled.",
        ),
        (START, (6, 5), "13/10 8/5", "13/10 8/5 is not legal with 6-5: 13/10 does not fit 6-5."),
        (
            START,
            (6, 5),
            "6/off 8/3",
            "6/off 8/3 is not legal with 6-5: you can bear off only when all your checkers "
            "are home.",
        ),
        (
            pos({6: 1, 3: 1}),
            (5, 4),
            "3/off",
            "3/off is not legal with 5-4: a 5 bears off from the 3-point only when no checker "
            "is on a higher point.",
        ),
        (
            BLOTS_18_19,
            (6, 5),
            "24/13",
            "24/13 could mean more than one play: 24/18*/13, 24/19*/13. Write the one you mean.",
        ),
    ],
)
def test_illegal_plays_get_precise_messages(
    position: Position, dice: tuple[int, int], text: str, message: str
) -> None:
    with pytest.raises(IllegalPlayError) as caught:
        parse_play(position, dice, text)
    assert str(caught.value).startswith(message)


def test_the_ambiguous_options_each_parse() -> None:
    for text, hit_point in [("24/18*/13", 18), ("24/19*/13", 19)]:
        result = BLOTS_18_19.apply(parse_play(BLOTS_18_19, (6, 5), text))
        assert result.opponent_bar == 1
        assert result.board[hit_point] == 0


# --- round trip: whatever the engine writes, it reads back --------------------------------


@pytest.mark.parametrize("case", conformance_cases(), ids=case_id)
def test_every_legal_play_round_trips(case: dict[str, Any]) -> None:
    position = Position.from_board(case["board"])
    dice = tuple(case["dice"])
    plays = legal_plays(position, dice)
    for result, play in plays.items():
        text = str(play)
        parsed = parse_play(position, dice, text, plays)
        assert position.apply(parsed) == result, text
        assert str(parsed) == text
        # The single-die moves, as the generator made them, name the same play.
        raw = " ".join(str(move) for move in play.moves) or "(no move)"
        assert position.apply(parse_play(position, dice, raw, plays)) == result, raw


@pytest.mark.parametrize("dice", [(d1, d2) for d1 in range(1, 7) for d2 in range(1, 7)])
def test_opening_plays_round_trip_with_either_die_order(dice: tuple[int, int]) -> None:
    reversed_dice = (dice[1], dice[0])
    for result, play in legal_plays(START, dice).items():
        assert START.apply(parse_play(START, reversed_dice, str(play))) == result
