"""The web board's addresses: each match's key, each server's leaderboard key, shared replays.

Nothing on the web is reached by a row id: ids run 1, 2, 3..., so a loop would list every
game of every server. A match carries a key of 128 random bits from the moment it is
challenged (``matches.web_key``; older rows got one in the migration that added the
column), a server's leaderboard one of its own (``web_guild_keys``, made the first time
it is linked), and a finished match a player or a moderator chose to publish a share token
(``replay_shares``, one per match, until they stop sharing it). Whether a key opens its page
for a given visitor is not decided here but by :mod:`bot.web.access`.

Written once for both backends over the primitives of :class:`.base.StoreBase`.
Imports the records and :mod:`.rows`; never a driver.
"""

from __future__ import annotations

import secrets

from bot.core.records import MatchRow
from bot.storage.base import StoreBase
from bot.storage.rows import MATCH_COLUMNS, MATCH_COLUMNS_OF_M, parse_match

KEY_BYTES = 16  # 128 random bits: base64url, 22 characters


def new_web_key() -> str:
    """A fresh unguessable key (the operating system's randomness)."""
    return secrets.token_urlsafe(KEY_BYTES)


class WebKeys(StoreBase):
    """The keys the web board's addresses carry, and the rows they name."""

    async def match_by_web_key(self, key: str) -> MatchRow | None:
        rows = await self.fetch(f"SELECT {MATCH_COLUMNS} FROM matches WHERE web_key = $1", key)
        return parse_match(rows[0]) if rows else None

    async def guild_web_key(self, guild_id: int) -> str:
        """The server's leaderboard key, made the first time it is asked for (two processes
        asking at once both get the one stored)."""
        await self.write(
            "INSERT INTO web_guild_keys (guild_id, web_key) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO NOTHING",
            guild_id,
            new_web_key(),
        )
        rows = await self.fetch("SELECT web_key FROM web_guild_keys WHERE guild_id = $1", guild_id)
        return str(rows[0][0])

    async def guild_by_web_key(self, key: str) -> int | None:
        rows = await self.fetch("SELECT guild_id FROM web_guild_keys WHERE web_key = $1", key)
        return int(rows[0][0]) if rows else None

    async def share_replay(self, match_id: int, user_id: int, now: float) -> str:
        """The match's share token: the one it has, or a new one made now by ``user_id``."""
        await self.write(
            "INSERT INTO replay_shares (token, match_id, shared_by, shared_at) "
            "VALUES ($1, $2, $3, $4) ON CONFLICT (match_id) DO NOTHING",
            new_web_key(),
            match_id,
            user_id,
            now,
        )
        token = await self.replay_share(match_id)
        assert token is not None
        return token

    async def replay_share(self, match_id: int) -> str | None:
        rows = await self.fetch("SELECT token FROM replay_shares WHERE match_id = $1", match_id)
        return str(rows[0][0]) if rows else None

    async def stop_sharing(self, match_id: int) -> bool:
        """Withdraw the match's share link; whether there was one."""
        return await self.write("DELETE FROM replay_shares WHERE match_id = $1", match_id) > 0

    async def shared_match(self, token: str) -> MatchRow | None:
        rows = await self.fetch(
            f"SELECT {MATCH_COLUMNS_OF_M} FROM replay_shares s "
            "JOIN matches m ON m.id = s.match_id WHERE s.token = $1",
            token,
        )
        return parse_match(rows[0]) if rows else None


__all__ = ["KEY_BYTES", "WebKeys", "new_web_key"]
