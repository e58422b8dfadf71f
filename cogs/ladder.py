"""The ``/ladder`` command group: join, leave, challenge, standings, and the Accept/Refuse
buttons on a challenge; the Discord side of :class:`bot.features.tournaments.ladders.LadderService`.

A challenge is posted in the ladder's channel with restart-proof buttons
(``ladder:<accept|refuse>:<challenge>``, the server from the interaction); only the
challenged player may answer, anyone else is refused privately. An accepted challenge's
match opens by itself in a thread, both players pinged. The cog's loop expires unanswered
challenges (the challenger takes the place), drops players who left the server, and
decides overdue matches. May import: discord, the services, :mod:`bot.present`, the other
``cogs`` modules.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.features.tournaments.ladders import LadderNews, LadderState
from bot.i18n import _, say
from bot.present import notices
from bot.present import tournaments as words
from bot.present.competitions import ladder_picture
from bot.services import Services
from cogs.directors import director_of
from cogs.helpers import player_of
from cogs.kit import Kit
from cogs.replies import NO_MENTIONS, Reply, mentions_for, safe_name
from cogs.tournament_posts import when
from cogs.translator import locale
from renderers.standings import render_table

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
TICK_SECONDS = 300.0


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ladder:(?P<action>accept|refuse):(?P<challenge>[0-9]{1,9})",
):
    """Accept or Refuse a ladder challenge (the id names the challenge)."""

    def __init__(self, action: str, challenge_id: int, language: str = "en") -> None:
        label = notices.LADDER_LABELS[action]
        style = discord.ButtonStyle.success if action == "accept" else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=say(label, language),
                style=style,
                custom_id=f"ladder:{action}:{challenge_id}",
            )
        )
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnswerButton:
        return cls(match["action"], int(match["challenge"]))

    async def callback(self, interaction: Interaction) -> None:
        cog: Any = interaction.client.get_cog("Ladder")
        if cog is not None:
            await cog.answer(interaction, self.challenge_id, self.action == "accept")


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)  # a club's: never a user install
class Ladder(
    commands.GroupCog,
    group_name="ladder",
    group_description=locale(_("The server's challenge ladder")),
):
    """The ladder's commands and buttons; the ladder service's host."""

    def __init__(self, bot: commands.Bot, services: Services, kit: Kit) -> None:
        self.bot = bot
        self.services = services
        self.kit = kit
        self.ladders = services.ladders
        self.ladders.host = self
        self.tick_seconds = TICK_SECONDS
        self._loop: asyncio.Task[None] | None = None
        super().__init__()

    async def cog_load(self) -> None:
        self._loop = asyncio.create_task(self._keep_time())

    async def cog_unload(self) -> None:
        if self._loop is not None:
            self._loop.cancel()

    async def _keep_time(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            await asyncio.sleep(self.tick_seconds)
            await self.tick()

    async def tick(self) -> None:
        try:
            await self.ladders.tick([g.id for g in self.bot.guilds])
        except Exception:
            log.exception("the ladder clock failed")

    async def _language(self, guild_id: int) -> str:
        cog: Any = self.bot.get_cog("Backgammon")
        return "en" if cog is None else str(await cog.publisher.language(guild_id))

    async def _run(self, interaction: Interaction, work: Any, private: bool) -> None:
        """Inside the bot's guard (:mod:`cogs.kit`), as every action: a stop waits for it, and
        while the bot stops it is refused privately."""
        await self.kit.run(interaction, work, private=private)

    # --- the host --------------------------------------------------------------------------

    async def present(self, guild_id: int, user_id: int) -> bool:
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return True  # not this process's server: it cannot tell
        if guild.get_member(user_id) is not None:
            return True
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True  # unsure: never drop anyone on a failed look-up
        return True

    async def open_thread(self, channel_id: int, title: str) -> int | None:
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        permissions = channel.permissions_for(channel.guild.me)
        if not (permissions.create_public_threads and permissions.send_messages_in_threads):
            return None
        try:
            thread = await channel.create_thread(
                name=title[:100], type=discord.ChannelType.public_thread
            )
        except discord.HTTPException:
            return None
        return thread.id

    async def tell(self, news: LadderNews) -> None:
        state = news.state
        language = await self._language(news.guild_id)
        names = {p: safe_name(n) for p, n in state.names.items()}
        channel: Any = self.bot.get_channel(state.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        challenge = news.challenge
        kwargs: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
        if news.kind == "challenge" and challenge is not None:
            defender = challenge.defender
            pinged = [defender] if await self._pingable(defender) else []
            mention = f"<@{defender}>" if pinged else names.get(defender, "?")
            text = words.ladder_challenge(
                names.get(challenge.challenger, "?"), mention, when(challenge.accept_by.timestamp())
            )
            view = discord.ui.View(timeout=None)
            view.add_item(AnswerButton("accept", challenge.id, language))
            view.add_item(AnswerButton("refuse", challenge.id, language))
            kwargs.update(view=view, allowed_mentions=mentions_for(pinged))
        elif news.kind == "opened" and challenge is not None and news.report is not None:
            players = (challenge.challenger, challenge.defender)
            pinged = [p for p in players if await self._pingable(p)]
            first, second = (f"<@{p}>" if p in pinged else names.get(p, "?") for p in players)
            play_by = challenge.play_by.timestamp() if challenge.play_by else self.ladders.clock()
            text = words.ladder_opened(first, second, state.length, when(play_by))
            where = self.bot.get_channel(news.thread) if news.thread else channel
            if isinstance(where, discord.abc.Messageable):
                await where.send(content=say(text, language), allowed_mentions=mentions_for(pinged))
            cog: Any = self.bot.get_cog("Backgammon")
            if cog is not None:
                await cog.publisher.post_background(news.report)
            return
        elif news.kind == "result" and news.result is not None:
            result = say(words.result_words(news.result, names), language)
            if news.director is not None:
                director, why = safe_name(news.director), safe_name(news.why)
                text = words.ladder_decided(result, director, why)
            else:
                text = words.ladder_result(result, news.reason)
            kwargs["files"] = [await self._picture(state, language)]
        else:
            text = words.ladder_left(safe_name(news.reason))
        try:
            await channel.send(content=say(text, language), **kwargs)
        except discord.HTTPException:
            log.exception("could not post to the ladder's channel %s", state.channel_id)

    async def _pingable(self, player: int) -> bool:
        return (await self.services.club.user_settings(player)).notify != "off"

    async def _picture(self, state: LadderState, language: str) -> discord.File:
        names = {p: safe_name(n) for p, n in state.names.items()}
        title = say(words.LADDER_TITLE, language)
        picture = ladder_picture(state.ladder, names=names, title=title, language=language)
        png = await asyncio.to_thread(render_table, picture)
        return discord.File(io.BytesIO(png), filename="ladder.png")

    # --- commands and buttons ---------------------------------------------------------------

    async def answer(self, interaction: Interaction, challenge_id: int, accept: bool) -> None:
        async def work(reply: Reply) -> None:
            user = player_of(interaction.user)
            await self.ladders.answer(interaction.guild_id or 0, challenge_id, user, accept)
            await reply.private(content=say(words.LADDER_ANSWERED, interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(name="join", description=locale(_("Join the server's ladder")))
    async def join(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            await self.ladders.join(
                interaction.guild_id or 0, interaction.channel_id or 0, player_of(interaction.user)
            )
            await reply.private(content=say(words.LADDER_JOINED, interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(name="leave", description=locale(_("Leave the server's ladder")))
    async def leave(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            await self.ladders.leave(interaction.guild_id or 0, interaction.user.id)
            await reply.private(content=say(words.LADDER_LEFT, interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(
        name="challenge", description=locale(_("Challenge a player above you on the ladder"))
    )
    @app_commands.describe(opponent=locale(_("A player up to three places above you")))
    async def challenge(self, interaction: Interaction, opponent: discord.Member) -> None:
        async def work(reply: Reply) -> None:
            user = player_of(interaction.user)
            await self.ladders.challenge(interaction.guild_id or 0, user, opponent.id)
            await reply.private(content=say(words.LADDER_CHALLENGED, interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(
        name="decide", description=locale(_("Directors: decide a ladder match for a player"))
    )
    @app_commands.describe(
        winner=locale(_("The player who wins the match")),
        reason=locale(_("Why, posted with the result")),
    )
    async def decide(
        self,
        interaction: Interaction,
        winner: discord.Member,
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        """A director's ruling on an accepted match (both players active at the play-by
        time: the deadline rule lets them play on and leaves the decision to a person)."""

        async def work(reply: Reply) -> None:
            director = await director_of(interaction, self.services.tournaments)
            await self.ladders.decide(interaction.guild_id or 0, director, winner.id, reason)
            await reply.private(content=say(words.LADDER_DECIDED, interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(name="standings", description=locale(_("The ladder from the top")))
    async def standings(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            state = await self.ladders.state(interaction.guild_id or 0)
            if state is None:
                await reply.private(content=say(words.LADDER_EMPTY, interaction.locale))
                return
            language = await self._language(interaction.guild_id or 0)
            picture = await self._picture(state, language)
            await reply.send(files=[picture], allowed_mentions=NO_MENTIONS)

        await self._run(interaction, work, private=False)


__all__ = ["AnswerButton", "Ladder"]


async def setup(bot: commands.Bot) -> None:
    """The extension's entry (``bot.load_extension("cogs.ladder")``)."""
    await bot.add_cog(Ladder(bot, bot.services, bot.kit))  # type: ignore[attr-defined]
    bot.add_dynamic_items(AnswerButton)
