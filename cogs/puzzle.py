"""The ``/puzzle`` commands: the server's own mistakes as puzzles (issue 29).

A top-level group of its own (``/backgammon`` is near Discord's 25 subcommands):

- ``/puzzle get``: a puzzle, privately: its board from the side of the player to act (dice,
  score, cube), the question, and the way to answer: for a checker play the tap picker of
  :mod:`cogs.picker` (its choices from :mod:`bot.engine.steps`, its views and tap logic
  reused with ids of our own), for a cube decision one button per answer;
- ``/puzzle answer play``: the same answer typed, with the autocomplete of
  ``/backgammon move``;
- ``/puzzle leaderboard``; ``/puzzle daily`` (Manage Server): the daily puzzle's channel
  and time (UTC), and whether puzzles name the players and link their match.

Every answer is graded and revealed privately. The daily puzzle is posted with an Answer
button (which opens the puzzle privately for whoever presses it) and revealed a day later,
behind spoilers, with who solved it; a loop asks the service every minute what is due (the
service's clock decides, so a test moves it and calls :meth:`Puzzles.daily_tick`). What is
due is kept in the store, so a restart posts and reveals what it missed.

Restart-proof: every component's ``custom_id`` carries what it acts on
(``bgpz:<verb>:<puzzle>:0:<steps>[:<source>]`` for the picker, ``bgpz:x:<puzzle>:<answer>``
for a cube answer, ``bgpz:n:<post>`` for the daily Answer). A puzzle gone (its player kept
their games out) or a daily puzzle already revealed is refused privately; the puzzle
messages are private, so nobody else can press them.

May import: discord, :mod:`bot.services` and the values it hands out,
:mod:`bot.features.puzzles.rules`,
:mod:`bot.engine`, :mod:`bot.i18n`, :mod:`bot.present`, and the other ``cogs`` modules.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.errors import Refusal, StaleButtonError, UserError
from bot.core.records import UserSettings
from bot.engine.steps import PartialPlay, StepError, decode_steps, encode_steps
from bot.features.puzzles.rules import CubeAnswer, Puzzle, PuzzleKind
from bot.features.puzzles.rules.evaluate import game_of
from bot.features.puzzles.service import Answered, DailyPost, Given, SourceLink
from bot.i18n import _, language_of, say
from bot.present import picker as picker_words
from bot.present import puzzle_words as words
from bot.present.puzzles import CUBE_ANSWER_WORDS
from bot.services import Services
from cogs.helpers import play_choices
from cogs.kit import Kit
from cogs.picker import PickerButton, PickerReply, PickerSelect, Tap, TapVerb, advance, picker_view
from cogs.puzzle_pictures import PuzzlePictures
from cogs.replies import Reply, safe_name
from cogs.scope import GuildReaders, InteractionReaders
from cogs.translator import locale, pgettext

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
Work = Callable[[Reply], Awaitable[None]]

PREFIX = "bgpz"
TICK_SECONDS = 60.0  # how often the daily loop asks what is due
TIME = re.compile(r"^\s*([01]?[0-9]|2[0-3])[:h.]([0-5][0-9])\s*$")

# Names in the command tree, marked for the catalogue (cogs/translator.py reads them).
NAMES = (
    pgettext("command", "puzzle"),
    pgettext("command", "get"),
    pgettext("command", "answer"),
    pgettext("command", "daily"),
    pgettext("option", "play"),
    pgettext("option", "channel"),
    pgettext("option", "time"),
    pgettext("option", "names"),
    pgettext("option", "off"),
)

_ID = (
    PREFIX + r":(?P<verb>[{verbs}]):(?P<match>[0-9]{{1,19}}):(?P<version>[0-9]{{1,12}}):"
    r"(?P<steps>[a-z1-6.]{{0,16}})(?::(?P<source>[0-9]{{1,2}}))?"
)


def _puzzles(interaction: Interaction) -> Puzzles | None:
    cog = interaction.client.get_cog("Puzzles")
    return cog if isinstance(cog, Puzzles) else None


async def _dispatch(interaction: Interaction, tap: Tap, values: list[str]) -> None:
    cog = _puzzles(interaction)
    if cog is None:  # pragma: no cover - the cog is always loaded with its components
        return
    reply = PickerReply(interaction, tap)
    await cog.guarded(interaction, lambda r: cog.tap(interaction, reply, values), reply=reply)


class PuzzleButton(PickerButton, template=_ID.format(verbs="urc")):
    """The puzzle picker's Undo, Reset and Confirm."""

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PuzzleButton:
        return cls(Tap.parse(match, PREFIX))

    async def callback(self, interaction: Interaction) -> None:
        await _dispatch(interaction, self.tap, [])


class PuzzleSelect(PickerSelect, template=_ID.format(verbs="sda")):
    """The puzzle picker's menus: a checker, its destination, a whole play."""

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PuzzleSelect:
        return cls(Tap.parse(match, PREFIX))

    async def callback(self, interaction: Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        await _dispatch(interaction, self.tap, [str(v) for v in data.get("values", [])])


class CubeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=PREFIX + r":x:(?P<puzzle>[0-9]{1,19}):(?P<answer>[a-z_]{1,12})",
):
    """One answer to a cube puzzle."""

    def __init__(self, puzzle_id: int, answer: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or answer,
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:x:{puzzle_id}:{answer}",
            )
        )
        self.puzzle_id = puzzle_id
        self.answer = answer  # checked against the puzzle's answers when pressed

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CubeButton:
        return cls(int(match["puzzle"]), match["answer"])

    async def callback(self, interaction: Interaction) -> None:
        cog = _puzzles(interaction)
        if cog is None:  # pragma: no cover
            return
        puzzle_id, answer = self.puzzle_id, self.answer
        await cog.guarded(
            interaction,
            lambda r: cog.cube_answer(interaction, puzzle_id, answer),
            reply=Reply(interaction, pressed=True),
        )


class DailyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=PREFIX + r":n:(?P<post>[0-9]{1,19})",
):
    """The daily post's Answer: the puzzle, privately, for whoever presses it."""

    def __init__(self, post_id: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or "Answer",
                style=discord.ButtonStyle.success,
                custom_id=f"{PREFIX}:n:{post_id}",
            )
        )
        self.post_id = post_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DailyButton:
        return cls(int(match["post"]))

    async def callback(self, interaction: Interaction) -> None:
        cog = _puzzles(interaction)
        if cog is None:  # pragma: no cover
            return
        reply = Reply(interaction, private=True)
        await cog.guarded(
            interaction, lambda r: cog.open_daily(interaction, r, self.post_id), reply=reply
        )


COMPONENTS = (PuzzleButton, PuzzleSelect, CubeButton, DailyButton)


def _source_of(source: SourceLink | None) -> tuple[tuple[str, str] | None, str | None]:
    """The source match's players (escaped) and link, only where the server names them."""
    if source is None:
        return None, None
    names = (safe_name(source.names[0]), safe_name(source.names[1]))
    return names, f"https://discord.com/channels/{source.guild_id}/{source.channel_id}"


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)  # a club's: never a user install
class Puzzles(
    commands.GroupCog,
    group_name="puzzle",
    group_description=locale(_("Puzzles from this server's own games")),
):
    """Puzzles made from the mistakes of this server's finished games."""

    def __init__(self, bot: commands.Bot, services: Services, kit: Kit) -> None:
        self.bot = bot
        self.services = services
        self.kit = kit
        self.puzzles = services.puzzles
        self.pictures = PuzzlePictures(services)  # drawn once, kept: boards never change
        self._loop: asyncio.Task[None] | None = None
        self.tick_seconds = TICK_SECONDS
        super().__init__()

    async def cog_load(self) -> None:
        self.puzzles.start()  # and the matches queued before a restart
        self._loop = asyncio.create_task(self._daily_loop())

    async def cog_unload(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
        await self.puzzles.close()

    # --- the guard ------------------------------------------------------------------------

    async def guarded(
        self, interaction: Interaction, work: Work, *, reply: Reply | None = None
    ) -> None:
        """Run a handler inside the bot's guard (:mod:`cogs.kit`): counted in flight (a stop
        waits for it), refused while the bot stops, any error to the tree's one
        ``on_error`` (always private)."""
        await self.kit.run(interaction, work, reply=reply, private=True)

    # --- showing a puzzle -----------------------------------------------------------------

    def _view(self, puzzle_id: int, puzzle: Puzzle, language: str) -> discord.ui.View:
        if puzzle.kind is PuzzleKind.CHECKER_PLAY:
            game = game_of(puzzle)
            assert game.dice is not None
            partial = PartialPlay(game.position, game.dice)
            state = Tap(TapVerb.OPEN, puzzle_id, 0, "", prefix=PREFIX)
            return picker_view(
                state,
                partial,
                None,
                language,
                button=PuzzleButton,
                select=PuzzleSelect,
                resign=False,
            )
        view = discord.ui.View(timeout=None)
        for item in sorted(puzzle.candidates, key=lambda c: c.answer):
            answer = CubeAnswer(item.answer)
            label = say(CUBE_ANSWER_WORDS[answer], language)
            view.add_item(CubeButton(puzzle_id, str(answer), label))
        return view

    def _given_text(self, given: Given, language: str) -> str:
        names, link = _source_of(given.source)
        return words.given_text(
            given.puzzle, own=given.own, names=names, link=link, language=language
        )

    async def _show(
        self,
        reply: Reply,
        given: Given,
        user_id: int,
        language: str,
        settings: UserSettings | None = None,
    ) -> None:
        picture = await self.pictures.picture(
            given.puzzle_id, game_of(given.puzzle), user_id, language, settings=settings
        )
        await reply.private(
            content=self._given_text(given, language),
            file=picture,
            view=self._view(given.puzzle_id, given.puzzle, language),
        )

    # --- commands -------------------------------------------------------------------------

    @app_commands.command(name="get", description=locale(_("A puzzle from this server's games")))
    async def get(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            user = interaction.user.id
            given, settings = await asyncio.gather(
                self.puzzles.next_for(
                    interaction.guild_id or 0, user, InteractionReaders(interaction)
                ),
                self.services.club.user_settings(user),
            )
            await self._show(reply, given, user, language_of(interaction.locale), settings)

        await self.guarded(interaction, work)

    @app_commands.command(name="answer", description=locale(_("Answer your puzzle with a play")))
    @app_commands.describe(
        play=locale(_("Your play in standard notation; pick one of the legal plays"))
    )
    async def answer(self, interaction: Interaction, play: str) -> None:
        async def work(reply: Reply) -> None:
            answered = await self.puzzles.answer(
                interaction.guild_id or 0, interaction.user.id, None, play
            )
            await reply.private(content=self._outcome(answered, interaction))

        await self.guarded(interaction, work)

    @answer.autocomplete("play")
    async def answer_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            plays = await self.puzzles.play_texts(interaction.guild_id or 0, interaction.user.id)
        except Exception:
            log.exception("puzzle autocomplete failed")
            return []
        return [
            app_commands.Choice(name=name, value=value)
            for name, value in play_choices(plays, current[:200])
        ]

    @app_commands.command(
        name="leaderboard", description=locale(_("This server's best puzzle solvers"))
    )
    async def leaderboard(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            rows = await self.puzzles.leaderboard(interaction.guild_id or 0)
            language = await self._server_language(interaction.guild_id or 0)
            text = words.leaderboard_text(rows, name=lambda uid: f"<@{uid}>", language=language)
            embed = discord.Embed(
                title=say(words.LEADERBOARD_TITLE, language), description=text[:4000]
            )
            await reply.send(embed=embed)

        await self.guarded(interaction, work, reply=Reply(interaction))

    @app_commands.command(
        name="daily", description=locale(_("Moderators: the daily puzzle's channel and time"))
    )
    @app_commands.describe(
        channel=locale(_("Where the daily puzzle is posted")),
        time=locale(_("When, as HH:MM in UTC (default 09:00)")),
        names=locale(_("Name the players of the source match and link it (default off)")),
        off=locale(_("Stop the daily puzzle")),
    )
    async def daily(
        self,
        interaction: Interaction,
        channel: discord.TextChannel | None = None,
        time: str | None = None,
        names: Literal["on", "off"] | None = None,
        off: bool = False,
    ) -> None:
        async def work(reply: Reply) -> None:
            if not interaction.permissions.manage_guild:
                raise UserError(words.NOT_ADMIN)
            guild_id = interaction.guild_id or 0
            minute: int | None = None
            if time is not None:
                found = TIME.match(time)
                if found is None:
                    raise UserError(Refusal.DAILY_TIME_FORMAT)
                minute = int(found[1]) * 60 + int(found[2])
            current = await self.puzzles.settings(guild_id)
            target = None if off else (channel.id if channel is not None else current.channel_id)
            if target is None and not off and channel is None and minute is None and names is None:
                raise UserError(Refusal.DAILY_CHANNEL)
            if minute is None and current.channel_id is None:
                minute = 9 * 60
            settings = await self.puzzles.set_daily(
                guild_id,
                channel_id=target,
                minute=minute,
                name_players=None if names is None else names == "on",
            )
            shown = None if settings.channel_id is None else f"<#{settings.channel_id}>"
            await reply.private(
                content=words.settings_text(
                    shown,
                    settings.minute,
                    settings.name_players,
                    language=language_of(interaction.locale),
                )
            )

        await self.guarded(interaction, work)

    # --- answering ------------------------------------------------------------------------

    def _outcome(self, answered: Answered, interaction: Interaction) -> str:
        return words.outcome_text(
            answered.verdict,
            rated=answered.rated,
            before=answered.before,
            after=answered.after,
            solved=answered.solved,
            days=answered.days,
            language=language_of(interaction.locale),
        )

    async def tap(self, interaction: Interaction, reply: PickerReply, values: list[str]) -> None:
        """A tap in a puzzle's picker: choose, undo, reset; Confirm grades the play."""
        tap = reply.tap
        guild_id = interaction.guild_id or 0
        # As shown to this solver: each redraw says what the puzzle said when it opened
        # (their own mistake; the source where the server names players).
        given = await self.puzzles.given(guild_id, interaction.user.id, tap.match_id)
        puzzle = given.puzzle
        if puzzle.kind is not PuzzleKind.CHECKER_PLAY:
            raise StaleButtonError(picker_words.GONE)
        game = game_of(puzzle)
        assert game.dice is not None
        try:
            partial = PartialPlay(game.position, game.dice, decode_steps(tap.steps))
        except StepError as exc:
            raise StaleButtonError(picker_words.GONE) from exc
        language = language_of(interaction.locale)
        if tap.verb is TapVerb.CONFIRM:
            if not partial.complete:
                raise StaleButtonError(picker_words.GONE)
            answered = await self.puzzles.answer(
                guild_id, interaction.user.id, tap.match_id, str(partial.play())
            )
            await reply.show(new=False, content=self._outcome(answered, interaction), view=None)
            return
        partial, source = advance(partial, tap, values)
        state = Tap(TapVerb.OPEN, tap.match_id, 0, encode_steps(partial.groups), prefix=PREFIX)
        view = picker_view(
            state, partial, source, language, button=PuzzleButton, select=PuzzleSelect, resign=False
        )
        status = say(picker_words.status_line(partial, game.dice), language)
        picture = await self.pictures.picture(
            tap.match_id, game, interaction.user.id, language, partial
        )
        text = self._given_text(given, language) + "\n" + status
        await reply.show(new=False, content=text, attachments=[picture], view=view)

    async def cube_answer(self, interaction: Interaction, puzzle_id: int, answer: str) -> None:
        answered = await self.puzzles.answer(
            interaction.guild_id or 0, interaction.user.id, puzzle_id, answer
        )
        content = self._outcome(answered, interaction)
        if not interaction.response.is_done():
            await interaction.response.edit_message(content=content, view=None)
        else:
            await interaction.edit_original_response(content=content, view=None)

    async def open_daily(self, interaction: Interaction, reply: Reply, post_id: int) -> None:
        guild_id = interaction.guild_id or 0
        post = await self.puzzles.daily_post(guild_id, post_id)
        user = interaction.user.id
        given = await self.puzzles.given(guild_id, user, post.puzzle_id)  # refused if it left
        await self.puzzles.puzzles.give(guild_id, user, post.puzzle_id, self.puzzles.clock())
        await self._show(reply, given, user, language_of(interaction.locale))

    # --- the daily puzzle -----------------------------------------------------------------

    async def _server_language(self, guild_id: int) -> str:
        chosen = (await self.services.club.guild_settings(guild_id)).language
        if chosen is not None:
            return chosen
        guild = self.bot.get_guild(guild_id)
        return language_of(guild.preferred_locale if guild is not None else None)

    async def _daily_loop(self) -> None:
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.daily_tick()
            except Exception:
                log.exception("the daily puzzle round failed; trying again next minute")
            await asyncio.sleep(self.tick_seconds)

    async def daily_tick(self) -> tuple[int, int]:
        """Post the daily puzzles due and reveal those whose day is over (the service's
        clock decides); (posted, revealed)."""
        posted = revealed = 0
        readers = GuildReaders(self.bot)
        for post, given in await self.puzzles.due_posts(readers):
            language = await self._server_language(post.guild_id)
            channel = self.bot.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
            view = discord.ui.View(timeout=None)
            view.add_item(DailyButton(post.id, say(words.ANSWER, language)))
            picture = await self.pictures.picture(
                given.puzzle_id, game_of(given.puzzle), None, language
            )
            names, link = _source_of(given.source)
            try:
                message = await channel.send(
                    content=words.daily_text(
                        given.puzzle, names=names, link=link, language=language
                    ),
                    file=picture,
                    view=view,
                )
            except (discord.Forbidden, discord.NotFound) as exc:
                # The channel is gone or closed to the bot: asking every minute would never
                # work. The daily puzzle stops; /puzzle daily starts it again.
                log.warning("daily puzzle stopped in %s: %s", post.channel_id, exc)
                await self.puzzles.stop_daily(post.guild_id, post.id)
                continue
            except discord.HTTPException as exc:
                log.warning("could not post the daily puzzle in %s: %s", post.channel_id, exc)
                continue  # claimed, not sent: sent on the next round
            await self.puzzles.post_sent(post.id, message.id)
            posted += 1
        for reveal in await self.puzzles.due_reveals(readers):
            post = reveal.post
            channel = self.bot.get_partial_messageable(post.channel_id, guild_id=post.guild_id)
            if reveal.puzzle is not None:
                language = await self._server_language(post.guild_id)
                names, link = _source_of(reveal.source)
                text = words.reveal_text(
                    reveal.puzzle,
                    reveal.solvers,
                    name=lambda uid: f"<@{uid}>",
                    names=names,
                    link=link,
                    language=language,
                )
                try:
                    await channel.send(content=text)
                except discord.HTTPException as exc:
                    log.warning("could not reveal the daily puzzle in %s: %s", post.channel_id, exc)
                    continue
                revealed += 1
            elif post.message_id is not None and not await self._withdraw(post, channel):
                continue  # tried again next round
            await self.puzzles.revealed(post.id)
            if reveal.puzzle is not None and post.message_id is not None:
                with contextlib.suppress(discord.HTTPException):  # the button goes with the day
                    await channel.get_partial_message(post.message_id).edit(view=None)
        return posted, revealed

    async def _withdraw(self, post: DailyPost, channel: discord.PartialMessageable) -> bool:
        """A player of the puzzle's match kept their games out since it was posted: the
        post loses its board, its words (and any names) and its button at once, and its
        answer never comes. False when Discord could not be asked (tried again)."""
        assert post.message_id is not None
        language = await self._server_language(post.guild_id)
        try:
            await channel.get_partial_message(post.message_id).edit(
                content=say(words.WITHDRAWN, language), attachments=[], view=None
            )
        except (discord.Forbidden, discord.NotFound):
            return True  # deleted, or beyond the bot's reach: nothing more it can do
        except discord.HTTPException as exc:
            log.warning("could not withdraw the daily puzzle %s: %s", post.id, exc)
            return False
        return True


async def setup(bot: commands.Bot) -> None:
    """The extension's entry (``bot.load_extension("cogs.puzzle")``): /puzzle and the
    puzzle's restart-proof buttons and menus."""
    await bot.add_cog(Puzzles(bot, bot.services, bot.kit))  # type: ignore[attr-defined]
    bot.add_dynamic_items(*COMPONENTS)


__all__ = [
    "COMPONENTS",
    "NAMES",
    "CubeButton",
    "DailyButton",
    "PuzzleButton",
    "PuzzleSelect",
    "Puzzles",
]
