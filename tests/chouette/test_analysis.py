"""The analysis of a chouette follows from its log: the captain's checker plays and each
member's cube decisions, each judged in the engine's view of the box against that member's
cube, every player's box and team games combined, the computer's seat left out."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

from bot.computer import CubeDecision
from bot.engine import Play
from bot.features.chouette.analysis import analyse, decisions_by_player, finished_games
from bot.features.chouette.rules import Answer, Chouette, Event, Seat
from bot.features.chouette.rules import play as verbs
from bot.workers import Workers
from tests.chouette.support import ALICE, BOB, CAROL, DAVE, dice, seated


def box_doubles_everyone_at_the_start() -> tuple[Chouette, list[Event]]:
    """bob (captain) opens 3-1 with 8/5 6/5; alice (the box) doubles all three at once, far
    too soon; all three drop, far too soon: the game is over."""
    log: list[Event] = []

    def step(applied: verbs.Applied) -> Chouette:
        log.extend(applied.events)
        return applied.session

    s = step(verbs.begin(seated(), ALICE, dice(6, 5, 4, 3, 1, 3)))
    s = step(verbs.move(s, BOB, "8/5 6/5"))
    s = step(verbs.double(s, ALICE, None, [BOB, CAROL, DAVE]))
    for member in (CAROL, DAVE, BOB):
        s = step(verbs.answer_member(s, member, Answer.DROP, dice(5, 2)))
    return s, log


def test_each_player_s_decisions_are_their_own_in_the_view_of_their_cube() -> None:
    s, log = box_doubles_everyone_at_the_start()
    assert finished_games(s) == (1,)
    found = decisions_by_player(log, s, finished_games(s))
    assert [d for _view, d in found[ALICE]] == [CubeDecision.DOUBLE] * 3
    assert all(view.actor == 0 for view, _d in found[ALICE])  # the box is player 0
    (play, drop) = found[BOB]
    assert isinstance(play[1], Play) and play[0].actor == 1 and play[0].dice == (3, 1)
    assert drop[1] is CubeDecision.DROP and drop[0].actor == 1 and drop[0].cube == 1
    assert [d for _view, d in found[CAROL]] == [CubeDecision.DROP]
    assert decisions_by_player(log, s, ()) == {p: [] for p in (ALICE, BOB, CAROL, DAVE)}


def test_the_computer_s_seat_is_not_analysed() -> None:
    s, log = box_doubles_everyone_at_the_start()
    seats = tuple(dataclasses.replace(seat, computer=seat.id == ALICE) for seat in s.seats)
    robot = dataclasses.replace(s, seats=seats)
    assert ALICE not in decisions_by_player(log, robot, (1,))
    assert robot.seat(ALICE) == Seat(ALICE, "alice", True)


@pytest.fixture
async def workers() -> AsyncIterator[Workers]:
    pytest.importorskip("bgsage")
    workers = Workers.inline()
    await workers.start()
    try:
        yield workers
    finally:
        await workers.close()


async def test_the_box_s_early_doubles_and_the_members_drops_are_its_and_their_errors(
    workers: Workers,
) -> None:
    s, log = box_doubles_everyone_at_the_start()
    result = await analyse(workers, 7, log, s, finished_games(s))
    assert result.session == 7 and result.games == (1,)
    box, captain, carol = result.players[ALICE], result.players[BOB], result.players[CAROL]
    # Doubling at the start is wrong, dropping such a double far worse (a blunder each).
    assert box.checker_decisions == 0 and box.cube_decisions == 3 and box.cube_error > 0
    assert captain.checker_decisions == 1 and captain.cube_decisions == 1
    assert carol.checker_decisions == 0 and carol.cube_decisions == 1
    assert carol.blunders == 1 and carol.cube_error > box.cube_error / 3
    assert captain.mistakes and captain.mistakes[0].kind == "cube"
