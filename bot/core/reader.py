"""The read face of the games: what a feature may read of the matches, and nothing more.

Tournaments, the ladder, puzzles and the web board learn what happened from the facts
(:mod:`bot.core.facts`) and read what they need through a :class:`MatchReader`, never through the
session's store: the session (:class:`bot.core.session.SessionService`) is one, and a test can
hand a feature a stand-in. Writing a game goes through the session's actions only.

Pure: the records.
"""

from __future__ import annotations

from typing import Protocol

from bot.core.records import EventRecord, FinishedGame, MatchRow


class MatchReader(Protocol):
    """Matches as stored: by number, by channel, by server, with their logs and results."""

    async def match(self, match_id: int) -> MatchRow | None: ...

    async def current(self, channel_id: int) -> MatchRow | None: ...

    async def latest(self, channel_id: int) -> MatchRow | None: ...

    async def live_in(self, guild_id: int) -> list[MatchRow]: ...

    async def events(self, match_id: int) -> list[EventRecord]: ...

    async def game_results(self, match_id: int) -> list[FinishedGame]: ...


__all__ = ["MatchReader"]
