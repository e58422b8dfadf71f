"""Hand-built positions with the exact set of legal plays worked out by hand.

Positions are written from the player on roll's side with :func:`pos`: positive counts are
theirs, negative the opponent's, key 25 their bar, key 0 the opponent's bar.
"""

from __future__ import annotations

import pytest

from bot.engine import (
    EngineErrorCode,
    InvalidIdError,
    InvalidPositionError,
    Move,
    Play,
    Position,
    legal_plays,
)
from tests.engine.support import formatted, pos

ALL_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


def assert_forced_pass(position: Position, dice: tuple[int, int]) -> None:
    plays = legal_plays(position, dice)
    assert plays.max_dice == 0
    assert plays.is_forced_pass
    assert plays.results() == [position]
    assert [play.moves for play in plays] == [()]
    assert formatted(plays) == {"(no move)"}


# --- entering from the bar ------------------------------------------------------------------


def test_enter_with_the_open_die_then_play_the_other() -> None:
    # The 19-point (a 6) is blocked, the 20-point (a 5) open.
    position = pos({25: 1, 13: 2, 19: -2, 1: -2})
    plays = legal_plays(position, (6, 5))
    assert plays.max_dice == 2
    assert formatted(plays) == {"bar/14", "bar/20 13/7"}


def test_both_entry_points_blocked_is_a_forced_pass() -> None:
    assert_forced_pass(pos({25: 1, 13: 2, 19: -2, 20: -2}), (6, 5))


def test_second_checker_on_the_bar_stops_the_other_die() -> None:
    # One checker enters with the 5; the 6 cannot enter, so nothing else may move.
    plays = legal_plays(pos({25: 2, 13: 1, 19: -2}), (6, 5))
    assert plays.max_dice == 1
    assert formatted(plays) == {"bar/20"}


def test_two_checkers_enter_with_a_doublet_before_anything_else_moves() -> None:
    plays = legal_plays(pos({25: 2, 6: 1, 1: -2}), (3, 3))
    assert plays.max_dice == 4
    # The 6-point checker cannot bear off: the entered checkers are not home.
    assert formatted(plays) == {"bar/19(2)", "bar/16 bar/22", "bar/19 bar/22 6/3"}
    assert all(p.moves[0].source == p.moves[1].source == 25 for p in plays)


@pytest.mark.parametrize("dice", ALL_ROLLS)
def test_closed_board_dances_on_every_roll(dice: tuple[int, int]) -> None:
    closed = {point: -2 for point in range(19, 25)}
    assert_forced_pass(pos({25: 1, 6: 5, **closed}), dice)


# --- which dice must be used ---------------------------------------------------------------


@pytest.mark.parametrize("dice", [(6, 5), (5, 6)])
def test_larger_die_when_only_one_can_be_played(dice: tuple[int, int]) -> None:
    # 24/18 and 24/19 are each legal, but either way the 13-point stops the other die.
    # (The checkers on the 1-point cannot bear off while one is on the 24-point.)
    position = pos({24: 1, 1: 14, 13: -2})
    plays = legal_plays(position, dice)
    assert plays.max_dice == 1
    assert formatted(plays) == {"24/18"}


def test_smaller_die_when_the_larger_cannot_be_played_at_all() -> None:
    plays = legal_plays(pos({24: 1, 1: 14, 13: -2, 18: -2}), (6, 5))
    assert plays.max_dice == 1
    assert formatted(plays) == {"24/19"}


@pytest.mark.parametrize("dice", [(6, 5), (5, 6)])
def test_order_of_the_dice_can_matter(dice: tuple[int, int]) -> None:
    # The 6 first lands on the blocked 18-point; the 5 first and then the 6 is fine.
    plays = legal_plays(pos({24: 1, 1: 14, 18: -2}), dice)
    assert plays.max_dice == 2
    assert formatted(plays) == {"24/13"}
    (play,) = plays
    assert play.moves == (Move(24, 19), Move(19, 13))


def test_forced_pass_without_a_checker_on_the_bar() -> None:
    assert_forced_pass(pos({24: 1, 1: 14, 18: -2, 19: -2}), (6, 5))


def test_doublet_partly_playable_two_of_four() -> None:
    plays = legal_plays(pos({13: 1, 1: 14, 4: -2}), (3, 3))
    assert plays.max_dice == 2
    assert formatted(plays) == {"13/7"}


def test_doublet_partly_playable_three_of_four() -> None:
    # 13/10/7/4; then 4/1 is blocked and the 2s cannot bear off past the 4-point checker.
    plays = legal_plays(pos({13: 1, 2: 14, 1: -2}), (3, 3))
    assert plays.max_dice == 3
    assert formatted(plays) == {"13/4"}


# --- hitting -------------------------------------------------------------------------------


def test_hit_in_the_middle_of_a_combined_move() -> None:
    position = pos({24: 1, 1: 14, 18: -1})
    plays = legal_plays(position, (6, 5))
    assert formatted(plays) == {"24/18*/13", "24/13"}
    hit = pos({13: 1, 1: 14, 0: 1})
    assert hit in plays
    assert str(plays.play_for(hit)) == "24/18*/13"
    assert str(plays.play_for(pos({13: 1, 1: 14, 18: -1}))) == "24/13"


def test_hit_in_the_middle_when_the_other_route_is_blocked() -> None:
    plays = legal_plays(pos({24: 1, 1: 14, 18: -1, 19: -2}), (6, 5))
    assert formatted(plays) == {"24/18*/13"}


def test_opening_six_five_written_as_gnubg_does() -> None:
    plays = legal_plays(Position.start(), (6, 5))
    assert formatted(plays) == {
        "24/13",
        "24/18 13/8",
        "24/18 8/3",
        "13/8 13/7",
        "13/7 8/3",
        "13/2",
        "8/3 8/2",
    }


# --- bearing off ---------------------------------------------------------------------------


def test_bear_off_with_gaps_and_larger_dice() -> None:
    # Checkers on 6, 4, 4, 1 with 5-3: the 5 cannot bear off from the 4 while the 6 is there.
    plays = legal_plays(pos({6: 1, 4: 2, 1: 1}), (5, 3))
    assert formatted(plays) == {"6/1 4/1", "6/3 4/off"}


def test_larger_die_bears_off_from_the_highest_point() -> None:
    # No checker on the 6: the 6 bears off from the 5; the 4 cannot bear off from the 3.
    plays = legal_plays(pos({5: 2, 3: 1, 2: 1}), (6, 4))
    assert formatted(plays) == {"5/1 5/off"}


def test_both_dice_bear_off_from_lower_points() -> None:
    plays = legal_plays(pos({3: 1, 2: 1}), (6, 5))
    assert formatted(plays) == {"3/off 2/off"}
    assert plays.results()[0].borne_off() == (15, 15)


def test_never_compelled_to_bear_off() -> None:
    plays = legal_plays(pos({5: 1, 2: 1}), (2, 1))
    assert formatted(plays) == {"5/2", "5/3 2/1", "5/4 2/off"}


def test_no_bearing_off_with_a_checker_outside() -> None:
    # The 2 cannot bear off first (the 7 is outside); 7/5 then lets the 6 bear it off.
    plays = legal_plays(pos({7: 1, 2: 1}), (6, 2))
    assert formatted(plays) == {"7/1 2/off", "7/off"}


# --- Play and LegalPlays ---------------------------------------------------------------------


def test_legal_plays_membership() -> None:
    plays = legal_plays(Position.start(), (3, 1))
    assert len(plays) == 16
    assert Play((Move(8, 5), Move(6, 5))) in plays
    assert Play((Move(6, 5), Move(8, 5))) in plays  # the order of the moves is irrelevant
    assert Play((Move(8, 5),)) not in plays  # only half the roll
    assert Play((Move(13, 10), Move(10, 9))) in plays
    assert Play((Move(13, 9),)) not in plays  # same result, but 13/9 is not one die of 3-1
    assert Play((Move(13, 12), Move(12, 9))) not in plays  # the 12-point is blocked
    assert Play((Move(24, 21), Move(6, 5), Move(6, 5))) not in plays
    assert "8/5 6/5" not in plays  # text is for parse_play, not a member
    assert Position.start() not in plays


def test_membership_of_bear_offs_with_a_larger_die() -> None:
    plays = legal_plays(pos({3: 1, 2: 1}), (6, 5))
    assert Play((Move(3, 0), Move(2, 0))) in plays
    assert Play((Move(2, 0), Move(3, 0))) not in plays  # the 2 cannot go first past the 3
    assert Play((Move(3, 0),)) not in plays


def test_dice_are_checked() -> None:
    for dice in [(0, 3), (7, 1), (1,), (1, 2, 3)]:
        with pytest.raises(ValueError, match="dice must be two numbers"):
            legal_plays(Position.start(), dice)  # type: ignore[arg-type]


# --- Position invariants -------------------------------------------------------------------


def test_start_position() -> None:
    start = Position.start()
    # fmt: off
    assert start.to_board() == [
        0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0
    ]
    # fmt: on
    assert start.pips() == (167, 167)
    assert start.borne_off() == (0, 0)
    assert (start.bar, start.opponent_bar) == (0, 0)
    assert not start.all_home()
    assert not start.is_over()
    assert start.flip() == start


def test_flip_by_hand() -> None:
    position = pos({25: 1, 24: 2, 6: 3, 1: -3, 8: -1, 0: 2})
    flipped = position.flip()
    assert flipped == pos({25: 2, 24: 3, 17: 1, 19: -3, 1: -2, 0: 1})
    assert flipped.flip() == position
    assert flipped.pips() == tuple(reversed(position.pips()))
    assert flipped.borne_off() == tuple(reversed(position.borne_off()))


@pytest.mark.parametrize(
    ("points", "pips", "off"),
    [
        ({25: 1, 6: 2, 1: -1, 0: 1}, (37, 49), (12, 13)),
        ({1: 15, 24: -15}, (15, 15), (0, 0)),
        ({3: 1, 22: -2}, (3, 6), (14, 13)),
        ({}, (0, 0), (15, 15)),
    ],
)
def test_pips_and_borne_off(
    points: dict[int, int], pips: tuple[int, int], off: tuple[int, int]
) -> None:
    position = pos(points)
    assert position.pips() == pips
    assert position.borne_off() == off


def test_all_home_and_game_over() -> None:
    assert pos({6: 3, 1: 1, 7: -2}).all_home()
    assert not pos({7: 1, 6: 3}).all_home()
    assert not pos({25: 1, 6: 3}).all_home()
    assert pos({24: -1}).is_over()  # the player on roll has borne everything off
    assert pos({1: 1}).is_over()  # so has the opponent
    assert not pos({1: 1, 24: -1}).is_over()


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ([0] * 25, "26 entries"),
        ([0] * 27, "26 entries"),
        ([0] * 25 + [-1], "must not be negative"),
        ([-1] + [0] * 25, "must not be negative"),
        ([0, 16] + [0] * 24, "at most 15"),
        ([0] * 24 + [-16, 0], "at most 15"),
        ([0, 10] + [0] * 22 + [5, 1], "at most 15"),
        ([3] + [-13] + [0] * 24, "at most 15"),
    ],
)
def test_invalid_boards_are_rejected(board: list[int], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_board(board)


@pytest.mark.parametrize("text", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPwATDgc/AB!A"])
def test_malformed_position_ids_are_rejected(text: str) -> None:
    with pytest.raises(InvalidIdError):
        Position.from_id(text)


def test_position_id_with_too_many_checkers_is_rejected() -> None:
    # Eighty 1-bits: every checker of the opponent's count lands on one point. The text is
    # to blame, so the error is the one for pasted IDs.
    with pytest.raises(InvalidIdError, match="at most 15") as refused:
        Position.from_id("//////////////")
    assert refused.value.code is EngineErrorCode.TOO_MANY_CHECKERS
    assert refused.value.params == {"mine": 0, "theirs": 80}


def test_apply_refuses_impossible_moves() -> None:
    from bot.engine import IllegalPlayError

    start = Position.start()
    with pytest.raises(IllegalPlayError, match="13/1"):
        start.apply(Play((Move(13, 1),)))  # the opponent holds the 1-point
    with pytest.raises(IllegalPlayError, match="5/2"):
        start.apply(Play((Move(5, 2),)))  # no checker on the 5-point
    assert start.apply(Play(())) == start
