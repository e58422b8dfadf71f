"""The web board in Discord: links from the bot's messages to the pages, and the Activity's
launch (the Launch button on a board, and ``/backgammon play-here``).

Nothing here when ``WEB_URL`` is not set: the messages stay exactly as before. The Launch
button and ``play-here`` answer with LAUNCH_ACTIVITY (interaction response type 12), which
must be the interaction's first response, so they never defer; they need the Activity's
OAuth2 client too (``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET``).

May import: discord, :mod:`bot.config`, :mod:`bot.i18n`, :mod:`bot.present`,
:mod:`bot.core.records`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.records import MatchRow
from bot.i18n import say
from bot.present import notices

WATCH = notices.WATCH_LIVE
REPLAY = notices.REPLAY
LAUNCH = notices.OPEN_BOARD
NO_ACTIVITY = notices.NO_ACTIVITY


@dataclass(frozen=True, slots=True)
class WebLinks:
    """Where the pages are (None: no web board) and whether the Activity can be launched."""

    url: str | None = None
    activity: bool = False

    @classmethod
    def of(cls, bot: Any) -> WebLinks:
        settings = getattr(bot, "settings", None)
        url = getattr(settings, "web_url", None)
        return cls(url, bool(getattr(settings, "activity", False)) and can_launch())

    def match(self, row: MatchRow) -> str | None:
        """The match's page, by its key (never its number): posted only in the channel's
        own messages, it opens as bot.web.access decides."""
        if self.url is None or not row.web_key:
            return None
        page = "m" if row.live else "r"
        return f"{self.url}/{page}/{row.web_key}"

    def chouette(self, key: str) -> str | None:
        """A chouette's page, by its session's web key (never its number)."""
        if self.url is None or not key:
            return None
        return f"{self.url}/c/{key}"

    def leaderboard(self, key: str) -> str | None:
        """The server's leaderboard page, by the server's web key."""
        return None if self.url is None else f"{self.url}/g/{key}"

    def shared(self, token: str) -> str | None:
        """A replay shared on purpose (``/backgammon share``)."""
        return None if self.url is None else f"{self.url}/s/{token}"

    def items(self, row: MatchRow, language: str) -> list[discord.ui.Item[Any]]:
        """A board message's web buttons: the page of the match, and Launch while it runs."""
        url = self.match(row)
        if url is None:
            return []
        label = WATCH if row.live else REPLAY
        items: list[discord.ui.Item[Any]] = [discord.ui.Button(label=say(label, language), url=url)]
        if self.activity and row.live:
            items.append(LaunchButton(language))
        return items


class LaunchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bgweb:launch"):
    """Opens the Activity in the channel (restart-proof: the id names nothing else)."""

    def __init__(self, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=say(LAUNCH, language),
                style=discord.ButtonStyle.primary,
                custom_id="bgweb:launch",
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LaunchButton:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await launch(interaction)


def can_launch() -> bool:
    """LAUNCH_ACTIVITY needs discord.py 2.6 (the floor, 2.5, runs everything else)."""
    return hasattr(discord.InteractionResponse, "launch_activity")


async def launch(interaction: discord.Interaction[Any]) -> None:
    """Answer with LAUNCH_ACTIVITY, or privately say the Activity is not set up."""
    if not (WebLinks.of(interaction.client).activity and can_launch()):
        await interaction.response.send_message(
            say(NO_ACTIVITY, interaction.locale), ephemeral=True
        )
        return
    await interaction.response.launch_activity()


__all__ = ["LaunchButton", "WebLinks", "can_launch", "launch"]
