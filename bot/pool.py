"""Worker processes from :class:`concurrent.futures.ProcessPoolExecutor`, kept to the
promises :class:`bot.workers.Workers` makes.

(A pool driven by the event loop, with no helper threads, stood here until 2026-11-25: it
saved about half a millisecond of the bot's CPU per call, but a sweep of the whole bot
(benchmarks/e2e.py, both sides alternating) showed no difference in the p99 of a move at 40
boards/s or in the rate where it passes 250 ms beyond the noise of the machine;
docs/benchmarks.md.)

The standard library's pool does the pipes, the queue and the pickling. What it does not do
is done here:

- A worker that dies (killed, out of memory, a crash in C code) *breaks* an executor: its
  other workers are ended too and every later call is refused. Every call it held, running
  or queued, fails with :class:`PoolError` and a new executor takes its place at once
  (spawned and warming while the callers hear of the failure), so the next call works.
- :meth:`ProcessPool.close` lets the calls in flight finish within a timeout, then kills the
  workers still busy; queued calls fail with :class:`PoolError`, never as a cancellation of
  the caller.
- A worker whose bot died outright (``kill -9``, a crash) exits: the executor's workers
  would otherwise wait on their queue for ever, holding their memory.

The executor's own thread joins (and so reaps) its processes: this module only watches their
sentinels, since two waiters on one child race to reap it and one then waits in vain.
Workers are ``spawn``-ed (the bot has threads, which ``fork`` would copy half-way).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import wait
from typing import Any

log = logging.getLogger(__name__)


class PoolError(RuntimeError):
    """A worker process ended (or never started) while it had work."""


def _start_worker(initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker's first act: watch for its parent's end, then warm up."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    initializer(*initargs)


def _exit_with(parent: Any) -> None:
    """Wait for the parent to end, then end this process, quietly (no traceback)."""
    parent.join()
    os._exit(0)


def _wait_all(sentinels: list[int], timeout: float) -> set[int]:
    """The sentinels of ``sentinels`` that became ready (their process ended) within
    ``timeout`` seconds; returns early once all have."""
    deadline = time.monotonic() + timeout
    ended: set[int] = set()
    while len(ended) < len(sentinels):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        ready = wait([s for s in sentinels if s not in ended], left)
        ended.update(s for s in ready if isinstance(s, int))
    return ended


class ProcessPool:
    """``size`` worker processes, each warmed by ``initializer(*initargs)`` once.

    Use in one event loop: :meth:`start`, :meth:`call`, :meth:`close`.
    """

    def __init__(
        self, size: int, initializer: Callable[..., None], initargs: tuple[Any, ...] = ()
    ) -> None:
        self.size = size
        self.initializer = initializer
        self.initargs = initargs
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    @property
    def pids(self) -> list[int]:
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return sorted(processes)

    async def start(self) -> list[int]:
        """Spawn the workers and wait until each is warm; their process ids."""
        executor = self._ensure()
        try:
            # Submitted together, before any worker is idle: each starts a process.
            await asyncio.gather(*(self._warming(executor)))
        except (BrokenProcessPool, OSError) as exc:
            await self.close(0.0)
            raise PoolError("the worker processes did not start") from exc
        return self.pids

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker: its result, or the exception it raised."""
        if self._closed:
            raise PoolError("the pool is closed")
        executor = self._ensure()
        try:
            try:
                future = executor.submit(fn, *args)
            except BrokenProcessPool:  # broken by a death no call of ours has reported yet
                executor = self._replace(executor)
                future = executor.submit(fn, *args)
        except OSError as exc:  # no process can be started (out of memory, of pids)
            self._forget_executor(executor)
            raise PoolError(f"no worker process could be started: {exc}") from exc
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool as exc:
            if not self._closed:
                self._replace(executor)
            raise PoolError("a worker process died") from exc
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if future.cancelled() and (task is None or not task.cancelling()):
                # Dropped by close() or with an executor given up, not by its caller.
                if self._closed:
                    raise PoolError("the pool was closed") from None
                raise PoolError("no worker process started") from None
            raise

    async def close(self, timeout: float) -> None:
        """Queued calls fail; calls in flight may finish within ``timeout`` seconds, then
        the workers still busy are killed. Idempotent."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is None:
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())
        manager: threading.Thread | None = getattr(executor, "_executor_manager_thread", None)
        executor.shutdown(wait=False, cancel_futures=True)  # forgets its thread: kept above
        sentinels = {process.sentinel: process for process in processes}
        ended = await asyncio.to_thread(_wait_all, list(sentinels), timeout)
        for sentinel, process in sentinels.items():
            if sentinel not in ended:  # deep in a call (it ignores SIGTERM: _init_worker)
                log.warning("worker %s still busy after %.1f s: killing it", process.pid, timeout)
                process.kill()
        if manager is not None:  # it reaps the processes, then ends
            await asyncio.to_thread(manager.join, 10.0)

    # --- internals ------------------------------------------------------------------------

    def _ensure(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.size,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(self.initializer, self.initargs),
            )
        return self._executor

    def _warming(self, executor: ProcessPoolExecutor) -> list[asyncio.Future[int]]:
        return [asyncio.wrap_future(executor.submit(os.getpid)) for _ in range(self.size)]

    def _replace(self, broken: ProcessPoolExecutor) -> ProcessPoolExecutor:
        """After a worker died: a new executor, its workers spawned and warming now rather
        than at the next call. Once per broken executor, however many calls it failed."""
        if self._executor is not broken:  # replaced already
            return self._ensure()
        log.error("a worker process died; starting a new pool")
        self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)  # its thread reaps what is left
        fresh = self._ensure()
        try:
            for warming in self._warming(fresh):
                warming.add_done_callback(_forget)
        except OSError as exc:  # the calls will say so; each tries again
            log.error("no worker process could be started: %s", exc)
        return fresh

    def _forget_executor(self, executor: ProcessPoolExecutor) -> None:
        """An executor that could not start a process is dropped (the next call makes a
        new one): what was handed to it may otherwise wait for a worker for ever."""
        if self._executor is executor:
            self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)


def _forget(future: asyncio.Future[int]) -> None:
    """A warm-up call's answer is not needed: its failure is the next call's to report."""
    if not future.cancelled():
        future.exception()
