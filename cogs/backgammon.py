"""The ``/backgammon`` command group: each handler turns an interaction into a session call.

Errors meant for the player (:class:`~bot.errors.UserError`) are answered privately and
change nothing; anything else is logged and answered with a generic apology, or, once the
action is stored, with a note that it was saved. The session acknowledges the interaction
(see :mod:`cogs.replies`) before it writes, so replies meet Discord's 3-second rule; board
images are rendered in a worker thread. Names are escaped and only named users are pinged.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import present
from bot.engine import MatchOptions, Phase, ResultKind
from bot.errors import UserError
from bot.session import ActionContext, Player, Report, Review, SessionService
from bot.store import MatchRow
from cogs.replies import NO_MENTIONS, Reply, code_safe, mentions_for, safe_name
from cogs.views import view_for

log = logging.getLogger(__name__)

SORRY = "Something went wrong; the game is unchanged."
SAVED = (
    "Your action was saved, but posting the result failed. "
    "/backgammon board shows the game as it is now."
)
AUTOCOMPLETE_LIMIT = 25
CHOICE_NAME_LIMIT = 100

Interaction = discord.Interaction[Any]
Action = Callable[[ActionContext], Awaitable[Report]]


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
        game_reviews: bool = True,
    ) -> None:
        self.bot = bot
        self.game_reviews = game_reviews
        self._background: set[asyncio.Task[None]] = set()
        self.service = service
        self.leaderboard_min_matches = leaderboard_min_matches
        self._renderer = renderer
        self.in_flight = 0
        self.idle = asyncio.Event()
        self.idle.set()
        self.accepting = True
        # Names reach messages escaped; turns the session finishes on its own are posted.
        service.display = safe_name
        service.on_background_report = self.post_background
        super().__init__()

    async def resume_computer_turns(self) -> None:
        """Finish computer turns left open before this start, and post them."""
        for report in await self.service.resume_computer_turns():
            await self.post_background(report)

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

    def _content(self, report: Report) -> tuple[str, list[int]]:
        """The message text and the users it pings (the player who must act next)."""
        parts = [report.text]
        pinged: list[int] = []

        match = report.match

        def mention(user_id: int, name: str) -> str:
            if match.computer_level is not None and user_id == match.player_ids[1]:
                return safe_name(name)  # the bot itself: nobody to notify
            pinged.append(user_id)
            return f"<@{user_id}>"

        step = present.next_step(report.match, mention)
        if step:
            parts.append(step)
        if report.match.status == "challenge":
            # Ping the challenged player: only the "challenges <name> " phrase, so a
            # challenger whose name contains the opponent's is left alone.
            user_id = report.match.player_ids[1]
            name = safe_name(report.match.player_names[1])
            parts[0] = parts[0].replace(
                f" challenges {name} to ", f" challenges {mention(user_id, name)} to ", 1
            )
        return present.fit("\n".join(p for p in parts if p)), pinged

    async def _guarded(
        self,
        interaction: Interaction,
        work: Callable[[Reply], Awaitable[None]],
        *,
        pressed: bool = False,
    ) -> None:
        """Run a handler: player errors privately, bugs logged, the in-flight count kept."""
        reply = Reply(interaction, pressed=pressed)
        if not self.accepting:
            await reply.error("The bot is restarting; try again in a moment.")
            return
        self.in_flight += 1
        self.idle.clear()
        watchdog = asyncio.create_task(reply.watch())
        try:
            await work(reply)
        except UserError as exc:
            await reply.error(str(exc))
        except Exception:
            if reply.committed:
                log.exception("could not post the result of %s", _describe(interaction))
                await reply.error(SAVED)
            else:
                log.exception("unexpected error in %s", _describe(interaction))
                await reply.error(SORRY)
        finally:
            reply.finish()
            await watchdog
            self.in_flight -= 1
            if self.in_flight == 0:
                self.idle.set()

    async def _act(
        self,
        interaction: Interaction,
        action: Action,
        *,
        pressed: bool = False,
        match_id: int | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            report = await action(reply.context(match_id))
            reply.committed = report.action != "board"  # a look at the board stores nothing
            await self._publish(reply, report)

        await self._guarded(interaction, work, pressed=pressed)

    async def _publish(self, reply: Reply, report: Report) -> None:
        """Answer with the report's text, board images and next-action buttons."""
        await reply.remove_buttons()
        if report.boards:
            await reply.acknowledge()  # drawing takes a moment
        files = await asyncio.to_thread(self._render, report) if report.boards else []
        await reply.send(**self._message(report, files))
        self._review_finished_game(report)

    def _review_finished_game(self, report: Report) -> None:
        """After a game ends, post both players' luck and error rates (in the background)."""
        if not self.game_reviews or report.finished is None:
            return
        from bot.computer import computer_available

        over = [game for game in report.boards if game.phase is Phase.OVER]
        if not over or not computer_available():
            return
        task = asyncio.create_task(self._post_review(report.match, over[-1].game_number))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _post_review(self, row: MatchRow, game_number: int) -> None:
        try:
            review = await self.service.review(row, game_number)
            if not review.luck.players:
                return
            names = (safe_name(row.player_names[0]), safe_name(row.player_names[1]))
            text = f"**Game {game_number}: skill and luck**\n" + present.luck_lines(
                names, review.luck, review.analyses
            )
            channel = self.bot.get_channel(row.channel_id)
            if isinstance(channel, discord.abc.Messageable):
                await channel.send(content=present.fit(text), allowed_mentions=NO_MENTIONS)
        except Exception:
            log.exception("could not review game %s of match %s", game_number, row.id)

    def _message(self, report: Report, files: list[discord.File]) -> dict[str, Any]:
        content, pinged = self._content(report)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions_for(pinged)}
        if files:
            kwargs["files"] = files
        view = view_for(report.match)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    async def post_background(self, report: Report) -> None:
        """Post what happened without a request (the computer's resumed turn) in its channel."""
        channel = self.bot.get_channel(report.match.channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(report.match.channel_id)
            except discord.HTTPException:
                log.warning("cannot post to channel %s", report.match.channel_id)
                return
        if not isinstance(channel, discord.abc.Messageable):
            return
        files = await asyncio.to_thread(self._render, report) if report.boards else []
        try:
            await channel.send(**self._message(report, files))
        except discord.HTTPException:
            log.exception("cannot post to channel %s", report.match.channel_id)

    # --- buttons -------------------------------------------------------------------------

    async def press(self, interaction: Interaction, action: str, match_id: int) -> None:
        """A button was pressed (called by :class:`cogs.views.ActionButton`).

        The button's match id travels to the session, which compares it with the channel's
        live game under the channel's lock: a button never acts on another game.
        """
        channel_id = interaction.channel_id or 0
        user = player_of(interaction.user)
        service = self.service
        actions: dict[str, Action] = {
            "accept": lambda ctx: service.accept(channel_id, user, ctx),
            "decline": lambda ctx: service.decline(channel_id, user, ctx),
            "roll": lambda ctx: service.roll(channel_id, user, ctx),
            "double": lambda ctx: service.double(channel_id, user, ctx),
            "take": lambda ctx: service.take(channel_id, user, ctx),
            "drop": lambda ctx: service.drop(channel_id, user, ctx),
            "beaver": lambda ctx: service.beaver(channel_id, user, ctx),
            "resign_accept": lambda ctx: service.answer_resignation(channel_id, user, True, ctx),
            "resign_reject": lambda ctx: service.answer_resignation(channel_id, user, False, ctx),
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

    async def _start_computer(
        self,
        interaction: Interaction,
        level: str | None,
        length: int,
        cube: bool,
        ctx: ActionContext,
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
            ctx=ctx,
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
            row, analyses = review.match, review.analyses
            names = (safe_name(row.player_names[0]), safe_name(row.player_names[1]))
            text = present.analysis_text(names, analyses, review.luck)
            boards = [m.game for result in analyses.values() for m in result.mistakes][:5]
            report = Report("analyze", row, [], boards)
            files = await asyncio.to_thread(self._render, report, last_play=False)
            files.insert(0, await asyncio.to_thread(_win_chart, review))
            await reply.send(content=text, files=files, allowed_mentions=NO_MENTIONS)

        await self._guarded(interaction, work)

    @app_commands.command(name="roll", description="Roll the dice")
    async def roll(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda ctx: self.service.roll(
                interaction.channel_id or 0, player_of(interaction.user), ctx
            ),
        )

    @app_commands.command(name="move", description="Play your roll, e.g. 13/7 8/7")
    @app_commands.describe(play="Your play in standard notation; pick one of the legal plays")
    async def move(self, interaction: Interaction, play: str) -> None:
        await self._act(
            interaction,
            lambda ctx: self.service.move(
                interaction.channel_id or 0, player_of(interaction.user), play, ctx
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
            lambda ctx: self.service.double(
                interaction.channel_id or 0, player_of(interaction.user), ctx
            ),
        )

    @app_commands.command(name="take", description="Accept your opponent's double")
    async def take(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda ctx: self.service.take(
                interaction.channel_id or 0, player_of(interaction.user), ctx
            ),
        )

    @app_commands.command(name="drop", description="Refuse your opponent's double (lose the game)")
    async def drop(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda ctx: self.service.drop(
                interaction.channel_id or 0, player_of(interaction.user), ctx
            ),
        )

    @app_commands.command(name="pass", description="Same as drop: refuse the double")
    async def pass_(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda ctx: self.service.drop(
                interaction.channel_id or 0, player_of(interaction.user), ctx
            ),
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
            lambda ctx: self.service.resign(
                interaction.channel_id or 0,
                player_of(interaction.user),
                ResultKind[kind.upper()],
                ctx,
            ),
        )

    @app_commands.command(name="claim", description="Win when your opponent has been idle too long")
    async def claim(self, interaction: Interaction) -> None:
        await self._act(
            interaction,
            lambda ctx: self.service.claim(
                interaction.channel_id or 0, player_of(interaction.user), ctx
            ),
        )

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
            return _board_report(row)

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
        target = user or interaction.user

        async def work(reply: Reply) -> None:
            guild_id = interaction.guild_id or 0
            stats = await self.service.stats(guild_id, target.id)
            record = await self.service.store.computer_results(guild_id, target.id)
            name = safe_name(target.display_name)
            text = present.stats_text(stats, name)
            if record:
                text += "\n" + present.computer_record_text(record)
            embed = discord.Embed(title=f"{name}'s backgammon", description=text)
            history = await self.service.rating_history(guild_id, target.id)
            if len(history) >= 1:
                chart = await asyncio.to_thread(_rating_chart, history, target.display_name)
                embed.set_image(url=f"attachment://{chart.filename}")
                await reply.send(embed=embed, file=chart, allowed_mentions=NO_MENTIONS)
            else:
                await reply.send(embed=embed, allowed_mentions=NO_MENTIONS)

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
            names = f"{safe_name(row.player_names[0])} vs {safe_name(row.player_names[1])}"
            await reply.send(
                content=f"Match #{row.id} ({names}): {result.text}",
                allowed_mentions=NO_MENTIONS,
            )

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

    @app_commands.command(name="help", description="How to play and how to write moves")
    async def help(self, interaction: Interaction) -> None:
        embed = discord.Embed(title="Backgammon", description=present.HELP_TEXT)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    async def cog_app_command_error(
        self, interaction: Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        reply = Reply(interaction)
        if isinstance(original, UserError):
            await reply.error(str(original))
            return
        if isinstance(error, app_commands.TransformerError | app_commands.CheckFailure):
            await reply.error(str(error))
            return
        log.error("command error in %s", _describe(interaction), exc_info=original)
        await reply.error(SORRY)


def _win_chart(review: Review) -> discord.File:
    """The last game's chance of winning after every play, with errors and luck marked."""
    from renderers.charts import win_chance_chart

    game = review.luck.games[-1]
    png = win_chance_chart(**game.chart_inputs(), names=review.match.player_names)
    return discord.File(io.BytesIO(png), filename="game-chart.png")


def _rating_chart(history: list[tuple[float, float]], name: str) -> discord.File:
    from renderers.charts import rating_chart

    png = rating_chart([(when, rating) for when, rating in history], name=name)
    return discord.File(io.BytesIO(png), filename="rating.png")


def _board_report(row: MatchRow) -> Report:
    assert row.game is not None
    report = Report("board", row, [_board_caption(row)], [row.game])
    return report


def _board_caption(row: MatchRow) -> str:
    game = row.game
    assert game is not None
    names = (safe_name(row.player_names[0]), safe_name(row.player_names[1]))
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
