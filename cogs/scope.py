"""Who may look at a stored match, or at a puzzle made from one: :mod:`bot.core.visibility`'s
rule, with Discord's answers taken from the bot's own guild cache.

``/backgammon export match:N`` and ``/backgammon verify`` name a match by number or by its
dice's public value, which anyone can type; ``/puzzle get`` and the daily puzzle show a
position from a match of some channel. A match (or its puzzle) is shown only to a member of
its own server who can view (and read the history of) the channel that decides
(:func:`bot.core.visibility.deciding_channel`: where it was challenged, for a game that moved to
a thread of its own; a thread's parent), and a daily puzzle is posted only where every
reader could see its source. Its players always can (it is their own record).

Discord hands an interaction the caller's permissions for the current channel only. For
another channel they are computed from the guild cache (roles and the channel's
overwrites), which the ``guilds`` intent alone keeps: no members intent is needed, because
the interaction carries the caller as a member with their roles. A thread missing from the
cache (archived) is fetched once to learn its parent. Anything that cannot be resolved (a
deleted channel, a private thread the caller may not manage) counts as not visible.

May import: discord, :mod:`bot.core.records`, :mod:`bot.core.visibility`.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.records import MatchRow
from bot.core.visibility import Overwrite, OverwriteKind, everyone_can_read, may_see

Interaction = discord.Interaction[Any]


def _may_read(permissions: discord.Permissions) -> bool:
    return permissions.view_channel and permissions.read_message_history


async def _channel(guild: discord.Guild, channel_id: int) -> Any:
    """The channel or thread, from the cache or (an archived thread) fetched once."""
    channel: Any = guild.get_channel_or_thread(channel_id)
    if channel is None:
        try:
            channel = await guild.fetch_channel(channel_id)
        except discord.HTTPException:  # gone, or the bot itself may not see it
            return None
    return channel


class InteractionReaders:
    """:class:`bot.core.visibility.ChannelReaders` for the member behind an interaction (anyone
    else is not known here: no members intent) and for the whole server."""

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction

    async def member_reads(self, guild_id: int, channel_id: int, user_id: int) -> bool:
        interaction, guild, member = self.interaction, self.interaction.guild, None
        if guild is not None and guild.id == guild_id and interaction.user.id == user_id:
            member = interaction.user if isinstance(interaction.user, discord.Member) else None
        if guild is None or member is None:
            return False
        if channel_id == interaction.channel_id:
            return _may_read(interaction.permissions)
        channel = await _channel(guild, channel_id)
        if isinstance(channel, discord.Thread):
            parent = guild.get_channel(channel.parent_id)
            if parent is None:
                return False
            permissions = parent.permissions_for(member)
            if channel.is_private() and not permissions.manage_threads:
                return False  # a private thread's members are not known without more intents
            return _may_read(permissions)
        if isinstance(channel, discord.abc.GuildChannel):
            return _may_read(channel.permissions_for(member))
        return False

    async def everyone_reads(self, guild_id: int, channel_id: int) -> bool:
        guild = self.interaction.guild
        if guild is None or guild.id != guild_id:
            return False
        return await everyone_reads(guild, channel_id)


class GuildReaders:
    """:class:`bot.core.visibility.ChannelReaders` of a server the bot is in, for what every
    member sees (a daily post); no single member is known here."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def member_reads(self, guild_id: int, channel_id: int, user_id: int) -> bool:
        return False

    async def everyone_reads(self, guild_id: int, channel_id: int) -> bool:
        guild = self.client.get_guild(guild_id)
        return guild is not None and await everyone_reads(guild, channel_id)


async def everyone_reads(guild: discord.Guild, channel_id: int) -> bool:
    """Whether every member of ``guild`` sees the channel (a thread by its parent; never a
    private thread): :func:`bot.core.visibility.everyone_can_read` on the cache's overwrites."""
    channel = await _channel(guild, channel_id)
    if isinstance(channel, discord.Thread):
        if channel.is_private():
            return False
        channel = guild.get_channel(channel.parent_id)
    if not isinstance(channel, discord.abc.GuildChannel):
        return False
    overwrites = [
        Overwrite(
            id=target.id,
            kind=OverwriteKind.ROLE if isinstance(target, discord.Role) else OverwriteKind.MEMBER,
            allow=pair.pair()[0].value,
            deny=pair.pair()[1].value,
        )
        for target, pair in channel.overwrites.items()
    ]
    return everyone_can_read(
        guild_id=guild.id,
        everyone_permissions=guild.default_role.permissions.value,
        overwrites=overwrites,
    )


async def can_view(interaction: Interaction, row: MatchRow) -> bool:
    """Whether the member behind ``interaction`` may see match ``row`` (see the module); a
    match outside a server that installed the bot, only its players, from anywhere."""
    if row.player_index(interaction.user.id) is not None:
        return True
    guild = interaction.guild
    if guild is None or row.guild_id != guild.id:
        return False
    return await may_see(InteractionReaders(interaction), row, interaction.user.id)


def same_place(interaction: Interaction, row: MatchRow) -> bool:
    """Whether the match was played here (this channel, or a thread of it): its file or
    check may then be answered publicly; anything else is answered privately."""
    here = interaction.channel_id
    return here is not None and here in (row.channel_id, row.home_channel_id)


__all__ = ["GuildReaders", "InteractionReaders", "can_view", "everyone_reads", "same_place"]
