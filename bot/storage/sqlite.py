"""SQLite persistence (aiosqlite): what only SQLite does.

Every query the two backends share is in :mod:`bot.storage.shared` (written once, in
PostgreSQL's ``$1`` placeholders, which :func:`~bot.storage.dialect.qmark` turns into
SQLite's ``?1``); rows are read and written in :mod:`bot.storage.rows`; the schema is in
:mod:`bot.storage.schema`. Here: opening and migrating the file, its two connections, the
lock that keeps a transaction's statements together, and the group commit that writes
several actions with one fsync.

One row in ``matches`` is a challenge that may become a match (a money game is a match of
one game). The row keeps the whole engine state as JSON plus a ``version``: every change is
``UPDATE ... WHERE version = ?`` inside one transaction together with its events, finished
games and player statistics, so an action is either wholly applied or not at all, and two
racing writers can never both win. A partial unique index keeps one live row per channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, NoReturn

import aiosqlite

from bot.core.errors import ConflictError, StoreOpenError, StoreUnavailableError
from bot.core.records import Change, MatchRow
from bot.storage.dialect import Tx, qmark
from bot.storage.schema import MIGRATIONS
from bot.storage.shared import SQLStore

log = logging.getLogger(__name__)

MAX_BATCH = 8  # actions written in one transaction at most


# SQLite's answers that mean the file cannot be written now, whatever the action: busy or
# locked past the timeout, out of memory, read-only, an I/O error, the disk full, the file
# gone. A failed write is rolled back whole (see Store._write_batch), so nothing changed.
_UNAVAILABLE = {
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
    sqlite3.SQLITE_NOMEM,
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_CANTOPEN,
}


def _told(exc: Exception) -> Exception:
    """A write's failure as the player should hear it: a database that cannot be written
    is :class:`StoreUnavailableError` (the same words as a PostgreSQL that is down)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(exc, sqlite3.Error) and code is not None and code & 0xFF in _UNAVAILABLE:
        log.warning("database unavailable (write): %s", exc)
        told = StoreUnavailableError()
        told.__cause__ = exc
        return told
    return exc


def _raise_told(exc: sqlite3.Error) -> NoReturn:
    """Raise ``exc`` as the player should hear it (see :func:`_told`)."""
    told = _told(exc)
    if told is exc:
        raise exc
    raise told from exc


def _prepare_file(path: Path) -> None:
    """Create the database's folder (0700) and file (0600) if missing: games are private."""
    try:
        if not path.parent.exists():
            path.parent.mkdir(parents=True, mode=0o700)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    except OSError as exc:
        raise StoreOpenError(f"cannot open the database {path}: {exc}") from exc


async def _open_reader(path: str) -> aiosqlite.Connection:
    """The read-only second connection of a file database (see :class:`Store`)."""
    reader = await aiosqlite.connect(path, isolation_level=None)
    try:
        await reader.execute("PRAGMA query_only = ON")
        await reader.execute("PRAGMA busy_timeout = 5000")
    except BaseException:
        await reader.close()
        raise
    return reader


class SQLiteTx:
    """The writing connection as a :class:`~bot.storage.dialect.Tx`: the shared statements'
    ``$n`` placeholders translated, asyncpg's method names kept. The caller holds the
    store's lock and has begun the transaction."""

    __slots__ = ("_db",)

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return list(await self._db.execute_fetchall(qmark(sql), args))

    async def execute(self, sql: str, *args: Any) -> int:
        cursor = await self._db.execute(qmark(sql), args)
        try:
            return int(cursor.rowcount)
        finally:
            await cursor.close()

    async def executemany(self, sql: str, args: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(qmark(sql), args)


class Store(SQLStore):
    """The database. Open with :meth:`open`; all methods are coroutines.

    One connection writes; an asyncio lock keeps each transaction's statements together,
    since coroutines sharing a connection would otherwise interleave them. A file database
    has a second, read-only connection for the reads that stand alone (a channel's live
    game, settings, statistics): WAL lets it read while a transaction is being written, so
    a read never queues behind a write's several round trips (under load, the settings
    read of a board post waited up to 100 ms behind group commits: benchmarks/e2e.py).
    Each read sees every transaction committed before it started, so an action that has
    returned is always seen. An in-memory database has one connection for both.
    """

    _unique_violation: ClassVar[tuple[type[Exception], ...]] = (sqlite3.IntegrityError,)

    def __init__(
        self, connection: aiosqlite.Connection, path: str, reader: aiosqlite.Connection | None
    ) -> None:
        super().__init__()
        self._db = connection
        self._tx = SQLiteTx(connection)
        self._reader = reader
        self.path = path
        self._lock = asyncio.Lock()
        # Actions waiting to be written, and the task writing them (see apply).
        self._pending: list[tuple[Change, asyncio.Future[MatchRow]]] = []
        self._committer: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating the file and folders if needed) and migrate the database.

        Raises :class:`StoreOpenError`, with one line naming the file and the reason, when the
        database cannot be opened or migrated (not a database, a folder, read-only...); the
        connection's thread is closed first, so a failed start never hangs the process.
        """
        text = str(path)
        if text != ":memory:":
            _prepare_file(Path(text))
        pending = aiosqlite.connect(text, isolation_level=None)
        try:
            connection = await pending
        except (sqlite3.Error, OSError) as exc:
            # A failed connect queues the stop of aiosqlite's thread; let the thread finish
            # while the loop still runs, or it reports to a closed loop at exit (a traceback).
            await asyncio.to_thread(pending._thread.join, 5)
            raise StoreOpenError(f"cannot open the database {text}: {exc}") from exc
        # A failed set-up must close the connection (below), or its thread keeps the
        # process alive.
        store = cls(connection, text, None)
        try:
            await store._setup()
            if text != ":memory:":  # another connection would open another memory database
                store._reader = await _open_reader(text)
        except (sqlite3.Error, OSError) as exc:
            await connection.close()
            raise StoreOpenError(f"cannot open the database {text}: {exc}") from exc
        except BaseException:
            await connection.close()
            raise
        return store

    async def _setup(self) -> None:
        await self._db.execute("PRAGMA journal_mode = WAL")
        # FULL: every acknowledged action is fsynced to the WAL before the player sees it, so
        # a power cut cannot roll back a move the channel was already shown.
        await self._db.execute("PRAGMA synchronous = FULL")
        await self._db.execute("PRAGMA foreign_keys = ON")
        await self._db.execute("PRAGMA busy_timeout = 5000")
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        version = int(row[0]) if row else 0
        for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
            log.info("migrating database %s to schema version %d", self.path, number)
            await self._db.executescript(
                f"BEGIN; {script}; PRAGMA user_version = {number}; COMMIT;"
            )

    async def close(self) -> None:
        if self._committer is not None:  # let the actions already accepted be written
            with contextlib.suppress(Exception):
                await self._committer
        if self._reader is not None:
            await self._reader.close()
        await self._db.close()

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    @contextlib.asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """Serialise a channel's actions across processes: nothing to do for SQLite.

        One process owns an SQLite file; the session's in-process lock already serialises
        the channel. (PostgreSQL holds an advisory lock here.)
        """
        yield

    # --- the primitives of the shared queries (bot.storage.base) -------------------------

    async def _select(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """All rows of a query (``?`` placeholders) in one round trip to the database thread.

        Each round trip costs a thread hand-off both ways, which dominates the cost of
        these small queries; a cursor's execute/fetch/close would be three. On the reading
        connection no lock is needed: it sees only committed transactions. On the one
        connection of a memory database, the lock keeps a read from seeing another
        coroutine's transaction half-way.
        """
        if self._reader is not None:
            return list(await self._reader.execute_fetchall(sql, params))
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return await self._select(qmark(sql), args)

    async def write(self, sql: str, *args: Any) -> int:
        async with self._lock:
            try:
                cursor = await self._db.execute(qmark(sql), args)
            except sqlite3.Error as exc:
                _raise_told(exc)
            try:
                return int(cursor.rowcount)
            finally:
                await cursor.close()

    async def write_row(self, sql: str, *args: Any) -> Any | None:
        async with self._lock:
            try:
                rows = list(await self._db.execute_fetchall(qmark(sql), args))
            except sqlite3.Error as exc:
                _raise_told(exc)
        return rows[0] if rows else None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` under the lock (between group commits); a
        database that cannot be written reads as :class:`StoreUnavailableError`."""
        db = self._db
        async with self._lock:
            try:
                await db.execute("BEGIN IMMEDIATE")  # busy past the timeout: told as down
                yield self._tx
                await db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        await db.execute("ROLLBACK")
                told = _told(exc) if isinstance(exc, Exception) else exc
                if told is exc:
                    raise
                raise told from exc

    # --- actions: group commit -----------------------------------------------------------

    async def apply(self, change: Change) -> MatchRow:
        """Apply one action atomically: state, events, results, statistics, ratings.

        Raises :class:`ConflictError` (and writes nothing) when the row's version is no
        longer ``expected_version``.

        Group commit: actions that arrive while another transaction is being written share
        the next one, each inside its own SAVEPOINT (one that fails writes nothing and
        leaves the others alone), with one COMMIT, so one fsync, for all of them. Every
        action is still on disk before its caller hears that it was applied.
        """
        future: asyncio.Future[MatchRow] = asyncio.get_running_loop().create_future()
        self._pending.append((change, future))
        if self._committer is None or self._committer.done():
            self._committer = asyncio.create_task(self._commit_pending())
        return await future

    async def _commit_pending(self) -> None:
        """Write the waiting actions, a transaction at a time, until none wait."""
        batch: list[tuple[Change, asyncio.Future[MatchRow]]] = []
        try:
            while self._pending:
                batch = self._pending[:MAX_BATCH]
                del self._pending[:MAX_BATCH]
                async with self._lock:
                    results = await self._write_batch([change for change, _ in batch])
                for (change, future), result in zip(batch, results, strict=True):
                    if isinstance(result, MatchRow):
                        self._live.remember(result)
                        if not future.done():
                            future.set_result(result)
                        continue
                    if isinstance(result, ConflictError):
                        self._live.forget(change.match_id)  # someone else wrote it: read it afresh
                    if not future.done():
                        future.set_exception(_told(result))
        except BaseException as exc:  # never leave a caller waiting on a future
            for _, future in [*batch, *self._pending]:
                if not future.done():
                    future.set_exception(RuntimeError(f"the write was interrupted: {exc!r}"))
            self._pending.clear()
            raise

    async def _write_batch(self, changes: Sequence[Change]) -> list[MatchRow | Exception]:
        """One transaction for ``changes``: the new row of each, or why it wrote nothing."""
        db = self._db
        results: list[MatchRow | Exception] = []
        # A lone action needs no savepoint: its transaction is all it would undo. Two round
        # trips to the database thread fewer for most writes.
        alone = len(changes) == 1
        try:
            await db.execute("BEGIN IMMEDIATE")
            for change in changes:
                if alone:
                    results.append(await self._apply(self._tx, change))
                    break
                await db.execute("SAVEPOINT action")
                try:
                    row = await self._apply(self._tx, change)
                except Exception as exc:
                    await db.execute("ROLLBACK TO action")
                    await db.execute("RELEASE action")
                    results.append(exc)
                    continue
                await db.execute("RELEASE action")
                results.append(row)
            await db.execute("COMMIT")
            self.commits += 1
        except BaseException as exc:
            # A failed COMMIT (the database busy, the disk full) leaves the transaction
            # open; roll it back too, or the next BEGIN on this connection would fail.
            # Nothing of the batch was stored.
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    await db.execute("ROLLBACK")
            if not isinstance(exc, Exception):
                raise
            return [exc for _ in changes]
        return results

    # --- copying (python -m bot copy-db; export_rows and is_empty are shared) -----------

    async def import_rows(self, tables: Sequence[tuple[str, str, list[tuple[Any, ...]]]]) -> None:
        """Write copied rows, ids kept, in one transaction."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                for table, columns, rows in tables:
                    marks = ", ".join("?" for _ in columns.split(", "))
                    await self._db.executemany(
                        f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows
                    )
                await self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                raise
        self._live.clear()


__all__ = ["SQLiteTx", "Store"]
