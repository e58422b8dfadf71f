"""Who directs a server's competitions: one check for the tournament and ladder commands.

A director is a member with Manage Server, or with the role the server's managers chose
(``/tournament directors``). Shared by :mod:`cogs.tournament` and :mod:`cogs.ladder`, so
neither cog imports the other.

May import: discord, :mod:`bot.features.tournaments.service` (the role, through its service),
:mod:`bot.present`, :mod:`cogs.helpers`.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.errors import UserError
from bot.core.reports import Player
from bot.features.tournaments.service import TournamentService
from bot.present import tournaments as words
from cogs.helpers import player_of


async def director_of(
    interaction: discord.Interaction[Any], tournaments: TournamentService
) -> Player:
    """The caller, if a director on this server (Manage Server, or the directors' role set
    by /tournament directors), for the tournaments and the ladder alike; else a private
    refusal."""
    member = interaction.user
    if interaction.permissions.manage_guild:
        return player_of(member)
    role = await tournaments.director_role(interaction.guild_id or 0)
    roles = getattr(member, "roles", [])
    if role is not None and any(r.id == role for r in roles):
        return player_of(member)
    raise UserError(words.NOT_DIRECTOR)


__all__ = ["director_of"]
