"""A pool of worker processes driven by the event loop itself: no helper threads.

``concurrent.futures.ProcessPoolExecutor`` hands every call through two threads of the
calling process (its manager and its queue feeder) and the result back through the first:
three times a thread must win the GIL from a busy event loop, each a wait of up to the
interpreter's switch interval (5 ms). Here the loop writes a call straight into the
worker's pipe and reads the answer from the other pipe when it is readable.

A call is ``fn(*args)`` pickled (``fn`` a module-level function); its answer is the result
or the exception it raised, pickled back. Messages use :mod:`multiprocessing.connection`'s
framing (a 4-byte big-endian length, or -1 and an 8-byte one), so the worker side is a
plain :class:`~multiprocessing.connection.Connection`. Workers are ``spawn``-ed (the bot
has threads, which ``fork`` would copy half-way).

A worker that dies (killed, out of memory, a crash in C code) fails its call with
:class:`PoolError` and is replaced; one that dies before it is ready fails the start.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import multiprocessing
import os
import pickle
import struct
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from bot.executor_pool import PoolError

log = logging.getLogger(__name__)

_SHORT = struct.Struct("!i")
_LONG = struct.Struct("!Q")


def frame(payload: bytes) -> bytes:
    """``payload`` framed as :meth:`Connection.send_bytes` frames it.

    >>> frame(b"abc")
    b'\\x00\\x00\\x00\\x03abc'
    """
    if len(payload) > 0x7FFFFFFF:
        return _SHORT.pack(-1) + _LONG.pack(len(payload)) + payload
    return _SHORT.pack(len(payload)) + payload


def serve(
    requests: Connection,
    answers: Connection,
    initializer: Callable[..., None],
    initargs: tuple[Any, ...],
) -> None:
    """A worker's life: warm up, say so, then answer calls until the pipe closes.

    A parent that died (killed, crashed) closes both pipes with it: the worker notices at
    its next read or write and exits quietly, with no traceback on the service's log.
    """
    initializer(*initargs)
    try:
        answers.send_bytes(pickle.dumps(os.getpid()))
    except OSError:  # the parent is gone already (BrokenPipeError is an OSError)
        return _quit(requests, answers)
    while True:
        try:
            request = requests.recv_bytes()
        except (EOFError, OSError):  # the pool closed the pipe, or the bot is gone
            return _quit(requests, answers)
        try:
            fn, args = pickle.loads(request)
            answer: tuple[bool, Any] = (True, fn(*args))
        except BaseException as exc:  # the caller gets it, as it was raised
            answer = (False, exc)
        try:
            payload = pickle.dumps(answer)
        except Exception as exc:  # an unpicklable result or exception
            payload = pickle.dumps((False, PoolError(f"the answer cannot be sent: {exc!r}")))
        try:
            answers.send_bytes(payload)
        except OSError:  # nobody is listening any more: the parent died during the call
            return _quit(requests, answers)


def _quit(requests: Connection, answers: Connection) -> None:
    for connection in (answers, requests):
        with contextlib.suppress(OSError):
            connection.close()


class _Reader(asyncio.Protocol):
    """Cuts the answer pipe's bytes into messages."""

    def __init__(self, worker: _Worker) -> None:
        self.worker = worker
        self.buffer = bytearray()

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        start = 0
        while True:
            available = len(buffer) - start
            if available < 4:
                break
            (size,) = _SHORT.unpack_from(buffer, start)
            head = 4
            if size == -1:
                if available < 12:
                    break
                (size,) = _LONG.unpack_from(buffer, start + 4)
                head = 12
            if available < head + size:
                break
            message = buffer[start + head : start + head + size]  # one copy: pickle reads it
            start += head + size
            self.worker.received(message)
        if start:
            del buffer[:start]

    def connection_lost(self, exc: Exception | None) -> None:
        self.worker.ended()


class _Worker:
    """One worker process, its two pipes, and the call it is answering."""

    def __init__(self, pool: ProcessPool) -> None:
        self.pool = pool
        self.process: Any = None
        self.pid: int | None = None
        self.ready: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.current: asyncio.Future[Any] | None = None
        self.writer: asyncio.WriteTransport | None = None
        self.reader: asyncio.ReadTransport | None = None
        self.gone = asyncio.Event()

    async def spawn(self) -> None:
        pool = self.pool
        context = multiprocessing.get_context("spawn")
        child_requests, requests = context.Pipe(duplex=False)
        answers, child_answers = context.Pipe(duplex=False)
        self.process = context.Process(
            target=serve,
            args=(child_requests, child_answers, pool.initializer, pool.initargs),
            daemon=True,
        )
        try:
            self.process.start()
        finally:
            child_requests.close()  # the child's ends: only the child may hold them, so
            child_answers.close()  # that its death is an end of file here
        # The transports own the pipes' files from here and close them.
        loop = asyncio.get_running_loop()
        requests_file = open(_take_fd(requests), "wb", buffering=0)  # noqa: SIM115
        answers_file = open(_take_fd(answers), "rb", buffering=0)  # noqa: SIM115
        self.writer, _ = await loop.connect_write_pipe(asyncio.Protocol, requests_file)
        self.reader, _ = await loop.connect_read_pipe(lambda: _Reader(self), answers_file)

    def send(
        self, fn: Callable[..., Any], args: tuple[Any, ...], future: asyncio.Future[Any]
    ) -> None:
        """Hand ``fn(*args)`` to this worker; ``future`` gets its answer."""
        assert self.current is None and self.writer is not None
        self.writer.write(frame(pickle.dumps((fn, args))))  # raises if it cannot pickle
        self.current = future

    def received(self, message: bytes | bytearray) -> None:
        try:
            value = pickle.loads(message)
        except Exception as exc:  # the worker's answer names something this side lacks
            value = (False, PoolError(f"an answer could not be read: {exc!r}"))
        if not self.ready.done():
            self.pid = value
            self.ready.set_result(value)
            self.pool.idle(self)
            return
        future, self.current = self.current, None
        ok, result = value
        if future is not None and not future.done():
            if ok:
                future.set_result(result)
            else:
                future.set_exception(result)
        self.pool.idle(self)

    def ended(self) -> None:
        """The answer pipe closed: the process has exited (or closed it and will)."""
        if self.gone.is_set():
            return
        self.gone.set()
        if self.writer is not None:
            self.writer.close()
        if not self.ready.done():
            self.ready.set_exception(PoolError("a worker process ended before it was ready"))
            self.ready.exception()  # start() may not be waiting for it: no warning
        future, self.current = self.current, None
        if future is not None and not future.done():
            future.set_exception(PoolError("a worker process died"))
        self.pool.lost(self)

    def close_requests(self) -> None:
        """No more calls: the worker ends once it has answered the one it is on."""
        if self.writer is not None and not self.writer.is_closing():
            self.writer.close()

    def kill(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.kill()


def _take_fd(connection: Connection) -> int:
    """The file descriptor of ``connection``, now owned by the caller."""
    fd = os.dup(connection.fileno())
    connection.close()
    return fd


class ProcessPool:
    """``size`` worker processes, each warmed by ``initializer(*initargs)`` once.

    Calls queue in order and go to whichever worker is free. Use in one event loop:
    :meth:`start`, :meth:`call`, :meth:`close`.
    """

    def __init__(
        self, size: int, initializer: Callable[..., None], initargs: tuple[Any, ...] = ()
    ) -> None:
        self.size = size
        self.initializer = initializer
        self.initargs = initargs
        self._workers: list[_Worker] = []
        self._free: collections.deque[_Worker] = collections.deque()
        self._queue: collections.deque[
            tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]
        ] = collections.deque()
        self._closed = False
        self._started = False

    @property
    def pids(self) -> list[int]:
        return sorted(w.pid for w in self._workers if w.pid is not None and not w.gone.is_set())

    async def start(self) -> list[int]:
        """Spawn the workers and wait until each is warm; their process ids."""
        self._started = True
        workers = [_Worker(self) for _ in range(self.size)]
        self._workers.extend(workers)
        try:
            for worker in workers:
                await worker.spawn()
            return list(await asyncio.gather(*(w.ready for w in workers)))
        except BaseException:
            await self.close(0.0)
            raise

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in a worker: its result, or the exception it raised."""
        if self._closed:
            raise PoolError("the pool is closed")
        if not self._started:
            await self.start()
        if not self._workers:  # every worker died and none could be started again
            raise PoolError("no worker process is running")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append((fn, args, future))
        self._dispatch()
        return await future

    async def close(self, timeout: float) -> None:
        """Queued calls fail; calls in flight may finish within ``timeout`` seconds, then
        the workers still busy are killed. Idempotent."""
        self._closed = True
        while self._queue:
            _, _, future = self._queue.popleft()
            if not future.done():
                future.set_exception(PoolError("the pool was closed"))
        for worker in self._workers:
            worker.close_requests()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        waiting = [w.gone.wait() for w in self._workers if not w.gone.is_set()]
        if waiting:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*waiting), max(timeout, 0.001))
        for worker in self._workers:
            process = worker.process
            if process is None or process.pid is None:
                continue
            # Its pipe closes a moment before the process is gone: wait for the exit
            # itself, within what is left of the time, before calling it busy.
            left = deadline - loop.time()
            if process.is_alive() and left > 0:
                await asyncio.to_thread(process.join, left)
            if process.is_alive():
                log.warning("worker %s still busy after %.1f s: killing it", worker.pid, timeout)
                worker.kill()
            await asyncio.to_thread(process.join, 10.0)
        for worker in self._workers:
            if worker.reader is not None:
                worker.reader.close()
            if worker.writer is not None:
                worker.writer.close()
            worker.ended()  # the call still on it, if any, fails

    # --- internals ------------------------------------------------------------------------

    def idle(self, worker: _Worker) -> None:
        self._free.append(worker)
        self._dispatch()

    def lost(self, worker: _Worker) -> None:
        with contextlib.suppress(ValueError):
            self._free.remove(worker)
        if self._closed:
            return
        with contextlib.suppress(ValueError):
            self._workers.remove(worker)
        if worker.process is not None:  # reap it
            asyncio.get_running_loop().run_in_executor(None, worker.process.join, 10.0)
        if worker.pid is None:
            # It died before it was ready: a replacement would too. What waits fails,
            # unless a worker that did start is still there to answer it.
            log.error("a worker process ended before it was ready")
            if self.pids:
                return
            while self._queue:
                _, _, future = self._queue.popleft()
                if not future.done():
                    future.set_exception(PoolError("the worker processes did not start"))
            return
        log.error("worker process %s died; starting another", worker.pid)
        replacement = _Worker(self)
        self._workers.append(replacement)
        task = asyncio.ensure_future(replacement.spawn())
        task.add_done_callback(lambda done: self._replacement_started(replacement, done))

    def _replacement_started(self, worker: _Worker, task: asyncio.Future[None]) -> None:
        """A replacement that could not even be spawned counts as one that died before it
        was ready: the calls waiting for it fail instead of waiting for ever."""
        if task.cancelled() or task.exception() is None:
            return
        log.error("a replacement worker could not start: %r", task.exception())
        worker.kill()
        worker.ended()

    def _dispatch(self) -> None:
        while self._queue and self._free:
            worker = self._free.popleft()
            if worker.gone.is_set():
                continue
            fn, args, future = self._queue.popleft()
            if future.done():  # its caller gave up (cancelled)
                self._free.appendleft(worker)
                continue
            try:
                worker.send(fn, args, future)
            except Exception as exc:  # the call cannot be pickled
                self._free.appendleft(worker)
                future.set_exception(exc)
