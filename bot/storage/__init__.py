"""Storage: where matches, their events, results, statistics and settings are kept.

One interface (:class:`Storage`, in :mod:`.protocol`) and two backends: the embedded default,
SQLite through aiosqlite (:class:`Store`, in :mod:`.sqlite`: one file, nothing to install),
and PostgreSQL through asyncpg (:class:`~bot.storage.postgres.PostgresStore`), which several
bot processes can share. :func:`open_store` picks one from the settings.

The queries are written once for both (:mod:`.shared`, :mod:`.action`, in the placeholders
of :mod:`.dialect`, over the primitives of :mod:`.base`); rows and records are turned into
each other in :mod:`.rows`; a backend module holds only what its database does its own way.
May import the engine, the records and the codec; never Discord, the session or the
renderers.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from bot.core.errors import StoreOpenError
from bot.storage.protocol import Storage
from bot.storage.schema import MIGRATIONS
from bot.storage.sqlite import Store

if TYPE_CHECKING:
    from bot.config import Settings

SQLiteStore = Store


def is_postgres_url(text: str | Path | None) -> bool:
    return isinstance(text, str) and text.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """A database URL fit for a message or a log line: the password replaced by ``***``."""
    return re.sub(r"^(\w+://[^:/@]*):[^@]*@", r"\1:***@", url)


def database_of(settings: Settings) -> str | Path:
    """Where the settings keep the data: ``DATABASE_URL`` when set, else ``DATABASE_PATH``."""
    return settings.database_url or settings.database_path


async def open_store(database: str | Path | Settings) -> Storage:
    """Open (and migrate) a database: a ``postgresql://`` URL, else an SQLite file.

    Given the settings, ``DATABASE_URL`` wins over ``DATABASE_PATH``. Raises
    :class:`~bot.core.errors.StoreOpenError` with one line when it cannot be opened.
    """
    if not isinstance(database, str | Path):
        database = database_of(database)
    if is_postgres_url(database):
        try:
            from bot.storage.postgres import PostgresStore  # asyncpg only when it is used
        except ModuleNotFoundError as exc:
            if exc.name != "asyncpg":
                raise
            # asyncpg is an extra (gammon-bot[postgres]): one line for the operator, not a
            # traceback.
            raise StoreOpenError(
                f"cannot open the database {redact(str(database))}: PostgreSQL needs the "
                f'asyncpg package, which is not installed (pip install -e ".[postgres]")'
            ) from exc
        return await PostgresStore.open(str(database))
    return await Store.open(database)


def __getattr__(name: str) -> object:
    # PostgresStore on demand: a bot on SQLite never imports asyncpg.
    if name == "PostgresStore":
        from bot.storage.postgres import PostgresStore

        return PostgresStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "MIGRATIONS",
    "PostgresStore",
    "SQLiteStore",
    "Storage",
    "Store",
    "database_of",
    "is_postgres_url",
    "open_store",
    "redact",
]
