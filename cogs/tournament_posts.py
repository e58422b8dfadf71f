"""The Discord side of tournaments: what the tournament service tells, posted.

:class:`TournamentPoster` is the service's :class:`~bot.features.tournaments.service.Host`: it
opens a thread
under the event's channel for each match, posts the opening board there with both players
pinged (as their notice settings allow), posts reminders, decisions with their reasons, the
bracket or table after each round, the announcement with its Join/Leave buttons, and at the
end the podium with every match's file and dice secret in one archive. Everything it posts is
in the server's language. May import: discord, the services and their records,
:mod:`bot.present`, :mod:`renderers.standings`, and the other ``cogs`` modules.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import zipfile
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord.ext import commands

from bot import present
from bot.core.errors import UserError
from bot.core.matfile import mat_filename
from bot.features.tournaments.formats import Event
from bot.features.tournaments.news import (
    Decided,
    EventCancelled,
    EventFinished,
    EventStarted,
    MatchesOpened,
    MatchOpened,
    News,
    ReferredToDirector,
    Reminder,
    RoundOver,
    StartRefused,
)
from bot.features.tournaments.rules import Format, Phase, Section
from bot.i18n import say
from bot.present import notices
from bot.present import tournaments as words
from bot.present.competitions import group_picture, knockout_picture, swiss_picture
from bot.services import Services
from bot.storage.competition_rows import PairingRow, TournamentRow
from cogs.replies import NO_MENTIONS, mentions_for, safe_name
from renderers.standings import BracketPicture, TablePicture, render_bracket, render_table

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
LENGTHS = re.compile(r"^\s*\d{1,2}(\s*[, ]\s*\d{1,2})*\s*$")


def parse_lengths(text: str) -> tuple[int, ...]:
    """ "5, 5, 7, 9" -> (5, 5, 7, 9); a clear refusal for anything else."""
    if not LENGTHS.match(text):
        raise UserError(words.BAD_LENGTHS)
    lengths = tuple(int(n) for n in re.split(r"[,\s]+", text.strip()) if n)
    if not lengths or len(lengths) > 8 or any(not 1 <= n <= 25 for n in lengths):
        raise UserError(words.BAD_LENGTHS)
    return lengths


def when(timestamp: float) -> str:
    """A time every reader sees in their own time zone (Discord's markup)."""
    return f"<t:{int(timestamp)}:f>"


Picture = BracketPicture | TablePicture


def _knockout_pictures(
    value: Any, names: dict[int, str], title: str, language: str
) -> list[Picture]:
    shown: list[Picture] = [knockout_picture(value, names=names, title=title, language=language)]
    if value.has_consolation and value.section(Section.CONSOLATION):
        shown.append(
            knockout_picture(
                value, names=names, title=title, language=language, section=Section.CONSOLATION
            )
        )
    return shown


def _swiss_pictures(value: Any, names: dict[int, str], title: str, language: str) -> list[Picture]:
    return [swiss_picture(value, names=names, title=title, language=language)]


def _group_pictures(value: Any, names: dict[int, str], title: str, language: str) -> list[Picture]:
    return [
        group_picture(value, g, names=names, title=title, language=language)
        for g in range(len(value.groups))
    ]


# How each format of the registry (bot.features.tournaments.formats.FORMATS) is drawn.
PICTURES: dict[Format, Callable[[Any, dict[int, str], str, str], list[Picture]]] = {
    Format.KNOCKOUT: _knockout_pictures,
    Format.SWISS: _swiss_pictures,
    Format.ROUND_ROBIN: _group_pictures,
}


def pictures(event: Event, names: dict[int, str], language: str) -> list[bytes]:
    """The event's bracket(s) or table(s) as PNG (drawn off the event loop by the caller)."""
    shown = PICTURES[event.row.format](event.value, names, event.row.name, language)
    return [render_bracket(p) if isinstance(p, BracketPicture) else render_table(p) for p in shown]


ENTRY_STYLES = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "checkin": discord.ButtonStyle.primary,
}


class EntryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tourney:(?P<action>join|leave|checkin):(?P<event>[0-9]{1,15})",
):
    """Join, Leave or Check in on an announcement; the id names the event (restart-proof)."""

    def __init__(self, action: str, tournament_id: int, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=say(notices.ENTRY_LABELS[action], language),
                style=ENTRY_STYLES[action],
                custom_id=f"tourney:{action}:{tournament_id}",
            )
        )
        self.action = action
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EntryButton:
        return cls(match["action"], int(match["event"]))

    async def callback(self, interaction: Interaction) -> None:
        cog: Any = interaction.client.get_cog("Tournament")
        if cog is not None:
            await cog.entry(interaction, self.action, self.tournament_id)


def entry_view(row: TournamentRow, language: str) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    if row.phase is Phase.REGISTRATION:
        view.add_item(EntryButton("join", row.id, language))
        view.add_item(EntryButton("leave", row.id, language))
    elif row.phase is Phase.CHECK_IN:
        view.add_item(EntryButton("checkin", row.id, language))
        view.add_item(EntryButton("leave", row.id, language))
    else:
        return None
    return view


async def members_among(guild: discord.Guild, users: Sequence[int]) -> set[int]:
    """Which of ``users`` are still members: one gateway request per hundred (Request Guild
    Members by user ids needs no privileged intent), where asking one at a time over REST
    would queue behind the member route's rate limit (64 players: about a minute)."""
    here: set[int] = set()
    for start in range(0, len(users), 100):
        chunk = list(users[start : start + 100])
        try:
            found = await guild.query_members(user_ids=chunk, limit=100, cache=False)
        except (TimeoutError, discord.ClientException):
            log.warning("member query failed in %s; asking one by one", guild.id)
            found = []
            for user_id in chunk:
                try:
                    found.append(await guild.fetch_member(user_id))
                except discord.NotFound:
                    continue
        here.update(member.id for member in found)
    return here


def _chunks(lines: list[str], limit: int = 2000) -> list[str]:
    """Lines joined into as few messages as fit Discord's limit."""
    out: list[str] = []
    for line in lines:
        if out and len(out[-1]) + 1 + len(line) <= limit:
            out[-1] += "\n" + line
        else:
            out.append(line[:limit])
    return out


class TournamentPoster:
    """Posts what the tournament service tells (see the module's docstring)."""

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.tournaments = services.tournaments

    async def language(self, guild_id: int) -> str:
        cog: Any = self.bot.get_cog("Backgammon")
        if cog is None:
            return "en"
        language: str = await cog.publisher.language(guild_id)
        return language

    async def announce(self, row: TournamentRow) -> None:
        """Post or refresh the announcement (entrants, phase, buttons)."""
        language = await self.language(row.guild_id)
        entrants = [safe_name(e.name) for e in await self.tournaments.entrants(row.id)]
        content = words.announcement(row, entrants, when, language)[:2000]
        view = entry_view(row, language)
        channel = self.bot.get_channel(row.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            return
        if row.announcement_id is not None and isinstance(channel, discord.TextChannel):
            message = channel.get_partial_message(row.announcement_id)
            try:
                await message.edit(content=content, view=view, allowed_mentions=NO_MENTIONS)
                return
            except discord.HTTPException:
                log.warning("tournament %s: could not edit the announcement", row.id)
                return
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": NO_MENTIONS}
        if view is not None:
            kwargs["view"] = view
        sent = await channel.send(**kwargs)
        await self.tournaments.note_announcement(row, sent.id)

    # --- the host --------------------------------------------------------------------------

    async def present(self, guild_id: int, users: Sequence[int]) -> set[int]:
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return set(users)  # not this process's server: never drop on a guess
        return await members_among(guild, users)

    async def open_thread(self, event: TournamentRow, pairing: PairingRow) -> int | None:
        channel = self.bot.get_channel(event.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        permissions = channel.permissions_for(channel.guild.me)
        if not (permissions.create_public_threads and permissions.send_messages_in_threads):
            return None
        names = await self.tournaments.names(event.id)
        title = " vs ".join(names.get(p, str(p)) for p in pairing.players)
        try:
            thread = await channel.create_thread(
                name=f"{event.name}: {title}"[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        except discord.HTTPException as exc:
            log.warning("tournament %s: no thread for %s: %s", event.id, pairing.key, exc)
            return None
        return thread.id

    async def _send(self, channel_id: int, content: str, pinged: list[int], **kw: Any) -> None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("tournament channel %s is gone", channel_id)
                return
        if not isinstance(channel, discord.abc.Messageable):
            return
        try:
            await channel.send(content=content[:2000], allowed_mentions=mentions_for(pinged), **kw)
        except discord.HTTPException:
            log.exception("could not post to %s", channel_id)

    async def _pingable(self, players: tuple[int, ...]) -> list[int]:
        """The players whose notice settings let the bot ping them."""
        out = []
        for player in players:
            if (await self.services.club.user_settings(player)).notify != "off":
                out.append(player)
        return out

    async def tell(self, news: News) -> None:
        row = news.event
        language = await self.language(row.guild_id)
        names = {p: safe_name(n) for p, n in (await self.tournaments.names(row.id)).items()}
        if isinstance(news, MatchOpened):
            await self._match_opened(news, names, language)
        elif isinstance(news, MatchesOpened):
            lines = [
                say(words.match_opened_in(row, p, names, f"<#{p.channel_id}>"), language)
                for p in news.pairings
            ]
            for chunk in _chunks(lines):
                await self._send(row.channel_id, chunk, [])
        elif isinstance(news, Reminder):
            pinged = await self._pingable(news.pairing.players)
            text = words.reminder(
                row, news.pairing, self._mention(pinged, names), when(news.deadline)
            )
            await self._send(news.pairing.channel_id or row.channel_id, say(text, language), pinged)
        elif isinstance(news, ReferredToDirector):
            text = words.referred(row, news.pairing, names, news.verdict)
            await self._send(row.channel_id, say(text, language), [])
        elif isinstance(news, Decided):
            director = None if news.director is None else safe_name(news.director.name)
            text = words.decided(
                row, news.pairing, news.result, names, director, news.reason, language
            )
            for channel in {row.channel_id, news.pairing.channel_id or row.channel_id}:
                await self._send(channel, say(text, language), [])
        elif isinstance(news, RoundOver):
            await self._post_pictures(
                news.state, names, language, words.round_over(row, news.number)
            )
        elif isinstance(news, EventFinished):
            await self._finished(news, names, language)
        elif isinstance(news, EventStarted):
            await self.announce(await self.tournaments.event(row.id))
        elif isinstance(news, StartRefused):
            text = words.start_refused(row, say(present.refusal(news.why, safe_name), language))
            await self._send(row.channel_id, say(text, language), [])
        elif isinstance(news, EventCancelled):
            text = words.cancelled(row, safe_name(news.director.name))
            await self._send(row.channel_id, say(text, language), [])

    def _mention(self, pinged: list[int], names: dict[int, str]) -> Callable[[int], str]:
        return lambda p: f"<@{p}>" if p in pinged else names.get(p, str(p))

    async def _match_opened(self, news: MatchOpened, names: dict[int, str], language: str) -> None:
        row, pairing = news.event, news.pairing
        channel_id = pairing.channel_id or row.channel_id
        pinged = await self._pingable(pairing.players)
        text = words.match_opened(
            row, pairing, self._mention(pinged, names), when(news.deadline), news.in_thread
        )
        await self._send(channel_id, say(text, language), pinged)
        cog: Any = self.bot.get_cog("Backgammon")
        if cog is not None:
            await cog.publisher.post_background(news.report)

    async def _post_pictures(
        self, event: Event, names: dict[int, str], language: str, text: Any
    ) -> list[discord.File]:
        pngs = await asyncio.to_thread(pictures, event, names, language)
        files = [
            discord.File(io.BytesIO(png), filename=f"standings-{i}.png")
            for i, png in enumerate(pngs, start=1)
        ]
        if text is not None:
            await self._send(event.row.channel_id, say(text, language), [], files=files)
        return files

    async def _finished(self, news: EventFinished, names: dict[int, str], language: str) -> None:
        row = news.event
        archive = io.BytesIO()
        secrets: list[str] = []
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
            for match_id in news.match_ids:
                try:
                    match, text = await self.services.club.match_file(row.guild_id, 0, match_id)
                except Exception:
                    log.exception("tournament %s: no file for match %s", row.id, match_id)
                    continue
                bundle.writestr(mat_filename(match), text)
                if match.dice is not None:
                    secrets.append(f"#{match_id}: {match.dice.secret} ({match.dice.commitment})")
            bundle.writestr("dice-secrets.txt", "\n".join(secrets) + "\n")
        files = await self._post_pictures(news.state, names, language, None)
        files.append(
            discord.File(io.BytesIO(archive.getvalue()), filename=f"tournament-{row.id}.zip")
        )
        podium = words.podium(row, news.state.placings(), names)
        await self._send(row.channel_id, say(podium, language), [], files=files)
