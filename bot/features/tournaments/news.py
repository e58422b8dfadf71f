"""What the tournament service tells its front end, as typed values (never words).

Each is one thing that happened to an event; the front end (cogs/tournament.py) narrates it
in the server's language and posts it where it belongs: a match opened in its thread with
both players pinged, a reminder, a decision with its reason, the picture after a round, the
podium and the match files at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.errors import UserError
from bot.core.reports import Player, Report
from bot.features.tournaments.rules import Result, Verdict
from bot.storage.competition_rows import PairingRow, TournamentRow

if TYPE_CHECKING:
    from bot.features.tournaments.formats import Event


@dataclass(frozen=True, slots=True)
class MatchOpened:
    """A match started by itself: ``report`` is its opening board, ``deadline`` its end."""

    event: TournamentRow
    pairing: PairingRow
    report: Report
    deadline: float
    in_thread: bool


@dataclass(frozen=True, slots=True)
class MatchesOpened:
    """Matches opened in threads together (a round's): one notice in the event's channel."""

    event: TournamentRow
    pairings: tuple[PairingRow, ...]


@dataclass(frozen=True, slots=True)
class Reminder:
    """A match is still unfinished ahead of its deadline (24 hours, 1 hour before)."""

    event: TournamentRow
    pairing: PairingRow
    deadline: float


@dataclass(frozen=True, slots=True)
class ReferredToDirector:
    """A match the rules cannot decide: both players active at the deadline (``verdict``
    REFER_TO_TD), a match that ended with no result (``verdict`` None), or a match that
    could not be opened (``no_channel``). The directors extend or decide."""

    event: TournamentRow
    pairing: PairingRow
    verdict: Verdict | None
    no_channel: bool = False


@dataclass(frozen=True, slots=True)
class Decided:
    """A match decided without being finished: at its deadline (``director`` None, the
    ``reason`` a :class:`~bot.features.tournaments.rules.Verdict` value) or by a director (their
    reason). ``report`` is the bot's match ended for it, if one was being played."""

    event: TournamentRow
    pairing: PairingRow
    result: Result
    director: Player | None
    reason: str
    report: Report | None


@dataclass(frozen=True, slots=True)
class RoundOver:
    """Every match of round ``number`` is decided: time for the bracket or the table."""

    event: TournamentRow
    state: Event
    number: int


@dataclass(frozen=True, slots=True)
class EventFinished:
    """The event is over: podium, final picture, and every match's file and dice secret."""

    event: TournamentRow
    state: Event
    match_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EventStarted:
    """The draw is made (by a director or at the start time): the announcement closes."""

    event: TournamentRow


@dataclass(frozen=True, slots=True)
class StartRefused:
    """The start time came but the event could not start (``why``: the refusal, worded by the
    front end)."""

    event: TournamentRow
    why: UserError


@dataclass(frozen=True, slots=True)
class EventCancelled:
    event: TournamentRow
    director: Player


News = (
    MatchOpened
    | MatchesOpened
    | Reminder
    | ReferredToDirector
    | Decided
    | RoundOver
    | EventFinished
    | EventCancelled
    | StartRefused
    | EventStarted
)

__all__ = [
    "Decided",
    "EventCancelled",
    "EventFinished",
    "EventStarted",
    "MatchOpened",
    "MatchesOpened",
    "News",
    "ReferredToDirector",
    "Reminder",
    "RoundOver",
    "StartRefused",
]
