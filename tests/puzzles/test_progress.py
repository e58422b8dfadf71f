"""Streaks, the leaderboard's order, and which puzzle a solver gets next."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.features.puzzles.rules import (
    Glicko,
    Grade,
    PoolEntry,
    SolverStanding,
    Streak,
    day_streak,
    leaderboard,
    next_puzzle,
    solve_streak,
)

R, D, W = Grade.RIGHT, Grade.DOUBTFUL, Grade.WRONG


@pytest.mark.parametrize(
    ("grades", "expected"),
    [
        ([], Streak(0, 0)),
        ([R], Streak(1, 1)),
        ([R, R, R], Streak(3, 3)),
        ([R, R, W], Streak(0, 2)),
        ([R, R, D, R], Streak(1, 2)),  # a doubtful answer ends it too
        ([W, R, R, R, W, R, R], Streak(2, 3)),
    ],
)
def test_the_solve_streak(grades: list[Grade], expected: Streak) -> None:
    assert solve_streak(grades) == expected


TODAY = date(2026, 11, 24)


def days_ago(*numbers: int) -> list[date]:
    return [TODAY - timedelta(days=number) for number in numbers]


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        ([], Streak(0, 0)),
        (days_ago(0), Streak(1, 1)),
        (days_ago(1), Streak(1, 1)),  # yesterday: still alive, today is not over
        (days_ago(2), Streak(0, 1)),  # a whole day missed
        (days_ago(0, 1, 2), Streak(3, 3)),
        (days_ago(1, 2, 3), Streak(3, 3)),
        (days_ago(0, 2, 3, 4), Streak(1, 3)),
        (days_ago(0, 0, 1, 1, 1), Streak(2, 2)),  # several puzzles a day count once
        (days_ago(2, 0, 1), Streak(3, 3)),  # in any order
    ],
)
def test_the_day_streak(days: list[date], expected: Streak) -> None:
    assert day_streak(days, TODAY) == expected


def test_the_day_streak_spans_a_month_and_a_year() -> None:
    days = [date(2026, 12, 30), date(2026, 12, 31), date(2027, 1, 1)]
    assert day_streak(days, date(2027, 1, 1)) == Streak(3, 3)


def test_a_day_after_today_is_refused() -> None:
    with pytest.raises(ValueError, match="after today"):
        day_streak([TODAY + timedelta(days=1)], TODAY)


@given(st.sets(st.integers(0, 60), max_size=30))
def test_the_day_streak_is_a_run_of_days(numbers: set[int]) -> None:
    streak = day_streak(days_ago(*numbers), TODAY)
    assert 0 <= streak.current <= streak.best <= len(numbers)
    if streak.current:
        start = min(numbers)
        assert start <= 1
        assert set(range(start, start + streak.current)) <= numbers


def standing(user: int, rating: float, solved: int = 5, deviation: float = 60) -> SolverStanding:
    return SolverStanding(user, Glicko(rating, deviation), solved, attempts=max(solved, 1))


def test_the_leaderboard_orders_by_rating_then_solved_then_who() -> None:
    rows = [
        standing(1, 1500),
        standing(2, 1600, solved=3),
        standing(3, 1600, solved=9),
        standing(4, 1600, solved=3),
        standing(5, 1400),
    ]
    assert [row.user_id for row in leaderboard(rows)] == [3, 2, 4, 1, 5]
    assert [row.user_id for row in leaderboard(rows, limit=2)] == [3, 2]


def test_provisional_and_idle_solvers_are_left_off() -> None:
    rows = [
        standing(1, 1900, deviation=200),  # three lucky answers: provisional
        standing(2, 1500, deviation=110),  # on the line: established
        SolverStanding(3, Glicko(1500, 60), 0, 0),  # never tried
    ]
    assert [row.user_id for row in leaderboard(rows)] == [2]


POOL = [
    PoolEntry(1, owner_id=None, rating=1500),
    PoolEntry(2, owner_id=42, rating=1900),
    PoolEntry(3, owner_id=7, rating=1490),
    PoolEntry(4, owner_id=42, rating=1200),
    PoolEntry(5, owner_id=None, rating=1510),
]


def test_own_mistakes_come_first_closest_rating_first() -> None:
    assert next_puzzle(42, 1500, POOL, seen=set()) == POOL[3]  # 300 away beats 400
    assert next_puzzle(42, 1500, POOL, seen={4}) == POOL[1]


def test_then_the_servers_closest_to_the_solver() -> None:
    assert next_puzzle(42, 1500, POOL, seen={2, 4}) == POOL[0]
    assert next_puzzle(42, 1506, POOL, seen={2, 4}) == POOL[4]


def test_a_tie_in_rating_gives_the_oldest() -> None:
    assert next_puzzle(9, 1495, POOL, seen={2, 4}) == POOL[0]  # 1500 and 1490 tie


def test_nothing_seen_twice_and_none_when_all_seen() -> None:
    given_ids = []
    seen: set[int] = set()
    while (entry := next_puzzle(42, 1500, POOL, seen)) is not None:
        given_ids.append(entry.puzzle_id)
        seen.add(entry.puzzle_id)
    assert sorted(given_ids) == [1, 2, 3, 4, 5]
    assert given_ids[:2] == [4, 2]  # their own two first
