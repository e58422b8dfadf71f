"""The ``/chouette`` command group and a chouette's buttons: thin adapters over the chouette
service's one entry (:meth:`bot.features.chouette.service.ChouetteService.act`).

Each command and press names a :class:`~bot.features.chouette.rules.ChouetteAction` with the
exact state a button was posted for (:class:`~bot.features.chouette.service.ChouetteContext`)
and runs inside the bot's guard (:meth:`cogs.kit.Kit.run`); what the service stored is posted
by :class:`cogs.chouette_posts.ChouettePoster`. The cog's loop is the session's clock
(:meth:`~bot.features.chouette.service.ChouetteService.tick`). Guild installs only, like
``/tournament``: a chouette is a club's evening.

Private answers (errors, a suggestion sent, the captain's suggestions) are in the reader's
language; what is posted is in the server's. May import: discord, the services and their
records, :mod:`bot.present`, and the other ``cogs`` modules but the cogs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import present
from bot.computer import LEVELS
from bot.core.errors import ChouetteRefusal, StaleButtonError, UserError
from bot.engine import Play
from bot.engine.steps import PartialPlay, StepError, decode_steps, encode_steps
from bot.features.chouette.rules import (
    Answer,
    AnswerOrder,
    ChouetteAction,
    ChouetteOptions,
    Consultation,
    Offer,
    Rotation,
    Side,
    can_double,
)
from bot.features.chouette.rules import Chouette as ChouetteState
from bot.features.chouette.service import ChouetteContext, ChouetteReport
from bot.i18n import _, language_of, say
from bot.present import chouette as words
from bot.present import picker as picker_words
from bot.present.chouette_analysis import analysis_text
from bot.present.chouette_story import log_header, log_text
from bot.present.chouette_table import standings_text, table_text
from bot.services import Services
from cogs.chouette_posts import ChouettePoster
from cogs.chouette_views import (
    ACTIONS,
    PICKER,
    ChouetteButton,
    ChouettePickerButton,
    ChouettePickerSelect,
    ChouetteSelect,
    SuggestModal,
)
from cogs.helpers import play_choices, player_of
from cogs.kit import Kit
from cogs.picker import PickerReply, Tap, TapVerb, advance, picker_view
from cogs.replies import NO_MENTIONS, Reply, safe_name
from cogs.translator import locale, pgettext

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
TICK_SECONDS = 15.0
FILENAME = "picker.png"

# Names in the command tree, marked for the catalogue (cogs/translator.py reads them).
NAMES = (
    pgettext("command", "chouette"),
    pgettext("command", "start"),
    pgettext("command", "join"),
    pgettext("command", "leave"),
    pgettext("command", "standings"),
    pgettext("command", "end"),
    pgettext("command", "move"),
    pgettext("command", "suggest"),
    pgettext("command", "log"),
    pgettext("command", "analyze"),
    pgettext("option", "computer"),
    pgettext("option", "level"),
    pgettext("option", "jacoby"),
    pgettext("option", "beavers"),
    pgettext("option", "consultation"),
    pgettext("option", "partner"),
    pgettext("option", "box_takes_captain"),
    pgettext("option", "box_takes_half"),
    pgettext("option", "answer_order"),
    pgettext("option", "captain_must_beaver"),
    pgettext("option", "auto_doubles"),
    pgettext("option", "rotation"),
    pgettext("option", "play"),
    pgettext("option", "text"),
    pgettext("option", "game"),
    pgettext("choice", "none"),
    pgettext("choice", "seat"),
    pgettext("choice", "box"),
    pgettext("choice", "cube-turned"),
    pgettext("choice", "full"),
    pgettext("choice", "free"),
    pgettext("choice", "line-to-captain"),
    pgettext("choice", "captain"),
    pgettext("choice", "net"),
)

LevelName = Literal["beginner", "intermediate", "advanced", "expert", "world-class"]


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)  # a club's: never a user install
class Chouette(
    commands.GroupCog,
    group_name="chouette",
    group_description=locale(_("Chouette: one against a team, a cube for every member")),
):
    """Chouette sessions in a server's channels and threads."""

    def __init__(self, bot: commands.Bot, services: Services, kit: Kit) -> None:
        self.bot = bot
        self.services = services
        self.kit = kit
        self.chouette = services.chouette
        self.poster = ChouettePoster(bot, services, kit)
        self.tick_seconds = TICK_SECONDS
        self._loop: asyncio.Task[None] | None = None
        super().__init__()

    async def cog_load(self) -> None:
        self._loop = asyncio.create_task(self._keep_time())

    async def cog_unload(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
        self.poster.stop_listening()

    async def _keep_time(self) -> None:
        """The session's clock: what the computer left open, idle members, the computer
        captain's window (each change posted through the facts)."""
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.chouette.tick({guild.id for guild in self.bot.guilds})
            except Exception:
                log.exception("the chouette clock failed")
            await asyncio.sleep(self.tick_seconds)

    # --- acting ------------------------------------------------------------------------------

    async def _act(
        self,
        interaction: Interaction,
        action: ChouetteAction,
        ctx: ChouetteContext,
        *,
        pressed: bool,
        reply: Reply | None = None,
        **params: Any,
    ) -> None:
        """One action through the service's one entry, then its board posted."""
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0

        async def work(reply: Reply) -> None:
            report = await self.chouette.act(channel_id, user, action, ctx, **params)
            reply.committed = True
            await self.poster.publish(reply, report)

        await self.kit.run(interaction, work, pressed=pressed, reply=reply)

    def _moderates(self, interaction: Interaction) -> bool:
        return bool(interaction.permissions.manage_messages)

    async def _state(self, interaction: Interaction, session: int, moment: int) -> ChouetteState:
        """The channel's session, if it is still the one (at the moment) a button names."""
        found = await self.chouette.current(interaction.channel_id or 0)
        if found is None or found[0].id != session or found[1].moment != moment:
            raise StaleButtonError(ChouetteRefusal.OLD_BUTTON)
        return found[1]

    # --- buttons and menus (cogs.chouette_views.Handler) ----------------------------------------

    async def press(self, interaction: Interaction, verb: str, session: int, moment: int) -> None:
        ctx = ChouetteContext(session, moment, self._moderates(interaction))
        try:
            if verb in ("join", "leave", "begin"):  # whatever moment the table is at
                loose = dataclasses.replace(ctx, moment=None)
                await self._act(interaction, ACTIONS[verb], loose, pressed=True)
            elif verb in ACTIONS:
                await self._act(interaction, ACTIONS[verb], ctx, pressed=True)
            elif verb in ("takeall", "dropall"):
                answer = Answer.TAKE if verb == "takeall" else Answer.DROP
                await self._answer_all(interaction, ctx, answer)
            elif verb == "dblall":
                await self._double_all(interaction, ctx)
            elif verb == "play":
                await self.tap(interaction, Tap(TapVerb.OPEN, session, moment, prefix=PICKER), [])
            elif verb == "suggest":
                await self._suggest(interaction, session, moment)
            elif verb == "advice":
                await self._advice(interaction)
        except Exception as exc:  # the guard answers most; this catches what escapes it
            await interaction.client.tree.on_error(interaction, exc)

    async def _answer_all(
        self, interaction: Interaction, ctx: ChouetteContext, answer: Answer
    ) -> None:
        assert ctx.session_id is not None and ctx.moment is not None
        state = await self._state(interaction, ctx.session_id, ctx.moment)
        g = state.game
        offered = [c.member for c in g.cubes if c.offer is Offer.BY_MEMBER] if g else []
        answers = dict.fromkeys(offered, answer)
        await self._act(interaction, ChouetteAction.ANSWER, ctx, pressed=True, answers=answers)

    async def _double_all(self, interaction: Interaction, ctx: ChouetteContext) -> None:
        assert ctx.session_id is not None and ctx.moment is not None
        state = await self._state(interaction, ctx.session_id, ctx.moment)
        g = state.game
        members = [c.member for c in g.cubes if can_double(c, Side.BOX)] if g else []
        await self._act(interaction, ChouetteAction.DOUBLE, ctx, pressed=True, members=members)

    async def choose(
        self, interaction: Interaction, verb: str, session: int, moment: int, values: list[str]
    ) -> None:
        ctx = ChouetteContext(session, moment)
        try:
            if verb == "double":
                try:
                    members = [int(v) for v in values]
                except ValueError:
                    raise StaleButtonError(ChouetteRefusal.OLD_BUTTON) from None
                await self._act(
                    interaction, ChouetteAction.DOUBLE, ctx, pressed=True, members=members
                )
                return
            state = await self._state(interaction, session, moment)
            g = state.game
            offered = [c.member for c in g.cubes if c.offer is Offer.BY_MEMBER] if g else []
            answers = dict.fromkeys(offered, Answer.DROP)
            for value in values:
                kind, _sep, member = value.partition(":")
                if kind not in ("t", "b") or not member.isdigit() or int(member) not in answers:
                    raise StaleButtonError(ChouetteRefusal.OLD_BUTTON)
                if answers[int(member)] is not Answer.DROP:  # a take and a beaver of one cube
                    raise UserError(ChouetteRefusal.ANSWER_EVERY_DOUBLE)
                answers[int(member)] = Answer.TAKE if kind == "t" else Answer.BEAVER
            await self._act(interaction, ChouetteAction.ANSWER, ctx, pressed=True, answers=answers)
        except Exception as exc:
            await interaction.client.tree.on_error(interaction, exc)

    async def _suggest(self, interaction: Interaction, session: int, moment: int) -> None:
        language = language_of(interaction.locale)

        async def work(reply: Reply) -> None:
            await self._state(interaction, session, moment)
            await interaction.response.send_modal(SuggestModal(self, session, moment, language))

        await self.kit.run(interaction, work, private=True)

    async def advise(self, interaction: Interaction, session: int, moment: int, text: str) -> None:
        """A suggestion from the modal (or ``/chouette suggest``): stored for the captain,
        told to the table without its words."""
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        ctx = ChouetteContext(session, moment) if session else ChouetteContext()

        async def work(reply: Reply) -> None:
            await self.chouette.act(channel_id, user, ChouetteAction.ADVISE, ctx, text=text)
            reply.committed = True
            await reply.private(content=say(words.ADVICE_SENT, interaction.locale))

        await self.kit.run(interaction, work, private=True)

    async def _advice(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            advice = await self.chouette.advice(interaction.channel_id or 0, interaction.user.id)
            shown = [(safe_name(name), text) for name, text in advice]
            await reply.private(content=say(words.advice_lines(shown), interaction.locale))

        await self.kit.run(interaction, work, private=True)

    # --- the tap picker ------------------------------------------------------------------------

    async def tap(self, interaction: Interaction, tap: Tap, values: list[str]) -> None:
        reply = PickerReply(interaction, tap)
        try:
            if tap.verb == TapVerb.CONFIRM:
                await self._confirm(interaction, reply)
            else:
                await self.kit.run(
                    interaction,
                    lambda r: self._show_picker(interaction, reply, values),
                    reply=reply,
                )
        except Exception as exc:
            await interaction.client.tree.on_error(interaction, exc)

    async def _mover(self, interaction: Interaction, tap: Tap) -> tuple[ChouetteState, PartialPlay]:
        state = await self._state(interaction, tap.match_id, tap.version)
        g = state.game
        if g is None or g.to_move is None or g.board.dice is None:
            raise StaleButtonError(ChouetteRefusal.OLD_BUTTON)
        if g.to_move != interaction.user.id:
            raise UserError(
                ChouetteRefusal.NOT_THE_CAPTAIN, captain=safe_name(state.name(g.to_move))
            )
        try:
            return state, PartialPlay(g.board.position, g.board.dice, decode_steps(tap.steps))
        except StepError as exc:
            raise StaleButtonError(picker_words.GONE) from exc

    async def _show_picker(
        self, interaction: Interaction, reply: PickerReply, values: list[str]
    ) -> None:
        tap = reply.tap
        state, partial = await self._mover(interaction, tap)
        partial, source = advance(partial, tap, values)
        language = language_of(interaction.locale)
        here = Tap(
            TapVerb.OPEN, tap.match_id, tap.version, encode_steps(partial.groups), prefix=PICKER
        )
        view = picker_view(
            here,
            partial,
            source,
            language,
            button=ChouettePickerButton,
            select=ChouettePickerSelect,
            resign=False,
        )
        g = state.game
        assert g is not None and g.board.dice is not None
        lines = [say(picker_words.status_line(partial, g.board.dice), language)]
        if g.advice and g.acting == interaction.user.id and g.board.on_roll == Side.TEAM:
            advice = [(safe_name(state.name(m)), text) for m, text in g.advice]
            lines.append(say(words.advice_lines(advice), language))
        shown = dataclasses.replace(
            g.board,
            position=partial.board,
            last_play=Play(partial.moves) if partial.moves else None,
            last_player=g.board.on_roll,
            last_position=g.board.position,
        )
        png = await self.services.workers.render(
            shown,
            perspective=g.board.on_roll,
            names=(state.name(g.box), state.name(g.acting)),
            words=present.board_words(language),
        )
        picture = discord.File(io.BytesIO(png), filename=FILENAME)
        kwargs: dict[str, Any] = {"content": "\n".join(lines), "view": view}
        if tap.verb == TapVerb.OPEN:
            await reply.show(new=True, file=picture, **kwargs)
        else:
            await reply.show(new=False, attachments=[picture], **kwargs)

    async def _confirm(self, interaction: Interaction, reply: PickerReply) -> None:
        tap = reply.tap
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0

        async def work(r: Reply) -> None:
            _state, partial = await self._mover(interaction, tap)
            if not partial.complete:
                raise StaleButtonError(picker_words.GONE)
            play = partial.play()
            reply.sent = picker_words.played_line(str(play))
            ctx = ChouetteContext(tap.match_id, tap.version)
            report = await self.chouette.act(channel_id, user, ChouetteAction.MOVE, ctx, play=play)
            reply.committed = True
            await self.poster.publish(reply, report)

        await self.kit.run(interaction, work, reply=reply)

    # --- commands ------------------------------------------------------------------------------

    @app_commands.command(name="start", description=locale(_("Open a chouette table here")))
    @app_commands.describe(
        computer=locale(_("The computer takes a seat, or the box")),
        level=locale(_("The computer's strength")),
        jacoby=locale(_("Gammons count only once a member's cube is turned")),
        beavers=locale(_("A doubled side may beaver")),
        consultation=locale(_("Who may advise the captain")),
        partner=locale(_("From six players the box has a partner")),
        box_takes_captain=locale(_("Taking any double, the box must take the captain's")),
        box_takes_half=locale(_("Doubled by several, the box takes half or none")),
        answer_order=locale(_("The order members answer the box's double")),
        captain_must_beaver=locale(_("A captain taking the box's double alone beavers")),
        auto_doubles=locale(_("Cube turns on a tied opening roll")),
        rotation=locale(_("What keeps the box in the box")),
    )
    async def start(
        self,
        interaction: Interaction,
        computer: Literal["none", "seat", "box"] = "none",
        level: LevelName = "expert",
        jacoby: bool = True,
        beavers: bool = False,
        consultation: Literal["none", "cube-turned", "full"] = "cube-turned",
        partner: bool = False,
        box_takes_captain: bool = False,
        box_takes_half: bool = False,
        answer_order: Literal["free", "line-to-captain"] = "free",
        captain_must_beaver: bool = False,
        auto_doubles: app_commands.Range[int, 0, 3] = 0,
        rotation: Literal["captain", "net"] = "captain",
    ) -> None:
        async def work(reply: Reply) -> None:
            if level not in LEVELS:
                raise UserError(ChouetteRefusal.NOT_NOW)
            options = ChouetteOptions(
                jacoby=jacoby,
                beavers=beavers,
                consultation=Consultation(consultation),
                box_takes_captain=box_takes_captain,
                box_takes_half=box_takes_half,
                answer_order=AnswerOrder(answer_order),
                captain_must_beaver=captain_must_beaver,
                partner=partner,
                auto_doubles=auto_doubles,
                rotation=Rotation(rotation),
                level=level,
            )
            starter = player_of(interaction.user)
            seat = self.kit.computer() if computer != "none" else None
            self.chouette.check_computer(seat)
            guild_id = interaction.guild_id or 0
            language = await self.poster.language(guild_id)
            here = interaction.channel_id or 0
            if await self.chouette.current(here) is not None:
                raise UserError(ChouetteRefusal.CHOUETTE_HERE)
            thread, notes = await self.poster.open_thread(interaction, starter.name, language)
            report = await self.chouette.start(
                guild_id,
                thread.id if thread is not None else here,
                starter,
                options,
                home_channel_id=here if thread is not None else None,
                computer=seat,
                computer_box=computer == "box",
            )
            reply.committed = True
            kwargs = await self.poster.message(report, language, notes)
            if thread is None:
                await reply.send(**kwargs)
                return
            await thread.send(**kwargs)
            opened = say(words.opened_in(thread.mention), language)
            await reply.send(content=opened, allowed_mentions=NO_MENTIONS)

        await self.kit.run(interaction, work)

    @app_commands.command(name="join", description=locale(_("Take a seat at this chouette")))
    async def join(self, interaction: Interaction) -> None:
        await self._act(interaction, ChouetteAction.JOIN, ChouetteContext(), pressed=False)

    @app_commands.command(name="leave", description=locale(_("Leave this chouette's table")))
    async def leave(self, interaction: Interaction) -> None:
        await self._act(interaction, ChouetteAction.LEAVE, ChouetteContext(), pressed=False)

    @app_commands.command(
        name="end", description=locale(_("End this chouette (its starter or a moderator)"))
    )
    async def end(self, interaction: Interaction) -> None:
        ctx = ChouetteContext(moderator=self._moderates(interaction))

        async def work(reply: Reply) -> None:
            user = player_of(interaction.user)
            channel_id = interaction.channel_id or 0
            report = await self.chouette.act(channel_id, user, ChouetteAction.END, ctx)
            reply.committed = True
            language = await self.poster.language(report.row.guild_id)
            kwargs = await self.poster.message(report, language)
            ended = say(words.ended_by(safe_name(user.name)), language)
            table = table_text(report.state, language, safe_name)
            kwargs["content"] = present.fit("\n".join([ended, kwargs.get("content", ""), table]))
            kwargs["files"] = [await self._log_file(report, language)]
            await reply.send(**kwargs)

        await self.kit.run(interaction, work)

    @app_commands.command(name="move", description=locale(_("Play the roll for your side")))
    @app_commands.describe(play=locale(_("The play, like 13/7 8/7")))
    async def move(self, interaction: Interaction, play: app_commands.Range[str, 1, 60]) -> None:
        await self._act(
            interaction, ChouetteAction.MOVE, ChouetteContext(), pressed=False, play=play
        )

    @move.autocomplete("play")
    async def _plays(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            plays = await self.chouette.legal_play_texts(
                interaction.channel_id or 0, interaction.user.id
            )
        except Exception:
            log.exception("chouette autocomplete failed")
            return []
        return [app_commands.Choice(name=n, value=v) for n, v in play_choices(plays, current)]

    @app_commands.command(name="suggest", description=locale(_("Advise the captain privately")))
    @app_commands.describe(text=locale(_("Your suggestion (only the captain reads it)")))
    async def suggest(
        self, interaction: Interaction, text: app_commands.Range[str, 1, 200]
    ) -> None:
        await self.advise(interaction, 0, 0, text)

    @app_commands.command(
        name="standings", description=locale(_("This session's table and the server's all-time"))
    )
    async def standings(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            guild_id = interaction.guild_id or 0
            language = await self.poster.language(guild_id)
            parts = []
            found = await self.chouette.current(interaction.channel_id or 0)
            if found is not None and found[1].records:
                parts.append(table_text(found[1], language, safe_name))
            parts.append(
                standings_text(await self.chouette.standings(guild_id), language, safe_name)
            )
            await reply.send(content=present.fit("\n\n".join(parts)), allowed_mentions=NO_MENTIONS)

        await self.kit.run(interaction, work)

    @app_commands.command(
        name="analyze",
        description=locale(_("Each player's checker and cube errors in finished games")),
    )
    @app_commands.describe(
        game=locale(_("One game of the session (all finished games if left out)"))
    )
    async def analyze(
        self, interaction: Interaction, game: app_commands.Range[int, 1, 10_000] | None = None
    ) -> None:
        """Privately: the analysis is seconds of work in the analysis lane, and a player may
        ask for it in the middle of the next game without showing the table their errors."""

        async def work(reply: Reply) -> None:
            # Refusals (nothing finished, the member's cooldown) at once, before the work.
            plan = await self.chouette.plan_analysis(interaction.channel_id or 0, game)
            self.services.reviews.charge(interaction.user.id)
            await reply.acknowledge()
            result = await self.chouette.run_analysis(plan)
            text = analysis_text(
                result.session,
                result.games,
                result.players,
                plan.state,
                language_of(interaction.locale),
                safe_name,
            )
            await reply.private(content=text, allowed_mentions=NO_MENTIONS)

        await self.kit.run(interaction, work, private=True)

    @app_commands.command(name="log", description=locale(_("The session log as a file")))
    async def log_command(self, interaction: Interaction) -> None:
        async def work(reply: Reply) -> None:
            found = await self.chouette.latest(interaction.channel_id or 0)
            if found is None:
                raise UserError(ChouetteRefusal.NO_CHOUETTE)
            row, state = found
            language = await self.poster.language(row.guild_id)
            report = ChouetteReport(None, row, state, None, ())
            file = await self._log_file(report, language)
            await reply.send(file=file, allowed_mentions=NO_MENTIONS)

        await self.kit.run(interaction, work)

    async def _log_file(self, report: ChouetteReport, language: str) -> discord.File:
        events = await self.chouette.log(report.row.id)
        text = log_text(events, report.state, language, log_header(report.row.id))
        data = io.BytesIO(text.encode("utf-8"))
        return discord.File(data, filename=f"chouette-{report.row.id}.txt")


__all__ = ["NAMES", "Chouette"]


async def setup(bot: commands.Bot) -> None:
    """The extension's entry (``bot.load_extension("cogs.chouette")``)."""
    await bot.add_cog(Chouette(bot, bot.services, bot.kit))  # type: ignore[attr-defined]
    bot.add_dynamic_items(
        ChouetteButton, ChouetteSelect, ChouettePickerButton, ChouettePickerSelect
    )
