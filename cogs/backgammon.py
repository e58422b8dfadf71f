"""The ``/backgammon`` command group: each handler turns an interaction into a session call.

Owns the slash commands (thin adapters: read the options, call the session, hand the report
to the :class:`~cogs.publishing.Publisher`); a game action, from a command, a button or the
tap picker, names its :class:`~bot.core.records.Action` and goes through the bot's front-end kit
(:meth:`cogs.kit.Kit.perform`) to the session's one entry, its action table, inside the
kit's guard (the in-flight count the bot drains on shutdown, the acknowledgement watchdog,
errors to the command tree's one ``on_error``).

Languages: what only the person acting sees (private replies, errors) is in their Discord
locale (``interaction.locale``); everything public is in the server's language
(:meth:`cogs.publishing.Publisher.language`). Command names and descriptions are translated
by :class:`cogs.translator.CommandTranslator`, installed before the commands are synced.

May import: discord, :mod:`bot.core.session` and the records it uses (:mod:`bot.engine`,
:mod:`bot.core.records`, :mod:`bot.core.errors`), :mod:`bot.i18n`, :mod:`bot.present`, and the
``cogs`` modules that are not cogs (the kit, the publisher, views, helpers). Loaded as an
extension (:func:`setup`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import present
from bot.core.errors import Refusal, UserError
from bot.core.records import Action, ClaimRule, Venue, WebLinkRule
from bot.core.session import ActionContext, Player, Report
from bot.engine import MatchOptions, ResultKind
from bot.features.performance.rules import MIN_DECISIONS
from bot.i18n import LANGUAGE_NAMES, Text, _, language_of, say
from bot.present import notices
from bot.present import performance as performance_words
from bot.present import tournaments as tournament_words
from bot.present.puzzle_words import kept_out_line
from bot.services import Services
from cogs import positions
from cogs.helpers import (
    board_report,
    games_text,
    play_choices,
    player_of,
    settings_text,
    verify_words,
    versus,
)
from cogs.kit import Kit
from cogs.picker import PickerButton, PickerSelect
from cogs.positions import PositionButton
from cogs.publishing import Publisher
from cogs.replies import NO_MENTIONS, Reply, code_safe, safe_name
from cogs.scope import can_view, same_place
from cogs.translator import locale, pgettext
from cogs.views import ActionButton, ResignSelect
from cogs.weblinks import LaunchButton, WebLinks, launch
from cogs.where import answers_are_private, home_guild, venue_of

log = logging.getLogger(__name__)

# Discord's integer options stop at 2^53-1 (JavaScript's safe integers): a larger bound
# makes it refuse the whole command sync (400 50035), and the bot would not start.
MAX_MATCH_NUMBER = 2**53 - 1
LANGUAGE_CHOICES = [
    app_commands.Choice(name="the server's Discord language", value="auto"),
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGE_NAMES.items()),
]

Interaction = discord.Interaction[Any]


class ProgressLine:
    """The line an analysis shows while it runs: games done of the total, updated at most
    every :data:`PROGRESS_EVERY` seconds, and only once the work has taken longer than
    :data:`PROGRESS_AFTER` (a quick one shows its result alone); it ends saying how long."""

    def __init__(self, reply: Reply, match_id: int, language: str) -> None:
        self.reply = reply
        self.match_id = match_id
        self.language = language
        self.started = time.monotonic()
        self.shown_at: float | None = None
        self.last = (0, 0)

    async def __call__(self, done: int, total: int) -> None:
        self.last = (done, total)
        now = time.monotonic()
        if now - self.started < PROGRESS_AFTER:
            return
        if self.shown_at is not None and now - self.shown_at < PROGRESS_EVERY:
            return
        self.shown_at = now
        line = notices.analysis_progress(self.match_id, done, total)
        await self.reply.progress(say(line, self.language))

    async def close(self) -> None:
        """The last word: every game done, in how long (only if the line was shown)."""
        if self.shown_at is None:
            return
        _done, total = self.last
        seconds = round(time.monotonic() - self.started)
        line = notices.analysis_done(self.match_id, total, seconds)
        await self.reply.progress(say(line, self.language))


PROGRESS_AFTER = 2.0  # seconds before an analysis shows its progress
PROGRESS_EVERY = 1.5  # seconds between two updates of the line


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class Backgammon(
    commands.GroupCog,
    group_name="backgammon",
    group_description=locale(_("Play backgammon")),
):
    """Backgammon for the members of a server, and, with the app installed to a player's
    account, in their DMs, group DMs and servers without the bot (:mod:`cogs.where`): there
    a game lives on buttons alone, and what needs a server that added the bot (its
    leaderboard, its dice, its settings, a moderator's cancel, the Activity) says so."""

    def __init__(self, bot: commands.Bot, services: Services, kit: Kit) -> None:
        self.bot = bot
        self.services = services
        self.session = services.session
        self.kit = kit
        settings = getattr(bot, "settings", None)
        self.leaderboard_min_matches = getattr(settings, "leaderboard_min_matches", 1)
        self.pr_min_decisions = getattr(settings, "pr_min_decisions", MIN_DECISIONS)
        super().__init__()
        if not WebLinks.of(bot).activity and self.app_command is not None:
            self.app_command.remove_command("play-here")  # no Activity: no command for it

    @property
    def publisher(self) -> Publisher:
        """Where reports are published (the bot's, in its front-end kit)."""
        return self.kit.publisher

    async def send_reminders(self) -> int:
        """Remind players who have waited long enough on their turn; the count sent."""
        return await self.publisher.send_reminders()

    async def _language(self, interaction: Interaction) -> str:
        """The language of a public answer: the server's (see the module's docstring); in a
        DM or group DM, the caller's."""
        return await self.publisher.language(
            home_guild(interaction), interaction.guild_locale or interaction.locale
        )

    @property
    def _renderer(self) -> Callable[..., bytes] | None:
        """The board renderer (tests swap it); it lives on the publisher."""
        return self.publisher.renderer

    @_renderer.setter
    def _renderer(self, renderer: Callable[..., bytes] | None) -> None:
        self.publisher.renderer = renderer

    def _computer(self) -> Player | None:
        """The bot itself as a player (the computer opponent)."""
        return self.kit.computer()

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
        _refuse_private_answers(interaction)
        return await self.session.play_computer(
            home_guild(interaction),
            interaction.channel_id or 0,
            player_of(interaction.user),
            computer,
            MatchOptions(length=length, cube=cube),
            level=level,
            ctx=ctx,
            venue=venue_of(interaction),
        )

    # --- commands ------------------------------------------------------------------------

    @app_commands.command(
        name="challenge", description=locale(_("Challenge someone to a game or match"))
    )
    @app_commands.describe(
        opponent=locale(_("Who you want to play")),
        length=locale(_("0 for a single money game (default), or a match to 1-25 points")),
        cube=locale(_("Play with the doubling cube (default: yes)")),
        rated=locale(_("Count the result on the leaderboard (default: yes)")),
        autoplay=locale(_("Let the bot make a roll's only legal play (default: no)")),
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
        await self.kit.act(
            interaction,
            lambda ctx: self._challenge(interaction, opponent, ctx, length, cube, rated, autoplay),
        )

    async def challenge_user(self, interaction: Interaction, user: discord.User) -> None:
        """The user command "Challenge to backgammon" (Apps, on a person): a money game with
        the cube, from anywhere the app is (a server, a DM, a group DM); on the bot itself,
        a game against the computer."""
        await self.kit.act(interaction, lambda ctx: self._challenge(interaction, user, ctx))

    async def _challenge(
        self,
        interaction: Interaction,
        opponent: discord.abc.User,
        ctx: ActionContext,
        length: int = 0,
        cube: bool = True,
        rated: bool = True,
        autoplay: bool = False,
    ) -> Report:
        if self.bot.user is not None and opponent.id == self.bot.user.id:
            return await self._start_computer(interaction, None, length, cube, ctx)
        _refuse_private_answers(interaction)
        return await self.session.challenge(
            home_guild(interaction),
            interaction.channel_id or 0,
            player_of(interaction.user),
            player_of(opponent),
            MatchOptions(length=length, cube=cube),
            rated=rated,
            auto_play=autoplay,
            venue=venue_of(interaction),
        )

    @app_commands.command(name="play", description=locale(_("Play against the computer")))
    @app_commands.describe(
        level=locale(_("How strong the computer plays (default: expert)")),
        length=locale(_("0 for a single money game (default), or a match to 1-25 points")),
        cube=locale(_("Play with the doubling cube (default: yes)")),
    )
    async def play(
        self,
        interaction: Interaction,
        level: Literal["beginner", "intermediate", "advanced", "expert", "world-class"]
        | None = None,
        length: app_commands.Range[int, 0, 25] = 0,
        cube: bool = True,
    ) -> None:
        await self.kit.act(
            interaction, lambda ctx: self._start_computer(interaction, level, length, cube, ctx)
        )

    @app_commands.command(name="hint", description=locale(_("The computer's advice for your turn")))
    async def hint(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            await reply.acknowledge()  # the computer thinks: privately, by the Reply's lock
            _game, advice = await self.services.reviews.hint(
                interaction.channel_id or 0, player_of(interaction.user)
            )
            text = present.hint_text(advice, language=interaction.locale)
            await reply.private(content=text)

        await self.kit.run(interaction, work, private=True)

    @app_commands.command(
        name="analyze", description=locale(_("Error rates and biggest mistakes of the last game"))
    )
    async def analyze(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            # Refusals (a live game, the member's cooldown) come at once and privately,
            # before anyone sees that an analysis has begun.
            plan = await self.services.reviews.plan_analysis(
                interaction.channel_id or 0, interaction.user.id
            )
            await reply.acknowledge()
            language = await self._language(interaction)
            progress = ProgressLine(reply, plan.match.id, language)
            review = await self.services.reviews.run_analysis(plan, progress)
            await progress.close()
            await reply.send(**await self.publisher.analysis(review, language))

        await self.kit.run(interaction, work)

    @app_commands.command(name="roll", description=locale(_("Roll the dice")))
    async def roll(self, interaction: Interaction) -> None:
        await self.kit.perform(interaction, Action.ROLL)

    @app_commands.command(name="move", description=locale(_("Play your roll, e.g. 13/7 8/7")))
    @app_commands.describe(
        play=locale(_("Your play in standard notation; pick one of the legal plays"))
    )
    async def move(self, interaction: Interaction, play: str) -> None:
        await self.kit.perform(interaction, Action.MOVE, play=play)

    @move.autocomplete("play")
    async def move_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            plays = await self.session.legal_play_texts(
                interaction.channel_id or 0, interaction.user.id
            )
        except Exception:
            log.exception("autocomplete failed")
            return []
        # Plays are written in the standard notation in every language: nothing to translate.
        return [
            app_commands.Choice(name=name, value=value)
            for name, value in play_choices(plays, current[:200])
        ]

    @app_commands.command(name="double", description=locale(_("Offer a double before you roll")))
    async def double(self, interaction: Interaction) -> None:
        await self.kit.perform(interaction, Action.DOUBLE)

    @app_commands.command(name="take", description=locale(_("Accept your opponent's double")))
    async def take(self, interaction: Interaction) -> None:
        await self.kit.perform(interaction, Action.TAKE)

    @app_commands.command(
        name="drop",
        description=locale(_("Drop (pass): refuse your opponent's double and lose the game")),
    )
    async def drop(self, interaction: Interaction) -> None:
        await self.kit.perform(interaction, Action.DROP)

    @app_commands.command(
        name="resign", description=locale(_("Offer to resign; your opponent accepts"))
    )
    @app_commands.describe(kind=locale(_("How much you concede (default: a single game)")))
    async def resign(
        self,
        interaction: Interaction,
        kind: Literal["single", "gammon", "backgammon"] = "single",
    ) -> None:
        await self.kit.perform(interaction, Action.RESIGN, kind=ResultKind[kind.upper()])

    @app_commands.command(
        name="claim", description=locale(_("Win when your opponent has been idle too long"))
    )
    async def claim(self, interaction: Interaction) -> None:
        await self.kit.perform(interaction, Action.CLAIM)

    @app_commands.command(
        name="cancel", description=locale(_("Moderators: end this channel's game"))
    )
    async def cancel(self, interaction: Interaction) -> None:
        async def action(ctx: ActionContext) -> Report:
            _server_only(interaction)
            if not interaction.permissions.manage_messages:
                raise UserError(notices.MODERATORS_CANCEL)
            events: Any = self.bot.get_cog("Tournament")  # a tournament match goes to its TDs
            if events is not None and await events.refer_cancel(interaction.channel_id or 0):
                raise UserError(tournament_words.CANCEL_REFERRED)
            user = player_of(interaction.user)
            return await self.session.act(interaction.channel_id or 0, user, Action.CANCEL, ctx)

        await self.kit.act(interaction, action)

    @app_commands.command(name="board", description=locale(_("Show the current board again")))
    async def board(self, interaction: Interaction) -> None:
        async def action(_ctx: ActionContext) -> Report:
            row = await self.session.current(interaction.channel_id or 0)
            if row is None or row.game is None:
                raise UserError(Refusal.NO_GAME)
            return board_report(row)

        await self.kit.act(interaction, action)

    @app_commands.command(
        name="history", description=locale(_("The moves of the current or last game"))
    )
    async def history(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            row, events = await self.session.history(interaction.channel_id or 0)
            language = await self._language(interaction)
            text = present.history_text(
                row, events, display=safe_name, code=code_safe, language=language
            )
            await reply.send(content=text, allowed_mentions=NO_MENTIONS)

        await self.kit.run(interaction, work)

    @app_commands.command(name="stats", description=locale(_("A player's results on this server")))
    @app_commands.describe(user=locale(_("Whose statistics (default: yours)")))
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        async def work(reply: Reply) -> None:
            guild_id = home_guild(interaction)
            language = await self._language(interaction)
            who = user or interaction.user
            await reply.send(**await self.publisher.stats(guild_id, who, language))

        await self.kit.run(interaction, work)

    @app_commands.command(name="leaderboard", description=locale(_("This server's rated players")))
    @app_commands.describe(
        sort=locale(_("By rating (default), or by PR over the rated matches played in full"))
    )
    async def leaderboard(
        self, interaction: Interaction, sort: Literal["rating", "pr"] = "rating"
    ) -> None:
        if sort == "pr":
            await self.kit.run(interaction, self._pr_ladder)
            return

        async def work(reply: Reply) -> None:
            _server_only(interaction)
            rows = await self.session.leaderboard(
                interaction.guild_id or 0, min_rated_matches=self.leaderboard_min_matches
            )
            language = await self._language(interaction)
            lines = present.leaderboard_lines(rows, display=safe_name, language=language)
            empty = notices.LEADERBOARD_EMPTY
            embed = discord.Embed(
                title=say(notices.LEADERBOARD_TITLE, language),
                description="\n".join(lines) or say(empty, language),
            )
            footer = notices.LEADERBOARD_FOOTER
            embed.set_footer(text=say(footer, language))
            links = WebLinks.of(self.bot)
            if links.url is not None:
                key = await self.services.club.leaderboard_key(interaction.guild_id or 0)
                embed.url = links.leaderboard(key)
            await reply.send(embed=embed, allowed_mentions=NO_MENTIONS)

        await self.kit.run(interaction, work)

    async def _pr_ladder(self, reply: Reply) -> None:
        """The leaderboard by PR: every rated match played in full, lowest PR first."""
        interaction = reply.interaction
        _server_only(interaction)  # a server's ladder: its rated matches
        least = self.pr_min_decisions
        entries = await self.services.performance.ladder(
            interaction.guild_id or 0, min_decisions=least
        )
        language = await self._language(interaction)
        lines = performance_words.ladder_lines(entries, display=safe_name, language=language)
        embed = discord.Embed(
            title=say(performance_words.PR_LADDER_TITLE, language),
            description="\n".join(lines)
            or say(Text(performance_words.PR_LADDER_EMPTY.msgid, {"decisions": least}), language),
        )
        footer = Text(performance_words.PR_LADDER_FOOTER.msgid, {"decisions": least})
        embed.set_footer(text=say(footer, language))
        await reply.send(embed=embed, allowed_mentions=NO_MENTIONS)

    @app_commands.command(
        name="position",
        description=locale(_("Analyse any position: an XGID, or a GNU Position ID (and Match ID)")),
    )
    @app_commands.describe(
        id=locale(_("The XGID, or the Position ID with its Match ID, as the program copies it")),
        dice=locale(_("The dice to play, like 52 (default: the position's own, if any)")),
        public=locale(_("on: show the analysis to everyone here (default: only you)")),
    )
    async def position(
        self,
        interaction: Interaction,
        id: app_commands.Range[str, 1, 200],
        dice: app_commands.Range[str, 1, 10] | None = None,
        public: Literal["on", "off"] = "off",
    ) -> None:
        await positions.analyse_text(self.kit, interaction, id, dice, public == "on")

    @app_commands.command(
        name="play-here",
        description=locale(_("Play this channel's game on a board you can touch (an Activity)")),
    )
    async def play_here(self, interaction: Interaction) -> None:
        if venue_of(interaction) is not Venue.SERVER:
            await interaction.response.send_message(
                say(notices.SERVER_ONLY, interaction.locale), ephemeral=True
            )
            return
        await launch(interaction)  # LAUNCH_ACTIVITY must be the first response: no guard

    @app_commands.command(name="verify", description=locale(_("Check a finished match's dice")))
    @app_commands.describe(
        secret=locale(_("The dice secret revealed when the match ended (64 characters)")),
        public=locale(_("The match's public value, from the same message")),
    )
    async def verify(
        self,
        interaction: Interaction,
        secret: app_commands.Range[str, 1, 100],
        public: app_commands.Range[str, 1, 100],
    ) -> None:
        async def work(reply: Reply) -> None:
            row, result = await self.services.reviews.verify_dice(
                secret,
                public,
                guild_id=home_guild(interaction),
                visible=lambda row: can_view(interaction, row),
            )
            content = notices.verify_line(row.id, versus(row), verify_words(result))
            if same_place(interaction, row):
                language = await self._language(interaction)
                await reply.send(content=say(content, language), allowed_mentions=NO_MENTIONS)
            else:  # played elsewhere: only the caller, who may see it, reads the answer
                await reply.private(
                    content=say(content, interaction.locale), allowed_mentions=NO_MENTIONS
                )

        await self.kit.run(interaction, work)

    @app_commands.command(
        name="dice", description=locale(_("The dice rolled on this server, checked"))
    )
    @app_commands.describe(user=locale(_("Whose rolls (default: everyone's on this server)")))
    async def dice(self, interaction: Interaction, user: discord.User | None = None) -> None:
        async def work(reply: Reply) -> None:
            _server_only(interaction)
            report = await self.services.reviews.dice_report(interaction.guild_id or 0)
            language = await self._language(interaction)
            if user is None:
                text = present.dice_text(report.server, present.THIS_SERVER, language=language)
            else:
                stats = report.players.get(user.id)
                who = safe_name(user.display_name)
                if stats is None:
                    raise UserError(notices.never_rolled(who))
                text = present.dice_text(stats, who, language=language)
            embed = discord.Embed(
                title=say(notices.DICE_TITLE, language), description=present.fit(text, 4000)
            )
            footer = notices.DICE_FOOTER
            embed.set_footer(text=say(footer, language))
            await reply.send(embed=embed, allowed_mentions=NO_MENTIONS)

        await self.kit.run(interaction, work)

    @app_commands.command(name="games", description=locale(_("Your live games on this server")))
    async def games(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            me = interaction.user.id
            rows = await self.services.club.games_of(home_guild(interaction), me)
            language = interaction.locale  # a private answer: the reader's language
            text = games_text(rows, me, self.session.clock(), language_of(language))
            embed = discord.Embed(
                title=say(notices.GAMES_TITLE, language), description=present.fit(text, 4000)
            )
            await reply.private(embed=embed)

        await self.kit.run(interaction, work, private=True)

    @app_commands.command(
        name="settings", description=locale(_("Your board and turn notices; the server's games"))
    )
    @app_commands.describe(
        notify=locale(
            _("Be pinged when it becomes your turn: on, off, or only after some idle minutes")
        ),
        idle_minutes=locale(
            _("With notify idle: minutes on your turn before the reminder (1-1440)")
        ),
        board=locale(
            _("Where your home board is drawn (the public board follows the player to act)")
        ),
        theme=locale(_("Board colours")),
        threads=locale(_("Moderators: a thread for each accepted game")),
        language=locale(_("Moderators: the language of this server's game messages")),
        claim=locale(
            _("Moderators: what a claim wins: the match by forfeit (default) or the game")
        ),
        puzzles=locale(_("Whether puzzles may be made from your games (off keeps them out)")),
        web_links=locale(
            _("Moderators: who a match's web link opens for (members: only after signing in)")
        ),
        web_leaderboard=locale(_("Moderators: the leaderboard page for members only, or public")),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings(
        self,
        interaction: Interaction,
        notify: Literal["on", "off", "idle"] | None = None,
        idle_minutes: app_commands.Range[int, 1, 1440] | None = None,
        board: Literal["right", "left"] | None = None,
        theme: Literal["classic", "dark"] | None = None,
        threads: Literal["on", "off"] | None = None,
        language: app_commands.Choice[str] | None = None,
        claim: Literal["match", "game"] | None = None,
        puzzles: Literal["on", "off"] | None = None,
        web_links: Literal["link", "members"] | None = None,
        web_leaderboard: Literal["members", "public"] | None = None,
    ) -> None:
        async def work(reply: Reply) -> None:
            guild_id = home_guild(interaction)
            server_options = (threads, language, claim, web_links, web_leaderboard)
            if any(option is not None for option in server_options):
                _server_only(interaction)
            moderator = interaction.permissions.manage_messages
            if (web_links is not None or web_leaderboard is not None) and not moderator:
                raise UserError(notices.MODERATORS_WEB)
            if threads is not None and not moderator:
                raise UserError(notices.MODERATORS_THREADS)
            if language is not None and not moderator:
                raise UserError(notices.MODERATORS_LANGUAGE)
            if claim is not None and not moderator:
                raise UserError(notices.MODERATORS_CLAIM)
            mine = await self.services.club.update_user_settings(
                interaction.user.id,
                notify=notify,
                notify_minutes=idle_minutes,
                board_side=board,
                theme=theme,
            )
            server = (
                await self.services.club.set_threads(guild_id, threads == "on")
                if threads is not None
                else await self.services.club.guild_settings(guild_id)
            )
            if language is not None:
                chosen = None if language.value == "auto" else language.value
                server = await self.services.club.set_language(guild_id, chosen)
            if claim is not None:
                server = await self.services.club.set_claim(guild_id, ClaimRule(claim))
            if web_links is not None:
                server = await self.services.club.set_web_links(guild_id, WebLinkRule(web_links))
            if web_leaderboard is not None:
                public = web_leaderboard == "public"
                server = await self.services.club.set_public_leaderboard(guild_id, public)
            text = settings_text(
                mine.notify,
                mine.notify_minutes,
                mine.board_side,
                mine.theme,
                server.threads,
                server.language,
                language_of(interaction.locale),
                claim=server.claim,
                web=WebLinks.of(self.bot).url is not None,
                web_links=server.web_links,
                public_leaderboard=server.public_leaderboard,
            )
            if puzzles is not None:  # issue 29: a player keeps their games out of puzzles
                await self.services.puzzles.keep_out(interaction.user.id, puzzles == "off")
            kept_out = await self.services.puzzles.kept_out(interaction.user.id)
            text += "\n" + say(kept_out_line(kept_out), interaction.locale)
            await reply.private(content=text)

        await self.kit.run(interaction, work, private=True)

    @app_commands.command(
        name="export", description=locale(_("A match as a file for GNU Backgammon"))
    )
    @app_commands.describe(
        match=locale(_("The match number (default: this channel's current or last match)")),
        format=locale(_("mat (Jellyfish, read by every program; default) or sgf (GNU Backgammon)")),
    )
    async def export(
        self,
        interaction: Interaction,
        match: app_commands.Range[int, 1, MAX_MATCH_NUMBER] | None = None,
        format: Literal["mat", "sgf"] = "mat",
    ) -> None:
        async def work(reply: Reply) -> None:
            where = (home_guild(interaction), interaction.channel_id or 0)
            language = await self._language(interaction)
            row, answer = await self.publisher.match_export(
                *where, match, format, language, lambda row: can_view(interaction, row)
            )
            if same_place(interaction, row):
                await reply.send(**answer)
            else:  # played elsewhere: only the caller, who may see it, gets the file
                await reply.private(**answer)

        await self.kit.run(interaction, work)

    @app_commands.command(
        name="share", description=locale(_("Publish a finished match's replay as a link"))
    )
    @app_commands.describe(
        match=locale(_("The match number (default: this channel's current or last match)")),
        stop=locale(_("on: withdraw the link instead")),
    )
    async def share(
        self,
        interaction: Interaction,
        match: app_commands.Range[int, 1, MAX_MATCH_NUMBER] | None = None,
        stop: Literal["on", "off"] = "off",
    ) -> None:
        async def work(reply: Reply) -> None:
            links = WebLinks.of(self.bot)
            if links.url is None:
                raise UserError(Refusal.NO_WEB_BOARD)
            row, token = await self.services.club.share_replay(
                home_guild(interaction),
                interaction.channel_id or 0,
                match,
                interaction.user.id,
                moderator=interaction.permissions.manage_messages,
                stop=stop == "on",
                visible=lambda row: can_view(interaction, row),
            )
            language = interaction.locale  # a private answer: the reader's language
            if token is None:
                await reply.private(content=say(notices.unshared_line(row.id), language))
                return
            url = links.shared(token)
            assert url is not None
            line = notices.shared_line(row.id, versus(row), url)
            await reply.private(content=say(line, language), allowed_mentions=NO_MENTIONS)

        await self.kit.run(interaction, work, private=True)

    @app_commands.command(name="help", description=locale(_("How to play and how to write moves")))
    async def help(self, interaction: Interaction) -> None:
        language = interaction.locale  # a private answer: the reader's language
        embed = discord.Embed(
            title=say(notices.HELP_TITLE, language), description=present.help_text(language)
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)


def _server_only(interaction: Interaction) -> None:
    """Refuse, privately, what needs a server that added the bot (its leaderboard, its dice,
    its settings, a moderator's cancel) anywhere else."""
    if venue_of(interaction) is not Venue.SERVER:
        raise UserError(notices.SERVER_ONLY)


def _refuse_private_answers(interaction: Interaction) -> None:
    """Refuse a game nobody but its challenger would see: on a server without the bot whose
    moderators deny "Use External Apps", Discord turns every answer private."""
    if answers_are_private(interaction):
        raise UserError(notices.EXTERNAL_APPS_DENIED)


CHALLENGE_MENU = pgettext("menu", "Challenge to backgammon")  # the user command's name


def challenge_menu(cog: Backgammon) -> app_commands.ContextMenu:
    """The user command "Challenge to backgammon", wherever /backgammon is (both installs,
    every context)."""
    return app_commands.ContextMenu(
        name=app_commands.locale_str(CHALLENGE_MENU),
        callback=cog.challenge_user,
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
    )


ANALYSE_THIS_POSITION = pgettext("menu", "Analyse this position")  # the message command's name


async def analyse_this_position(interaction: Interaction, message: discord.Message) -> None:
    """Apps > Analyse this position, on any board the bot posted."""
    await positions.analyse_message(interaction, message)


def position_menu() -> app_commands.ContextMenu:
    """The message command "Analyse this position", wherever /backgammon is."""
    return app_commands.ContextMenu(
        name=app_commands.locale_str(ANALYSE_THIS_POSITION),
        callback=analyse_this_position,
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
    )


async def setup(bot: commands.Bot) -> None:
    """The extension's entry (``bot.load_extension("cogs.backgammon")``): /backgammon, the
    user command "Challenge to backgammon", the message command "Analyse this position", the
    game's restart-proof buttons, the tap picker, the Activity's Launch button and the
    position analysis's buttons."""
    cog = Backgammon(bot, bot.services, bot.kit)  # type: ignore[attr-defined]
    await bot.add_cog(cog)
    bot.tree.add_command(challenge_menu(cog), override=True)
    bot.tree.add_command(position_menu(), override=True)
    bot.add_dynamic_items(
        ActionButton, ResignSelect, PickerButton, PickerSelect, LaunchButton, PositionButton
    )
