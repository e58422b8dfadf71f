"""Per-channel game sessions: lock, load, check the actor, act, save, report.

This layer knows nothing of Discord: it takes plain ids and display names, runs the action
through the rules engine under the channel's lock, stores the new state with its events in
one transaction (see :mod:`bot.store`), and returns a :class:`Report` that any front end
(the Discord cog, the terminal) turns into messages and board images.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot.computer import DEFAULT_LEVEL, LEVELS, UNAVAILABLE_MESSAGE, computer_available
from bot.dice import Roller, SystemRoller
from bot.dicestats import DiceReport, dice_report, rolls_from_events
from bot.engine import (
    EndReason,
    EngineError,
    Game,
    GameResult,
    MatchOptions,
    Phase,
    ResultKind,
)
from bot.errors import (
    ConflictError,
    NoGameError,
    NotYourTurnError,
    StaleButtonError,
    UnreadableMatchError,
    UserError,
)
from bot.fairdice import FairRoller, VerifyResult, commitment, new_secret, verify_events
from bot.records import (
    Action,
    Change,
    DiceSeal,
    EventRecord,
    FinishedGame,
    GuildSettings,
    MatchOutcome,
    MatchRow,
    NewEvent,
    PlayerStats,
    Status,
    UserSettings,
)
from bot.store import Store
from bot.workers import Workers

log = logging.getLogger(__name__)

NOTIFY_CHOICES = ("on", "off", "idle")
BOARD_SIDES = ("right", "left")
THEME_CHOICES = ("classic", "dark")

CONFLICT_RETRIES = 3  # another process (or a racing click) wrote first: reload and retry

RESULT_WORDS = {
    ResultKind.SINGLE: "a single game",
    ResultKind.GAMMON: "a gammon",
    ResultKind.BACKGAMMON: "a backgammon",
}


@dataclass(frozen=True, slots=True)
class Player:
    """Who is acting, as the front end knows them."""

    id: int
    name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class SessionSettings:
    challenge_timeout: float = 15 * 60.0
    inactivity_timeout: float = 60 * 60.0
    hints_in_casual: bool = True  # rated games never allow hints
    computer_retry: float = 5.0  # seconds before a failed computer turn is tried again


@dataclass(frozen=True, slots=True)
class ActionContext:
    """What a front end tells the session about one request, beside who and what.

    ``match_id``: the game the request names (a button's match); the action is refused
    unless it is still the channel's live game, checked under the channel's lock.
    ``acknowledge``: awaited once the request is known to be valid and before anything is
    written or the computer thinks, so the front end can tell Discord "working on it"
    (defer) before the slow part, and never after a write it could then misreport.
    ``public``: mixed into the match's committed dice when this request starts the match.
    """

    match_id: int | None = None
    acknowledge: Callable[[], Awaitable[None]] | None = None
    public: str | None = None  # a value fixed only now (the interaction's id), for the dice


NO_CONTEXT = ActionContext()


class QuarantinedError(UserError):
    """The channel's live game could not be read and was set aside; the channel is free."""

    def __init__(self, unreadable: UnreadableMatchError) -> None:
        super().__init__(
            f"Match #{unreadable.match_id} in this channel could not be read, so it has been "
            "set aside with no result and the channel is free. Start a new game with "
            "/backgammon challenge."
        )
        self.unreadable = unreadable


@dataclass(frozen=True, slots=True)
class Review:
    """What the computer makes of a match: each human's decisions, and everyone's luck."""

    match: MatchRow
    analyses: dict[int, Any]  # player -> bot.computer.PlayerAnalysis
    luck: Any  # bot.luck.MatchLuck


@dataclass(slots=True)
class Report:
    """What an action did, for the front end to show.

    ``lines`` tell the story in order; ``boards`` are the states worth drawing (the end of a
    finished game, then the current state); ``game`` is the current state.
    """

    action: Action
    match: MatchRow
    lines: list[str] = field(default_factory=list)
    boards: list[Game] = field(default_factory=list)
    finished: GameResult | None = None
    match_over: bool = False

    @property
    def game(self) -> Game | None:
        return self.match.game

    @property
    def text(self) -> str:
        return " ".join(self.lines)

    @property
    def next_actor(self) -> int | None:
        """The player index who must act next, if a game is running."""
        if self.match.status != Status.PLAYING or self.match.game is None:
            return None
        return self.match.game.actor


def dice_text(dice: tuple[int, int] | None) -> str:
    return f"{dice[0]}-{dice[1]}" if dice else ""


class _Turn:
    """The working state of one action: the game as it evolves, and what to write."""

    def __init__(
        self,
        row: MatchRow,
        now: float,
        display: Callable[[str], str] = str,
        roller: Roller | None = None,
    ) -> None:
        self.row = row
        self.display = display
        self.now = now
        self.public: str | None = None  # the dice's public value, fixed by this action
        self._default_roller = roller or SystemRoller()
        self._fair: FairRoller | None = None
        self.game: Game | None = row.game
        self.events: list[NewEvent] = []
        self.lines: list[str] = []
        self.boards: list[Game] = []
        self.finished: list[FinishedGame] = []
        self.outcome: MatchOutcome | None = None
        self.status = row.status
        self.last_result: GameResult | None = None

    def name(self, player: int) -> str:
        """A player's name as the front end shows it (escaped for Discord, say)."""
        return self.display(self.row.player_names[player])

    def die(self) -> int:
        """The next die: from the match's committed secret, or the service's roller.

        A committed match draws from its secret and public value, counting on from the
        dice already stored, so a retried or resumed action rolls exactly the same dice.
        """
        seal = self.row.dice
        if seal is None:
            return self._default_roller.die()
        if self._fair is None:
            public = self.public or seal.public
            if public is None:
                raise AssertionError(f"match {self.row.id}: dice drawn before the match began")
            self._fair = FairRoller(bytes.fromhex(seal.secret), public, drawn=seal.drawn)
        return self._fair.die()

    @property
    def dice_drawn(self) -> int | None:
        return self._fair.drawn if self._fair is not None else None

    def log(
        self,
        action: Action,
        actor_id: int | None,
        player: int | None,
        notation: str | None = None,
        dice: tuple[int, int] | None = None,
    ) -> None:
        assert self.game is not None
        self.events.append(
            NewEvent(
                game_number=self.game.game_number,
                actor_id=actor_id,
                player=player,
                action=action,
                position_id=self.game.position_id(),
                gnu_match_id=self.game.match_id(),
                notation=notation,
                dice=dice,
            )
        )


class SessionService:
    """Runs every game action for every channel. One instance serves the whole bot.

    Each action runs under its channel's lock: load the live row, check it is the game the
    request names, apply the rules, let the computer opponent answer, and store all of it
    as one change. The computer's reply is part of the same transaction as the human action
    that hands it the turn, so a crash can never leave its turn half-done; a row left with
    the computer to act anyway (its evaluation failed) is resumed by
    :meth:`resume_computer_turns` at start-up and before the channel's next action.
    """

    def __init__(
        self,
        store: Store,
        *,
        roller: Roller | None = None,
        settings: SessionSettings | None = None,
        clock: Callable[[], float] = time.time,
        computer: Callable[[str], Any] | None = None,
        display: Callable[[str], str] = str,
        workers: Workers | None = None,
    ) -> None:
        self.store = store
        # Without an injected roller (tests, demos) every match commits to its dice: a
        # secret posted as its SHA-256 before the first roll and revealed at the end.
        self.fair_dice = roller is None
        self.roller = roller or SystemRoller()
        self.settings = settings or SessionSettings()
        self.clock = clock
        self.display = display
        # Called with the report of work nobody asked for in this request (the computer's
        # resumed turn), so the front end can post it to the channel.
        self.on_background_report: Callable[[Report], Awaitable[None]] | None = None
        self._locks: dict[int, asyncio.Lock] = {}
        self._retries: dict[int, asyncio.Task[None]] = {}
        self._computer_factory = computer
        # Drawing and the computer's thinking run here: worker processes in the bot, the
        # same calls in threads for tests and offline play (with ``computer`` stand-ins).
        self.workers = workers or Workers.inline(computer=computer)

    @contextlib.asynccontextmanager
    async def _lock(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's lock (one action at a time per channel, in this process)."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        async with lock:
            yield

    # --- reading -------------------------------------------------------------------------

    async def current(self, channel_id: int) -> MatchRow | None:
        """The live challenge or match in a channel (expired challenges count as none)."""
        row = await self._load(channel_id)
        if row is not None and self._expired(row, self.clock()):
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
        plays = game.legal_plays()
        return [str(play) for play in plays] if not plays.is_forced_pass else []

    async def history(self, channel_id: int) -> tuple[MatchRow, list[EventRecord]]:
        row = await self.latest(channel_id)
        if row is None:
            raise NoGameError("No game has been played in this channel yet.")
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
    ) -> Report:
        """Post a challenge; the channel must hold no live game or challenge.

        ``auto_play`` makes the bot play a roll's only legal play for the player.
        """
        options = options or MatchOptions()
        if challenger.id == opponent.id:
            raise UserError("You can't challenge yourself. Pick another player.")
        if opponent.is_bot and computer_level is None:
            raise UserError("Bots can't play backgammon here. Challenge a person instead.")
        async with self._lock(channel_id):
            row = await self._create_challenge(
                guild_id,
                channel_id,
                challenger,
                opponent,
                options,
                rated,
                computer_level,
                auto_play,
            )
        what = f"a {options.length}-point match" if options.length else "a money game"
        extras = []
        if not options.cube:
            extras.append("no cube")
        extras.append("rated" if rated else "casual")
        minutes = max(1, round(self.settings.challenge_timeout / 60))
        challenger_name, opponent_name = self.display(challenger.name), self.display(opponent.name)
        lines = [
            f"{challenger_name} challenges {opponent_name} to {what} ({', '.join(extras)}).",
            f"{opponent_name}: accept or decline within {minutes} minutes.",
        ]
        if row.dice is not None:
            lines.append(_commitment_line(row.dice))
        return Report(Action.CHALLENGE, row, lines)

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
    ) -> MatchRow:
        """Store a challenge (the caller holds the channel's lock)."""
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
            guild_id=guild_id,
            channel_id=channel_id,
            players=((challenger.id, challenger.name), (opponent.id, opponent.name)),
            options=options,
            rated=rated,
            now=now,
            expires_at=now + self.settings.challenge_timeout,
            computer_level=computer_level,
            auto_play=auto_play,
        )

    async def accept(
        self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        """The challenged player accepts: the bot rolls the opening and the game starts."""
        return await self._act(
            channel_id,
            lambda turn: self._do_accept(turn, user, ctx.public),
            ctx,
            allow_challenge=True,
        )

    def _do_accept(self, turn: _Turn, user: Player, public: str | None = None) -> Action:
        row = turn.row
        self._require_challenge(row)
        if user.id != row.player_ids[1]:
            if user.id == row.player_ids[0]:
                raise NotYourTurnError(f"Waiting for {turn.name(1)} to accept your challenge.")
            raise NotYourTurnError(f"This challenge is for {turn.name(1)}.")
        turn.status = Status.PLAYING
        turn.game = Game.new(row.options)
        turn.lines.append(f"{turn.name(1)} accepts.")
        if row.dice is not None:
            # Fixed only now, after the commitment was posted: nobody could choose the
            # secret to suit it. Without one from the front end, a fresh random value.
            turn.public = public or secrets.token_hex(8)
            turn.lines.append(_commitment_line(row.dice, turn.public))
        turn.log(Action.START, user.id, 1)
        self._opening(turn)
        return Action.ACCEPT

    async def decline(
        self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        """The challenged player declines, or the challenger withdraws."""

        def act(turn: _Turn) -> Action:
            row = turn.row
            self._require_challenge(row)
            if user.id == row.player_ids[1]:
                turn.status = Status.DECLINED
                turn.lines.append(f"{turn.name(1)} declines the challenge.")
                return Action.DECLINE
            if user.id == row.player_ids[0]:
                turn.status = Status.WITHDRAWN
                turn.lines.append(f"{turn.name(0)} withdraws the challenge.")
                return Action.WITHDRAW
            raise NotYourTurnError(f"This challenge is for {turn.name(1)}.")

        return await self._act(channel_id, act, ctx, allow_challenge=True)

    # --- game actions --------------------------------------------------------------------

    async def roll(self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT) -> Report:
        return await self._act(channel_id, lambda turn: self._do_roll(turn, user), ctx)

    def _do_roll(self, turn: _Turn, user: Player) -> Action:
        me, game = self._my_turn(turn, user, Action.ROLL)
        # A dry run with dummy dice raises the engine's explanation when rolling is not
        # allowed now, before a real die is taken from the roller.
        game.roll((1, 1))
        dice = (turn.die(), turn.die())
        turn.game = game.roll(dice)
        turn.log(Action.ROLL, user.id, me, dice=dice)
        turn.lines.append(f"{turn.name(me)} rolls {dice_text(dice)}.")
        self._after_roll(turn)
        return Action.ROLL

    async def move(
        self, channel_id: int, user: Player, text: str, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self._act(channel_id, lambda turn: self._do_move(turn, user, text), ctx)

    def _do_move(self, turn: _Turn, user: Player, text: str) -> Action:
        me, game = self._my_turn(turn, user, Action.MOVE)
        dice = game.dice
        turn.game = game.move(text)
        play = turn.game.last_play
        assert play is not None and dice is not None
        turn.log(Action.MOVE, user.id, me, notation=str(play), dice=dice)
        rolled = f"{turn.name(me)} rolls {dice_text(dice)}."
        if turn.lines and turn.lines[-1] == rolled:
            turn.lines.pop()  # the roll and the play in one line when both happen here
        turn.lines.append(f"{turn.name(me)} rolls {dice_text(dice)} and plays {play}.")
        self._after_play(turn)
        return Action.MOVE

    async def double(
        self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self._act(channel_id, lambda turn: self._do_double(turn, user), ctx)

    def _do_double(self, turn: _Turn, user: Player) -> Action:
        me, game = self._my_turn(turn, user, Action.DOUBLE)
        turn.game = game.double()
        turn.log(Action.DOUBLE, user.id, me)
        turn.lines.append(
            f"{turn.name(me)} doubles to {game.cube * 2}. {turn.name(1 - me)}: take or drop."
        )
        return Action.DOUBLE

    async def take(self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT) -> Report:
        return await self._act(channel_id, lambda turn: self._do_take(turn, user), ctx)

    def _do_take(self, turn: _Turn, user: Player) -> Action:
        me, game = self._my_turn(turn, user, Action.TAKE)
        turn.game = game.take()
        turn.log(Action.TAKE, user.id, me)
        # After a beaver the doubler is the one taking, and the beaverer keeps the cube.
        taken = turn.game
        owner = taken.cube_owner if taken.cube_owner is not None else me
        turn.lines.append(
            f"{turn.name(me)} takes: the cube is at {taken.cube} and {turn.name(owner)} "
            f"owns it. {turn.name(taken.on_roll)} to roll."
        )
        return Action.TAKE

    async def beaver(
        self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self._act(channel_id, lambda turn: self._do_beaver(turn, user), ctx)

    def _do_beaver(self, turn: _Turn, user: Player) -> Action:
        me, game = self._my_turn(turn, user, Action.TAKE)
        turn.game = game.beaver()
        turn.log(Action.BEAVER, user.id, me)
        # The beaver is a take and a redouble: the doubler must now answer it.
        cube = turn.game.cube
        turn.lines.append(
            f"{turn.name(me)} beavers: the cube is at {cube} and {turn.name(me)} owns it. "
            f"{turn.name(1 - me)}: take the beaver (cube to {cube * 2}) or drop it "
            f"({_points(cube)})."
        )
        return Action.BEAVER

    async def drop(self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT) -> Report:
        return await self._act(channel_id, lambda turn: self._do_drop(turn, user), ctx)

    def _do_drop(self, turn: _Turn, user: Player) -> Action:
        me, game = self._my_turn(turn, user, Action.DROP)
        turn.game = game.drop()
        turn.log(Action.DROP, user.id, me)
        turn.lines.append(f"{turn.name(me)} drops.")
        self._after_game_end(turn)
        return Action.DROP

    async def resign(
        self,
        channel_id: int,
        user: Player,
        kind: ResultKind = ResultKind.SINGLE,
        ctx: ActionContext = NO_CONTEXT,
    ) -> Report:
        """Offer to resign; the opponent accepts or rejects."""

        def act(turn: _Turn) -> Action:
            me, game = self._participant(turn, user)
            if game.phase is Phase.DOUBLED:
                raise UserError("Answer the double first: dropping it ends the game.")
            turn.game = game.offer_resignation(me, ResultKind(kind))
            turn.log(Action.RESIGN, user.id, me, notation=ResultKind(kind).name.lower())
            # What accepting would score, Jacoby included (the engine works it out).
            accepted = turn.game.accept_resignation().result
            assert accepted is not None
            points = accepted.points
            turn.lines.append(
                f"{turn.name(me)} offers to resign {RESULT_WORDS[ResultKind(kind)]} "
                f"({_points(points)}). {turn.name(1 - me)}: accept or reject."
            )
            return Action.RESIGN

        return await self._act(channel_id, act, ctx)

    async def answer_resignation(
        self, channel_id: int, user: Player, accept: bool, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        return await self._act(
            channel_id, lambda turn: self._do_answer_resignation(turn, user, accept), ctx
        )

    def _do_answer_resignation(self, turn: _Turn, user: Player, accept: bool) -> Action:
        me, game = self._participant(turn, user)
        offer = game.resignation
        if offer is None:
            raise UserError("There is no resignation offer to answer.")
        if offer.player == me:
            raise NotYourTurnError(
                f"{turn.name(1 - me)} must answer your offer. You can play on meanwhile "
                "once they reject it."
            )
        if accept:
            turn.game = game.accept_resignation()
            turn.log(Action.RESIGN_ACCEPT, user.id, me)
            turn.lines.append(f"{turn.name(me)} accepts the resignation.")
            self._after_game_end(turn)
            return Action.RESIGN_ACCEPT
        turn.game = game.reject_resignation()
        turn.log(Action.RESIGN_REJECT, user.id, me)
        turn.lines.append(f"{turn.name(me)} rejects the resignation. Play on.")
        return Action.RESIGN_REJECT

    async def claim(self, channel_id: int, user: Player, ctx: ActionContext = NO_CONTEXT) -> Report:
        """Win the match when the opponent has been idle past the inactivity limit."""

        def act(turn: _Turn) -> Action:
            me, game = self._participant(turn, user)
            if game.actor == me:
                raise UserError("It's your turn: you can't claim a win while others wait on you.")
            idle = turn.now - turn.row.last_action_at
            limit = self.settings.inactivity_timeout
            if idle < limit:
                left = max(1, round((limit - idle) / 60))
                raise UserError(
                    f"{turn.name(1 - me)} still has {left} minute{'s' if left != 1 else ''} "
                    "to act before you can claim."
                )
            turn.game = game.forfeit(me)
            turn.log(Action.CLAIM, user.id, me)
            turn.lines.append(
                f"{turn.name(1 - me)} has not acted for {round(idle / 60)} minutes: "
                f"{turn.name(me)} claims the win."
            )
            self._after_game_end(turn)
            return Action.CLAIM

        return await self._act(channel_id, act, ctx)

    async def cancel(
        self, channel_id: int, moderator: Player, ctx: ActionContext = NO_CONTEXT
    ) -> Report:
        """A moderator ends the game or challenge in a channel with no result.

        A game whose saved state cannot be read is set aside the same way: cancelling it
        succeeds and says so, rather than failing like every other command would.
        """

        def act(turn: _Turn) -> Action:
            turn.status = Status.CANCELLED
            if turn.game is not None:
                turn.log(Action.CANCEL, moderator.id, turn.row.player_index(moderator.id))
            turn.lines.append(
                f"{self.display(moderator.name)} cancelled the game. No result is recorded."
            )
            return Action.CANCEL

        try:
            return await self._act(channel_id, act, ctx, allow_challenge=True)
        except QuarantinedError as exc:
            shell = exc.unreadable.shell
            return Report(
                Action.CANCEL,
                shell,
                [
                    f"{self.display(moderator.name)} cancelled match #{shell.id}: its saved "
                    "state could not be read. No result is recorded; the channel is free."
                ],
            )

    # --- the action runner ---------------------------------------------------------------

    async def _act(
        self,
        channel_id: int,
        act: Callable[[_Turn], Action],
        ctx: ActionContext = NO_CONTEXT,
        *,
        allow_challenge: bool = False,
    ) -> Report:
        """Run one action under the channel's lock; a lost race is retried on fresh state."""
        for attempt in range(CONFLICT_RETRIES):
            async with self._lock(channel_id):
                try:
                    return await self._act_locked(channel_id, act, ctx, allow_challenge)
                except ConflictError:
                    # Another process wrote this channel between our read and our write.
                    # Nothing of ours was stored; judge the request again on the new state.
                    if attempt == CONFLICT_RETRIES - 1:
                        raise
                    log.info("channel %s: write conflict, retrying the action", channel_id)
        raise AssertionError("unreachable")

    async def _act_locked(
        self,
        channel_id: int,
        act: Callable[[_Turn], Action],
        ctx: ActionContext,
        allow_challenge: bool,
    ) -> Report:
        now = self.clock()
        row = await self._expire_stale(channel_id, now)
        if self._computer_to_act(row):
            # A computer turn left open (see resume_computer_turns): finish and post it
            # first, then judge this request on the state it leads to.
            assert row is not None
            resumed = await self._resume_row(row)
            if resumed is not None and self.on_background_report is not None:
                await self.on_background_report(resumed)
            now = self.clock()
            row = await self._expire_stale(channel_id, now)
        if row is None or (ctx.match_id is not None and row.id != ctx.match_id):
            if ctx.match_id is not None:
                raise StaleButtonError("That button belongs to a game that is over.")
            raise NoGameError(
                "There is no game in this channel. Start one with /backgammon challenge."
            )
        if row.status == Status.CHALLENGE and not allow_challenge:
            raise UserError(
                f"The game starts when {self.display(row.player_names[1])} accepts the challenge."
            )
        turn = _Turn(row, now, self.display, self.roller)
        try:
            action = act(turn)
        except EngineError as exc:
            raise UserError(str(exc)) from exc
        if ctx.acknowledge is not None:
            await ctx.acknowledge()
        if row.computer_level is not None:
            await self._computer_plays(turn)
        return await self._commit(turn, action)

    async def _commit(self, turn: _Turn, action: Action) -> Report:
        """Store everything the turn did as one change; the report of it."""
        row = turn.row
        if (
            turn.game is not None
            and turn.status == Status.PLAYING
            and (not turn.boards or turn.boards[-1] is not turn.game)
        ):
            turn.boards.append(turn.game)
        seal = row.dice
        if seal is not None and row.status == Status.PLAYING and turn.status != Status.PLAYING:
            # The match is over (finished, claimed or cancelled): reveal its dice secret.
            turn.lines.append(_reveal_line(seal, turn.public or seal.public))
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
            turn.lines,
            turn.boards,
            finished=turn.last_result,
            match_over=turn.outcome is not None,
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
    ) -> Report:
        """Start a game or match against the computer; it accepts at once.

        The human is player 0 and the computer player 1. Games against the computer are
        never rated and stay out of the human leaderboard. The acceptance, the opening roll
        and the computer's first turn (when it wins the opening) are stored together.
        """
        level = level or DEFAULT_LEVEL
        if level not in LEVELS:
            raise UserError(f"Pick a level: {', '.join(LEVELS)}.")
        if self._computer_factory is None and not computer_available():
            raise UserError(UNAVAILABLE_MESSAGE)
        options = options or MatchOptions()
        async with self._lock(channel_id):
            await self._create_challenge(
                guild_id, channel_id, human, computer, options, False, level, False
            )
            report = await self._act_locked(
                channel_id, lambda turn: self._do_accept(turn, computer, ctx.public), ctx, True
            )
        what = f"a {options.length}-point match" if options.length else "a game"
        report.lines.insert(
            0,
            f"{self.display(human.name)} plays {what} against {self.display(computer.name)} "
            f"({level}).",
        )
        return report

    async def _computer_plays(self, turn: _Turn) -> None:
        """Let the computer act while the game waits on it, inside the caller's turn.

        Evaluations run in a worker thread; the channel stays locked meanwhile. If an
        evaluation fails, what was decided so far is still stored and the computer's turn
        is left for :meth:`resume_computer_turns` to finish.
        """
        row = turn.row
        assert row.computer_level is not None
        me = Player(row.player_ids[1], row.player_names[1], is_bot=True)
        for _ in range(100):  # a turn is a handful of actions; this only guards a bug
            game = turn.game
            if turn.status != Status.PLAYING or game is None or game.actor != 1:
                return
            try:
                level = row.computer_level
                think = self.workers.computer
                if game.resignation is not None:
                    accept = await think(level, "accepts_resignation", game)
                    self._do_answer_resignation(turn, me, accept)
                elif game.phase is Phase.ROLL:
                    doubling = await think(level, "should_double", game)
                    (self._do_double if doubling else self._do_roll)(turn, me)
                elif game.phase is Phase.MOVE:
                    play = await think(level, "choose_play", game)
                    self._do_move(turn, me, str(play))
                elif game.phase is Phase.DOUBLED:
                    answer = str(await think(level, "cube_response", game))
                    step = {
                        "beaver": self._do_beaver,
                        "take": self._do_take,
                    }.get(  # CubeDecision values
                        answer, self._do_drop
                    )
                    step(turn, me)
                else:
                    return
            except Exception:
                log.exception("match %s: the computer could not act; will resume later", row.id)
                self._retry_later(row.channel_id)
                return

    @staticmethod
    def _computer_to_act(row: MatchRow | None) -> bool:
        return (
            row is not None
            and row.computer_level is not None
            and row.status == Status.PLAYING
            and row.game is not None
            and row.game.actor == 1
        )

    def _retry_later(self, channel_id: int) -> None:
        """Try a failed computer turn again in a few seconds, with nobody having to type."""
        if channel_id in self._retries:
            return

        async def retry() -> None:
            await asyncio.sleep(self.settings.computer_retry)
            del self._retries[channel_id]
            try:
                async with self._lock(channel_id):
                    row = await self._load(channel_id)
                    report = await self._resume_row(row) if self._computer_to_act(row) else None
                if report is not None and self.on_background_report is not None:
                    await self.on_background_report(report)
            except Exception:
                log.exception("channel %s: retrying the computer's turn failed", channel_id)

        self._retries[channel_id] = asyncio.get_running_loop().create_task(retry())

    async def _resume_row(self, row: MatchRow) -> Report | None:
        """Let the computer finish its open turn in ``row`` (the channel's lock is held)."""
        turn = _Turn(row, self.clock(), self.display, self.roller)
        await self._computer_plays(turn)
        if not turn.events:
            return None  # it still cannot act; the log says why
        return await self._commit(turn, Action.COMPUTER)

    async def resume_computer_turns(self) -> list[Report]:
        """Finish every computer turn left open (a crash before this version, a failure).

        Called at start-up; each finished turn's report is returned for the front end to
        post. A channel that fails is logged and left for its next action.
        """
        reports = []
        for row in await self.store.live_matches():
            if not self._computer_to_act(row):
                continue
            try:
                async with self._lock(row.channel_id):
                    fresh = await self._load(row.channel_id)
                    report = await self._resume_row(fresh) if self._computer_to_act(fresh) else None
            except Exception:
                log.exception("channel %s: could not resume the computer's turn", row.channel_id)
                continue
            if report is not None:
                reports.append(report)
        return reports

    async def hint(self, channel_id: int, user: Player) -> tuple[MatchRow, Any]:
        """The computer's advice for the player who must act: best plays or the cube."""
        row = await self.current(channel_id)
        if row is None or row.game is None or row.status != Status.PLAYING:
            raise NoGameError("There is no game in this channel.")
        me = row.player_index(user.id)
        if me is None:
            raise NotYourTurnError("Hints are for the players of this game.")
        if row.rated:
            raise UserError("Hints are off in rated games.")
        if row.computer_level is None and not self.settings.hints_in_casual:
            raise UserError("This server has turned hints off.")
        game = row.game
        if game.actor != me or game.resignation is not None:
            raise UserError("Hints are for your own turn.")
        advice = await self.workers.computer(DEFAULT_LEVEL, "hints", game, 3)
        return row, advice

    async def analysis(self, channel_id: int) -> Review:
        """Error rates, blunders, biggest mistakes and luck of the humans in the last match."""
        row = await self.latest(channel_id)
        if row is None or row.game is None:
            raise NoGameError("No game has been played in this channel yet.")
        return await self.review(row)

    async def review(self, row: MatchRow, game_number: int | None = None) -> Review:
        """Skill and luck of a match (or of one of its games), from its event log.

        Replaying the log and every evaluation run in a worker, off the event loop.
        """
        events = await self.store.events(row.id)
        humans = tuple(i for i in (0, 1) if not (row.computer_level and i == 1))
        analyses, luck = await self.workers.review_log(
            row.options, events, level=DEFAULT_LEVEL, players=humans, game_number=game_number
        )
        return Review(row, analyses, luck)

    # --- club life: rematches, threads, settings, reminders, match files ---------------

    async def rematch(
        self,
        guild_id: int,
        channel_id: int,
        user: Player,
        match_id: int,
        computer: Player | None = None,
        ctx: ActionContext = NO_CONTEXT,
    ) -> Report:
        """Either player of a finished match asks for another with the same options.

        Between two people it is a challenge the other accepts; against the computer it
        starts at once. Refused politely while the channel holds another game.
        """
        row = await self.store.get_match(match_id)
        if row is None or row.guild_id != guild_id or row.status != Status.FINISHED:
            raise UserError("That rematch button belongs to a match that is not over.")
        me = row.player_index(user.id)
        if me is None:
            raise NotYourTurnError(
                f"Only {self.display(row.player_names[0])} and "
                f"{self.display(row.player_names[1])} can ask for a rematch."
            )
        if row.computer_level is not None:
            if computer is None:
                raise UserError("The computer opponent is not available right now.")
            return await self.play_computer(
                guild_id,
                channel_id,
                user,
                computer,
                row.options,
                level=row.computer_level,
                ctx=ctx,
            )
        other = Player(row.player_ids[1 - me], row.player_names[1 - me])
        return await self.challenge(
            guild_id,
            channel_id,
            user,
            other,
            row.options,
            rated=row.rated,
            auto_play=row.auto_play,
        )

    async def move_to_thread(self, match_id: int, thread_id: int, home_id: int) -> MatchRow:
        """The match now lives in its own thread; its home channel is free for the next."""
        return await self.store.relocate(match_id, thread_id, home_id)

    async def note_board(self, match_id: int, channel_id: int, message_id: int) -> None:
        await self.store.note_board(match_id, channel_id, message_id)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    async def set_threads(self, guild_id: int, on: bool) -> GuildSettings:
        settings = replace(await self.store.guild_settings(guild_id), threads=on)
        await self.store.save_guild_settings(guild_id, settings)
        return settings

    async def user_settings(self, user_id: int) -> UserSettings:
        return await self.store.user_settings(user_id)

    async def update_user_settings(
        self,
        user_id: int,
        *,
        notify: str | None = None,
        notify_minutes: int | None = None,
        board_side: str | None = None,
        theme: str | None = None,
    ) -> UserSettings:
        current = await self.store.user_settings(user_id)
        changes: dict[str, Any] = {}
        if notify is not None:
            if notify not in NOTIFY_CHOICES:
                raise UserError(f"Pick a notice setting: {', '.join(NOTIFY_CHOICES)}.")
            changes["notify"] = notify
        if notify_minutes is not None:
            if not 1 <= notify_minutes <= 24 * 60:
                raise UserError("Pick between 1 and 1440 minutes.")
            changes["notify_minutes"] = notify_minutes
            changes.setdefault("notify", "idle")
        if board_side is not None:
            if board_side not in BOARD_SIDES:
                raise UserError("Pick where your home board goes: right or left.")
            changes["board_side"] = board_side
        if theme is not None:
            if theme not in THEME_CHOICES:
                raise UserError(f"Pick a theme: {', '.join(THEME_CHOICES)}.")
            changes["theme"] = theme
        updated = replace(current, **changes)
        if changes:
            await self.store.save_user_settings(user_id, updated)
        return updated

    async def games_of(self, guild_id: int, user_id: int) -> list[MatchRow]:
        """A player's live challenges and games on a server, oldest first."""
        rows = await self.store.live_matches_in(guild_id)
        now = self.clock()
        return [
            row
            for row in rows
            if row.player_index(user_id) is not None and not self._expired(row, now)
        ]

    async def due_reminders(self) -> list[tuple[MatchRow, int]]:
        """(match, user id) of each player who asked to be reminded after some idle minutes
        and has waited that long on their turn, not yet reminded this turn."""
        now = self.clock()
        due = []
        for row in await self.store.live_matches():
            game = row.game
            if row.status != Status.PLAYING or game is None or game.actor is None:
                continue
            if row.notified_version == row.version:
                continue
            if row.computer_level is not None and game.actor == 1:
                continue
            user_id = row.player_ids[game.actor]
            settings = await self.store.user_settings(user_id)
            if (
                settings.notify == "idle"
                and now - row.last_action_at >= 60 * settings.notify_minutes
            ):
                due.append((row, user_id))
        return due

    async def note_reminded(self, row: MatchRow) -> bool:
        return await self.store.note_notified(row.id, row.version)

    async def match_file(
        self, guild_id: int, channel_id: int, match_id: int | None = None, kind: str = "mat"
    ) -> tuple[MatchRow, str]:
        """A match as a GNU Backgammon file: the channel's current or last one, or by number."""
        from bot.matfile import export_text

        if match_id is None:
            row = await self.latest(channel_id)
            if row is None:
                raise NoGameError("No match has been played in this channel yet.")
        else:
            row = await self.store.get_match(match_id)
            if row is None or row.guild_id != guild_id or row.game is None:
                raise UserError(f"There is no match #{match_id} on this server.")
        events = await self.store.events(row.id)
        text = await asyncio.to_thread(export_text, row, events, kind)
        return row, text

    async def verify_dice(self, secret: str, public: str) -> tuple[MatchRow, VerifyResult]:
        """Check a match's recorded rolls against its revealed secret."""
        row = await self.store.match_by_dice_public(public.strip())
        if row is None or row.dice is None:
            raise UserError(
                f"No match here used the public value {public.strip()[:40]}. Copy it from the "
                "message that ended the match."
            )
        events = await self.store.events(row.id)
        result = verify_events(
            secret.strip(), row.dice.public or public, events, commitment_hex=row.dice.commitment
        )
        return row, result

    async def dice_report(self, guild_id: int) -> DiceReport:
        """Statistics of every roll actually played on a server, per player and in all."""
        matches = await self.store.roll_events(guild_id)

        def work() -> DiceReport:
            records = [
                record
                for players, events in matches
                for record in rolls_from_events(events, players)
            ]
            return dice_report(records)

        return await asyncio.to_thread(work)

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]:
        return await self.store.rating_history(guild_id, user_id)

    async def _expire_stale(self, channel_id: int, now: float) -> MatchRow | None:
        """Load the live row, expiring a challenge whose time has run out."""
        row = await self._load(channel_id)
        if row is None or not self._expired(row, now):
            return row
        with contextlib.suppress(ConflictError):
            await self.store.apply(
                Change(row.id, row.version, Status.EXPIRED, row.game, now, touch=False)
            )
        return None

    @staticmethod
    def _expired(row: MatchRow, now: float) -> bool:
        return (
            row.status == Status.CHALLENGE and row.expires_at is not None and now >= row.expires_at
        )

    @staticmethod
    def _require_challenge(row: MatchRow) -> None:
        if row.status != Status.CHALLENGE:
            raise UserError("The game has already started.")

    @staticmethod
    def _participant(turn: _Turn, user: Player) -> tuple[int, Game]:
        me = turn.row.player_index(user.id)
        if me is None:
            raise NotYourTurnError(
                f"This is {turn.name(0)} and {turn.name(1)}'s game; you are not playing in it."
            )
        if turn.game is None or turn.status != Status.PLAYING:
            raise UserError("The game has not started yet.")
        return me, turn.game

    def _my_turn(self, turn: _Turn, user: Player, verb: Action) -> tuple[int, Game]:
        me, game = self._participant(turn, user)
        if game.resignation is not None:
            offerer = game.resignation.player
            if offerer == me:
                raise UserError(f"Wait for {turn.name(1 - me)} to answer your resignation offer.")
            raise UserError("Answer the resignation offer first: accept or reject it.")
        actor = game.actor
        if actor != me:
            assert actor is not None
            if game.phase is Phase.DOUBLED:
                raise NotYourTurnError(f"Waiting for {turn.name(actor)} to take or drop.")
            if verb in (Action.TAKE, Action.DROP):
                raise UserError("There is no double to answer.")
            raise NotYourTurnError(f"It's {turn.name(actor)}'s turn.")
        return me, game

    # --- follow-on events ----------------------------------------------------------------

    def _opening(self, turn: _Turn) -> None:
        """Roll one die each until they differ; the higher die moves both numbers."""
        assert turn.game is not None
        game = turn.game
        names = (turn.name(0), turn.name(1))
        while game.phase is Phase.OPENING:
            dice = (turn.die(), turn.die())
            cube_before = game.cube
            game = game.opening_roll(*dice)
            turn.game = game
            turn.log(Action.OPENING, None, None, dice=dice)
            head = f"{names[0]} rolls {dice[0]}, {names[1]} rolls {dice[1]}"
            if game.phase is Phase.OPENING:
                extra = f" The cube turns to {game.cube}." if game.cube > cube_before else ""
                turn.lines.append(f"{head}: a tie, rolling again.{extra}")
            else:
                first = game.on_roll
                turn.lines.append(
                    f"{head}: {names[first]} moves first with {dice_text(game.dice)}."
                )
        self._after_roll(turn)

    def _after_roll(self, turn: _Turn) -> None:
        """Pass the turn when no checker can move; make a forced play if the table asks."""
        game = turn.game
        assert game is not None and game.dice is not None
        plays = game.legal_plays()
        mover = game.on_roll
        if plays.is_forced_pass:
            turn.game = game.pass_turn()
            turn.log(Action.PASS, None, mover, dice=game.dice)
            turn.lines.append(
                f"{turn.name(mover)} cannot move with {dice_text(game.dice)}: "
                f"{turn.name(1 - mover)} to roll."
            )
        elif turn.row.auto_play and len(plays) == 1:
            (play,) = plays
            turn.game = game.play(play)
            turn.log(Action.MOVE, None, mover, notation=str(play), dice=game.dice)
            turn.lines.append(
                f"{turn.name(mover)} rolls {dice_text(game.dice)} and plays {play} "
                "(the only legal play)."
            )
            self._after_play(turn)

    def _after_play(self, turn: _Turn) -> None:
        if turn.game is not None and turn.game.phase is Phase.OVER:
            self._after_game_end(turn)

    def _after_game_end(self, turn: _Turn) -> None:
        game = turn.game
        assert game is not None and game.result is not None
        result = game.result
        turn.last_result = result
        turn.finished.append(FinishedGame(game.game_number, result))
        turn.boards.append(game)
        turn.lines.append(_result_line((turn.name(0), turn.name(1)), game, result))
        if game.match_over:
            winner = game.match_winner
            assert winner is not None
            turn.status = Status.FINISHED
            turn.outcome = MatchOutcome(winner, game.final_score, result.reason.value)
            if game.options.length:
                a, b = game.final_score
                turn.lines.append(
                    f"{turn.name(winner)} wins the {game.options.length}-point match "
                    f"{max(a, b)}-{min(a, b)}."
                )
            return
        following = game.next_game()
        turn.game = following
        turn.log(Action.NEXT_GAME, None, None)
        crawford = " This is the Crawford game: no doubling." if following.crawford else ""
        turn.lines.append(f"Game {following.game_number} begins.{crawford}")
        self._opening(turn)


def _commitment_line(seal: DiceSeal, public: str | None = None) -> str:
    if public is None:
        return f"Dice commitment (SHA-256 of this match's secret): `{seal.commitment}`."
    return (
        f"Dice: committed to `{seal.commitment}` (SHA-256); public value `{public}`. "
        "The secret is revealed when the match ends."
    )


def _reveal_line(seal: DiceSeal, public: str | None) -> str:
    return (
        f"Dice secret: `{seal.secret}` (public value `{public}`). Check every roll with "
        "/backgammon verify or python -m bot verify SECRET PUBLIC."
    )


def _points(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


def _result_line(names: tuple[str, str], game: Game, result: GameResult) -> str:
    winner = names[result.winner]
    points = _points(result.points)
    if result.reason is EndReason.DROPPED:
        line = f"{winner} wins {points}: the double was dropped."
    elif result.reason is EndReason.RESIGNED:
        line = (
            f"{winner} wins {RESULT_WORDS[result.kind]}: {points} "
            f"({names[1 - result.winner]} resigned)."
        )
    elif result.reason is EndReason.FORFEIT:
        line = f"{winner} wins by forfeit."
    elif result.kind is ResultKind.SINGLE:
        line = f"{winner} wins: {points}."
    else:
        line = f"{winner} wins {RESULT_WORDS[result.kind]}: {points}."
    if game.options.length:
        a, b = game.final_score
        line += f" Score: {names[0]} {a}, {names[1]} {b} (match to {game.options.length})."
    return line


__all__ = [
    "ActionContext",
    "Player",
    "QuarantinedError",
    "Report",
    "Review",
    "SessionService",
    "SessionSettings",
]
