"""Publishing: how a stored action, or news nobody asked for, reaches the channel.

:class:`Publisher` owns everything after the session has answered: drawing boards and charts
in the worker processes, the message text and whom it pings, the next-action buttons,
posting the result (or, for an accepted game on a server that wants threads, opening a
thread and posting there), announcing a thread game's end in its home channel and archiving
the thread, attaching the finished match's file, posting the computer's turns and game
reviews in the background, and the turn-reminder loop. It holds no slash commands and
decides nothing about errors: failures propagate to the caller (the cog's guard).

Everything it posts is public, so it speaks the server's language (:meth:`Publisher.language`:
the moderators' choice, else the server's Discord locale), board and chart words included.

May import: discord, :mod:`bot.i18n`, :mod:`bot.present`, :mod:`bot.core.records`,
:mod:`bot.core.session` (the service and its records), :mod:`bot.core.matfile`,
:mod:`renderers.charts`, :mod:`cogs.helpers`, :mod:`cogs.replies`, :mod:`cogs.views`. Never
:mod:`cogs.backgammon`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord
from discord.ext import commands

from bot import present
from bot.computer import computer_available
from bot.core.errors import UserError
from bot.core.facts import ComputerStuck, Fact, PlayedElsewhere, TurnResumed
from bot.core.matfile import mat_filename
from bot.core.records import Action, MatchRow, Notify
from bot.core.session import Report, Review
from bot.engine import Game, Phase
from bot.i18n import LANGUAGES, Text, language_of, say
from bot.present import notices
from bot.present.performance import record_lines
from bot.present.positions import board_description
from bot.services import Services
from cogs.helpers import (
    message_content,
    next_actor,
    reminder_text,
    versus,
)
from cogs.replies import NO_MENTIONS, Reply, mentions_for, safe_name
from cogs.views import view_for
from cogs.weblinks import WebLinks
from renderers.charts import pr_chart, rating_chart, win_chance_chart

log = logging.getLogger(__name__)

REMINDER_INTERVAL = 60.0  # seconds between looks for players to remind
MISTAKE_BOARDS = 5  # the most mistake boards an analysis attaches
ALT_TEXT_LIMIT = 1024  # Discord's limit on an attachment's description


def png_file(png: bytes, filename: str, description: str | None = None) -> discord.File:
    """A picture to attach; ``description``: its alt text (at most Discord's 1024)."""
    return discord.File(
        io.BytesIO(png),
        filename=filename,
        description=description[:ALT_TEXT_LIMIT] if description else None,
    )


def text_file(text: str, filename: str) -> discord.File:
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)


class Publisher:
    """Posts what the session did. The cog owns one; the bot gives it channels.

    ``renderer``: draw boards with this function in a thread instead of the worker processes
    (tests swap it to see what is drawn).
    """

    def __init__(
        self,
        bot: commands.Bot,
        services: Services,
        *,
        renderer: Callable[..., bytes] | None = None,
        game_reviews: bool = True,
    ) -> None:
        self.bot = bot
        self.services = services
        self.session = services.session
        self.renderer = renderer
        self.game_reviews = game_reviews
        self.reminder_interval = REMINDER_INTERVAL
        self._background: set[asyncio.Task[None]] = set()
        self._reviewing: set[tuple[int, int]] = set()  # (match, game) reviews under way
        self._reminders: asyncio.Task[None] | None = None
        # News nobody asked for in a request comes as facts: the computer's resumed turns,
        # a computer that keeps failing, a move made in the Activity. Told in a task of its
        # own: the action whose facts these are never waits for Discord.
        self.stop_listening = services.facts.subscribe(self._hear, detached=True)

    async def language(self, guild_id: int, guild_locale: object = None) -> str:
        """The language of a server's public messages: its moderators' choice, else its
        Discord locale (``guild_locale`` when the interaction gave it, else the guild's)."""
        chosen = (await self.services.club.guild_settings(guild_id)).language
        if chosen is not None and chosen in LANGUAGES:
            return chosen
        if guild_locale is None:
            guild = self.bot.get_guild(guild_id)
            guild_locale = guild.preferred_locale if guild is not None else None
        return language_of(guild_locale)

    # --- the result of a request ---------------------------------------------------------

    async def publish(self, reply: Reply, report: Report) -> None:
        """Answer with the report's text, board images and next-action buttons.

        A game accepted on a server that wants threads moves to a thread of its own first;
        a match that ends in a thread is announced back in its home channel.
        """
        # Taking the pressed message's buttons off is an edit of its own, made while the
        # board is drawn rather than before it (one round trip off the wait).
        removing = asyncio.ensure_future(reply.remove_buttons())
        try:
            interaction = reply.interaction
            requester = interaction.user.id
            # In a DM or group DM there is no server's language: the caller's.
            language = await self.language(
                report.match.guild_id, interaction.guild_locale or interaction.locale
            )
            notes: list[Text] = []  # our own lines after the story
            if report.action == Action.ACCEPT and report.match.venue.reachable:
                thread = await self._open_thread(reply, report, language, notes)
                if thread is not None:
                    report.match = await self.services.club.move_to_thread(
                        report.match.id, thread.id, report.match.channel_id
                    )
                    await self._post(thread, report, requester, language)
                    on = notices.game_on_line(thread.mention)
                    await reply.send(content=say(on, language), allowed_mentions=NO_MENTIONS)
                    return
            kwargs = await self._message(report, requester, language, notes)
        finally:
            await removing  # the old buttons are gone before the new board appears
        message = await reply.send(**kwargs)
        if message is not None:
            await self._note_board(report, message)
        if report.match_over:
            await self._close_thread(report, language)
        await self._review_finished_game(report)

    async def post_background(self, report: Report) -> None:
        """Post what happened without a Discord request (the computer's resumed turn, a move
        made in the Activity) in its channel. Not where the bot is not in the channel (a DM
        game): there the players' next press, or the board's Board button, shows it."""
        if not report.match.venue.reachable:
            log.info("match %s: news kept for the next press (not in the channel)", report.match.id)
            return
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
            language = await self.language(report.match.guild_id)
            await self._post(channel, report, None, language)
        except discord.HTTPException:
            log.exception("cannot post to channel %s", report.match.channel_id)
        await self._review_finished_game(report)  # a game the resumed turn ended

    async def _hear(self, facts: Sequence[Fact]) -> None:
        for fact in facts:
            if isinstance(fact, TurnResumed | PlayedElsewhere):
                await self.post_background(fact.report)
            elif isinstance(fact, ComputerStuck):
                await self.computer_stuck(fact.match)

    async def computer_stuck(self, row: MatchRow) -> None:
        """Tell a channel, publicly, that its computer opponent keeps failing and that a
        moderator can cancel the game (the session has stopped retrying by itself)."""
        if not row.venue.reachable:  # a DM game: the next press tells the player instead
            log.warning("match %s: the computer is stuck (not in the channel)", row.id)
            return
        channel = self.bot.get_channel(row.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            log.warning(
                "match %s: the computer is stuck, channel %s unknown", row.id, row.channel_id
            )
            return
        language = await self.language(row.guild_id)
        await channel.send(
            content=say(notices.COMPUTER_STUCK, language), allowed_mentions=NO_MENTIONS
        )

    async def resume_computer_turns(self) -> None:
        """Finish computer turns left open before this start (each is posted as it is
        published: :meth:`_hear`)."""
        await self.session.resume_computer_turns()

    async def render(
        self,
        report: Report,
        *,
        last_play: bool = True,
        style: dict[str, Any] | None = None,
        language: str = "en",
        lane: bool = False,
    ) -> list[discord.File]:
        """Draw every board of a report, off the event loop (in the worker processes).

        ``style``: the player to act's board choices (theme, home board side); ``language``:
        the words drawn on the board; ``lane``: in the analysis lane (an analysis's mistake
        boards, which must not hold up a game's next board).
        """
        names = report.match.player_names
        jobs = []
        described = [say(board_description(game, names), language) for game in report.boards]
        for game in report.boards:
            options: dict[str, Any] = {
                "perspective": present.perspective(game),
                "names": names,
                "words": present.board_words(language),
                **(style or {}),
            }
            if not last_play:
                options["last_play"] = None
            jobs.append((game, options))
        if not jobs:
            return []
        render = self.renderer
        if render is not None:

            def draw() -> list[bytes]:
                return [render(game, **options) for game, options in jobs]

            pngs = await asyncio.to_thread(draw)
        else:
            pngs = await self.services.workers.render_many(jobs, lane=lane)
        # Each picture's alt text names its position (its XGID last): the "Analyse this
        # position" message command reads it back, whenever the board was posted.
        return [
            png_file(png, f"board-{index}.png", text)
            for index, (png, text) in enumerate(zip(pngs, described, strict=True), start=1)
        ]

    async def render_position(
        self, game: Game, names: tuple[str, str], language: str
    ) -> discord.File:
        """The picture of an analysed position (``names``: what its players are called),
        from the side that must decide, drawn in the analysis lane; its alt text names it."""
        options: dict[str, Any] = {
            "perspective": present.perspective(game),
            "names": names,
            "words": present.board_words(language),
            "last_play": None,
        }
        render = self.renderer
        if render is not None:
            png = await asyncio.to_thread(lambda: render(game, **options))
        else:
            (png,) = await self.services.workers.render_many([(game, options)], lane=True)
        return png_file(png, "position.png", say(board_description(game, names), language))

    async def private_board(self, report: Report, locale: object) -> dict[str, Any]:
        """A board for one reader alone (someone watching a DM game), in their language: its
        picture and text, no buttons and no pings."""
        kwargs = await self._message(report, None, language_of(locale))
        kwargs.pop("view", None)
        kwargs["allowed_mentions"] = NO_MENTIONS
        return kwargs

    async def _message(
        self, report: Report, requester: int | None, language: str, notes: Sequence[Text] = ()
    ) -> dict[str, Any]:
        """Everything a result message holds, in ``language``: text, pings, boards, match
        file, buttons."""
        actor = next_actor(report)
        settings = await self.services.club.user_settings(actor) if actor is not None else None
        notify = actor if settings is not None and settings.notify is Notify.ON else None
        if actor == requester:
            notify = None  # they are acting right now: no need to call them
        style = (
            {"theme": settings.theme, "home": settings.board_side} if settings is not None else {}
        )
        files = await self.render(report, style=style, language=language)
        if report.match_over and report.match.home_channel_id is None:
            files += await self._match_files(report)
        content, pinged = message_content(report, notify, language, notes)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": mentions_for(pinged)}
        if files:
            kwargs["files"] = files
        web = WebLinks.of(self.bot).items(report.match, language)
        view = view_for(report.match, language, web)
        if view is not None and not (report.match_over and report.match.home_channel_id):
            kwargs["view"] = view
        return kwargs

    async def _post(
        self,
        channel: discord.abc.Messageable,
        report: Report,
        requester: int | None,
        language: str,
    ) -> None:
        message = await channel.send(**await self._message(report, requester, language))
        await self._note_board(report, message)

    async def _note_board(self, report: Report, message: discord.Message) -> None:
        """Remember the latest board (for /games' links). The board is out already, so a
        failure here costs only the link: it is logged, never raised or swallowed."""
        if report.boards and report.match.live:
            try:
                await self.services.club.note_board(report.match.id, message.channel.id, message.id)
            except Exception:
                log.exception("could not note the board of match %s", report.match.id)

    # --- threads and match files ---------------------------------------------------------

    async def _open_thread(
        self, reply: Reply, report: Report, language: str, notes: list[Text]
    ) -> discord.Thread | None:
        """A public thread for an accepted game, when the server asks for one; else None.

        Without the permission (or if Discord refuses) the game stays in the channel and the
        players are told why (a line added to ``notes``).
        """
        interaction = reply.interaction
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel) or interaction.guild_id is None:
            return None
        if not (await self.services.club.guild_settings(interaction.guild_id)).threads:
            return None
        first, second = report.match.player_names  # a thread's name shows no markdown
        names = say(notices.thread_name(first, second), language)
        permissions = interaction.app_permissions
        if not (permissions.create_public_threads and permissions.send_messages_in_threads):
            notes.append(notices.THREADS_MISSING)
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
            notes.append(notices.THREADS_MISSING)
            return None

    async def _close_thread(self, report: Report, language: str) -> None:
        """Announce a thread game's result in its home channel, then archive the thread."""
        row = report.match
        if row.home_channel_id is None:
            return
        home = self.bot.get_channel(row.home_channel_id)
        thread = self.bot.get_channel(row.channel_id)
        # The dice secret (the line that reveals it: present.reveal_line) stays in the thread.
        told = present.tell(report, safe_name)
        lines = [line for line in told if "secret" not in line.params]
        text = (
            " ".join(say(line, language) for line in lines[-2:])
            if lines
            else say(notices.MATCH_OVER, language)
        )
        if isinstance(home, discord.abc.Messageable):
            files = await self._match_files(report)
            view = view_for(row, language)
            where = notices.played_in(
                thread.mention if isinstance(thread, discord.Thread) else None
            )
            kwargs: dict[str, Any] = {
                "content": present.fit(f"{text}\n({say(where, language)})"),
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
            row, text = await self.services.club.match_file(
                report.match.guild_id, report.match.channel_id, report.match.id
            )
        except UserError:
            return []  # a match no file can say (played on from a position)
        except Exception:
            log.exception("could not export match %s", report.match.id)
            return []
        return [text_file(text, mat_filename(row))]

    async def match_export(
        self,
        guild_id: int,
        channel_id: int,
        match_id: int | None,
        format: str,
        language: str,
        visible: Callable[[MatchRow], Awaitable[bool]] | None = None,
    ) -> tuple[MatchRow, dict[str, Any]]:
        """The /export answer, in ``language``: a match as a file for GNU Backgammon (and the
        match, so the command can tell where it was played); ``visible``: see
        :meth:`bot.core.club.ClubService.match_file`."""
        row, text = await self.services.club.match_file(
            guild_id, channel_id, match_id, format, visible=visible
        )
        caption = notices.export_caption(row.id, versus(row))
        return row, {
            "content": say(caption, language),
            "file": text_file(text, mat_filename(row, format)),
            "allowed_mentions": NO_MENTIONS,
        }

    # --- charts and reviews --------------------------------------------------------------

    async def stats(self, guild_id: int, user: discord.abc.User, language: str) -> dict[str, Any]:
        """A player's record on this server in ``language``: results, their PR over the
        rated matches recorded in full and their luck there, with their rating chart and
        their PR chart when they have them, and a line for their games outside servers; for
        ``guild_id`` 0, their record outside servers."""
        stats = await self.session.stats(guild_id, user.id)
        record = await self.services.reviews.computer_results(guild_id, user.id)
        performance = await self.services.performance.player(guild_id, user.id)
        name = safe_name(user.display_name)
        server = bool(guild_id)  # 0: their games outside servers (DMs, servers without the bot)
        text = present.stats_text(stats, name, language=language, server=server)
        played = record_lines(performance, language=language)
        if played:
            text += "\n" + played
        if record:
            text += "\n" + present.computer_record_text(record, language=language)
        if server:
            elsewhere = await self.session.stats(0, user.id)
            line = present.elsewhere_line(elsewhere, language=language)
            if line is not None:
                text += "\n" + line
        title = say(notices.record_title(name), language)
        embed = discord.Embed(title=title, description=text)
        embeds, files = [embed], []
        labels = present.chart_labels(language)
        history = await self.services.reviews.rating_history(guild_id, user.id)
        if history:
            png = await self.services.workers.lane_call(
                functools.partial(rating_chart, history, name=user.display_name, labels=labels)
            )
            files.append(png_file(png, "rating.png"))
            embed.set_image(url="attachment://rating.png")
        points = performance.history
        if points:
            png = await self.services.workers.lane_call(
                functools.partial(pr_chart, points, name=user.display_name, labels=labels)
            )
            files.append(png_file(png, "pr.png"))
            if history:  # one picture an embed: the PR chart in an embed of its own
                embeds.append(discord.Embed().set_image(url="attachment://pr.png"))
            else:
                embed.set_image(url="attachment://pr.png")
        answer: dict[str, Any] = {"embeds": embeds, "allowed_mentions": NO_MENTIONS}
        if files:
            answer["files"] = files
        return answer

    async def analysis(self, review: Review, language: str) -> dict[str, Any]:
        """The last game's error rates and luck, its win-chance chart and worst mistakes,
        in ``language``."""
        row, analyses = review.match, review.analyses
        names = (safe_name(row.player_names[0]), safe_name(row.player_names[1]))
        money = row.options.is_money
        text = present.analysis_text(names, analyses, review.luck, money=money, language=language)
        boards = [m.game for result in analyses.values() for m in result.mistakes]
        report = Report(Action.ANALYZE, row, boards[:MISTAKE_BOARDS])
        files = await self.render(report, last_play=False, language=language, lane=True)
        if review.luck.games:  # a game with no roll at all has no chart
            inputs = review.luck.games[-1].chart_inputs()
            chart = await self.services.workers.lane_call(
                functools.partial(
                    win_chance_chart,
                    **inputs,
                    names=row.player_names,
                    labels=present.chart_labels(language),
                )
            )
            files.insert(0, png_file(chart, "game-chart.png"))
        return {"content": text, "files": files, "allowed_mentions": NO_MENTIONS}

    async def _review_finished_game(self, report: Report) -> None:
        """After a game ends, post both players' luck and error rates (in the background).

        The review is stored as owed first: a stop before it is posted (a restart, a crash,
        the analysis lane still busy at shutdown) only delays it to the next start
        (:meth:`resume_reviews`).
        """
        if not self.game_reviews or report.finished is None:
            return
        if not report.match.venue.reachable:
            return  # nowhere to post it later (a DM game): /backgammon analyze is there
        over = [game for game in report.boards if game.phase is Phase.OVER]
        if not over or not computer_available():
            return
        row, number = report.match, over[-1].game_number
        try:
            await self.services.reviews.queue_review(row, number)
        except Exception:  # the game is stored and posted: the review alone is at risk
            log.exception("could not store the review owed for match %s", row.id)
        self._start_review(row, number)

    def _start_review(self, row: MatchRow, game_number: int) -> None:
        key = (row.id, game_number)
        if key in self._reviewing:
            return  # being posted already (a second ready after a reconnect)
        self._reviewing.add(key)
        task = asyncio.create_task(self._post_review(row, game_number))
        self._background.add(task)

        def done(task: asyncio.Task[None]) -> None:
            self._background.discard(task)
            self._reviewing.discard(key)

        task.add_done_callback(done)

    async def resume_reviews(self) -> int:
        """Post the reviews owed since before this start (on this process's servers); the
        count started. With reviews turned off (or no evaluator) they stay owed, unposted."""
        if not self.game_reviews or not computer_available():
            return 0
        started = 0
        for row, number in await self.services.reviews.pending_reviews():
            if self.bot.get_guild(row.guild_id) is None:
                continue  # another shard's server (or one the bot has left)
            self._start_review(row, number)
            started += 1
        return started

    def stop_reviews(self) -> None:
        """Stop the reviews being worked out: they stay owed, and the next start posts them."""
        for task in list(self._background):
            task.cancel()

    async def _post_review(self, row: MatchRow, game_number: int) -> None:
        try:
            review = await self.services.reviews.review(row, game_number)
            channel = self.bot.get_channel(row.channel_id)
            if review.luck.players and isinstance(channel, discord.abc.Messageable):
                names = (safe_name(row.player_names[0]), safe_name(row.player_names[1]))
                language = await self.language(row.guild_id)
                title = say(notices.review_title(game_number), language)
                luck = present.luck_lines(
                    names,
                    review.luck,
                    review.analyses,
                    money=row.options.is_money,
                    language=language,
                )
                text = f"{title}\n{luck}"
                await channel.send(content=present.fit(text), allowed_mentions=NO_MENTIONS)
            # Posted, or nothing to post (no luck to tell, the channel is gone): settled.
            await self.services.reviews.review_posted(row, game_number)
        except asyncio.CancelledError:
            raise  # a stop: still owed, posted at the next start
        except Exception:
            # Still owed: the next start tries again (a worker that died, Discord refusing).
            log.exception("could not review game %s of match %s", game_number, row.id)

    # --- turn reminders ------------------------------------------------------------------

    def start_reminders(self) -> None:
        self._reminders = asyncio.create_task(self._remind_forever(), name="reminders")

    def stop_reminders(self) -> None:
        if self._reminders is not None:
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
        that long on their turn: once a turn. The count sent.

        A reminder is marked sent only once Discord has it: one that could not be sent (a
        Discord outage) is tried again at the next round. Only a channel that refuses the
        bot for good (no access, deleted) marks it without sending, so it is not retried
        every minute for ever.
        """
        sent = 0
        for row, user_id in await self.services.club.due_reminders():
            channel = self.bot.get_channel(row.channel_id)
            if not isinstance(channel, discord.abc.Messageable):
                continue
            fresh = await self.services.club.match(row.id)
            if (
                fresh is None
                or fresh.version != row.version
                or fresh.notified_version == row.version
            ):
                continue  # the player acted meanwhile, or was reminded (another process)
            language = await self.language(row.guild_id)
            idle = self.session.clock() - row.last_action_at
            text = reminder_text(row, user_id, idle, language)
            try:
                await channel.send(content=text, allowed_mentions=mentions_for([user_id]))
            except (discord.Forbidden, discord.NotFound) as exc:
                log.warning("cannot remind %s in %s: %s", user_id, row.channel_id, exc)
            except discord.HTTPException:
                log.exception(
                    "could not remind %s in %s; trying again later", user_id, row.channel_id
                )
                continue
            else:
                sent += 1
            await self.services.club.note_reminded(row)
        return sent
