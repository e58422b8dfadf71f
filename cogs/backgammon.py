"""The ``/backgammon`` command group: each handler turns an interaction into a session call.

Owns the slash commands (thin adapters: read the options, call the session, hand the report
to the :class:`~cogs.publishing.Publisher`), the button dispatch (:meth:`Backgammon.press`)
and the guard every action runs in: the in-flight count the bot drains on shutdown, the
acknowledgement watchdog (see :mod:`cogs.replies`) and, on failure, handing the error to the
command tree's one ``on_error`` (in :mod:`bot.client`), which decides what the player sees.

May import: discord, :mod:`bot.session` and the records it uses (:mod:`bot.engine`,
:mod:`bot.records`, :mod:`bot.errors`), :mod:`bot.present`, and the other ``cogs`` modules.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import present
from bot.engine import MatchOptions, ResultKind
from bot.errors import UserError
from bot.records import Action
from bot.session import ActionContext, Player, Report, SessionService
from cogs.helpers import (
    CHOICE_NAME_LIMIT,
    board_report,
    games_text,
    player_of,
    rank_plays,
    settings_text,
    versus,
)
from cogs.publishing import Publisher
from cogs.replies import NO_MENTIONS, Reply, code_safe, safe_name

log = logging.getLogger(__name__)

RESTARTING = "The bot is restarting; try again in a moment."

Interaction = discord.Interaction[Any]
Request = Callable[[ActionContext], Awaitable[Report]]  # a session call for one interaction
Work = Callable[[Reply], Awaitable[None]]  # a handler's body, given the interaction's Reply


@app_commands.guild_only()
class Backgammon(commands.GroupCog, group_name="backgammon", group_description="Play backgammon"):
    """Backgammon for the members of a server."""

    def __init__(
        self,
        bot: commands.Bot,
        service: SessionService,
        *,
        leaderboard_min_matches: int = 1,
        renderer: Callable[..., bytes] | None = None,
        game_reviews: bool = True,
    ) -> None:
        self.bot = bot
        self.service = service
        self.leaderboard_min_matches = leaderboard_min_matches
        self.publisher = Publisher(bot, service, renderer=renderer, game_reviews=game_reviews)
        self.in_flight = 0
        self.idle = asyncio.Event()
        self.idle.set()
        self.accepting = True
        # Names reach messages escaped; turns the session finishes on its own are posted.
        service.display = safe_name
        service.on_background_report = self.publisher.post_background
        super().__init__()

    async def cog_load(self) -> None:
        self.publisher.start_reminders()

    async def cog_unload(self) -> None:
        self.publisher.stop_reminders()

    async def send_reminders(self) -> int:
        """Remind players who have waited long enough on their turn; the count sent."""
        return await self.publisher.send_reminders()

    async def resume_computer_turns(self) -> None:
        """Finish computer turns left open before this start, and post them."""
        await self.publisher.resume_computer_turns()

    @property
    def _renderer(self) -> Callable[..., bytes] | None:
        """The board renderer (tests swap it); it lives on the publisher."""
        return self.publisher.renderer

    @_renderer.setter
    def _renderer(self, renderer: Callable[..., bytes] | None) -> None:
        self.publisher.renderer = renderer

    # --- the guard -----------------------------------------------------------------------

    async def _guarded(
        self, interaction: Interaction, work: Work, *, pressed: bool = False
    ) -> None:
        """Run a handler inside the in-flight count, with the acknowledgement watchdog.

        Any error goes to the command tree's ``on_error``, the one place that decides what
        the player sees. It is called from here, not left to discord.py, so the answer is
        sent while the action still counts as in flight (a shutdown waits for it) and so
        button presses, which never reach the tree, are answered the same way.
        """
        reply = Reply(interaction, pressed=pressed)
        if not self.accepting:
            await self.bot.tree.on_error(interaction, UserError(RESTARTING))  # type: ignore[arg-type]
            return
        self.in_flight += 1
        self.idle.clear()
        watchdog = asyncio.create_task(reply.watch())
        try:
            await work(reply)
        except Exception as exc:
            await self.bot.tree.on_error(interaction, exc)  # type: ignore[arg-type]
        finally:
            reply.finish()
            await watchdog
            self.in_flight -= 1
            if self.in_flight == 0:
                self.idle.set()

    async def _act(
        self,
        interaction: Interaction,
        action: Request,
        *,
        pressed: bool = False,
        match_id: int | None = None,
    ) -> None:
        """Run a session call and publish its report."""

        async def work(reply: Reply) -> None:
            report = await action(reply.context(match_id))
            reply.committed = report.action != Action.BOARD  # a look at the board stores nothing
            await self.publisher.publish(reply, report)

        await self._guarded(interaction, work, pressed=pressed)

    def _computer(self) -> Player | None:
        """The bot itself as a player (the computer opponent)."""
        me = self.bot.user
        return Player(me.id, me.display_name, True) if me is not None else None

    async def _start_computer(
        self,
        interaction: Interaction,
        level: str | None,
        length: int,
        cube: bool,
        ctx: ActionContext,
    ) -> Report:
        computer = self._computer()
        assert computer is not None
        return await self.service.play_computer(
            interaction.guild_id or 0,
            interaction.channel_id or 0,
            player_of(interaction.user),
            computer,
            MatchOptions(length=length, cube=cube),
            level=level,
            ctx=ctx,
        )

    # --- buttons -------------------------------------------------------------------------

    async def press(self, interaction: Interaction, action: Action, match_id: int) -> None:
        """A button was pressed (called by :class:`cogs.views.ActionButton`).

        The button's match id travels to the session, which compares it with the channel's
        live game under the channel's lock: a button never acts on another game.
        """
        channel_id = interaction.channel_id or 0
        user = player_of(interaction.user)
        service = self.service
        if action == Action.REMATCH:
            computer = self._computer()
            await self._act(
                interaction,
                lambda ctx: service.rematch(
                    interaction.guild_id or 0, channel_id, user, match_id, computer, ctx
                ),
                pressed=True,
            )
            return
        actions: dict[Action, Request] = {
            Action.ACCEPT: lambda ctx: service.accept(channel_id, user, ctx),
            Action.DECLINE: lambda ctx: service.decline(channel_id, user, ctx),
            Action.ROLL: lambda ctx: service.roll(channel_id, user, ctx),
            Action.DOUBLE: lambda ctx: service.double(channel_id, user, ctx),
            Action.TAKE: lambda ctx: service.take(channel_id, user, ctx),
            Action.DROP: lambda ctx: service.drop(channel_id, user, ctx),
            Action.BEAVER: lambda ctx: service.beaver(channel_id, user, ctx),
            Action.RESIGN_ACCEPT: lambda ctx: service.answer_resignation(
                channel_id, user, True, ctx
            ),
            Action.RESIGN_REJECT: lambda ctx: service.answer_resignation(
                channel_id, user, False, ctx
            ),
        }
        await self._act(interaction, actions[action], pressed=True, match_id=match_id)

    # --- commands ------------------------------------------------------------------------

    @app_commands.command(name="challenge", description="Challenge someone to a game or match")
    @app_commands.describe(
        opponent="Who you want to play",
        length="0 for a single money game (default), or a match to 1-25 points",
        cube="Play with the doubling cube (default: yes)",
        rated="Count the result on the leaderboard (default: yes)",
        autoplay="Let the bot make a roll's only legal play (default: no)",
    )
    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.User,
        length: app_commands.Range[int, 0, 25] = 0,
        cube: bool = True,
        rated: bool = True,
        autoplay: bool = False,
    ) -> None:
        async def action(ctx: ActionContext) -> Report:
            if self.bot.user is not None and opponent.id == self.bot.user.id:
                return await self._start_computer(interaction, None, length, cube, ctx)
            return await self.service.challenge(
                interaction.guild_id or 0,
                interaction.channel_id or 0,
                player_of(interaction.user),
                player_of(opponent),
                MatchOptions(length=length, cube=cube),
                rated=rated,
                auto_play=autoplay,
            )

        await self._act(interaction, action)

    @app_commands.command(name="play", description="Play against the computer")
    @app_commands.describe(
        level="How strong the computer plays (default: expert)",
        length="0 for a single money game (default), or a match to 1-25 points",
        cube="Play with the doubling cube (default: yes)",
    )
    async def play(
        self,
        interaction: Interaction,
        level: Literal["beginner", "intermediate", "advanced", "expert", "world-class"]
        | None = None,
        length: app_commands.Range[int, 0, 25] = 0,
        cube: bool = True,
    ) -> None:
        await self._act(
            interaction, lambda ctx: self._start_computer(interaction, level, length, cube, ctx)
        )

    @app_commands.command(name="hint", description="The computer's advice for your turn")
    async def hint(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            _, advice = await self.service.hint(
                interaction.channel_id or 0, player_of(interaction.user)
            )
            await interaction.followup.send(present.hint_text(advice), ephemeral=True)

        await self._guarded(interaction, work)

    @app_commands.command(
        name="analyze", description="Error rates and biggest mistakes of the last game"
    )
    async def analyze(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            await reply.acknowledge()
            review = await self.service.analysis(interaction.channel_id or 0)
            await reply.send(**await self.publisher.analysis(review))

        await self._guarded(interaction, work)

    @app_commands.command(name="roll", description="Roll the dice")
    async def roll(self, interaction: Interaction) -> None:
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        await self._act(interaction, lambda ctx: self.service.roll(channel_id, user, ctx))

    @app_commands.command(name="move", description="Play your roll, e.g. 13/7 8/7")
    @app_commands.describe(play="Your play in standard notation; pick one of the legal plays")
    async def move(self, interaction: Interaction, play: str) -> None:
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        await self._act(interaction, lambda ctx: self.service.move(channel_id, user, play, ctx))

    @move.autocomplete("play")
    async def move_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            plays = await self.service.legal_play_texts(
                interaction.channel_id or 0, interaction.user.id
            )
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [
            app_commands.Choice(name=play[:CHOICE_NAME_LIMIT], value=play[:CHOICE_NAME_LIMIT])
            for play in rank_plays(plays, current[:200])
        ]

    @app_commands.command(name="double", description="Offer a double before you roll")
    async def double(self, interaction: Interaction) -> None:
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        await self._act(interaction, lambda ctx: self.service.double(channel_id, user, ctx))

    @app_commands.command(name="take", description="Accept your opponent's double")
    async def take(self, interaction: Interaction) -> None:
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        await self._act(interaction, lambda ctx: self.service.take(channel_id, user, ctx))

    @app_commands.command(name="drop", description="Refuse your opponent's double (lose the game)")
    async def drop(self, interaction: Interaction) -> None:
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        await self._act(interaction, lambda ctx: self.service.drop(channel_id, user, ctx))

    @app_commands.command(name="pass", description="Same as drop: refuse the double")
    async def pass_(self, interaction: Interaction) -> None:
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        await self._act(interaction, lambda ctx: self.service.drop(channel_id, user, ctx))

    @app_commands.command(name="resign", description="Offer to resign; your opponent accepts")
    @app_commands.describe(kind="How much you concede (default: a single game)")
    async def resign(
        self,
        interaction: Interaction,
        kind: Literal["single", "gammon", "backgammon"] = "single",
    ) -> None:
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        result = ResultKind[kind.upper()]
        await self._act(interaction, lambda ctx: self.service.resign(channel_id, user, result, ctx))

    @app_commands.command(name="claim", description="Win when your opponent has been idle too long")
    async def claim(self, interaction: Interaction) -> None:
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        await self._act(interaction, lambda ctx: self.service.claim(channel_id, user, ctx))

    @app_commands.command(name="cancel", description="Moderators: end this channel's game")
    async def cancel(self, interaction: Interaction) -> None:
        async def action(ctx: ActionContext) -> Report:
            if not interaction.permissions.manage_messages:
                raise UserError("Only members with Manage Messages can cancel a game.")
            return await self.service.cancel(
                interaction.channel_id or 0, player_of(interaction.user), ctx
            )

        await self._act(interaction, action)

    @app_commands.command(name="board", description="Show the current board again")
    async def board(self, interaction: Interaction) -> None:
        async def action(_ctx: ActionContext) -> Report:
            row = await self.service.current(interaction.channel_id or 0)
            if row is None or row.game is None:
                raise UserError(
                    "There is no game in this channel. Start one with /backgammon challenge."
                )
            return board_report(row)

        await self._act(interaction, action)

    @app_commands.command(name="history", description="The moves of the current or last game")
    async def history(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            row, events = await self.service.history(interaction.channel_id or 0)
            text = present.history_text(row, events, display=safe_name, code=code_safe)
            await reply.send(content=text, allowed_mentions=NO_MENTIONS)

        await self._guarded(interaction, work)

    @app_commands.command(name="stats", description="A player's results on this server")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        async def work(reply: Reply) -> None:
            guild_id = interaction.guild_id or 0
            await reply.send(**await self.publisher.stats(guild_id, user or interaction.user))

        await self._guarded(interaction, work)

    @app_commands.command(name="leaderboard", description="This server's rated players")
    async def leaderboard(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            rows = await self.service.leaderboard(
                interaction.guild_id or 0, min_rated_matches=self.leaderboard_min_matches
            )
            lines = present.leaderboard_lines(rows, display=safe_name)
            embed = discord.Embed(
                title="Backgammon leaderboard",
                description="\n".join(lines) or "No rated matches have been finished yet.",
            )
            embed.set_footer(text="FIBS ratings from rated matches · start at 1500")
            await reply.send(embed=embed, allowed_mentions=NO_MENTIONS)

        await self._guarded(interaction, work)

    @app_commands.command(name="verify", description="Check a finished match's dice")
    @app_commands.describe(
        secret="The dice secret revealed when the match ended (64 characters)",
        public="The match's public value, from the same message",
    )
    async def verify(
        self,
        interaction: Interaction,
        secret: app_commands.Range[str, 1, 100],
        public: app_commands.Range[str, 1, 100],
    ) -> None:
        async def work(reply: Reply) -> None:
            row, result = await self.service.verify_dice(secret, public)
            content = f"Match #{row.id} ({versus(row)}): {result.text}"
            await reply.send(content=content, allowed_mentions=NO_MENTIONS)

        await self._guarded(interaction, work)

    @app_commands.command(name="dice", description="The dice rolled on this server, checked")
    @app_commands.describe(user="Whose rolls (default: everyone's on this server)")
    async def dice(self, interaction: Interaction, user: discord.User | None = None) -> None:
        async def work(reply: Reply) -> None:
            report = await self.service.dice_report(interaction.guild_id or 0)
            if user is None:
                text = present.dice_text(report.server, "this server")
            else:
                stats = report.players.get(user.id)
                who = safe_name(user.display_name)
                if stats is None:
                    raise UserError(f"{who} has not rolled in a game on this server yet.")
                text = present.dice_text(stats, who)
            embed = discord.Embed(title="Dice check", description=present.fit(text, 4000))
            embed.set_footer(text="Only rolls actually played here count · fair dice: 1/6 a face")
            await reply.send(embed=embed, allowed_mentions=NO_MENTIONS)

        await self._guarded(interaction, work)

    @app_commands.command(name="games", description="Your live games on this server")
    async def games(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            me = interaction.user.id
            rows = await self.service.games_of(interaction.guild_id or 0, me)
            text = games_text(rows, me, self.service.clock())
            await reply.private(
                embed=discord.Embed(title="Your games", description=present.fit(text, 4000))
            )

        await self._guarded(interaction, work)

    @app_commands.command(name="settings", description="Your board and turn notices; threads")
    @app_commands.describe(
        notify="Be pinged when it becomes your turn: on, off, or only after some idle minutes",
        idle_minutes="With notify idle: minutes on your turn before the reminder (1-1440)",
        board="Where your home board is drawn (the public board follows the player to act)",
        theme="Board colours",
        threads="Moderators: a thread for each accepted game",
    )
    async def settings(
        self,
        interaction: Interaction,
        notify: Literal["on", "off", "idle"] | None = None,
        idle_minutes: app_commands.Range[int, 1, 1440] | None = None,
        board: Literal["right", "left"] | None = None,
        theme: Literal["classic", "dark"] | None = None,
        threads: Literal["on", "off"] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            guild_id = interaction.guild_id or 0
            if threads is not None and not interaction.permissions.manage_messages:
                raise UserError("Only members with Manage Messages can change threads.")
            mine = await self.service.update_user_settings(
                interaction.user.id,
                notify=notify,
                notify_minutes=idle_minutes,
                board_side=board,
                theme=theme,
            )
            server = (
                await self.service.set_threads(guild_id, threads == "on")
                if threads is not None
                else await self.service.guild_settings(guild_id)
            )
            text = settings_text(
                mine.notify, mine.notify_minutes, mine.board_side, mine.theme, server.threads
            )
            await reply.private(content=text)

        await self._guarded(interaction, work)

    @app_commands.command(name="export", description="A match as a file for GNU Backgammon")
    @app_commands.describe(
        match="The match number (default: this channel's current or last match)",
        format="mat (Jellyfish, read by every program; default) or sgf (GNU Backgammon)",
    )
    async def export(
        self,
        interaction: Interaction,
        match: app_commands.Range[int, 1, 2**62] | None = None,
        format: Literal["mat", "sgf"] = "mat",
    ) -> None:
        async def work(reply: Reply) -> None:
            where = (interaction.guild_id or 0, interaction.channel_id or 0)
            await reply.send(**await self.publisher.match_export(*where, match, format))

        await self._guarded(interaction, work)

    @app_commands.command(name="help", description="How to play and how to write moves")
    async def help(self, interaction: Interaction) -> None:
        embed = discord.Embed(title="Backgammon", description=present.HELP_TEXT)
        await interaction.response.send_message(embed=embed, ephemeral=True)
