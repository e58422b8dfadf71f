"""Deadlines: the league rule for unfinished matches, reminders, live budgets, lengths."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.features.tournaments.rules import (
    Activity,
    DeadlineDecision,
    OutcomeKind,
    Pace,
    PaceRules,
    Result,
    Verdict,
    decide_at_deadline,
    due_reminder,
    match_length,
    reminder_times,
)

DEADLINE = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def decide(a: Activity, b: Activity, length: int = 7) -> DeadlineDecision:
    return decide_at_deadline(a, b, length=length, deadline=DEADLINE, stall_after=24 * HOUR)


def test_neither_moved_is_a_double_forfeit() -> None:
    decision = decide(Activity(1, moved=False), Activity(2, moved=False))
    assert decision.verdict is Verdict.DOUBLE_FORFEIT
    assert decision.result == Result.double_forfeit() and decision.result.winner is None


def test_only_one_moved_is_a_walkover_never_a_score() -> None:
    decision = decide(Activity(1, moved=True, points=0), Activity(2, moved=False))
    assert decision.verdict is Verdict.WALKOVER and decision.stalled == 2
    assert decision.result == Result.walkover(1, 2)
    assert decision.result.score is None and not decision.result.rated


def test_the_player_who_stalled_loses_keeping_their_points() -> None:
    stalled = Activity(2, moved=True, points=4, waiting_since=DEADLINE - 30 * HOUR)
    decision = decide(Activity(1, moved=True, points=2), stalled, length=11)
    assert decision.verdict is Verdict.TIMEOUT and decision.stalled == 2
    assert decision.result == Result.timeout(1, 2, (11, 4))
    assert decision.result.kind is OutcomeKind.TIMEOUT and decision.result.rated


def test_both_active_goes_to_the_director() -> None:
    recent = Activity(2, moved=True, points=3, waiting_since=DEADLINE - 2 * HOUR)
    decision = decide(Activity(1, moved=True, points=5), recent)
    assert decision.verdict is Verdict.REFER_TO_TD and decision.result is None


def test_reminders_at_24_hours_and_1_hour() -> None:
    opened = DEADLINE - timedelta(days=7)
    assert reminder_times(opened, DEADLINE) == (DEADLINE - 24 * HOUR, DEADLINE - HOUR)
    # A round shorter than a day only gets the last reminder.
    assert reminder_times(DEADLINE - 12 * HOUR, DEADLINE) == (DEADLINE - HOUR,)


def test_due_reminder_sends_each_once_and_only_the_latest_after_a_gap() -> None:
    opened = DEADLINE - timedelta(days=7)
    assert due_reminder(opened, DEADLINE, DEADLINE - 30 * HOUR, []) is None
    first = due_reminder(opened, DEADLINE, DEADLINE - 20 * HOUR, [])
    assert first == DEADLINE - 24 * HOUR
    assert due_reminder(opened, DEADLINE, DEADLINE - 19 * HOUR, [first]) is None
    # Down for a day: both are due, only the 1-hour reminder goes out.
    assert due_reminder(opened, DEADLINE, DEADLINE - HOUR / 2, []) == DEADLINE - HOUR
    assert due_reminder(opened, DEADLINE, DEADLINE, []) is None


def test_live_budgets_and_correspondence_deadlines() -> None:
    live = PaceRules(Pace.LIVE, per_point=timedelta(minutes=3), base=timedelta(minutes=5))
    assert live.match_budget(5) == timedelta(minutes=20)
    opened = DEADLINE - timedelta(days=7)
    assert live.deadline(opened, 5) == opened + timedelta(minutes=20)
    assert PaceRules().deadline(opened, 5) == DEADLINE


@pytest.mark.parametrize(
    ("schedule", "rounds", "expected"),
    [
        ((5, 5, 7, 9), 4, [5, 5, 7, 9]),
        ((5, 5, 7, 9), 6, [5, 5, 5, 5, 7, 9]),
        ((5, 5, 7, 9), 1, [9]),
        ((11,), 3, [11, 11, 11]),
    ],
)
def test_match_length_per_round(
    schedule: tuple[int, ...], rounds: int, expected: list[int]
) -> None:
    assert [match_length(schedule, r, rounds) for r in range(1, rounds + 1)] == expected
