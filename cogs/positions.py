"""Any position analysed, on Discord: ``/backgammon position``'s answer, the "Analyse this
position" message command, and the analysis's two buttons (Play it out, Look deeper).

The answer is private unless asked for in public: the position's picture (drawn from the
side that must decide), the best plays or the cube decision with their equities, and the
position's IDs (:mod:`bot.present.positions` words it). Its buttons are restart-proof
:class:`PositionButton` items whose ``custom_id`` carries the position itself, its XGID
(``bg:pos:<verb>:<XGID without "XGID=">``, at most 64 characters): "Play it out" starts a
practice game against the computer from there (never rated), "Look deeper" rolls the close
plays or the cube decision out, with a progress line that updates in place.

The message command reads a board's position from the picture's alt text, which every board
the bot posts carries (:meth:`cogs.publishing.Publisher.render`: its XGID last).

May import: discord, :mod:`bot` (the services' values, errors, the engine), :mod:`bot.i18n`,
:mod:`bot.present`, :mod:`cogs.kit`, :mod:`cogs.replies`, :mod:`cogs.helpers`,
:mod:`cogs.where`. Never a cog.
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import Any

import discord

from bot.computer import DEFAULT_LEVEL
from bot.computer.positions import PositionAdvice, deep_kind
from bot.core.errors import Refusal, UserError
from bot.core.reports import ActionContext, Report
from bot.engine import EngineError, PositionRecord
from bot.i18n import language_of, say
from bot.present import notices
from bot.present import positions as words
from cogs.helpers import player_of
from cogs.kit import Kit, kit_of
from cogs.replies import NO_MENTIONS, Reply
from cogs.where import answers_are_private, home_guild, venue_of

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

CUSTOM_ID_LIMIT = 100
_XGID = "XGID="


class PositionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"bg:pos:(?P<verb>play|deep):(?P<xgid>[-A-Pa-p0-9:DB]{20,80})",
):
    """A button under a position's analysis: ``play`` (play it out against the computer) or
    ``deep`` (look deeper), for the position its id carries."""

    def __init__(self, verb: str, xgid: str, language: str = "en") -> None:
        label = words.PLAY_OUT_BUTTON if verb == "play" else words.DEEPER_BUTTON
        custom_id = f"bg:pos:{verb}:{xgid.removeprefix(_XGID)}"
        assert len(custom_id) <= CUSTOM_ID_LIMIT, custom_id
        style = discord.ButtonStyle.primary if verb == "play" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(label=say(label, language), style=style, custom_id=custom_id)
        )
        self.verb = verb
        self.xgid = _XGID + xgid.removeprefix(_XGID)

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PositionButton:
        return cls(match["verb"], match["xgid"])

    async def callback(self, interaction: Interaction) -> None:
        try:
            kit = kit_of(interaction.client)
            record = kit.services.positions.read(self.xgid)
            if self.verb == "play":
                await play_out(kit, interaction, record)
            else:
                await deeper(kit, interaction, record)
        except Exception as exc:  # the guard answers most; this catches what escapes it
            await interaction.client.tree.on_error(interaction, exc)


def position_view(advice: PositionAdvice, language: str) -> discord.ui.View:
    """The analysis's buttons: play it out, and look deeper when there is something to."""
    view = discord.ui.View(timeout=None)
    xgid = advice.record.xgid()
    view.add_item(PositionButton("play", xgid, language))
    if deep_kind(advice.game) is not None:
        view.add_item(PositionButton("deep", xgid, language))
    return view


async def answer(kit: Kit, advice: PositionAdvice, language: str) -> dict[str, Any]:
    """Everything the analysis of a position holds, in ``language``."""
    names = words.position_names(advice.record, language)
    picture = await kit.publisher.render_position(advice.game, names, language)
    return {
        "content": words.position_text(advice, language=language),
        "file": picture,
        "view": position_view(advice, language),
        "allowed_mentions": NO_MENTIONS,
    }


async def analyse_text(
    kit: Kit, interaction: Interaction, text: str, dice: str | None, public: bool
) -> None:
    """``/backgammon position``: the position pasted, analysed (privately unless
    ``public``: then in the server's language, for everyone)."""

    async def work(reply: Reply) -> None:
        services = kit.services
        record = services.positions.read(text, dice)
        advice = await services.positions.advice(home_guild(interaction), record)
        if public:
            language = await kit.publisher.language(
                home_guild(interaction), interaction.guild_locale or interaction.locale
            )
            await reply.send(**await answer(kit, advice, language))
        else:
            await reply.private(**await answer(kit, advice, language_of(interaction.locale)))

    await kit.run(interaction, work, private=not public)


def board_record(message: discord.Message) -> PositionRecord | None:
    """The position of a board the bot posted, from its pictures' alt text (the last
    picture that names one: a result message shows the current state last)."""
    for attachment in reversed(message.attachments):
        text = attachment.description or ""
        at = text.rfind(_XGID)
        if at < 0:
            continue
        with contextlib.suppress(EngineError):
            return PositionRecord.parse(text[at:])
    return None


async def analyse_message(interaction: Interaction, message: discord.Message) -> None:
    """The "Analyse this position" message command: the board's position, analysed
    privately; refused on a message that is not one of the bot's boards, and in a channel
    whose rated game is being played (hints are off there)."""
    kit = kit_of(interaction.client)

    async def work(reply: Reply) -> None:
        me = interaction.client.user
        if me is None or message.author.id != me.id:
            raise UserError(Refusal.NOT_A_BOARD)
        record = board_record(message)
        if record is None:
            raise UserError(Refusal.BOARD_WITHOUT_POSITION)
        advice = await kit.services.positions.advice(
            home_guild(interaction), record, channel_id=message.channel.id
        )
        await reply.private(**await answer(kit, advice, language_of(interaction.locale)))

    await kit.run(interaction, work, private=True)


async def play_out(kit: Kit, interaction: Interaction, record: PositionRecord) -> None:
    """Play it out: a practice game against the computer from the position, in this
    channel, the presser to act first (never rated)."""
    game = record.to_game()
    if game.actor != 0:  # the person plays player 0's seat, the computer player 1's
        record = record.swapped()
        game = record.to_game()
    computer = kit.computer()

    async def request(ctx: ActionContext) -> Report:
        assert computer is not None
        if answers_are_private(interaction):  # nobody but the presser would see the game
            raise UserError(notices.EXTERNAL_APPS_DENIED)
        return await kit.session.play_computer(
            home_guild(interaction),
            interaction.channel_id or 0,
            player_of(interaction.user),
            computer,
            level=DEFAULT_LEVEL,
            ctx=ctx,
            start=game,
            venue=venue_of(interaction),
        )

    await kit.act(interaction, request)


class _ProgressLine:
    """The private message that says how far a deeper analysis has gone, edited in place
    (the press was acknowledged first: the line is a private followup)."""

    def __init__(self, interaction: Interaction) -> None:
        self.interaction = interaction
        self.message: discord.WebhookMessage | None = None

    async def show(self, text: str) -> None:
        if self.message is None:
            self.message = await self.interaction.followup.send(
                text, ephemeral=True, wait=True, allowed_mentions=NO_MENTIONS
            )
        else:
            self.message = await self.message.edit(content=text, allowed_mentions=NO_MENTIONS)


async def deeper(kit: Kit, interaction: Interaction, record: PositionRecord) -> None:
    """Look deeper: the close plays or the cube decision rolled out, privately, the
    progress line edited as each rollout ends, then replaced by the result. Refusals (a
    rated game's position, the member's cooldown) come at once, before any work."""
    language = language_of(interaction.locale)  # a private answer: the reader's language

    async def work(reply: Reply) -> None:
        positions = kit.services.positions
        plan = await positions.plan_deeper(home_guild(interaction), record, interaction.user.id)
        await reply.acknowledge()  # seconds of work ahead: the press is answered now
        line = _ProgressLine(interaction)

        async def progress(done: int, total: int) -> None:
            trials = plan.settings.trials
            text = say(words.deep_progress(plan.kind, done, total, trials), language)
            try:
                await line.show(text)
            except discord.HTTPException:  # a lost edit costs only the line, not the work
                log.warning("could not show a deeper analysis's progress")

        deep = await positions.deeper(plan, progress)
        await line.show(words.deep_text(deep, language=language))

    await kit.run(interaction, work, pressed=True)


__all__ = [
    "PositionButton",
    "analyse_message",
    "analyse_text",
    "answer",
    "board_record",
    "deeper",
    "play_out",
    "position_view",
]
