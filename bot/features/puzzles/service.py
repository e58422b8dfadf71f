"""Puzzles from the server's own mistakes (issue 29): the service the front ends ask.

:class:`PuzzleService` is composed at start-up with the others (:mod:`bot.services`):

- **Extraction.** It listens to the facts (:mod:`bot.core.facts`): a match over with a winner
  is queued in the store (``puzzle_sources``, kept until done, so a restart only delays
  it), then worked on by one background task at a time, each match claimed in the store
  first (a lease renewed while it is worked on, taken over once a crashed process lets it
  run out), so the bot's shard processes never extract the same match twice. The
  engine's work runs in the workers' analysis lane (:func:`extract_puzzles`, at ``nice``
  +10 beside the post-game reviews), never on the event loop and never in front of a
  board: every decision is valued at the computer's 1-ply ("expert"), the candidates
  chosen by :func:`bot.features.puzzles.rules.select_puzzles`, and each is confirmed at the
  strongest level (the
  analysis search, world-class's 3 plies) before it is kept. A tournament's matches wait
  in the queue while the ``tournament_stage`` it is composed with says their tournament
  runs, and are worked on once it hears :class:`~bot.core.facts.TournamentOver`.
- **Solving.** :meth:`PuzzleService.next_for` gives the caller a puzzle (their own mistakes
  first, then the server's, never one a kept-out player's games gave); :meth:`answer`
  grades any legal answer by the equity it loses, rates the first attempt (Glicko-2, solver
  against puzzle, both read and written in one transaction of the store, so answers
  arriving together from any process all count) and returns what the private reveal
  shows.
- **The daily puzzle.** :meth:`due_posts` and :meth:`due_reveals` tell a front end what
  to post and reveal at a given time (the clock is injected, so a test moves it); a post is
  claimed in the store before it is sent, so a restart or a second process never posts it
  twice, and a post claimed but not sent is sent on the next tick.

Pure of Discord. Words live in :mod:`bot.present.puzzles` and
:mod:`bot.present.puzzle_words`; refusals are typed (:class:`bot.core.errors.Refusal`).
"""

from __future__ import annotations

import asyncio
import calendar
import contextlib
import functools
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.computer import ComputerPlayer
from bot.core.errors import Refusal, UserError
from bot.core.facts import Fact, FactBus, MatchOver, TournamentOver
from bot.core.reader import MatchReader
from bot.core.records import EventRecord, MatchRow, Status, Venue
from bot.core.replay import decisions_from_events
from bot.core.visibility import ChannelReaders, deciding_channel, readers_may_see
from bot.engine import EngineError, MatchOptions
from bot.features.puzzles.rules import (
    CubeAnswer,
    Glicko,
    Grade,
    PoolEntry,
    Puzzle,
    PuzzleKind,
    Seat,
    SolverStanding,
    SourceGame,
    Streak,
    TournamentStage,
    Verdict,
    confirm_all,
    day_streak,
    exclusion,
    grade,
    leaderboard,
    next_puzzle,
    rate_attempt,
    select_puzzles,
    solve_streak,
)
from bot.features.puzzles.rules.codec import key_text, puzzle_from_text, puzzle_to_text
from bot.features.puzzles.rules.evaluate import analyse_all, game_of, play_answer, reevaluator
from bot.storage import Storage
from bot.storage.puzzles import Attempt, DailyPost, PuzzleSettings, PuzzleStorage, puzzle_store
from bot.workers import Workers

log = logging.getLogger(__name__)

SCREEN_LEVEL = "expert"  # 1-ply: every decision of a match valued cheaply
CONFIRM_LEVEL = "world-class"  # the strongest: the analysis search, 3 plies
REVEAL_AFTER = 24 * 60 * 60.0  # a daily puzzle's answer comes a day after it is posted
DAY = 24 * 60 * 60.0
# How long a process's claim on a queued match lasts unless renewed (every third of it while
# the match is worked on): a crashed process's match waits at most this long.
LEASE = 120.0

TournamentHook = Callable[[MatchRow], Awaitable[TournamentStage | None]]


async def not_a_tournament(row: MatchRow) -> TournamentStage | None:
    """The default hook: no match belongs to a tournament (until competitions wire theirs)."""
    return None


def extract_puzzles(
    options: MatchOptions,
    events: Sequence[EventRecord],
    source: SourceGame,
    known: frozenset[str],
) -> list[Puzzle]:
    """The confirmed puzzles of one finished match (runs in the analysis lane).

    Every decision of both seats valued at 1-ply; the candidates the selection keeps (and
    the server does not have yet, by :func:`~bot.features.puzzles.rules.codec.key_text`) valued
    again at the strongest level; only those that still stand are returned.
    """
    screen = ComputerPlayer(SCREEN_LEVEL).evaluator
    analysed = analyse_all(screen, decisions_from_events(options, events), level=SCREEN_LEVEL)
    found = [p for p in select_puzzles(source, analysed) if key_text(p.key) not in known]
    if not found:
        return []
    strongest = ComputerPlayer(CONFIRM_LEVEL).analysis_evaluator
    return confirm_all(found, reevaluator(strongest), level=CONFIRM_LEVEL)


@dataclass(frozen=True, slots=True)
class Given:
    """A puzzle handed to a solver: its id, the puzzle, and whether the mistake was theirs.

    ``source`` is the source match's (players' names, guild, channel) when the server
    chose to name players; None otherwise (the default: nobody is named).
    """

    puzzle_id: int
    puzzle: Puzzle
    own: bool
    source: SourceLink | None = None


@dataclass(frozen=True, slots=True)
class SourceLink:
    """The source match, for a server that names players and links it."""

    names: tuple[str, str]
    guild_id: int
    channel_id: int


@dataclass(frozen=True, slots=True)
class Answered:
    """A graded answer: the verdict, and what it did to the solver's rating and streaks.

    ``rated`` is False for a second answer to the same puzzle (graded, never rated again);
    ``before``/``after`` are then equal.
    """

    puzzle_id: int
    verdict: Verdict
    rated: bool
    before: float
    after: float
    solved: Streak
    days: Streak


@dataclass(frozen=True, slots=True)
class Reveal:
    """A daily post whose day is over: the puzzle and who answered it right meanwhile.

    ``source`` as in :class:`Given` (the server's choice when the reveal is made).
    ``puzzle`` is None when the puzzle left meanwhile (a player of its match kept their
    games out): nothing is revealed, only the post's Answer button taken off.
    """

    post: DailyPost
    puzzle: Puzzle | None
    solvers: tuple[int, ...]
    source: SourceLink | None = None


class PuzzleService:
    """Extraction, solving, ratings, streaks, the leaderboard and the daily puzzle."""

    def __init__(
        self,
        store: Storage,
        workers: Workers,
        facts: FactBus,
        *,
        clock: Callable[[], float],
        extract: Callable[..., list[Puzzle]] = extract_puzzles,
        tournament_stage: TournamentHook | None = None,
        reader: MatchReader,
    ) -> None:
        self.reader = reader  # the matches, as the session reads them
        self.puzzles: PuzzleStorage = puzzle_store(store)
        self.workers = workers
        self.clock = clock
        self.extract = extract  # module-level: it is sent to a lane worker by name
        # Whether a match is a running tournament's (its puzzles wait for the end).
        self.tournament_stage: TournamentHook = tournament_stage or not_a_tournament
        self._draining: asyncio.Task[None] | None = None
        # Who claims queued matches in the store: this process (one of the bot's shards).
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._retry: asyncio.TimerHandle | None = None
        self.retry_at: float | None = None  # when a match another process holds is looked at
        self._again = False
        self.running = False  # extracting: set by start() (the bot's), never in offline play
        facts.subscribe(self._on_facts)

    # --- extraction ---------------------------------------------------------------------

    async def _on_facts(self, facts: Sequence[Fact]) -> None:
        for fact in facts:
            if isinstance(fact, MatchOver) and fact.winner is not None:
                if fact.match.venue is not Venue.SERVER:
                    continue  # a DM game: its players' alone, never a server's puzzle
                await self.puzzles.queue_source(fact.match.id, self.clock())
                if self.running:
                    self.kick()
            elif isinstance(fact, TournamentOver) and self.running:
                self.kick()  # its matches waited in the queue: their turn now

    def start(self) -> None:
        """Extract from now on, beginning with the matches queued before (the bot calls
        this; offline play does not, so its matches wait in the queue for the bot)."""
        self.running = True
        self.kick()

    def kick(self) -> None:
        """Work through the matches owed an extraction, in the background (one at a time)."""
        if self._draining is not None and not self._draining.done():
            self._again = True  # a source queued meanwhile: one more pass after this one
            return
        self._again = False
        self._draining = asyncio.ensure_future(self._drain())

    async def idle(self) -> None:
        """Wait until the queue has been worked through (tests, benchmarks, shutdown)."""
        while self._draining is not None and not self._draining.done():
            await asyncio.shield(self._draining)

    async def close(self) -> None:
        self.running = False
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        if self._draining is not None and not self._draining.done():
            self._draining.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._draining

    async def _drain(self) -> None:
        while True:
            held_elsewhere = False
            for match_id in await self.puzzles.sources():
                try:
                    held_elsewhere |= await self.extract_match(match_id) is None
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("could not make puzzles of match %s; kept for later", match_id)
            if held_elsewhere:
                await self._retry_when_leases_end()
            if not self._again:
                return
            self._again = False

    async def _retry_when_leases_end(self) -> None:
        """Another process holds a queued match: look again when its lease ends, in case
        that process died with it (a live one will have finished it by then)."""
        now = self.clock()
        end = await self.puzzles.next_lease_end(now)
        if end is None or not self.running:
            return
        if self._retry is not None:
            self._retry.cancel()
        self.retry_at = end
        loop = asyncio.get_running_loop()
        self._retry = loop.call_later(max(0.0, end - now) + 1.0, self.kick)

    async def extract_match(self, match_id: int) -> int | None:
        """Make the puzzles of one queued match; how many were kept, or None when another
        process holds it. The match leaves the queue unless its tournament still runs.

        The match is claimed first, with a lease this process renews while it works
        (:data:`LEASE`), so shards never extract the same match twice; a claim given up
        (a tournament still running, a failure) goes back to the queue at once, and a
        crashed process's claim is taken over when its lease ends.
        """
        now = self.clock()
        if not await self.puzzles.claim_source(match_id, self.owner, now, now + LEASE):
            return None
        keeping = asyncio.ensure_future(self._keep_lease(match_id))
        try:
            return await self._extract(match_id)
        finally:
            keeping.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeping
            # A no-op once done (the row is gone); otherwise the match waits for the next
            # pass of any process.
            with contextlib.suppress(Exception):
                await self.puzzles.release_source(match_id, self.owner)

    async def _keep_lease(self, match_id: int) -> None:
        while True:
            await asyncio.sleep(LEASE / 3)
            if not await self.puzzles.renew_source(match_id, self.owner, self.clock() + LEASE):
                log.warning("lost the claim on match %s while making its puzzles", match_id)
                return

    async def _extract(self, match_id: int) -> int:
        row = await self.reader.match(match_id)
        if row is None or row.status != Status.FINISHED:
            await self.puzzles.source_done(match_id)
            return 0
        stage = await self.tournament_stage(row)
        if stage is TournamentStage.RUNNING:
            return 0  # stays queued until the tournament ends
        humans = [
            uid for i, uid in enumerate(row.player_ids) if not (row.computer_level and i == 1)
        ]
        kept = await self.puzzles.kept_out(humans)
        seats = tuple(
            Seat(None, False) if row.computer_level and i == 1 else Seat(uid, uid in kept)
            for i, uid in enumerate(row.player_ids)
        )
        source = SourceGame(row.id, row.status, (seats[0], seats[1]), stage)
        if exclusion(source) is not None:
            await self.puzzles.source_done(match_id)
            return 0
        events = await self.reader.events(match_id)
        known = frozenset(await self.puzzles.keys(row.guild_id))
        found = await self.workers.lane_call(self.extract, row.options, events, source, known)
        added = 0
        players = (seats[0].user_id, seats[1].user_id)
        for puzzle in found:
            # Refused when a player kept their games out meanwhile (checked in the insert).
            pid = await self.puzzles.add_puzzle(
                row.guild_id,
                key_text(puzzle.key),
                puzzle_to_text(puzzle),
                match_id=row.id,
                owner_id=puzzle.owner_id,
                players=players,
                now=self.clock(),
            )
            added += pid is not None
        await self.puzzles.source_done(match_id)
        log.info("match %s gave %d puzzle(s)", match_id, added)
        return added

    # --- solving ------------------------------------------------------------------------

    async def load(self, guild_id: int, puzzle_id: int) -> Puzzle:
        """A puzzle of this server, or a private refusal (another server's, or gone)."""
        return await self._load(guild_id, puzzle_id, False)

    async def _load(self, guild_id: int, puzzle_id: int, checked: bool) -> Puzzle:
        stored = await self.puzzles.puzzle(puzzle_id)
        if stored is None or stored.guild_id != guild_id:
            raise UserError(Refusal.PUZZLE_GONE)
        if not checked:
            players = [uid for uid in stored.players if uid is not None]
            if await self.puzzles.kept_out(players):
                raise UserError(Refusal.PUZZLE_GONE)
        return puzzle_from_text(stored.data)

    async def next_for(self, guild_id: int, user_id: int, readers: ChannelReaders) -> Given:
        """A fresh puzzle for the solver: their own mistakes first, then the server's; only
        from matches the solver could see in Discord (``readers``: who reads which channel;
        the position itself is what a hidden channel keeps private, not only the names).

        The reply to ``/puzzle get``, so its reads go together: the pool with what the
        solver has seen (one query) beside their rating, then the puzzle beside the
        server's settings and the note that it was given.
        """
        (pool, fresh), standing = await asyncio.gather(
            self.puzzles.fresh(guild_id, user_id), self.puzzles.solver(guild_id, user_id)
        )

        async def sees(channel: int) -> bool:
            return await readers.member_reads(guild_id, channel, user_id)

        # Puzzles from channels hidden from the solver are, for them, no puzzles at all.
        visible = {entry.puzzle_id for entry in await _seen_by(pool, sees)}
        if not visible:
            raise UserError(Refusal.NO_PUZZLES_YET)
        fresh = [entry for entry in fresh if entry.puzzle_id in visible]
        rating = standing.rating.rating if standing is not None else Glicko().rating
        entry = next_puzzle(user_id, rating, fresh, ())
        if entry is None:
            raise UserError(Refusal.SEEN_EVERY_PUZZLE)
        # The pool already left out kept-out players' puzzles: no need to ask again.
        given, _done = await asyncio.gather(
            self.given(guild_id, user_id, entry.puzzle_id, checked=True),
            self.puzzles.give(guild_id, user_id, entry.puzzle_id, self.clock()),
        )
        return given

    async def given(
        self, guild_id: int, user_id: int, puzzle_id: int, *, checked: bool = False
    ) -> Given:
        """A puzzle as shown to ``user_id`` (whoever asks: the daily post's Answer);
        ``checked``: its players are known not to keep their games out."""
        puzzle, settings = await asyncio.gather(
            self._load(guild_id, puzzle_id, checked), self.puzzles.settings(guild_id)
        )
        link = await self._source(puzzle) if settings.name_players else None
        own = puzzle.owner_id is not None and puzzle.owner_id == user_id
        return Given(puzzle_id, puzzle, own, link)

    async def _source(self, puzzle: Puzzle) -> SourceLink | None:
        """The source match's players and place (only for a server that names players)."""
        row = await self.reader.match(puzzle.match_id)
        if row is None:
            return None
        return SourceLink(row.player_names, row.guild_id, row.channel_id)

    async def current(self, guild_id: int, user_id: int) -> Given:
        """The latest puzzle given to the solver and not answered yet."""
        puzzle_id = await self.puzzles.current(guild_id, user_id)
        if puzzle_id is None:
            raise UserError(Refusal.NO_PUZZLE_TO_ANSWER)
        return await self.given(guild_id, user_id, puzzle_id)

    async def play_texts(self, guild_id: int, user_id: int) -> list[str]:
        """The legal plays of the solver's current checker puzzle (for autocomplete)."""
        puzzle_id = await self.puzzles.current(guild_id, user_id)
        if puzzle_id is None:
            return []
        stored = await self.puzzles.puzzle(puzzle_id)
        if stored is None or stored.guild_id != guild_id:
            return []
        puzzle = puzzle_from_text(stored.data)
        if puzzle.kind is not PuzzleKind.CHECKER_PLAY:
            return []  # answered with its buttons
        return [str(play) for play in game_of(puzzle).legal_plays()]

    def answer_of(self, puzzle: Puzzle, text: str) -> str:
        """The answer ``text`` gives (a play as in /backgammon move, or a cube answer)."""
        text = text.strip()
        if puzzle.kind is not PuzzleKind.CHECKER_PLAY:
            try:
                choice = CubeAnswer(text.lower())
            except ValueError:
                choice = None
            if choice is None or choice not in _cube_answers(puzzle):
                raise UserError(Refusal.ANSWER_WITH_BUTTONS)
            return str(choice)
        game = game_of(puzzle)
        assert game.dice is not None
        try:
            play = game.position.parse_play(game.dice, text[:200])
            return play_answer(game, play)
        except EngineError as exc:
            raise UserError.of_engine(exc) from exc

    async def answer(
        self, guild_id: int, user_id: int, puzzle_id: int | None, text: str
    ) -> Answered:
        """Grade ``text`` for the puzzle (None: the solver's current one); the first answer
        of a solver to a puzzle is kept and rated, any later one only graded."""
        if puzzle_id is None:
            puzzle_id = (await self.current(guild_id, user_id)).puzzle_id
        puzzle = await self.load(guild_id, puzzle_id)
        answer = self.answer_of(puzzle, text)
        verdict = grade(puzzle, answer, solver_id=user_id)
        attempt = Attempt(
            puzzle_id, guild_id, user_id, answer, verdict.grade, verdict.equity_lost, self.clock()
        )
        # Rated in the store's transaction, on the ratings as they are then: answers to one
        # puzzle arriving together (from any process) each count.
        rated = await self.puzzles.record_attempt(
            attempt, lambda solver, rating: rate_attempt(solver, rating, verdict.grade)
        )
        if rated is None:
            standing = await self.puzzles.solver(guild_id, user_id)
            before = after = standing.rating if standing is not None else Glicko()
        else:
            before, after = rated
        solved, days = await self.streaks(guild_id, user_id)
        return Answered(
            puzzle_id, verdict, rated is not None, before.rating, after.rating, solved, days
        )

    async def streaks(self, guild_id: int, user_id: int) -> tuple[Streak, Streak]:
        history = await self.puzzles.solver_history(guild_id, user_id)
        today = datetime.fromtimestamp(self.clock(), UTC).date()
        grades: list[Grade] = [g for g, _when in history]
        days = [datetime.fromtimestamp(when, UTC).date() for _g, when in history]
        return solve_streak(grades), day_streak(days, today)

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[SolverStanding]:
        """The server's best established solvers (kept-out players never appear)."""
        return leaderboard(await self.puzzles.standings(guild_id), limit)

    # --- privacy ------------------------------------------------------------------------

    async def keep_out(self, user_id: int, kept_out: bool) -> None:
        """A player keeps their games out of puzzles (or lets them in again)."""
        await self.puzzles.set_kept_out(user_id, kept_out, self.clock())

    async def kept_out(self, user_id: int) -> bool:
        return user_id in await self.puzzles.kept_out([user_id])

    # --- the daily puzzle ---------------------------------------------------------------

    async def settings(self, guild_id: int) -> PuzzleSettings:
        return await self.puzzles.settings(guild_id)

    async def set_daily(
        self,
        guild_id: int,
        *,
        channel_id: int | None,
        minute: int | None = None,
        name_players: bool | None = None,
    ) -> PuzzleSettings:
        """Post the daily puzzle in ``channel_id`` (None: stop) at ``minute`` past midnight
        UTC; name players and link the source match, or not."""
        old = await self.puzzles.settings(guild_id)
        chosen = old.minute if minute is None else minute
        if not 0 <= chosen < 24 * 60:
            raise UserError(Refusal.PICK_DAILY_TIME)
        settings = PuzzleSettings(
            channel_id=channel_id,
            minute=chosen,
            next_post_at=None if channel_id is None else next_time(self.clock(), chosen),
            name_players=old.name_players if name_players is None else name_players,
        )
        await self.puzzles.save_settings(guild_id, settings)
        return settings

    async def _readable_where(
        self, readers: ChannelReaders, guild_id: int, channel_id: int, puzzle_id: int
    ) -> bool:
        """Whether everyone reading ``channel_id`` could see the puzzle's source match."""
        stored = await self.puzzles.puzzle(puzzle_id)
        row = (
            None
            if stored is None
            else await self.reader.match(puzzle_from_text(stored.data).match_id)
        )
        if row is None:
            return False
        return await readers_may_see(readers, guild_id, channel_id, deciding_channel(row))

    async def due_posts(self, readers: ChannelReaders) -> list[tuple[DailyPost, Given]]:
        """The daily posts to send now (claimed in the store: send each, then call
        :meth:`post_sent`). A server with no puzzle left to post waits for tomorrow. Only
        a puzzle every reader of the daily channel could have seen the source match of is
        posted (``readers``: who reads which channel)."""
        now = self.clock()
        out: list[tuple[DailyPost, Given]] = []
        for post in await self.puzzles.unsent_posts():
            try:
                if not await self._readable_where(
                    readers, post.guild_id, post.channel_id, post.puzzle_id
                ):
                    raise UserError(Refusal.PUZZLE_GONE)  # its source is hidden there now
                out.append((post, await self.given(post.guild_id, 0, post.puzzle_id)))
            except UserError:
                await self.puzzles.revealed(post.id)  # its puzzle is gone: nothing to send
        for guild_id, settings in await self.puzzles.due_daily(now):
            assert settings.channel_id is not None
            pool = await self.puzzles.pool(guild_id)
            posted = await self.puzzles.posted_puzzles(guild_id)
            fresh = await _seen_by(
                [entry for entry in pool if entry.puzzle_id not in posted],
                functools.partial(readers_may_see, readers, guild_id, settings.channel_id),
            )
            following = next_time(now + 60.0, settings.minute)
            if not fresh:
                await self.puzzles.save_settings(
                    guild_id,
                    PuzzleSettings(
                        settings.channel_id, settings.minute, following, settings.name_players
                    ),
                )
                continue
            # In the order they were made: every puzzle gets its day.
            chosen = min(fresh, key=lambda entry: entry.puzzle_id)
            claimed = await self.puzzles.claim_post(
                guild_id, chosen.puzzle_id, settings.channel_id, now, now + REVEAL_AFTER, following
            )
            if claimed is not None:
                out.append((claimed, await self.given(guild_id, 0, claimed.puzzle_id)))
        return out

    async def post_sent(self, post_id: int, message_id: int) -> None:
        """The post is out: its answer comes a full day after now, however late it went."""
        now = self.clock()
        await self.puzzles.post_sent(post_id, message_id, now, now + REVEAL_AFTER)

    async def stop_daily(self, guild_id: int, post_id: int) -> None:
        """The daily post cannot be sent at all (its channel is gone or closed to the bot):
        drop it and stop the daily puzzle, rather than try again every minute forever."""
        await self.puzzles.revealed(post_id)  # never sent: nothing to reveal either
        settings = await self.puzzles.settings(guild_id)
        await self.puzzles.save_settings(
            guild_id, PuzzleSettings(None, settings.minute, None, settings.name_players)
        )

    async def daily_post(self, guild_id: int, post_id: int) -> DailyPost:
        post = await self.puzzles.post(post_id)
        if post is None or post.guild_id != guild_id:
            raise UserError(Refusal.PUZZLE_GONE)
        if post.revealed:
            raise UserError(Refusal.DAILY_PUZZLE_OVER)
        return post

    async def due_reveals(self, readers: ChannelReaders) -> list[Reveal]:
        """The daily posts whose day is over, with who solved them (call :meth:`revealed`
        once each reveal is posted; one without a puzzle has nothing to post but the
        Answer button to take off). A puzzle whose source match not every reader of its
        channel could see any more is not revealed either (``readers``)."""
        reveals: list[Reveal] = []
        for post in await self.puzzles.due_reveals(self.clock()):
            stored = await self.puzzles.puzzle(post.puzzle_id)
            players = [] if stored is None else [uid for uid in stored.players if uid is not None]
            if (
                stored is None
                or await self.puzzles.kept_out(players)
                or not await self._readable_where(
                    readers, post.guild_id, post.channel_id, post.puzzle_id
                )
            ):
                # Gone, or its player kept their games out since it was posted: the
                # puzzle left for everyone, so its answer (and source) is never posted.
                reveals.append(Reveal(post, None, ()))
                continue
            puzzle = puzzle_from_text(stored.data)
            settings = await self.puzzles.settings(post.guild_id)
            source = await self._source(puzzle) if settings.name_players else None
            solvers = await self.puzzles.solved_by(post.puzzle_id, post.posted_at, post.reveal_at)
            reveals.append(Reveal(post, puzzle, tuple(solvers), source))
        return reveals

    async def revealed(self, post_id: int) -> None:
        await self.puzzles.revealed(post_id)


async def _seen_by(
    entries: Sequence[PoolEntry], sees: Callable[[int], Awaitable[bool]]
) -> list[PoolEntry]:
    """The entries whose source channel ``sees`` allows (each channel asked once; an
    unknown source nowhere)."""
    channels = {entry.source_channel for entry in entries if entry.source_channel is not None}
    allowed = {channel for channel in channels if await sees(channel)}
    return [entry for entry in entries if entry.source_channel in allowed]


def _cube_answers(puzzle: Puzzle) -> list[CubeAnswer]:
    return [CubeAnswer(item.answer) for item in puzzle.candidates]


def next_time(now: float, minute: int) -> float:
    """The next moment after ``now`` at ``minute`` past midnight UTC."""
    day = datetime.fromtimestamp(now, UTC).date()
    start = calendar.timegm(day.timetuple())
    at = start + minute * 60.0
    return at if at > now else at + DAY


__all__ = [
    "LEASE",
    "Answered",
    "DailyPost",
    "Given",
    "PuzzleService",
    "Reveal",
    "SourceLink",
    "extract_puzzles",
    "next_time",
    "not_a_tournament",
]
