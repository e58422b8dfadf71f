"""Tournaments run by the bot: registration, the draw, matches opened by themselves, results
read from the games, rounds advanced, deadlines kept, and the director's tools.

:class:`TournamentService` is composed at start-up (:mod:`bot.services`) over the store's
competition tables (:mod:`bot.storage.competitions`), the game session and the fact bus.
It learns that a match is over from :class:`~bot.core.facts.MatchOver` (never from a player's
report), records the result once, and advances the event. What it needs of a front end
(opening a thread, telling a channel what happened) is the :class:`Host` it is given;
what it tells is typed news (:mod:`bot.features.tournaments.news`), narrated by the front end.

Safe with several processes: a pairing is opened by the one caller whose claim succeeds,
a result is written only while its row has none, and the picture after a round and the end
of the event are posted by the one caller whose versioned update of the event succeeds.
Pure of Discord.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.core.errors import CompetitionRefusal, ConflictError, UserError
from bot.core.facts import Fact, MatchOver, TournamentOver
from bot.core.records import MatchRow
from bot.core.reports import Player, Report
from bot.core.session import SessionService
from bot.engine import MatchOptions
from bot.features.tournaments.directors import DirectorTools
from bot.features.tournaments.formats import (
    Event,
    activity_of,
    planned_rounds,
    rebuild,
    result_of_match,
)
from bot.features.tournaments.news import (
    Decided,
    EventFinished,
    EventStarted,
    MatchesOpened,
    MatchOpened,
    News,
    ReferredToDirector,
    Reminder,
    RoundOver,
    StartRefused,
)
from bot.features.tournaments.refusals import refused
from bot.features.tournaments.rules import (
    Activity,
    CompetitionError,
    Entrant,
    Format,
    Pace,
    PaceRules,
    Phase,
    Registration,
    Result,
    Step,
    Verdict,
    decide_at_deadline,
    due_reminder,
    seed,
)
from bot.storage.competition_rows import EntrantRow, PairingRow, TournamentOptions, TournamentRow
from bot.storage.competitions import CompetitionStorage

log = logging.getLogger(__name__)

IDLE = "idle"  # the reason of a live match lost by a player idle past the limit
REOPEN_AFTER = 120.0  # seconds: a claimed pairing with no match yet was lost in a crash
MAX_NAME = 60


class Host(Protocol):
    """What the service needs of the front end that runs it."""

    async def open_thread(self, event: TournamentRow, pairing: PairingRow) -> int | None:
        """A thread for the match under the event's channel; None if it cannot be opened
        (the match is then played in the event's channel)."""
        ...

    async def tell(self, news: News) -> None:
        """Post what happened (the front end narrates it)."""
        ...

    async def present(self, guild_id: int, users: Sequence[int]) -> set[int]:
        """Which of ``users`` are still members of the server (for a draw made by itself)."""
        ...


class NoHost:
    """Before a front end attaches: no threads, nothing posted (tests of the core)."""

    async def open_thread(self, event: TournamentRow, pairing: PairingRow) -> int | None:
        return None

    async def tell(self, news: News) -> None:
        return None

    async def present(self, guild_id: int, users: Sequence[int]) -> set[int]:
        return set(users)


class TournamentService:
    """Runs every tournament of every server this process serves."""

    def __init__(
        self,
        store: CompetitionStorage,
        session: SessionService,
        *,
        clock: Callable[[], float],
        host: Host | None = None,
    ) -> None:
        self.store = store
        self.session = session
        self.clock = clock
        self.host: Host = host or NoHost()
        self._locks: dict[int, asyncio.Lock] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._unsubscribe = session.facts.subscribe(self.on_facts)
        self.directors = DirectorTools(self)

    async def ended(self, row: TournamentRow) -> None:
        """Tell whoever waits for the end of ``row`` (puzzles wait for the end of a
        tournament before its games may become puzzles): a fact on the bus."""
        await self.session.facts.publish([TournamentOver(row.id, row.guild_id)])

    # --- reading ---------------------------------------------------------------------------

    async def event(self, tournament_id: int, guild_id: int | None = None) -> TournamentRow:
        row = await self.store.tournament(tournament_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise UserError(CompetitionRefusal.NO_TOURNAMENT, number=tournament_id)
        return row

    async def load(self, row: TournamentRow) -> Event:
        entrants = await self.store.entrants(row.id)
        return rebuild(row, entrants, await self.store.pairings(row.id))

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """An event's entrants, in the order they joined."""
        return await self.store.entrants(tournament_id)

    async def director_role(self, guild_id: int) -> int | None:
        """The role whose members direct this server's events (None: Manage Server only)."""
        return await self.store.td_role(guild_id)

    async def set_director_role(self, guild_id: int, role_id: int | None) -> None:
        await self.store.set_td_role(guild_id, role_id)

    async def names(self, tournament_id: int) -> dict[int, str]:
        return {e.user_id: e.name for e in await self.store.entrants(tournament_id)}

    async def current(self, guild_id: int) -> list[TournamentRow]:
        """The server's events not over yet, oldest first."""
        live = [Phase.DRAFT, Phase.REGISTRATION, Phase.CHECK_IN, Phase.RUNNING]
        return await self.store.tournaments(guild_id, live)

    async def pairing_in(self, channel_id: int) -> tuple[TournamentRow, PairingRow] | None:
        """The event match played in this thread or channel, if one is still undecided."""
        found = await self.store.pairing_in_channel(channel_id)
        if found is None or found[1].result is not None:
            return None
        row = await self.store.tournament(found[0])
        return None if row is None or row.phase is not Phase.RUNNING else (row, found[1])

    # --- registration ----------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        director: Player,
        name: str,
        format: Format,
        options: TournamentOptions,
    ) -> TournamentRow:
        """A new event, open for registration at once (its draft is this one command)."""
        name = " ".join(name.split())[:MAX_NAME]
        if not name:
            raise UserError(CompetitionRefusal.NAME_NEEDED)
        if format is Format.LADDER:
            raise UserError(CompetitionRefusal.LADDER_NOT_TOURNAMENT)
        row = await self.store.create_tournament(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            format=format,
            options=options,
            created_by=director.id,
            now=self.clock(),
            rng_seed=random.SystemRandom().randrange(1 << 48),
        )
        return await self.store.update_tournament(row, phase=Phase.REGISTRATION)

    async def note_announcement(self, row: TournamentRow, message_id: int) -> TournamentRow:
        return await self.update(row, announcement_id=message_id)

    async def _registration(self, row: TournamentRow) -> Registration:
        entrants = await self.store.entrants(row.id)
        return Registration(
            phase=row.phase,
            entrants=tuple(Entrant(e.user_id, e.rating) for e in entrants),
            checked_in=frozenset(e.user_id for e in entrants if e.checked_in),
            max_players=row.options.max_players,
        )

    async def join(self, tournament_id: int, player: Player, rating: float | None) -> TournamentRow:
        row = await self.event(tournament_id)
        try:
            (await self._registration(row)).join(Entrant(player.id, rating))
        except CompetitionError as exc:
            raise refused(exc) from exc
        entrant = EntrantRow(player.id, player.name[:MAX_NAME], rating, self.clock())
        if not await self.store.add_entrant(row.id, entrant):
            raise UserError(CompetitionRefusal.ALREADY_JOINED)
        return row

    async def leave(self, tournament_id: int, player: Player) -> TournamentRow:
        row = await self.event(tournament_id)
        try:
            (await self._registration(row)).leave(player.id)
        except CompetitionError as exc:
            raise refused(exc) from exc
        await self.store.remove_entrant(row.id, player.id)
        return row

    async def check_in(self, tournament_id: int, player: Player) -> TournamentRow:
        row = await self.event(tournament_id)
        try:
            (await self._registration(row)).check_in(player.id)
        except CompetitionError as exc:
            raise refused(exc) from exc
        await self.store.update_entrant(row.id, player.id, checked_in=True)
        return row

    async def open_check_in(self, row: TournamentRow, director: Player) -> TournamentRow:
        return await self._step(row, Step.CHECK_IN)

    async def _step(self, row: TournamentRow, step: Step) -> TournamentRow:
        try:
            phase = (await self._registration(row)).step(step).phase
        except CompetitionError as exc:
            raise refused(exc) from exc
        return await self.update(row, phase=phase)

    async def update(self, row: TournamentRow, **changes: object) -> TournamentRow:
        try:
            return await self.store.update_tournament(row, **changes)
        except ConflictError:
            raise UserError(CompetitionRefusal.EVENT_CHANGED) from None

    # --- the draw ----------------------------------------------------------------------------

    async def start(
        self,
        tournament_id: int,
        guild_id: int,
        present: Callable[[Sequence[int]], Awaitable[set[int]]],
    ) -> TournamentRow:
        """The draw: absentees (not checked in, or gone from the server: ``present`` answers
        which of the players asked about are still members, in one look) are
        dropped, the field seeded at random or by rating, and the first matches opened."""
        row = await self.event(tournament_id, guild_id)
        async with self._lock(row.id):
            registration = await self._registration(row)
            field = [e.player for e in registration.field()]
            here = await present(field)
            gone = [player for player in field if player not in here]
            try:
                started = registration.drop(frozenset(gone)).step(Step.START)
            except CompetitionError as exc:
                raise refused(exc) from exc
            keep = {e.player for e in started.entrants}
            dropped = [e.player for e in registration.entrants if e.player not in keep]
            seeds = seed(started.entrants, row.options.seeding, rng_seed=row.rng_seed)
            options = row.options
            rounds = planned_rounds(row, len(seeds))
            if rounds is not None:
                options = replace(options, rounds=rounds)
            try:
                row = await self.store.draw(
                    row, seeds, dropped, phase=Phase.RUNNING, options=options
                )
            except ConflictError:
                raise UserError(CompetitionRefusal.EVENT_STARTED) from None
        await self.host.tell(EventStarted(row))
        await self.advance(row.id)
        return row

    # --- playing -----------------------------------------------------------------------------

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    def _pace(self, options: TournamentOptions) -> PaceRules:
        return PaceRules(
            pace=options.pace,
            round_time=timedelta(hours=options.round_hours),
            per_point=timedelta(minutes=options.per_point_minutes),
            stall_after=timedelta(hours=options.stall_hours),
        )

    async def advance(self, tournament_id: int) -> None:
        """Bring the event up to date: store new pairings, open their matches, post the
        picture after a completed round, finish it. Idempotent: run it any time."""
        async with self._lock(tournament_id):
            for _round in range(64):  # a Swiss pairs at most one round per pass
                found = await self.store.tournament(tournament_id)
                if found is None or found.phase is not Phase.RUNNING:
                    return
                row = found
                event = await self.load(row)
                after = event.next_round()
                if after is not None:
                    if after.value.finished and planned_rounds(row, 2) is not None:
                        # No pairing without a rematch: the event ends with the rounds played.
                        rounds = getattr(after.value, "rounds", None)
                        options = replace(row.options, rounds=rounds)
                        row = await self.store.update_tournament(row, options=options)
                    event = after
                fresh = event.new_pairings()
                if not fresh:
                    break
                await self.store.add_pairings(row.id, fresh)
            if row.paused:
                return
            event = await self.load(row)
            await self._open_matches(event)
            await self._round_pictures(event)

    async def _open_matches(self, event: Event) -> None:
        now = self.clock()
        opened: list[PairingRow] = []
        for pairing in event.pairings:
            if pairing.b is None or pairing.result is not None:
                continue
            lost = (
                pairing.opened_at is not None
                and pairing.match_id is None
                and now - pairing.opened_at > REOPEN_AFTER
            )
            if lost:  # claimed, then the process stopped before the match existed
                await self.store.update_pairing(event.row.id, pairing.key, opened_at=None)
            elif pairing.opened_at is not None:
                continue
            done = await self._open_match(event.row, pairing, now)
            if done is not None:
                opened.append(done)
        if opened:  # one message in the event's channel for all of them, not one each
            await self.host.tell(MatchesOpened(event.row, tuple(opened)))

    async def _open_match(
        self, row: TournamentRow, pairing: PairingRow, now: float
    ) -> PairingRow | None:
        """Claim the pairing, open its thread and its match; the pairing as opened (None
        when another caller had it, or the match could not be opened)."""
        pace = self._pace(row.options)
        opened = datetime.fromtimestamp(now, UTC)
        deadline = pace.deadline(opened, pairing.length).timestamp()
        if not await self.store.claim_pairing(
            row.id, pairing.key, channel_id=row.channel_id, opened_at=now, deadline=deadline
        ):
            return None  # another process (or an earlier pass) opened it
        thread = await self.host.open_thread(row, pairing)
        channel = thread or row.channel_id
        names = await self.names(row.id)
        assert pairing.b is not None
        first = Player(pairing.a, names.get(pairing.a, str(pairing.a)))
        second = Player(pairing.b, names.get(pairing.b, str(pairing.b)))
        options = MatchOptions(length=pairing.length)
        try:
            await self.session.challenge(row.guild_id, channel, first, second, options, rated=True)
            report = await self.session.accept(channel, second)
        except UserError:
            log.exception("tournament %s: could not open %s", row.id, pairing.key)
            await self.store.update_pairing(row.id, pairing.key, opened_at=None)
            await self.host.tell(ReferredToDirector(row, pairing, None, no_channel=True))
            return None
        await self.store.attach_match(row.id, pairing.key, report.match.id)
        await self.store.update_pairing(row.id, pairing.key, channel_id=channel)
        opened_pairing = replace(
            pairing, match_id=report.match.id, channel_id=channel, opened_at=now, deadline=deadline
        )
        await self.host.tell(
            MatchOpened(row, opened_pairing, report, deadline, in_thread=thread is not None)
        )
        return opened_pairing if thread is not None else None

    async def _round_pictures(self, event: Event) -> None:
        row = event.row
        done = event.rounds_complete
        if event.finished:
            try:
                row = await self.store.update_tournament(
                    row, phase=Phase.FINISHED, round_number=done
                )
            except ConflictError:
                return  # another caller finished it
            final = replace(event, row=row)
            await self.ended(row)
            await self.host.tell(EventFinished(row, final, await self._match_ids(row.id)))
            return
        if done > row.round_number:
            try:
                row = await self.store.update_tournament(row, round_number=done)
            except ConflictError:
                return
            await self.host.tell(RoundOver(row, replace(event, row=row), done))

    async def _match_ids(self, tournament_id: int) -> tuple[int, ...]:
        return tuple(p.match_id for p in await self.store.pairings(tournament_id) if p.match_id)

    # --- results from the games --------------------------------------------------------------

    async def on_facts(self, facts: Sequence[Fact]) -> None:
        """A match of an event is over: record its result now (one quick write, so nothing
        is lost), then advance the event in the background (threads, boards, pictures must
        not hold up the move that ended the match)."""
        for fact in facts:
            if isinstance(fact, MatchOver):
                await self._match_over(fact)

    async def _match_over(self, fact: MatchOver) -> None:
        found = await self.store.pairing_of_match(fact.match.id)
        if found is None:
            return
        tournament_id, pairing = found
        if pairing.result is not None:
            return  # decided already (by a deadline or the director)
        winner = fact.winner_id
        if winner is None:
            row = await self.store.tournament(tournament_id)
            if row is not None and row.phase is Phase.RUNNING:
                await self.host.tell(ReferredToDirector(row, pairing, None))
            return
        result = result_of_match(
            pairing, winner, fact.final_score, fact.reason, fact.match.player_ids[0]
        )
        if await self.store.record_result(tournament_id, pairing.key, result, now=self.clock()):
            self.in_background(self.advance(tournament_id))

    def in_background(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("tournament work failed")

        task = asyncio.ensure_future(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settle(self) -> None:
        """Wait for the background work under way (tests, shutdown)."""
        while self._background:
            await asyncio.gather(*list(self._background), return_exceptions=True)

    # --- deadlines ---------------------------------------------------------------------------

    async def _running_events(self, guilds: Collection[int] | None) -> list[TournamentRow]:
        """Running events (of ``guilds`` only, when given: a shard process keeps the time of
        its own servers)."""
        rows = await self.store.tournaments(None, [Phase.RUNNING])
        return [r for r in rows if guilds is None or r.guild_id in guilds]

    async def resume(self, guilds: Collection[int] | None = None) -> None:
        """At start-up: bring every running event up to date (matches a crash left unopened,
        results that arrived while no process listened are read from the games)."""
        for row in await self._running_events(guilds):
            for pairing in await self.store.pairings(row.id):
                if pairing.match_id is not None and pairing.result is None:
                    await self._catch_up(row, pairing)
            await self.advance(row.id)

    async def _catch_up(self, row: TournamentRow, pairing: PairingRow) -> None:
        match = await self.session.match(pairing.match_id or 0)
        if match is None or match.live or match.winner is None:
            return
        score = match.final_score or (0, 0)
        winner = match.player_ids[match.winner]
        reason = match.end_reason or ""
        result = result_of_match(pairing, winner, score, reason, match.player_ids[0])
        await self.store.record_result(row.id, pairing.key, result, now=self.clock())

    async def tick(self, guilds: Collection[int] | None = None) -> None:
        """Start the events whose start time has come; send the reminders due and decide
        the matches past their deadline."""
        now = self.clock()
        await self._start_due(guilds, now)
        for row in await self._running_events(guilds):
            if row.paused:
                continue
            for pairing in await self.store.pairings(row.id):
                if pairing.result is not None or pairing.opened_at is None or not pairing.deadline:
                    continue
                if pairing.match_id is None:
                    continue
                try:
                    await self._keep_time(row, pairing, now)
                except Exception:
                    log.exception("tournament %s: deadline of %s", row.id, pairing.key)

    async def _start_due(self, guilds: Collection[int] | None, now: float) -> None:
        """The draw of events announced with a start time, once it has come. One that
        cannot start (too few players) is told to the directors once, and waits for them."""
        open_phases = [Phase.REGISTRATION, Phase.CHECK_IN]
        for row in await self.store.tournaments(None, open_phases):
            due = row.options.starts_at
            if due is None or due > now or (guilds is not None and row.guild_id not in guilds):
                continue

            async def present(users: Sequence[int], guild_id: int = row.guild_id) -> set[int]:
                return await self.host.present(guild_id, users)

            try:
                await self.start(row.id, row.guild_id, present)
            except UserError as exc:
                try:  # no second try by the clock: the directors decide now
                    await self.store.update_tournament(
                        row, options=replace(row.options, starts_at=None)
                    )
                except ConflictError:
                    continue
                await self.host.tell(StartRefused(row, exc))

    async def _keep_time(self, row: TournamentRow, pairing: PairingRow, now: float) -> None:
        assert pairing.opened_at is not None and pairing.deadline is not None
        opened = datetime.fromtimestamp(pairing.opened_at, UTC)
        deadline = datetime.fromtimestamp(pairing.deadline, UTC)
        at = datetime.fromtimestamp(now, UTC)
        sent = [datetime.fromtimestamp(t, UTC) for t in pairing.reminders]
        if row.options.pace is Pace.LIVE and await self._idle_too_long(row, pairing, now):
            return
        if now < pairing.deadline:
            due = due_reminder(opened, deadline, at, sent, self._pace(row.options).reminders)
            if due is not None:
                reminders = (*pairing.reminders, due.timestamp())
                if await self.store.note_reminders(
                    row.id, pairing.key, pairing.reminders, reminders
                ):
                    await self.host.tell(Reminder(row, pairing, pairing.deadline))
            return
        if pairing.deadline in pairing.reminders:
            return  # referred to the director already; waiting on them
        match = await self.session.match(pairing.match_id or 0)
        if match is None:
            return
        if not match.live:
            await self._catch_up(row, pairing)
            self.in_background(self.advance(row.id))
            return
        sides = await self._activity(match, pairing)
        decision = decide_at_deadline(
            *sides,
            length=pairing.length,
            deadline=deadline,
            stall_after=self._pace(row.options).stall_after,
        )
        if decision.result is None or decision.verdict is Verdict.REFER_TO_TD:
            # Marked as referred by the deadline among the reminders: told once.
            reminders = (*pairing.reminders, pairing.deadline)
            if await self.store.note_reminders(row.id, pairing.key, pairing.reminders, reminders):
                await self.host.tell(ReferredToDirector(row, pairing, decision.verdict))
            return
        await self.settle_match(row, pairing, decision.result, None, decision.verdict.value)

    async def _idle_too_long(self, row: TournamentRow, pairing: PairingRow, now: float) -> bool:
        """A live event's idle limit: the player a match has waited on longer than
        ``idle_minutes`` loses it, keeping the points won (a timeout). True when decided."""
        match = await self.session.match(pairing.match_id or 0)
        if match is None or not match.live or match.game is None or match.game.actor is None:
            return False
        if now - match.last_action_at < row.options.idle_minutes * 60:
            return False
        stalled = match.player_ids[match.game.actor]
        winner = match.player_ids[1 - match.game.actor]
        kept = min(max(match.game.score[match.game.actor], 0), pairing.length - 1)
        result = Result.timeout(winner, stalled, (pairing.length, kept))
        await self.settle_match(row, pairing, result, None, IDLE)
        return True

    async def _activity(self, match: MatchRow, pairing: PairingRow) -> tuple[Activity, Activity]:
        events = await self.session.events(match.id)
        return activity_of(match, events, pairing.opened_at or 0.0)

    async def settle_match(
        self,
        row: TournamentRow,
        pairing: PairingRow,
        result: Result,
        director: Player | None,
        reason: str,
    ) -> Report | None:
        """Record a decision and end the match that was being played (no rating: the bot's
        match ends with no result; the event keeps the decision)."""
        now = self.clock()
        by = None if director is None else director.id
        if not await self.store.record_result(
            row.id, pairing.key, result, now=now, decided_by=by, reason=reason
        ):
            if director is None:
                return None  # another process's clock decided it first
            raise UserError(CompetitionRefusal.ALREADY_DECIDED)
        report = None
        if pairing.match_id is not None and pairing.channel_id is not None:
            match = await self.session.match(pairing.match_id)
            if match is not None and match.live:
                try:
                    report = await self.session.cancel(
                        pairing.channel_id, director or Player(0, row.name)
                    )
                except UserError:
                    log.warning("tournament %s: could not end match %s", row.id, match.id)
        await self.host.tell(Decided(row, pairing, result, director, reason, report))
        self.in_background(self.advance(row.id))
        return report


__all__ = ["Host", "NoHost", "TournamentService"]
