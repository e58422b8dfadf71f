"""PostgreSQL persistence (asyncpg), for several bot processes sharing one database.

The same tables, rows and behaviour as the SQLite store (:mod:`bot.storage.sqlite`); what
changes is how processes stay out of each other's way:

* ``channel_lock`` holds a session advisory lock for the channel on a connection of its own
  for the whole action, so two processes never interleave actions in one channel;
* every write is ``UPDATE ... WHERE version = $n`` inside one transaction with its events,
  results and statistics, so an action is applied at most once whoever races it;
* a finished game locks its players' rows in user-id order (an upsert that returns the row,
  which is ``SELECT ... FOR UPDATE`` that also creates a missing player; the statement is
  shared, :mod:`.action`): two matches sharing a player finish one after the other, never
  deadlock, and no rating is lost;
* migrations run under a transaction-scoped advisory lock, so processes starting together
  migrate once;
* a server that goes away mid-game is reported to the player truthfully and survived
  without a restart (:mod:`.pg_link`, which also holds the lock keys and the connections'
  plumbing).

Every query the two backends share is in :mod:`bot.storage.shared`, an action's statements
in :mod:`bot.storage.action`, over the primitives this class implements
(:class:`~bot.storage.base.StoreBase`); rows are read and written in :mod:`bot.storage.rows`; the
statistics policy is plain code (:mod:`bot.storage.stats`). Here: the pools, the advisory
locks, migrations, a transaction's truthful failures, and copying in with ``COPY``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any, ClassVar

import asyncpg

from bot.core.errors import ConflictError, StoreOpenError, StoreUnavailableError
from bot.core.records import Change, MatchRow
from bot.storage import redact
from bot.storage.dialect import Tx
from bot.storage.pg_link import (
    CHANNEL_NAMESPACE,
    SCHEMA_LOCK,
    Link,
    channel_key,
    is_lost,
    keep_session,
    maybe_written,
    nothing_written,
    release,
    row_count,
)
from bot.storage.pg_schema import MIGRATIONS
from bot.storage.shared import SQLStore

log = logging.getLogger(__name__)


class PgTx:
    """A transaction's asyncpg connection as a :class:`~bot.storage.dialect.Tx`: ``execute``
    says how many rows it changed, as SQLite's cursor does."""

    __slots__ = ("_conn",)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self._conn.fetch(sql, *args))

    async def execute(self, sql: str, *args: Any) -> int:
        return row_count(str(await self._conn.execute(sql, *args)))

    async def executemany(self, sql: str, args: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, args)


class PostgresStore(SQLStore):
    """The database on a PostgreSQL server. Open with :meth:`open`; all methods are coroutines.

    Two pools: one for statements, one whose connections each hold a channel's advisory
    lock for the length of an action. An action holding a lock still reads and writes
    through the first pool, so the locks can never starve the statements they wait for.
    """

    _unique_violation: ClassVar[tuple[type[Exception], ...]] = (asyncpg.UniqueViolationError,)
    # Rows a transaction reads and writes back stay locked to its end (see Database).
    row_lock: ClassVar[str] = " FOR NO KEY UPDATE"

    def __init__(self, pool: asyncpg.Pool, locks: asyncpg.Pool, url: str) -> None:
        super().__init__()
        self._pool = pool
        self._db = Link(pool)  # the pool, each failure of the server told truthfully
        self._locks = locks
        self.url = url
        self.path = redact(url)  # what messages name, as the SQLite store's path

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 16) -> PostgresStore:
        """Connect and migrate; :class:`StoreOpenError` (one line, no password) on failure."""
        pool = locks = None
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=pool_size,
                timeout=10,
                command_timeout=60,
                reset=keep_session,
            )
            locks = await asyncpg.create_pool(url, min_size=0, max_size=pool_size, timeout=10)
            store = cls(pool, locks, url)
            await store._migrate()
        except (
            OSError,
            ValueError,
            asyncpg.PostgresError,
            asyncpg.InterfaceError,
            TimeoutError,
        ) as exc:
            for opened in (pool, locks):
                if opened is not None:
                    opened.terminate()
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise StoreOpenError(f"cannot open the database {redact(url)}: {reason}") from exc
        return store

    async def _migrate(self) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            # Processes starting together queue here; the first migrates, the rest find
            # the work done.
            await conn.execute("SELECT pg_advisory_xact_lock($1, $2)", *SCHEMA_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                "migrated_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            version = await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
            for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
                log.info("migrating database %s to schema version %d", self.path, number)
                await conn.execute(script)
                await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)

    async def close(self) -> None:
        await self._locks.close()
        await self._pool.close()

    async def schema_version(self) -> int:
        return int(await self._db.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    # --- matches -------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's advisory lock for a whole action, across every process.

        A session lock on a connection kept for the action: the lock outlives the action's
        transactions, and releasing the connection to its pool unlocks everything it held
        (asyncpg's reset), even when the action was cancelled half-way. A server that went
        away took the lock with it: the connection is discarded (:func:`.pg_link.release`),
        and should only that connection have died, each write's version check still keeps
        a racing process from applying an action twice.
        """
        with nothing_written("channel_lock"):
            conn = await self._locks.acquire()
        try:
            with nothing_written("channel_lock"):
                await conn.execute(
                    "SELECT pg_advisory_lock($1, $2)", CHANNEL_NAMESPACE, channel_key(channel_id)
                )
            yield
        finally:
            await release(self._locks, conn)

    # --- the primitives of the shared queries (bot.storage.base) -------------------------

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return await self._db.fetch(sql, *args)

    async def write(self, sql: str, *args: Any) -> int:
        return row_count(await self._db.write(sql, *args))

    async def write_row(self, sql: str, *args: Any) -> Any | None:
        return await self._db.write_row(sql, *args)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """A transaction on a connection of the statement pool, told apart by where a lost
        server interrupts it: before COMMIT nothing was written (the server discards it),
        during COMMIT it may have been (:class:`~bot.core.errors.StoreInDoubtError`)."""
        async with self._db.connection() as conn:
            transaction = conn.transaction()
            with nothing_written("transaction"):
                await transaction.start()
                try:
                    yield PgTx(conn)
                except BaseException:
                    # A server that went away discarded the transaction itself; rolling
                    # back on its dead connection would only hide why the action failed.
                    try:
                        await transaction.rollback()
                    except Exception as exc:
                        if not is_lost(exc):
                            raise
                    raise
            with maybe_written("commit"):
                await transaction.commit()

    # --- actions -------------------------------------------------------------------------

    async def apply(self, change: Change) -> MatchRow:
        """Apply one action atomically: state, events, results, statistics, ratings.

        Raises :class:`ConflictError` (and writes nothing) when the row's version is no
        longer ``expected_version``: of two processes racing the same action, one wins.
        """
        try:
            async with self.transaction() as tx:
                row = await self._apply(tx, change)
        except StoreUnavailableError:
            self._live.forget(change.match_id)  # it may have been written: read it afresh
            raise
        except ConflictError:
            self._live.forget(change.match_id)  # someone else wrote it: read it afresh
            raise
        except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:
            # Not expected (rows are locked in one order), but if the server ever aborts
            # the transaction for it, nothing was written: the session retries a conflict.
            self._live.forget(change.match_id)
            raise ConflictError() from exc
        self.commits += 1
        self._live.remember(row)
        return row

    # --- copying (python -m bot copy-db; export_rows and is_empty are shared) -----------

    async def import_rows(self, tables: Sequence[tuple[str, str, list[tuple[Any, ...]]]]) -> None:
        """Write copied rows, ids kept, in one transaction; the id sequences follow them."""
        async with self._pool.acquire() as conn, conn.transaction():
            for table, columns, rows in tables:
                names = columns.split(", ")
                flags = [name in ("rated", "threads", "public_leaderboard") for name in names]
                records = [
                    tuple(
                        bool(value) if flag and value is not None else value
                        for value, flag in zip(row, flags, strict=True)
                    )
                    for row in rows
                ]
                await conn.copy_records_to_table(table, records=records, columns=names)
            for table in ("matches", "events", "puzzles", "puzzle_posts"):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )
        self._live.clear()


__all__ = ["PostgresStore", "channel_key", "redact"]
