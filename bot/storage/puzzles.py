"""Where the server's puzzles live: puzzles, attempts, ratings, the daily post, opt-outs.

Its own module, composed over either store's public primitives
(:class:`bot.storage.base.Database`: one SQL text in ``$n`` placeholders, and failures told
as an action's are), so the two
store classes do not grow; :func:`puzzle_store` gives the :class:`PuzzleStorage` of a store.
The tables (migration 8 of SQLite, 5 of PostgreSQL):

- ``puzzles``: one per server, position, dice, score and cube (``UNIQUE (guild_id,
  puzzle_key)``), the puzzle itself as :mod:`bot.features.puzzles.rules.codec`'s JSON, its Glicko-2
  rating, and the source match's two players (NULL: the computer), so a player who keeps their games
  out takes every puzzle of theirs out of the pool at once;
- ``puzzle_sources``: finished matches owed an extraction (kept until done, so a restart
  only delays it), each claimed by the process working on it for a lease that runs out
  (migration 9 of SQLite, 6 of PostgreSQL), so shards never do the same match twice;
- ``puzzle_given``: which puzzle each solver was given (what they have seen; the latest one
  not answered is the one ``/puzzle answer`` answers);
- ``puzzle_attempts``: the first answer of a solver to a puzzle, graded (only it is rated,
  as on lichess); streaks are read from it;
- ``puzzle_solvers``: each solver's Glicko-2 rating and counts, per server;
- ``puzzle_settings``: the daily post's channel and minute of the day (UTC), when the next
  is due, and whether the server names players and links the source match;
- ``puzzle_posts``: the daily posts, with when each is revealed;
- ``puzzle_optouts``: players who keep their games out of puzzles.

May import the records of :mod:`bot.features.puzzles.rules`; never the session or Discord.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.features.puzzles.rules import Glicko, Grade, PoolEntry, SolverStanding
from bot.storage.base import Database
from bot.storage.puzzle_queue import PuzzleQueue

__all__ = [
    "Attempt",
    "DailyPost",
    "PuzzleSettings",
    "PuzzleStorage",
    "PuzzleStore",
    "Rate",
    "StoredPuzzle",
    "puzzle_store",
]


# (solver, puzzle) before an attempt -> both after it: the Glicko-2 update of one answer.
Rate = Callable[[Glicko, Glicko], tuple[Glicko, Glicko]]


@dataclass(frozen=True, slots=True)
class StoredPuzzle:
    """A puzzle row: its id and server, the puzzle's JSON, its rating and its source."""

    id: int
    guild_id: int
    data: str
    rating: Glicko
    players: tuple[int | None, int | None]
    created_at: float


@dataclass(frozen=True, slots=True)
class Attempt:
    """A solver's graded answer to a puzzle."""

    puzzle_id: int
    guild_id: int
    user_id: int
    answer: str
    grade: Grade
    equity_lost: float
    answered_at: float


@dataclass(frozen=True, slots=True)
class PuzzleSettings:
    """A server's puzzle settings: the daily post (channel, minute of the day in UTC, when
    the next is due) and whether puzzles name the players and link the source match."""

    channel_id: int | None = None
    minute: int = 0  # minutes after midnight, UTC
    next_post_at: float | None = None
    name_players: bool = False


@dataclass(frozen=True, slots=True)
class DailyPost:
    """One daily puzzle posted (``message_id`` None: claimed, not sent yet)."""

    id: int
    guild_id: int
    puzzle_id: int
    channel_id: int
    message_id: int | None
    posted_at: float
    reveal_at: float
    revealed: bool


class PuzzleStorage(Protocol):
    """What the puzzle service keeps (both backends)."""

    async def queue_source(self, match_id: int, now: float) -> None: ...

    async def sources(self) -> list[int]: ...

    async def source_done(self, match_id: int) -> None: ...

    async def claim_source(self, match_id: int, owner: str, now: float, until: float) -> bool: ...

    async def renew_source(self, match_id: int, owner: str, until: float) -> bool: ...

    async def release_source(self, match_id: int, owner: str) -> None: ...

    async def next_lease_end(self, now: float) -> float | None: ...

    async def keys(self, guild_id: int) -> set[str]: ...

    async def add_puzzle(
        self,
        guild_id: int,
        key: str,
        data: str,
        *,
        match_id: int,
        owner_id: int | None,
        players: tuple[int | None, int | None],
        now: float,
    ) -> int | None: ...

    async def puzzle(self, puzzle_id: int) -> StoredPuzzle | None: ...

    async def pool(self, guild_id: int) -> list[PoolEntry]: ...

    async def seen(self, guild_id: int, user_id: int) -> set[int]: ...

    async def fresh(
        self, guild_id: int, user_id: int
    ) -> tuple[list[PoolEntry], list[PoolEntry]]: ...

    async def give(self, guild_id: int, user_id: int, puzzle_id: int, now: float) -> None: ...

    async def current(self, guild_id: int, user_id: int) -> int | None: ...

    async def attempt_of(self, puzzle_id: int, user_id: int) -> Attempt | None: ...

    async def record_attempt(
        self, attempt: Attempt, rate: Rate
    ) -> tuple[Glicko, Glicko] | None: ...

    async def solver(self, guild_id: int, user_id: int) -> SolverStanding | None: ...

    async def solver_history(self, guild_id: int, user_id: int) -> list[tuple[Grade, float]]: ...

    async def standings(self, guild_id: int) -> list[SolverStanding]: ...

    async def solved_by(self, puzzle_id: int, since: float, until: float) -> list[int]: ...

    async def settings(self, guild_id: int) -> PuzzleSettings: ...

    async def save_settings(self, guild_id: int, settings: PuzzleSettings) -> None: ...

    async def due_daily(self, now: float) -> list[tuple[int, PuzzleSettings]]: ...

    async def claim_post(
        self,
        guild_id: int,
        puzzle_id: int,
        channel_id: int,
        now: float,
        reveal_at: float,
        next_post_at: float,
    ) -> DailyPost | None: ...

    async def post_sent(
        self, post_id: int, message_id: int, sent_at: float, reveal_at: float
    ) -> None: ...

    async def unsent_posts(self) -> list[DailyPost]: ...

    async def due_reveals(self, now: float) -> list[DailyPost]: ...

    async def revealed(self, post_id: int) -> None: ...

    async def post(self, post_id: int) -> DailyPost | None: ...

    async def posted_puzzles(self, guild_id: int) -> set[int]: ...

    async def set_kept_out(self, user_id: int, kept_out: bool, now: float) -> None: ...

    async def kept_out(self, user_ids: Sequence[int]) -> set[int]: ...


_POST = "id, guild_id, puzzle_id, channel_id, message_id, posted_at, reveal_at, revealed"
# A puzzle is in the pool unless a player of its source match keeps their games out.
# Where each puzzle's source match could be seen (bot.core.visibility.deciding_channel).
_SOURCE = "COALESCE(m.home_channel_id, m.channel_id)"
_SOURCE_JOIN = (
    "LEFT JOIN (SELECT id, channel_id, home_channel_id FROM matches) m ON m.id = p.match_id"
)


def _entry(row: Sequence[Any]) -> PoolEntry:
    owner, source = row[1], row[3]
    return PoolEntry(
        int(row[0]),
        None if owner is None else int(owner),
        float(row[2]),
        None if source is None else int(source),
    )


_IN_POOL = (
    "NOT EXISTS (SELECT 1 FROM puzzle_optouts o "
    "WHERE o.user_id = p.player0_id OR o.user_id = p.player1_id)"
)


def _post(row: Sequence[Any]) -> DailyPost:
    return DailyPost(
        int(row[0]),
        int(row[1]),
        int(row[2]),
        int(row[3]),
        None if row[4] is None else int(row[4]),
        float(row[5]),
        float(row[6]),
        bool(row[7]),
    )


def _standing(row: Sequence[Any]) -> SolverStanding:
    return SolverStanding(
        int(row[0]), Glicko(float(row[1]), float(row[2]), float(row[3])), int(row[4]), int(row[5])
    )


class PuzzleStore(PuzzleQueue):
    """:class:`PuzzleStorage` over a store's connection (:func:`puzzle_store` makes one);
    the queue of matches owed their puzzles is :class:`~.puzzle_queue.PuzzleQueue`'s."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --- extraction (the queue: PuzzleQueue) ------------------------------------------

    async def keys(self, guild_id: int) -> set[str]:
        rows = await self.db.fetch("SELECT puzzle_key FROM puzzles WHERE guild_id = $1", guild_id)
        return {str(row[0]) for row in rows}

    async def add_puzzle(
        self,
        guild_id: int,
        key: str,
        data: str,
        *,
        match_id: int,
        owner_id: int | None,
        players: tuple[int | None, int | None],
        now: float,
    ) -> int | None:
        """Keep a confirmed puzzle; its id, or None when the server has its key already or
        a player of its match keeps their games out (they may have opted out while the
        match was worked on: checked in the same transaction as the insert; the pool leaves
        out a player who opts out later)."""
        humans = [uid for uid in players if uid is not None]
        marks = ", ".join(f"${n}" for n in range(1, len(humans) + 1)) or "NULL"
        async with self.db.transaction() as tx:
            if humans and await tx.fetch(
                f"SELECT 1 FROM puzzle_optouts WHERE user_id IN ({marks})", *humans
            ):
                return None
            rows = await tx.fetch(
                "INSERT INTO puzzles (guild_id, puzzle_key, match_id, owner_id, player0_id, "
                "player1_id, data, rating, deviation, volatility, created_at) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
                "ON CONFLICT (guild_id, puzzle_key) DO NOTHING RETURNING id",
                guild_id,
                key,
                match_id,
                owner_id,
                players[0],
                players[1],
                data,
                *_glicko(Glicko()),
                now,
            )
        return int(rows[0][0]) if rows else None

    # --- solving ------------------------------------------------------------------------

    async def puzzle(self, puzzle_id: int) -> StoredPuzzle | None:
        rows = await self.db.fetch(
            "SELECT id, guild_id, data, rating, deviation, volatility, player0_id, player1_id, "
            "created_at FROM puzzles WHERE id = $1",
            puzzle_id,
        )
        if not rows:
            return None
        row = rows[0]
        return StoredPuzzle(
            int(row[0]),
            int(row[1]),
            str(row[2]),
            Glicko(float(row[3]), float(row[4]), float(row[5])),
            (row[6], row[7]),
            float(row[8]),
        )

    async def pool(self, guild_id: int) -> list[PoolEntry]:
        """The server's puzzles a solver may be given (no kept-out player's)."""
        rows = await self.db.fetch(
            f"SELECT p.id, p.owner_id, p.rating, {_SOURCE} FROM puzzles p {_SOURCE_JOIN} "
            f"WHERE p.guild_id = $1 AND {_IN_POOL} ORDER BY p.id",
            guild_id,
        )
        return [_entry(r) for r in rows]

    async def fresh(self, guild_id: int, user_id: int) -> tuple[list[PoolEntry], list[PoolEntry]]:
        """The server's pool, and the puzzles of it the solver was never given nor
        answered: one read, for the reply to /puzzle get."""
        rows = await self.db.fetch(
            f"SELECT p.id, p.owner_id, p.rating, {_SOURCE}, EXISTS (SELECT 1 FROM puzzle_given g "
            "WHERE g.guild_id = p.guild_id AND g.user_id = $1 AND g.puzzle_id = p.id) "
            "OR EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.puzzle_id = p.id "
            f"AND a.user_id = $2) FROM puzzles p {_SOURCE_JOIN} WHERE p.guild_id = $3 "
            f"AND {_IN_POOL} ORDER BY p.id",
            user_id,
            user_id,
            guild_id,
        )
        pool = [_entry(r) for r in rows]
        return pool, [entry for entry, row in zip(pool, rows, strict=True) if not row[4]]

    async def seen(self, guild_id: int, user_id: int) -> set[int]:
        rows = await self.db.fetch(
            "SELECT puzzle_id FROM puzzle_given WHERE guild_id = $1 AND user_id = $2 "
            "UNION SELECT puzzle_id FROM puzzle_attempts WHERE guild_id = $3 AND user_id = $4",
            guild_id,
            user_id,
            guild_id,
            user_id,
        )
        return {int(row[0]) for row in rows}

    async def give(self, guild_id: int, user_id: int, puzzle_id: int, now: float) -> None:
        await self.db.write(
            "INSERT INTO puzzle_given (guild_id, user_id, puzzle_id, given_at) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (guild_id, user_id, puzzle_id) "
            "DO UPDATE SET given_at = excluded.given_at",
            guild_id,
            user_id,
            puzzle_id,
            now,
        )

    async def current(self, guild_id: int, user_id: int) -> int | None:
        """The latest puzzle given to the solver and not answered yet, if any."""
        rows = await self.db.fetch(
            "SELECT g.puzzle_id FROM puzzle_given g WHERE g.guild_id = $1 AND g.user_id = $2 "
            "AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a "
            "WHERE a.puzzle_id = g.puzzle_id AND a.user_id = g.user_id) "
            "ORDER BY g.given_at DESC, g.puzzle_id DESC LIMIT 1",
            guild_id,
            user_id,
        )
        return int(rows[0][0]) if rows else None

    async def attempt_of(self, puzzle_id: int, user_id: int) -> Attempt | None:
        rows = await self.db.fetch(
            "SELECT puzzle_id, guild_id, user_id, answer, grade, equity_lost, answered_at "
            "FROM puzzle_attempts WHERE puzzle_id = $1 AND user_id = $2",
            puzzle_id,
            user_id,
        )
        if not rows:
            return None
        r = rows[0]
        return Attempt(
            int(r[0]), int(r[1]), int(r[2]), str(r[3]), Grade(r[4]), float(r[5]), float(r[6])
        )

    async def record_attempt(self, attempt: Attempt, rate: Rate) -> tuple[Glicko, Glicko] | None:
        """Keep a solver's first answer to a puzzle and rate it: the solver's rating
        (before, after), or None (nothing written) when they had answered it already or the
        puzzle is gone.

        Both ratings are read, rated by ``rate(solver, puzzle)`` and written back in one
        transaction holding both rows (PostgreSQL: locked for update; SQLite: the only
        writer), so answers arriving together, from any process, each count: none is
        rated against a rating another answer is replacing. The puzzle's row is taken
        first and the solver's second, always, so two answers never wait on each other.
        """
        async with self.db.transaction() as tx:
            lock = self.db.row_lock
            rows = await tx.fetch(
                f"SELECT rating, deviation, volatility FROM puzzles WHERE id = $1{lock}",
                attempt.puzzle_id,
            )
            if not rows:
                return None
            puzzle = Glicko(float(rows[0][0]), float(rows[0][1]), float(rows[0][2]))
            added = await tx.execute(
                "INSERT INTO puzzle_attempts (puzzle_id, guild_id, user_id, answer, grade, "
                "equity_lost, answered_at) VALUES ($1, $2, $3, $4, $5, $6, $7) "
                "ON CONFLICT (puzzle_id, user_id) DO NOTHING",
                attempt.puzzle_id,
                attempt.guild_id,
                attempt.user_id,
                attempt.answer,
                str(attempt.grade),
                attempt.equity_lost,
                attempt.answered_at,
            )
            if added != 1:
                return None
            # A newcomer's row first, so there is a row to lock (a second answer of theirs
            # in flight waits here for this one, then reads what it wrote).
            await tx.execute(
                "INSERT INTO puzzle_solvers (guild_id, user_id, rating, deviation, volatility, "
                "solved, attempts) VALUES ($1, $2, $3, $4, $5, 0, 0) "
                "ON CONFLICT (guild_id, user_id) DO NOTHING",
                attempt.guild_id,
                attempt.user_id,
                *_glicko(Glicko()),
            )
            rows = await tx.fetch(
                "SELECT rating, deviation, volatility FROM puzzle_solvers "
                f"WHERE guild_id = $1 AND user_id = $2{lock}",
                attempt.guild_id,
                attempt.user_id,
            )
            before = Glicko(float(rows[0][0]), float(rows[0][1]), float(rows[0][2]))
            after, puzzle_after = rate(before, puzzle)
            right = 1 if attempt.grade is Grade.RIGHT else 0
            await tx.execute(
                "UPDATE puzzle_solvers SET rating = $1, deviation = $2, volatility = $3, "
                "solved = solved + $4, attempts = attempts + 1 "
                "WHERE guild_id = $5 AND user_id = $6",
                *_glicko(after),
                right,
                attempt.guild_id,
                attempt.user_id,
            )
            await tx.execute(
                "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3 WHERE id = $4",
                *_glicko(puzzle_after),
                attempt.puzzle_id,
            )
        return before, after

    async def solver(self, guild_id: int, user_id: int) -> SolverStanding | None:
        rows = await self.db.fetch(
            "SELECT user_id, rating, deviation, volatility, solved, attempts FROM puzzle_solvers "
            "WHERE guild_id = $1 AND user_id = $2",
            guild_id,
            user_id,
        )
        return _standing(rows[0]) if rows else None

    async def solver_history(self, guild_id: int, user_id: int) -> list[tuple[Grade, float]]:
        """(grade, when) of every answer of the solver on the server, oldest first."""
        rows = await self.db.fetch(
            "SELECT grade, answered_at FROM puzzle_attempts WHERE guild_id = $1 AND user_id = $2 "
            "ORDER BY answered_at, puzzle_id",
            guild_id,
            user_id,
        )
        return [(Grade(row[0]), float(row[1])) for row in rows]

    async def standings(self, guild_id: int) -> list[SolverStanding]:
        """Every solver of the server, kept-out players left off (they never appear)."""
        rows = await self.db.fetch(
            "SELECT s.user_id, s.rating, s.deviation, s.volatility, s.solved, s.attempts "
            "FROM puzzle_solvers s WHERE s.guild_id = $1 AND NOT EXISTS "
            "(SELECT 1 FROM puzzle_optouts o WHERE o.user_id = s.user_id)",
            guild_id,
        )
        return [_standing(row) for row in rows]

    async def solved_by(self, puzzle_id: int, since: float, until: float) -> list[int]:
        """Who answered the puzzle right between ``since`` and ``until`` (kept-out players
        left off), first first."""
        rows = await self.db.fetch(
            "SELECT a.user_id FROM puzzle_attempts a WHERE a.puzzle_id = $1 AND a.grade = $2 "
            "AND a.answered_at >= $3 AND a.answered_at <= $4 AND NOT EXISTS "
            "(SELECT 1 FROM puzzle_optouts o WHERE o.user_id = a.user_id) "
            "ORDER BY a.answered_at, a.user_id",
            puzzle_id,
            str(Grade.RIGHT),
            since,
            until,
        )
        return [int(row[0]) for row in rows]

    # --- the daily puzzle ---------------------------------------------------------------

    async def settings(self, guild_id: int) -> PuzzleSettings:
        rows = await self.db.fetch(
            "SELECT channel_id, post_minute, next_post_at, name_players FROM puzzle_settings "
            "WHERE guild_id = $1",
            guild_id,
        )
        if not rows:
            return PuzzleSettings()
        channel, minute, next_at, names = rows[0]
        return PuzzleSettings(
            None if channel is None else int(channel),
            int(minute),
            None if next_at is None else float(next_at),
            bool(names),
        )

    async def save_settings(self, guild_id: int, settings: PuzzleSettings) -> None:
        await self.db.write(
            "INSERT INTO puzzle_settings (guild_id, channel_id, post_minute, next_post_at, "
            "name_players) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (guild_id) DO UPDATE SET "
            "channel_id = excluded.channel_id, post_minute = excluded.post_minute, "
            "next_post_at = excluded.next_post_at, name_players = excluded.name_players",
            guild_id,
            settings.channel_id,
            settings.minute,
            settings.next_post_at,
            int(settings.name_players),
        )

    async def due_daily(self, now: float) -> list[tuple[int, PuzzleSettings]]:
        rows = await self.db.fetch(
            "SELECT guild_id, channel_id, post_minute, next_post_at, name_players "
            "FROM puzzle_settings WHERE channel_id IS NOT NULL AND next_post_at <= $1 "
            "ORDER BY next_post_at, guild_id",
            now,
        )
        return [
            (int(r[0]), PuzzleSettings(int(r[1]), int(r[2]), float(r[3]), bool(r[4]))) for r in rows
        ]

    async def claim_post(
        self,
        guild_id: int,
        puzzle_id: int,
        channel_id: int,
        now: float,
        reveal_at: float,
        next_post_at: float,
    ) -> DailyPost | None:
        """Claim today's post before sending it: the next one is moved on in the same
        transaction, so two processes (or a retry) never post twice; None when another
        claimed it first. :meth:`post_sent` records the message once sent."""
        async with self.db.transaction() as tx:
            moved = await tx.execute(
                "UPDATE puzzle_settings SET next_post_at = $1 WHERE guild_id = $2 "
                "AND next_post_at <= $3",
                next_post_at,
                guild_id,
                now,
            )
            if moved != 1:
                return None
            rows = await tx.fetch(
                "INSERT INTO puzzle_posts (guild_id, puzzle_id, channel_id, posted_at, reveal_at, "
                f"revealed) VALUES ($1, $2, $3, $4, $5, 0) RETURNING {_POST}",
                guild_id,
                puzzle_id,
                channel_id,
                now,
                reveal_at,
            )
        return _post(rows[0])

    async def post_sent(
        self, post_id: int, message_id: int, sent_at: float, reveal_at: float
    ) -> None:
        """The claimed post is out: its day runs from when it was sent (a post sent late,
        after a refusal, still has its full day before the reveal)."""
        await self.db.write(
            "UPDATE puzzle_posts SET message_id = $1, posted_at = $2, reveal_at = $3 WHERE id = $4",
            message_id,
            sent_at,
            reveal_at,
            post_id,
        )

    async def unsent_posts(self) -> list[DailyPost]:
        rows = await self.db.fetch(
            f"SELECT {_POST} FROM puzzle_posts WHERE message_id IS NULL AND revealed = 0 "
            "ORDER BY id"
        )
        return [_post(row) for row in rows]

    async def due_reveals(self, now: float) -> list[DailyPost]:
        """The sent posts not revealed yet whose day is over, or whose puzzle left the pool
        (a player of its match keeps their games out): those are withdrawn at once."""
        rows = await self.db.fetch(
            f"SELECT {_POST} FROM puzzle_posts WHERE revealed = 0 AND message_id IS NOT NULL "
            "AND (reveal_at <= $1 OR NOT EXISTS (SELECT 1 FROM puzzles p "
            f"WHERE p.id = puzzle_posts.puzzle_id AND {_IN_POOL})) ORDER BY reveal_at, id",
            now,
        )
        return [_post(row) for row in rows]

    async def revealed(self, post_id: int) -> None:
        await self.db.write("UPDATE puzzle_posts SET revealed = 1 WHERE id = $1", post_id)

    async def post(self, post_id: int) -> DailyPost | None:
        rows = await self.db.fetch(f"SELECT {_POST} FROM puzzle_posts WHERE id = $1", post_id)
        return _post(rows[0]) if rows else None

    async def posted_puzzles(self, guild_id: int) -> set[int]:
        rows = await self.db.fetch(
            "SELECT puzzle_id FROM puzzle_posts WHERE guild_id = $1", guild_id
        )
        return {int(row[0]) for row in rows}

    # --- privacy ------------------------------------------------------------------------

    async def set_kept_out(self, user_id: int, kept_out: bool, now: float) -> None:
        if kept_out:
            await self.db.write(
                "INSERT INTO puzzle_optouts (user_id, since) VALUES ($1, $2) "
                "ON CONFLICT (user_id) DO NOTHING",
                user_id,
                now,
            )
        else:
            await self.db.write("DELETE FROM puzzle_optouts WHERE user_id = $1", user_id)

    async def kept_out(self, user_ids: Sequence[int]) -> set[int]:
        """Which of ``user_ids`` keep their games out of puzzles (one read)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return set()
        marks = ", ".join(f"${n}" for n in range(1, len(wanted) + 1))
        rows = await self.db.fetch(
            f"SELECT user_id FROM puzzle_optouts WHERE user_id IN ({marks})", *wanted
        )
        return {int(row[0]) for row in rows}


def _glicko(rating: Glicko) -> tuple[float, float, float]:
    return (rating.rating, rating.deviation, rating.volatility)


def puzzle_store(store: Database) -> PuzzleStore:
    """The puzzle tables of ``store`` (either backend), over its public primitives."""
    return PuzzleStore(store)
