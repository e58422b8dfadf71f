"""The ``/tournament`` command group: thin adapters over the tournament service.

Each command reads its options, checks that a director's tool is used by a director (Manage
Server, or the role the server set with ``/tournament directors``) and calls
:class:`bot.features.tournaments.service.TournamentService`; the Join/Leave buttons come here too
(:meth:`Tournament.entry`). What the service tells is posted by
:class:`cogs.tournament_posts.TournamentPoster`. The cog's loop keeps the deadlines (every
:data:`TICK_SECONDS`, and once at start-up after bringing every event up to date).

Private answers (errors, "you are in") are in the reader's language; what is posted is in
the server's. May import: discord, the services and their records, :mod:`bot.present`, and
the other ``cogs`` modules.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.errors import Refusal, UserError
from bot.core.reports import Player
from bot.features.tournaments.formats import FORMATS
from bot.features.tournaments.news import ReferredToDirector
from bot.features.tournaments.rules import Format, Pace, Phase, Seeding
from bot.i18n import _, language_of, say
from bot.present import tournaments as words
from bot.services import Services
from bot.storage.competition_rows import TournamentOptions, TournamentRow
from cogs.directors import director_of
from cogs.helpers import player_of
from cogs.kit import Kit
from cogs.replies import NO_MENTIONS, Reply, safe_name
from cogs.tournament_posts import (
    EntryButton,
    TournamentPoster,
    entry_view,
    members_among,
    parse_lengths,
    pictures,
    when,
)
from cogs.translator import locale

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
TICK_SECONDS = 60.0
MAX_ID = 2**53 - 1


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)  # a club's: never a user install
class Tournament(
    commands.GroupCog,
    group_name="tournament",
    group_description=locale(_("Club tournaments run by the bot")),
):
    """Tournaments for the members of a server; the tournament service's host."""

    def __init__(self, bot: commands.Bot, services: Services, kit: Kit) -> None:
        self.bot = bot
        self.services = services
        self.kit = kit
        self.tournaments = services.tournaments
        self.poster = TournamentPoster(bot, services)
        self.tournaments.host = self.poster
        self.tick_seconds = TICK_SECONDS
        self._loop: asyncio.Task[None] | None = None
        self.resumed = asyncio.Event()  # the start-up catch-up is done (tests wait on it)
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
            await self.tournaments.resume(self._guilds())
        except Exception:
            log.exception("could not resume the tournaments")
        self.resumed.set()
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.tournaments.tick(self._guilds())
            except Exception:
                log.exception("the tournament clock failed")

    # --- helpers -------------------------------------------------------------------------

    def _guilds(self) -> set[int]:
        """The servers this process serves (its shards'), whose events it keeps the time of."""
        return {guild.id for guild in self.bot.guilds}

    async def _run(
        self, interaction: Interaction, work: Callable[[Reply], Awaitable[None]], private: bool
    ) -> None:
        """Inside the bot's guard (:mod:`cogs.kit`), as every action: a stop waits for it, and
        while the bot stops it is refused privately."""
        await self.kit.run(interaction, work, private=private)

    async def _director(self, interaction: Interaction) -> Player:
        """The caller, if a director here; else a private refusal."""
        return await director_of(interaction, self.tournaments)

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
            await self.poster.announce(row)

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
        start_in_hours=locale(_("Make the draw by itself this many hours from now")),
        idle_minutes=locale(_("Live: minutes a player may keep a match waiting")),
    )
    # The formats the bot runs, from the one registry (a new format appears by itself).
    @app_commands.choices(format=[app_commands.Choice(name=str(f), value=str(f)) for f in FORMATS])
    async def create(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 60],
        format: str = str(Format.KNOCKOUT),
        lengths: app_commands.Range[str, 1, 40] = "5",
        pace: Literal["correspondence", "live"] = "correspondence",
        hours: app_commands.Range[int, 1, 720] = 168,
        seeding: Literal["random", "rating"] = "random",
        consolation: bool = False,
        rounds: app_commands.Range[int, 1, 15] | None = None,
        check_in: bool = False,
        max_players: app_commands.Range[int, 2, 256] | None = None,
        idle_minutes: app_commands.Range[int, 1, 120] = 10,
        start_in_hours: app_commands.Range[int, 1, 720] | None = None,
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
                idle_minutes=float(idle_minutes),
                starts_at=None
                if start_in_hours is None
                else self.tournaments.clock() + start_in_hours * 3600,
            )
            row = await self.tournaments.create(
                interaction.guild_id or 0,
                interaction.channel_id or 0,
                director,
                name,
                Format(format),
                options,
            )
            language = await self.poster.language(row.guild_id)
            content = words.announcement(row, [], when, language)
            view = entry_view(row, language)
            message = await reply.send(content=content, view=view, allowed_mentions=NO_MENTIONS)
            if message is not None:
                await self.tournaments.note_announcement(row, message.id)

        await self._run(interaction, work, private=False)

    @app_commands.command(name="join", description=locale(_("Join a tournament")))
    @app_commands.describe(
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
    )
    async def join(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        row = await self._pick_or_fail(interaction, tournament)
        if row is not None:
            await self.entry(interaction, "join", row.id)

    @app_commands.command(
        name="leave", description=locale(_("Leave a tournament before it starts"))
    )
    @app_commands.describe(
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
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
    @app_commands.describe(
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
    )
    async def check_in(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            row = await self._pick(interaction, tournament)
            if row.phase is Phase.REGISTRATION:
                director = await self._director(interaction)
                row = await self.tournaments.open_check_in(row, director)
                await self.poster.announce(row)
                line = words.status_line(row, language_of(interaction.locale))
                await reply.private(content=line)
                return
            user = player_of(interaction.user)
            row = await self.tournaments.check_in(row.id, user)
            done = words.entry_done("checkin", safe_name(row.name))
            await reply.private(content=say(done, interaction.locale))
            await self.poster.announce(row)

        await self._run(interaction, work, private=True)

    @app_commands.command(name="start", description=locale(_("Directors: make the draw and start")))
    @app_commands.describe(
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
    )
    async def start(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            await self._director(interaction)
            row = await self._pick(interaction, tournament)
            guild = interaction.guild
            if guild is None:
                raise UserError(words.NO_EVENT)

            async def present(users: Sequence[int]) -> set[int]:
                return await members_among(guild, users)

            await reply.acknowledge()
            row = await self.tournaments.start(row.id, row.guild_id, present)
            row = await self.tournaments.event(row.id)
            await self.poster.announce(row)
            language = await self.poster.language(row.guild_id)
            await reply.send(
                content=say(words.status_line(row, language), language),
                allowed_mentions=NO_MENTIONS,
            )

        await self._run(interaction, work, private=False)

    @app_commands.command(name="standings", description=locale(_("The bracket or the table")))
    @app_commands.describe(
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
    )
    async def standings(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            row = await self._pick(interaction, tournament)
            language = await self.poster.language(row.guild_id)
            if row.phase not in (Phase.RUNNING, Phase.FINISHED):
                entrants = [safe_name(e.name) for e in await self.tournaments.entrants(row.id)]
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
    @app_commands.describe(
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
    )
    async def pause(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            director = await self._director(interaction)
            row = await self._pick(interaction, tournament)
            row = await self.tournaments.directors.pause(row.id, row.guild_id, director)
            text = words.PAUSED if row.paused else words.RESUMED
            await reply.send(
                content=say(text, await self.poster.language(row.guild_id)),
                allowed_mentions=NO_MENTIONS,
            )

        await self._run(interaction, work, private=False)

    @app_commands.command(name="extend", description=locale(_("Directors: push back deadlines")))
    @app_commands.describe(
        hours=locale(_("How many hours to add")),
        player=locale(_("Only this player's match (all open matches if left out)")),
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
    )
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
            count = await self.tournaments.directors.extend(
                row.id, row.guild_id, director, float(hours), None if player is None else player.id
            )
            text = words.extended(count, hours)
            await reply.send(
                content=say(text, await self.poster.language(row.guild_id)),
                allowed_mentions=NO_MENTIONS,
            )

        await self._run(interaction, work, private=False)

    @app_commands.command(
        name="decide", description=locale(_("Directors: give a match to a player"))
    )
    @app_commands.describe(
        winner=locale(_("The player who gets the match")),
        reason=locale(_("Why, posted in the event's thread")),
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
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
            await self.tournaments.directors.decide(
                row.id, row.guild_id, director, winner.id, reason
            )
            await reply.private(content=say(words.DECIDED, interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(name="remove", description=locale(_("Directors: withdraw a player")))
    @app_commands.describe(
        player=locale(_("The player to withdraw")),
        reason=locale(_("Why, posted in the event's thread")),
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
    )
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
            row = await self.tournaments.directors.remove(
                row.id, row.guild_id, director, player.id, reason
            )
            if row.phase is not Phase.RUNNING:
                await self.poster.announce(row)
            await reply.private(content=say(words.REMOVED, interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(
        name="replace", description=locale(_("Directors: a new player takes someone's place"))
    )
    @app_commands.describe(
        player=locale(_("The player who leaves")),
        by=locale(_("The player who takes their place")),
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
    )
    async def replace(
        self,
        interaction: Interaction,
        player: discord.Member,
        by: discord.Member,
        tournament: app_commands.Range[int, 1, MAX_ID] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            director = await self._director(interaction)
            row = await self._pick(interaction, tournament)
            if by.bot:
                raise UserError(Refusal.BOT_OPPONENT)
            rating = await self._rating(row.guild_id, by.id)
            row = await self.tournaments.directors.replace(
                row.id, row.guild_id, director, player.id, player_of(by), rating
            )
            if row.phase is not Phase.RUNNING:
                await self.poster.announce(await self.tournaments.event(row.id))
            await reply.private(content=say(words.REPLACED, interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(name="cancel", description=locale(_("Directors: cancel a tournament")))
    @app_commands.describe(
        tournament=locale(_("The tournament's number (the latest in this channel if left out)")),
    )
    async def cancel(
        self, interaction: Interaction, tournament: app_commands.Range[int, 1, MAX_ID] | None = None
    ) -> None:
        async def work(reply: Reply) -> None:
            director = await self._director(interaction)
            row = await self._pick(interaction, tournament)
            row = await self.tournaments.directors.cancel(row.id, row.guild_id, director)
            await self.poster.announce(row)
            await reply.private(content=say(words.CANCELLED, interaction.locale))

        await self._run(interaction, work, private=True)

    @app_commands.command(
        name="directors", description=locale(_("Manage Server: the role of tournament directors"))
    )
    @app_commands.describe(
        role=locale(_("The directors' role (none: Manage Server only)")),
    )
    async def directors(self, interaction: Interaction, role: discord.Role | None = None) -> None:
        async def work(reply: Reply) -> None:
            if not interaction.permissions.manage_guild:
                raise UserError(words.MANAGERS_CHOOSE_DIRECTORS)
            await self.tournaments.set_director_role(
                interaction.guild_id or 0, None if role is None else role.id
            )
            await reply.private(content=say(words.SAVED, interaction.locale))

        await self._run(interaction, work, private=True)

    async def refer_cancel(self, channel_id: int) -> bool:
        """A moderator's ``/backgammon cancel`` in an event match: tell the directors
        instead of voiding it. True when the channel holds an undecided event match."""
        found = await self.tournaments.pairing_in(channel_id)
        if found is None:
            return False
        await self.poster.tell(ReferredToDirector(found[0], found[1], None))
        return True


__all__ = ["Tournament"]


async def setup(bot: commands.Bot) -> None:
    """The extension's entry (``bot.load_extension("cogs.tournament")``)."""
    await bot.add_cog(Tournament(bot, bot.services, bot.kit))  # type: ignore[attr-defined]
    bot.add_dynamic_items(EntryButton)
