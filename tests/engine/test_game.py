"""The game and match state machine, scenario by scenario, with expectations worked out by hand.

Special positions are built with ``dataclasses.replace(game, position=..., phase=..., dice=...)``;
boards are seen from the player on roll (positive = theirs, negative = the opponent's,
``board[25]`` their bar, ``board[0]`` the opponent's bar).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine import (
    EndReason,
    Game,
    IllegalPlayError,
    MatchOptions,
    NotAllowedNowError,
    Phase,
    Play,
    Position,
    Resignation,
    ResultKind,
)
from bot.engine.game import MAX_CUBE


def board(
    mine: dict[int, int], theirs: dict[int, int], *, my_bar: int = 0, their_bar: int = 0
) -> Position:
    """A position from the roller's side; ``theirs`` maps the roller's point numbers."""
    b = [0] * 26
    for point, n in mine.items():
        b[point] = n
    for point, n in theirs.items():
        assert b[point] == 0
        b[point] = -n
    b[25] = my_bar
    b[0] = their_bar
    return Position.from_board(b)


def at(
    game: Game,
    position: Position,
    *,
    on_roll: int = 0,
    phase: Phase = Phase.ROLL,
    dice: tuple[int, int] | None = None,
    **changes: Any,
) -> Game:
    return dataclasses.replace(
        game, position=position, on_roll=on_roll, phase=phase, dice=dice, **changes
    )


def refused(game: Game, action: Callable[[Game], object], match: str | None = None) -> str:
    """Run an action that must be refused; the game must come out unchanged."""
    before = dataclasses.replace(game)
    with pytest.raises(NotAllowedNowError, match=match) as info:
        action(game)
    assert game == before
    return str(info.value)


def opened(options: MatchOptions | None = None, **changes: Any) -> Game:
    """Player 0 opened 3-1 with 8/5 6/5; player 1 is on roll and may double or roll."""
    game = dataclasses.replace(Game.new(options), **changes)
    return game.opening_roll(3, 1).move("8/5 6/5")


# A bear-off finish: player 0 has one checker left on the 1-point and rolls 2-1.
LAST_CHECKER = {1: 1}


def finished(game: Game, theirs: dict[int, int], *, their_bar: int = 0, **changes: Any) -> Game:
    """Player 0 (on roll) bears off the last checker against ``theirs``."""
    start = at(game, board(LAST_CHECKER, theirs, their_bar=their_bar), **changes)
    end = start.roll((2, 1)).move("1/off")
    assert end.phase is Phase.OVER
    return end


# --- the opening roll -------------------------------------------------------------------


def test_a_new_game_waits_for_the_opening_roll() -> None:
    game = Game.new()
    assert game.phase is Phase.OPENING
    assert game.position == Position.start()
    assert (game.cube, game.cube_owner, game.score) == (1, None, (0, 0))
    assert game.options == MatchOptions()  # money game, every extra off
    assert not (game.options.jacoby or game.options.beavers or game.options.auto_doubles)


@pytest.mark.parametrize(
    ("die0", "die1", "first", "dice"),
    [(3, 1, 0, (3, 1)), (1, 3, 1, (3, 1)), (6, 5, 0, (6, 5)), (2, 6, 1, (6, 2))],
)
def test_the_higher_die_moves_first_with_both_numbers(
    die0: int, die1: int, first: int, dice: tuple[int, int]
) -> None:
    game = Game.new().opening_roll(die0, die1)
    assert (game.on_roll, game.actor, game.phase, game.dice) == (first, first, Phase.MOVE, dice)
    assert game.cube == 1


def test_the_opening_player_plays_both_dice_then_the_other_rolls() -> None:
    game = Game.new().opening_roll(3, 1).move("8/5 6/5")
    assert (game.on_roll, game.phase, game.dice) == (1, Phase.ROLL, None)
    assert game.last_player == 0
    assert str(game.last_play) == "8/5 6/5"
    assert game.last_position == Position.start()
    assert game.position_id() == "sGfwATDgc/ABMA"
    # Player 1 sees player 0's new point as their own 20-point.
    assert game.position.board[20] == -2


@pytest.mark.parametrize("die", range(1, 7))
def test_a_tie_is_rolled_again(die: int) -> None:
    game = Game.new()
    assert game.opening_roll(die, die) == game
    assert game.opening_roll(die, die).opening_roll(5, 2).on_roll == 0


def test_automatic_doubles_turn_the_cube_on_ties_up_to_the_limit() -> None:
    game = Game.new(MatchOptions(auto_doubles=2))
    game = game.opening_roll(4, 4)
    assert (game.phase, game.cube, game.cube_owner, game.auto_doubles_done) == (
        Phase.OPENING,
        2,
        None,
        1,
    )
    game = game.opening_roll(1, 1)
    assert (game.cube, game.auto_doubles_done) == (4, 2)
    assert game.opening_roll(6, 6) == game  # the limit is reached: a plain re-roll
    game = game.opening_roll(2, 5)
    assert (game.on_roll, game.dice, game.cube, game.cube_owner) == (1, (5, 2), 4, None)


def test_automatic_doubles_need_the_cube() -> None:
    game = Game.new(MatchOptions(auto_doubles=3, cube=False))
    assert game.opening_roll(3, 3) == game


def test_money_game_options_are_refused_in_a_match() -> None:
    for extra in ({"jacoby": True}, {"beavers": True}, {"auto_doubles": 1}):
        with pytest.raises(NotAllowedNowError, match="money-game options"):
            MatchOptions(length=5, **extra)


@pytest.mark.parametrize("length", [-1, 26])
def test_match_length_is_limited(length: int) -> None:
    with pytest.raises(NotAllowedNowError, match="1 to 25 points"):
        MatchOptions(length=length)


def test_the_opening_roll_happens_once() -> None:
    game = Game.new().opening_roll(3, 1)
    refused(game, lambda g: g.opening_roll(4, 2), "already")


@pytest.mark.parametrize("dice", [(0, 3), (7, 1)])
def test_opening_dice_must_be_dice(dice: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="dice"):
        Game.new().opening_roll(*dice)


def test_nothing_but_the_opening_roll_before_it() -> None:
    game = Game.new()
    refused(game, lambda g: g.roll((3, 1)), "not started")
    refused(game, lambda g: g.double(), "after the opening")
    refused(game, lambda g: g.move("8/5 6/5"), "not started")
    refused(game, lambda g: g.offer_resignation(0), "opening roll")


# --- rolling and moving -----------------------------------------------------------------


def test_roll_then_move() -> None:
    game = opened().roll((6, 5))
    assert (game.phase, game.dice, game.actor) == (Phase.MOVE, (6, 5), 1)
    game = game.move("24/13")
    assert (game.on_roll, game.phase) == (0, Phase.ROLL)
    assert game.last_player == 1


def test_rolling_twice_and_moving_before_rolling_are_refused() -> None:
    game = opened()
    refused(game, lambda g: g.move("13/7 8/3"), "Roll first")
    rolled = game.roll((6, 5))
    refused(rolled, lambda g: g.roll((1, 1)), "already rolled")


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    game = Game.new().opening_roll(3, 1)
    before = dataclasses.replace(game)
    with pytest.raises(IllegalPlayError, match="3-1"):
        game.move("24/18")
    with pytest.raises(IllegalPlayError):
        game.play(Play(()))  # passing is not allowed with a legal play
    assert game == before


def test_play_accepts_a_play_object_and_matches_move() -> None:
    game = Game.new().opening_roll(6, 4)
    for play in game.legal_plays():
        assert game.play(play) == game.move(str(play))


def test_legal_plays_only_with_dice() -> None:
    refused(opened(), lambda g: g.legal_plays(), "roll first")


# --- forced passes ----------------------------------------------------------------------

# Player 0 is on the bar against a closed board: no roll enters.
CLOSED_OUT = board(
    {6: 5, 8: 3, 13: 6},
    {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3},
    my_bar=1,
)


def test_a_player_who_cannot_move_passes() -> None:
    game = at(Game.new(), CLOSED_OUT, phase=Phase.MOVE, dice=(6, 6))
    assert game.legal_plays().is_forced_pass
    passed = game.pass_turn()
    assert (passed.on_roll, passed.phase, passed.dice) == (1, Phase.ROLL, None)
    assert passed.position == CLOSED_OUT.flip()
    assert passed.last_play == Play(())
    assert game.play(Play(())) == passed


def test_a_move_is_refused_when_none_is_possible() -> None:
    game = at(Game.new(), CLOSED_OUT, phase=Phase.MOVE, dice=(4, 2))
    with pytest.raises(IllegalPlayError, match="cannot move"):
        game.move("bar/21")


def test_passing_is_refused_with_a_legal_play() -> None:
    game = Game.new().opening_roll(3, 1)
    refused(game, lambda g: g.pass_turn(), "legal play")
    refused(opened(), lambda g: g.pass_turn(), "Roll first")


def test_a_checker_on_the_bar_enters_first() -> None:
    # Only the 22-point is open: the 3 enters, and the 5 is then played elsewhere.
    position = board(
        {6: 5, 8: 3, 13: 6},
        {19: 2, 20: 2, 21: 2, 23: 2, 24: 2, 12: 3},
        my_bar=1,
    )
    game = at(Game.new(), position, phase=Phase.MOVE, dice=(5, 3))
    with pytest.raises(IllegalPlayError, match="bar"):
        game.move("13/8 13/10")
    moved = game.move("bar/22 13/8")
    assert moved.position_for(0).board[22] == 1
    assert moved.position_for(0).bar == 0


# --- the doubling cube ------------------------------------------------------------------


def test_double_is_offered_before_rolling_and_answered_by_the_other_player() -> None:
    game = opened()
    assert game.can_double()
    doubled = game.double()
    assert (doubled.phase, doubled.on_roll, doubled.actor) == (Phase.DOUBLED, 1, 0)
    assert (doubled.cube, doubled.cube_owner) == (1, None)  # nothing turns until the take


def test_take_doubles_the_value_and_passes_the_cube() -> None:
    taken = opened().double().take()
    assert (taken.phase, taken.on_roll, taken.actor) == (Phase.ROLL, 1, 1)
    assert (taken.cube, taken.cube_owner) == (2, 0)
    # The doubler goes on to roll, but may not redouble: the taker owns the cube.
    assert refused(taken, lambda g: g.double(), "owns the cube")
    assert taken.roll((4, 2)).phase is Phase.MOVE


def test_drop_concedes_the_current_value() -> None:
    dropped = opened().double().drop()
    assert dropped.phase is Phase.OVER
    assert dropped.actor is None
    assert dropped.result is not None
    assert (dropped.result.winner, dropped.result.points) == (1, 1)
    assert (dropped.result.kind, dropped.result.reason) == (ResultKind.SINGLE, EndReason.DROPPED)
    assert dropped.final_score == (0, 1)


def test_redoubles_alternate_and_a_dropped_redouble_costs_the_cube_before_it() -> None:
    game = opened().double().take()  # cube 2, owned by player 0
    game = game.roll((4, 2)).move("8/4 6/4")  # player 1 plays; player 0 on roll
    assert game.on_roll == 0
    assert game.can_double()
    game = game.double().take()  # player 1 takes: cube 4 on their side
    assert (game.cube, game.cube_owner) == (4, 1)
    game = game.roll((6, 5)).move("24/13")  # player 0 runs; player 1 redoubles to 8
    game = game.double()
    assert game.actor == 0
    dropped = game.drop()
    assert dropped.result is not None
    assert (dropped.result.winner, dropped.result.points, dropped.result.cube) == (1, 4, 4)


def test_redoubles_go_up_to_gnubgs_highest_cube() -> None:
    game = dataclasses.replace(opened(), cube=MAX_CUBE // 2, cube_owner=1)
    game = game.double().take()
    assert game.cube == MAX_CUBE
    assert MAX_CUBE == 4096
    on_top = dataclasses.replace(game, on_roll=0)
    assert "highest value" in refused(on_top, lambda g: g.double())
    # The largest result still has a Match ID: a backgammon at the highest cube.
    lost = on_top.offer_resignation(0, ResultKind.BACKGAMMON).accept_resignation()
    assert lost.final_score == (0, 3 * MAX_CUBE)
    assert len(lost.match_id()) == 12


@pytest.mark.parametrize(
    ("phase", "dice", "why"),
    [
        (Phase.MOVE, (3, 2), "before you roll"),
        (Phase.DOUBLED, None, "already offered"),
        (Phase.OPENING, None, "after the opening"),
    ],
)
def test_double_only_before_rolling(phase: Phase, dice: tuple[int, int] | None, why: str) -> None:
    game = dataclasses.replace(opened(), phase=phase, dice=dice)
    assert not game.can_double()
    assert game.cube_refusal() is not None
    refused(game, lambda g: g.double(), why)


def test_only_the_cube_owner_redoubles_and_a_centred_cube_is_anyones() -> None:
    game = opened()
    assert dataclasses.replace(game, cube=2, cube_owner=1).can_double()
    refused(dataclasses.replace(game, cube=2, cube_owner=0), lambda g: g.double(), "owns")
    assert dataclasses.replace(game, on_roll=0).can_double()


def test_take_and_drop_need_a_double() -> None:
    game = opened()
    refused(game, lambda g: g.take(), "no double")
    refused(game, lambda g: g.drop(), "no double")
    refused(game, lambda g: g.beaver(), "no double")


def test_while_a_double_is_pending_nothing_else_moves() -> None:
    doubled = opened().double()
    refused(doubled, lambda g: g.roll((3, 3)), "take or drop")
    refused(doubled, lambda g: g.move("24/21"), "take or drop")
    refused(doubled, lambda g: g.pass_turn(), "take or drop")


def test_the_cube_can_be_switched_off() -> None:
    game = opened(MatchOptions(cube=False))
    refused(game, lambda g: g.double(), "cube is off")


def test_in_a_one_point_match_the_cube_is_dead() -> None:
    game = opened(MatchOptions(length=1))
    assert "1-point match" in refused(game, lambda g: g.double(), "dead")


def test_a_double_that_cannot_gain_is_refused_in_a_match() -> None:
    game = opened(MatchOptions(length=5), score=(0, 3), cube=2, cube_owner=1)
    refused(game, lambda g: g.double(), "already win the match")
    # The opponent, 5 points away, may still redouble when they own the cube.
    assert dataclasses.replace(game, on_roll=0, cube_owner=0).can_double()


# --- beavers ----------------------------------------------------------------------------


def test_beaver_then_the_doubler_takes() -> None:
    doubled = opened(MatchOptions(beavers=True)).double()  # player 1 doubles
    beavered = doubled.beaver()
    assert beavered.phase is Phase.DOUBLED
    assert beavered.beaver_pending
    assert (beavered.cube, beavered.cube_owner) == (2, 0)  # the beaverer keeps the cube
    assert beavered.actor == 1  # the doubler answers the beaver
    taken = beavered.take()
    assert (taken.phase, taken.on_roll, taken.actor) == (Phase.ROLL, 1, 1)
    assert (taken.cube, taken.cube_owner) == (4, 0)
    refused(taken, lambda g: g.double(), "owns the cube")


def test_beaver_then_the_doubler_drops() -> None:
    dropped = opened(MatchOptions(beavers=True)).double().beaver().drop()
    assert dropped.result is not None
    assert (dropped.result.winner, dropped.result.points) == (0, 2)


def test_beavers_only_when_agreed_and_only_once() -> None:
    refused(opened().double(), lambda g: g.beaver(), "not allowed")
    beavered = opened(MatchOptions(beavers=True)).double().beaver()
    refused(beavered, lambda g: g.beaver(), "take or drop")
    refused(beavered, lambda g: g.roll((1, 2)), "take or drop")


def test_a_beaver_may_not_pass_the_highest_cube() -> None:
    game = dataclasses.replace(
        opened(MatchOptions(beavers=True)), cube=MAX_CUBE // 2, cube_owner=1
    ).double()
    refused(game, lambda g: g.beaver(), "take or drop")
    assert game.take().cube == MAX_CUBE


# --- gammons, backgammons and the cube --------------------------------------------------

OPP_HOME = {19: 3, 20: 3, 21: 3, 22: 3, 23: 3}  # 15 checkers in their own home board


@pytest.mark.parametrize(
    ("theirs", "their_bar", "kind"),
    [
        ({19: 3, 20: 3, 21: 3, 22: 3, 23: 2}, 0, ResultKind.SINGLE),  # one borne off
        ({10: 1, 3: 1}, 0, ResultKind.SINGLE),  # 13 off: nothing counts but the win
        (OPP_HOME, 0, ResultKind.GAMMON),
        ({7: 1, 19: 2, 20: 3, 21: 3, 22: 3, 23: 3}, 0, ResultKind.GAMMON),  # just outside
        ({6: 1, 19: 2, 20: 3, 21: 3, 22: 3, 23: 3}, 0, ResultKind.BACKGAMMON),
        ({2: 1, 19: 2, 20: 3, 21: 3, 22: 3, 23: 3}, 0, ResultKind.BACKGAMMON),
        ({19: 2, 20: 3, 21: 3, 22: 3, 23: 3}, 1, ResultKind.BACKGAMMON),  # on the bar
    ],
)
def test_single_gammon_and_backgammon(
    theirs: dict[int, int], their_bar: int, kind: ResultKind
) -> None:
    end = finished(Game.new(), theirs, their_bar=their_bar)
    assert end.result is not None
    assert (end.result.winner, end.result.kind, end.result.reason) == (
        0,
        kind,
        EndReason.BORNE_OFF,
    )
    assert end.result.points == int(kind)
    assert end.borne_off()[0] == 15


@pytest.mark.parametrize(
    ("theirs", "their_bar", "points"),
    [
        ({19: 3, 20: 3, 21: 3, 22: 3, 23: 2}, 0, 4),
        (OPP_HOME, 0, 8),
        ({19: 2, 20: 3, 21: 3, 22: 3, 23: 3}, 1, 12),
    ],
)
def test_results_multiply_the_cube(theirs: dict[int, int], their_bar: int, points: int) -> None:
    end = finished(Game.new(), theirs, their_bar=their_bar, cube=4, cube_owner=1)
    assert end.result is not None
    assert (end.result.cube, end.result.points) == (4, points)
    assert end.final_score == (points, 0)


def test_the_winner_can_be_player_1() -> None:
    end = finished(Game.new(), OPP_HOME, on_roll=1)
    assert end.result is not None
    assert (end.result.winner, end.result.points, end.final_score) == (1, 2, (0, 2))
    assert end.borne_off() == (0, 15)
    assert end.match_winner == 1


def test_jacoby_counts_gammons_single_on_a_centred_cube() -> None:
    jacoby = Game.new(MatchOptions(jacoby=True))
    end = finished(jacoby, {19: 2, 20: 3, 21: 3, 22: 3, 23: 3}, their_bar=1)
    assert end.result is not None
    assert (end.result.kind, end.result.points) == (ResultKind.SINGLE, 1)


def test_jacoby_counts_gammons_once_a_double_was_taken() -> None:
    jacoby = Game.new(MatchOptions(jacoby=True))
    end = finished(jacoby, OPP_HOME, cube=2, cube_owner=1)
    assert end.result is not None
    assert (end.result.kind, end.result.points) == (ResultKind.GAMMON, 4)


def test_jacoby_is_not_lifted_by_automatic_doubles() -> None:
    # Only an offered and taken double lifts the Jacoby rule (GNU Backgammon: the cube
    # must not be centred); automatic doubles leave it centred at 2.
    game = Game.new(MatchOptions(jacoby=True, auto_doubles=1)).opening_roll(5, 5)
    end = finished(game, OPP_HOME)
    assert end.result is not None
    assert (end.result.kind, end.result.cube, end.result.points) == (ResultKind.SINGLE, 2, 2)


def test_without_jacoby_a_gammon_counts_on_a_centred_cube() -> None:
    end = finished(Game.new(MatchOptions(auto_doubles=1)).opening_roll(2, 2), OPP_HOME)
    assert end.result is not None
    assert (end.result.kind, end.result.points) == (ResultKind.GAMMON, 4)


def test_after_the_game_nothing_more_happens() -> None:
    end = finished(Game.new(), OPP_HOME)
    refused(end, lambda g: g.roll((1, 2)), "over")
    refused(end, lambda g: g.double(), "over")
    refused(end, lambda g: g.offer_resignation(1), "over")
    refused(end, lambda g: g.forfeit(1), "over")
    refused(end, lambda g: g.next_game(), "match is over")  # a money game is one game


# --- resignations -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "points"),
    [(ResultKind.SINGLE, 2), (ResultKind.GAMMON, 4), (ResultKind.BACKGAMMON, 6)],
)
def test_accepted_resignation_scores_its_kind_times_the_cube(kind: ResultKind, points: int) -> None:
    game = dataclasses.replace(opened(), cube=2, cube_owner=1)
    offered = game.offer_resignation(1, kind)
    assert offered.resignation == Resignation(1, kind)
    assert offered.actor == 0  # the other player answers
    accepted = offered.accept_resignation()
    assert accepted.result is not None
    assert (accepted.result.winner, accepted.result.kind, accepted.result.points) == (
        0,
        kind,
        points,
    )
    assert accepted.result.reason is EndReason.RESIGNED
    assert accepted.resignation is None
    assert accepted.phase is Phase.OVER


def test_rejected_resignation_restores_the_game() -> None:
    game = opened().roll((5, 2))
    offered = game.offer_resignation(1, ResultKind.GAMMON)
    assert offered.reject_resignation() == game


def test_the_player_not_on_roll_may_resign() -> None:
    game = opened().double()  # player 0 resigns instead of answering the double
    offered = game.offer_resignation(0)
    assert offered.actor == 1
    accepted = offered.accept_resignation()
    assert accepted.result is not None
    assert (accepted.result.winner, accepted.result.points) == (1, 1)


def test_actions_are_blocked_while_a_resignation_is_pending() -> None:
    in_roll = opened().offer_resignation(1)
    for action in (
        lambda g: g.roll((3, 1)),
        lambda g: g.double(),
        lambda g: g.offer_resignation(0),
    ):
        refused(in_roll, action)
    in_move = opened().roll((6, 5)).offer_resignation(0)
    for action in (
        lambda g: g.move("24/13"),
        lambda g: g.play(next(iter(g.legal_plays()))),
    ):
        refused(in_move, action, "resignation")
    in_pass = at(Game.new(), CLOSED_OUT, phase=Phase.MOVE, dice=(6, 6)).offer_resignation(1)
    refused(in_pass, lambda g: g.pass_turn(), "resignation")
    in_double = opened(MatchOptions(beavers=True)).double().offer_resignation(1)
    for action in (lambda g: g.take(), lambda g: g.drop(), lambda g: g.beaver()):
        refused(in_double, action, "resignation")


def test_resignation_answers_need_an_offer() -> None:
    game = opened()
    refused(game, lambda g: g.accept_resignation(), "no resignation")
    refused(game, lambda g: g.reject_resignation(), "no resignation")


def test_jacoby_applies_to_resigned_gammons_on_a_centred_cube() -> None:
    game = opened(MatchOptions(jacoby=True)).offer_resignation(0, ResultKind.GAMMON)
    accepted = game.accept_resignation()
    assert accepted.result is not None
    assert (accepted.result.kind, accepted.result.points) == (ResultKind.SINGLE, 1)


def test_a_resignation_names_a_real_player() -> None:
    with pytest.raises(ValueError, match="0 or 1"):
        opened().offer_resignation(2)


# --- matches, Crawford and the end of a match -------------------------------------------


def test_next_game_carries_the_score() -> None:
    end = finished(Game.new(MatchOptions(length=7)), OPP_HOME)  # a gammon: 2 points
    assert (end.score, end.final_score) == ((0, 0), (2, 0))
    assert not end.match_over
    assert end.match_winner is None
    nxt = end.next_game()
    assert (nxt.score, nxt.game_number, nxt.phase) == ((2, 0), 2, Phase.OPENING)
    assert (nxt.cube, nxt.cube_owner, nxt.result, nxt.crawford) == (1, None, None, False)
    assert nxt.position == Position.start()
    assert nxt.options == end.options


def test_next_game_needs_a_finished_game() -> None:
    refused(opened(MatchOptions(length=5)), lambda g: g.next_game(), "not over")


def test_crawford_game_and_post_crawford() -> None:
    five = MatchOptions(length=5)
    # 3-2 to 4-2: player 0 reaches match point, so the next game is the Crawford game.
    crawford = finished(Game.new(five), {19: 14}, score=(3, 2)).next_game()
    assert (crawford.score, crawford.crawford, crawford.post_crawford) == ((4, 2), True, False)
    game = crawford.opening_roll(4, 1).move("24/23 13/9")
    assert "Crawford" in refused(game, lambda g: g.double())
    # The trailer wins the Crawford game: doubling is allowed again for them.
    post = finished(crawford, {19: 14}, on_roll=1).next_game()
    assert (post.score, post.crawford, post.post_crawford) == ((4, 3), False, True)
    trailer = post.opening_roll(1, 2).move("13/11 6/5")
    assert trailer.on_roll == 0
    refused(trailer, lambda g: g.double(), "already win the match")  # the leader: pointless
    leader_moved = trailer.roll((2, 1)).move("13/11 6/5")
    assert leader_moved.on_roll == 1
    assert leader_moved.can_double()  # the trailer doubles freely after Crawford


def test_the_cube_is_in_play_unless_off_dead_or_crawford() -> None:
    assert Game.new(MatchOptions()).cube_in_play
    assert Game.new(MatchOptions(length=5)).cube_in_play
    assert not Game.new(MatchOptions(cube=False)).cube_in_play
    assert not Game.new(MatchOptions(length=1)).cube_in_play  # a dead cube
    five = MatchOptions(length=5)
    crawford = finished(Game.new(five), {19: 14}, score=(3, 2)).next_game()
    assert crawford.crawford and not crawford.cube_in_play
    post = finished(crawford, {19: 14}, on_roll=1).next_game()
    assert post.cube_in_play  # after the Crawford game
    owned = post.opening_roll(1, 2).move("13/11 6/5")
    assert owned.cube_in_play and not owned.can_double()  # in play, though refused here


def test_reaching_match_point_with_a_gammon_starts_crawford() -> None:
    nxt = finished(Game.new(MatchOptions(length=5)), OPP_HOME, score=(2, 0)).next_game()
    assert (nxt.score, nxt.crawford) == ((4, 0), True)


def test_crawford_happens_once_even_at_double_match_point() -> None:
    crawford = dataclasses.replace(Game.new(MatchOptions(length=5)), score=(4, 3), crawford=True)
    dmp = finished(crawford, {19: 14}, on_roll=1).next_game()
    assert (dmp.score, dmp.crawford, dmp.post_crawford) == ((4, 4), False, True)
    game = dmp.opening_roll(5, 3).move("8/3 6/3")
    refused(game, lambda g: g.double(), "already win the match")
    end = finished(dmp, {19: 14}, on_roll=1)
    assert (end.final_score, end.match_winner) == ((4, 5), 1)


def test_the_match_ends_at_n_even_past_it() -> None:
    game = Game.new(MatchOptions(length=5))
    end = finished(game, OPP_HOME, score=(3, 4), cube=2, cube_owner=0)
    assert end.final_score == (7, 4)
    assert end.match_over
    assert end.match_winner == 0
    refused(end, lambda g: g.next_game(), "match is over")


def test_the_crawford_game_won_by_the_leader_ends_the_match() -> None:
    crawford = dataclasses.replace(Game.new(MatchOptions(length=3)), score=(2, 0), crawford=True)
    end = finished(crawford, {19: 14})
    assert (end.final_score, end.match_over, end.match_winner) == ((3, 0), True, 0)


def test_a_one_point_match_ends_after_one_game() -> None:
    end = finished(Game.new(MatchOptions(length=1)), OPP_HOME)
    assert end.final_score == (2, 0)
    assert (end.match_over, end.match_winner) == (True, 0)


def test_a_money_game_is_over_after_one_game() -> None:
    end = finished(Game.new(), {19: 14}, on_roll=1)
    assert (end.match_over, end.match_winner) == (True, 1)


# --- forfeits ---------------------------------------------------------------------------


def test_forfeit_awards_the_match() -> None:
    game = opened(MatchOptions(length=7), score=(2, 5), cube=2, cube_owner=0)
    claimed = game.forfeit(0)
    assert claimed.result is not None
    assert (claimed.result.winner, claimed.result.points) == (0, 5)
    assert claimed.result.reason is EndReason.FORFEIT
    assert claimed.final_score == (7, 5)
    assert (claimed.match_over, claimed.match_winner) == (True, 0)


def test_forfeit_of_one_game_costs_the_cube() -> None:
    game = opened(MatchOptions(length=7), score=(2, 5), cube=2, cube_owner=0)
    claimed = game.forfeit(1, whole_match=False)
    assert claimed.result is not None
    assert (claimed.result.points, claimed.final_score, claimed.match_over) == (2, (2, 7), True)
    smaller = dataclasses.replace(game, score=(0, 0)).forfeit(1, whole_match=False)
    assert smaller.final_score == (0, 2)
    assert smaller.next_game().score == (0, 2)


def test_forfeit_in_a_money_game_and_before_the_opening_roll() -> None:
    money = dataclasses.replace(opened(), cube=4, cube_owner=1).forfeit(1)
    assert money.result is not None
    assert (money.result.points, money.match_winner) == (4, 1)
    early = Game.new(MatchOptions(length=3)).forfeit(1)
    assert (early.final_score, early.match_winner) == ((0, 3), 1)


def test_forfeit_clears_a_pending_resignation_and_double() -> None:
    game = opened(MatchOptions(length=3)).double().offer_resignation(0)
    claimed = game.forfeit(1)
    assert (claimed.phase, claimed.resignation, claimed.match_winner) == (Phase.OVER, None, 1)


def test_forfeit_names_a_real_player() -> None:
    with pytest.raises(ValueError, match="0 or 1"):
        opened().forfeit(-1)
