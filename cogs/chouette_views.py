"""A chouette's buttons and menus, restart-proof: every ``custom_id`` carries the session and
the decision (the moment) it was posted for.

``ch:<verb>:<session>:<moment>`` for a button, ``chs:<verb>:<session>:<moment>`` for the box's
menus (which doubles it takes, which members it doubles), ``chpk:...`` for the tap picker
(:mod:`cogs.picker`'s own components, reused with the session in place of the match and the
moment in place of the version). Nothing is kept in memory: after a restart the id is read
again and the chouette service, under the channel's lock, refuses a press whose session or
moment is no longer the channel's (a board the table has moved past), privately.

Which buttons a board carries is decided here from the session's stage
(:func:`view_for`); what a press does is the cog's (:class:`Handler`), through the chouette
service's one entry. May import: discord, the chouette rules, :mod:`bot.i18n`,
:mod:`bot.present.chouette`, :mod:`cogs.picker`. Never a cog.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Protocol

import discord

from bot.features.chouette.rules import (
    MAX_PLAYERS,
    Chouette,
    ChouetteAction,
    Consultation,
    Offer,
    Side,
    Stage,
    Status,
    can_double,
)
from bot.i18n import say
from bot.present import chouette as words
from cogs.picker import PickerButton, PickerReply, PickerSelect, Tap, TapVerb

Interaction = discord.Interaction[Any]

PICKER = "chpk"

# The buttons that name a chouette action as it is; the others build one (the box's
# answers, a double of every member) or open something (the picker, a suggestion).
ACTIONS: dict[str, ChouetteAction] = {
    "join": ChouetteAction.JOIN,
    "leave": ChouetteAction.LEAVE,
    "begin": ChouetteAction.BEGIN,
    "double": ChouetteAction.DOUBLE,
    "pass": ChouetteAction.NO_DOUBLE,
    "roll": ChouetteAction.ROLL,
    "take": ChouetteAction.TAKE,
    "drop": ChouetteAction.DROP,
    "beaver": ChouetteAction.BEAVER,
}
OTHER_VERBS = ("takeall", "dropall", "dblall", "play", "suggest", "advice")
STYLES: dict[str, discord.ButtonStyle] = {
    "join": discord.ButtonStyle.success,
    "leave": discord.ButtonStyle.secondary,
    "begin": discord.ButtonStyle.primary,
    "double": discord.ButtonStyle.secondary,
    "pass": discord.ButtonStyle.secondary,
    "roll": discord.ButtonStyle.primary,
    "take": discord.ButtonStyle.success,
    "drop": discord.ButtonStyle.danger,
    "beaver": discord.ButtonStyle.secondary,
    "takeall": discord.ButtonStyle.success,
    "dropall": discord.ButtonStyle.danger,
    "dblall": discord.ButtonStyle.secondary,
    "play": discord.ButtonStyle.primary,
    "suggest": discord.ButtonStyle.secondary,
    "advice": discord.ButtonStyle.secondary,
}
_VERBS = "|".join([*ACTIONS, *OTHER_VERBS])
LABEL_LIMIT = 100


class Handler(Protocol):
    """What the chouette cog does with a press (found with ``get_cog("Chouette")``)."""

    async def press(
        self, interaction: Interaction, verb: str, session: int, moment: int
    ) -> None: ...

    async def choose(
        self, interaction: Interaction, verb: str, session: int, moment: int, values: list[str]
    ) -> None: ...

    async def tap(self, interaction: Interaction, tap: Tap, values: list[str]) -> None: ...


def _handler(interaction: Interaction) -> Handler | None:
    cog: Any = interaction.client.get_cog("Chouette")
    return cog


class ChouetteButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"ch:(?P<verb>{_VERBS}):(?P<session>[0-9]{{1,15}}):(?P<moment>[0-9]{{1,12}})",
):
    """A chouette button; the cog acts for whoever presses it."""

    def __init__(self, verb: str, session: int, moment: int, language: str = "en") -> None:
        super().__init__(
            discord.ui.Button(
                label=say(words.BUTTON_LABELS[verb], language),
                style=STYLES[verb],
                custom_id=f"ch:{verb}:{session}:{moment}",
            )
        )
        self.verb, self.session, self.moment = verb, session, moment

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChouetteButton:
        return cls(match["verb"], int(match["session"]), int(match["moment"]))

    async def callback(self, interaction: Interaction) -> None:
        handler = _handler(interaction)
        if handler is not None:
            await handler.press(interaction, self.verb, self.session, self.moment)


class ChouetteSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"chs:(?P<verb>answer|double):(?P<session>[0-9]{1,15}):(?P<moment>[0-9]{1,12})",
):
    """The box's menus: the doubles it takes (the rest dropped), the members it doubles."""

    def __init__(
        self,
        verb: str,
        session: int,
        moment: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        *,
        least: int = 1,
    ) -> None:
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"chs:{verb}:{session}:{moment}",
                options=options,
                placeholder=placeholder,
                min_values=least,
                max_values=len(options),
            )
        )
        self.verb, self.session, self.moment = verb, session, moment

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChouetteSelect:
        return cls(match["verb"], int(match["session"]), int(match["moment"]))

    async def callback(self, interaction: Interaction) -> None:
        handler = _handler(interaction)
        if handler is None:
            return
        data: Mapping[str, Any] = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        await handler.choose(interaction, self.verb, self.session, self.moment, values)


_PICKER_ID = (
    PICKER + r":(?P<verb>[{verbs}]):(?P<match>[0-9]{{1,19}}):(?P<version>[0-9]{{1,12}}):"
    r"(?P<steps>[a-z1-6.]{{0,16}})(?::(?P<source>[0-9]{{1,2}}))?"
)


class ChouettePickerButton(PickerButton, template=_PICKER_ID.format(verbs="ourc")):
    """The tap picker's Play (on the board), Undo, Reset and Confirm, for a chouette: the
    session in the match's place, the moment in the version's."""

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChouettePickerButton:
        return cls(Tap.parse(match, PICKER))

    async def callback(self, interaction: Interaction) -> None:
        handler = _handler(interaction)
        if handler is not None:
            await handler.tap(interaction, self.tap, [])


class ChouettePickerSelect(PickerSelect, template=_PICKER_ID.format(verbs="sda")):
    """The tap picker's menus for a chouette: a checker, its destination, a whole play."""

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChouettePickerSelect:
        return cls(Tap.parse(match, PICKER))

    async def callback(self, interaction: Interaction) -> None:
        handler = _handler(interaction)
        if handler is None:
            return
        data: Mapping[str, Any] = interaction.data or {}
        await handler.tap(interaction, self.tap, [str(v) for v in data.get("values", [])])


class SuggestModal(discord.ui.Modal):
    """A member's suggestion to the captain (only the captain reads it)."""

    def __init__(self, handler: Any, session: int, moment: int, language: str) -> None:
        super().__init__(title=say(words.SUGGEST_TITLE, language)[:45], timeout=600)
        self.handler, self.session, self.moment = handler, session, moment
        self.text: discord.ui.TextInput[Any] = discord.ui.TextInput(
            custom_id="advice",
            label=say(words.SUGGEST_LABEL, language)[:45],
            placeholder=say(words.SUGGEST_PLACEHOLDER, language)[:100],
            max_length=200,
        )
        self.add_item(self.text)

    async def on_submit(self, interaction: Interaction) -> None:
        await self.handler.advise(interaction, self.session, self.moment, str(self.text.value))


def _cut(text: str) -> str:
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"


def view_for(s: Chouette, session: int, language: str) -> discord.ui.View | None:
    """The buttons (and the box's menus) for the decision the session waits on."""
    if s.status is Status.ENDED:
        return None
    view = discord.ui.View(timeout=None)
    moment = s.moment

    def button(verb: str, row: int) -> None:
        item = ChouetteButton(verb, session, moment, language)
        item.row = row
        view.add_item(item)

    def menu(item: ChouetteSelect) -> None:
        item.row = 0
        view.add_item(item)

    if s.status is Status.OPEN or s.game is None:
        for verb in ("join", "leave", "begin"):
            button(verb, 0)
        return view
    g = s.game
    advice = s.options.consultation is not Consultation.NONE
    if g.stage is Stage.WINDOW:
        for verb in ("double", "pass", "roll"):
            button(verb, 0)
        if advice:
            button("suggest", 0)
            button("advice", 0)
    elif g.stage is Stage.BOX_ANSWERS:
        options = []
        for cube in g.cubes:
            if cube.offer is not Offer.BY_MEMBER:
                continue
            name = s.name(cube.member)
            take = words.take_option(name, cube.value * 2)
            options.append(
                discord.SelectOption(label=_cut(say(take, language)), value=f"t:{cube.member}")
            )
            if s.options.beavers:
                beaver = words.beaver_option(name, cube.value * 4)
                options.append(
                    discord.SelectOption(
                        label=_cut(say(beaver, language)), value=f"b:{cube.member}"
                    )
                )
        placeholder = _cut(say(words.CHOOSE_ANSWERS, language))
        menu(ChouetteSelect("answer", session, moment, options, placeholder, least=0))
        button("takeall", 1)
        button("dropall", 1)
    elif g.stage is Stage.BOX_TURN:
        eligible = [c for c in g.cubes if can_double(c, Side.BOX)]
        if eligible:
            options = [
                discord.SelectOption(
                    label=_cut(say(words.double_option(s.name(c.member), c.value * 2), language)),
                    value=str(c.member),
                )
                for c in eligible
            ]
            placeholder = _cut(say(words.CHOOSE_DOUBLES, language))
            menu(ChouetteSelect("double", session, moment, options, placeholder))
            button("dblall", 1)
        button("roll", 1)
    elif g.stage is Stage.MEMBER_ANSWERS:
        button("take", 0)
        button("drop", 0)
        if s.options.beavers or s.options.captain_must_beaver:
            button("beaver", 0)
        if s.options.consultation is Consultation.FULL:
            button("suggest", 0)
            button("advice", 0)
    elif g.stage is Stage.MOVE and g.to_move is not None:
        if not s.is_computer(g.to_move):
            tap = Tap(TapVerb.OPEN, session, moment, prefix=PICKER)
            label = say(words.BUTTON_LABELS["play"], language)
            view.add_item(ChouettePickerButton(tap, label, discord.ButtonStyle.primary, row=0))
        if advice and g.board.on_roll == Side.TEAM:
            button("suggest", 0)
            button("advice", 0)
    last = 2
    if len(s.present) < MAX_PLAYERS:
        button("join", last)
    button("leave", last)
    return view


__all__ = [
    "ACTIONS",
    "ChouetteButton",
    "ChouettePickerButton",
    "ChouettePickerSelect",
    "ChouetteSelect",
    "Handler",
    "PickerReply",
    "SuggestModal",
    "view_for",
]
