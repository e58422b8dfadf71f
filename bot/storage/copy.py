"""Copy a whole database to another backend (``python -m bot copy-db SRC DEST``).

Everything is copied with its ids: matches, events, game results, players, results against
the computer, rating history, settings, competitions (tournaments, their entrants and
pairings, ladders) and chouettes (sessions, their logs, the all-time points). The destination
must be empty. Then every copied match is read back from the destination and its event log
replayed (:mod:`bot.core.replay`): the state it rebuilds must be the state stored, so a copy
that lost or garbled anything is caught before anyone plays on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from bot.core.errors import UnreadableMatchError
from bot.core.records import UNREADABLE
from bot.core.replay import replay
from bot.storage.chouette import COPY_TABLES as CHOUETTE_TABLES
from bot.storage.competitions import COPY_TABLES as COMPETITION_TABLES
from bot.storage.performance import COPY_TABLES as PERFORMANCE_TABLES
from bot.storage.protocol import Storage
from bot.storage.rows import MATCH_COLUMNS, PLAYER_COLUMNS

# The tables in an order that respects their foreign keys, with their columns (the same
# names in both schemas).
TABLES: tuple[tuple[str, str], ...] = (
    ("matches", MATCH_COLUMNS),
    (
        "events",
        "id, match_id, seq, game_number, actor_id, player, action, notation, dice, "
        "position_id, gnu_match_id, created_at",
    ),
    (
        "game_results",
        "match_id, game_number, winner, kind, cube, points, reason, finished_at",
    ),
    ("players", PLAYER_COLUMNS),
    (
        "computer_results",
        "guild_id, user_id, level, games, game_wins, matches, match_wins, points_won, points_lost",
    ),
    ("rating_history", "guild_id, user_id, match_id, rated_at, rating"),
    ("guild_settings", "guild_id, threads, language, claim, web_links, public_leaderboard"),
    # The web board's addresses (bot/storage/web_keys.py): links already posted keep working.
    ("web_guild_keys", "guild_id, web_key"),
    ("replay_shares", "token, match_id, shared_by, shared_at"),
    ("user_settings", "user_id, notify, notify_minutes, board_side, theme"),
    ("pending_reviews", "match_id, game_number, queued_at"),
    # Puzzles (bot/storage/puzzles.py).
    (
        "puzzles",
        "id, guild_id, puzzle_key, match_id, owner_id, player0_id, player1_id, data, rating, "
        "deviation, volatility, created_at",
    ),
    ("puzzle_sources", "match_id, queued_at"),
    ("puzzle_given", "guild_id, user_id, puzzle_id, given_at"),
    (
        "puzzle_attempts",
        "puzzle_id, user_id, guild_id, answer, grade, equity_lost, answered_at",
    ),
    ("puzzle_solvers", "guild_id, user_id, rating, deviation, volatility, solved, attempts"),
    ("puzzle_settings", "guild_id, channel_id, post_minute, next_post_at, name_players"),
    (
        "puzzle_posts",
        "id, guild_id, puzzle_id, channel_id, message_id, posted_at, reveal_at, revealed",
    ),
    ("puzzle_optouts", "user_id, since"),
    *COMPETITION_TABLES,  # tournaments, entrants, pairings, settings, ladders
    *CHOUETTE_TABLES,  # chouette sessions, their event logs, the all-time points
    *PERFORMANCE_TABLES,  # the PR ladder's recorded matches (bot/storage/performance.py)
)


class CopyError(Exception):
    """The copy cannot be made or does not check out; the message is one line."""


class Copyable(Storage, Protocol):
    async def export_rows(self, table: str, columns: str) -> list[tuple[Any, ...]]: ...

    async def is_empty(self, tables: list[str]) -> bool: ...

    async def import_rows(self, tables: list[tuple[str, str, list[tuple[Any, ...]]]]) -> None: ...


@dataclass(frozen=True, slots=True)
class CopyReport:
    rows: dict[str, int]  # table: rows copied
    live: int  # matches still in progress (or challenges)
    replayed: int  # matches whose log was replayed to their stored state
    unreadable: int  # matches set aside as unreadable (copied as they are, not replayed)

    def summary(self, source: str, destination: str) -> str:
        counts = ", ".join(f"{n} {table.replace('_', ' ')}" for table, n in self.rows.items())
        return (
            f"copied {counts} from {source} to {destination}; {self.live} live; "
            f"{self.replayed} matches replayed to their stored state"
            + (f", {self.unreadable} unreadable kept as they were" if self.unreadable else "")
        )


async def copy_database(source: Copyable, destination: Copyable) -> CopyReport:
    names = [table for table, _ in TABLES]
    if not await destination.is_empty(names):
        raise CopyError(f"{destination.path} is not empty; copy into a new, empty database")
    data = [(table, columns, await source.export_rows(table, columns)) for table, columns in TABLES]
    await destination.import_rows(data)
    rows = {table: len(copied) for table, _, copied in data}
    for table, columns in TABLES:
        there = len(await destination.export_rows(table, columns.split(", ")[0]))
        if there != rows[table]:
            raise CopyError(f"{table}: {rows[table]} rows copied but {there} found")
    live = replayed = unreadable = 0
    for match_id, end_reason in await destination.export_rows("matches", "id, end_reason"):
        try:
            match = await destination.get_match(match_id)
        except UnreadableMatchError:
            if end_reason == UNREADABLE:
                unreadable += 1
                continue
            raise CopyError(f"match {match_id} cannot be read after the copy") from None
        assert match is not None
        live += match.live
        events = await destination.events(match_id)
        try:
            rebuilt = replay(match.options, events)
        except ValueError as exc:
            raise CopyError(f"match {match_id}: its log does not replay: {exc}") from exc
        if rebuilt != match.game:
            raise CopyError(f"match {match_id}: its log replays to another state than stored")
        replayed += 1
    return CopyReport(rows, live, replayed, unreadable)


__all__ = ["TABLES", "CopyError", "CopyReport", "copy_database"]
