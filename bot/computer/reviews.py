"""What the computer and the records say about play: hints, analysis, luck, dice.

A service of its own (:class:`ReviewService`), composed at start-up (:mod:`bot.services`):
reads only, never changes a game.
Every evaluation, and the dice figures of a server, run in the worker processes' analysis
lane (:mod:`bot.workers`), never in front of a board.

An analysis covers finished games only: a game still being played is never shown (hints
are off in rated games, and the analysis would be a hint). It is worked out one game at a
time, the games spread over the analysis lane's workers, and each finished game's result is
kept, in memory (:class:`ReviewCache`) and in the database (:mod:`bot.computer.reviewcodec`): the
review posted when a game ends fills both, so analysing a whole match afterwards, even
after a restart, costs almost nothing, and asking twice costs nothing the second time.
Each member may ask once per ``analysis_cooldown`` seconds.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.computer import DEFAULT_LEVEL, CubeHint, PlayerAnalysis, PlayHint
from bot.computer.analysis import combined
from bot.computer.luck import MatchLuck
from bot.computer.reviewcodec import GameReview, review_from_text, review_to_text
from bot.core.dicestats import DiceReport, dice_report, rolls_from_events
from bot.core.errors import NoGameError, NotYourTurnError, Refusal, UnreadableMatchError, UserError
from bot.core.facts import FactBus, MatchReviewed
from bot.core.fairdice import VerifyResult, verify_events
from bot.core.records import ComputerResults, EventRecord, MatchRow, Status
from bot.core.reports import Player, Review, SessionSettings
from bot.storage import Storage
from bot.workers import Workers

log = logging.getLogger(__name__)

GAMES_KEPT = 1024  # finished games whose review is kept in memory (a few KB each)


@dataclass(frozen=True, slots=True)
class AnalysisPlan:
    """A match and which of its games an analysis covers (finished ones only)."""

    match: MatchRow
    events: tuple[EventRecord, ...]
    games: tuple[int, ...]


class AnalysisCooldownError(UserError):
    """A member asked for another analysis too soon."""


class ReviewCache:
    """Finished games' reviews by (match, game), most recently used kept; the reviews being
    worked out, so that two requests for one game share the work; and when each member may
    ask again. A finished game never changes, so a kept review never goes stale."""

    def __init__(self, size: int = GAMES_KEPT) -> None:
        self.size = size
        self.games: collections.OrderedDict[tuple[int, int], GameReview] = collections.OrderedDict()
        self.running: dict[tuple[int, int], asyncio.Future[GameReview]] = {}
        self.next_allowed: dict[int, float] = {}

    def get(self, key: tuple[int, int]) -> GameReview | None:
        review = self.games.get(key)
        if review is not None:
            self.games.move_to_end(key)
        return review

    def put(self, key: tuple[int, int], review: GameReview) -> None:
        self.games[key] = review
        self.games.move_to_end(key)
        while len(self.games) > self.size:
            self.games.popitem(last=False)

    def finished(self, key: tuple[int, int], work: asyncio.Future[GameReview]) -> None:
        """A review worked out: keep it (a failed one is simply tried again next time)."""
        if self.running.get(key) is work:
            del self.running[key]
        if not work.cancelled() and work.exception() is None:
            self.put(key, work.result())

    def charge(self, user_id: int, now: float, cooldown: float) -> None:
        """Let ``user_id`` ask now, or raise how long they must wait."""
        allowed = self.next_allowed.get(user_id, 0.0)
        if now < allowed:
            seconds = max(1, math.ceil(allowed - now))
            raise AnalysisCooldownError(Refusal.ANALYSIS_COOLDOWN, seconds=seconds)
        if len(self.next_allowed) > 4 * self.size:  # forget the members who may ask again
            self.next_allowed = {u: t for u, t in self.next_allowed.items() if t > now}
        self.next_allowed[user_id] = now + cooldown


def server_dice_report(
    matches: Sequence[tuple[tuple[int, int], Sequence[EventRecord]]],
) -> DiceReport:
    """:func:`bot.core.dicestats.dice_report` of the rolls of ``matches`` (players, events)."""
    return dice_report(
        [record for players, events in matches for record in rolls_from_events(events, players)]
    )


async def _ready(review: GameReview) -> GameReview:
    return review


def merge_reviews(parts: Sequence[GameReview], players: Sequence[int]) -> GameReview:
    """Games' reviews, in game order, as one review of them all: decisions and errors add
    up (the PR too: it is over all the games' decisions), the biggest three mistakes of all
    are kept (as one analysis of the whole log gives)."""
    merged = {
        player: combined(player, [analyses[player] for analyses, _ in parts if player in analyses])
        for player in players
    }
    luck = MatchLuck([game for _analyses, part in parts for game in part.games])
    return merged, luck


def reviewed(row: MatchRow, analyses: dict[int, PlayerAnalysis], luck: MatchLuck) -> MatchReviewed:
    """The fact that every game of ``row`` (finished) has been analysed."""
    return MatchReviewed(
        row,
        {player: analysis.performance for player, analysis in analyses.items()},
        {player: luck.luck_adjusted(player) for player in analyses},
    )


# (games done, games in all) as an analysis goes: for a front end's progress line.
Progress = Callable[[int, int], Awaitable[None]]


class GameReader(Protocol):
    """What reviews read of the session: the channel's live game, or its last one, and a
    server's live games."""

    async def current(self, channel_id: int) -> MatchRow | None: ...

    async def latest(self, channel_id: int) -> MatchRow | None: ...

    async def live_in(self, guild_id: int) -> list[MatchRow]: ...


class ReviewService:
    """Hints, analysis with luck, dice verification and dice statistics.

    Reads only: the games come from ``games`` (the session), the records from the store,
    the evaluations from the workers' analysis lane. Once every game of a finished match
    has been analysed it says so on ``facts`` (:class:`~bot.core.facts.MatchReviewed`, each
    player's PR over the match: the PR ladder keeps it).
    """

    def __init__(
        self,
        store: Storage,
        workers: Workers,
        games: GameReader,
        *,
        settings: SessionSettings,
        clock: Callable[[], float],
        facts: FactBus | None = None,
    ) -> None:
        self.store = store
        self.workers = workers
        self.games = games
        self.settings = settings
        self.clock = clock
        self.facts = facts or FactBus()
        self.cache = ReviewCache()  # finished games' reviews; /analyze cooldowns

    async def hint(
        self, channel_id: int, user: Player
    ) -> tuple[MatchRow, list[PlayHint] | CubeHint]:
        """The computer's advice for the player who must act: best plays or the cube."""
        row = await self.games.current(channel_id)
        if row is None or row.game is None or row.status != Status.PLAYING:
            raise NoGameError(Refusal.NO_GAME_HERE)
        me = row.player_index(user.id)
        if me is None:
            raise NotYourTurnError(Refusal.HINTS_FOR_PLAYERS)
        if row.rated:
            raise UserError(Refusal.HINTS_OFF_RATED)
        if row.computer_level is None and not self.settings.hints_in_casual:
            raise UserError(Refusal.HINTS_OFF_SERVER)
        game = row.game
        if game.actor != me or game.resignation is not None:
            raise UserError(Refusal.HINTS_OWN_TURN)
        advice = await self.workers.hints(DEFAULT_LEVEL, game, 3)
        return row, advice

    async def analysis(self, channel_id: int, user_id: int | None = None) -> Review:
        """Error rates, blunders, biggest mistakes and luck of the humans in the channel's
        current or last match, over its finished games only (a live game is never shown).

        ``user_id``: who asks; each member may ask once per ``analysis_cooldown`` seconds.
        """
        return await self.run_analysis(await self.plan_analysis(channel_id, user_id))

    async def plan_analysis(self, channel_id: int, user_id: int | None = None) -> AnalysisPlan:
        """What :meth:`analysis` would analyse, or the refusal, at once (a few reads): the
        front end refuses privately before it shows anyone that work has begun."""
        row = await self.games.latest(channel_id)
        if row is None or row.game is None:
            raise NoGameError(Refusal.NO_HISTORY)
        events = await self.store.events(row.id)
        games = sorted({event.game_number for event in events})
        if row.live:
            games = [number for number in games if number < row.game.game_number]
            if not games:
                raise UserError(Refusal.ANALYSIS_FINISHED_ONLY)
        if user_id is not None:
            self.charge(user_id)
        return AnalysisPlan(row, tuple(events), tuple(games))

    def charge(self, user_id: int) -> None:
        """Let ``user_id`` ask for an analysis now (of a match, or of a chouette), or raise
        how long they must wait: once per ``analysis_cooldown`` seconds."""
        self.cache.charge(user_id, self.clock(), self.settings.analysis_cooldown)

    async def run_analysis(self, plan: AnalysisPlan, progress: Progress | None = None) -> Review:
        """The review of a planned analysis (seconds of work in the analysis lane, or none
        when its games were reviewed before); ``progress`` hears (games done, games in all)
        as each game's review is ready. The log says when it began, ended and took."""
        match, count = plan.match, len(plan.games)
        log.info("analysis of match %s (%d game(s)) started", match.id, count)
        started = time.perf_counter()
        try:
            return await self._review_games(match, plan.events, plan.games, progress)
        finally:
            log.info(
                "analysis of match %s (%d game(s)) ended in %.1f s",
                match.id,
                count,
                time.perf_counter() - started,
            )

    async def review(self, row: MatchRow, game_number: int | None = None) -> Review:
        """Skill and luck of a match (or of one of its games), from its event log.

        Replaying the log and every evaluation run in the analysis lane, off the event loop,
        one game per call (the games of a match spread over the lane's workers).
        """
        events = await self.store.events(row.id)
        games = sorted({event.game_number for event in events})
        reviewed_games = games if game_number is None else [game_number]
        started = time.monotonic()
        log.info("review of match %s, game(s) %s, started", row.id, reviewed_games)
        review = await self._review_games(row, events, reviewed_games)
        if game_number is not None and not row.live and len(games) > 1 and game_number == games[-1]:
            # The match's last game: the others were reviewed as they ended (read back now,
            # or worked out if they were not), so the whole match's analysis exists.
            await self._review_games(row, events, games)
        seconds = time.monotonic() - started
        log.info("review of match %s, game(s) %s, done in %.1f s", row.id, reviewed_games, seconds)
        return review

    async def _review_games(
        self,
        row: MatchRow,
        events: Sequence[EventRecord],
        games: Sequence[int],
        progress: Progress | None = None,
    ) -> Review:
        humans = tuple(i for i in (0, 1) if not (row.computer_level and i == 1))
        # A few games at a time: another member's review is not queued behind all of ours.
        gate = asyncio.Semaphore(max(1, self.workers.parallel_analyses))
        immutable = not row.live or row.game is None

        async def gated(number: int) -> GameReview:
            async with gate:
                return await self._review_game(row, events, number, humans)

        def one(number: int) -> Awaitable[GameReview]:
            current = row.game.game_number if row.game is not None else None
            if not (immutable or (current is not None and number < current)):
                return gated(number)  # never kept: a game that may still change
            key = (row.id, number)
            cache = self.cache
            cached = cache.get(key)
            if cached is not None:
                return _ready(cached)
            running = cache.running.get(key)
            if running is None:
                # Shared by whoever asks for this game meanwhile; kept once done, even if
                # the one who started it has stopped waiting.
                running = cache.running[key] = asyncio.ensure_future(stored(number))
                running.add_done_callback(lambda done: cache.finished(key, done))
            return asyncio.shield(running)

        async def stored(number: int) -> GameReview:
            """A finished game's review: read back if it was stored, else worked out and
            stored (a failure to store costs only the work next time)."""
            text = await self.store.game_review(row.id, number)
            review = review_from_text(text) if text is not None else None
            if review is not None:
                return review
            review = await gated(number)
            try:
                await self.store.save_game_review(row.id, number, review_to_text(review))
            except Exception:
                log.exception("could not keep the review of game %s of match %s", number, row.id)
            return review

        done = 0

        async def counted(number: int) -> GameReview:
            nonlocal done
            review = await one(number)
            done += 1
            if progress is not None:
                try:
                    await progress(done, len(games))
                except Exception:  # telling the progress never stops the work
                    log.exception("could not tell an analysis's progress")
            return review

        parts = await asyncio.gather(*(counted(number) for number in games))
        analyses, luck = merge_reviews(parts, humans)
        played = {event.game_number for event in events}
        if row.status == Status.FINISHED and played and played <= set(games):
            await self.facts.publish([reviewed(row, analyses, luck)])
        return Review(row, analyses, luck)

    async def _review_game(
        self, row: MatchRow, events: Sequence[EventRecord], number: int, humans: tuple[int, ...]
    ) -> GameReview:
        # The log up to the end of this game is all its replay needs.
        upto = [event for event in events if event.game_number <= number]
        return await self.workers.review_log(
            row.options, upto, level=DEFAULT_LEVEL, players=humans, game_number=number
        )

    # --- post-game reviews owed -------------------------------------------------------

    async def queue_review(self, row: MatchRow, game_number: int) -> None:
        """A finished game's review is owed: stored until :meth:`review_posted`, so that a
        stop before it is posted (a restart, a crash) only delays it."""
        await self.store.queue_review(row.id, game_number, self.clock())

    async def review_posted(self, row: MatchRow, game_number: int) -> None:
        await self.store.review_posted(row.id, game_number)

    async def pending_reviews(self) -> list[tuple[MatchRow, int]]:
        """Every review still owed (oldest first) with its match; a match gone since is
        forgotten."""
        owed = []
        for match_id, number in await self.store.pending_reviews():
            try:
                row = await self.store.get_match(match_id)
            except UnreadableMatchError:
                row = None
            if row is None:
                await self.store.review_posted(match_id, number)
                continue
            owed.append((row, number))
        return owed

    async def verify_dice(
        self,
        secret: str,
        public: str,
        *,
        guild_id: int | None = None,
        visible: Callable[[MatchRow], Awaitable[bool]] | None = None,
    ) -> tuple[MatchRow, VerifyResult]:
        """Check a match's recorded rolls against its revealed secret.

        With ``guild_id`` (and ``visible``: may the person asking see the match) a match of
        another server, or one they cannot see, answers as an unknown public value.
        """
        row = await self.store.match_by_dice_public(public.strip())
        if (
            row is None
            or row.dice is None
            or (guild_id is not None and row.guild_id != guild_id)
            or (visible is not None and not await visible(row))
        ):
            raise UserError(Refusal.NO_SUCH_PUBLIC, public=public.strip()[:40])
        events = await self.store.events(row.id)
        result = verify_events(
            secret.strip(), row.dice.public or public, events, commitment_hex=row.dice.commitment
        )
        return row, result

    async def dice_report(self, guild_id: int) -> DiceReport:
        """Statistics of every roll actually played on a server, per player and in all."""
        matches = await self.store.roll_events(guild_id)
        # Pure Python over every roll of a server: in a thread it would still hold the
        # event loop's GIL, so it goes to the analysis lane.
        return await self.workers.lane_call(server_dice_report, matches)

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]:
        return await self.store.rating_history(guild_id, user_id)

    async def computer_results(self, guild_id: int, user_id: int) -> list[ComputerResults]:
        """A member's record against the computer on a server, level by level."""
        return await self.store.computer_results(guild_id, user_id)


__all__ = [
    "AnalysisCooldownError",
    "AnalysisPlan",
    "GameReader",
    "ReviewCache",
    "ReviewService",
    "merge_reviews",
    "reviewed",
    "server_dice_report",
]
