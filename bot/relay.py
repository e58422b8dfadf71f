"""Facts across processes: each stored change of a match told to the other processes on the
same PostgreSQL, with ``NOTIFY``/``LISTEN``.

With several shard processes (or a web process beside them, ``python -m bot web``), a game
is played in one process and watched from another. The fact bus (:mod:`bot.core.facts`) is one
process's; here every process on PostgreSQL sends, after each stored change, a
notification naming the match, its new version and the action (:class:`Changed`, a few
bytes of JSON, never the game itself), and a process serving the web board listens: it
re-reads the row and hands it to its live boards, as if the change had been made there.
A notification carries its sender, so a process never hears its own changes twice.

What this promises: a watcher sees every change whose notification arrives. PostgreSQL
delivers a notification to every listener connected when it is sent; one sent while a
listener is reconnecting is lost, so after reconnecting the listener tells its owner to
re-read everything watched (``on_resync``). A notification is sent after the change is
stored: a process killed between the two leaves watchers one change behind until the next
change of that match (or a reload of the page). SQLite has one process: nothing to relay.

May import: asyncpg (lazily: only a bot on PostgreSQL needs it), :mod:`bot.core.facts`,
:mod:`bot.core.records`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.facts import ActionTaken, Fact, FactBus
from bot.core.records import Action

log = logging.getLogger(__name__)

CHANNEL = "gammon_facts"  # the NOTIFY channel every process on the database shares
RECONNECT_PAUSES = (0.5, 1.0, 2.0, 5.0, 10.0)  # seconds, the last repeated
QUEUE_LIMIT = 10_000  # notifications waiting to be sent; past it the oldest are dropped


@dataclass(frozen=True, slots=True)
class Changed:
    """One stored change, as one process tells the others."""

    origin: str  # the sending process (a random token per process)
    match_id: int
    version: int
    channel_id: int
    home_channel_id: int | None
    action: Action

    def payload(self) -> str:
        return json.dumps(
            {
                "o": self.origin,
                "m": self.match_id,
                "v": self.version,
                "c": self.channel_id,
                "h": self.home_channel_id,
                "a": self.action.value,
            },
            separators=(",", ":"),
        )

    @classmethod
    def parse(cls, payload: str) -> Changed | None:
        """The change a payload names; None for one this version cannot read (a newer
        process's, or a stranger's on the same channel): it is skipped, never fatal."""
        try:
            data = json.loads(payload)
            home = data["h"]
            return cls(
                origin=str(data["o"]),
                match_id=int(data["m"]),
                version=int(data["v"]),
                channel_id=int(data["c"]),
                home_channel_id=None if home is None else int(home),
                action=Action(data["a"]),
            )
        except (ValueError, KeyError, TypeError):
            return None


def new_origin() -> str:
    return secrets.token_hex(8)


class FactNotifier:
    """Sends a :class:`Changed` for every :class:`ActionTaken` this process publishes.

    Off the action's path: hearing a fact only queues it, and a task of its own sends the
    queue in order on its own small pool (one connection), so a slow or absent server never
    delays a player's answer and the store's code needs no change. A notification that
    cannot be sent (the server away) is logged and dropped, as is the oldest queued one past
    :data:`QUEUE_LIMIT`: the change itself is stored; only watchers elsewhere lag.
    """

    def __init__(self, url: str, origin: str) -> None:
        self.url = url
        self.origin = origin
        self._pool: Any = None
        self._unsubscribe: Callable[[], None] | None = None
        self._queue: collections.deque[Changed] = collections.deque(maxlen=QUEUE_LIMIT)
        self._bell = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self.sent = 0

    @property
    def pending(self) -> int:
        """Notifications queued, not yet sent."""
        return len(self._queue)

    async def start(self, facts: FactBus) -> None:
        import asyncpg

        self._pool = await asyncpg.create_pool(self.url, min_size=0, max_size=1, timeout=10)
        self._sender = asyncio.create_task(self._send(), name="fact-notifier")
        self._unsubscribe = facts.subscribe(self.hear)

    async def close(self, flush: float = 2.0) -> None:
        """Stop hearing, send what is queued (for up to ``flush`` seconds), close."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._sender is not None:
            deadline = asyncio.get_running_loop().time() + flush
            while self._queue and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.01)
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sender
            self._sender = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def hear(self, facts: Sequence[Fact]) -> None:
        for fact in facts:
            if isinstance(fact, ActionTaken):
                row = fact.match
                self._queue.append(
                    Changed(
                        self.origin,
                        row.id,
                        row.version,
                        row.channel_id,
                        row.home_channel_id,
                        fact.action,
                    )
                )
                self._bell.set()

    async def _send(self) -> None:
        while True:
            if not self._queue:
                self._bell.clear()
                await self._bell.wait()
                continue
            changed = self._queue[0]
            try:
                await self._pool.execute("SELECT pg_notify($1, $2)", CHANNEL, changed.payload())
                self.sent += 1
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the change is stored; only the watchers lag
                log.warning(
                    "could not tell the other processes of match %s: %s", changed.match_id, exc
                )
            if self._queue and self._queue[0] is changed:
                self._queue.popleft()


OnChange = Callable[[Changed], Awaitable[None]]
OnResync = Callable[[], Awaitable[None]]


class FactListener:
    """Listens on its own connection and hands other processes' changes to ``on_change``;
    reconnects after losing the server, then calls ``on_resync`` (changes sent meanwhile
    were not delivered)."""

    def __init__(self, url: str, origin: str, on_change: OnChange, on_resync: OnResync) -> None:
        self.url = url
        self.origin = origin
        self.on_change = on_change
        self.on_resync = on_resync
        self._task: asyncio.Task[None] | None = None
        self._worker: asyncio.Task[None] | None = None
        # One at a time, in the order sent: a re-read row never overtakes a newer one.
        self._queue: asyncio.Queue[Changed] = asyncio.Queue()
        self.listening = asyncio.Event()  # set while LISTEN is in force (tests wait on it)
        self.heard = 0

    async def start(self) -> None:
        """Listen; returns once the first LISTEN is in force (or after 10 s of trying)."""
        self._task = asyncio.create_task(self._run(), name="fact-listener")
        self._worker = asyncio.create_task(self._work(), name="fact-follower")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listening.wait(), 10)

    async def stop(self) -> None:
        for task in (self._task, self._worker):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = self._worker = None

    async def _run(self) -> None:
        import asyncpg

        failures = 0
        first = True
        while True:
            lost = asyncio.Event()
            connection = None
            try:
                connection = await asyncpg.connect(self.url, timeout=10)
                connection.add_termination_listener(lambda _c, lost=lost: lost.set())
                await connection.add_listener(CHANNEL, self._notified)
                self.listening.set()
                if not first:
                    log.info("listening to the other processes again")
                    await self.on_resync()
                first, failures = False, 0
                await lost.wait()
                log.warning("lost the database connection that hears the other processes")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("cannot listen to the other processes: %s", exc)
            finally:
                self.listening.clear()
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.close(timeout=2)
            await asyncio.sleep(RECONNECT_PAUSES[min(failures, len(RECONNECT_PAUSES) - 1)])
            failures += 1
            first = False

    def _notified(self, _connection: object, _pid: int, _channel: str, payload: object) -> None:
        changed = Changed.parse(str(payload))
        if changed is None or changed.origin == self.origin:
            return
        self.heard += 1
        self._queue.put_nowait(changed)

    async def _work(self) -> None:
        while True:
            changed = await self._queue.get()
            try:
                await self.on_change(changed)
            except Exception:
                log.exception("could not follow match %s from another process", changed.match_id)


__all__ = ["CHANNEL", "Changed", "FactListener", "FactNotifier", "new_origin"]
