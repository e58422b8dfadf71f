"""Who may look at a stored match: the members of its server who can see where it was played.

``/backgammon export match:N`` and ``/backgammon verify`` name a match by number or by its
dice's public value, which anyone can type. A match is shown only to a member of its own
server who can view (and read the history of) the channel it was played in: for a game that
moved to a thread of its own, the channel it was challenged in; for a game played in a
thread, that thread's parent. Its players always can (it is their own record).

Discord hands an interaction the caller's permissions for the current channel only. For
another channel they are computed from the guild cache (roles and the channel's
overwrites), which the ``guilds`` intent alone keeps: no members intent is needed, because
the interaction carries the caller as a member with their roles. A thread missing from the
cache (archived) is fetched once to learn its parent. Anything that cannot be resolved (a
deleted channel, a private thread the caller may not manage) counts as not visible.

May import: discord, :mod:`bot.records`.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.records import MatchRow

Interaction = discord.Interaction[Any]


def _may_read(permissions: discord.Permissions) -> bool:
    return permissions.view_channel and permissions.read_message_history


async def can_view(interaction: Interaction, row: MatchRow) -> bool:
    """Whether the member behind ``interaction`` may see match ``row`` (see the module)."""
    guild = interaction.guild
    member = interaction.user
    if guild is None or row.guild_id != guild.id or not isinstance(member, discord.Member):
        return False
    if row.player_index(member.id) is not None:
        return True
    # A game moved to its own thread lives in a public thread of its home channel.
    channel_id = row.home_channel_id or row.channel_id
    if channel_id == interaction.channel_id:
        return _may_read(interaction.permissions)
    channel: Any = guild.get_channel_or_thread(channel_id)
    if channel is None:
        try:
            channel = await guild.fetch_channel(channel_id)
        except discord.HTTPException:  # gone, or the bot itself may not see it
            return False
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


def same_place(interaction: Interaction, row: MatchRow) -> bool:
    """Whether the match was played here (this channel, or a thread of it): its file or
    check may then be answered publicly; anything else is answered privately."""
    here = interaction.channel_id
    return here is not None and here in (row.channel_id, row.home_channel_id)


__all__ = ["can_view", "same_place"]
