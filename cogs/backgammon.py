"""The ``/backgammon`` command group: each handler turns an interaction into a session call.

Errors meant for the player (:class:`~bot.errors.UserError`) are answered privately and
change nothing; anything else is logged and answered with a generic apology. Board images
are rendered in a worker thread after deferring, so replies meet Discord's 3-second rule.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import present
from bot.engine import MatchOptions, ResultKind
from bot.errors import UserError
from bot.session import Player, Report, SessionService
from bot.store import MatchRow
from cogs.views import view_for

log = logging.getLogger(__name__)

SORRY = "Something went wrong; the game is unchanged."
AUTOCOMPLETE_LIMIT = 25
CHOICE_NAME_LIMIT = 100
MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False, replied_user=False)

Interaction = discord.Interaction[Any]


def player_of(user: discord.abc.User) -> Player:
    return Player(user.id, user.display_name, user.bot)


def mention(user_id: int, _name: str) -> str:
    return f"<@{user_id}>"


def rank_plays(plays: list[str], typed: str) -> list[str]:
    """Autocomplete order: prefix matches first, then plays containing the text."""
    needle = " ".join(typed.lower().split())
    ordered = sorted(plays, key=_natural_key)
    if not needle:
        return ordered[:AUTOCOMPLETE_LIMIT]
    prefix = [p for p in ordered if p.lower().startswith(needle)]
    contains = [p for p in ordered if needle in p.lower() and p not in prefix]
    return (prefix + contains)[:AUTOCOMPLETE_LIMIT]


def _natural_key(play: str) -> tuple[tuple[int, ...], str]:
    """Plays that move from the highest points first, the way players read them."""
    numbers = []
    for part in play.replace("(", " ").replace(")", " ").replace("*", "").split():
        for point in part.split("/"):
            numbers.append(25 if point == "bar" else 0 if point == "off" else int(point))
    return tuple(-n for n in numbers), play


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
    ) -> None:
        self.bot = bot
        self.service = service
        self.leaderboard_min_matches = leaderboard_min_matches
        self._renderer = renderer
        self.in_flight = 0
        self.idle = asyncio.Event()
        self.idle.set()
        self.accepting = True
        super().__init__()

    # --- plumbing ------------------------------------------------------------------------

    def _render(self, report: Report, *, last_play: bool = True) -> list[discord.File]:
        """Draw every board of a report (runs in a worker thread)."""
        render = self._renderer
        if render is None:
            from renderers import render_board

            render = render_board
        files = []
        names = report.match.player_names
        for index, game in enumerate(report.boards):
            extra = {} if last_play else {"last_play": None}
            png = render(game, perspective=present.perspective(game), names=names, **extra)
            files.append(discord.File(io.BytesIO(png), filename=f"board-{index + 1}.png"))
        return files

    def _content(self, report: Report) -> str:
        parts = [report.text]
        step = present.next_step(report.match, mention)
        if step:
            parts.append(step)
        if report.match.status == "challenge":
            # Ping the challenged player: only the "challenges <name> " phrase, so a
            # challenger whose name contains the opponent's is left alone.
            name, user_id = report.match.player_names[1], report.match.player_ids[1]
            parts[0] = parts[0].replace(
                f" challenges {name} to ", f" challenges {mention(user_id, name)} to ", 1
            )
        return present.fit("\n".join(p for p in parts if p))

    async def _guarded(self, interaction: Interaction, work: Callable[[], Awaitable[None]]) -> None:
        """Run a handler: player errors privately, bugs logged, the in-flight count kept."""
        if not self.accepting:
            await self._error(interaction, "The bot is restarting; try again in a moment.")
            return
        self.in_flight += 1
        self.idle.clear()
        try:
            await work()
        except UserError as exc:
            await self._error(interaction, str(exc))
        except Exception:
            log.exception("unexpected error in %s", _describe(interaction))
            await self._error(interaction, SORRY)
        finally:
            self.in_flight -= 1
            if self.in_flight == 0:
                self.idle.set()

    async def _error(self, interaction: Interaction, message: str) -> None:
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)

    async def _act(
        self,
        interaction: Interaction,
        action: Callable[[], Awaitable[Report]],
        *,
        pressed: bool = False,
    ) -> None:
        async def work() -> None:
            report = await action()
            await self._publish(interaction, report, pressed=pressed)

        await self._guarded(interaction, work)

    async def _publish(self, interaction: Interaction, report: Report, *, pressed: bool) -> None:
        """Answer with the report's text, board images and next-action buttons."""
        if pressed:
            # Take the buttons off the message that was pressed, so it cannot be pressed twice.
            await interaction.response.edit_message(view=None)
        elif report.boards:
            await interaction.response.defer(thinking=True)
        files = await asyncio.to_thread(self._render, report) if report.boards else []
        content = self._content(report)
        view = view_for(report.match)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": MENTIONS}
        if files:
            kwargs["files"] = files
        if view is not None:
            kwargs["view"] = view
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)

    # --- buttons -------------------------------------------------------------------------

    async def press(self, interaction: Interaction, action: str, match_id: int) -> None:
        """A button was pressed (called by :class:`cogs.views.ActionButton`)."""
        channel_id = interaction.channel_id or 0
        user = player_of(interaction.user)
        service = self.service
        actions: dict[str, Callable[[], Awaitable[Report]]] = {
            "accept": lambda: service.accept(channel_id, user),
            "decline": lambda: service.decline(channel_id, user),
            "roll": lambda: service.roll(channel_id, user),
            "double": lambda: service.double(channel_id, user),
            "take": lambda: service.take(channel_id, user),
            "drop": lambda: service.drop(channel_id, user),
            "beaver": lambda: service.beaver(channel_id, user),
            "resign_accept": lambda: service.answer_resignation(channel_id, user, True),
            "resign_reject": lambda: service.answer_resignation(channel_id, user, False),
        }

        async def checked() -> Report:
            row = await service.current(channel_id)
            if row is None or row.id != match_id:
                raise UserError("That button belongs to a game that is over.")
            return await actions[action]()

        await self._act(interaction, checked, pressed=True)

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
        async def action() -> Report:
            if self.bot.user is not None and opponent.id == self.bot.user.id:
                return await self._start_computer(interaction, None, length, cube)
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

    async def _start_computer(
        self, interaction: Interaction, level: str | None, length: int, cube: bool
    ) -> Report:
        me = self.bot.user
        assert me is not None
        return await self.service.play_computer(
            interaction.guild_id or 0,
            interaction.channel_id or 0,
            player_of(interaction.user),
            Player(me.id, me.display_name, True),
            MatchOptions(length=length, cube=cube),
            level=level,
        )

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
        await self._act(interaction, lambda: self._start_computer(interaction, level, length, cube))

    @app_commands.command(name="hint", description="The computer's advice for your turn")
    async def hint(self, interaction: Interaction) -> None:
        async def work() -> None:
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
        async def work() -> None:
            await interaction.response.defer(thinking=True)
            row, analyses = await self.service.analysis(interaction.channel_id or 0)
            text = present.analysis_text(row.player_names, analyses)
            boards = [m.game for result in analyses.values() for m in result.mistakes][:6]
            report = Report("analyze", row, [], boards)
            files = await asyncio.to_thread(self._render, report, last_play=False)
            await interaction.followup.send(text, files=files)

        await self._guarded(interaction, work)

    @app_commands.command(name="roll", description="Roll the dice")
    async def roll(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda: self.service.roll(interaction.channel_id or 0, player_of(interaction.user)),
        )

    @app_commands.command(name="move", description="Play your roll, e.g. 13/7 8/7")
    @app_commands.describe(play="Your play in standard notation; pick one of the legal plays")
    async def move(self, interaction: Interaction, play: str) -> None:
        await self._act(
            interaction,
            lambda: self.service.move(
                interaction.channel_id or 0, player_of(interaction.user), play
            ),
        )

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
        await self._act(
            interaction,
            lambda: self.service.double(interaction.channel_id or 0, player_of(interaction.user)),
        )

    @app_commands.command(name="take", description="Accept your opponent's double")
    async def take(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda: self.service.take(interaction.channel_id or 0, player_of(interaction.user)),
        )

    @app_commands.command(name="drop", description="Refuse your opponent's double (lose the game)")
    async def drop(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda: self.service.drop(interaction.channel_id or 0, player_of(interaction.user)),
        )

    @app_commands.command(name="pass", description="Same as drop: refuse the double")
    async def pass_(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda: self.service.drop(interaction.channel_id or 0, player_of(interaction.user)),
        )

    @app_commands.command(name="resign", description="Offer to resign; your opponent accepts")
    @app_commands.describe(kind="How much you concede (default: a single game)")
    async def resign(
        self,
        interaction: Interaction,
        kind: Literal["single", "gammon", "backgammon"] = "single",
    ) -> None:
        await self._act(
            interaction,
            lambda: self.service.resign(
                interaction.channel_id or 0,
                player_of(interaction.user),
                ResultKind[kind.upper()],
            ),
        )

    @app_commands.command(name="claim", description="Win when your opponent has been idle too long")
    async def claim(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda: self.service.claim(interaction.channel_id or 0, player_of(interaction.user)),
        )

    @app_commands.command(name="cancel", description="Moderators: end this channel's game")
    async def cancel(self, interaction: Interaction) -> None:
        async def action() -> Report:
            if not interaction.permissions.manage_messages:
                raise UserError("Only members with Manage Messages can cancel a game.")
            return await self.service.cancel(
                interaction.channel_id or 0, player_of(interaction.user)
            )

        await self._act(interaction, action)

    @app_commands.command(name="board", description="Show the current board again")
    async def board(self, interaction: Interaction) -> None:
        async def action() -> Report:
            row = await self.service.current(interaction.channel_id or 0)
            if row is None or row.game is None:
                raise UserError(
                    "There is no game in this channel. Start one with /backgammon challenge."
                )
            return _board_report(row)

        await self._act(interaction, action)

    @app_commands.command(name="history", description="The moves of the current or last game")
    async def history(self, interaction: Interaction) -> None:
        async def work() -> None:
            row, events = await self.service.history(interaction.channel_id or 0)
            await interaction.response.send_message(present.history_text(row, events))

        await self._guarded(interaction, work)

    @app_commands.command(name="stats", description="A player's results on this server")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        target = user or interaction.user

        async def work() -> None:
            guild_id = interaction.guild_id or 0
            stats = await self.service.stats(guild_id, target.id)
            record = await self.service.store.computer_results(guild_id, target.id)
            text = present.stats_text(stats, target.display_name)
            if record:
                text += "\n" + present.computer_record_text(record)
            embed = discord.Embed(title=f"{target.display_name}'s backgammon", description=text)
            await interaction.response.send_message(embed=embed)

        await self._guarded(interaction, work)

    @app_commands.command(name="leaderboard", description="This server's rated players")
    async def leaderboard(self, interaction: Interaction) -> None:
        async def work() -> None:
            rows = await self.service.leaderboard(
                interaction.guild_id or 0, min_rated_matches=self.leaderboard_min_matches
            )
            lines = present.leaderboard_lines(rows)
            embed = discord.Embed(
                title="Backgammon leaderboard",
                description="\n".join(lines) or "No rated matches have been finished yet.",
            )
            embed.set_footer(text="FIBS ratings from rated matches · start at 1500")
            await interaction.response.send_message(embed=embed)

        await self._guarded(interaction, work)

    @app_commands.command(name="help", description="How to play and how to write moves")
    async def help(self, interaction: Interaction) -> None:
        embed = discord.Embed(title="Backgammon", description=present.HELP_TEXT)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, UserError):
            await self._error(interaction, str(original))
            return
        if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            await self._error(interaction, str(error))
            return
        log.error("command error in %s", _describe(interaction), exc_info=original)
        await self._error(interaction, SORRY)


def _board_report(row: MatchRow) -> Report:
    assert row.game is not None
    report = Report("board", row, [_board_caption(row)], [row.game])
    return report


def _board_caption(row: MatchRow) -> str:
    game = row.game
    assert game is not None
    names = row.player_names
    if game.options.length:
        a, b = game.score
        return (
            f"{names[0]} vs {names[1]}, game {game.game_number} of a "
            f"{game.options.length}-point match ({a}-{b})."
        )
    return f"{names[0]} vs {names[1]}: money game, cube at {game.cube}."


def _describe(interaction: Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else "component"
    return f"{command} (channel {interaction.channel_id}, user {interaction.user.id})"
