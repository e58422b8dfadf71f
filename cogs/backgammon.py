"""The ``/backgammon`` command group: each handler turns an interaction into a session call.

Errors meant for the player (:class:`~bot.errors.UserError`) are answered privately and
change nothing; anything else is logged and answered with a generic apology, or, once the
action is stored, with a note that it was saved. The session acknowledges the interaction
(see :mod:`cogs.replies`) before it writes, so replies meet Discord's 3-second rule; board
images are rendered in a worker thread. Names are escaped and only named users are pinged.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
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
from bot.matfile import mat_filename
from bot.records import Action, MatchRow, Status
from bot.session import ActionContext, Player, Report, SessionService
from cogs.replies import NO_MENTIONS, Reply, code_safe, mentions_for, safe_name
from cogs.views import view_for
from renderers.charts import rating_chart, win_chance_chart

log = logging.getLogger(__name__)

SORRY = "Something went wrong; the game is unchanged."
SAVED = (
    "Your action was saved, but posting the result failed. "
    "/backgammon board shows the game as it is now."
)
THREADS_MISSING = (
    "This server wants a thread per game, but I can't open one here: give me the Create "
    "Public Threads and Send Messages in Threads permissions. The game stays in this channel."
)
REMINDER_INTERVAL = 60.0  # seconds between looks for players to remind
AUTOCOMPLETE_LIMIT = 25
CHOICE_NAME_LIMIT = 100

Interaction = discord.Interaction[Any]
Request = Callable[[ActionContext], Awaitable[Report]]  # a session call for one interaction


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
        self.reminder_interval = REMINDER_INTERVAL
        # Names reach messages escaped; turns the session finishes on its own are posted.
        service.display = safe_name
        service.on_background_report = self.post_background
        super().__init__()

    async def cog_load(self) -> None:
        self._reminders = asyncio.create_task(self._remind_forever(), name="reminders")

    async def cog_unload(self) -> None:
        self._reminders.cancel()

    async def _remind_forever(self) -> None:
        while True:
            await asyncio.sleep(self.reminder_interval)
            try:
                await self.send_reminders()
            except Exception:
                log.exception("sending turn reminders failed")

    async def send_reminders(self) -> int:
        """Ping each player who asked to be reminded after N idle minutes and has waited
        that long on their turn: once a turn, even with several processes. The count sent."""
        sent = 0
        for row, user_id in await self.service.due_reminders():
            channel = self.bot.get_channel(row.channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                continue
            if not await self.service.note_reminded(row):
                continue  # reminded already (another process)
            me = row.player_index(user_id)
            assert me is not None
            waited = max(1, round((self.service.clock() - row.last_action_at) / 60))
            board = f" {_board_link(row)}" if row.board else ""
            text = (
                f"<@{user_id}>, it's your turn against {safe_name(row.player_names[1 - me])} "
                f"(waiting {waited} minute{'s' if waited != 1 else ''}).{board}"
            )
            try:
                await channel.send(content=text, allowed_mentions=mentions_for([user_id]))
                sent += 1
            except discord.HTTPException:
                log.exception("could not remind %s in %s", user_id, row.channel_id)
        return sent

    async def resume_computer_turns(self) -> None:
        """Finish computer turns left open before this start, and post them."""
        for report in await self.service.resume_computer_turns():
            await self.post_background(report)

    # --- plumbing ------------------------------------------------------------------------

    async def _render(
        self, report: Report, *, last_play: bool = True, style: dict[str, Any] | None = None
    ) -> list[discord.File]:
        """Draw every board of a report, off the event loop (in the worker processes).

        ``style``: the player to act's board choices (theme, home board side).
        """
        names = report.match.player_names
        jobs = []
        for game in report.boards:
            options: dict[str, Any] = {
                "perspective": present.perspective(game),
                "names": names,
                **(style or {}),
            }
            if not last_play:
                options["last_play"] = None
            jobs.append((game, options))
        if not jobs:
            return []
        render = self._renderer
        if render is not None:  # a renderer given to the cog (tests): in a thread here

            def draw() -> list[bytes]:
                return [render(game, **options) for game, options in jobs]

            pngs = await asyncio.to_thread(draw)
        else:
            pngs = await self.service.workers.render_many(jobs)
        return [
            discord.File(io.BytesIO(png), filename=f"board-{index}.png")
            for index, png in enumerate(pngs, start=1)
        ]

    def _content(self, report: Report, notify: int | None = None) -> tuple[str, list[int]]:
        """The message text and the users it pings.

        ``notify``: the player to act, when they are to be pinged (see :meth:`_notify`);
        the challenged player of a new challenge is always pinged.
        """
        parts = [report.text]
        pinged: list[int] = []

        def mention(user_id: int, name: str) -> str:
            if user_id != notify:
                return safe_name(name)
            pinged.append(user_id)
            return f"<@{user_id}>"

        step = present.next_step(report.match, mention)
        if step:
            parts.append(step)
        if report.match.status == Status.CHALLENGE:
            # Ping the challenged player: only the "challenges <name> " phrase, so a
            # challenger whose name contains the opponent's is left alone.
            user_id = report.match.player_ids[1]
            name = safe_name(report.match.player_names[1])
            notify = user_id
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
        action: Request,
        *,
        pressed: bool = False,
        match_id: int | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            report = await action(reply.context(match_id))
            reply.committed = report.action != Action.BOARD  # a look at the board stores nothing
            await self._publish(reply, report)

        await self._guarded(interaction, work, pressed=pressed)

    async def _publish(self, reply: Reply, report: Report) -> None:
        """Answer with the report's text, board images and next-action buttons.

        A game accepted on a server that wants threads moves to a thread of its own first;
        a match that ends in a thread is announced back in its home channel.
        """
        await reply.remove_buttons()
        if report.boards:
            await reply.acknowledge()  # drawing takes a moment
        requester = reply.interaction.user.id
        if report.action == Action.ACCEPT:
            thread = await self._open_thread(reply, report)
            if thread is not None:
                report.match = await self.service.move_to_thread(
                    report.match.id, thread.id, report.match.channel_id
                )
                await self._post(thread, report, requester)
                await reply.send(
                    content=f"The game is on in {thread.mention}.", allowed_mentions=NO_MENTIONS
                )
                return
        message = await reply.send(**await self._message(report, requester))
        if message is not None:
            await self._note_board(report, message)
        if report.match_over:
            await self._close_thread(report)
        self._review_finished_game(report)

    async def _post(
        self, channel: discord.abc.Messageable, report: Report, requester: int | None
    ) -> None:
        message = await channel.send(**await self._message(report, requester))
        await self._note_board(report, message)

    async def _note_board(self, report: Report, message: discord.Message) -> None:
        if report.boards and report.match.live:
            with contextlib.suppress(Exception):
                await self.service.note_board(report.match.id, message.channel.id, message.id)

    async def _open_thread(self, reply: Reply, report: Report) -> discord.Thread | None:
        """A public thread for an accepted game, when the server asks for one; else None.

        Without the permission (or if Discord refuses) the game stays in the channel and the
        players are told why.
        """
        interaction = reply.interaction
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel) or interaction.guild_id is None:
            return None
        if not (await self.service.guild_settings(interaction.guild_id)).threads:
            return None
        names = " vs ".join(report.match.player_names)
        permissions = interaction.app_permissions
        if not (permissions.create_public_threads and permissions.send_messages_in_threads):
            report.lines.append(THREADS_MISSING)
            return None
        try:
            if interaction.message is not None:
                return await interaction.message.create_thread(
                    name=names[:100], auto_archive_duration=1440
                )
            return await channel.create_thread(
                name=names[:100], type=discord.ChannelType.public_thread
            )
        except discord.HTTPException as exc:
            log.warning("could not open a thread in %s: %s", channel.id, exc)
            report.lines.append(THREADS_MISSING)
            return None

    async def _close_thread(self, report: Report) -> None:
        """Announce a thread game's result in its home channel, then archive the thread."""
        row = report.match
        if row.home_channel_id is None:
            return
        home = self.bot.get_channel(row.home_channel_id)
        thread = self.bot.get_channel(row.channel_id)
        lines = [line for line in report.lines if not line.startswith("Dice secret")]
        text = " ".join(lines[-2:]) if lines else "The match is over."
        if isinstance(home, discord.abc.Messageable):
            files = await self._match_files(report)
            view = view_for(row)
            where = thread.mention if isinstance(thread, discord.Thread) else "its thread"
            kwargs: dict[str, Any] = {
                "content": present.fit(f"{text}\n(Played in {where}.)"),
                "allowed_mentions": NO_MENTIONS,
                "files": files,
            }
            if view is not None:
                kwargs["view"] = view
            try:
                await home.send(**kwargs)
            except discord.HTTPException:
                log.exception("could not announce match %s in its home channel", row.id)
        if isinstance(thread, discord.Thread):
            with contextlib.suppress(discord.HTTPException):
                await thread.edit(archived=True)

    async def _match_files(self, report: Report) -> list[discord.File]:
        """A finished match's file for GNU Backgammon, to attach to its closing message."""
        if not report.match_over:
            return []
        try:
            row, text = await self.service.match_file(
                report.match.guild_id, report.match.channel_id, report.match.id
            )
        except Exception:
            log.exception("could not export match %s", report.match.id)
            return []
        return [_text_file(text, mat_filename(row))]

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

    async def _message(self, report: Report, requester: int | None) -> dict[str, Any]:
        """Everything a result message holds: text, pings, boards, match file, buttons."""
        actor = self._actor(report)
        settings = await self.service.user_settings(actor) if actor is not None else None
        notify = actor if settings is not None and settings.notify == "on" else None
        if actor == requester:
            notify = None  # they are acting right now: no need to call them
        style = {"theme": settings.theme} if settings is not None else {}
        files = await self._render(report, style=style)
        if report.match_over and report.match.home_channel_id is None:
            files += await self._match_files(report)
        content, pinged = self._content(report, notify)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions_for(pinged)}
        if files:
            kwargs["files"] = files
        view = view_for(report.match)
        if view is not None and not (report.match_over and report.match.home_channel_id):
            kwargs["view"] = view
        return kwargs

    @staticmethod
    def _actor(report: Report) -> int | None:
        """The person who must act next, if any (never the computer)."""
        row, game = report.match, report.match.game
        if row.status != Status.PLAYING or game is None or game.actor is None:
            return None
        if row.computer_level is not None and game.actor == 1:
            return None
        return row.player_ids[game.actor]

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
        try:
            await self._post(channel, report, None)
        except discord.HTTPException:
            log.exception("cannot post to channel %s", report.match.channel_id)

    # --- buttons -------------------------------------------------------------------------

    async def press(self, interaction: Interaction, action: Action, match_id: int) -> None:
        """A button was pressed (called by :class:`cogs.views.ActionButton`).

        The button's match id travels to the session, which compares it with the channel's
        live game under the channel's lock: a button never acts on another game.
        """
        channel_id = interaction.channel_id or 0
        user = player_of(interaction.user)
        service = self.service
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
        if action == Action.REMATCH:
            me = self.bot.user
            computer = Player(me.id, me.display_name, True) if me is not None else None
            rematch: Request = lambda ctx: service.rematch(  # noqa: E731
                interaction.guild_id or 0, channel_id, user, match_id, computer, ctx
            )
            await self._act(interaction, rematch, pressed=True)
            return
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
            report = Report(Action.ANALYZE, row, [], boards)
            files = await self._render(report, last_play=False)
            inputs = review.luck.games[-1].chart_inputs()
            chart = await self.service.workers.call(
                functools.partial(win_chance_chart, **inputs, names=row.player_names)
            )
            files.insert(0, _png_file(chart, "game-chart.png"))
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
                png = await self.service.workers.call(
                    functools.partial(rating_chart, history, name=target.display_name)
                )
                chart = _png_file(png, "rating.png")
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

    @app_commands.command(name="games", description="Your live games on this server")
    async def games(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            me = interaction.user.id
            rows = await self.service.games_of(interaction.guild_id or 0, me)
            now = self.service.clock()
            lines = []
            for row in rows:
                mine = row.player_index(me)
                assert mine is not None
                other = safe_name(row.player_names[1 - mine])
                if row.status == Status.CHALLENGE:
                    who = "waiting for you to accept" if mine == 1 else f"waiting for {other}"
                    lines.append(f"<#{row.channel_id}> challenge with {other}: {who}.")
                    continue
                game = row.game
                assert game is not None
                turn = (
                    "your turn"
                    if game.actor == mine
                    else f"{other}'s turn"
                    if game.actor is not None
                    else "between games"
                )
                lines.append(
                    f"{_board_link(row)} vs {other}: {turn}, waiting "
                    f"{_waited(now - row.last_action_at)}."
                )
            text = "\n".join(lines) or "You have no live games on this server."
            embed = discord.Embed(title="Your games", description=present.fit(text, 4000))
            await reply.private(embed=embed)

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
            notice = {
                "on": "pinged when it becomes your turn",
                "off": "never pinged for your turn",
                "idle": f"pinged after {mine.notify_minutes} idle minutes on your turn",
            }[mine.notify]
            lines = [
                f"Turn notices: {notice}.",
                f"Board: home board on the {mine.board_side}, {mine.theme} colours.",
                "This server: "
                + ("a thread for each game." if server.threads else "games in the channel."),
            ]
            await reply.private(content="\n".join(lines))

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
            row, text = await self.service.match_file(
                interaction.guild_id or 0, interaction.channel_id or 0, match, format
            )
            names = f"{safe_name(row.player_names[0])} vs {safe_name(row.player_names[1])}"
            await reply.send(
                content=f"Match #{row.id}, {names}: open it in GNU Backgammon or eXtreme Gammon.",
                file=_text_file(text, mat_filename(row, format)),
                allowed_mentions=NO_MENTIONS,
            )

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


def _png_file(png: bytes, filename: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=filename)


def _board_link(row: MatchRow) -> str:
    """A link that jumps to the match's latest board (or to its channel)."""
    if row.board is None:
        return f"<#{row.channel_id}>"
    channel_id, message_id = row.board
    return f"https://discord.com/channels/{row.guild_id}/{channel_id}/{message_id}"


def _waited(seconds: float) -> str:
    minutes = int(seconds // 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = minutes // 60
    return f"{hours} hours" if hours < 48 else f"{hours // 24} days"


def _text_file(text: str, filename: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)


def _board_report(row: MatchRow) -> Report:
    assert row.game is not None
    report = Report(Action.BOARD, row, [_board_caption(row)], [row.game])
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
