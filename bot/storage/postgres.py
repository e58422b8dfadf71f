"""PostgreSQL persistence (asyncpg), for several bot processes sharing one database.

The same tables, rows and behaviour as the SQLite store (:mod:`bot.storage.sqlite`); what
changes is how processes stay out of each other's way:

* ``channel_lock`` holds a session advisory lock for the channel on a connection of its own
  for the whole action, so two processes never interleave actions in one channel;
* every write is ``UPDATE ... WHERE version = $n`` inside one transaction with its events,
  results and statistics, so an action is applied at most once whoever races it;
* a finished game locks its players' rows in user-id order (an upsert that returns the row,
  which is ``SELECT ... FOR UPDATE`` that also creates a missing player): two matches sharing
  a player finish one after the other, never deadlock, and no rating is lost;
* migrations run under a transaction-scoped advisory lock, so processes starting together
  migrate once;
* a server that goes away mid-game is reported to the player truthfully and survived
  without a restart (:mod:`.pg_link`, which also holds the lock keys and the connections'
  plumbing).

The statistics policy itself is plain code shared with SQLite (:mod:`bot.storage.stats`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import asyncpg

from bot import codec
from bot.engine import EndReason, GameResult, MatchOptions, ResultKind
from bot.errors import (
    ChannelBusyError,
    ConflictError,
    StoreOpenError,
    StoreUnavailableError,
    UnreadableMatchError,
)
from bot.records import (
    UNREADABLE,
    Change,
    ClaimRule,
    ComputerResults,
    DiceSeal,
    EventRecord,
    FinishedGame,
    GuildSettings,
    MatchRow,
    PlayerStats,
    UserSettings,
)
from bot.storage import redact
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
from bot.storage.rows import (
    COMPUTER_COLUMNS,
    MATCH_COLUMNS,
    MATCH_COLUMNS_OF_M,
    PLAYER_COLUMNS,
    event_from_row,
    match_from_row,
    parse_match,
)
from bot.storage.stats import counts, human_ids, settle

log = logging.getLogger(__name__)

_PLAYER_UPDATE = ", ".join(f"{name} = ${n}" for n, name in enumerate(PLAYER_COLUMNS.split(", "), 1))


class PostgresStore:
    """The database on a PostgreSQL server. Open with :meth:`open`; all methods are coroutines.

    Two pools: one for statements, one whose connections each hold a channel's advisory
    lock for the length of an action. An action holding a lock still reads and writes
    through the first pool, so the locks can never starve the statements they wait for.
    """

    def __init__(self, pool: asyncpg.Pool, locks: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self._db = Link(pool)  # the pool, each failure of the server told truthfully
        self._locks = locks
        self.url = url
        self.path = redact(url)  # what messages name, as the SQLite store's path
        self._live: dict[int, MatchRow] = {}  # parsed live rows, as the SQLite store keeps
        self.commits = 0  # transactions committed by apply
        # Test seam: called with a label before each write statement of a transaction.
        self.fault_hook: Callable[[str], None] | None = None

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

    async def live_match(self, channel_id: int) -> MatchRow | None:
        """The challenge or match in progress in a channel, if any, as stored right now.

        Raises :class:`UnreadableMatchError` when the row's saved state no longer parses.
        """
        raw = await self._db.fetchrow(
            f"SELECT {MATCH_COLUMNS} FROM matches "
            "WHERE channel_id = $1 AND status IN ('challenge', 'playing')",
            channel_id,
        )
        if raw is None:
            self._live.pop(channel_id, None)
            return None
        cached = self._live.get(channel_id)
        if cached is not None and cached.id == raw[0] and cached.version == raw[12]:
            return cached
        row = parse_match(raw)
        self._remember(row)
        return row

    def _remember(self, row: MatchRow) -> None:
        if row.live:
            self._live[row.channel_id] = row
        elif (cached := self._live.get(row.channel_id)) is not None and cached.id == row.id:
            del self._live[row.channel_id]

    def _forget(self, match_id: int) -> None:
        for channel_id, row in list(self._live.items()):
            if row.id == match_id:
                del self._live[channel_id]

    async def quarantine(self, match_id: int, now: float) -> None:
        """Set aside a live row whose state cannot be read: it ends with no result."""
        await self._db.write(
            "UPDATE matches SET status = 'cancelled', end_reason = $1, updated_at = $2, "
            "version = version + 1 WHERE id = $3 AND status IN ('challenge', 'playing')",
            UNREADABLE,
            now,
            match_id,
        )
        self._forget(match_id)

    async def latest_match(self, channel_id: int) -> MatchRow | None:
        """The most recent match (live or finished) that was actually played in a channel."""
        return await self._one_match(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = $1 AND state IS NOT NULL "
            "AND end_reason IS DISTINCT FROM $2 ORDER BY id DESC LIMIT 1",
            channel_id,
            UNREADABLE,
        )

    async def get_match(self, match_id: int) -> MatchRow | None:
        return await self._one_match(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = $1", match_id)

    async def live_matches(self) -> list[MatchRow]:
        rows = await self._db.fetch(
            f"SELECT {MATCH_COLUMNS} FROM matches "
            "WHERE status IN ('challenge', 'playing') ORDER BY id"
        )
        return [parse_match(row) for row in rows]

    async def reminder_candidates(self, now: float) -> list[MatchRow]:
        rows = await self._db.fetch(
            f"SELECT {MATCH_COLUMNS_OF_M} FROM matches AS m "
            "WHERE m.status = 'playing' "
            "AND (m.notified_version IS NULL OR m.notified_version <> m.version) "
            "AND EXISTS (SELECT 1 FROM user_settings AS u "
            "WHERE u.user_id IN (m.player0_id, m.player1_id) AND u.notify = 'idle' "
            "AND m.last_action_at <= $1 - 60 * u.notify_minutes) ORDER BY m.id",
            now,
        )
        return [parse_match(row) for row in rows]

    async def _one_match(self, sql: str, *params: Any) -> MatchRow | None:
        raw = await self._db.fetchrow(sql, *params)
        return parse_match(raw) if raw is not None else None

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
    ) -> MatchRow:
        """Store a new challenge; the channel must be free."""
        (p0, n0), (p1, n1) = players
        try:
            row = await self._db.write_row(
                "INSERT INTO matches (guild_id, channel_id, status, player0_id, player0_name, "
                "player1_id, player1_name, options, rated, computer_level, created_at, "
                "updated_at, last_action_at, expires_at, dice_secret, dice_commitment) "
                "VALUES ($1, $2, 'challenge', $3, $4, $5, $6, $7, $8, $9, $10, $10, $10, $11, "
                f"$12, $13) RETURNING {MATCH_COLUMNS}",
                guild_id,
                channel_id,
                p0,
                n0,
                p1,
                n1,
                codec.dumps({**codec.options_to_dict(options), "auto_play": auto_play}),
                bool(rated),
                computer_level,
                now,
                expires_at,
                dice.secret if dice else None,
                dice.commitment if dice else None,
            )
        except asyncpg.UniqueViolationError as exc:
            raise ChannelBusyError() from exc
        created = match_from_row(row, None)
        self._remember(created)
        return created

    async def apply(self, change: Change) -> MatchRow:
        """Apply one action atomically: state, events, results, statistics, ratings.

        Raises :class:`ConflictError` (and writes nothing) when the row's version is no
        longer ``expected_version``: of two processes racing the same action, one wins.
        """
        try:
            async with self._db.connection() as conn:
                row = await self._transaction(conn, change)
        except StoreUnavailableError:
            self._forget(change.match_id)  # it may have been written: read it afresh
            raise
        except ConflictError:
            self._forget(change.match_id)  # someone else wrote it: read it afresh
            raise
        except (asyncpg.DeadlockDetectedError, asyncpg.SerializationError) as exc:
            # Not expected (rows are locked in one order), but if the server ever aborts
            # the transaction for it, nothing was written: the session retries a conflict.
            self._forget(change.match_id)
            raise ConflictError() from exc
        self.commits += 1
        self._remember(row)
        return row

    async def _transaction(self, conn: asyncpg.Connection, change: Change) -> MatchRow:
        """The action's transaction, told apart by where a lost server interrupts it: before
        COMMIT nothing was written (the server discards it), during COMMIT it may have been."""
        transaction = conn.transaction()
        with nothing_written("transaction"):
            await transaction.start()
            try:
                row = await self._apply(conn, change)
            except BaseException:
                # A server that went away discarded the transaction itself; rolling back on
                # its dead connection would only hide why the action failed.
                try:
                    await transaction.rollback()
                except Exception as exc:
                    if not is_lost(exc):
                        raise
                raise
        with maybe_written("commit"):
            await transaction.commit()
        return row

    def _fault(self, label: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(label)

    async def _apply(self, conn: asyncpg.Connection, change: Change) -> MatchRow:
        outcome = change.outcome
        self._fault("update")
        updated = await conn.fetchrow(
            "UPDATE matches SET status = $1, state = $2, version = version + 1, "
            "updated_at = $3, last_action_at = CASE WHEN $4 THEN $3 ELSE last_action_at END, "
            "winner = $5, score0 = $6, score1 = $7, end_reason = $8, "
            "dice_public = COALESCE($9, dice_public), dice_drawn = COALESCE($10, dice_drawn) "
            f"WHERE id = $11 AND version = $12 RETURNING {MATCH_COLUMNS}",
            str(change.status),
            codec.dumps(codec.game_to_dict(change.game)) if change.game else None,
            change.now,
            bool(change.touch),
            outcome.winner if outcome else None,
            outcome.final_score[0] if outcome else None,
            outcome.final_score[1] if outcome else None,
            outcome.reason if outcome else None,
            change.dice_public,
            change.dice_drawn,
            change.match_id,
            change.expected_version,
        )
        if updated is None:
            raise ConflictError()
        match = match_from_row(updated, change.game)
        if change.events:
            for _event in change.events:
                self._fault("event")
            # The match row is locked by the update above: the numbering cannot race.
            await conn.executemany(
                "INSERT INTO events (match_id, seq, game_number, actor_id, player, action, "
                "notation, dice, position_id, gnu_match_id, created_at) "
                "SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $10 "
                "FROM events WHERE match_id = $1",
                [
                    (
                        change.match_id,
                        event.game_number,
                        event.actor_id,
                        event.player,
                        str(event.action),
                        event.notation,
                        f"{event.dice[0]}-{event.dice[1]}" if event.dice else None,
                        event.position_id,
                        event.gnu_match_id,
                        change.now,
                    )
                    for event in change.events
                ],
            )
        if counts(change.finished_games, outcome):
            for _finished in change.finished_games:
                self._fault("game_result")
            if outcome is not None and outcome.winner is not None:
                self._fault("match_result")
            await self._settle(conn, match, change)
        return match

    async def _settle(self, conn: asyncpg.Connection, match: MatchRow, change: Change) -> None:
        """Finished games and what they add to the records (the policy is in :mod:`.stats`)."""
        if change.finished_games:
            await conn.executemany(
                "INSERT INTO game_results (match_id, game_number, winner, kind, cube, points, "
                "reason, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                [
                    (
                        match.id,
                        f.game_number,
                        f.result.winner,
                        int(f.result.kind),
                        f.result.cube,
                        f.result.points,
                        f.result.reason.value,
                        change.now,
                    )
                    for f in change.finished_games
                ],
            )
        if match.computer_level is not None:
            # Creates the row if missing and locks it either way, returning it as committed.
            row = await conn.fetchrow(
                "INSERT INTO computer_results (guild_id, user_id, level) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id, user_id, level) DO UPDATE SET level = excluded.level "
                f"RETURNING {COMPUTER_COLUMNS}",
                match.guild_id,
                match.player_ids[0],
                match.computer_level,
            )
            record = settle(
                match, change.finished_games, change.outcome, computer=ComputerResults(*row)
            ).computer
            assert record is not None
            await conn.execute(
                "UPDATE computer_results SET games = $4, game_wins = $5, matches = $6, "
                "match_wins = $7, points_won = $8, points_lost = $9 "
                "WHERE guild_id = $1 AND user_id = $2 AND level = $3",
                match.guild_id,
                match.player_ids[0],
                *(getattr(record, name) for name in COMPUTER_COLUMNS.split(", ")),
            )
            return
        names = dict(zip(match.player_ids, match.player_names, strict=True))
        players: dict[int, PlayerStats] = {}
        for user_id in human_ids(match):  # in user-id order, always: no deadlock
            row = await conn.fetchrow(
                "INSERT INTO players (guild_id, user_id, name) VALUES ($1, $2, $3) "
                "ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name "
                f"RETURNING {PLAYER_COLUMNS}",
                match.guild_id,
                user_id,
                names[user_id],
            )
            players[user_id] = PlayerStats(*row)
        settled = settle(match, change.finished_games, change.outcome, players=players)
        await conn.executemany(
            f"UPDATE players SET {_PLAYER_UPDATE} WHERE guild_id = $1 AND user_id = $2",
            [
                tuple(getattr(record, name) for name in PLAYER_COLUMNS.split(", "))
                for record in settled.players
            ],
        )
        if settled.history:
            await conn.executemany(
                "INSERT INTO rating_history (guild_id, user_id, match_id, rated_at, rating) "
                "VALUES ($1, $2, $3, $4, $5)",
                [
                    (match.guild_id, user_id, match.id, match.updated_at, rating)
                    for user_id, rating in settled.history
                ],
            )

    # --- events --------------------------------------------------------------------------

    async def events(self, match_id: int) -> list[EventRecord]:
        rows = await self._db.fetch(
            "SELECT seq, game_number, actor_id, player, action, notation, dice, position_id, "
            "gnu_match_id, created_at FROM events WHERE match_id = $1 ORDER BY seq",
            match_id,
        )
        return [event_from_row(row) for row in rows]

    async def relocate(self, match_id: int, channel_id: int, home_channel_id: int) -> MatchRow:
        """Move a live match to another channel (its own thread), remembering its home."""
        try:
            row = await self._db.write_row(
                "UPDATE matches SET channel_id = $1, home_channel_id = $2, "
                "version = version + 1 WHERE id = $3 AND status IN ('challenge', 'playing') "
                f"RETURNING {MATCH_COLUMNS}",
                channel_id,
                home_channel_id,
                match_id,
            )
        except asyncpg.UniqueViolationError as exc:  # the new channel has a game already
            raise ChannelBusyError() from exc
        if row is None:
            raise ConflictError()
        self._forget(match_id)
        moved = parse_match(row)
        self._remember(moved)
        return moved

    async def note_board(self, match_id: int, channel_id: int, message_id: int) -> None:
        """Remember the match's latest board message (not a change of the game: no version)."""
        await self._db.write(
            "UPDATE matches SET board_channel_id = $1, board_message_id = $2 WHERE id = $3",
            channel_id,
            message_id,
            match_id,
        )

    async def note_notified(self, match_id: int, version: int) -> bool:
        """Record that the player to act at ``version`` was reminded; False if done already.

        The check and the write are one statement, so two processes never both remind.
        """
        reply = await self._db.write(
            "UPDATE matches SET notified_version = $1 WHERE id = $2 AND version = $1 "
            "AND notified_version IS DISTINCT FROM $1",
            version,
            match_id,
        )
        return row_count(reply) == 1

    async def queue_review(self, match_id: int, game_number: int, now: float) -> None:
        """Remember that a finished game's review is owed (until :meth:`review_posted`)."""
        await self._pool.execute(
            "INSERT INTO pending_reviews (match_id, game_number, queued_at) VALUES ($1, $2, $3) "
            "ON CONFLICT DO NOTHING",
            match_id,
            game_number,
            now,
        )

    async def review_posted(self, match_id: int, game_number: int) -> None:
        await self._pool.execute(
            "DELETE FROM pending_reviews WHERE match_id = $1 AND game_number = $2",
            match_id,
            game_number,
        )

    async def save_game_review(self, match_id: int, game_number: int, review: str) -> None:
        """Keep a finished game's review (JSON): it never changes."""
        await self._pool.execute(
            "INSERT INTO game_reviews (match_id, game_number, review) VALUES ($1, $2, $3) "
            "ON CONFLICT (match_id, game_number) DO UPDATE SET review = EXCLUDED.review",
            match_id,
            game_number,
            review,
        )

    async def game_review(self, match_id: int, game_number: int) -> str | None:
        value = await self._pool.fetchval(
            "SELECT review FROM game_reviews WHERE match_id = $1 AND game_number = $2",
            match_id,
            game_number,
        )
        return None if value is None else str(value)

    async def pending_reviews(self) -> list[tuple[int, int]]:
        """(match id, game number) of every review owed, oldest first."""
        rows = await self._pool.fetch(
            "SELECT match_id, game_number FROM pending_reviews "
            "ORDER BY queued_at, match_id, game_number"
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def live_matches_in(self, guild_id: int) -> list[MatchRow]:
        """Every live challenge and match on a server (unreadable ones left out)."""
        rows = await self._db.fetch(
            f"SELECT {MATCH_COLUMNS} FROM matches "
            "WHERE guild_id = $1 AND status IN ('challenge', 'playing') ORDER BY id",
            guild_id,
        )
        matches = []
        for raw in rows:
            with contextlib.suppress(UnreadableMatchError):
                matches.append(parse_match(raw))
        return matches

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self._db.fetchrow(
            "SELECT threads, language, claim FROM guild_settings WHERE guild_id = $1", guild_id
        )
        if row is None:
            return GuildSettings()
        return GuildSettings(threads=bool(row[0]), language=row[1], claim=ClaimRule(row[2]))

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        await self._db.write(
            "INSERT INTO guild_settings (guild_id, threads, language, claim) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id) DO UPDATE SET "
            "threads = excluded.threads, language = excluded.language, claim = excluded.claim",
            guild_id,
            bool(settings.threads),
            settings.language,
            str(settings.claim),
        )

    async def user_settings(self, user_id: int) -> UserSettings:
        row = await self._db.fetchrow(
            "SELECT notify, notify_minutes, board_side, theme FROM user_settings "
            "WHERE user_id = $1",
            user_id,
        )
        return UserSettings(*row) if row is not None else UserSettings()

    async def save_user_settings(self, user_id: int, settings: UserSettings) -> None:
        await self._db.write(
            "INSERT INTO user_settings (user_id, notify, notify_minutes, board_side, theme) "
            "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO UPDATE SET "
            "notify = excluded.notify, notify_minutes = excluded.notify_minutes, "
            "board_side = excluded.board_side, theme = excluded.theme",
            user_id,
            settings.notify,
            settings.notify_minutes,
            settings.board_side,
            settings.theme,
        )

    async def match_by_dice_public(self, public: str) -> MatchRow | None:
        """The match whose dice mixed in this public value (for checking its dice)."""
        return await self._one_match(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE dice_public = $1 ORDER BY id LIMIT 1",
            public,
        )

    async def roll_events(self, guild_id: int) -> list[tuple[tuple[int, int], list[EventRecord]]]:
        """Every match's rolls on a server (opening and roll events), with its two players."""
        rows = await self._db.fetch(
            "SELECT m.id, m.player0_id, m.player1_id, e.seq, e.game_number, e.actor_id, "
            "e.player, e.action, e.notation, e.dice, e.position_id, e.gnu_match_id, "
            "e.created_at FROM events e JOIN matches m ON m.id = e.match_id "
            "WHERE m.guild_id = $1 AND e.action IN ('opening', 'roll') "
            "ORDER BY e.match_id, e.seq",
            guild_id,
        )
        matches: dict[int, tuple[tuple[int, int], list[EventRecord]]] = {}
        for row in rows:
            _, events = matches.setdefault(row[0], ((row[1], row[2]), []))
            events.append(event_from_row(tuple(row)[3:]))
        return list(matches.values())

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]:
        """A player's rating after each rated match on a server: (time, rating), oldest first."""
        rows = await self._db.fetch(
            "SELECT rated_at, rating FROM rating_history WHERE guild_id = $1 AND user_id = $2 "
            "ORDER BY rated_at, match_id",
            guild_id,
            user_id,
        )
        return [(float(row[0]), float(row[1])) for row in rows]

    async def game_results(self, match_id: int) -> list[FinishedGame]:
        rows = await self._db.fetch(
            "SELECT game_number, winner, kind, cube, points, reason FROM game_results "
            "WHERE match_id = $1 ORDER BY game_number",
            match_id,
        )
        return [
            FinishedGame(
                row[0], GameResult(row[1], ResultKind(row[2]), row[3], row[4], EndReason(row[5]))
            )
            for row in rows
        ]

    # --- players -------------------------------------------------------------------------

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        row = await self._db.fetchrow(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = $1 AND user_id = $2",
            guild_id,
            user_id,
        )
        return PlayerStats(*row) if row is not None else None

    async def computer_results(self, guild_id: int, user_id: int) -> list[ComputerResults]:
        """A player's record against the computer on a server, one row per level."""
        rows = await self._db.fetch(
            f"SELECT {COMPUTER_COLUMNS} FROM computer_results "
            "WHERE guild_id = $1 AND user_id = $2 ORDER BY level",
            guild_id,
            user_id,
        )
        return [ComputerResults(*row) for row in rows]

    async def leaderboard(
        self, guild_id: int, *, min_rated_matches: int = 1, limit: int = 10
    ) -> list[PlayerStats]:
        """Players of a server by rating, among those with enough rated matches."""
        rows = await self._db.fetch(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = $1 AND rated_matches >= $2 "
            "ORDER BY rating DESC, rated_matches DESC, user_id LIMIT $3",
            guild_id,
            max(min_rated_matches, 1),
            limit,
        )
        return [PlayerStats(*row) for row in rows]

    # --- copying (python -m bot copy-db) -------------------------------------------------

    async def export_rows(self, table: str, columns: str) -> list[tuple[Any, ...]]:
        rows = await self._db.fetch(f"SELECT {columns} FROM {table}")
        return [tuple(row) for row in rows]

    async def is_empty(self, tables: Sequence[str]) -> bool:
        for table in tables:
            if await self._db.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                return False
        return True

    async def import_rows(self, tables: Sequence[tuple[str, str, list[tuple[Any, ...]]]]) -> None:
        """Write copied rows, ids kept, in one transaction; the id sequences follow them."""
        async with self._pool.acquire() as conn, conn.transaction():
            for table, columns, rows in tables:
                names = columns.split(", ")
                flags = [name in ("rated", "threads") for name in names]
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
