"""Storage: where matches, their events, results, statistics and settings are kept.

The embedded default is SQLite through aiosqlite (:class:`Store`, in :mod:`.sqlite`): one
file, nothing to install. May import the engine, the records and the codec; never Discord,
the session or the renderers.
"""

from __future__ import annotations

from bot.storage.schema import MIGRATIONS
from bot.storage.sqlite import Store

__all__ = ["MIGRATIONS", "Store"]
