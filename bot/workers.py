"""CPU-heavy work off the event loop's process: board pictures and the computer's thinking.

bgsage's C++ and Pillow's drawing hold the GIL, so in a thread they still stall the event
loop between switches. :class:`Workers` runs them in a small pool of worker processes
(:class:`bot.pool.ProcessPool`: the standard library's executor), each warmed at start:
fonts, sprites and palettes drawn, bgsage's weights loaded. Each worker keeps one
:class:`~bot.computer.ComputerPlayer` per level, as the session did.

Two lanes. Boards and the computer's moves go to the board workers; analyses, game
reviews, luck and charts (seconds of work a member can ask for again and again) go to the
*analysis lane*, a pool of its own whose processes run at a lower scheduling priority
(``nice`` +10, and Linux's ``SCHED_IDLE`` where there is one). A board therefore never
queues behind an analysis, and on a machine with few cores the kernel gives the board
workers and the event loop the CPU first.

Offline play and tests use :meth:`Workers.inline`: the same calls in a thread of this
process (``asyncio.to_thread``), with no processes at all.

Pure of Discord and of the database: engine values (a Game, a Play) go in and come back by
pickle. Only module-level functions can be sent to a worker (:meth:`Workers.call`).

>>> import asyncio
>>> from bot.engine import Game, MatchOptions
>>> async def picture() -> bytes:
...     workers = Workers.inline()
...     await workers.start()
...     try:
...         return await workers.render(Game.new(), perspective=0)
...     finally:
...         await workers.close()
>>> asyncio.run(picture())[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import Any, TypeVar

from bot.computer import (
    DEFAULT_LEVEL,
    LEVELS,
    ComputerPlayer,
    CubeDecision,
    CubeHint,
    PlayerAnalysis,
    PlayHint,
    computer_available,
)
from bot.computer.evaluator import CubeContext
from bot.computer.luck import MatchLuck, match_luck
from bot.computer.positions import CUBE_DEEP, DEEP
from bot.computer.rollouts import BgsageRollout, CubeRollout, RolledOut
from bot.core.records import EventRecord
from bot.core.replay import Decision, decisions_from_events
from bot.engine import Game, MatchOptions, Play, Position
from bot.pool import PoolError, ProcessPool
from renderers import render_board, warm_up
from renderers.standings_warm import warm_up as warm_up_standings

log = logging.getLogger(__name__)

T = TypeVar("T")


class Thought(StrEnum):
    """What a worker may ask the computer player: a method of
    :class:`~bot.computer.ComputerPlayer`, and nothing else reaches ``getattr``.

    The session never names one: it calls :class:`Workers`' typed methods
    (:meth:`Workers.choose_play` hands back a :class:`~bot.engine.Play`,
    :meth:`Workers.cube_response` a :class:`~bot.computer.CubeDecision`).
    """

    CHOOSE_PLAY = "choose_play"
    SHOULD_DOUBLE = "should_double"
    CUBE_RESPONSE = "cube_response"
    ACCEPTS_RESIGNATION = "accepts_resignation"
    HINTS = "hints"


CLOSE_TIMEOUT = 5.0  # seconds close() waits for work in flight before ending the workers
LANE_CLOSE_TIMEOUT = 0.5  # seconds a busy analysis may take at close before it is ended
LANE_NICENESS = 10  # the analysis lane yields the CPU to boards and the computer's moves


def default_size() -> int:
    """The machine's cores less one (the event loop's), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def default_lane() -> int:
    """One analysis process per core: they take only the CPU nothing else wants (see
    :func:`_init_lane`), so a long match's games are reviewed on every idle core."""
    return max(1, os.cpu_count() or 1)


class WorkerError(RuntimeError):
    """A worker process died (killed, out of memory, a crash in C code) during a call.

    The worker is replaced, so the next call works; the call that was running is lost.
    """


# --- what runs inside a worker --------------------------------------------------------------

_players: dict[str, ComputerPlayer] = {}
_players_lock = threading.Lock()


def _player(level: str) -> ComputerPlayer:
    """This process's computer player for ``level``, made once."""
    with _players_lock:
        player = _players.get(level)
        if player is None:
            player = _players[level] = ComputerPlayer(level)
        return player


def _warm(computer: bool) -> None:
    """Draw the renderer's caches and load bgsage's weights now, not on the first call."""
    warm_up()
    warm_up_standings()  # a competition picture drawn here starts warm too
    if computer and computer_available():
        game = Game.new().opening_roll(3, 1)
        for level in LEVELS:  # 1-ply and 2-ply weights loaded, each run once
            _player(level).choose_play(game)


def _init_worker(computer: bool) -> None:
    # A worker ignores SIGINT and SIGTERM: a Ctrl-C reaches the terminal's whole process
    # group, and systemd's stop signals every process of the service, but the bot finishes
    # the action in flight first, which may need a worker; the parent ends the workers in
    # close(). A parent that dies outright closes the pipe its workers read, and they exit.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _warm(computer)
    quiet_collector()


def _init_lane(computer: bool) -> None:
    """An analysis lane worker: as a board worker, but second in line for the CPU."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    with contextlib.suppress(OSError):  # a platform without nice: same priority, own queue
        os.nice(LANE_NICENESS)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        # Linux: the CPU only when nothing else of the machine's wants it (nice +10 alone
        # still takes a tenth of a busy core from the board workers).
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    warm_up()  # the mistake boards and charts are drawn here too
    if computer and computer_available():
        _player(DEFAULT_LEVEL).choose_play(Game.new().opening_roll(3, 1))
    quiet_collector()


def quiet_collector() -> None:
    """Take what start-up loaded out of the garbage collector's full passes.

    Modules, discord.py, fonts, sprites and the computer's weights live as long as the
    process, yet every full collection walked them all again: a pause of about 30 ms
    for every request in flight (benchmarks/e2e.py). Frozen, a full pass walks only what
    the games made since.
    """
    gc.collect()
    gc.freeze()


def render(game: Game, options: dict[str, Any]) -> bytes:
    """:func:`renderers.render_board` with keyword ``options``."""
    return render_board(game, **options)


def render_many(jobs: Sequence[tuple[Game, dict[str, Any]]]) -> list[bytes]:
    """Several pictures in one round trip."""
    return [render(game, options) for game, options in jobs]


def think(level: str, thought: Thought, game: Game, args: tuple[Any, ...]) -> Any:
    """``ComputerPlayer(level).<thought>(game, *args)`` with this process's player."""
    return getattr(_player(level), Thought(thought).value)(game, *args)


def position_hints(game: Game, count: int) -> list[PlayHint] | CubeHint:
    """The analysis of a position (the best ``count`` plays, or the cube), at the
    analysis depth, with this process's player."""
    return _player(DEFAULT_LEVEL).hints(game, count)


def rollout_play(game: Game, result: Position, seed: int) -> RolledOut:
    """One truncated rollout (:data:`bot.computer.positions.DEEP`) of the play that leads
    from ``game`` (Phase.MOVE) to ``result``, for the player who moves."""
    return BgsageRollout.shared(DEEP).play(game.position, result, CubeContext.for_game(game), seed)


def rollout_cube(game: Game, seed: int) -> CubeRollout:
    """One truncated rollout (:data:`bot.computer.positions.CUBE_DEEP`) of the cube
    decision of the player on roll in ``game``."""
    return BgsageRollout.shared(CUBE_DEEP).cube(game.position, CubeContext.for_game(game), seed)


def analyze(
    decisions: Sequence[tuple[Game, Decision]], level: str, players: tuple[int, ...]
) -> dict[int, PlayerAnalysis]:
    """:meth:`~bot.computer.ComputerPlayer.analyze` with this process's player."""
    return _player(level).analyze(decisions, players=players)


def analyze_log(
    options: MatchOptions, events: Sequence[EventRecord], level: str, players: tuple[int, ...]
) -> dict[int, PlayerAnalysis]:
    """A match's event log replayed into its decisions, then analysed: the whole of
    ``/backgammon analyze`` in one worker call (the log is smaller to send than the games)."""

    return analyze(decisions_from_events(options, events), level, players)


def review_log(
    options: MatchOptions,
    events: Sequence[EventRecord],
    level: str,
    players: tuple[int, ...],
    game_number: int | None = None,
) -> tuple[dict[int, PlayerAnalysis], MatchLuck]:
    """Skill and luck of a match (or of one of its games) from its event log, as
    ``SessionService.review`` computes them: ``(analyses, luck)``."""
    return _review_with(_player(level), options, events, players, game_number)


def _review_with(
    player: ComputerPlayer,
    options: MatchOptions,
    events: Sequence[EventRecord],
    players: tuple[int, ...],
    game: int | None,
) -> tuple[dict[int, PlayerAnalysis], MatchLuck]:
    decisions = decisions_from_events(options, events)
    if game is not None:
        decisions = [d for d in decisions if d[0].game_number == game]
    analyses = player.analyze(decisions, players=players)
    games = None if game is None else [game]
    return analyses, match_luck(options, events, player.evaluator, games=games)


# --- the pool -------------------------------------------------------------------------------


class Workers:
    """A pool of ``size`` worker processes and an analysis lane of ``lane`` more, or the same
    calls in threads (:meth:`inline`).

    Call :meth:`start` once (it spawns and warms the workers) and :meth:`close` at the end.
    Every method is a coroutine whose work runs elsewhere; exceptions raised by the work
    come back as they are, and a worker that dies raises :class:`WorkerError`.
    ``lane`` defaults to one per core (:func:`default_lane`): the lane's processes use only
    the CPU that boards and the event loop leave, and a long match's games are reviewed
    side by side on every core that is idle. ``lane=0``
    sends the analyses to the board workers, as before the lane existed (the benchmark's
    "before").
    """

    def __init__(
        self,
        size: int | None = None,
        *,
        lane: int | None = None,
        warm_computer: bool = True,
        computer: Callable[[str], Any] | None = None,
        in_process: bool = False,
    ) -> None:
        self.size = default_size() if size is None else size
        if self.size < 1:
            raise ValueError(f"a pool needs at least one worker, not {self.size}")
        self.lane_size = default_lane() if lane is None else lane
        if self.lane_size < 0:
            raise ValueError(f"an analysis lane cannot have {self.lane_size} workers")
        self.in_process = in_process
        self.warm_computer = warm_computer
        self._factory = computer  # in-process only: tests' stand-in computers
        self._computers: dict[str, Any] = {}
        self._pool: ProcessPool | None = None
        self._lane: ProcessPool | None = None
        self._closed = False

    @classmethod
    def inline(cls, *, computer: Callable[[str], Any] | None = None) -> Workers:
        """Run everything in threads of this process: offline play, tests, tools.

        ``computer(level)`` makes the computer player for a level (default: a
        :class:`~bot.computer.ComputerPlayer`); it is called once per level.
        """
        return cls(1, lane=1, in_process=True, computer=computer)

    def __repr__(self) -> str:
        kind = "in-process" if self.in_process else f"{self.size}+{self.lane_size} processes"
        return f"<Workers {kind}{' closed' if self._closed else ''}>"

    @property
    def parallel_analyses(self) -> int:
        """How many analysis calls run at once (a match's games are split over them)."""
        if self.in_process:
            return 1
        return self.lane_size or self.size

    # --- life -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Spawn the workers and wait until each has warmed up (a few seconds at most)."""
        if self._closed:
            raise RuntimeError("these workers are closed")
        if self.in_process:
            await asyncio.to_thread(_warm, self.warm_computer and self._factory is None)
            return
        started = time.perf_counter()
        pools = [self._ensure()]
        if self.lane_size:
            pools.append(self._ensure_lane())
        try:
            pids = [pid for pool in pools for pid in await pool.start()]
        except PoolError as exc:
            # A worker that fails to start (say, a main module that starts the bot again
            # on import, without `if __name__ == "__main__"`) dies before it answers.
            for pool in pools:
                await pool.close(0.0)
            self._pool = self._lane = None
            raise WorkerError("the worker processes did not start") from exc
        log.info(
            "%d worker processes ready in %.1f s (pids %s; analysis lane %s)",
            len(pids),
            time.perf_counter() - started,
            ", ".join(map(str, sorted(pids))),
            ", ".join(map(str, self._lane.pids)) if self._lane is not None else "shared",
        )

    async def close(self, timeout: float = CLOSE_TIMEOUT) -> None:
        """Stop the workers: work in flight may finish within ``timeout`` seconds, queued
        work is cancelled, and a worker still busy after that is killed. Idempotent.

        The analysis lane gets at most :data:`LANE_CLOSE_TIMEOUT`: a review it was working
        on is stored as owed and done again after the restart, so a long analysis never
        holds up a stop."""
        self._closed = True
        closing = []
        if self._pool is not None:
            closing.append(self._pool.close(timeout))
        if self._lane is not None:
            closing.append(self._lane.close(min(timeout, LANE_CLOSE_TIMEOUT)))
        self._pool = self._lane = None
        if closing:
            await asyncio.gather(*closing)

    @property
    def pids(self) -> list[int]:
        """The board workers' process ids (empty in-process or before start)."""
        return self._pool.pids if self._pool is not None else []

    @property
    def lane_pids(self) -> list[int]:
        """The analysis lane's process ids (empty in-process, before start, or shared)."""
        return self._lane.pids if self._lane is not None else []

    # --- work -----------------------------------------------------------------------------

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a board worker; ``fn`` must be a module-level function and its
        arguments and result picklable."""
        return await self._call(False, fn, args)

    async def lane_call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the analysis lane: work that may take seconds and must never
        hold up a board (analyses, reviews, charts)."""
        return await self._call(True, fn, args)

    async def _call(self, lane: bool, fn: Callable[..., T], args: tuple[Any, ...]) -> T:
        if self._closed:
            raise RuntimeError("these workers are closed")
        if self.in_process:
            return await asyncio.to_thread(fn, *args)
        pool = self._ensure_lane() if lane and self.lane_size else self._ensure()
        try:
            return await pool.call(fn, *args)
        except PoolError as exc:
            if self._closed:  # close() ended a worker that was still busy with this call
                raise WorkerError(f"the workers were closed during {_name(fn)}") from exc
            raise WorkerError(f"{exc} (during {_name(fn)})") from exc

    async def render(self, game: Game, **options: Any) -> bytes:
        """:func:`renderers.render_board` (same keyword options) in a worker."""
        return await self.call(render, game, options)

    async def render_many(
        self, jobs: Iterable[tuple[Game, dict[str, Any]]], *, lane: bool = False
    ) -> list[bytes]:
        """Pictures of several ``(game, options)`` in one round trip, in order (in the
        analysis lane with ``lane``: an analysis's mistake boards)."""
        return await self._call(lane, render_many, (list(jobs),))

    async def choose_play(self, level: str, game: Game) -> Play:
        """The computer's play in ``game`` (Phase.MOVE): one of the engine's legal plays,
        the empty play for a forced pass."""
        play: Play = await self.think(level, Thought.CHOOSE_PLAY, game)
        return play

    async def should_double(self, level: str, game: Game) -> bool:
        """Whether the computer, on roll, doubles before rolling."""
        return bool(await self.think(level, Thought.SHOULD_DOUBLE, game))

    async def cube_response(self, level: str, game: Game) -> CubeDecision:
        """The computer's answer to a double: TAKE, DROP or BEAVER."""
        return CubeDecision(await self.think(level, Thought.CUBE_RESPONSE, game))

    async def accepts_resignation(self, level: str, game: Game) -> bool:
        """Whether the computer accepts the resignation offered in ``game``."""
        return bool(await self.think(level, Thought.ACCEPTS_RESIGNATION, game))

    async def hints(self, level: str, game: Game, count: int = 3) -> list[PlayHint] | CubeHint:
        """Advice for whoever acts in ``game``: the best ``count`` plays, or the cube."""
        advice: list[PlayHint] | CubeHint = await self.think(level, Thought.HINTS, game, count)
        return advice

    async def position_hints(self, game: Game, count: int) -> list[PlayHint] | CubeHint:
        """The analysis of a position a player asked about, in the analysis lane: the
        best ``count`` plays, or the cube decision (the hint machinery, noise-free)."""
        if self.in_process and self._factory is not None:
            return await asyncio.to_thread(self._local(DEFAULT_LEVEL).hints, game, count)
        return await self.lane_call(position_hints, game, count)

    async def rollout_play(self, game: Game, result: Position, seed: int) -> RolledOut:
        """:func:`rollout_play` in the analysis lane."""
        return await self.lane_call(rollout_play, game, result, seed)

    async def rollout_cube(self, game: Game, seed: int) -> CubeRollout:
        """:func:`rollout_cube` in the analysis lane."""
        return await self.lane_call(rollout_cube, game, seed)

    async def think(self, level: str, thought: Thought, game: Game, *args: Any) -> Any:
        """``ComputerPlayer(level).<thought>(game, *args)`` in a board worker (in a thread
        with a stand-in computer). The typed methods above are the ones to call."""
        thought = Thought(thought)  # an unknown name is refused here, before any worker
        if self.in_process and self._factory is not None:
            return await asyncio.to_thread(getattr(self._local(level), thought.value), game, *args)
        return await self.call(think, level, thought, game, args)

    async def analyze(
        self, decisions: Sequence[tuple[Game, Decision]], *, level: str, players: Iterable[int]
    ) -> dict[int, PlayerAnalysis]:
        """Error rates of ``players`` over ``decisions`` (see ComputerPlayer.analyze), in
        the analysis lane."""
        players = tuple(players)
        if self.in_process and self._factory is not None:
            local = self._local(level)
            return await asyncio.to_thread(local.analyze, list(decisions), players=players)
        return await self.lane_call(analyze, list(decisions), level, players)

    async def analyze_log(
        self,
        options: MatchOptions,
        events: Sequence[EventRecord],
        *,
        level: str,
        players: Iterable[int],
    ) -> dict[int, PlayerAnalysis]:
        """Replay a match's event log (``bot.core.replay.decisions_from_events``) and analyse
        the decisions of ``players``, all in the analysis lane."""
        players = tuple(players)
        if self.in_process and self._factory is not None:

            def work() -> dict[int, PlayerAnalysis]:
                decisions = decisions_from_events(options, events)
                return self._local(level).analyze(decisions, players=players)

            return await asyncio.to_thread(work)
        return await self.lane_call(analyze_log, options, list(events), level, players)

    async def review_log(
        self,
        options: MatchOptions,
        events: Sequence[EventRecord],
        *,
        level: str,
        players: Iterable[int],
        game_number: int | None = None,
    ) -> tuple[dict[int, PlayerAnalysis], MatchLuck]:
        """Skill and luck of a match from its event log, in the analysis lane:
        ``(analyses, luck)`` (``bot.core.session.Review`` holds them with the match row)."""
        players = tuple(players)
        if self.in_process and self._factory is not None:
            return await asyncio.to_thread(
                _review_with, self._local(level), options, events, players, game_number
            )
        return await self.lane_call(review_log, options, list(events), level, players, game_number)

    # --- internals ------------------------------------------------------------------------

    def _local(self, level: str) -> Any:
        player = self._computers.get(level)
        if player is None:
            assert self._factory is not None
            player = self._computers[level] = self._factory(level)
        return player

    def _ensure(self) -> ProcessPool:
        if self._pool is None:
            self._pool = ProcessPool(self.size, _init_worker, (self.warm_computer,))
        return self._pool

    def _ensure_lane(self) -> ProcessPool:
        if self._lane is None:
            self._lane = ProcessPool(self.lane_size, _init_lane, (self.warm_computer,))
        return self._lane


def _name(fn: Callable[..., Any]) -> str:
    return getattr(fn, "__qualname__", repr(fn))
