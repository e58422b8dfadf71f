"""The ``/tournament`` command group, its Join/Leave buttons, and the Discord side of events.

Thin adapters over :class:`bot.tournaments.TournamentService`: each command reads its
options, checks that a director's tool is used by a director (Manage Server, or the role the
server set with ``/tournament directors``) and calls the service. The cog is also the
service's :class:`~bot.tournaments.Host`: it opens a thread under the event's channel for
each match, posts the opening board there with both players pinged, posts reminders,
decisions, the bracket or table after each round, and at the end the podium with every
match's file and dice secret in one archive. Its loop keeps the deadlines (every
:data:`TICK_SECONDS`, and once at start-up after bringing every event up to date).

Private answers (errors, "you are in") are in the reader's language; what is posted is in
the server's. May import: discord, the services and their records, :mod:`bot.present`,
:mod:`renderers.standings`, and the other ``cogs`` modules.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import zipfile
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.competitions import Format, Knockout, Pace, Phase, Section, Seeding, Swiss
from bot.errors import UserError
from bot.i18n import Text, _, language_of, say
from bot.matfile import mat_filename
from bot.present import tournaments as words
from bot.present.competitions import group_picture, knockout_picture, swiss_picture
from bot.reports import Player
from bot.services import Services
from bot.storage.competition_rows import PairingRow, TournamentOptions, TournamentRow
from bot.tournament_formats import Event
from bot.tournament_news import (
    Decided,
    EventCancelled,
    EventFinished,
    MatchOpened,
    News,
    ReferredToDirector,
    Reminder,
    RoundOver,
)
from cogs.helpers import player_of
from cogs.replies import NO_MENTIONS, Reply, mentions_for, safe_name
from cogs.translator import locale
from renderers.standings import BracketPicture, TablePicture, render_bracket, render_table

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
TICK_SECONDS = 60.0
MAX_ID = 2**53 - 1
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


def pictures(event: Event, names: dict[int, str], language: str) -> list[bytes]:
    """The event's bracket(s) or table(s) as PNG (drawn off the event loop by the caller)."""
    value, title = event.value, event.row.name
    shown: list[BracketPicture | TablePicture] = []
    if isinstance(value, Knockout):
        shown.append(knockout_picture(value, names=names, title=title, language=language))
        if value.has_consolation and value.section(Section.CONSOLATION):
            shown.append(
                knockout_picture(
                    value, names=names, title=title, language=language, section=Section.CONSOLATION
                )
            )
    elif isinstance(value, Swiss):
        shown.append(swiss_picture(value, names=names, title=title, language=language))
    else:
        shown.extend(
            group_picture(value, g, names=names, title=title, language=language)
            for g in range(len(value.groups))
        )
    return [render_bracket(p) if isinstance(p, BracketPicture) else render_table(p) for p in shown]


ENTRY_LABELS: dict[str, Text] = {"join": _("Join"), "leave": _("Leave"), "checkin": _("Check in")}
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
                label=say(ENTRY_LABELS[action], language),
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
        cog = interaction.client.get_cog("Tournament")
        if isinstance(cog, Tournament):
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


@app_commands.guild_only()
class Tournament(
    commands.GroupCog,
    group_name="tournament",
    group_description=locale(_("Club tournaments run by the bot")),
):
    """Tournaments for the members of a server; the tournament service's host."""

    def __init__(self, bot: commands.Bot, services: Services) -> None:
        self.bot = bot
        self.services = services
        self.tournaments = services.tournaments
        self.tournaments.host = self
        self.tick_seconds = TICK_SECONDS
        self._loop: asyncio.Task[None] | None = None
        super().__init__()

    async def cog_load(self) -> None:
        self._loop = asyncio.create_task(self._keep_time())

    async def cog_unload(self) -> None:
        if self._loop is not None:
            self._loop.cancel()

    async def _keep_time(self) -> None:
        """At start-up bring every event up to date, then keep the deadlines."""
        await self.bot.wait_until_ready()
        try:
            await self.tournaments.resume()
        except Exception:
            log.exception("could not resume the tournaments")
        while True:
            try:
                await self.tournaments.tick()
            except Exception:
                log.exception("the tournament clock failed")
            await asyncio.sleep(self.tick_seconds)

    # --- helpers -------------------------------------------------------------------------

    async def _language(self, guild_id: int) -> str:
        cog: Any = self.bot.get_cog("Backgammon")
        if cog is None:
            return "en"
        language: str = await cog.publisher.language(guild_id)
        return language

    async def _run(
        self, interaction: Interaction, work: Callable[[Reply], Awaitable[None]], private: bool
    ) -> None:
        reply = Reply(interaction, private=private)
        watchdog = asyncio.create_task(reply.watch())
        try:
            await work(reply)
        except Exception as exc:
            await self.bot.tree.on_error(interaction, exc)  # type: ignore[arg-type]
        finally:
            reply.finish()
            await watchdog

    async def _director(self, interaction: Interaction) -> Player:
        """The caller, if a director here; else a private refusal."""
        member = interaction.user
        if interaction.permissions.manage_guild:
            return player_of(member)
        role = await self.tournaments.store.td_role(interaction.guild_id or 0)
        roles = getattr(member, "roles", [])
        if role is not None and any(r.id == role for r in roles):
            return player_of(member)
        raise UserError(words.NOT_DIRECTOR)

    async def _pick(self, interaction: Interaction, number: int | None) -> TournamentRow:
        """The event named, else the server's latest not over (this channel's first)."""
        guild_id = interaction.guild_id or 0
        if number is not None:
            return await self.tournaments.event(number, guild_id)
        current = await self.tournaments.current(guild_id)
        here = [r for r in current if r.channel_id == interaction.channel_id]
        chosen = (here or current)[-1:]
        if not chosen:
            raise UserError(words.NO_EVENT)
        return chosen[0]

    async def _rating(self, guild_id: int, user_id: int) -> float | None:
        stats = await self.services.session.stats(guild_id, user_id)
        return None if stats is None or not stats.rated_matches else stats.rating

    async def _announce(self, row: TournamentRow) -> None:
        """Post or refresh the announcement (entrants, phase, buttons)."""
        language = await self._language(row.guild_id)
        entrants = [safe_name(e.name) for e in await self.tournaments.store.entrants(row.id)]
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
        language = await self._language(row.guild_id)
        names = {p: safe_name(n) for p, n in (await self.tournaments.names(row.id)).items()}
        if isinstance(news, MatchOpened):
            await self._match_opened(news, names, language)
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
        if news.in_thread:
            where = words.match_opened_in(row, pairing, names, f"<#{channel_id}>")
            await self._send(row.channel_id, say(where, language), [])

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

    # --- entry (buttons and commands) -------------------------------------------------------

    async def entry(self, interaction: Interaction, action: str, tournament_id: int) -> None:
        async def work(reply: Reply) -> None:
            user = player_of(interaction.user)
            guild_id = interaction.guild_id or 0
            row = await self.tournaments.event(tournament_id, guild_id)
            if action == "join":
                rating = await self._rating(guild_id, user.id)
                row = await self.tournaments.join(row.id, user, rating)
            elif action == "leave":
                row = await self.tournaments.leave(row.id, user)
            else:
                row = await self.tournaments.check_in(row.id, user)
            done = words.entry_done(action, safe_name(row.name))
            await reply.private(content=say(done, interaction.locale))
            await self._announce(row)

        await self._run(interaction, work, private=True)

    # --- commands --------------------------------------------------------------------------

    @app_commands.command(name="create", description=locale(_("Directors: announce a tournament")))
    @app_commands.describe(
        name=locale(_("The tournament's name")),
        format=locale(_("Knockout, Swiss or round robin")),
        lengths=locale(_("Match lengths by round up to the final, like 5,5,7,9")),
        pace=locale(_("Live (minutes a point) or correspondence (hours a round)")),
        hours=locale(_("Correspondence: hours for each round")),
        seeding=locale(_("Seeds at random or by the server's rating")),
        consolation=locale(_("Knockout: a consolation bracket for early losers")),
        rounds=locale(_("Swiss: how many rounds (default from the field's size)")),
        check_in=locale(_("Entrants must check in before the start")),
        max_players=locale(_("The most players who can join")),
    )
    async def create(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 60],
        format: Literal["knockout", "swiss", "round_robin"] = "knockout",
        lengths: app_commands.Range[str, 1, 40] = "5",
        pace: Literal["correspondence", "live"] = "correspondence",
        hours: app_commands.Range[int, 1, 720] = 168,
        seeding: Literal["random", "rating"] = "random",
        consolation: bool = False,
        rounds: app_commands.Range[int, 1, 15] | None = None,
        check_in: bool = False,
        max_players: app_commands.Range[int, 2, 256] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            director = await self._director(interaction)
            options = TournamentOptions(
                lengths=parse_lengths(lengths),
                seeding=Seeding(seeding),
                consolation=consolation,
                rounds=rounds,
                pace=Pace(pace),
                round_hours=float(hours),
                check_in=check_in,
                max_players=max_players,
            )
            row = await self.tournaments.create(
                interaction.guild_id or 0,
                interaction.channel_id or 0,
                director,
                name,
                Format(format),
                options,
            )
            language = await self._language(row.guild_id)
            content = words.announcement(row, [], when, language)
            view = entry_view(row, language)
            message = await reply.send(content=content, view=view, allowed_mentions=NO_MENTIONS)
            if message is not None:
                await self.tournaments.note_announcement(row, message.id)

        await self._run(interaction, work, private=False)

    @app_commands.command(name="join", description=locale(_("Join a tournament")))
    async def join(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        row = await self._pick_or_fail(interaction, tournament)
        if row is not None:
            await self.entry(interaction, "join", row.id)

    @app_commands.command(
        name="leave", description=locale(_("Leave a tournament before it starts"))
    )
    async def leave(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        row = await self._pick_or_fail(interaction, tournament)
        if row is not None:
            await self.entry(interaction, "leave", row.id)

    async def _pick_or_fail(
        self, interaction: Interaction, number: int | None
    ) -> TournamentRow | None:
        try:
            return await self._pick(interaction, number)
        except UserError as exc:
            await self.bot.tree.on_error(interaction, exc)  # type: ignore[arg-type]
            return None

    @app_commands.command(
        name="check_in", description=locale(_("Directors open check-in; entrants check in"))
    )
    async def check_in(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            row = await self._pick(interaction, tournament)
            if row.phase is Phase.REGISTRATION:
                director = await self._director(interaction)
                row = await self.tournaments.open_check_in(row, director)
                await self._announce(row)
                line = words.status_line(row, language_of(interaction.locale))
                await reply.private(content=line)
                return
            user = player_of(interaction.user)
            row = await self.tournaments.check_in(row.id, user)
            done = words.entry_done("checkin", safe_name(row.name))
            await reply.private(content=say(done, interaction.locale))
            await self._announce(row)

        await self._run(interaction, work, private=True)

    @app_commands.command(name="start", description=locale(_("Directors: make the draw and start")))
    async def start(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            await self._director(interaction)
            row = await self._pick(interaction, tournament)
            guild = interaction.guild

            async def present(user_id: int) -> bool:
                if guild is None:
                    return False
                if guild.get_member(user_id) is not None:
                    return True
                try:
                    await guild.fetch_member(user_id)
                except discord.NotFound:
                    return False
                return True

            await reply.acknowledge()
            row = await self.tournaments.start(row.id, row.guild_id, present)
            row = await self.tournaments.event(row.id)
            await self._announce(row)
            language = await self._language(row.guild_id)
            await reply.send(
                content=say(words.status_line(row, language), language),
                allowed_mentions=NO_MENTIONS,
            )

        await self._run(interaction, work, private=False)

    @app_commands.command(name="standings", description=locale(_("The bracket or the table")))
    async def standings(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            row = await self._pick(interaction, tournament)
            language = await self._language(row.guild_id)
            if row.phase not in (Phase.RUNNING, Phase.FINISHED):
                entrants = [
                    safe_name(e.name) for e in await self.tournaments.store.entrants(row.id)
                ]
                await reply.send(
                    content=words.announcement(row, entrants, when, language),
                    allowed_mentions=NO_MENTIONS,
                )
                return
            event = await self.tournaments.load(row)
            names = {p: safe_name(n) for p, n in (await self.tournaments.names(row.id)).items()}
            pngs = await asyncio.to_thread(pictures, event, names, language)
            files = [
                discord.File(io.BytesIO(png), filename=f"standings-{i}.png")
                for i, png in enumerate(pngs, 1)
            ]
            await reply.send(
                content=words.status_line(row, language), files=files, allowed_mentions=NO_MENTIONS
            )

        await self._run(interaction, work, private=False)

    @app_commands.command(
        name="pause", description=locale(_("Directors: pause or resume the clock"))
    )
    async def pause(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            director = await self._director(interaction)
            row = await self._pick(interaction, tournament)
            row = await self.tournaments.pause(row.id, row.guild_id, director)
            text = (
                _("Paused: no deadline runs.") if row.paused else _("Resumed: deadlines run again.")
            )
            await reply.send(
                content=say(text, await self._language(row.guild_id)), allowed_mentions=NO_MENTIONS
            )

        await self._run(interaction, work, private=False)

    @app_commands.command(name="extend", description=locale(_("Directors: push back deadlines")))
    async def extend(
        self,
        interaction: Interaction,
        hours: app_commands.Range[int, 1, 720],
        player: discord.Member | None = None,
        tournament: app_commands.Range[int, 1, MAX_ID] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            director = await self._director(interaction)
            row = await self._pick(interaction, tournament)
            count = await self.tournaments.extend(
                row.id, row.guild_id, director, float(hours), None if player is None else player.id
            )
            text = _("{count} deadline(s) pushed back by {hours} hours.", count=count, hours=hours)
            await reply.send(
                content=say(text, await self._language(row.guild_id)), allowed_mentions=NO_MENTIONS
            )

        await self._run(interaction, work, private=False)

    @app_commands.command(
        name="decide", description=locale(_("Directors: give a match to a player"))
    )
    async def decide(
        self,
        interaction: Interaction,
        winner: discord.Member,
        reason: app_commands.Range[str, 1, 200],
        tournament: app_commands.Range[int, 1, MAX_ID] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            director = await self._director(interaction)
            row = await self._pick(interaction, tournament)
            await self.tournaments.decide(row.id, row.guild_id, director, winner.id, reason)
            await reply.private(
                content=say(_("Decided. The reason is posted."), interaction.locale)
            )

        await self._run(interaction, work, private=True)

    @app_commands.command(name="remove", description=locale(_("Directors: withdraw a player")))
    async def remove(
        self,
        interaction: Interaction,
        player: discord.Member,
        reason: app_commands.Range[str, 1, 200],
        tournament: app_commands.Range[int, 1, MAX_ID] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            director = await self._director(interaction)
            row = await self._pick(interaction, tournament)
            row = await self.tournaments.remove(row.id, row.guild_id, director, player.id, reason)
            if row.phase is not Phase.RUNNING:
                await self._announce(row)
            await reply.private(content=say(_("Removed."), interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(name="cancel", description=locale(_("Directors: cancel a tournament")))
    async def cancel(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            director = await self._director(interaction)
            row = await self._pick(interaction, tournament)
            row = await self.tournaments.cancel(row.id, row.guild_id, director)
            await self._announce(row)
            await reply.private(content=say(_("Cancelled."), interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(
        name="directors", description=locale(_("Manage Server: the role of tournament directors"))
    )
    async def directors(self, interaction: Interaction, role: discord.Role | None = None) -> None:
        async def work(reply: Reply) -> None:
            if not interaction.permissions.manage_guild:
                raise UserError(_("Only members with Manage Server can choose the directors."))
            await self.tournaments.store.set_td_role(
                interaction.guild_id or 0, None if role is None else role.id
            )
            await reply.private(content=say(_("Saved."), interaction.locale))

        await self._run(interaction, work, private=True)

    async def refer_cancel(self, channel_id: int) -> bool:
        """A moderator's ``/backgammon cancel`` in an event match: tell the directors
        instead of voiding it. True when the channel holds an undecided event match."""
        found = await self.tournaments.pairing_in(channel_id)
        if found is None:
            return False
        await self.tell(ReferredToDirector(found[0], found[1], None))
        return True


__all__ = ["EntryButton", "Tournament", "parse_lengths"]
