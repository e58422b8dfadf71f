"""Who a page of the web board opens for: :mod:`bot.core.visibility`'s rule, on the web.

Every page, API, socket and picture of a match asks :meth:`WebAccess.match` first:

- a visitor signed in with Discord who may see the match (its player, or a member who can
  see its channel) gets it;
- a match of a channel every member of its server can see also opens for anyone holding
  its address (128 random bits, posted only in that channel's messages), unless the
  server's moderators chose that links need a sign-in (``/backgammon settings
  web_links:members``, :class:`~bot.core.records.WebLinkRule`);
- anyone else is asked to sign in (or, signed in, told they cannot see it).

A server's leaderboard page is its members' (signed in), unless its moderators made it
public. A replay a player or moderator shared on purpose opens for anyone with its link,
and is reached only by that link's own token.

Discord is asked each time (answers kept a minute, :mod:`bot.web.directory`); when it
cannot be asked, nothing opens (:attr:`Verdict.UNAVAILABLE`: try again), and a web server
with no bot token has nothing but shared replays to show.

Pure of aiohttp and of discord.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum
from typing import Protocol

from bot.core.records import GuildSettings, MatchRow, WebLinkRule
from bot.core.visibility import everyone_may_see, may_see
from bot.storage.chouette import ChouetteRow
from bot.web.directory import DirectoryUnavailable, WebReaders
from bot.web.signin import SignedIn


class Verdict(StrEnum):
    OPEN = "open"
    SIGN_IN = "sign_in"  # anonymous: a sign-in may open it
    FORBIDDEN = "forbidden"  # signed in, and not someone who may see it
    UNAVAILABLE = "unavailable"  # Discord could not be asked: try again


class Settings(Protocol):
    """Where a server's choices are read (the club service)."""

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...


class WebAccess:
    """The rule over the server's choices and Discord's answers."""

    def __init__(self, settings: Settings, readers: WebReaders | None) -> None:
        self.settings = settings
        self.readers = readers

    def _closed(self, visitor: SignedIn | None) -> Verdict:
        return Verdict.SIGN_IN if visitor is None else Verdict.FORBIDDEN

    async def match(self, row: MatchRow, visitor: SignedIn | None) -> Verdict:
        user = None if visitor is None else visitor.user_id
        if user is not None and row.player_index(user) is not None:
            return Verdict.OPEN  # a player's own record
        if self.readers is None:
            return self._closed(visitor)
        try:
            settings = await self.settings.guild_settings(row.guild_id)
            if settings.web_links is WebLinkRule.LINK and await everyone_may_see(self.readers, row):
                return Verdict.OPEN
            if user is not None and await may_see(self.readers, row, user):
                return Verdict.OPEN
        except DirectoryUnavailable:
            return Verdict.UNAVAILABLE
        return self._closed(visitor)

    async def chouette(
        self, row: ChouetteRow, players: Collection[int], visitor: SignedIn | None
    ) -> Verdict:
        """A chouette's page opens as a match's: for a player at its table, for a member who
        can see its channel (the channel it was started from when it has a thread of its
        own, as a match's thread is judged), or from its link alone when every member can
        see that channel and the server lets links open."""
        user = None if visitor is None else visitor.user_id
        if user is not None and user in players:
            return Verdict.OPEN
        if self.readers is None:
            return self._closed(visitor)
        deciding = row.home_channel_id or row.channel_id
        try:
            settings = await self.settings.guild_settings(row.guild_id)
            if settings.web_links is WebLinkRule.LINK and await self.readers.everyone_reads(
                row.guild_id, deciding
            ):
                return Verdict.OPEN
            if user is not None and await self.readers.member_reads(row.guild_id, deciding, user):
                return Verdict.OPEN
        except DirectoryUnavailable:
            return Verdict.UNAVAILABLE
        return self._closed(visitor)

    async def leaderboard(self, guild_id: int, visitor: SignedIn | None) -> Verdict:
        settings = await self.settings.guild_settings(guild_id)
        if settings.public_leaderboard:
            return Verdict.OPEN
        if visitor is None or self.readers is None:
            return self._closed(visitor)
        try:
            member = await self.readers.is_member(guild_id, visitor.user_id)
        except DirectoryUnavailable:
            return Verdict.UNAVAILABLE
        return Verdict.OPEN if member else Verdict.FORBIDDEN


class TerminalAccess:
    """Who sees what when the terminal game serves its board (``python -m bot play`` with
    ``WEB_URL``): the terminal's own matches (its "server", which no Discord member shares)
    open from their links, nothing else does (the same database may hold a server's games:
    none of them is ever shown by it), and there is no leaderboard page."""

    def __init__(self, guild_id: int, channel_id: int) -> None:
        self.guild_id = guild_id
        self.channel_id = channel_id

    async def match(self, row: MatchRow, visitor: SignedIn | None) -> Verdict:
        mine = row.guild_id == self.guild_id and row.channel_id == self.channel_id
        return Verdict.OPEN if mine else Verdict.FORBIDDEN

    async def chouette(
        self, row: ChouetteRow, players: Collection[int], visitor: SignedIn | None
    ) -> Verdict:
        return Verdict.FORBIDDEN  # the terminal plays no chouette

    async def leaderboard(self, guild_id: int, visitor: SignedIn | None) -> Verdict:
        return Verdict.FORBIDDEN


__all__ = ["TerminalAccess", "Verdict", "WebAccess"]
