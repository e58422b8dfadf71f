"""The PostgreSQL store's connections, and what a player hears when the server is gone.

A server that stops (``pg_ctl stop``, a crash, a failover), runs out of disk or
connections, or is still starting, must neither stop the bot nor be reported as something
it is not. Here every such failure becomes one of two errors the player reads
(:mod:`bot.core.errors`):

* :class:`~bot.core.errors.StoreUnavailableError` when nothing can have been written: the
  connection could not be had, a read failed, or the transaction never reached COMMIT
  (PostgreSQL discards an uncommitted transaction whose session ends);
* :class:`~bot.core.errors.StoreInDoubtError` when a write was sent and no answer came: the
  COMMIT (or a lone statement's implicit one) may have been applied just before the server
  went, so the player is told to look at the game before trying again.

Nothing is retried here: the action fails at once with its truthful answer, and asyncpg's
pools open fresh connections for the next one once the server is back, so the bot recovers
without a restart. A channel's advisory lock lives on its own connection, which dies with
the server and takes the lock with it; a dead lock connection is discarded on release,
never handed to the next action.

May import asyncpg and :mod:`bot.core.errors`; nothing of the bot above the store.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg

from bot.core.errors import StoreInDoubtError, StoreUnavailableError

log = logging.getLogger(__name__)

# What a server that went away (or cannot take us now) looks like from asyncpg: the socket
# refused, reset or missing (OSError, TimeoutError among them), the session ended under a
# statement (class 08), an operator's or a crash's shutdown, or a server still recovering
# (class 57), no disk, memory or connection slots left (class 53).
LOST: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InsufficientResourcesError,
)


# Advisory lock keys are two int4: a namespace of ours, then what is locked.
SCHEMA_LOCK = (0x67616D00, 0)  # "gam\0": migrations
CHANNEL_NAMESPACE = 0x67616D01  # "gam\1": one key per channel


def channel_key(channel_id: int) -> int:
    """A channel's advisory lock key: 64-bit snowflake folded into a signed int4.

    Two channels sharing a key only wait for each other; they never mix their rows.
    """
    folded = (channel_id ^ (channel_id >> 32)) & 0xFFFFFFFF
    return folded - (1 << 32) if folded >= 1 << 31 else folded


async def keep_session(conn: asyncpg.Connection) -> None:
    """The statement pool's reset: nothing to undo (its sessions take no locks and change
    no settings; an open transaction is still rolled back by asyncpg), and asyncpg's full
    reset would cost a round trip after every statement."""


def row_count(reply: str) -> int:
    """The row count of a command tag such as ``UPDATE 1`` (0 for one with no count, such
    as ``CREATE TABLE``)."""
    last = reply.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def is_lost(exc: BaseException) -> bool:
    """Whether ``exc`` says the server (or our connection to it) is gone."""
    if isinstance(exc, LOST):
        return True
    # asyncpg answers a call on a connection it has already given up (the server went away
    # under it and its pool took the connection back) with a bare InterfaceError, told apart
    # only by its words.
    words = str(exc)
    return isinstance(exc, asyncpg.InterfaceError) and (
        "connection is closed" in words or "released back to the pool" in words
    )


def _reason(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@contextlib.contextmanager
def nothing_written(what: str) -> Iterator[None]:
    """A lost server inside this block is :class:`StoreUnavailableError`: nothing written."""
    try:
        yield
    except Exception as exc:
        if not is_lost(exc):
            raise
        log.warning("database unavailable (%s): %s", what, _reason(exc))
        raise StoreUnavailableError() from exc


@contextlib.contextmanager
def maybe_written(what: str) -> Iterator[None]:
    """A lost server inside this block is :class:`StoreInDoubtError`: a write was sent."""
    try:
        yield
    except Exception as exc:
        if not is_lost(exc):
            raise
        log.warning("database lost with a write in flight (%s): %s", what, _reason(exc))
        raise StoreInDoubtError() from exc


class Link:
    """The statement pool, with each call's failure told truthfully.

    Reads answer :class:`StoreUnavailableError`; a lone write statement (autocommit) whose
    answer never came answers :class:`StoreInDoubtError`, though one that could not get a
    connection wrote nothing.
    """

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        with nothing_written("read"):
            return list(await self.pool.fetch(sql, *args))

    async def fetchrow(self, sql: str, *args: Any) -> Any:
        with nothing_written("read"):
            return await self.pool.fetchrow(sql, *args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        with nothing_written("read"):
            return await self.pool.fetchval(sql, *args)

    async def write(self, sql: str, *args: Any) -> str:
        """One statement in a transaction of its own; its command tag (``UPDATE 1``)."""
        async with self.connection() as conn, _in_doubt("write"):
            return str(await conn.execute(sql, *args))

    async def write_row(self, sql: str, *args: Any) -> Any:
        """One writing statement that returns a row (``... RETURNING``)."""
        async with self.connection() as conn, _in_doubt("write"):
            return await conn.fetchrow(sql, *args)

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool; failing to get one wrote nothing."""
        with nothing_written("connect"):
            conn = await self.pool.acquire()
        try:
            yield conn
        finally:
            await release(self.pool, conn)


@contextlib.asynccontextmanager
async def _in_doubt(what: str) -> AsyncIterator[None]:
    with maybe_written(what):
        yield


async def release(pool: asyncpg.Pool, conn: asyncpg.Connection) -> None:
    """Give a connection back; one the server dropped is discarded, never raised about.

    Releasing resets the session (rolling back, unlocking what it held); on a connection
    whose server is gone that reset fails, and the pool must replace it with a fresh one.
    """
    try:
        await pool.release(conn)
    except Exception as exc:
        if not is_lost(exc):
            raise
        # asyncpg terminated it already: its slot is back in the pool, to reconnect later.
        log.info("discarded a connection the server dropped: %s", _reason(exc))


__all__ = [
    "CHANNEL_NAMESPACE",
    "LOST",
    "SCHEMA_LOCK",
    "Link",
    "channel_key",
    "is_lost",
    "keep_session",
    "maybe_written",
    "nothing_written",
    "release",
    "row_count",
]
