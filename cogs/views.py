"""Buttons that survive restarts.

Each button is a :class:`discord.ui.DynamicItem` whose ``custom_id`` says what it means:
``bg:<action>:<match id>:<game number>:<version>``, the exact state it was posted for (the
match row's version moves on with every stored action). Nothing lives in memory: after a
restart the bot parses the id again, and the session, under the channel's lock, refuses a
button whose match, game or version is no longer the channel's live one, so a button on an
old board (an earlier turn, an earlier game of the match, a ``/backgammon board`` post that
the game has moved past) never acts on a later state.

Buttons posted before the ids carried a version (``bg:<action>:<match id>``) still parse:
the session honours them only where the match alone is exact (a pending challenge's Accept
and Decline, a finished match's Rematch) and refuses the others as stale. Rematch buttons
keep that short form: a finished match never changes.

A button press is not an app command, so discord.py never hands its errors to the command
tree: the bot's front-end kit (:mod:`cogs.kit`), which runs every press, and this callback
for anything outside it, pass them to the tree's one ``on_error`` (:mod:`bot.client`).

A button's label is drawn in the language of the message it sits on (the server's); after
a restart the label is not needed, only the ``custom_id``.

May import: discord, :mod:`bot.engine`, :mod:`bot.i18n`, :mod:`bot.core.records`,
:mod:`cogs.picker` (the Play button), :mod:`cogs.kit`. Never a cog.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.errors import Name, Refusal, StaleButtonError, UserError
from bot.core.records import Action, MatchRow, Status
from bot.engine import Phase
from bot.i18n import language_of, say
from bot.present import picker as picker_words
from bot.present.notices import BUTTON_LABELS
from cogs.kit import kit_of
from cogs.picker import KINDS, play_button
from cogs.replies import MenuReply, Reply

# action -> its button's style (its label: bot.present.notices.BUTTON_LABELS)
BUTTONS: dict[Action, discord.ButtonStyle] = {
    Action.ACCEPT: discord.ButtonStyle.success,
    Action.DECLINE: discord.ButtonStyle.danger,
    Action.ROLL: discord.ButtonStyle.primary,
    Action.DOUBLE: discord.ButtonStyle.secondary,
    Action.TAKE: discord.ButtonStyle.success,
    Action.DROP: discord.ButtonStyle.danger,
    Action.BEAVER: discord.ButtonStyle.secondary,
    Action.RESIGN_ACCEPT: discord.ButtonStyle.success,
    Action.RESIGN_REJECT: discord.ButtonStyle.danger,
    Action.REMATCH: discord.ButtonStyle.primary,
    # Where the bot is not in the channel (a DM game), what commands do elsewhere.
    Action.RESIGN: discord.ButtonStyle.secondary,
    Action.CLAIM: discord.ButtonStyle.secondary,
    Action.BOARD: discord.ButtonStyle.secondary,
}
_ACTIONS = "|".join(BUTTONS)


CUSTOM_ID_LIMIT = 100  # Discord's limit on a component's custom_id


@dataclass(frozen=True, slots=True)
class ButtonRef:
    """What a pressed button names: the match, and the game and version it was posted for.

    ``version`` None: a button posted before the ids carried one (see the module's
    docstring); the session decides whether the match alone is exact enough.
    """

    match_id: int
    game_number: int | None = None
    version: int | None = None

    def custom_id(self, action: Action) -> str:
        if self.version is None:
            return f"bg:{action}:{self.match_id}"
        return f"bg:{action}:{self.match_id}:{self.game_number or 0}:{self.version}"


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        rf"bg:(?P<action>{_ACTIONS}):(?P<match>[0-9]{{1,19}})"
        r"(?::(?P<game>[0-9]{1,6}):(?P<version>[0-9]{1,19}))?"
    ),
):
    """A game button; the cog performs the action for whoever presses it."""

    def __init__(self, action: Action, ref: ButtonRef, language: str = "en") -> None:
        label, style = BUTTON_LABELS[action], BUTTONS[action]
        custom_id = ref.custom_id(action)
        assert len(custom_id) <= CUSTOM_ID_LIMIT, custom_id
        super().__init__(
            discord.ui.Button(label=say(label, language), style=style, custom_id=custom_id)
        )
        self.action = action
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        version = match["version"]
        ref = ButtonRef(
            int(match["match"]),
            int(match["game"]) if version is not None else None,
            int(version) if version is not None else None,
        )
        return cls(Action(match["action"]), ref)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            kit = kit_of(interaction.client)
            if self.action == Action.RESIGN:  # how much? a private menu first
                await kit.run(
                    interaction, lambda reply: _resign_menu(reply, self.ref), private=True
                )
                return
            await kit.press(interaction, self.action, self.ref)
        except Exception as exc:  # the guard answers most; this catches what escapes it
            await interaction.client.tree.on_error(interaction, exc)


class ResignSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"bgrs:(?P<match>[0-9]{1,19}):(?P<game>[0-9]{1,6}):(?P<version>[0-9]{1,19})",
):
    """How much a player concedes, from the private menu of a board's Resign button (where
    the bot is not in the channel: the other player has no ``/backgammon resign``). The
    offer carries the board's exact state, like any button."""

    def __init__(self, ref: ButtonRef, language: str = "en") -> None:
        options = [
            discord.SelectOption(label=say(label, language), value=value)
            for label, value in zip(picker_words.RESIGN_KINDS, KINDS, strict=True)
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"bgrs:{ref.match_id}:{ref.game_number or 0}:{ref.version or 0}",
                options=options,
                placeholder=say(picker_words.CHOOSE_KIND, language),
            )
        )
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ResignSelect:
        return cls(ButtonRef(int(match["match"]), int(match["game"]), int(match["version"])))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            data: Any = interaction.data or {}
            values = [str(v) for v in data.get("values", [])]
            kind = KINDS.get(values[0] if values else "")
            reply = MenuReply(interaction)
            reply.sent = picker_words.RESIGN_SENT
            kit = kit_of(interaction.client)
            if kind is None:  # a forged choice: refused like a stale one
                raise StaleButtonError(picker_words.GONE)
            await kit.perform(interaction, Action.RESIGN, button=self.ref, reply=reply, kind=kind)
        except Exception as exc:  # the guard answers most; this catches what escapes it
            await interaction.client.tree.on_error(interaction, exc)


async def _resign_menu(reply: Reply, ref: ButtonRef) -> None:
    """The presser's private menu of how much to concede (players only)."""
    interaction = reply.interaction
    row = await kit_of(interaction.client).session.match(ref.match_id)
    if row is None or row.player_index(interaction.user.id) is None:
        names = row.player_names if row is not None else ("?", "?")
        raise UserError(Refusal.NOT_A_PLAYER, first=Name(names[0]), second=Name(names[1]))
    view = discord.ui.View(timeout=None)
    view.add_item(ResignSelect(ref, language_of(interaction.locale)))
    await reply.private(view=view)


def actions_for(row: MatchRow) -> list[Action]:
    """The buttons for the next natural action in a match's current state."""
    if row.status == Status.CHALLENGE:
        return [Action.ACCEPT, Action.DECLINE]
    if row.status == Status.FINISHED:
        return [Action.REMATCH]
    game = row.game
    if row.status != Status.PLAYING or game is None:
        return []
    if game.resignation is not None:
        return [Action.RESIGN_ACCEPT, Action.RESIGN_REJECT]
    if game.phase is Phase.DOUBLED:
        beaver = game.options.is_money and game.options.beavers and not game.beaver_pending
        return [Action.TAKE, Action.DROP, *([Action.BEAVER] if beaver else [])]
    if game.phase is Phase.ROLL:
        return [Action.ROLL, *([Action.DOUBLE] if game.can_double() else [])]
    return []


def commands_elsewhere(row: MatchRow) -> list[Action]:
    """Where the bot is not in the channel (a DM, a group DM, a server without the bot), the
    buttons that stand in for commands the other player cannot use, having no app: resign
    (a menu of how much), claim the win from an idle opponent (there is no reminder), and
    the current board (after a restart, or when the computer finished a turn on its own)."""
    if row.venue.reachable or row.status != Status.PLAYING or row.game is None:
        return []
    actions = [Action.BOARD]
    if row.game.resignation is None:
        actions.insert(0, Action.RESIGN)
    if row.computer_level is None:
        actions.insert(1, Action.CLAIM)
    return actions


def ref_for(row: MatchRow, action: Action) -> ButtonRef:
    """What a button for ``action`` on a board of ``row`` names: its exact state, except a
    Rematch, which names a finished match (it never changes), and Board, which shows
    whatever the match's board is now."""
    if action in (Action.REMATCH, Action.BOARD):
        return ButtonRef(row.id)
    game_number = row.game.game_number if row.game is not None else 0
    return ButtonRef(row.id, game_number, row.version)


def view_for(
    row: MatchRow, language: str = "en", web: Sequence[discord.ui.Item[Any]] = ()
) -> discord.ui.View | None:
    """The next-action buttons for the state ``row`` holds, labelled in ``language``;
    ``web``: the web board's buttons (cogs/weblinks.py) after them."""
    actions = actions_for(row)
    # --- the tap picker's Play button (cogs/picker.py), when a person must move ---------
    play = play_button(row, language)
    if not actions and play is None and not web and not commands_elsewhere(row):
        return None
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(ActionButton(action, ref_for(row, action), language))
    if play is not None:
        view.add_item(play)
    for action in commands_elsewhere(row):
        view.add_item(ActionButton(action, ref_for(row, action), language))
    for item in web:
        view.add_item(item)
    return view
