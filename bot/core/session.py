"""Per-channel game sessions: lock, load, check the actor, act, save, report.

This layer knows nothing of Discord and writes no player words: it takes plain ids and
names, runs the action named by the front end through the action table
(:data:`bot.core.actions.RULES`, via :meth:`SessionService.act`) under the channel's lock, stores
the new state with its events in one transaction (see :mod:`bot.storage`), publishes the
change's facts (:mod:`bot.core.facts`) and returns a :class:`Report` of values that any front end
(the Discord cog, the terminal) tells (``bot.present.tell``) and draws. Refusals are typed
(:class:`bot.core.errors.Refusal`). May import the engine, records, errors, facts, the turn and
the action table, storage's interface; never ``bot/present`` nor a front end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

from bot.computer import DEFAULT_LEVEL, LEVELS, computer_available
from bot.core import actions
from bot.core.dice import Roller, SystemRoller
from bot.core.errors import (
    ConflictError,
    Name,
    NoGameError,
    Refusal,
    StaleButtonError,
    UnreadableMatchError,
    UserError,
)
from bot.core.facts import (
    ActionTaken,
    ComputerStuck,
    Fact,
    FactBus,
    PlayedElsewhere,
    TurnResumed,
    facts_of,
)
from bot.core.fairdice import commitment, new_secret
from bot.core.opponent import COMPUTER_ATTEMPTS, ComputerOpponent
from bot.core.records import (
    Action,
    Change,
    ClaimRule,
    DiceSeal,
    EventRecord,
    FinishedGame,
    MatchRow,
    PlayerStats,
    Status,
    Venue,
)
from bot.core.reports import (
    NO_CONTEXT,
    ActionContext,
    Player,
    QuarantinedError,
    Report,
    Review,
    SessionSettings,
)
from bot.core.turn import Turn, check_button
from bot.engine import (
    EngineError,
    Game,
    MatchOptions,
    Phase,
    ResultKind,
)
from bot.storage import Storage
from bot.workers import Workers

log = logging.getLogger(__name__)

PLAY_TEXTS_KEPT = 512  # positions whose legal plays autocomplete keeps at hand
CONFLICT_RETRIES = 3  # another process (or a racing click) wrote first: reload and retry


class SessionService:
    """Runs every game action for every channel. One instance serves the whole bot.

    Each action runs under its channel's lock: load the live row, check it is the game the
    request names, apply the rules, let the computer opponent answer, and store all of it
    as one change. The computer's reply is part of the same transaction as the human action
    that hands it the turn, so a crash can never leave its turn half-done; a row left with
    the computer to act anyway (its evaluation failed) is resumed by
    :meth:`resume_computer_turns` at start-up and before the channel's next action.

    Its collaborators: the store, the roller, the clock, the workers, and the computer
    opponent it owns (:class:`~bot.core.opponent.ComputerOpponent`, which plays inside the
    session's turn). Reviews and club life are services of their own
    (:mod:`bot.services` builds all three).
    """

    def __init__(
        self,
        store: Storage,
        *,
        roller: Roller | None = None,
        settings: SessionSettings | None = None,
        clock: Callable[[], float] = time.time,
        computer: Callable[[str], Any] | None = None,
        workers: Workers | None = None,
        facts: FactBus | None = None,
    ) -> None:
        self.store = store
        # Every stored change's facts are published here once the channel's lock is free,
        # so a subscriber (tournaments, a live board) may act on other channels at once.
        self.facts = facts or FactBus()
        # Unless a roller is injected (tests and demos script their dice), every match commits
        # to its dice: a secret posted as its SHA-256 before the first roll, revealed at the end.
        self.fair_dice = roller is None
        self.roller = roller or SystemRoller()
        self.settings = settings or SessionSettings()
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self._play_texts: dict[tuple[int, int], list[str]] = {}  # (match, version) -> plays
        self._computer_factory = computer
        # Drawing and the computer's thinking run here: worker processes in the bot, the
        # same calls in threads for tests and offline play (with ``computer`` stand-ins).
        self.workers = workers or Workers.inline(computer=computer)
        self.computer = ComputerOpponent(
            self.workers,
            retry_after=lambda: self.settings.computer_retry,
            resume=self._retry_computer,
            stuck=self._tell_stuck,
        )

    @contextlib.asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's lock: one action at a time per channel.

        The asyncio lock queues this process's actions; the store's lock then keeps other
        processes (shards on one PostgreSQL) out for the whole action, computer reply included.
        A feature whose actions live in a channel (a chouette session) takes the same lock,
        so its actions and the channel's game never interleave.
        """
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        async with lock, self.store.channel_lock(channel_id):
            yield

    # --- reading -------------------------------------------------------------------------

    async def current(self, channel_id: int) -> MatchRow | None:
        """The live challenge or match in a channel (expired challenges count as none)."""
        row = await self._load(channel_id)
        if row is not None and expired(row, self.clock()):
            return None
        return row

    async def _load(self, channel_id: int) -> MatchRow | None:
        """The channel's live row; an unreadable one is quarantined and reported."""
        try:
            return await self.store.live_match(channel_id)
        except UnreadableMatchError as exc:
            await self._quarantine(exc)
            raise QuarantinedError(exc) from exc

    async def _quarantine(self, exc: UnreadableMatchError) -> None:
        log.error("quarantining %s", exc, exc_info=exc)
        await self.store.quarantine(exc.match_id, self.clock())

    async def latest(self, channel_id: int) -> MatchRow | None:
        """The live match, or else the last one played in the channel."""
        return await self.store.latest_match(channel_id)

    async def match(self, match_id: int) -> MatchRow | None:
        """A match by its number, live or not, as stored."""
        return await self.store.get_match(match_id)

    async def events(self, match_id: int) -> list[EventRecord]:
        """A match's event log, in order."""
        return await self.store.events(match_id)

    async def game_results(self, match_id: int) -> list[FinishedGame]:
        """A match's finished games, in order."""
        return await self.store.game_results(match_id)

    async def live_in(self, guild_id: int) -> list[MatchRow]:
        """A server's challenges and matches in progress."""
        return await self.store.live_matches_in(guild_id)

    async def legal_play_texts(self, channel_id: int, user_id: int) -> list[str]:
        """The legal plays for the player on roll, in canonical notation; else empty."""
        row = await self.current(channel_id)
        if row is None or row.game is None or row.status != Status.PLAYING:
            return []
        game = row.game
        if game.phase is not Phase.MOVE or game.resignation is not None:
            return []
        if row.player_index(user_id) != game.on_roll:
            return []
        # Autocomplete asks again at every keystroke: the answer holds for this version.
        key = (row.id, row.version)
        cached = self._play_texts.get(key)
        if cached is None:
            plays = game.legal_plays()
            cached = [str(play) for play in plays] if not plays.is_forced_pass else []
            if len(self._play_texts) >= PLAY_TEXTS_KEPT:
                self._play_texts.pop(next(iter(self._play_texts)))
            self._play_texts[key] = cached
        return list(cached)

    async def history(self, channel_id: int) -> tuple[MatchRow, list[EventRecord]]:
        row = await self.latest(channel_id)
        if row is None:
            raise NoGameError(Refusal.NO_HISTORY)
        return row, await self.store.events(row.id)

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        return await self.store.player_stats(guild_id, user_id)

    async def leaderboard(
        self, guild_id: int, *, min_rated_matches: int = 1, limit: int = 10
    ) -> list[PlayerStats]:
        return await self.store.leaderboard(
            guild_id, min_rated_matches=min_rated_matches, limit=limit
        )

    # --- challenges ----------------------------------------------------------------------

    async def challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger: Player,
        opponent: Player,
        options: MatchOptions | None = None,
        *,
        rated: bool = True,
        computer_level: str | None = None,
        auto_play: bool = False,
        venue: Venue = Venue.SERVER,
    ) -> Report:
        """Post a challenge; the channel must hold no live game or challenge.

        ``auto_play`` makes the bot play a roll's only legal play for the player.
        ``venue``: where on Discord (:class:`~bot.core.records.Venue`); outside a server
        that installed the bot a match belongs to no server and is never rated, and the
        bot's own DM has room for the computer alone (nobody else could see a challenge).
        """
        options = options or MatchOptions()
        if challenger.id == opponent.id:
            raise UserError(Refusal.SELF_CHALLENGE)
        if opponent.is_bot and computer_level is None:
            raise UserError(Refusal.BOT_OPPONENT)
        if venue is Venue.BOT_DM:
            raise UserError(Refusal.BOT_DM_CHALLENGE)
        async with self.channel_lock(channel_id):
            row = await self._create_challenge(
                guild_id,
                channel_id,
                challenger,
                opponent,
                options,
                rated,
                computer_level,
                auto_play,
                venue,
            )
        report = Report(
            Action.CHALLENGE,
            row,
            facts=[ActionTaken(row, Action.CHALLENGE)],
            actor=challenger,
            at=row.created_at,
        )
        await self.facts.publish(report.facts)
        return report

    async def _create_challenge(
        self,
        guild_id: int,
        channel_id: int,
        challenger: Player,
        opponent: Player,
        options: MatchOptions,
        rated: bool,
        computer_level: str | None,
        auto_play: bool,
        venue: Venue,
    ) -> MatchRow:
        """Store a challenge (the caller holds the channel's lock); outside a server that
        installed the bot, with no server and unrated (:class:`~bot.core.records.Venue`)."""
        now = self.clock()
        # An unreadable row is set aside by the load: the channel is free for this challenge.
        with contextlib.suppress(QuarantinedError):
            await self._expire_stale(channel_id, now)
        seal = None
        if self.fair_dice:
            secret = new_secret()
            seal = DiceSeal(secret.hex(), commitment(secret), None)
        return await self.store.create_challenge(
            dice=seal,
            guild_id=guild_id if venue is Venue.SERVER else 0,
            channel_id=channel_id,
            players=((challenger.id, challenger.name), (opponent.id, opponent.name)),
            options=options,
            rated=rated and venue.rated,
            venue=venue,
            now=now,
            expires_at=now + self.settings.challenge_timeout,
            computer_level=computer_level,
            auto_play=auto_play,
        )

    async def act(
        self,
        channel_id: int,
        user: Player,
        action: Action,
        ctx: ActionContext = NO_CONTEXT,
        **params: Any,
    ) -> Report:
        """Run one player's ``action`` in a channel: the one entry of every front end.

        What the action does to the turn comes from the action table
        (:data:`bot.core.actions.RULES`); ``params`` are its own (a move's ``play``, a
        resignation's ``kind``). A claim follows the server's claim rule and the time limit;
        a cancel (a moderator's, checked by the front end) ends the game with no result.
        """
        if action is Action.CLAIM:
            return await self._claim(channel_id, user, ctx)
        if action is Action.CANCEL:
            return await self._cancel(channel_id, user, ctx)
        if action not in actions.RULES:
            raise ValueError(f"{action} is not an action a player takes in a channel")
        if action is Action.ACCEPT:
            params.setdefault("public", ctx.public)
        return await self._act(
            channel_id,
            lambda turn: actions.apply(turn, action, user, **params),
            ctx,
            allow_challenge=action in actions.ON_CHALLENGE,
            actor=user,
        )

    # Thin names for the actions, for callers that script a game (tests, demos).

    async def accept(
        self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self.act(channel_id, user, Action.ACCEPT, ctx)

    async def decline(
        self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self.act(channel_id, user, Action.DECLINE, ctx)

    async def roll(self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT) -> Report:
        return await self.act(channel_id, user, Action.ROLL, ctx)

    async def move(
        self, channel_id: int, user: Player, text: str, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self.act(channel_id, user, Action.MOVE, ctx, play=text)

    async def double(
        self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self.act(channel_id, user, Action.DOUBLE, ctx)

    async def take(self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT) -> Report:
        return await self.act(channel_id, user, Action.TAKE, ctx)

    async def beaver(
        self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self.act(channel_id, user, Action.BEAVER, ctx)

    async def drop(self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT) -> Report:
        return await self.act(channel_id, user, Action.DROP, ctx)

    async def resign(
        self,
        channel_id: int,
        user: Player,
        kind: ResultKind = ResultKind.SINGLE,
        ctx: ActionContext = NO_CONTEXT,
    ) -> Report:
        return await self.act(channel_id, user, Action.RESIGN, ctx, kind=kind)

    async def answer_resignation(
        self, channel_id: int, user: Player, accept: bool, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        action = Action.RESIGN_ACCEPT if accept else Action.RESIGN_REJECT
        return await self.act(channel_id, user, action, ctx)

    async def claim(self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT) -> Report:
        return await self.act(channel_id, user, Action.CLAIM, ctx)

    async def cancel(
        self, channel_id: int, moderator: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self.act(channel_id, moderator, Action.CANCEL, ctx)

    async def _claim(self, channel_id: int, user: Player, ctx: ActionContext) -> Report:
        """Win by the opponent's time-out: the match as a forfeit, or the game, as the
        server's claim rule says (see :meth:`bot.core.turn.Turn.claim`)."""
        live = await self.current(channel_id)
        rule = (
            (await self.store.guild_settings(live.guild_id)).claim
            if live is not None
            else ClaimRule.MATCH
        )
        limit = self.settings.inactivity_timeout
        return await self._act(
            channel_id, lambda turn: turn.claim(user, limit, rule), ctx, actor=user
        )

    async def _cancel(self, channel_id: int, moderator: Player, ctx: ActionContext) -> Report:
        """A moderator ends the game or challenge in a channel with no result.

        A game whose saved state cannot be read is set aside the same way: cancelling it
        succeeds and says so, rather than failing like every other command would.
        """

        def act(turn: Turn) -> Action:
            turn.status = Status.CANCELLED
            if turn.game is not None:
                turn.log(Action.CANCEL, moderator.id, turn.row.player_index(moderator.id))
            return Action.CANCEL

        try:
            return await self._act(channel_id, act, ctx, allow_challenge=True, actor=moderator)
        except QuarantinedError as exc:
            shell = exc.unreadable.shell
            return Report(Action.CANCEL, shell, actor=moderator, at=self.clock(), unreadable=True)

    # --- the action runner ---------------------------------------------------------------

    async def _act(
        self,
        channel_id: int,
        act: Callable[[Turn], Action],
        ctx: ActionContext = NO_CONTEXT,
        *,
        allow_challenge: bool = False,
        actor: Player | None = None,
    ) -> Report:
        """Run one action under the channel's lock; a lost race is retried on fresh state.

        What was stored before the request was judged (the computer's open turn, finished
        first) is published whatever becomes of the request, once the lock is free.
        """
        for attempt in range(CONFLICT_RETRIES):
            earlier: list[Fact] = []
            try:
                async with self.channel_lock(channel_id):
                    report = await self._act_locked(
                        channel_id, act, ctx, allow_challenge, actor, earlier
                    )
            except ConflictError:
                await self.facts.publish(earlier)
                # Another process wrote this channel between our read and our write.
                # Nothing of ours was stored; judge the request again on the new state.
                if attempt == CONFLICT_RETRIES - 1:
                    raise
                log.info("channel %s: write conflict, retrying the action", channel_id)
                continue
            except Exception:
                await self.facts.publish(earlier)
                raise
            report.facts[:0] = earlier
            told = [*report.facts, PlayedElsewhere(report)] if ctx.elsewhere else report.facts
            await self.facts.publish(told)
            return report
        raise AssertionError("unreachable")

    async def _act_locked(
        self,
        channel_id: int,
        act: Callable[[Turn], Action],
        ctx: ActionContext,
        allow_challenge: bool,
        actor: Player | None = None,
        earlier: list[Fact] | None = None,
    ) -> Report:
        """``earlier``: where the facts of the computer's open turn, finished first, go."""
        now = self.clock()
        if earlier is None:
            earlier = []
        row = await self._expire_stale(channel_id, now)
        if self.computer.to_act(row):
            # A computer turn left open (see resume_computer_turns): finish it first (its
            # report goes out as a TurnResumed fact), then judge this request on the state
            # it leads to.
            assert row is not None
            resumed = await self._resume_row(row)
            if resumed is not None:
                earlier.extend([*resumed.facts, TurnResumed(resumed)])
            now = self.clock()
            row = await self._expire_stale(channel_id, now)
        if row is None or (ctx.match_id is not None and row.id != ctx.match_id):
            if ctx.match_id is not None:
                raise StaleButtonError(Refusal.GAME_OVER_BUTTON)
            raise NoGameError(Refusal.NO_GAME)
        check_button(row, ctx)
        if row.status == Status.CHALLENGE and not allow_challenge:
            raise UserError(Refusal.STARTS_ON_ACCEPT, player=Name(row.player_names[1]))
        turn = Turn(row, now, self.roller)
        try:
            action = act(turn)
        except EngineError as exc:
            raise UserError.of_engine(exc) from exc
        if row.computer_level is not None:
            await self.computer.play(turn)
        return await self._commit(turn, action, actor)

    async def _commit(self, turn: Turn, action: Action, actor: Player | None = None) -> Report:
        """Store everything the turn did as one change; the report of it."""
        row = turn.row
        if (
            turn.game is not None
            and turn.status == Status.PLAYING
            and (not turn.boards or turn.boards[-1] is not turn.game)
        ):
            turn.boards.append(turn.game)
        seal = row.dice
        reveal = None
        if seal is not None and row.status == Status.PLAYING and turn.status != Status.PLAYING:
            # The match is over (finished, claimed or cancelled): reveal its dice secret.
            reveal = replace(seal, public=turn.public or seal.public)
        stored = await self.store.apply(
            Change(
                match_id=row.id,
                expected_version=row.version,
                status=turn.status,
                game=turn.game,
                now=turn.now,
                events=turn.events,
                finished_games=turn.finished,
                outcome=turn.outcome,
                dice_public=turn.public,
                dice_drawn=turn.dice_drawn,
            )
        )
        return Report(
            action,
            stored,
            turn.boards,
            turn.steps,
            finished=turn.last_result,
            match_over=turn.outcome is not None,
            reveal=reveal,
            facts=facts_of(
                row, stored, action, turn.events, turn.finished, turn.outcome, turn.steps
            ),
            before=row,
            actor=actor,
            at=turn.now,
        )

    # --- the computer opponent ----------------------------------------------------------

    async def play_computer(
        self,
        guild_id: int,
        channel_id: int,
        human: Player,
        computer: Player,
        options: MatchOptions | None = None,
        *,
        level: str | None = None,
        ctx: ActionContext = NO_CONTEXT,
        start: Game | None = None,
        venue: Venue = Venue.SERVER,
    ) -> Report:
        """Start a game or match against the computer; it accepts at once.

        The human is player 0 and the computer player 1. Games against the computer are
        never rated and stay out of the human leaderboard. The acceptance, the opening roll
        and the computer's first turn (when it wins the opening) are stored together.

        ``start``: play on from this state instead of the opening (practice from an
        analysed position): its options are the match's, and the human (player 0) must be
        the one to act in it.
        """
        level = level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise UserError(Refusal.PICK_LEVEL, levels=tuple(LEVELS))
        if self._computer_factory is None and not computer_available():
            raise UserError(Refusal.COMPUTER_UNAVAILABLE)
        if start is not None:
            if start.actor != 0 or start.phase is Phase.OPENING:
                raise ValueError(f"the human (player 0) must act first in {start!r}")
            options = start.options
        options = options or MatchOptions()
        async with self.channel_lock(channel_id):
            await self._create_challenge(
                guild_id, channel_id, human, computer, options, False, level, False, venue
            )
            report = await self._act_locked(
                channel_id,
                lambda turn: actions.accept(turn, computer, ctx.public, start),
                ctx,
                True,
                human,
            )
        await self.facts.publish(report.facts)
        return report

    async def _expire_stale(self, channel_id: int, now: float) -> MatchRow | None:
        """Load the live row, expiring a challenge whose time has run out."""
        row = await self._load(channel_id)
        if row is None or not expired(row, now):
            return row
        with contextlib.suppress(ConflictError):
            await self.store.apply(
                Change(row.id, row.version, Status.EXPIRED, row.game, now, touch=False)
            )
        return None

    # --- the computer's open turns ------------------------------------------------------

    async def _resume_row(self, row: MatchRow) -> Report | None:
        """Let the computer finish its open turn in ``row`` (the channel's lock is held)."""
        turn = Turn(row, self.clock(), self.roller)
        await self.computer.play(turn)
        if not turn.events:
            return None  # it still cannot act; the log says why
        return await self._commit(turn, Action.COMPUTER)

    async def _retry_computer(self, channel_id: int) -> None:
        """The computer opponent's retry timer: finish the channel's open computer turn
        under its lock, and publish it (a front end posts a :class:`TurnResumed`)."""
        async with self.channel_lock(channel_id):
            row = await self._load(channel_id)
            report = await self._resume_row(row) if self.computer.to_act(row) else None
        if report is not None:
            await self.facts.publish([*report.facts, TurnResumed(report)])

    async def _tell_stuck(self, row: MatchRow) -> None:
        await self.facts.publish([ComputerStuck(row)])

    async def resume_computer_turns(self) -> list[Report]:
        """Finish every computer turn left open (a crash before this version, a failure).

        Called at start-up; each finished turn is published (a :class:`TurnResumed` for a
        front end to post) and its report returned. A channel that fails is logged and left
        for its next action.
        """
        reports = []
        for row in await self.store.live_matches():
            if not self.computer.to_act(row):
                continue
            try:
                async with self.channel_lock(row.channel_id):
                    fresh = await self._load(row.channel_id)
                    report = None
                    # One left to a moderator is not tried again on a reconnect's ready
                    # (a new start, with nothing remembered, tries it once more).
                    if self.computer.to_act(fresh) and not self.computer.given_up(row.id):
                        report = await self._resume_row(fresh)
            except Exception:
                log.exception("channel %s: could not resume the computer's turn", row.channel_id)
                continue
            if report is not None:
                await self.facts.publish([*report.facts, TurnResumed(report)])
                reports.append(report)
        return reports


def expired(row: MatchRow, now: float) -> bool:
    """Whether ``row`` is a challenge whose time has run out."""
    return row.status == Status.CHALLENGE and row.expires_at is not None and now >= row.expires_at


__all__ = [
    "COMPUTER_ATTEMPTS",
    "ActionContext",
    "Player",
    "QuarantinedError",
    "Report",
    "Review",
    "SessionService",
    "SessionSettings",
    "expired",
]
