"""What happened, as typed facts, and the bus that carries them to whoever listens.

The session stores a change and then publishes its facts: the match started, a game is over
with its result, the match is over, the cube turned, who acts next. Front ends and services
subscribe to the bus instead of reaching into the session or the store: the Discord
publisher, tournaments (a match over decides a pairing), puzzles, a live web board. Feature
services publish their own facts on the same bus (a tournament over, which puzzles wait
for).

Facts carry values, never words: a front end tells them in its reader's language. A
subscriber that fails is logged and skipped; it never undoes or loses the stored action.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.computer.pr import LuckAdjustedResult, PerformanceRating
from bot.core.records import (
    Action,
    EndReason,
    FinishedGame,
    MatchOutcome,
    MatchRow,
    NewEvent,
    Status,
)
from bot.engine import Game, GameResult

if TYPE_CHECKING:  # the report module carries facts itself
    from bot.core.reports import Report

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Step:
    """One logged event of a change with the game before and after it: enough to tell it
    (``bot.present.story`` narrates a report's steps) or to replay it on a live board."""

    event: NewEvent
    before: Game | None
    after: Game


@dataclass(frozen=True, slots=True)
class ActionTaken:
    """A stored change of a match: ``match`` is the row as stored, ``events`` what it logged,
    ``steps`` the same events with the game before and after each."""

    match: MatchRow
    action: Action
    events: tuple[NewEvent, ...] = ()
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """A challenge was accepted (or a game against the computer began)."""

    match: MatchRow


@dataclass(frozen=True, slots=True)
class CubeTurned:
    """A double was taken (or beavered): the cube now stands at ``value``, owned by ``owner``."""

    match: MatchRow
    value: int
    owner: int | None


@dataclass(frozen=True, slots=True)
class GameOver:
    """A game of the match ended with ``result``."""

    match: MatchRow
    game_number: int
    result: GameResult


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match ended: won (``winner`` is a player index) or with no result (None)."""

    match: MatchRow
    winner: int | None
    final_score: tuple[int, int]
    reason: EndReason

    @property
    def winner_id(self) -> int | None:
        return None if self.winner is None else self.match.player_ids[self.winner]


@dataclass(frozen=True, slots=True)
class ToAct:
    """The game waits for ``player`` (an index into the match's players)."""

    match: MatchRow
    player: int

    @property
    def user_id(self) -> int:
        return self.match.player_ids[self.player]


@dataclass(frozen=True, slots=True)
class ComputerStuck:
    """The computer failed its turn several times in a row and stopped trying by itself:
    a moderator can cancel the game (published once per match; a later action tries again)."""

    match: MatchRow


@dataclass(frozen=True, slots=True)
class TurnResumed:
    """The computer finished a turn left open (a failed try, a restart) outside any request:
    its report, for a front end to post where the game is played."""

    report: Report


@dataclass(frozen=True, slots=True)
class PlayedElsewhere:
    """A player acted through another front end (the web Activity): its report, for the chat
    front end to tell in the game's channel as it tells its own, so the channel still gets
    its board posts whichever way the game is played."""

    report: Report


@dataclass(frozen=True, slots=True)
class MatchReviewed:
    """Every game of a finished match has been analysed (after its last game's review, an
    ``/analyze`` or the replay page's): each human player's PR over the whole match (the
    games' decisions pooled) and luck-adjusted result (None when the engine could not value
    the stakes). Published whenever that analysis is put together again; a listener keeps
    it once."""

    match: MatchRow
    performance: dict[int, PerformanceRating]
    luck: dict[int, LuckAdjustedResult | None]


@dataclass(frozen=True, slots=True)
class TournamentOver:
    """A tournament ended (finished, or cancelled by its directors): its matches may now
    become puzzles, whose positions would have helped its players while it ran."""

    tournament_id: int
    guild_id: int


class FeatureFact:
    """A fact a feature service publishes about its own values (a chouette session's
    change): the feature subclasses it with a frozen dataclass of its own, so the core's
    bus carries it without the core knowing the feature. Subscribers that do not know a
    feature's facts pass over them, as they pass over any fact they do not use."""

    __slots__ = ()


Fact = (
    ActionTaken
    | MatchStarted
    | CubeTurned
    | GameOver
    | MatchOver
    | ToAct
    | ComputerStuck
    | TurnResumed
    | PlayedElsewhere
    | MatchReviewed
    | TournamentOver
    | FeatureFact
)
Subscriber = Callable[[Sequence[Fact]], Awaitable[None]]

CUBE_ACCEPTED = frozenset({Action.TAKE, Action.BEAVER})


def facts_of(
    before: MatchRow,
    stored: MatchRow,
    action: Action,
    events: Sequence[NewEvent],
    finished: Sequence[FinishedGame],
    outcome: MatchOutcome | None,
    steps: Sequence[Step] = (),
) -> list[Fact]:
    """The facts of one stored change from ``before`` to ``stored``, in the order they happened."""
    facts: list[Fact] = [ActionTaken(stored, action, tuple(events), tuple(steps))]
    if before.status != Status.PLAYING and stored.status == Status.PLAYING:
        facts.append(MatchStarted(stored))
    for event in events:
        if event.action in CUBE_ACCEPTED:
            game = stored.game
            owner = None if game is None else game.cube_owner
            value = 1 if game is None else game.cube
            facts.append(CubeTurned(stored, value, owner))
    facts.extend(GameOver(stored, done.game_number, done.result) for done in finished)
    if outcome is not None:
        facts.append(MatchOver(stored, outcome.winner, outcome.final_score, outcome.reason))
    elif before.status.live and not stored.status.live:
        # Declined, withdrawn, expired or cancelled: over, with no result.
        score = stored.final_score or (0, 0)
        reason = stored.end_reason or EndReason.of_status(stored.status)
        facts.append(MatchOver(stored, None, score, reason))
    if stored.status == Status.PLAYING and stored.game is not None:
        actor = stored.game.actor
        if actor is not None:
            facts.append(ToAct(stored, actor))
    return facts


class _Detached:
    """A subscriber that runs in a task of its own: batches wait in order in its queue, so
    publishing never waits for it (one that talks to Discord must not hold up the action
    whose facts it tells), and it still hears every batch once, in order."""

    def __init__(self, subscriber: Subscriber) -> None:
        self.subscriber = subscriber
        self.queue: deque[Sequence[Fact]] = deque()
        self.task: asyncio.Task[None] | None = None

    def put(self, facts: Sequence[Fact]) -> None:
        self.queue.append(facts)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while self.queue:
            facts = self.queue.popleft()
            try:
                await self.subscriber(facts)
            except Exception:
                log.exception("a fact subscriber failed on %s", type(facts[0]).__name__)


class FactBus:
    """Hands each published batch of facts to every subscriber, in subscription order.

    A subscriber hears a batch before :meth:`publish` returns, unless it subscribed
    ``detached``: then it hears it soon after, in a task of its own (:meth:`settled` waits
    for those)."""

    def __init__(self) -> None:
        self._subscribers: list[Subscriber | _Detached] = []

    def subscribe(self, subscriber: Subscriber, *, detached: bool = False) -> Callable[[], None]:
        """Listen from now on; the returned function stops listening."""
        entry: Subscriber | _Detached = _Detached(subscriber) if detached else subscriber
        self._subscribers.append(entry)

        def unsubscribe() -> None:
            if entry in self._subscribers:
                self._subscribers.remove(entry)

        return unsubscribe

    async def publish(self, facts: Sequence[Fact]) -> None:
        """Deliver ``facts``; a failing subscriber is logged and the others still hear."""
        if not facts:
            return
        for subscriber in list(self._subscribers):
            if isinstance(subscriber, _Detached):
                subscriber.put(facts)
                continue
            try:
                await subscriber(facts)
            except Exception:
                log.exception("a fact subscriber failed on %s", type(facts[0]).__name__)

    async def settled(self) -> None:
        """Wait until every detached subscriber has heard every batch published so far."""
        while True:
            running = [
                entry.task
                for entry in self._subscribers
                if isinstance(entry, _Detached) and entry.task is not None and not entry.task.done()
            ]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)


__all__ = [
    "ActionTaken",
    "ComputerStuck",
    "CubeTurned",
    "Fact",
    "FactBus",
    "FeatureFact",
    "GameOver",
    "MatchOver",
    "MatchReviewed",
    "MatchStarted",
    "PlayedElsewhere",
    "Step",
    "Subscriber",
    "ToAct",
    "TournamentOver",
    "TurnResumed",
    "facts_of",
]
