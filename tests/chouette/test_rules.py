"""The chouette's rules C1-C8 and the edge cases of the design notes (section 3B), on the
pure model: each test sets a session up, acts, and asserts the exact cubes, points and seats."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.engine import IllegalPlayError
from bot.features.chouette.rules import (
    Answer,
    AnswerOrder,
    Chouette,
    ChouetteError,
    Code,
    Consultation,
    Kind,
    Offer,
    Rotation,
    Seat,
    Settled,
    Side,
    Stage,
    Status,
    order_by_dice,
    rotate,
)
from bot.features.chouette.rules import play as verbs
from tests.chouette.support import (
    ALICE,
    BACKGAMMON,
    BOB,
    CAROL,
    DAVE,
    ERIN,
    FRANK,
    GAMMON,
    SINGLE,
    begun,
    board_at,
    dice,
    last_checker,
    seated,
)


def refused(code: Code, action: object) -> None:
    assert callable(action)
    with pytest.raises(ChouetteError) as caught:
        action()
    assert caught.value.code is code, caught.value


def points_of(s: Chouette, number: int) -> dict[int, int]:
    (record,) = [r for r in s.records if r.number == number]
    return record.by_player


def window(s: Chouette) -> Chouette:
    """After the captain's opening 3-1, the box plays 3-1 too: the team's window opens."""
    s = verbs.move(s, BOB, "8/5 6/5").session  # the team's opening 3-1
    s = verbs.roll(s, ALICE, dice(3, 1)).session
    return verbs.move(s, ALICE, "8/5 6/5").session


# --- C1: the order by the dice -------------------------------------------------------------


def test_the_highest_die_is_the_box_the_next_the_captain_and_ties_roll_again() -> None:
    # alice 4, bob 6, carol 4, dave 2: bob box; alice and carol tie and roll again (1, 5).
    order, rounds = order_by_dice([ALICE, BOB, CAROL, DAVE], dice(4, 6, 4, 2, 1, 5))
    assert order == (BOB, CAROL, ALICE, DAVE)
    assert rounds == [((ALICE, BOB, CAROL, DAVE), (4, 6, 4, 2)), ((ALICE, CAROL), (1, 5))]


def test_a_session_begins_with_three_players_seated_by_the_dice() -> None:
    s = seated([ALICE, BOB])
    refused(Code.TOO_FEW, lambda: verbs.begin(s, ALICE, dice()))
    s = verbs.join(s, Seat(CAROL, "carol")).session
    applied = verbs.begin(s, CAROL, dice(2, 5, 3, 6, 1))
    s = applied.session
    assert s.status is Status.PLAYING
    assert s.order == (BOB, CAROL, ALICE)
    g = s.game
    assert g is not None
    assert (g.box, g.captain, g.team) == (BOB, CAROL, (CAROL, ALICE))
    assert [c.value for c in g.cubes] == [1, 1] and all(c.owner is None for c in g.cubes)
    # The opening roll is box against captain: the box's 6 beats the captain's 1.
    assert g.stage is Stage.MOVE and g.board.on_roll == Side.BOX and g.board.dice == (6, 1)
    kinds = [e.kind for e in applied.events]
    assert kinds == [Kind.ORDERED, Kind.BEGAN, Kind.GAME, Kind.OPENING]


def test_a_seat_asked_to_take_the_box_takes_it_and_the_others_roll() -> None:
    s = dataclasses.replace(seated([ALICE, BOB, CAROL]), first_box=CAROL)
    s = verbs.begin(s, ALICE, dice(2, 5, 6, 1)).session
    assert s.order == (CAROL, BOB, ALICE)


def test_nobody_sits_twice_and_a_seventh_player_is_refused() -> None:
    s = seated([ALICE, BOB, CAROL, DAVE, ERIN, FRANK])
    refused(Code.ALREADY_SEATED, lambda: verbs.join(s, Seat(ALICE, "alice")))
    refused(Code.FULL, lambda: verbs.join(s, Seat(7, "grace")))


# --- C2, C3: the team's cubes and the doubling window --------------------------------------


def test_each_member_has_a_cube_and_the_captain_moves_the_checkers() -> None:
    s = begun()
    g = s.game
    assert g is not None and g.to_move == BOB  # the captain won the opening roll
    refused(Code.NOT_THE_CAPTAIN, lambda: verbs.move(s, CAROL, "8/5 6/5"))
    s = verbs.move(s, BOB, "8/5 6/5").session
    assert s.game is not None and s.game.stage is Stage.BOX_TURN


def test_members_double_on_their_own_and_the_box_answers_each_at_once() -> None:
    s = window(begun())
    assert s.game is not None and s.game.stage is Stage.WINDOW
    moment = s.moment
    s = verbs.double(s, CAROL).session
    s = verbs.double(s, DAVE).session
    assert s.moment == moment  # the window is one decision: both buttons still hold
    refused(Code.ALREADY_DOUBLED, lambda: verbs.double(s, CAROL))  # a double click
    refused(Code.NOT_THE_CAPTAIN, lambda: verbs.roll(s, CAROL, dice()))
    refused(Code.NOTHING_TO_ANSWER, lambda: verbs.answer_box(s, ALICE, {}, dice()))
    s = verbs.roll(s, BOB, dice()).session  # the captain closes the window
    g = s.game
    assert g is not None and g.stage is Stage.BOX_ANSWERS and s.moment == moment + 1
    refused(
        Code.ANSWER_EVERY_DOUBLE, lambda: verbs.answer_box(s, ALICE, {CAROL: Answer.TAKE}, dice())
    )
    answers = {CAROL: Answer.TAKE, DAVE: Answer.DROP}
    s = verbs.answer_box(s, ALICE, answers, dice(4, 2)).session
    g = s.game
    assert g is not None
    carol, dave, bob = g.cube(CAROL), g.cube(DAVE), g.cube(BOB)
    assert (carol.value, carol.owner, carol.turned, carol.in_play) == (2, Side.BOX, True, True)
    assert (dave.points, dave.settled) == (1, Settled.BOX_DROPPED)  # dave won his 1
    assert (bob.value, bob.owner, bob.in_play) == (1, None, True)  # bob never doubled
    # Then the captain's roll that closed the window.
    assert g.stage is Stage.MOVE and g.board.dice == (4, 2) and g.to_move == BOB


def test_silence_is_no_double_the_captain_simply_rolls() -> None:
    s = window(begun())
    applied = verbs.roll(s, BOB, dice(5, 2))
    g = applied.session.game
    assert g is not None and g.stage is Stage.MOVE and g.board.dice == (5, 2)
    assert all(c.offer is None and c.value == 1 for c in g.cubes)


def test_the_box_cannot_double_in_the_team_window_nor_a_member_on_the_box_turn() -> None:
    s = window(begun())
    refused(Code.NOT_NOW, lambda: verbs.double(s, ALICE, members=[BOB]))
    s = verbs.roll(s, BOB, dice(3, 1)).session
    s = verbs.move(s, BOB, "8/5 6/5").session
    refused(Code.NOT_THE_BOX, lambda: verbs.double(s, CAROL))
    refused(Code.NOT_THE_BOX, lambda: verbs.double(verbs.join(s, Seat(ERIN, "e")).session, ERIN))


def test_a_member_cannot_redouble_a_cube_the_box_owns() -> None:
    s = window(begun())
    s = verbs.double(s, CAROL).session
    s = verbs.roll(s, BOB, dice()).session
    s = verbs.answer_box(s, ALICE, {CAROL: Answer.TAKE}, dice(3, 1)).session
    s = verbs.move(s, BOB, "8/5 6/5").session
    s = verbs.roll(s, ALICE, dice(3, 1)).session
    s = verbs.move(s, ALICE, "13/10 6/5").session
    refused(Code.BOX_OWNS_CUBE, lambda: verbs.double(s, CAROL))
    s = verbs.double(s, DAVE).session  # his own cube is still centred
    assert s.game is not None and s.game.cube(DAVE).offer is Offer.BY_MEMBER


# --- C4: the box doubles any subset ---------------------------------------------------------


def box_turn(**options: Any) -> Chouette:
    s = begun(**options)
    return verbs.move(s, BOB, "8/5 6/5").session


def test_the_box_doubles_a_subset_and_each_member_answers_on_their_own() -> None:
    s = box_turn()
    refused(Code.PICK_MEMBERS, lambda: verbs.double(s, ALICE, members=[]))
    refused(Code.PICK_MEMBERS, lambda: verbs.double(s, ALICE, members=[BOB, ERIN]))
    s = verbs.double(s, ALICE, members=[BOB, DAVE]).session
    g = s.game
    assert g is not None and g.stage is Stage.MEMBER_ANSWERS
    assert [c.offer for c in g.cubes] == [Offer.BY_BOX, None, Offer.BY_BOX]
    refused(Code.NOTHING_TO_ANSWER, lambda: verbs.answer_member(s, CAROL, Answer.TAKE, dice()))
    s = verbs.answer_member(s, DAVE, Answer.TAKE, dice()).session
    assert s.game is not None and s.game.cube(DAVE).value == 2
    assert s.game.cube(DAVE).owner is Side.TEAM
    s = verbs.answer_member(s, BOB, Answer.TAKE, dice(6, 5)).session
    g = s.game
    assert g is not None and g.stage is Stage.MOVE and g.board.dice == (6, 5)
    assert g.to_move == ALICE  # the box rolled once every double was answered


def test_the_captain_drops_and_the_next_member_plays_on_rotation_unchanged() -> None:
    s = box_turn()
    s = verbs.double(s, ALICE, members=[BOB, CAROL]).session
    s = verbs.answer_member(s, BOB, Answer.DROP, dice()).session
    applied = verbs.answer_member(s, CAROL, Answer.TAKE, dice(2, 1))
    s = applied.session
    g = s.game
    assert g is not None
    assert g.cube(BOB).points == -1 and g.captain_won is False
    assert g.acting == CAROL and g.captain == BOB
    assert any(e.kind is Kind.ACTING and e.player == CAROL for e in applied.events)
    # The acting captain plays the game out; the box beat the captain: it stays.
    s = verbs.move(s, ALICE, "24/23 24/22").session
    s = board_at(s, last_checker(SINGLE), Side.TEAM)
    refused(Code.NOT_THE_CAPTAIN, lambda: verbs.roll(s, BOB, dice()))  # out of the game
    s = verbs.roll(s, CAROL, dice(2, 1)).session
    s = verbs.move(s, CAROL, "1/off", dice(3, 1)).session
    assert points_of(s, 1) == {ALICE: -2, BOB: -1, CAROL: 2, DAVE: 1}
    assert s.order == (ALICE, CAROL, DAVE, BOB)  # box stays, bob to the back


def test_the_box_drops_the_captains_double_and_loses_the_box_after_the_game() -> None:
    s = window(begun())
    s = verbs.double(s, BOB).session
    s = verbs.double(s, CAROL).session
    s = verbs.roll(s, BOB, dice()).session
    answers = {BOB: Answer.DROP, CAROL: Answer.TAKE}
    s = verbs.answer_box(s, ALICE, answers, dice(3, 1)).session
    g = s.game
    assert g is not None and g.captain_won is True and g.acting == CAROL
    assert g.to_move == CAROL and g.board.dice == (3, 1)  # the next member plays the roll
    s = verbs.move(s, CAROL, "13/10 6/5").session
    s = board_at(s, last_checker(GAMMON), Side.BOX)
    s = verbs.roll(s, ALICE, dice(2, 1)).session
    s = verbs.move(s, ALICE, "1/off", dice(3, 1)).session
    # The box won a gammon: carol's turned cube pays 2 x 2, dave's centred one 1 (Jacoby).
    assert points_of(s, 1) == {ALICE: -1 + 4 + 1, BOB: 1, CAROL: -4, DAVE: -1}
    assert s.order == (BOB, CAROL, DAVE, ALICE)  # the captain became the box


def test_the_last_team_member_dropping_ends_the_game() -> None:
    s = box_turn()
    s = verbs.double(s, ALICE, members=[BOB, CAROL, DAVE]).session
    for member in (CAROL, DAVE):
        s = verbs.answer_member(s, member, Answer.DROP, dice()).session
    applied = verbs.answer_member(s, BOB, Answer.DROP, dice(4, 1))
    s = applied.session
    assert points_of(s, 1) == {ALICE: 3, BOB: -1, CAROL: -1, DAVE: -1}
    assert s.game is not None and s.game.number == 2  # the next game began at once
    assert s.order == (ALICE, CAROL, DAVE, BOB)
    over = [e for e in applied.events if e.kind is Kind.OVER]
    assert over and over[0].winner is None  # not played out


# --- C6: Jacoby per member, beavers -------------------------------------------------------


@pytest.mark.parametrize(
    ("theirs", "kind"), [(SINGLE, 1), (GAMMON, 2), (BACKGAMMON, 3)], ids=["single", "gammon", "bg"]
)
def test_jacoby_is_judged_per_member(theirs: dict[int, int], kind: int) -> None:
    s = window(begun())
    s = verbs.double(s, CAROL).session
    s = verbs.roll(s, BOB, dice()).session
    s = verbs.answer_box(s, ALICE, {CAROL: Answer.TAKE}, dice(3, 1)).session
    s = verbs.move(s, BOB, "8/5 6/5").session
    s = board_at(s, last_checker(theirs), Side.BOX)
    s = verbs.roll(s, ALICE, dice(6, 6)).session
    s = verbs.move(s, ALICE, "1/off", dice(3, 1)).session
    # carol's cube was turned: the whole result; bob's and dave's never: a single game.
    assert points_of(s, 1) == {ALICE: 2 * kind + 2, BOB: -1, CAROL: -2 * kind, DAVE: -1}


def test_without_jacoby_every_cube_counts_the_gammon() -> None:
    s = window(begun(jacoby=False))
    s = verbs.roll(s, BOB, dice(3, 1)).session
    s = verbs.move(s, BOB, "8/5 6/5").session
    s = board_at(s, last_checker(GAMMON), Side.BOX)
    s = verbs.roll(s, ALICE, dice(6, 6)).session
    s = verbs.move(s, ALICE, "1/off", dice(3, 1)).session
    assert points_of(s, 1) == {ALICE: 6, BOB: -2, CAROL: -2, DAVE: -2}


def test_beavers_only_when_the_session_allows_them() -> None:
    s = box_turn()
    s = verbs.double(s, ALICE, members=[CAROL]).session
    refused(Code.BEAVERS_OFF, lambda: verbs.answer_member(s, CAROL, Answer.BEAVER, dice()))
    s = box_turn(beavers=True)
    s = verbs.double(s, ALICE, members=[CAROL]).session
    s = verbs.answer_member(s, CAROL, Answer.BEAVER, dice(2, 1)).session
    cube = s.game.cube(CAROL) if s.game else None
    assert cube is not None and (cube.value, cube.owner, cube.turned) == (4, Side.TEAM, True)


def test_automatic_doubles_turn_every_cube_on_a_tied_opening() -> None:
    s = seated(auto_doubles=1)
    s = verbs.begin(s, ALICE, dice(6, 5, 4, 3, 2, 2, 4, 4, 3, 1)).session
    g = s.game
    assert g is not None and [c.value for c in g.cubes] == [2, 2, 2]  # one only: the limit
    assert not any(c.turned for c in g.cubes)  # Jacoby still applies: no double was taken


# --- house rules (C3, C4) -----------------------------------------------------------------


def doubled_by(*members: int, **options: Any) -> Chouette:
    s = window(begun(**options))
    for member in members:
        s = verbs.double(s, member).session
    return verbs.roll(s, BOB, dice()).session


def test_house_rule_the_box_must_take_the_captains_cube_if_it_takes_any() -> None:
    s = doubled_by(BOB, CAROL, box_takes_captain=True)
    answers = {BOB: Answer.DROP, CAROL: Answer.TAKE}
    refused(Code.TAKE_CAPTAIN, lambda: verbs.answer_box(s, ALICE, answers, dice()))
    drop_all = {BOB: Answer.DROP, CAROL: Answer.DROP}
    assert verbs.answer_box(s, ALICE, drop_all, dice(2, 1)).session.game is not None


def test_house_rule_the_box_takes_at_least_half_or_none() -> None:
    s = doubled_by(BOB, CAROL, DAVE, box_takes_half=True)
    one = {BOB: Answer.TAKE, CAROL: Answer.DROP, DAVE: Answer.DROP}
    refused(Code.TAKE_HALF, lambda: verbs.answer_box(s, ALICE, one, dice()))
    two = {BOB: Answer.TAKE, CAROL: Answer.TAKE, DAVE: Answer.DROP}
    assert verbs.answer_box(s, ALICE, two, dice(2, 1)).session.game is not None


def test_house_rule_answers_from_the_end_of_the_line_to_the_captain() -> None:
    s = box_turn(answer_order=AnswerOrder.LINE_TO_CAPTAIN)
    s = verbs.double(s, ALICE, members=[BOB, CAROL, DAVE]).session
    refused(Code.WAIT_LINE, lambda: verbs.answer_member(s, BOB, Answer.TAKE, dice()))
    refused(Code.WAIT_LINE, lambda: verbs.answer_member(s, CAROL, Answer.TAKE, dice()))
    s = verbs.answer_member(s, DAVE, Answer.DROP, dice()).session
    s = verbs.answer_member(s, CAROL, Answer.TAKE, dice()).session
    s = verbs.answer_member(s, BOB, Answer.TAKE, dice(2, 1)).session
    assert s.game is not None and s.game.stage is Stage.MOVE


def test_house_rule_a_captain_taking_alone_must_beaver() -> None:
    s = box_turn(captain_must_beaver=True)
    s = verbs.double(s, ALICE, members=[BOB, CAROL]).session
    refused(Code.CAPTAIN_LAST, lambda: verbs.answer_member(s, BOB, Answer.TAKE, dice()))
    s = verbs.answer_member(s, CAROL, Answer.DROP, dice()).session
    refused(Code.MUST_BEAVER, lambda: verbs.answer_member(s, BOB, Answer.TAKE, dice()))
    s = verbs.answer_member(s, BOB, Answer.BEAVER, dice(2, 1)).session  # beavers off, yet
    assert s.game is not None and s.game.cube(BOB).value == 4
    # Not alone: a plain take.
    s = box_turn(captain_must_beaver=True)
    s = verbs.double(s, ALICE, members=[BOB, CAROL]).session
    s = verbs.answer_member(s, CAROL, Answer.TAKE, dice()).session
    s = verbs.answer_member(s, BOB, Answer.TAKE, dice(2, 1)).session
    assert s.game is not None and s.game.cube(BOB).value == 2


# --- C7: consultation ---------------------------------------------------------------------


def test_consultation_none_refuses_every_suggestion() -> None:
    s = begun(consultation=Consultation.NONE)
    refused(Code.NO_ADVICE, lambda: verbs.advise(s, CAROL, "8/5 6/5"))


def test_no_cube_no_talk_only_once_your_own_cube_is_turned() -> None:
    s = begun(consultation=Consultation.CUBE_TURNED)
    refused(Code.NO_ADVICE, lambda: verbs.advise(s, CAROL, "8/5 6/5"))
    s = window(s)
    s = verbs.double(s, CAROL).session
    s = verbs.roll(s, BOB, dice()).session
    s = verbs.answer_box(s, ALICE, {CAROL: Answer.TAKE}, dice(3, 1)).session
    s = verbs.advise(s, CAROL, "  8/5   6/5 ").session
    assert s.game is not None and s.game.advice == ((CAROL, "8/5 6/5"),)
    refused(Code.NO_ADVICE, lambda: verbs.advise(s, BOB, "hm"))  # the captain himself
    s = verbs.move(s, BOB, "8/5 6/5").session
    assert s.game is not None and s.game.advice == ()  # advice is for one decision


def test_full_consultation_but_not_for_members_out_of_the_game() -> None:
    s = begun(consultation=Consultation.FULL)
    s = verbs.advise(s, DAVE, "13/10 24/23").session
    refused(Code.ADVICE_TEXT, lambda: verbs.advise(s, DAVE, "x" * 201))
    s = verbs.move(s, BOB, "8/5 6/5").session
    s = verbs.double(s, ALICE, members=[DAVE]).session
    s = verbs.answer_member(s, DAVE, Answer.DROP, dice(2, 1)).session
    s = verbs.move(s, ALICE, "24/23 24/22").session
    refused(Code.NO_ADVICE, lambda: verbs.advise(s, DAVE, "double!"))
    assert verbs.advise(s, CAROL, "double!").session.game is not None  # a cube decision


# --- C8: settlement and rotation ----------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "shares"), [(5, (3, 2)), (-5, (-3, -2)), (4, (2, 2)), (0, (0, 0)), (-1, (-1, 0))]
)
def test_the_partner_shares_equally_the_odd_point_to_the_box(
    total: int, shares: tuple[int, int]
) -> None:
    from bot.features.chouette.rules.settle import box_shares

    assert box_shares(total, True) == shares


def test_a_partner_from_six_players_shares_the_box_and_rotates_as_in_the_fibs_rules() -> None:
    order = (ALICE, BOB, CAROL, DAVE, ERIN, FRANK)
    s = begun(order, partner=True)
    g = s.game
    assert g is not None and (g.box, g.partner, g.captain) == (ALICE, BOB, CAROL)
    assert g.team == (CAROL, DAVE, ERIN, FRANK)
    s = verbs.move(s, CAROL, "8/5 6/5").session
    s = board_at(s, last_checker(SINGLE), Side.TEAM)
    s = verbs.roll(s, CAROL, dice(2, 1)).session
    s = verbs.move(s, CAROL, "1/off", dice(3, 1)).session
    # Four members won 1 each: the box side pays 4, two each.
    assert points_of(s, 1) == {ALICE: -2, BOB: -2, CAROL: 1, DAVE: 1, ERIN: 1, FRANK: 1}
    # The captain won: captain to the box, next in line the partner, the partner captain.
    assert s.order == (CAROL, DAVE, BOB, ERIN, FRANK, ALICE)


@pytest.mark.parametrize(
    ("stays", "partner", "expected"),
    [
        (True, False, (1, 3, 4, 2)),
        (False, False, (2, 3, 4, 1)),
        (True, True, (1, 2, 4, 5, 6, 3)),
        (False, True, (3, 4, 2, 5, 6, 1)),
    ],
)
def test_rotation(stays: bool, partner: bool, expected: tuple[int, ...]) -> None:
    order = (1, 2, 3, 4, 5, 6) if partner else (1, 2, 3, 4)
    assert rotate(order, box_stays=stays, partner=partner) == expected


def test_new_players_join_at_the_back_ahead_of_the_loser_and_leavers_go() -> None:
    assert rotate((1, 2, 3), box_stays=True, partner=False, waiting=(9,)) == (1, 3, 9, 2)
    assert rotate((1, 2, 3), box_stays=False, partner=False, leaving={1}) == (2, 3)


def test_rotation_by_net_keeps_a_box_that_did_not_lose_points() -> None:
    s = box_turn(rotation=Rotation.NET)
    s = verbs.double(s, ALICE, members=[CAROL, DAVE]).session
    s = verbs.answer_member(s, CAROL, Answer.DROP, dice()).session
    s = verbs.answer_member(s, DAVE, Answer.DROP, dice(2, 1)).session
    s = verbs.move(s, ALICE, "24/23 24/22").session
    s = board_at(s, last_checker(SINGLE), Side.TEAM)
    s = verbs.roll(s, BOB, dice(2, 1)).session
    s = verbs.move(s, BOB, "1/off", dice(3, 1)).session
    # The captain beat the box (1) but the box won 2 from the line: net +1, it stays.
    assert points_of(s, 1) == {ALICE: 1, BOB: 1, CAROL: -1, DAVE: -1}
    assert s.order == (ALICE, CAROL, DAVE, BOB)


# --- joining and leaving --------------------------------------------------------------------


def test_a_player_joining_during_a_game_comes_in_at_the_back_of_the_line_next_game() -> None:
    s = begun()
    s = verbs.join(s, Seat(ERIN, "erin")).session
    assert s.game is not None and not s.game.has(ERIN) and s.waiting == (ERIN,)
    s = box_turn_from(s)
    s = verbs.double(s, ALICE, members=[BOB, CAROL, DAVE]).session
    for member in (BOB, CAROL, DAVE):
        s = verbs.answer_member(s, member, Answer.DROP, dice(4, 1)).session
    assert s.order == (ALICE, CAROL, DAVE, ERIN, BOB)
    assert s.game is not None and s.game.team == (CAROL, DAVE, ERIN, BOB)


def box_turn_from(s: Chouette) -> Chouette:
    return verbs.move(s, BOB, "8/5 6/5").session


def test_a_member_leaving_mid_game_follows_the_captain_and_goes_after_it() -> None:
    s = window(begun())
    s = verbs.leave(s, DAVE).session
    assert s.game is not None and DAVE in s.game.away and DAVE in s.order
    refused(Code.NOT_SEATED, lambda: verbs.double(s, DAVE))
    s = verbs.double(s, BOB).session  # the captain's double turns dave's cube too
    assert s.game is not None and s.game.cube(DAVE).offer is Offer.BY_MEMBER
    s = verbs.roll(s, BOB, dice()).session
    s = verbs.answer_box(s, ALICE, {BOB: Answer.TAKE, DAVE: Answer.TAKE}, dice(3, 1)).session
    s = verbs.move(s, BOB, "8/5 6/5").session
    s = verbs.double(s, ALICE, members=[CAROL, DAVE]).session  # a redouble of dave's 2? no:
    # the box owns dave's cube at 2 and redoubles it; carol's is centred.
    s = verbs.answer_member(s, CAROL, Answer.TAKE, dice()).session
    g = s.game
    assert g is not None and g.cube(DAVE).offer is Offer.BY_BOX  # waits for the captain
    applied = verbs.answer_member(s, BOB, Answer.DROP, dice(2, 1))  # bob answers for dave
    s = applied.session
    assert s.game is not None and s.game.cube(DAVE).points == -2
    assert any(e.kind is Kind.FOLLOWED and e.player == DAVE for e in applied.events)
    s = verbs.move(s, ALICE, "24/23 24/22").session
    s = board_at(s, last_checker(SINGLE), Side.TEAM)
    s = verbs.roll(s, BOB, dice(2, 1)).session
    s = verbs.move(s, BOB, "1/off", dice(3, 1)).session
    assert points_of(s, 1) == {ALICE: -2 - 2 + 2, BOB: 2, CAROL: 2, DAVE: -2}
    assert DAVE not in s.order and s.order == (BOB, CAROL, ALICE)


def test_a_member_idle_when_doubled_follows_the_captains_answer() -> None:
    s = box_turn()
    s = verbs.double(s, ALICE, members=[BOB, DAVE]).session
    s = verbs.answer_member(s, BOB, Answer.TAKE, dice()).session
    s = verbs.follow_captain(s, [DAVE], dice(6, 1)).session
    g = s.game
    assert g is not None and g.cube(DAVE).value == 2 and g.stage is Stage.MOVE


def test_the_acting_captain_leaving_hands_the_checkers_to_the_next_member() -> None:
    s = begun()
    applied = verbs.leave(s, BOB)
    g = applied.session.game
    assert g is not None and g.acting == CAROL and g.to_move == CAROL
    assert g.cube(BOB).in_play  # bob's cube still plays, following the acting captain


def test_the_box_leaving_loses_every_cube_in_play_and_the_captain_becomes_box() -> None:
    s = window(begun())
    s = verbs.double(s, CAROL).session
    s = verbs.roll(s, BOB, dice()).session
    s = verbs.answer_box(s, ALICE, {CAROL: Answer.TAKE}, dice(3, 1)).session
    s = verbs.leave(s, ALICE, dice(5, 2)).session
    assert points_of(s, 1) == {ALICE: -4, BOB: 1, CAROL: 2, DAVE: 1}
    assert s.order == (BOB, CAROL, DAVE) and s.game is not None and s.game.box == BOB


def test_two_players_left_play_a_plain_money_game_and_one_ends_the_session() -> None:
    s = begun((ALICE, BOB, CAROL))
    s = verbs.leave(s, CAROL).session
    s = box_turn_from(s)
    s = verbs.double(s, ALICE, members=[BOB, CAROL]).session
    s = verbs.answer_member(s, BOB, Answer.DROP, dice(3, 1)).session  # carol follows bob
    assert s.order == (ALICE, BOB)
    g = s.game
    assert g is not None and (g.box, g.team) == (ALICE, (BOB,))  # one cube: a money game
    s = verbs.leave(s, ALICE, dice()).session
    assert s.status is Status.ENDED


def test_everyone_leaving_before_the_first_game_ends_the_session() -> None:
    s = seated([ALICE, BOB])
    s = verbs.leave(s, ALICE).session
    assert s.status is Status.OPEN and s.players == (BOB,)
    s = verbs.leave(s, BOB).session
    assert s.status is Status.ENDED
    refused(Code.SESSION_OVER, lambda: verbs.join(s, Seat(ALICE, "alice")))


def test_ending_a_session_voids_the_game_in_play() -> None:
    s = window(begun())
    applied = verbs.end(s, ALICE)
    assert applied.session.status is Status.ENDED and applied.session.records == ()
    assert [e.kind for e in applied.events] == [Kind.VOIDED, Kind.ENDED]


# --- checkers -----------------------------------------------------------------------------


def test_an_illegal_play_is_the_engines_refusal_and_changes_nothing() -> None:
    s = begun()
    with pytest.raises(IllegalPlayError):
        verbs.move(s, BOB, "24/18")
    assert s.game is not None and s.game.stage is Stage.MOVE


def test_a_forced_pass_passes_the_turn_by_itself() -> None:
    s = begun()
    s = verbs.move(s, BOB, "8/5 6/5").session
    board = [0] * 26
    board[25] = 1  # the box has a checker on the bar against a closed board
    for point in range(19, 25):
        board[point] = -2
    board[1] = 14
    s = board_at(s, board, Side.BOX)
    applied = verbs.roll(s, ALICE, dice(6, 5))
    g = applied.session.game
    assert g is not None and g.stage is Stage.WINDOW
    assert [e.kind for e in applied.events] == [Kind.ROLLED, Kind.PASSED]
