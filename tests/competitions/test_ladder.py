"""The challenge ladder: reach, one challenge out, accepting in time, results, leaving."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.features.tournaments.rules import ChallengeState, Ladder, LadderRules, OutcomeKind, Result
from bot.features.tournaments.rules.ladder import (
    ChallengeClosed,
    ChallengeLimit,
    NotOnLadder,
    NotYourChallenge,
    OutOfReach,
)
from bot.features.tournaments.rules.model import ResultConflict, ResultError

NOW = datetime(2026, 11, 24, 20, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def ladder(players: int = 6, **rules: Any) -> Ladder:
    out = Ladder(LadderRules(**rules))
    for player in range(1, players + 1):
        out = out.join(player)
    return out


def test_new_players_start_at_the_bottom() -> None:
    event = ladder(3)
    assert event.ranking == (1, 2, 3) and event.place(3) == 3
    with pytest.raises(NotOnLadder):
        event.join(2)


def test_challenges_reach_up_to_k_places_above() -> None:
    event = ladder(6, reach=3)
    assert event.can_challenge(6) == (3, 4, 5)
    with pytest.raises(OutOfReach):
        event.issue(6, 2, NOW)
    with pytest.raises(OutOfReach):
        event.issue(3, 4, NOW)  # below is not a challenge
    event, challenge = event.issue(6, 3, NOW)
    assert challenge.accept_by == NOW + timedelta(days=7)


def test_one_outgoing_challenge_and_a_limit_on_incoming() -> None:
    event, _ = ladder(6, max_incoming=2).issue(5, 4, NOW)
    with pytest.raises(ChallengeLimit):
        event.issue(5, 3, NOW)
    assert event.can_challenge(5) == ()
    event, _ = event.issue(6, 4, NOW)
    with pytest.raises(ChallengeLimit):
        event.issue(6, 3, NOW)  # 6 already has one out
    event = event.join(7)
    with pytest.raises(ChallengeLimit):
        event.issue(7, 4, NOW)  # 4 has two waiting
    assert 4 not in event.can_challenge(7)


def test_the_winner_takes_the_place_and_the_defender_drops_one() -> None:
    event, challenge = ladder(6).issue(5, 2, NOW)
    event = event.accept(challenge.id, 2, NOW + DAY)
    event = event.record(challenge.id, Result.played(5, 2, (7, 3)))
    assert event.ranking == (1, 5, 2, 3, 4, 6)
    assert event.challenge(challenge.id).state is ChallengeState.DONE


def test_a_losing_challenger_drops_one_and_the_defender_rises_one() -> None:
    event, challenge = ladder(6).issue(5, 3, NOW)
    event = event.accept(challenge.id, 3, NOW).record(challenge.id, Result.played(3, 5, (7, 0)))
    assert event.ranking == (1, 3, 2, 4, 6, 5)
    plain, challenge = ladder(6, loser_drops=False, defender_rises=False).issue(5, 3, NOW)
    plain = plain.accept(challenge.id, 3, NOW).record(challenge.id, Result.played(3, 5, (7, 0)))
    assert plain.ranking == (1, 2, 3, 4, 5, 6)


def test_recording_twice_is_idempotent() -> None:
    event, challenge = ladder(4).issue(4, 3, NOW)
    event = event.accept(challenge.id, 3, NOW)
    result = Result.played(4, 3, (5, 1))
    once = event.record(challenge.id, result)
    assert once.record(challenge.id, result) is once
    assert once.ranking == (1, 2, 4, 3)
    with pytest.raises(ResultConflict):
        once.record(challenge.id, Result.played(3, 4, (5, 1)))


def test_refusal_by_timeout_gives_the_place_to_the_challenger() -> None:
    event, challenge = ladder(5).issue(5, 3, NOW)
    assert event.expire(NOW + 6 * DAY) == event  # still in time
    event = event.expire(NOW + 8 * DAY)
    done = event.challenge(challenge.id)
    assert done.state is ChallengeState.DONE and done.result is not None
    assert done.result.kind is OutcomeKind.WALKOVER and not done.result.rated
    assert event.ranking == (1, 2, 5, 3, 4)
    with pytest.raises(ChallengeClosed):
        event.accept(challenge.id, 3, NOW + 8 * DAY)


def test_accepting_after_the_deadline_is_refused() -> None:
    event, challenge = ladder(5).issue(5, 3, NOW)
    with pytest.raises(ChallengeClosed):
        event.accept(challenge.id, 3, NOW + 8 * DAY)
    with pytest.raises(NotYourChallenge):
        event.accept(challenge.id, 4, NOW)


def test_refusing_is_the_same_as_letting_the_time_run_out() -> None:
    event, challenge = ladder(5).issue(5, 3, NOW)
    assert event.refuse(challenge.id, 3).ranking == (1, 2, 5, 3, 4)


def test_the_challenger_may_withdraw_before_acceptance() -> None:
    event, challenge = ladder(5).issue(5, 3, NOW)
    with pytest.raises(NotYourChallenge):
        event.withdraw(challenge.id, 3)
    event = event.withdraw(challenge.id, 5)
    assert event.challenge(challenge.id).state is ChallengeState.CANCELLED
    assert event.ranking == (1, 2, 3, 4, 5) and event.can_challenge(5) == (2, 3, 4)


def test_no_result_before_acceptance_other_than_a_walkover() -> None:
    event, challenge = ladder(5).issue(5, 3, NOW)
    with pytest.raises(ResultError):
        event.record(challenge.id, Result.played(5, 3, (5, 0)))


def test_a_player_leaving_moves_everyone_below_up_and_cancels_challenges() -> None:
    event, out = ladder(6).issue(4, 2, NOW)
    event, into = event.issue(5, 4, NOW)
    event = event.leave(4)
    assert event.ranking == (1, 2, 3, 5, 6)
    assert event.challenge(out.id).state is ChallengeState.CANCELLED
    assert event.challenge(into.id).state is ChallengeState.CANCELLED
    with pytest.raises(ChallengeClosed):
        event.record(into.id, Result.walkover(5, 4))
    with pytest.raises(NotOnLadder):
        event.leave(4)


def test_overdue_accepted_matches_are_listed_for_the_deadline_rule() -> None:
    event, challenge = ladder(4).issue(4, 3, NOW)
    event = event.accept(challenge.id, 3, NOW)
    assert event.overdue(NOW + 6 * DAY) == ()
    assert [c.id for c in event.overdue(NOW + 8 * DAY)] == [challenge.id]


def test_a_double_forfeit_changes_nothing() -> None:
    event, challenge = ladder(4).issue(4, 3, NOW)
    event = event.accept(challenge.id, 3, NOW).record(challenge.id, Result.double_forfeit())
    assert event.ranking == (1, 2, 3, 4)
