"""SQLite persistence (aiosqlite): every SQL statement of the project lives in this module.

The schema is in :mod:`bot.storage.schema`, the reading of rows in :mod:`bot.storage.rows`.

One row in ``matches`` is a challenge that may become a match (a money game is a match of
one game). The row keeps the whole engine state as JSON plus a ``version``: every change is
``UPDATE ... WHERE version = ?`` inside one transaction together with its events, finished
games and player statistics, so an action is either wholly applied or not at all, and two
racing writers can never both win. A partial unique index keeps one live row per channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

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
from bot.storage.rows import (
    COMPUTER_COLUMNS,
    MATCH_COLUMNS,
    MATCH_COLUMNS_OF_M,
    PLAYER_COLUMNS,
    event_from_row,
    match_from_row,
    parse_match,
)
from bot.storage.schema import MIGRATIONS
from bot.storage.stats import counts, human_ids, settle

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


def _result_values(result: GameResult) -> tuple[int, int, int, int, str]:
    """A game result as the columns winner, kind, cube, points, reason."""
    return result.winner, int(result.kind), result.cube, result.points, result.reason.value


class Store:
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

    def __init__(
        self, connection: aiosqlite.Connection, path: str, reader: aiosqlite.Connection | None
    ) -> None:
        self._db = connection
        self._reader = reader
        self.path = path
        self._lock = asyncio.Lock()
        # The parsed live row of each channel as this store last read or wrote it. Every
        # read still asks the database for the row (one round trip), but when its id and
        # version are the ones cached, the JSON state is not parsed again. Another process
        # writing the same file bumps the version, so a stale row is never served.
        self._live: dict[int, MatchRow] = {}
        # Actions waiting to be written, and the task writing them (see apply).
        self._pending: list[tuple[Change, asyncio.Future[MatchRow]]] = []
        self._committer: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed by apply (several actions may share one)
        # Test seam: called with a label before each write statement of a transaction.
        self.fault_hook: Callable[[str], None] | None = None

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

    # --- matches -------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """Serialise a channel's actions across processes: nothing to do for SQLite.

        One process owns an SQLite file; the session's in-process lock already serialises
        the channel. (PostgreSQL holds an advisory lock here.)
        """
        yield

    async def live_match(self, channel_id: int) -> MatchRow | None:
        """The challenge or match in progress in a channel, if any, as stored right now.

        Raises :class:`UnreadableMatchError` when the row's saved state no longer parses.
        """
        rows = await self._select(
            f"SELECT {MATCH_COLUMNS} FROM matches "
            "WHERE channel_id = ? AND status IN ('challenge', 'playing')",
            (channel_id,),
        )
        if not rows:
            self._live.pop(channel_id, None)
            return None
        raw = rows[0]
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
        """Set aside a live row whose state cannot be read: it ends with no result.

        The row keeps its unreadable state for whoever investigates; ``end_reason`` says
        why it ended, and reads of the channel's latest match skip it.
        """
        async with self._lock:
            await self._db.execute(
                "UPDATE matches SET status = 'cancelled', end_reason = ?, updated_at = ?, "
                "version = version + 1 WHERE id = ? AND status IN ('challenge', 'playing')",
                (UNREADABLE, now, match_id),
            )
        self._forget(match_id)

    async def latest_match(self, channel_id: int) -> MatchRow | None:
        """The most recent match (live or finished) that was actually played in a channel."""
        return await self._one_match(
            f"SELECT {MATCH_COLUMNS} FROM matches "
            "WHERE channel_id = ? AND state IS NOT NULL AND end_reason IS NOT ? "
            "ORDER BY id DESC LIMIT 1",
            (channel_id, UNREADABLE),
        )

    async def get_match(self, match_id: int) -> MatchRow | None:
        return await self._one_match(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)
        )

    async def live_matches(self) -> list[MatchRow]:
        rows = await self._select(
            f"SELECT {MATCH_COLUMNS} FROM matches "
            "WHERE status IN ('challenge', 'playing') ORDER BY id"
        )
        return [parse_match(row) for row in rows]

    async def reminder_candidates(self, now: float) -> list[MatchRow]:
        rows = await self._select(
            f"SELECT {MATCH_COLUMNS_OF_M} FROM matches AS m "
            "WHERE m.status = 'playing' "
            "AND (m.notified_version IS NULL OR m.notified_version <> m.version) "
            "AND EXISTS (SELECT 1 FROM user_settings AS u "
            "WHERE u.user_id IN (m.player0_id, m.player1_id) AND u.notify = 'idle' "
            "AND m.last_action_at <= ? - 60 * u.notify_minutes) ORDER BY m.id",
            (now,),
        )
        return [parse_match(row) for row in rows]

    async def _one_match(self, sql: str, params: Sequence[Any]) -> MatchRow | None:
        rows = await self._select(sql, params)
        return parse_match(rows[0]) if rows else None

    async def _select(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """All rows of a query in one round trip to the database thread.

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
        async with self._lock:
            try:
                rows = await self._db.execute_fetchall(
                    "INSERT INTO matches (guild_id, channel_id, status, player0_id, "
                    "player0_name, player1_id, player1_name, options, rated, computer_level, "
                    "created_at, updated_at, last_action_at, expires_at, dice_secret, "
                    "dice_commitment) "
                    "VALUES (?, ?, 'challenge', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    f"RETURNING {MATCH_COLUMNS}",
                    (
                        guild_id,
                        channel_id,
                        p0,
                        n0,
                        p1,
                        n1,
                        codec.dumps({**codec.options_to_dict(options), "auto_play": auto_play}),
                        int(rated),
                        computer_level,
                        now,
                        now,
                        now,
                        expires_at,
                        dice.secret if dice else None,
                        dice.commitment if dice else None,
                    ),
                )
            except sqlite3.IntegrityError as exc:
                raise ChannelBusyError() from exc
        [row] = rows
        created = match_from_row(row, None)
        self._remember(created)
        return created

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
                        self._remember(result)
                        if not future.done():
                            future.set_result(result)
                        continue
                    if isinstance(result, ConflictError):
                        self._forget(change.match_id)  # someone else wrote it: read it afresh
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
                    results.append(await self._apply(change))
                    break
                await db.execute("SAVEPOINT action")
                try:
                    row = await self._apply(change)
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

    def _fault(self, label: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(label)

    async def _apply(self, change: Change) -> MatchRow:
        """The statements of one action, inside the caller's transaction; the new row.

        Few round trips on purpose: the update returns the new row, and all the events go
        in one ``executemany`` whose statement numbers each event after the last one.
        """
        db = self._db
        outcome = change.outcome
        self._fault("update")
        updated = list(
            await db.execute_fetchall(
                "UPDATE matches SET status = ?, state = ?, version = version + 1, updated_at = ?, "
                "last_action_at = CASE WHEN ? THEN ? ELSE last_action_at END, "
                "winner = ?, score0 = ?, score1 = ?, end_reason = ?, "
                "dice_public = COALESCE(?, dice_public), dice_drawn = COALESCE(?, dice_drawn) "
                f"WHERE id = ? AND version = ? RETURNING {MATCH_COLUMNS}",
                (
                    change.status,
                    codec.dumps(codec.game_to_dict(change.game)) if change.game else None,
                    change.now,
                    int(change.touch),
                    change.now,
                    outcome.winner if outcome else None,
                    outcome.final_score[0] if outcome else None,
                    outcome.final_score[1] if outcome else None,
                    outcome.reason if outcome else None,
                    change.dice_public,
                    change.dice_drawn,
                    change.match_id,
                    change.expected_version,
                ),
            )
        )
        if len(updated) != 1:
            raise ConflictError()
        match = match_from_row(updated[0], change.game)
        if change.events:
            for _event in change.events:
                self._fault("event")
            await db.executemany(
                "INSERT INTO events (match_id, seq, game_number, actor_id, player, action, "
                "notation, dice, position_id, gnu_match_id, created_at) "
                "SELECT ?1, COALESCE(MAX(seq), 0) + 1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 "
                "FROM events WHERE match_id = ?1",
                [
                    (
                        change.match_id,
                        event.game_number,
                        event.actor_id,
                        event.player,
                        event.action,
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
            await self._settle(match, change)
        return match

    async def _settle(self, match: MatchRow, change: Change) -> None:
        """Finished games and what they add to the records (the policy is in :mod:`.stats`)."""
        db = self._db
        if change.finished_games:
            await db.executemany(
                "INSERT INTO game_results (match_id, game_number, winner, kind, cube, points, "
                "reason, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (match.id, f.game_number, *_result_values(f.result), change.now)
                    for f in change.finished_games
                ],
            )
        if match.computer_level is not None:
            key = (match.guild_id, match.player_ids[0], match.computer_level)
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {COMPUTER_COLUMNS} FROM computer_results "
                    "WHERE guild_id = ? AND user_id = ? AND level = ?",
                    key,
                )
            )
            record = settle(
                match,
                change.finished_games,
                change.outcome,
                computer=ComputerResults(*rows[0]) if rows else None,
            ).computer
            assert record is not None
            await db.execute(
                f"INSERT OR REPLACE INTO computer_results (guild_id, user_id, {COMPUTER_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*key[:2], *dataclasses.astuple(record)),
            )
            return
        ids = human_ids(match)
        found = await db.execute_fetchall(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ? "
            f"AND user_id IN ({', '.join('?' for _ in ids)})",
            (match.guild_id, *ids),
        )
        settled = settle(
            match,
            change.finished_games,
            change.outcome,
            players={row[1]: PlayerStats(*row) for row in found},
        )
        await db.executemany(
            f"INSERT OR REPLACE INTO players ({PLAYER_COLUMNS}) "
            f"VALUES ({', '.join('?' for _ in range(18))})",
            [dataclasses.astuple(record) for record in settled.players],
        )
        if settled.history:
            await db.executemany(
                "INSERT INTO rating_history (guild_id, user_id, match_id, rated_at, rating) "
                "VALUES (?, ?, ?, ?, ?)",
                [
                    (match.guild_id, user_id, match.id, match.updated_at, rating)
                    for user_id, rating in settled.history
                ],
            )

    # --- events --------------------------------------------------------------------------

    async def events(self, match_id: int) -> list[EventRecord]:
        rows = await self._select(
            "SELECT seq, game_number, actor_id, player, action, notation, dice, position_id, "
            "gnu_match_id, created_at FROM events WHERE match_id = ? ORDER BY seq",
            (match_id,),
        )
        return [event_from_row(row) for row in rows]

    async def relocate(self, match_id: int, channel_id: int, home_channel_id: int) -> MatchRow:
        """Move a live match to another channel (its own thread), remembering its home."""
        async with self._lock:
            try:
                rows = list(
                    await self._db.execute_fetchall(
                        "UPDATE matches SET channel_id = ?, home_channel_id = ?, "
                        "version = version + 1 WHERE id = ? AND status IN ('challenge', 'playing') "
                        f"RETURNING {MATCH_COLUMNS}",
                        (channel_id, home_channel_id, match_id),
                    )
                )
            except sqlite3.IntegrityError as exc:  # the new channel has a game already
                raise ChannelBusyError() from exc
        if not rows:
            raise ConflictError()
        self._forget(match_id)
        moved = parse_match(rows[0])
        self._remember(moved)
        return moved

    async def note_board(self, match_id: int, channel_id: int, message_id: int) -> None:
        """Remember the match's latest board message (not a change of the game: no version)."""
        async with self._lock:
            await self._db.execute(
                "UPDATE matches SET board_channel_id = ?, board_message_id = ? WHERE id = ?",
                (channel_id, message_id, match_id),
            )

    async def note_notified(self, match_id: int, version: int) -> bool:
        """Record that the player to act at ``version`` was reminded; False if done already.

        The check and the write are one statement, so two processes never both remind.
        """
        async with self._lock:
            cursor = await self._db.execute(
                "UPDATE matches SET notified_version = ? WHERE id = ? AND version = ? "
                "AND notified_version IS NOT ?",
                (version, match_id, version, version),
            )
            changed = cursor.rowcount
            await cursor.close()
        return changed == 1

    async def queue_review(self, match_id: int, game_number: int, now: float) -> None:
        """Remember that a finished game's review is owed (until :meth:`review_posted`)."""
        async with self._lock:
            await self._db.execute(
                "INSERT OR IGNORE INTO pending_reviews (match_id, game_number, queued_at) "
                "VALUES (?, ?, ?)",
                (match_id, game_number, now),
            )

    async def review_posted(self, match_id: int, game_number: int) -> None:
        async with self._lock:
            await self._db.execute(
                "DELETE FROM pending_reviews WHERE match_id = ? AND game_number = ?",
                (match_id, game_number),
            )

    async def save_game_review(self, match_id: int, game_number: int, review: str) -> None:
        """Keep a finished game's review (JSON): it never changes."""
        async with self._lock:
            await self._db.execute(
                "INSERT OR REPLACE INTO game_reviews (match_id, game_number, review) "
                "VALUES (?, ?, ?)",
                (match_id, game_number, review),
            )

    async def game_review(self, match_id: int, game_number: int) -> str | None:
        rows = await self._select(
            "SELECT review FROM game_reviews WHERE match_id = ? AND game_number = ?",
            (match_id, game_number),
        )
        return str(rows[0][0]) if rows else None

    async def pending_reviews(self) -> list[tuple[int, int]]:
        """(match id, game number) of every review owed, oldest first."""
        rows = await self._select(
            "SELECT match_id, game_number FROM pending_reviews ORDER BY queued_at, match_id, "
            "game_number",
            (),
        )
        return [(int(row[0]), int(row[1])) for row in rows]

    async def live_matches_in(self, guild_id: int) -> list[MatchRow]:
        """Every live challenge and match on a server (unreadable ones left out)."""
        rows = await self._select(
            f"SELECT {MATCH_COLUMNS} FROM matches "
            "WHERE guild_id = ? AND status IN ('challenge', 'playing') ORDER BY id",
            (guild_id,),
        )
        matches = []
        for raw in rows:
            with contextlib.suppress(UnreadableMatchError):
                matches.append(parse_match(raw))
        return matches

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        rows = await self._select(
            "SELECT threads, language, claim FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        if not rows:
            return GuildSettings()
        threads, language, claim = rows[0]
        return GuildSettings(threads=bool(threads), language=language, claim=ClaimRule(claim))

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        async with self._lock:
            await self._db.execute(
                "INSERT INTO guild_settings (guild_id, threads, language, claim) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "threads = excluded.threads, language = excluded.language, claim = excluded.claim",
                (guild_id, int(settings.threads), settings.language, str(settings.claim)),
            )

    async def user_settings(self, user_id: int) -> UserSettings:
        rows = await self._select(
            "SELECT notify, notify_minutes, board_side, theme FROM user_settings WHERE user_id = ?",
            (user_id,),
        )
        return UserSettings(*rows[0]) if rows else UserSettings()

    async def save_user_settings(self, user_id: int, settings: UserSettings) -> None:
        async with self._lock:
            await self._db.execute(
                "INSERT INTO user_settings (user_id, notify, notify_minutes, board_side, theme) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "notify = excluded.notify, notify_minutes = excluded.notify_minutes, "
                "board_side = excluded.board_side, theme = excluded.theme",
                (
                    user_id,
                    settings.notify,
                    settings.notify_minutes,
                    settings.board_side,
                    settings.theme,
                ),
            )

    async def match_by_dice_public(self, public: str) -> MatchRow | None:
        """The match whose dice mixed in this public value (for checking its dice)."""
        return await self._one_match(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE dice_public = ? ORDER BY id LIMIT 1",
            (public,),
        )

    async def roll_events(self, guild_id: int) -> list[tuple[tuple[int, int], list[EventRecord]]]:
        """Every match's rolls on a server (opening and roll events), with its two players."""
        rows = await self._select(
            "SELECT m.id, m.player0_id, m.player1_id, e.seq, e.game_number, e.actor_id, "
            "e.player, e.action, e.notation, e.dice, e.position_id, e.gnu_match_id, "
            "e.created_at FROM events e JOIN matches m ON m.id = e.match_id "
            "WHERE m.guild_id = ? AND e.action IN ('opening', 'roll') ORDER BY e.match_id, e.seq",
            (guild_id,),
        )
        matches: dict[int, tuple[tuple[int, int], list[EventRecord]]] = {}
        for row in rows:
            _, events = matches.setdefault(row[0], ((row[1], row[2]), []))
            events.append(event_from_row(row[3:]))
        return list(matches.values())

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]:
        """A player's rating after each rated match on a server: (time, rating), oldest first."""
        rows = await self._select(
            "SELECT rated_at, rating FROM rating_history WHERE guild_id = ? AND user_id = ? "
            "ORDER BY rated_at, match_id",
            (guild_id, user_id),
        )
        return [(float(row[0]), float(row[1])) for row in rows]

    async def game_results(self, match_id: int) -> list[FinishedGame]:
        rows = await self._select(
            "SELECT game_number, winner, kind, cube, points, reason FROM game_results "
            "WHERE match_id = ? ORDER BY game_number",
            (match_id,),
        )
        return [
            FinishedGame(
                row[0], GameResult(row[1], ResultKind(row[2]), row[3], row[4], EndReason(row[5]))
            )
            for row in rows
        ]

    # --- players -------------------------------------------------------------------------

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None:
        rows = await self._select(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return PlayerStats(*rows[0]) if rows else None

    async def computer_results(self, guild_id: int, user_id: int) -> list[ComputerResults]:
        """A player's record against the computer on a server, one row per level."""
        rows = await self._select(
            f"SELECT {COMPUTER_COLUMNS} FROM computer_results "
            "WHERE guild_id = ? AND user_id = ? ORDER BY level",
            (guild_id, user_id),
        )
        return [ComputerResults(*row) for row in rows]

    async def leaderboard(
        self, guild_id: int, *, min_rated_matches: int = 1, limit: int = 10
    ) -> list[PlayerStats]:
        """Players of a server by rating, among those with enough rated matches."""
        rows = await self._select(
            f"SELECT {PLAYER_COLUMNS} FROM players WHERE guild_id = ? AND rated_matches >= ? "
            "ORDER BY rating DESC, rated_matches DESC, user_id LIMIT ?",
            (guild_id, max(min_rated_matches, 1), limit),
        )
        return [PlayerStats(*row) for row in rows]

    # --- copying (python -m bot copy-db) -------------------------------------------------

    async def export_rows(self, table: str, columns: str) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in await self._select(f"SELECT {columns} FROM {table}")]

    async def is_empty(self, tables: Sequence[str]) -> bool:
        for table in tables:
            if await self._select(f"SELECT 1 FROM {table} LIMIT 1"):
                return False
        return True

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


__all__ = ["Store"]
