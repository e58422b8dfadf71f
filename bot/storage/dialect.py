"""The one SQL dialect the shared queries are written in, and its translation for SQLite.

Every statement shared by the two backends (:mod:`bot.storage.shared`, and any feature's
storage module over it) is written once, in PostgreSQL's numbered placeholders (``$1``,
``$2``...). SQLite accepts the same numbers as ``?1``, ``?2``, so :func:`qmark` only swaps
the sign: a parameter used twice (``$3`` for both ``updated_at`` and ``last_action_at``) is
bound once on both databases, and the argument tuples are the same.

What both databases understand, and so what a shared statement may use: ``INSERT ... ON
CONFLICT (...) DO UPDATE SET x = excluded.x`` and ``ON CONFLICT DO NOTHING``,
``RETURNING``, ``CASE``, ``COALESCE``, booleans bound as Python ``bool`` (SQLite stores 1/0;
a reader turns the column back with ``bool()``). What they do not share stays in the
backend: ``IS NOT ?`` (SQLite) against ``IS DISTINCT FROM`` (PostgreSQL) is written
``(x IS NULL OR x <> $n)``; ``INSERT OR REPLACE``, ``PRAGMA``, advisory locks, ``COPY``
and sequences belong to one backend's module.

Imports only the standard library.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

_PLACEHOLDER = re.compile(r"\$(\d+)")


@functools.lru_cache(maxsize=1024)
def qmark(sql: str) -> str:
    """A statement with ``$n`` placeholders as SQLite reads it (``?n``), cached: the shared
    statements are few, and a hot read must not run a regular expression each time."""
    if "?" in sql:
        # A bare ``?`` would shift every number after it: one style per statement.
        raise ValueError(f"mixed placeholders in {sql!r}: write $1, $2... only")
    return _PLACEHOLDER.sub(r"?\1", sql)


class Tx(Protocol):
    """A transaction's connection as the shared statements use it: asyncpg's method names,
    ``$n`` placeholders; ``execute`` says how many rows it changed. Each store hands an
    adapter (:class:`bot.storage.sqlite.SQLiteTx`, :class:`bot.storage.postgres.PgTx`)."""

    async def fetch(self, sql: str, *args: Any) -> list[Any]: ...

    async def execute(self, sql: str, *args: Any) -> int: ...

    async def executemany(self, sql: str, args: Iterable[Sequence[Any]]) -> None: ...


__all__ = ["Tx", "qmark"]
