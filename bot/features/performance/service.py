"""The PR ladder's service: it keeps each recorded match's PR and answers for the server.

:class:`PerformanceService` listens to the facts (:mod:`bot.core.facts`): when every game of a
finished match has been analysed (:class:`~bot.core.facts.MatchReviewed`: the bot reviews each
game as it ends, and an ``/analyze`` or the replay page puts the whole match together again),
it reads the match's game results through the session's read face and, when the match counts
(:func:`bot.features.performance.rules.counts`: rated, between two people, every game played
out), keeps both players' PR and luck (:mod:`bot.storage.performance`), once. Then
:meth:`PerformanceService.ladder` ranks the server's players and :meth:`player` gives one
player's record and their PR over time.

Pure of Discord; values only (words live in :mod:`bot.present`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.core.facts import Fact, FactBus, MatchReviewed
from bot.core.reader import MatchReader
from bot.features.performance.rules import (
    MIN_DECISIONS,
    LadderEntry,
    MatchPerformance,
    PlayerPerformance,
    counts,
    ranked,
)
from bot.storage.performance import PerformanceStorage

__all__ = ["PerformanceService"]

log = logging.getLogger(__name__)


class PerformanceService:
    """The server's PR ladder, kept from the analysed matches it hears of."""

    def __init__(self, store: PerformanceStorage, reader: MatchReader, facts: FactBus) -> None:
        self.store = store
        self.reader = reader
        # Heard before the review that published it returns (not detached): a review owed
        # after a restart is posted only once its match is recorded, so none is lost.
        self.stop_listening = facts.subscribe(self._hear)

    async def _hear(self, facts: Sequence[Fact]) -> None:
        for fact in facts:
            if isinstance(fact, MatchReviewed):
                await self.record(fact)

    async def record(self, fact: MatchReviewed) -> bool:
        """Keep a reviewed match's PR if it counts; whether anything new was kept."""
        row = fact.match
        if not counts(row, await self.reader.game_results(row.id)):
            return False
        if set(fact.performance) != {0, 1}:
            return False  # a rated match is two people's, and both were analysed
        money = row.options.is_money
        matches = [
            MatchPerformance(
                match_id=row.id,
                guild_id=row.guild_id,
                user_id=row.player_ids[player],
                name=row.player_names[player],
                played_at=row.updated_at,
                money=money,
                performance=fact.performance[player],
                luck=fact.luck.get(player),
            )
            for player in (0, 1)
        ]
        added = await self.store.record(matches)
        if added:
            log.info("match %s recorded on the PR ladder of %s", row.id, row.guild_id)
        return added > 0

    async def ladder(
        self, guild_id: int, *, min_decisions: int = MIN_DECISIONS, limit: int = 10
    ) -> list[LadderEntry]:
        """The server's players by PR, best first (see :func:`~.rules.ranked`)."""
        return ranked(await self.store.ladder(guild_id), min_decisions=min_decisions)[:limit]

    async def player(self, guild_id: int, user_id: int) -> PlayerPerformance:
        """A player's recorded matches on a server (none yet: an empty record)."""
        return PlayerPerformance(user_id, tuple(await self.store.player(guild_id, user_id)))
