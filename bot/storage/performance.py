"""Where the PR ladder keeps its matches: one row per player of each recorded match.

:class:`PerformanceStore`, composed over either store's public primitives
(:class:`bot.storage.base.Database`: one SQL text in ``$n`` placeholders), is the
:class:`PerformanceStorage` the PR ladder's service takes. The table, ``match_performance``
(migration 13 of SQLite, 10 of PostgreSQL): per (match, player) the server, the name then, when
the match ended, whether it was a money game, the PR's counted decisions and the equity lost
over them (checker and cube apart), and the luck (rolls, normalized luck, the actual result,
the player's and the opponent's luck at stake, NULL when unknown). A row is written once:
recording a match again changes nothing.

May import the PR ladder's values; never the session or Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.computer.pr import LuckAdjustedResult, PerformanceRating, PRPart
from bot.features.performance.rules import LadderEntry, MatchPerformance
from bot.storage.base import Database

__all__ = ["COPY_TABLES", "PerformanceStorage", "PerformanceStore"]

_COLUMNS = (
    "match_id, user_id, guild_id, name, played_at, money, checker_decisions, checker_error, "
    "cube_decisions, cube_error, rolls, luck, actual, own_luck, opponent_luck"
)
# For python -m bot copy-db (bot/storage/copy.py): the table, its columns.
COPY_TABLES: tuple[tuple[str, str], ...] = (("match_performance", _COLUMNS),)


class PerformanceStorage(Protocol):
    """What the PR ladder keeps (both backends)."""

    async def record(self, matches: Sequence[MatchPerformance]) -> int: ...

    async def ladder(self, guild_id: int) -> list[LadderEntry]: ...

    async def player(self, guild_id: int, user_id: int) -> list[MatchPerformance]: ...


def _row(match: MatchPerformance) -> tuple[Any, ...]:
    rating, luck = match.performance, match.luck
    return (
        match.match_id,
        match.user_id,
        match.guild_id,
        match.name,
        match.played_at,
        int(match.money),
        rating.checker.decisions,
        rating.checker.error,
        rating.cube.decisions,
        rating.cube.error,
        luck.rolls if luck else 0,
        luck.normalized_luck if luck else 0.0,
        luck.actual if luck else None,
        luck.luck if luck else None,
        luck.opponent_luck if luck else None,
    )


def _performance(row: Any) -> MatchPerformance:
    (
        match_id,
        user_id,
        guild_id,
        name,
        played_at,
        money,
        checker_decisions,
        checker_error,
        cube_decisions,
        cube_error,
        rolls,
        luck,
        actual,
        own_luck,
        opponent_luck,
    ) = row
    known = actual is not None and own_luck is not None and opponent_luck is not None
    return MatchPerformance(
        match_id=match_id,
        guild_id=guild_id,
        user_id=user_id,
        name=name,
        played_at=float(played_at),
        money=bool(money),
        performance=PerformanceRating(
            PRPart(checker_decisions, float(checker_error)),
            PRPart(cube_decisions, float(cube_error)),
        ),
        luck=(
            LuckAdjustedResult(
                float(actual), float(own_luck), float(opponent_luck), rolls, float(luck)
            )
            if known
            else None
        ),
    )


class PerformanceStore:
    """:class:`PerformanceStorage` over a store's public primitives."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(self, matches: Sequence[MatchPerformance]) -> int:
        """Keep every row of a match at once; rows kept before stay as they were. How many
        were new."""
        placeholders = ", ".join(f"${n}" for n in range(1, 16))
        sql = (
            f"INSERT INTO match_performance ({_COLUMNS}) VALUES ({placeholders}) "
            "ON CONFLICT (match_id, user_id) DO NOTHING RETURNING match_id"
        )
        added = 0
        async with self.db.transaction() as tx:
            for match in matches:
                added += len(await tx.fetch(sql, *_row(match)))
        return added

    async def ladder(self, guild_id: int) -> list[LadderEntry]:
        """Every player of the server's recorded matches, with their totals (unordered)."""
        rows = await self.db.fetch(
            "SELECT p.user_id, "
            "(SELECT q.name FROM match_performance q WHERE q.guild_id = p.guild_id "
            "AND q.user_id = p.user_id ORDER BY q.played_at DESC, q.match_id DESC LIMIT 1), "
            "SUM(p.checker_decisions), SUM(p.checker_error), SUM(p.cube_decisions), "
            "SUM(p.cube_error), COUNT(*) "
            "FROM match_performance p WHERE p.guild_id = $1 GROUP BY p.guild_id, p.user_id",
            guild_id,
        )
        return [
            LadderEntry(
                user_id=user_id,
                name=name,
                performance=PerformanceRating(
                    PRPart(int(checker), float(checker_error)), PRPart(int(cube), float(cube_error))
                ),
                matches=int(count),
            )
            for user_id, name, checker, checker_error, cube, cube_error, count in rows
        ]

    async def player(self, guild_id: int, user_id: int) -> list[MatchPerformance]:
        """A player's recorded matches on a server, oldest first."""
        rows = await self.db.fetch(
            f"SELECT {_COLUMNS} FROM match_performance WHERE guild_id = $1 AND user_id = $2 "
            "ORDER BY played_at, match_id",
            guild_id,
            user_id,
        )
        return [_performance(row) for row in rows]
