"""The two backends' connections, as the puzzle store (:mod:`bot.storage.puzzles`) uses them.

The puzzle tables are written once in portable SQL (``?`` placeholders, ``ON CONFLICT``,
``RETURNING``: SQLite 3.35+ and PostgreSQL both read it); this module runs it on either
store's own connection, so the store classes need not grow (the lines are counted in
:mod:`bot.storage.sqlite` and :mod:`bot.storage.postgres`). A :class:`Sql` reads, writes one
statement in a transaction of its own, or opens a transaction whose statements are kept
together; SQLite's writes share the store's one writing connection and its lock, PostgreSQL's
go through the store's pool with each failure told as the store tells it.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

__all__ = ["Sql", "Statements", "sql_of"]


class Statements(Protocol):
    """Statements inside one transaction.

    ``row_lock`` ends a ``SELECT`` whose rows the transaction will write back from what
    it read: PostgreSQL's ``FOR NO KEY UPDATE`` (the rows stay locked until the end, and
    it leaves alone the key-share locks other transactions' foreign keys take); empty on
    SQLite, whose ``BEGIN IMMEDIATE`` already makes the transaction the only writer.
    """

    row_lock: str

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]: ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Run a writing statement; the rows it changed."""
        ...


class Sql(Statements, Protocol):
    """A store's connection: statements on their own, or kept together in a transaction."""

    def transaction(self) -> AbstractAsyncContextManager[Statements]: ...


@functools.lru_cache(maxsize=256)
def dollars(sql: str) -> str:
    """``?`` placeholders numbered as PostgreSQL's ``$1, $2``... (no ``?`` in literals)."""
    parts = sql.split("?")
    out = [parts[0]]
    for number, part in enumerate(parts[1:], start=1):
        out.append(f"${number}{part}")
    return "".join(out)


class _SqliteStatements:
    row_lock = ""

    def __init__(self, db: Any) -> None:
        self.db = db

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self.db.execute_fetchall(sql, args)]

    async def execute(self, sql: str, *args: Any) -> int:
        cursor = await self.db.execute(sql, args)
        try:
            return int(cursor.rowcount)
        finally:
            await cursor.close()


class SqliteSql:
    """The SQLite store's connections: reads on its reader, writes under its lock."""

    row_lock = ""

    def __init__(self, store: Any) -> None:
        self.store = store

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self.store._select(sql, args)]

    async def execute(self, sql: str, *args: Any) -> int:
        async with self.store._lock:
            return await _SqliteStatements(self.store._db).execute(sql, *args)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Statements]:
        db = self.store._db
        async with self.store._lock:
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteStatements(db)
            except BaseException:
                if db.in_transaction:
                    await db.execute("ROLLBACK")
                raise
            await db.execute("COMMIT")


class _PgStatements:
    row_lock = " FOR NO KEY UPDATE"

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self.conn.fetch(dollars(sql), *args)]

    async def execute(self, sql: str, *args: Any) -> int:
        from bot.storage.pg_link import row_count

        return row_count(str(await self.conn.execute(dollars(sql), *args)))


class PgSql:
    """The PostgreSQL store's pool, each failure told as the store tells it."""

    row_lock = ""  # a lone statement holds no lock past itself

    def __init__(self, store: Any) -> None:
        self.link = store._db  # bot.storage.pg_link.Link

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self.link.fetch(dollars(sql), *args)]

    async def execute(self, sql: str, *args: Any) -> int:
        from bot.storage.pg_link import row_count

        return row_count(await self.link.write(dollars(sql), *args))

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Statements]:
        from bot.storage.pg_link import maybe_written

        async with self.link.connection() as conn:
            with maybe_written("puzzles"):
                async with conn.transaction():
                    yield _PgStatements(conn)


def sql_of(store: Any) -> Sql:
    """The :class:`Sql` of either store (by its class, so asyncpg loads only for PostgreSQL)."""
    if type(store).__name__ == "PostgresStore":
        return PgSql(store)
    return SqliteSql(store)
