"""Where chouette sessions are kept: each session's state, its event log, the all-time points.

A class of its own (:class:`ChouetteStore`, declared by :class:`ChouetteStorage`) composed
over the store's public primitives (:class:`bot.storage.base.Database`): one SQL text in
``$n`` placeholders for both backends, each change in one transaction whose failures read
as every action's do.

A session's state is one JSON value (the feature's codec writes it; this module never reads
inside it) at a version: :meth:`ChouetteStore.save` writes it only if the version is still
the one read, with the change's events and, when a game ended, each player's points, all or
nothing, so two processes (or two presses) never both apply an action. One live session per
channel is kept by a unique index, as for matches.

May import the records' errors; never the features, Discord or the services.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core.errors import ConflictError
from bot.storage.base import Database
from bot.storage.web_keys import new_web_key

COLUMNS = (
    "id, guild_id, channel_id, home_channel_id, status, state, version, started_by, "
    "created_at, updated_at, web_key"
)
LIVE = ("open", "playing")

COPY_TABLES: tuple[tuple[str, str], ...] = (
    ("chouettes", COLUMNS),
    ("chouette_events", "chouette_id, seq, game_number, kind, data, created_at"),
    ("chouette_points", "guild_id, user_id, name, points, games"),
)


@dataclass(frozen=True, slots=True)
class ChouetteRow:
    """A stored session: ``state`` is its JSON (:mod:`bot.features.chouette.codec`)."""

    id: int
    guild_id: int
    channel_id: int
    home_channel_id: int | None
    status: str
    state: str
    version: int
    started_by: int
    created_at: float
    updated_at: float
    web_key: str = ""  # the session's page on the web board (bot.web.chouette_pages)

    @property
    def live(self) -> bool:
        return self.status in LIVE


@dataclass(frozen=True, slots=True)
class EventRow:
    seq: int
    game_number: int
    kind: str
    data: str
    created_at: float


@dataclass(frozen=True, slots=True)
class PointsRow:
    """A player's all-time chouette points on a server."""

    user_id: int
    name: str
    points: int
    games: int


@dataclass(frozen=True, slots=True)
class LogEntry:
    game_number: int
    kind: str
    data: str


def _row(r: Sequence[Any]) -> ChouetteRow:
    return ChouetteRow(
        id=int(r[0]),
        guild_id=int(r[1]),
        channel_id=int(r[2]),
        home_channel_id=None if r[3] is None else int(r[3]),
        status=str(r[4]),
        state=str(r[5]),
        version=int(r[6]),
        started_by=int(r[7]),
        created_at=float(r[8]),
        updated_at=float(r[9]),
        web_key=str(r[10]),
    )


class ChouetteStorage(Protocol):
    """What the chouette service needs of the database."""

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        home_channel_id: int | None,
        started_by: int,
        status: str,
        state: str,
        events: Sequence[LogEntry],
        now: float,
    ) -> ChouetteRow | None: ...

    async def live(self, channel_id: int) -> ChouetteRow | None: ...

    async def get(self, chouette_id: int) -> ChouetteRow | None: ...

    async def by_web_key(self, key: str) -> ChouetteRow | None: ...

    async def latest(self, channel_id: int) -> ChouetteRow | None: ...

    async def live_sessions(self) -> list[ChouetteRow]: ...

    async def save(
        self,
        row: ChouetteRow,
        *,
        status: str,
        state: str,
        events: Sequence[LogEntry],
        points: Sequence[tuple[int, str, int]],
        now: float,
    ) -> ChouetteRow: ...

    async def events(self, chouette_id: int) -> list[EventRow]: ...

    async def standings(self, guild_id: int, limit: int = 20) -> list[PointsRow]: ...


class ChouetteStore:
    """The chouette tables of an open store (either backend)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        home_channel_id: int | None,
        started_by: int,
        status: str,
        state: str,
        events: Sequence[LogEntry],
        now: float,
    ) -> ChouetteRow | None:
        """A new session with its first events; None when the channel already holds a live
        one (the unique index said so). Ids are the highest plus one, taken inside the
        insert; two processes racing for one id collide on the key, and the loser tries
        again."""
        for _attempt in range(5):
            try:
                async with self._db.transaction() as tx:
                    rows = await tx.fetch(
                        "INSERT INTO chouettes (id, guild_id, channel_id, home_channel_id, "
                        "status, state, version, started_by, created_at, updated_at, web_key) "
                        "SELECT COALESCE(MAX(id), 0) + 1, $1, $2, $3, $4, $5, 1, $6, $7, $7, $8 "
                        f"FROM chouettes RETURNING {COLUMNS}",
                        guild_id,
                        channel_id,
                        home_channel_id,
                        status,
                        state,
                        started_by,
                        now,
                        new_web_key(),
                    )
                    row = _row(rows[0])
                    await self._log(tx, row.id, events, now)
                return row
            except Exception as exc:  # a unique violation on either backend
                if "unique" not in str(exc).lower():
                    raise
                if await self.live(channel_id) is not None:
                    return None
        raise ConflictError()

    async def _log(self, tx: Any, chouette_id: int, events: Sequence[LogEntry], now: float) -> None:
        if not events:
            return
        rows = await tx.fetch(
            "SELECT COALESCE(MAX(seq), 0) FROM chouette_events WHERE chouette_id = $1",
            chouette_id,
        )
        first = int(rows[0][0]) + 1
        await tx.executemany(
            "INSERT INTO chouette_events (chouette_id, seq, game_number, kind, data, "
            "created_at) VALUES ($1, $2, $3, $4, $5, $6)",
            [
                (chouette_id, first + n, e.game_number, e.kind, e.data, now)
                for n, e in enumerate(events)
            ],
        )

    async def live(self, channel_id: int) -> ChouetteRow | None:
        rows = await self._db.fetch(
            f"SELECT {COLUMNS} FROM chouettes WHERE channel_id = $1 "
            "AND status IN ('open', 'playing')",
            channel_id,
        )
        return _row(rows[0]) if rows else None

    async def latest(self, channel_id: int) -> ChouetteRow | None:
        """The channel's live session, else the last one played there."""
        rows = await self._db.fetch(
            f"SELECT {COLUMNS} FROM chouettes WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return _row(rows[0]) if rows else None

    async def get(self, chouette_id: int) -> ChouetteRow | None:
        rows = await self._db.fetch(f"SELECT {COLUMNS} FROM chouettes WHERE id = $1", chouette_id)
        return _row(rows[0]) if rows else None

    async def by_web_key(self, key: str) -> ChouetteRow | None:
        """The session whose web page ``key`` names (any status: an ended session's page
        shows how it ended)."""
        rows = await self._db.fetch(f"SELECT {COLUMNS} FROM chouettes WHERE web_key = $1", key)
        return _row(rows[0]) if rows else None

    async def live_sessions(self) -> list[ChouetteRow]:
        rows = await self._db.fetch(
            f"SELECT {COLUMNS} FROM chouettes WHERE status IN ('open', 'playing') ORDER BY id"
        )
        return [_row(r) for r in rows]

    async def save(
        self,
        row: ChouetteRow,
        *,
        status: str,
        state: str,
        events: Sequence[LogEntry],
        points: Sequence[tuple[int, str, int]],
        now: float,
    ) -> ChouetteRow:
        """Write the session if nobody changed it since ``row`` was read (its version), with
        the change's events and the points of the games it finished (each (player, name,
        points) is one game played), in one transaction; else
        :class:`~bot.core.errors.ConflictError` and nothing is written."""
        async with self._db.transaction() as tx:
            rows = await tx.fetch(
                "UPDATE chouettes SET status = $1, state = $2, version = version + 1, "
                f"updated_at = $3 WHERE id = $4 AND version = $5 RETURNING {COLUMNS}",
                status,
                state,
                now,
                row.id,
                row.version,
            )
            if not rows:
                raise ConflictError()
            await self._log(tx, row.id, events, now)
            if points:
                await tx.executemany(
                    "INSERT INTO chouette_points (guild_id, user_id, name, points, games) "
                    "VALUES ($1, $2, $3, $4, 1) ON CONFLICT (guild_id, user_id) DO UPDATE "
                    "SET points = chouette_points.points + excluded.points, "
                    "games = chouette_points.games + 1, name = excluded.name",
                    [(row.guild_id, user, name, value) for user, name, value in points],
                )
        return _row(rows[0])

    async def events(self, chouette_id: int) -> list[EventRow]:
        rows = await self._db.fetch(
            "SELECT seq, game_number, kind, data, created_at FROM chouette_events "
            "WHERE chouette_id = $1 ORDER BY seq",
            chouette_id,
        )
        return [EventRow(int(r[0]), int(r[1]), str(r[2]), str(r[3]), float(r[4])) for r in rows]

    async def standings(self, guild_id: int, limit: int = 20) -> list[PointsRow]:
        rows = await self._db.fetch(
            "SELECT user_id, name, points, games FROM chouette_points WHERE guild_id = $1 "
            "ORDER BY points DESC, games DESC, user_id LIMIT $2",
            guild_id,
            limit,
        )
        return [PointsRow(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]


__all__ = [
    "COPY_TABLES",
    "ChouetteRow",
    "ChouetteStorage",
    "ChouetteStore",
    "EventRow",
    "LogEntry",
    "PointsRow",
]
