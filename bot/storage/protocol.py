"""The storage interface the session, the cogs and the command line rely on.

Both backends satisfy it: :class:`bot.storage.sqlite.Store` (SQLite, the default) and
:class:`bot.storage.postgres.PostgresStore` (PostgreSQL, for several processes). They raise
the same errors: :class:`~bot.core.errors.ChannelBusyError` when a channel already has a live
row, :class:`~bot.core.errors.ConflictError` when a write's expected version is stale,
:class:`~bot.core.errors.UnreadableMatchError` when a row's state no longer parses,
:class:`~bot.core.errors.StoreOpenError` when the database cannot be opened or migrated, and
:class:`~bot.core.errors.StoreUnavailableError` when it cannot be reached or written while the
bot runs (nothing was written; its subclass :class:`~bot.core.errors.StoreInDoubtError` when a
PostgreSQL COMMIT's answer was lost and the write may have been applied).
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Protocol

from bot.core.records import (
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
from bot.storage.base import Database


class Storage(Database, Protocol):
    """Matches with their event logs, results, player records and settings, and the
    primitives a feature's storage composes (:class:`~bot.storage.base.Database`)."""

    path: str  # what messages name: the file, or the URL without its password

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    # --- matches
    def channel_lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """Held around a whole action: no other process acts in the channel meanwhile."""
        ...

    async def live_match(self, channel_id: int) -> MatchRow | None: ...

    async def latest_match(self, channel_id: int) -> MatchRow | None: ...

    async def get_match(self, match_id: int) -> MatchRow | None: ...

    async def live_matches(self) -> list[MatchRow]: ...

    async def live_matches_in(self, guild_id: int) -> list[MatchRow]: ...

    async def reminder_candidates(self, now: float) -> list[MatchRow]:
        """Games in play, not reminded since their last action, with a player who asked for
        idle reminders and whose minutes have passed since it (who must act is for the
        caller to check): the few rows a reminder round needs, not every live game."""
        ...

    async def match_by_dice_public(self, public: str) -> MatchRow | None: ...

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
    ) -> MatchRow: ...

    async def apply(self, change: Change) -> MatchRow: ...

    async def quarantine(self, match_id: int, now: float) -> None: ...

    async def relocate(self, match_id: int, channel_id: int, home_channel_id: int) -> MatchRow: ...

    async def note_board(self, match_id: int, channel_id: int, message_id: int) -> None: ...

    async def note_notified(self, match_id: int, version: int) -> bool: ...

    # --- post-game reviews owed (posted after a restart if need be)
    async def queue_review(self, match_id: int, game_number: int, now: float) -> None: ...

    async def review_posted(self, match_id: int, game_number: int) -> None: ...

    async def pending_reviews(self) -> list[tuple[int, int]]: ...

    # --- finished games' reviews, kept (bot.computer.reviewcodec's JSON)
    async def save_game_review(self, match_id: int, game_number: int, review: str) -> None: ...

    async def game_review(self, match_id: int, game_number: int) -> str | None: ...

    # --- events and results
    async def events(self, match_id: int) -> list[EventRecord]: ...

    async def game_results(self, match_id: int) -> list[FinishedGame]: ...

    async def roll_events(
        self, guild_id: int
    ) -> list[tuple[tuple[int, int], list[EventRecord]]]: ...

    # --- players
    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats | None: ...

    async def computer_results(self, guild_id: int, user_id: int) -> list[ComputerResults]: ...

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]: ...

    async def leaderboard(
        self, guild_id: int, *, min_rated_matches: int = 1, limit: int = 10
    ) -> list[PlayerStats]: ...

    # --- settings
    async def guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None: ...

    async def user_settings(self, user_id: int) -> UserSettings: ...

    async def save_user_settings(self, user_id: int, settings: UserSettings) -> None: ...

    # --- the web board's addresses (bot/storage/web_keys.py)
    async def match_by_web_key(self, key: str) -> MatchRow | None: ...

    async def guild_web_key(self, guild_id: int) -> str: ...

    async def guild_by_web_key(self, key: str) -> int | None: ...

    async def share_replay(self, match_id: int, user_id: int, now: float) -> str: ...

    async def replay_share(self, match_id: int) -> str | None: ...

    async def stop_sharing(self, match_id: int) -> bool: ...

    async def shared_match(self, token: str) -> MatchRow | None: ...


__all__ = ["Storage"]
