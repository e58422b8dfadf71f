"""The queue of finished matches owed their puzzles, claimed by one process at a time.

``puzzle_sources`` keeps each finished match until its puzzles are made (a restart only
delays them). The bot's shard processes share the queue, so a process claims a match
before working on it, for a lease it renews while it works (:meth:`PuzzleQueue.claim_source`,
:meth:`~PuzzleQueue.renew_source`); a crashed process's claim is taken over once its lease
has run out. Part of :class:`bot.storage.puzzles.PuzzleStore` (its methods are declared in
:class:`~bot.storage.puzzles.PuzzleStorage`), over either store's primitives
(:class:`bot.storage.base.Database`).

Imports :mod:`bot.storage.base` only.
"""

from __future__ import annotations

from bot.storage.base import Database

__all__ = ["PuzzleQueue"]


class PuzzleQueue:
    """The extraction queue's statements (both backends)."""

    db: Database

    async def queue_source(self, match_id: int, now: float) -> None:
        """A finished match is owed an extraction (kept until :meth:`source_done`)."""
        await self.db.write(
            "INSERT INTO puzzle_sources (match_id, queued_at) VALUES ($1, $2) "
            "ON CONFLICT (match_id) DO NOTHING",
            match_id,
            now,
        )

    async def sources(self) -> list[int]:
        rows = await self.db.fetch(
            "SELECT match_id FROM puzzle_sources ORDER BY queued_at, match_id"
        )
        return [int(row[0]) for row in rows]

    async def source_done(self, match_id: int) -> None:
        await self.db.write("DELETE FROM puzzle_sources WHERE match_id = $1", match_id)

    async def claim_source(self, match_id: int, owner: str, now: float, until: float) -> bool:
        """Claim a queued match for ``owner`` (one process) until ``until``: True when this
        call got it, False when it is gone or another process's lease still runs.

        One conditional ``UPDATE``: PostgreSQL checks its condition again on the row as the
        other writer left it, SQLite has one writer, so of two processes asking together
        exactly one gets it, and a lease run out (its process crashed) is taken over.
        """
        claimed = await self.db.write(
            "UPDATE puzzle_sources SET claimed_by = $1, lease_until = $2 WHERE match_id = $3 "
            "AND (lease_until IS NULL OR lease_until <= $4 OR claimed_by = $5)",
            owner,
            until,
            match_id,
            now,
            owner,
        )
        return claimed == 1

    async def renew_source(self, match_id: int, owner: str, until: float) -> bool:
        """Lengthen ``owner``'s lease of a match it works on; False when it lost it."""
        renewed = await self.db.write(
            "UPDATE puzzle_sources SET lease_until = $1 WHERE match_id = $2 AND claimed_by = $3",
            until,
            match_id,
            owner,
        )
        return renewed == 1

    async def release_source(self, match_id: int, owner: str) -> None:
        """Give a claimed match back to the queue (it waits: a tournament still running)."""
        await self.db.write(
            "UPDATE puzzle_sources SET claimed_by = NULL, lease_until = NULL "
            "WHERE match_id = $1 AND claimed_by = $2",
            match_id,
            owner,
        )

    async def next_lease_end(self, now: float) -> float | None:
        """When the first lease still running ends (None: no match is claimed): a match a
        crashed process held is worked on again from then."""
        rows = await self.db.fetch(
            "SELECT MIN(lease_until) FROM puzzle_sources WHERE lease_until > $1", now
        )
        return None if not rows or rows[0][0] is None else float(rows[0][0])
