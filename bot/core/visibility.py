"""Who may see a match: the one rule every place that shows a match applies.

Inside Discord a match is seen by who can see its channel, and the bot keeps that promise
wherever a match leaves its channel (``/backgammon export`` and ``verify``, the web board,
the puzzles made from it): a match is shown only to someone who could see it in Discord.

- Its players always may (it is their own record).
- In a server, a member who may view the channel that decides, and read its history: the
  channel the match was challenged in when it moved to a thread of its own, else the channel
  it is played in; a thread is judged by its parent, a private thread only for who may
  manage the parent's threads (its members are not known without privileged intents).
- Anywhere else (a game with no server: a DM, later) only its players.

Who can see a channel is the front end's to find out, from what it has: the Discord cog
from discord.py's guild cache, the web board from Discord's REST API with the bot token
(:mod:`bot.web.directory`). Both answer through :class:`ChannelReaders`; the permission
arithmetic both need on raw Discord numbers is here, as Discord documents it
(``topics/permissions``: base permissions, then the @everyone, role and member overwrites).

Pure: the records, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol

from bot.core.records import MatchRow, Venue

# Discord's permission bits (topics/permissions), the few the rule reads.
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_THREADS = 1 << 34
ALL_PERMISSIONS = (1 << 53) - 1
READ = VIEW_CHANNEL | READ_MESSAGE_HISTORY


class OverwriteKind(IntEnum):
    """Whose permissions a channel overwrite changes (Discord's ``type``)."""

    ROLE = 0
    MEMBER = 1


@dataclass(frozen=True, slots=True)
class Overwrite:
    """One of a channel's permission overwrites."""

    id: int
    kind: OverwriteKind
    allow: int
    deny: int


class ChannelReaders(Protocol):
    """Who can read a server's channel (a thread is judged by its parent)."""

    async def member_reads(self, guild_id: int, channel_id: int, user_id: int) -> bool:
        """Whether the member may view the channel and read its history (False for someone
        who is not a member, or a channel that cannot be found)."""
        ...

    async def everyone_reads(self, guild_id: int, channel_id: int) -> bool:
        """Whether every member of the server may view the channel and read its history."""
        ...


def deciding_channel(row: MatchRow) -> int:
    """The channel whose readers may see the match: where it was challenged when it moved
    to a thread of its own (a public thread of that channel), else where it is played."""
    return row.home_channel_id or row.channel_id


def in_a_server(row: MatchRow) -> bool:
    """Whether the match was played on a server that installed the bot: only there can the
    bot tell who reads its channel. Anywhere else (a DM, a group DM, a server without the
    bot: :class:`~bot.core.records.Venue`) it is its players' alone."""
    return bool(row.guild_id) and row.venue is Venue.SERVER


async def may_see(readers: ChannelReaders, row: MatchRow, user_id: int | None) -> bool:
    """Whether ``user_id`` (None: nobody known) may see ``row`` (see the module)."""
    if user_id is None:
        return False
    if row.player_index(user_id) is not None:
        return True
    if not in_a_server(row):
        return False
    return await readers.member_reads(row.guild_id, deciding_channel(row), user_id)


async def everyone_may_see(readers: ChannelReaders, row: MatchRow) -> bool:
    """Whether every member of the match's server could see it (never a match outside a
    server: a DM game is its players' alone)."""
    if not in_a_server(row):
        return False
    return await readers.everyone_reads(row.guild_id, deciding_channel(row))


async def readers_may_see(
    readers: ChannelReaders, guild_id: int, reading_channel: int, source_channel: int
) -> bool:
    """Whether everyone who reads ``reading_channel`` could see ``source_channel`` (a puzzle
    posted in one channel from a match of another): the same channel, or one every member
    of the server sees. Anything finer would need every reader's permissions."""
    if reading_channel == source_channel:
        return True
    return await readers.everyone_reads(guild_id, source_channel)


# --- the arithmetic, on Discord's raw numbers ---------------------------------------------


def base_permissions(
    *,
    guild_id: int,
    owner_id: int,
    role_permissions: dict[int, int],
    member_id: int,
    member_roles: Iterable[int],
) -> int:
    """A member's server-wide permissions: the owner has all; else @everyone's (the role
    whose id is the server's) and every role's of theirs together, all with Administrator."""
    if member_id == owner_id:
        return ALL_PERMISSIONS
    permissions = role_permissions.get(guild_id, 0)
    for role in member_roles:
        permissions |= role_permissions.get(role, 0)
    if permissions & ADMINISTRATOR:
        return ALL_PERMISSIONS
    return permissions


def channel_permissions(
    base: int,
    *,
    guild_id: int,
    member_id: int,
    member_roles: Iterable[int],
    overwrites: Iterable[Overwrite],
) -> int:
    """A member's permissions in a channel: the base, then @everyone's overwrite, then their
    roles' overwrites together, then their own (Discord's documented order)."""
    if base & ADMINISTRATOR:
        return ALL_PERMISSIONS
    roles = set(member_roles)
    everyone = member = None
    role_allow = role_deny = 0
    for overwrite in overwrites:
        if overwrite.kind is OverwriteKind.ROLE and overwrite.id == guild_id:
            everyone = overwrite
        elif overwrite.kind is OverwriteKind.ROLE and overwrite.id in roles:
            role_allow |= overwrite.allow
            role_deny |= overwrite.deny
        elif overwrite.kind is OverwriteKind.MEMBER and overwrite.id == member_id:
            member = overwrite
    permissions = base
    if everyone is not None:
        permissions = (permissions & ~everyone.deny) | everyone.allow
    permissions = (permissions & ~role_deny) | role_allow
    if member is not None:
        permissions = (permissions & ~member.deny) | member.allow
    return permissions


def can_read(permissions: int) -> bool:
    return permissions & READ == READ


def everyone_can_read(
    *, guild_id: int, everyone_permissions: int, overwrites: Iterable[Overwrite]
) -> bool:
    """Whether every member reads the channel: @everyone does (its base and its overwrite),
    and no role's or member's overwrite takes viewing or the history from anyone."""
    if everyone_permissions & ADMINISTRATOR:
        return True
    permissions = everyone_permissions
    for overwrite in overwrites:
        if overwrite.kind is OverwriteKind.ROLE and overwrite.id == guild_id:
            permissions = (permissions & ~overwrite.deny) | overwrite.allow
        elif overwrite.deny & READ:
            return False
    return can_read(permissions)


__all__ = [
    "ADMINISTRATOR",
    "ALL_PERMISSIONS",
    "MANAGE_THREADS",
    "READ",
    "READ_MESSAGE_HISTORY",
    "VIEW_CHANNEL",
    "ChannelReaders",
    "Overwrite",
    "OverwriteKind",
    "base_permissions",
    "can_read",
    "channel_permissions",
    "deciding_channel",
    "everyone_can_read",
    "everyone_may_see",
    "in_a_server",
    "may_see",
    "readers_may_see",
]
