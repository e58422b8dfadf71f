"""The lifecycle: allowed steps, registration, check-in, and typed refusals."""

from __future__ import annotations

import pytest

from bot.features.tournaments.rules import (
    Entrant,
    Phase,
    Registration,
    Step,
    advance,
    allowed_steps,
)
from bot.features.tournaments.rules.lifecycle import (
    AlreadyEntered,
    EventFull,
    IllegalTransition,
    NotEntered,
    RegistrationClosed,
    TooFewPlayers,
)


def opened(*players: int, max_players: int | None = None) -> Registration:
    registration = Registration(max_players=max_players).step(Step.OPEN)
    for player in players:
        registration = registration.join(Entrant(player))
    return registration


@pytest.mark.parametrize(
    ("phase", "step", "after"),
    [
        (Phase.DRAFT, Step.OPEN, Phase.REGISTRATION),
        (Phase.REGISTRATION, Step.CHECK_IN, Phase.CHECK_IN),
        (Phase.REGISTRATION, Step.START, Phase.RUNNING),
        (Phase.CHECK_IN, Step.START, Phase.RUNNING),
        (Phase.RUNNING, Step.FINISH, Phase.FINISHED),
        (Phase.DRAFT, Step.CANCEL, Phase.CANCELLED),
        (Phase.RUNNING, Step.CANCEL, Phase.CANCELLED),
    ],
)
def test_allowed_steps(phase: Phase, step: Step, after: Phase) -> None:
    assert advance(phase, step) is after
    assert step in allowed_steps(phase)


@pytest.mark.parametrize(
    ("phase", "step"),
    [
        (Phase.DRAFT, Step.START),  # never drawn before registration
        (Phase.RUNNING, Step.OPEN),
        (Phase.FINISHED, Step.CANCEL),
        (Phase.CANCELLED, Step.OPEN),
        (Phase.REGISTRATION, Step.FINISH),
        (Phase.CHECK_IN, Step.CHECK_IN),
    ],
)
def test_illegal_steps_raise_a_typed_error(phase: Phase, step: Step) -> None:
    with pytest.raises(IllegalTransition) as raised:
        advance(phase, step)
    assert (raised.value.phase, raised.value.step) == (phase, step)
    assert step not in allowed_steps(phase)


def test_finished_and_cancelled_allow_nothing() -> None:
    assert allowed_steps(Phase.FINISHED) == allowed_steps(Phase.CANCELLED) == ()


def test_join_and_leave_during_registration() -> None:
    registration = opened(1, 2, 3).leave(2)
    assert [e.player for e in registration.entrants] == [1, 3]
    with pytest.raises(AlreadyEntered):
        registration.join(Entrant(1))
    with pytest.raises(NotEntered):
        registration.leave(2)


def test_joining_is_refused_before_opening_and_after_the_start() -> None:
    with pytest.raises(RegistrationClosed):
        Registration().join(Entrant(1))
    running = opened(1, 2).step(Step.START)
    assert running.phase is Phase.RUNNING
    with pytest.raises(RegistrationClosed):
        running.join(Entrant(3))
    with pytest.raises(RegistrationClosed):
        running.leave(1)


def test_a_full_event_refuses_more() -> None:
    registration = opened(1, 2, max_players=2)
    with pytest.raises(EventFull):
        registration.join(Entrant(3))


def test_starting_needs_two_players() -> None:
    with pytest.raises(TooFewPlayers):
        opened(1).step(Step.START)
    assert opened(1, 2).step(Step.START).phase is Phase.RUNNING


def test_players_not_checked_in_are_removed_at_the_start() -> None:
    registration = opened(1, 2, 3).step(Step.CHECK_IN).check_in(1).check_in(3)
    with pytest.raises(AlreadyEntered):
        registration.check_in(1)
    with pytest.raises(NotEntered):
        registration.check_in(9)
    assert [e.player for e in registration.field()] == [1, 3]
    started = registration.step(Step.START)
    assert [e.player for e in started.entrants] == [1, 3]


def test_check_in_that_leaves_one_player_cannot_start() -> None:
    registration = opened(1, 2).step(Step.CHECK_IN).check_in(1)
    with pytest.raises(TooFewPlayers):
        registration.step(Step.START)
    assert registration.phase is Phase.CHECK_IN  # unchanged


def test_players_found_gone_are_dropped_quietly() -> None:
    registration = opened(1, 2, 3).drop(frozenset({2, 7}))
    assert [e.player for e in registration.entrants] == [1, 3]
