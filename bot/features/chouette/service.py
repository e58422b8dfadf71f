"""Chouette sessions run by the bot: every action of every session, stored, race-safe and
restart-proof like a game's.

:class:`ChouetteService` is composed at start-up (:mod:`bot.services`) over the store's
chouette tables (:mod:`bot.storage.chouette`) and the game session's seams, never its
insides: the channel's lock (:meth:`bot.core.session.SessionService.channel_lock`, the one
a game's actions take, so a chouette's actions and a game's in one channel never
interleave), its dice (the roller), its workers (the computer's thinking) and its fact bus.

One entry, :meth:`ChouetteService.act`, like the game's ``SessionService.act``: a front end
names a :class:`~bot.features.chouette.rules.ChouetteAction` and the rules' verb table
(:data:`~bot.features.chouette.rules.RULES`) applies it. Under the channel's lock the session
is read, the button's exact state checked (:class:`ChouetteContext`: the session, and the
decision it was posted for: two members pressing Double in one window both count, a Double
pressed after the captain rolled is refused as stale), the rule applied, the computer's
seat answered in the same change, and the whole written at the version read (a write that
lost a race to another process is judged again on the fresh state). The facts follow on the
bus (:class:`~bot.features.chouette.facts.ChouetteChanged`). Refusals are typed
(:class:`~bot.core.errors.ChouetteRefusal`); games are unrated and never touch the
leaderboard: points go to the chouette's own all-time table.

Pure of Discord and of words.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.computer import computer_available
from bot.core.errors import (
    ChouetteRefusal,
    ConflictError,
    Name,
    Refusal,
    StaleButtonError,
    UserError,
)
from bot.core.facts import Fact
from bot.core.reports import Player
from bot.core.session import SessionService
from bot.engine import EngineError, Game, Phase
from bot.features.chouette import codec
from bot.features.chouette.analysis import ChouetteAnalysis, analyse, finished_games
from bot.features.chouette.computer import ChouetteComputer, computer_seat, waits_on_computer
from bot.features.chouette.facts import ChouetteChanged
from bot.features.chouette.rules import (
    Chouette,
    ChouetteAction,
    ChouetteError,
    ChouetteOptions,
    Event,
    Offer,
    Seat,
    Stage,
    Status,
    apply,
)
from bot.features.chouette.rules import play as verbs
from bot.storage.chouette import ChouetteRow, ChouetteStorage, LogEntry, PointsRow

log = logging.getLogger(__name__)

CONFLICT_RETRIES = 3
IDLE_ANSWER_SECONDS = 120.0  # a member doubled and silent this long follows the captain
WINDOW_SECONDS = 30.0  # the computer's captain waits this long for the people to double
NAMED = ("captain", "member")  # refusal parameters that are a person's name


@dataclass(frozen=True, slots=True)
class ChouetteContext:
    """What a button names: its session and the decision (``moment``) it was posted for.
    Both None: a command, acting on whatever the channel's session is now."""

    session_id: int | None = None
    moment: int | None = None
    moderator: bool = False  # the front end checked the presser moderates the channel


NO_CONTEXT = ChouetteContext()


@dataclass(frozen=True, slots=True)
class AnalysisPlan:
    """A session and which of its finished games an analysis covers."""

    session: int
    state: Chouette
    events: tuple[Event, ...]
    games: tuple[int, ...]


@dataclass(slots=True)
class ChouetteReport:
    """What a stored change did, as values, for a front end to tell and show: the session
    as stored (``row``, ``state``) and as it was (``before``), the events in order, the
    last board of each game it finished, who asked and when."""

    action: ChouetteAction | None
    row: ChouetteRow
    state: Chouette
    before: Chouette | None
    events: tuple[Event, ...]
    finished: tuple[Game, ...] = ()
    actor: Player | None = None
    at: float = 0.0
    facts: list[Fact] = field(default_factory=list)

    @property
    def game_over(self) -> bool:
        return bool(self.finished)


def refused(error: ChouetteError) -> UserError:
    """A rule's refusal as the player's error (names marked for the front end)."""
    params = {k: Name(v) if k in NAMED else v for k, v in error.params.items()}
    return UserError(ChouetteRefusal(error.code.value), **params)


class ChouetteService:
    """Every chouette session this process serves."""

    def __init__(
        self,
        store: ChouetteStorage,
        session: SessionService,
        *,
        clock: Callable[[], float],
        computer: Callable[[str], Any] | None = None,
    ) -> None:
        self.store = store
        self.session = session
        self.clock = clock
        self.facts = session.facts
        self.computer = ChouetteComputer(session.workers)
        self._stand_in = computer is not None  # tests' computer: no bgsage needed

    def die(self) -> int:
        """The session's dice (scripted in tests)."""
        return self.session.roller.die()

    # --- reading ---------------------------------------------------------------------------

    async def current(self, channel_id: int) -> tuple[ChouetteRow, Chouette] | None:
        """The channel's live session, if it has one."""
        row = await self.store.live(channel_id)
        return None if row is None else (row, codec.loads(row.state))

    async def latest(self, channel_id: int) -> tuple[ChouetteRow, Chouette] | None:
        """The channel's live session, else the last one played there (its log, say)."""
        row = await self.store.latest(channel_id)
        return None if row is None else (row, codec.loads(row.state))

    async def by_web_key(self, key: str) -> tuple[ChouetteRow, Chouette] | None:
        """The session a web page's key names, if any."""
        row = await self.store.by_web_key(key)
        return None if row is None else (row, codec.loads(row.state))

    async def get(self, chouette_id: int) -> tuple[ChouetteRow, Chouette] | None:
        row = await self.store.get(chouette_id)
        return None if row is None else (row, codec.loads(row.state))

    async def log(self, chouette_id: int) -> list[Event]:
        """A session's events from the start, in order (the session log)."""
        return [
            codec.event_loads(e.kind, e.game_number, e.data)
            for e in await self.store.events(chouette_id)
        ]

    async def plan_analysis(self, channel_id: int, game: int | None = None) -> AnalysisPlan:
        """What :meth:`run_analysis` would analyse, or the refusal, at once (a few reads):
        the channel's session (live, else its last), its finished games, or the one asked."""
        found = await self.latest(channel_id)
        if found is None:
            raise UserError(ChouetteRefusal.NO_CHOUETTE)
        row, state = found
        games = finished_games(state)
        if game is not None:
            games = tuple(number for number in games if number == game)
        if not games:
            raise UserError(Refusal.ANALYSIS_FINISHED_ONLY)
        return AnalysisPlan(row.id, state, tuple(await self.log(row.id)), games)

    async def run_analysis(self, plan: AnalysisPlan) -> ChouetteAnalysis:
        """Each human player's checker plays and cube decisions over the planned games, in
        the workers' analysis lane (seconds of work)."""
        workers = self.session.workers
        return await analyse(workers, plan.session, plan.events, plan.state, plan.games)

    async def standings(self, guild_id: int, limit: int = 20) -> list[PointsRow]:
        """The server's all-time chouette points, best first."""
        return await self.store.standings(guild_id, limit)

    async def advice(self, channel_id: int, user_id: int) -> list[tuple[str, str]]:
        """The suggestions to the acting captain, for the acting captain's eyes only: the
        words of each member (name, text)."""
        found = await self.current(channel_id)
        if found is None:
            raise UserError(ChouetteRefusal.NO_CHOUETTE)
        s = found[1]
        g = s.game
        if g is None or s.status is not Status.PLAYING or g.acting != user_id:
            raise UserError(ChouetteRefusal.CAPTAIN_READS)
        return [(s.name(member), text) for member, text in g.advice]

    async def legal_play_texts(self, channel_id: int, user_id: int) -> list[str]:
        """The plays open to ``user_id`` if the checkers are theirs to move now, else none."""
        found = await self.current(channel_id)
        if found is None:
            return []
        g = found[1].game
        if g is None or g.to_move != user_id or g.board.phase is not Phase.MOVE:
            return []
        plays = g.board.legal_plays()
        return [] if plays.is_forced_pass else [str(p) for p in plays]

    # --- starting --------------------------------------------------------------------------

    def check_computer(self, computer: Player | None) -> None:
        """Refuse a computer's seat where the computer cannot play (no bgsage here)."""
        if computer is not None and not (self._stand_in or computer_available()):
            raise UserError(Refusal.COMPUTER_UNAVAILABLE)

    async def start(
        self,
        guild_id: int,
        channel_id: int,
        starter: Player,
        options: ChouetteOptions,
        *,
        home_channel_id: int | None = None,
        computer: Player | None = None,
        computer_box: bool = False,
    ) -> ChouetteReport:
        """A new session in ``channel_id`` (a thread of its own, usually), the starter
        seated, and the computer too when asked (``computer_box``: in the box for the first
        game; else the dice place it like everyone)."""
        self.check_computer(computer)
        state = Chouette(options)
        if computer is not None and computer_box:
            state = dataclasses.replace(state, first_box=computer.id)
        events: list[Event] = []
        for seat in (
            Seat(starter.id, starter.name),
            *([Seat(computer.id, computer.name, True)] if computer is not None else []),
        ):
            applied = verbs.join(state, seat)
            state, events = applied.session, [*events, *applied.events]
        now = self.clock()
        async with self.session.channel_lock(channel_id):
            if await self.session.current(channel_id) is not None:
                raise UserError(ChouetteRefusal.GAME_HERE)
            row = await self.store.create(
                guild_id=guild_id,
                channel_id=channel_id,
                home_channel_id=home_channel_id,
                started_by=starter.id,
                status=str(state.status),
                state=codec.dumps(state),
                events=_entries(events),
                now=now,
            )
        if row is None:
            raise UserError(ChouetteRefusal.CHOUETTE_HERE)
        report = ChouetteReport(None, row, state, None, tuple(events), actor=starter, at=now)
        report.facts.append(ChouetteChanged(report))
        await self.facts.publish(report.facts)
        return report

    # --- the one entry -----------------------------------------------------------------------

    async def act(
        self,
        channel_id: int,
        user: Player,
        action: ChouetteAction,
        ctx: ChouetteContext = NO_CONTEXT,
        **params: Any,
    ) -> ChouetteReport:
        """Run one player's ``action`` in the channel's session, through the verb table."""
        if action is ChouetteAction.JOIN:
            params = {"seat": Seat(user.id, user.name)}

        def rule(state: Chouette, row: ChouetteRow) -> verbs.Applied:
            if action is ChouetteAction.END and user.id != row.started_by and not ctx.moderator:
                raise UserError(ChouetteRefusal.ENDS_BY_STARTER)
            if action is ChouetteAction.FOLLOW:
                raise ValueError("the session's clock, not a player, makes members follow")
            return apply(state, action, user.id, self.die, **params)

        return await self._change(channel_id, rule, ctx, action=action, actor=user)

    async def _change(
        self,
        channel_id: int,
        rule: Callable[[Chouette, ChouetteRow], verbs.Applied | None],
        ctx: ChouetteContext,
        *,
        action: ChouetteAction | None,
        actor: Player | None,
        background: bool = False,
    ) -> ChouetteReport:
        """One change under the channel's lock; a write that lost a race is judged again."""
        for attempt in range(CONFLICT_RETRIES):
            try:
                async with self.session.channel_lock(channel_id):
                    report = await self._locked(channel_id, rule, ctx, action, actor)
            except ConflictError:
                if attempt == CONFLICT_RETRIES - 1:
                    raise
                log.info("chouette in %s: write conflict, judging again", channel_id)
                continue
            report.facts.append(ChouetteChanged(report, background))
            await self.facts.publish(report.facts)
            return report
        raise AssertionError("unreachable")

    async def _locked(
        self,
        channel_id: int,
        rule: Callable[[Chouette, ChouetteRow], verbs.Applied | None],
        ctx: ChouetteContext,
        action: ChouetteAction | None,
        actor: Player | None,
    ) -> ChouetteReport:
        row = await self.store.live(channel_id)
        if row is None or (ctx.session_id is not None and row.id != ctx.session_id):
            if ctx.session_id is not None:
                raise StaleButtonError(ChouetteRefusal.OLD_BUTTON)
            raise UserError(ChouetteRefusal.NO_CHOUETTE)
        before = codec.loads(row.state)
        if ctx.moment is not None and before.moment != ctx.moment:
            raise StaleButtonError(ChouetteRefusal.OLD_BUTTON)
        try:
            applied = rule(before, row)
        except ChouetteError as exc:
            raise refused(exc) from exc
        except EngineError as exc:
            raise UserError.of_engine(exc) from exc
        steps = [applied] if applied is not None else []
        state = applied.session if applied is not None else before
        turns = await self.computer.play(state, self.die)
        steps += turns.steps
        if not steps:
            raise UserError(ChouetteRefusal.NOT_NOW)
        return await self._commit(row, before, steps, action, actor)

    async def _commit(
        self,
        row: ChouetteRow,
        before: Chouette,
        steps: Sequence[verbs.Applied],
        action: ChouetteAction | None,
        actor: Player | None,
    ) -> ChouetteReport:
        state = steps[-1].session
        events = tuple(e for step in steps for e in step.events)
        finished = tuple(b for step in steps for b in step.finished)
        names = state.names
        points = [
            (player, names.get(player, str(player)), value)
            for record in state.records[len(before.records) :]
            for player, value in record.points
        ]
        now = self.clock()
        stored = await self.store.save(
            row,
            status=str(state.status),
            state=codec.dumps(state),
            events=_entries(events),
            points=points,
            now=now,
        )
        return ChouetteReport(action, stored, state, before, events, finished, actor, now)

    # --- the session's clock ------------------------------------------------------------------

    async def tick(self, guilds: Collection[int] | None = None) -> list[ChouetteReport]:
        """What no person does: the computer's decisions left open (a failed evaluation, a
        restart), members doubled and idle past :data:`IDLE_ANSWER_SECONDS` following the
        captain, the computer captain's window closed after :data:`WINDOW_SECONDS`. Each
        change is published as background news; the reports are returned."""
        reports: list[ChouetteReport] = []
        now = self.clock()
        for row in await self.store.live_sessions():
            if guilds is not None and row.guild_id not in guilds:
                continue
            due = _due(codec.loads(row.state), now - row.updated_at, self.die)
            if due is None:
                continue

            def rule(
                fresh: Chouette,
                _row: ChouetteRow,
                due: Callable[[Chouette], verbs.Applied | None] = due,
            ) -> verbs.Applied | None:
                return due(fresh)

            try:
                report = await self._change(
                    row.channel_id,
                    rule,
                    ChouetteContext(row.id),
                    action=None,
                    actor=None,
                    background=True,
                )
            except UserError as exc:
                log.info("chouette %s: nothing due after all (%s)", row.id, exc)
                continue
            except Exception:
                log.exception("chouette %s: the clock's work failed", row.id)
                continue
            reports.append(report)
        return reports


def _due(
    s: Chouette, idle: float, die: Callable[[], int]
) -> Callable[[Chouette], verbs.Applied | None] | None:
    """The work the clock owes a session, if any (judged again under the lock)."""
    g = s.game
    if g is None or s.status is not Status.PLAYING or g.over:
        return None
    if waits_on_computer(s):

        def nothing(fresh: Chouette) -> verbs.Applied | None:
            return None  # the computer's turn is taken after the rule, as after any

        return nothing
    me = computer_seat(s)
    if g.stage is Stage.WINDOW and me is not None and g.acting == me and idle >= WINDOW_SECONDS:
        captain = me

        def close(fresh: Chouette) -> verbs.Applied | None:
            return verbs.roll(fresh, captain, die)

        return close
    if g.stage is Stage.MEMBER_ANSWERS and idle >= IDLE_ANSWER_SECONDS:
        idle_members = [
            c.member for c in g.cubes if c.offer is Offer.BY_BOX and c.member != g.acting
        ]
        if idle_members:

            def follow(fresh: Chouette) -> verbs.Applied | None:
                return verbs.follow_captain(fresh, idle_members, die)

            return follow
    return None


def _entries(events: Sequence[Event]) -> list[LogEntry]:
    return [LogEntry(e.game, str(e.kind), codec.event_dumps(e)) for e in events]


__all__ = [
    "NO_CONTEXT",
    "AnalysisPlan",
    "ChouetteContext",
    "ChouetteReport",
    "ChouetteService",
    "refused",
]
