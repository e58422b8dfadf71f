"""A solver's progress: streaks, the puzzle leaderboard, and which puzzle to give next.

Pure functions over plain records the store will keep (attempts, ratings, the pool of
published puzzles), so every rule is tested without a database:

- **Solve streak**: puzzles answered right in a row; a doubtful or wrong answer ends it,
  as a mistake ends a lichess puzzle streak.
- **Day streak**: calendar days (UTC) in a row with at least one puzzle answered; it is
  still alive on the day after the last one (the solver may still play today), and gone
  after a whole day without a puzzle.
- **Leaderboard**: by puzzle rating, highest first; solvers whose rating is still
  provisional (RD above :data:`PROVISIONAL_DEVIATION`, lichess's line) are left off, as
  lichess leaves them off its leaderboards, so three lucky answers do not top it.
- **Next puzzle**: the solver's own mistakes first, then the server's; never one they have
  already seen; among those, the puzzle rated closest to the solver.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from bot.features.puzzles.rules.glicko import Glicko
from bot.features.puzzles.rules.model import Grade

__all__ = [
    "PROVISIONAL_DEVIATION",
    "PoolEntry",
    "SolverStanding",
    "Streak",
    "day_streak",
    "leaderboard",
    "next_puzzle",
    "solve_streak",
]

PROVISIONAL_DEVIATION = 110.0  # lichess shows a rating with a larger RD as provisional ("?")


@dataclass(frozen=True, slots=True)
class Streak:
    """The run going on now and the longest run ever."""

    current: int = 0
    best: int = 0


def solve_streak(grades: Iterable[Grade]) -> Streak:
    """The streak of right answers, from the solver's grades oldest first."""
    current = best = 0
    for grade in grades:
        current = current + 1 if grade is Grade.RIGHT else 0
        best = max(best, current)
    return Streak(current, best)


def day_streak(days: Iterable[date], today: date) -> Streak:
    """The streak of days with a puzzle answered, from the days of the solver's attempts.

    ``days`` may repeat and come in any order; a day after ``today`` is a caller's bug
    (a clock gone wrong) and raises ValueError.
    """
    distinct = sorted(set(days))
    if distinct and distinct[-1] > today:
        raise ValueError(f"an attempt on {distinct[-1]} is after today, {today}")
    best = run = 0
    previous: date | None = None
    for day in distinct:
        run = run + 1 if previous is not None and day - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    alive = previous is not None and today - previous <= timedelta(days=1)
    return Streak(run if alive else 0, best)


@dataclass(frozen=True, slots=True)
class SolverStanding:
    """One solver's line on the leaderboard."""

    user_id: int
    rating: Glicko
    solved: int  # puzzles answered right
    attempts: int

    @property
    def provisional(self) -> bool:
        return self.rating.deviation > PROVISIONAL_DEVIATION


def leaderboard(standings: Iterable[SolverStanding], limit: int = 10) -> list[SolverStanding]:
    """The best ``limit`` established solvers: rating, then puzzles solved, then who came.

    The last key (the user id) only makes the order a function of the input, so two
    solvers with the same figures never swap places between two looks.
    """
    rated = [row for row in standings if row.attempts > 0 and not row.provisional]
    rated.sort(key=lambda row: (-row.rating.rating, -row.solved, row.user_id))
    return rated[: max(limit, 0)]


@dataclass(frozen=True, slots=True)
class PoolEntry:
    """A published puzzle as the choice of the next one sees it."""

    puzzle_id: int
    owner_id: int | None  # who made the mistake (None: the computer)
    rating: float
    # Where its source match could be seen (bot.core.visibility.deciding_channel; None: unknown,
    # so nowhere): a puzzle goes only to who could see that channel.
    source_channel: int | None = None


def next_puzzle(
    solver_id: int,
    solver_rating: float,
    pool: Sequence[PoolEntry],
    seen: Collection[int],
) -> PoolEntry | None:
    """The puzzle to give ``solver_id`` now, or None when they have seen every one.

    Their own mistakes come first (a player learns most from their own), then the rest of
    the server's; within each, the puzzle whose rating is closest to the solver's, the
    oldest (smallest id) on a tie. ``seen`` are the ids of puzzles they were ever given.
    """
    fresh = [entry for entry in pool if entry.puzzle_id not in seen]
    if not fresh:
        return None
    return min(
        fresh,
        key=lambda entry: (
            entry.owner_id != solver_id,
            abs(entry.rating - solver_rating),
            entry.puzzle_id,
        ),
    )
