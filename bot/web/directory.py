"""Who can read a channel, asked of Discord's REST API with the bot token.

The web board has no gateway (``python -m bot web`` runs without one, and a bot process's
guild cache is discord.py's, which nothing outside ``cogs/`` may import), so it asks Discord
what the rule of :mod:`bot.core.visibility` needs, with the bot's own token and no privileged
intent: ``GET /guilds/{guild}`` (the owner and every role's permissions),
``GET /channels/{channel}`` (its kind, parent and overwrites) and
``GET /guilds/{guild}/members/{user}`` (a member's roles; 404 for someone who is not one).

Answers are kept a minute (bounded), and one request at a time per question: a page and its
socket asking together, or many visitors of one match, cost Discord one call. A refusal
that means "no" (404, 403: gone, not a member, hidden from the bot) is an answer; Discord
unreachable, a 5xx or a rate limit is :class:`DirectoryUnavailable`, which the pages turn
into "try again" rather than into a guess.

Pure of discord.py: plain aiohttp calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.core.visibility import (
    MANAGE_THREADS,
    Overwrite,
    OverwriteKind,
    base_permissions,
    can_read,
    channel_permissions,
    everyone_can_read,
)
from bot.web.cache import TimedCache
from bot.web.discord_api import DISCORD_API

THREAD_TYPES = frozenset({10, 11, 12})
PRIVATE_THREAD = 12


class DirectoryUnavailable(Exception):
    """Discord did not answer (unreachable, 5xx, rate limited): nothing can be concluded."""


@dataclass(frozen=True, slots=True)
class GuildFacts:
    name: str
    owner_id: int
    roles: dict[int, int]  # role id -> its permissions


@dataclass(frozen=True, slots=True)
class ChannelFacts:
    id: int
    type: int
    guild_id: int | None
    parent_id: int | None
    overwrites: tuple[Overwrite, ...]

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES


def _overwrites(raw: Any) -> tuple[Overwrite, ...]:
    out = []
    for item in raw or ():
        out.append(
            Overwrite(
                id=int(item["id"]),
                kind=OverwriteKind(int(item["type"])),
                allow=int(item.get("allow") or 0),
                deny=int(item.get("deny") or 0),
            )
        )
    return tuple(out)


class DiscordDirectory:
    """The three reads, over one HTTP session, behind one cache."""

    def __init__(
        self,
        *,
        bot_token: str,
        api_base: str | None = None,
        cache: TimedCache | None = None,
    ) -> None:
        self._token = bot_token
        self.api = (api_base or DISCORD_API).rstrip("/")
        self.cache = cache or TimedCache(ttl=60.0, kept=10_000)
        self._http: aiohttp.ClientSession | None = None
        self.calls = 0  # requests sent to Discord (tests and benchmarks read it)

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def _get(self, path: str) -> Any | None:
        """The JSON at ``path``, None when Discord says it is not there for the bot."""
        self.calls += 1
        headers = {"Authorization": f"Bot {self._token}"}
        try:
            async with self._session().get(f"{self.api}{path}", headers=headers) as response:
                if response.status in (403, 404):
                    return None
                if response.status != 200:
                    raise DirectoryUnavailable(f"GET {path}: HTTP {response.status}")
                return await response.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
            raise DirectoryUnavailable(f"GET {path}: {exc!r}") from exc

    async def guild(self, guild_id: int) -> GuildFacts | None:
        async def fetch() -> GuildFacts | None:
            body = await self._get(f"/guilds/{guild_id}")
            if body is None:
                return None
            roles = {int(r["id"]): int(r.get("permissions") or 0) for r in body.get("roles", ())}
            return GuildFacts(str(body.get("name") or ""), int(body["owner_id"]), roles)

        return await self.cache.get(("guild", guild_id), fetch)

    async def channel(self, channel_id: int) -> ChannelFacts | None:
        async def fetch() -> ChannelFacts | None:
            body = await self._get(f"/channels/{channel_id}")
            if body is None:
                return None
            guild, parent = body.get("guild_id"), body.get("parent_id")
            return ChannelFacts(
                id=int(body["id"]),
                type=int(body["type"]),
                guild_id=int(guild) if guild else None,
                parent_id=int(parent) if parent else None,
                overwrites=_overwrites(body.get("permission_overwrites")),
            )

        return await self.cache.get(("channel", channel_id), fetch)

    async def member_roles(self, guild_id: int, user_id: int) -> tuple[int, ...] | None:
        """A member's roles; None for someone who is not a member of the server."""

        async def fetch() -> tuple[int, ...] | None:
            body = await self._get(f"/guilds/{guild_id}/members/{user_id}")
            if body is None:
                return None
            return tuple(int(role) for role in body.get("roles", ()))

        return await self.cache.get(("member", guild_id, user_id), fetch)


class WebReaders:
    """:class:`bot.core.visibility.ChannelReaders` from Discord's REST answers."""

    def __init__(self, directory: DiscordDirectory) -> None:
        self.directory = directory

    async def _deciding(self, guild_id: int, channel_id: int) -> tuple[ChannelFacts, bool] | None:
        """The channel whose overwrites decide (a thread's parent), and whether it is a
        private thread's; None when it is gone or belongs to another server."""
        channel = await self.directory.channel(channel_id)
        if channel is None or channel.guild_id != guild_id:
            return None
        if not channel.is_thread:
            return channel, False
        if channel.parent_id is None:
            return None
        parent = await self.directory.channel(channel.parent_id)
        if parent is None or parent.guild_id != guild_id:
            return None
        return parent, channel.type == PRIVATE_THREAD

    async def close(self) -> None:
        await self.directory.close()

    async def server_name(self, guild_id: int) -> str | None:
        guild = await self.directory.guild(guild_id)
        return None if guild is None else guild.name

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        return await self.directory.member_roles(guild_id, user_id) is not None

    async def member_reads(self, guild_id: int, channel_id: int, user_id: int) -> bool:
        roles = await self.directory.member_roles(guild_id, user_id)
        if roles is None:
            return False
        guild = await self.directory.guild(guild_id)
        deciding = await self._deciding(guild_id, channel_id)
        if guild is None or deciding is None:
            return False
        channel, private_thread = deciding
        base = base_permissions(
            guild_id=guild_id,
            owner_id=guild.owner_id,
            role_permissions=guild.roles,
            member_id=user_id,
            member_roles=roles,
        )
        permissions = channel_permissions(
            base,
            guild_id=guild_id,
            member_id=user_id,
            member_roles=roles,
            overwrites=channel.overwrites,
        )
        if private_thread and not permissions & MANAGE_THREADS:
            return False
        return can_read(permissions)

    async def everyone_reads(self, guild_id: int, channel_id: int) -> bool:
        guild = await self.directory.guild(guild_id)
        deciding = await self._deciding(guild_id, channel_id)
        if guild is None or deciding is None or deciding[1]:
            return False  # gone, another server's, or a private thread
        return everyone_can_read(
            guild_id=guild_id,
            everyone_permissions=guild.roles.get(guild_id, 0),
            overwrites=deciding[0].overwrites,
        )


__all__ = [
    "ChannelFacts",
    "DirectoryUnavailable",
    "DiscordDirectory",
    "GuildFacts",
    "WebReaders",
]
