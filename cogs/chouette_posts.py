"""Posting a chouette: what the service stored, told in the server's language with the board
and the table at a glance, and the buttons for the next decision.

:class:`ChouettePoster` answers the request that made a change (the pressed board loses its
buttons, the new board follows, as a game's publisher does), posts the changes nobody asked
for in the session's thread (the computer's turn finished by the clock, idle members
following the captain: :class:`~bot.features.chouette.facts.ChouetteChanged` with
``background``), opens a session's thread (or says why it stays in the channel), and after
each game adds the session table. Pictures are drawn in the worker processes. May import:
discord, the services and their records, :mod:`bot.present`, :mod:`renderers.chouette`, and
the other ``cogs`` modules but the cogs.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord.ext import commands

from bot import present
from bot.core.facts import Fact
from bot.core.records import Notify
from bot.features.chouette.facts import ChouetteChanged
from bot.features.chouette.rules import Chouette, Status
from bot.features.chouette.service import ChouetteReport
from bot.i18n import Text, say
from bot.present import chouette as words
from bot.present.chouette_story import next_line, story, to_call
from bot.present.chouette_table import lobby_text, panel, table_text
from bot.services import Services
from cogs.chouette_views import view_for
from cogs.kit import Kit
from cogs.replies import NO_MENTIONS, Reply, mentions_for, safe_name
from cogs.weblinks import WATCH, WebLinks
from renderers.board import render_board
from renderers.chouette import render_chouette, render_table

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


class ChouettePoster:
    """Posts what the chouette service did (see the module's docstring)."""

    def __init__(self, bot: commands.Bot, services: Services, kit: Kit) -> None:
        self.bot = bot
        self.services = services
        self.kit = kit
        self.stop_listening = services.facts.subscribe(self._hear, detached=True)

    async def language(self, guild_id: int) -> str:
        return await self.kit.publisher.language(guild_id)

    # --- what a change looks like -------------------------------------------------------------

    async def message(
        self, report: ChouetteReport, language: str, notes: Sequence[Text] = ()
    ) -> dict[str, Any]:
        """Everything a post of ``report`` holds: the story, who must act (called by name,
        pinged as their notice setting asks), the picture, the buttons."""
        s = report.state
        pinged = [uid for uid in to_call(s) if await self._pings(uid)]

        def mention(name: str) -> str:
            for uid in pinged:
                if s.name(uid) == name:
                    return f"<@{uid}>"
            return safe_name(name)

        lines = [say(line, language) for line in story(report.events, s, safe_name)]
        lines += [say(note, language) for note in notes]
        if s.status is Status.OPEN and report.action is None:
            lines.append(lobby_text(s, language, safe_name))
        step = next_line(s, safe_name, mention)
        if step is not None:
            lines.append(say(step, language))
        if report.game_over:
            lines.append(table_text(s, language, safe_name))
        files = await self.pictures(report, language)
        kwargs: dict[str, Any] = {
            "content": present.fit("\n".join(line for line in lines if line)),
            "allowed_mentions": mentions_for(pinged) if pinged else NO_MENTIONS,
        }
        if files:
            kwargs["files"] = files
        view = view_for(s, report.row.id, language)
        watch = WebLinks.of(self.bot).chouette(report.row.web_key)
        if watch is not None:  # the web board shows every cube to spectators
            view = view or discord.ui.View(timeout=None)
            link = discord.ui.Button[Any](label=say(WATCH, language), url=watch, row=4)
            view.add_item(link)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    async def _pings(self, user_id: int) -> bool:
        settings = await self.services.club.user_settings(user_id)
        return settings.notify is Notify.ON

    async def pictures(self, report: ChouetteReport, language: str) -> list[discord.File]:
        """The last board of a game just finished, then the table at a glance with the
        board being played (or the open table alone)."""
        s = report.state
        workers = self.services.workers
        board_words = present.board_words(language)
        jobs: list[Any] = []
        for board in report.finished:
            names = _names(report.before or s)
            jobs.append(
                functools.partial(
                    render_board, board, perspective=1, names=names, words=board_words
                )
            )
        shown = panel(s, language)
        g = s.game
        if g is not None and s.status is Status.PLAYING and not g.over:
            names = (s.name(g.box), s.name(g.acting))
            jobs.append(
                functools.partial(render_chouette, g.board, shown, names=names, words=board_words)
            )
        elif s.status is Status.OPEN:
            jobs.append(functools.partial(render_table, shown))
        if not jobs:
            return []
        pngs = await asyncio.gather(*(workers.call(job) for job in jobs))
        return [
            discord.File(io.BytesIO(png), filename=f"chouette-{index}.png")
            for index, png in enumerate(pngs, start=1)
        ]

    # --- answering a request -----------------------------------------------------------------

    async def publish(
        self, reply: Reply, report: ChouetteReport, notes: Sequence[Text] = ()
    ) -> None:
        """The answer to the request that made the change: the pressed board loses its
        buttons while the new one is drawn, then the new board."""
        removing = asyncio.ensure_future(reply.remove_buttons())
        try:
            language = await self.language(report.row.guild_id)
            kwargs = await self.message(report, language, notes)
        finally:
            await removing
        await reply.send(**kwargs)

    # --- news nobody asked for ----------------------------------------------------------------

    async def _hear(self, facts: Sequence[Fact]) -> None:
        for fact in facts:
            if isinstance(fact, ChouetteChanged) and fact.background:
                await self.post(fact.report)

    async def post(self, report: ChouetteReport) -> None:
        """A change made by the session's clock, posted where the session is played."""
        channel = self.bot.get_channel(report.row.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("chouette %s: channel %s unknown", report.row.id, report.row.channel_id)
            return
        try:
            language = await self.language(report.row.guild_id)
            await channel.send(**await self.message(report, language))
        except discord.HTTPException:
            log.exception("could not post chouette %s", report.row.id)

    # --- a thread of its own ---------------------------------------------------------------

    async def open_thread(
        self, interaction: Interaction, starter: str, language: str
    ) -> tuple[discord.Thread | None, list[Text]]:
        """A public thread for a new session, or None (in a thread already, or the bot may
        not open one here: then a note says why the session stays in the channel)."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            return None, []
        permissions = interaction.app_permissions
        if not (permissions.create_public_threads and permissions.send_messages_in_threads):
            return None, [words.THREADS_MISSING]
        name = say(words.thread_name(starter), language)[:100]
        try:
            thread = await channel.create_thread(name=name, type=discord.ChannelType.public_thread)
        except discord.HTTPException as exc:
            log.warning("could not open a chouette thread in %s: %s", channel.id, exc)
            return None, [words.THREADS_MISSING]
        return thread, []


def _names(s: Chouette) -> tuple[str, str]:
    g = s.game
    if g is None:
        return ("", "")
    return (s.name(g.box), s.name(g.acting))


__all__ = ["ChouettePoster"]
