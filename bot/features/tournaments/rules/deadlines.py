"""Pace: round deadlines, their reminders, and what happens to a match unfinished at one.

Two modes (the design notes' T1): *live* events give each match a time budget that grows
with its length (Cambridge: 3 minutes a point); *correspondence* events give each round a
deadline with reminders before it (T3: 24 hours and 1 hour).

At a deadline an unfinished match is decided as leagues do (T2, London's "11-x", DailyGammon
NFL, Cambridge), by :func:`decide_at_deadline`:

- neither player moved since the round opened: a double forfeit;
- only one did: the other never showed up, and loses by walkover (no score, unrated);
- both did, and the match has been waiting on one of them for at least ``stall_after``:
  that player stalled and loses, keeping the points they had won; the other gets the
  match length (a rated result: the games were played);
- both are active (nobody has kept the other waiting that long): the tournament director
  extends the deadline or decides; the core never guesses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from bot.features.tournaments.rules.model import PlayerId, Result

REMINDERS = (timedelta(hours=24), timedelta(hours=1))


class Pace(StrEnum):
    LIVE = "live"
    CORRESPONDENCE = "correspondence"


@dataclass(frozen=True, slots=True)
class PaceRules:
    """How fast an event is played.

    Live: ``per_point`` of budget for each point of the match length plus ``base``.
    Correspondence: a round lasts ``round_time``; reminders go ``reminders`` before its end.
    ``stall_after`` is how long a match may wait on one player before, at the deadline,
    that player counts as having stalled.
    """

    pace: Pace = Pace.CORRESPONDENCE
    round_time: timedelta = timedelta(days=7)
    reminders: tuple[timedelta, ...] = REMINDERS
    stall_after: timedelta = timedelta(hours=24)
    per_point: timedelta = timedelta(minutes=3)
    base: timedelta = timedelta(0)

    def match_budget(self, length: int) -> timedelta:
        """A live match's time budget (Cambridge's 3 minutes a point).

        >>> PaceRules(Pace.LIVE).match_budget(5)
        datetime.timedelta(seconds=900)
        """
        return self.base + self.per_point * length

    def deadline(self, opened_at: datetime, length: int) -> datetime:
        """When a round (correspondence) or a match (live) opened at ``opened_at`` ends."""
        if self.pace is Pace.LIVE:
            return opened_at + self.match_budget(length)
        return opened_at + self.round_time


def reminder_times(
    opened_at: datetime, deadline: datetime, before: Iterable[timedelta] = REMINDERS
) -> tuple[datetime, ...]:
    """When to remind, earliest first: each offset before the deadline that falls after the
    round opened (a one-day round gets only the 1-hour reminder)."""
    return tuple(sorted(deadline - b for b in set(before) if deadline - b > opened_at))


def due_reminder(
    opened_at: datetime,
    deadline: datetime,
    now: datetime,
    sent: Iterable[datetime],
    before: Iterable[timedelta] = REMINDERS,
) -> datetime | None:
    """The reminder to send now, if any: the latest one due and not yet sent. After a
    restart that missed several, only the latest goes out (one message, not a burst),
    and none once the deadline has passed."""
    if now >= deadline:
        return None
    due = [t for t in reminder_times(opened_at, deadline, before) if t <= now]
    if not due or due[-1] in set(sent):
        return None
    return due[-1]


@dataclass(frozen=True, slots=True)
class Activity:
    """One player's side of an unfinished match at the deadline.

    ``moved``: made any move (or cube action) since the round opened. ``points``: points won
    in the match so far. ``waiting_since``: since when the match has been waiting on this
    player (their turn or their answer), None when it is not waiting on them.
    """

    player: PlayerId
    moved: bool
    points: int = 0
    waiting_since: datetime | None = None


class Verdict(StrEnum):
    DOUBLE_FORFEIT = "double_forfeit"
    WALKOVER = "walkover"
    TIMEOUT = "timeout"
    REFER_TO_TD = "refer_to_td"  # both active: extend or adjudicate


@dataclass(frozen=True, slots=True)
class DeadlineDecision:
    verdict: Verdict
    result: Result | None  # None when the director must decide
    stalled: PlayerId | None = None  # who kept the match waiting (walkover or timeout)


def decide_at_deadline(
    a: Activity,
    b: Activity,
    *,
    length: int,
    deadline: datetime,
    stall_after: timedelta = timedelta(hours=24),
) -> DeadlineDecision:
    """The league rule for a match unfinished at ``deadline`` (see the module docstring)."""
    if a.player == b.player:
        raise ValueError("two different players")
    if length < 1:
        raise ValueError(f"a match length is at least 1, not {length}")
    if not a.moved and not b.moved:
        return DeadlineDecision(Verdict.DOUBLE_FORFEIT, Result.double_forfeit())
    if not (a.moved and b.moved):
        absent, present = (b, a) if a.moved else (a, b)
        return DeadlineDecision(
            Verdict.WALKOVER, Result.walkover(present.player, absent.player), absent.player
        )

    def stalled(side: Activity) -> bool:
        return side.waiting_since is not None and deadline - side.waiting_since >= stall_after

    if stalled(a) != stalled(b):
        loser, winner = (a, b) if stalled(a) else (b, a)
        kept = min(max(loser.points, 0), length - 1)
        result = Result.timeout(winner.player, loser.player, (length, kept))
        return DeadlineDecision(Verdict.TIMEOUT, result, loser.player)
    return DeadlineDecision(Verdict.REFER_TO_TD, None)
