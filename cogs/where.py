"""Where on Discord an interaction comes from, and what that lets the bot do there.

Since 2024 a player can install the app to their own account (a user install): its commands
then work in their DMs, group DMs and servers that never added the bot. There the bot is
not a member of the channel. It cannot post, edit its old messages, open a thread or fetch
the channel; it can only answer interactions. Discord says where an interaction comes from
in two fields, read here once: ``context`` (a server, the bot's DM, another DM or group DM)
and ``authorizing_integration_owners`` (whether the server itself installed the app).
(Discord's documentation: ``interactions/receiving-and-responding.mdx``, the Interaction
Context Types and the Authorizing Integration Owners Object.)

The answer is a :class:`~bot.core.records.Venue`, which a match keeps: the session and the
publisher decide from it, never from Discord's fields again.

May import: discord and :mod:`bot.core.records`; no other ``cogs`` module.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.records import Venue

Interaction = discord.Interaction[Any]


def venue_of(interaction: Interaction) -> Venue:
    """Where ``interaction`` happens (see the module)."""
    context = interaction.context
    if context.private_channel:
        return Venue.PRIVATE
    if context.dm_channel:
        return Venue.BOT_DM
    # A server (a payload without a context, from before contexts, names one or none).
    if interaction.guild_id is None:
        return Venue.BOT_DM
    return Venue.SERVER if interaction.is_guild_integration() else Venue.GUEST


def home_guild(interaction: Interaction) -> int:
    """The server a match started here belongs to: the interaction's, on a server that
    installed the bot; 0 anywhere else (a DM, a group DM, a server without the bot), whose
    matches belong to no server's leaderboard, settings or statistics."""
    if venue_of(interaction) is Venue.SERVER:
        return interaction.guild_id or 0
    return 0


def answers_are_private(interaction: Interaction) -> bool:
    """Whether Discord will turn every answer to ``interaction`` private: on a server that
    did not add the bot, where the member may not use external apps (the moderators' "Use
    External Apps" permission, ``topics/permissions.mdx``: "When disabled, users will still
    be allowed to use their apps but the responses will be ephemeral"). A game there would
    be seen by nobody but its challenger."""
    return venue_of(interaction) is Venue.GUEST and not interaction.permissions.use_external_apps


__all__ = ["answers_are_private", "home_guild", "venue_of"]
