"""What the two SQL backends share: every query that is not dialect, written once.

:class:`SQLStore` is the base of :class:`bot.storage.sqlite.Store` and
:class:`bot.storage.postgres.PostgresStore`: the challenge flow, every read of matches,
events, results, records and settings, the small writes, and the reviews owed and kept. An
action's statements are :func:`.action.write_action`, reached through
:meth:`SQLStore._apply` from each backend's ``apply``. Rows become records, and records
values, in :mod:`.rows` only. Statements are written in PostgreSQL's ``$1`` placeholders;
SQLite's store translates them (:mod:`.dialect`).

Everything here runs on the primitives of :class:`.base.StoreBase` (a lone read, a lone
write, a transaction) that each backend implements; opening, migrating, closing, the
channel lock and ``apply`` itself (SQLite's group commit, PostgreSQL's truthful failures)
stay in the backend modules. A query of the match store itself joins it through
:class:`SQLStore`'s bases (:mod:`.web_keys` does); a feature's storage (tournaments,
puzzles...) is a class of its own composed over the store's public primitives
(:class:`.base.Database`), as CONTRIBUTING.md, "Adding tables", says.

Imports the records, :mod:`.rows`, :mod:`.base` and :mod:`.action`; never a driver.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from bot.core.errors import ChannelBusyError, ConflictError, UnreadableMatchError
from bot.core.records import (
    UNREADABLE,
    Change,
    ComputerResults,
    DiceSeal,
    EventRecord,
    FinishedGame,
    GuildSettings,
    MatchRow,
    PlayerStats,
    UserSettings,
    Venue,
)
from bot.engine import MatchOptions
from bot.storage.action import write_action
from bot.storage.base import StoreBase
from bot.storage.dialect import Tx
from bot.storage.rows import (
    COMPUTER_COLUMNS,
    EVENT_COLUMNS,
    GAME_RESULT_COLUMNS,
    GUILD_SETTINGS_COLUMNS,
    MATCH_COLUMNS,
    MATCH_COLUMNS_OF_M,
    PLAYER_COLUMNS,
    USER_SETTINGS_COLUMNS,
    event_from_row,
    finished_game_from_row,
    guild_settings_from_row,
    guild_settings_values,
    match_from_row,
    options_text,
    parse_match,
    user_settings_from_row,
    user_settings_values,
)
from bot.storage.web_keys import WebKeys, new_web_key

_LIVE = "status IN ('challenge', 'playing')"


class SQLStore(WebKeys, StoreBase):
    """Every query of matches, results, records, settings and reviews, for both backends.

    A feature's storage class (over :class:`StoreBase`, like this one) joins the stores by
    being named here, before ``StoreBase``: ``class SQLStore(Tournaments, StoreBase)``.
    """

    # --- matches -------------------------------------------------------------------------

    async def live_match(self, channel_id: int) -> MatchRow | None:
        """The challenge or match in progress in a channel, if any, as stored right now.

        Raises :class:`UnreadableMatchError` when the row's saved state no longer parses.
        """
        rows = await self.fetch(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = $1 AND {_LIVE}", channel_id
        )
        if not rows:
            self._live.vacate(channel_id)
            return None
        raw = rows[0]
        cached = self._live.fresh(channel_id, raw[0], raw[12])
        if cached is not None:
            return cached
        row = parse_match(raw)
        self._live.remember(row)
        return row

    async def latest_match(self, channel_id: int) -> MatchRow | None:
        """The most recent match (live or finished) that was actually played in a channel."""
        return await self._one_match(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = $1 AND state IS NOT NULL "
            "AND (end_reason IS NULL OR end_reason <> $2) ORDER BY id DESC LIMIT 1",
            channel_id,
            UNREADABLE,
        )

    async def get_match(self, match_id: int) -> MatchRow | None:
        return await self._one_match(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = $1", match_id)

    async def match_by_dice_public(self, public: str) -> MatchRow | None:
        """The match whose dice mixed in this public value (for checking its dice)."""
        return await self._one_match(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE dice_public = $1 ORDER BY id LIMIT 1",
            public,
        )

    async def _one_match(self, sql: str, *args: Any) -> MatchRow | None:
        rows = await self.fetch(sql, *args)
        return parse_match(rows[0]) if rows else None

    async def live_matches(self) -> list[MatchRow]:
        rows = await self.fetch(f"SELECT {MATCH_COLUMNS} FROM matches WHERE {_LIVE} ORDER BY id")
        return [parse_match(row) for row in rows]

    async def live_matches_in(self, guild_id: int) -> list[MatchRow]:
        """Every live challenge and match on a server (unreadable ones left out)."""
        rows = await self.fetch(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE guild_id = $1 AND {_LIVE} ORDER BY id",
            guild_id,
        )
        matches = []
        for raw in rows:
            with contextlib.suppress(UnreadableMatchError):
                matches.append(parse_match(raw))
        return matches

    async def reminder_candidates(self, now: float) -> list[MatchRow]:
        rows = await self.fetch(
            f"SELECT {MATCH_COLUMNS_OF_M} FROM matches AS m "
            "WHERE m.status = 'playing' AND m.venue = 'server' "
            "AND (m.notified_version IS NULL OR m.notified_version <> m.version) "
            "AND EXISTS (SELECT 1 FROM user_settings AS u "
            "WHERE u.user_id IN (m.player0_id, m.player1_id) AND u.notify = 'idle' "
            "AND m.last_action_at <= $1 - 60 * u.notify_minutes) ORDER BY m.id",
            now,
        )
        return [parse_match(row) for row in rows]

    async def create_challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        players: tuple[tuple[int, str], tuple[int, str]],
        options: MatchOptions,
        rated: bool,
        now: float,
        expires_at: float | None,
        computer_level: str | None = None,
        auto_play: bool = False,
        dice: DiceSeal | None = None,
        venue: Venue = Venue.SERVER,
    ) -> MatchRow:
        """Store a new challenge; the channel must be free (else :class:`ChannelBusyError`)."""
        (p0, n0), (p1, n1) = players
        try:
            row = await self.write_row(
                "INSERT INTO matches (guild_id, channel_id, status, player0_id, player0_name, "
                "player1_id, player1_name, options, rated, computer_level, created_at, "
                "updated_at, last_action_at, expires_at, dice_secret, dice_commitment, "
                "web_key, venue) VALUES ($1, $2, 'challenge', $3, $4, $5, $6, $7, $8, $9, $10, "
                f"$10, $10, $11, $12, $13, $14, $15) RETURNING {MATCH_COLUMNS}",
                guild_id,
                channel_id,
                p0,
                n0,
                p1,
                n1,
                options_text(options, auto_play),
                bool(rated),
                computer_level,
                now,
                expires_at,
                dice.secret if dice else None,
                dice.commitment if dice else None,
                new_web_key(),
                str(venue),
            )
        except self._unique_violation as exc:
            raise ChannelBusyError() from exc
        assert row is not None
        created = match_from_row(row, None)
        self._live.remember(created)
        return created

    async def quarantine(self, match_id: int, now: float) -> None:
        """Set aside a live row whose state cannot be read: it ends with no result.

        The row keeps its unreadable state for whoever investigates; ``end_reason`` says
        why it ended, and reads of the channel's latest match skip it.
        """
        await self.write(
            "UPDATE matches SET status = 'cancelled', end_reason = $1, updated_at = $2, "
            f"version = version + 1 WHERE id = $3 AND {_LIVE}",
            UNREADABLE,
            now,
            match_id,
        )
        self._live.forget(match_id)

    async def relocate(self, match_id: int, channel_id: int, home_channel_id: int) -> MatchRow:
        """Move a live match to another channel (its own thread), remembering its home."""
        try:
            row = await self.write_row(
                "UPDATE matches SET channel_id = $1, home_channel_id = $2, "
                f"version = version + 1 WHERE id = $3 AND {_LIVE} RETURNING {MATCH_COLUMNS}",
                channel_id,
                home_channel_id,
                match_id,
            )
        except self._unique_violation as exc:  # the new channel has a game already
            raise ChannelBusyError() from exc
        if row is None:
            raise ConflictError()
        self._live.forget(match_id)
        moved = parse_match(row)
        self._live.remember(moved)
        return moved

    async def note_board(self, match_id: int, channel_id: int, message_id: int) -> None:
        """Remember the match's latest board message (not a change of the game: no version)."""
        await self.write(
            "UPDATE matches SET board_channel_id = $1, board_message_id = $2 WHERE id = $3",
            channel_id,
            message_id,
            match_id,
        )

    async def note_notified(self, match_id: int, version: int) -> bool:
        """Record that the player to act at ``version`` was reminded; False if done already.

        The check and the write are one statement, so two processes never both remind.
        """
        changed = await self.write(
            "UPDATE matches SET notified_version = $1 WHERE id = $2 AND version = $1 "
            "AND (notified_version IS NULL OR notified_version <> $1)",
            version,
            match_id,
        )
        return changed == 1

    # --- an action's transaction ---------------------------------------------------------

    async def _apply(self, tx: Tx, change: Change) -> MatchRow:
        """The statements of one action inside the backend's transaction (:mod:`.action`)."""
        return await write_action(tx, change, self._fault)

    # --- post-game reviews ---------------------------------------------------------------

    async def queue_review(self, match_id: int, game_number: int, now: float) -> None:
        """Remember that a finished game's review is owed (until :meth:`review_posted`)."""
        await self.write(
            "INSERT INTO pending_reviews (match_id, game_number, queued_at) VALUES ($1, $2, $3) "
            "ON CONFLICT DO NOTHING",
            match_id,
            game_number,
            now,
        )

    async def review_posted(self, match_id: int, game_number: int) -> None:
        await self.write(
            "DELETE FROM pending_reviews WHERE match_id = $1 AND game_number = $2",
            match_id,
            game_number,
        )

    async def pending_reviews(self) -> list[tuple[int, int]]:
        """(match id, game number) of every review owed, oldest first."""
        rows = await self.fetch(
            "SELECT match_id, game_number FROM pending_reviews "
            "ORDER BY queued_at, match_id, game_number"
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def save_game_review(self, match_id: int, game_number: int, review: str) -> None:
        """Keep a finished game's review (JSON): it never changes."""
        await self.write(
            "INSERT INTO game_reviews (match_id, game_number, review) VALUES ($1, $2, $3) "
            "ON CONFLICT (match_id, game_number) DO UPDATE SET review = excluded.review",
            match_id,
            game_number,
            review,
        )

    async def game_review(self, match_id: int, game_number: int) -> str | None:
        rows = await self.fetch(
            "SELECT review FROM game_reviews WHERE match_id = $1 AND game_number = $2",
            match_id,
            game_number,
        )
        return str(rows[0][0]) if rows else None

    # --- events and results --------------------------------------------------------------

    async def events(self, match_id: int) -> list[EventRecord]:
        rows = await self.fetch(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE match_id = $1 ORDER BY seq", match_id
        )
        return [event_from_row(row) for row in rows]

    async def game_results(self, match_id: int) -> list[FinishedGame]:
        rows = await self.fetch(
            f"SELECT {GAME_RESULT_COLUMNS} FROM game_results WHERE match_id = $1 "
            "ORDER BY game_number",
            match_id,
        )
        return [finished_game_from_row(row) for row in rows]

    async def roll_events(self, guild_id: int) -> list[tuple[tuple[int, int], list[EventRecord]]]:
        """Every match's rolls on a server (opening and roll events), with its two players."""
        columns = ", ".join(f"e.{column}" for column in EVENT_COLUMNS.split(", "))
        rows = await self.fetch(
            f"SELECT m.id, m.player0_id, m.player1_id, {columns} "
            "FROM events e JOIN matches m ON m.id = e.match_id "
            "WHERE m.guild_id = $1 AND e.action IN ('opening', 'roll') "
            "ORDER BY e.match_id, e.seq",
            guild_id,
        )
        matches: dict[int, tuple[tuple[int, int], list[EventRecord]]] = {}
        for row in rows:
            _, events = matches.setdefault(row[0], ((row[1], row[2]), []))
            events.append(event_from_row(tuple(row)[3:]))
        return list(matches.values())

    # --- players -------------------------------------------------------------------------

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        rows = await self.fetch(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = $1 AND user_id = $2",
            guild_id,
            user_id,
        )
        return PlayerStats(*rows[0]) if rows else None

    async def computer_results(self, guild_id: int, user_id: int) -> list[ComputerResults]:
        """A player's record against the computer on a server, one row per level."""
        rows = await self.fetch(
            f"SELECT {COMPUTER_COLUMNS} FROM computer_results "
            "WHERE guild_id = $1 AND user_id = $2 ORDER BY level",
            guild_id,
            user_id,
        )
        return [ComputerResults(*row) for row in rows]

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]:
        """A player's rating after each rated match on a server: (time, rating), oldest first."""
        rows = await self.fetch(
            "SELECT rated_at, rating FROM rating_history WHERE guild_id = $1 AND user_id = $2 "
            "ORDER BY rated_at, match_id",
            guild_id,
            user_id,
        )
        return [(float(row[0]), float(row[1])) for row in rows]

    async def leaderboard(
        self, guild_id: int, *, min_rated_matches: int = 1, limit: int = 10
    ) -> list[PlayerStats]:
        """Players of a server by rating, among those with enough rated matches."""
        rows = await self.fetch(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = $1 AND rated_matches >= $2 "
            "ORDER BY rating DESC, rated_matches DESC, user_id LIMIT $3",
            guild_id,
            max(min_rated_matches, 1),
            limit,
        )
        return [PlayerStats(*row) for row in rows]

    # --- settings ------------------------------------------------------------------------

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        rows = await self.fetch(
            f"SELECT {GUILD_SETTINGS_COLUMNS} FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return guild_settings_from_row(rows[0] if rows else None)

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        await self.write(
            f"INSERT INTO guild_settings (guild_id, {GUILD_SETTINGS_COLUMNS}) "
            "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (guild_id) DO UPDATE SET "
            "threads = excluded.threads, language = excluded.language, claim = excluded.claim, "
            "web_links = excluded.web_links, public_leaderboard = excluded.public_leaderboard",
            guild_id,
            *guild_settings_values(settings),
        )

    async def user_settings(self, user_id: int) -> UserSettings:
        rows = await self.fetch(
            f"SELECT {USER_SETTINGS_COLUMNS} FROM user_settings WHERE user_id = $1", user_id
        )
        return user_settings_from_row(rows[0] if rows else None)

    async def save_user_settings(self, user_id: int, settings: UserSettings) -> None:
        await self.write(
            f"INSERT INTO user_settings (user_id, {USER_SETTINGS_COLUMNS}) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO UPDATE SET "
            "notify = excluded.notify, notify_minutes = excluded.notify_minutes, "
            "board_side = excluded.board_side, theme = excluded.theme",
            user_id,
            *user_settings_values(settings),
        )

    # --- copying (python -m bot copy-db) -------------------------------------------------

    async def export_rows(self, table: str, columns: str) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self.fetch(f"SELECT {columns} FROM {table}")]

    async def is_empty(self, tables: Sequence[str]) -> bool:
        for table in tables:
            if await self.fetch(f"SELECT 1 FROM {table} LIMIT 1"):
                return False
        return True


__all__ = ["SQLStore", "Tx"]
