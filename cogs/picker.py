"""The tap picker: a whole turn played with buttons and menus, for players on a phone.

The public board of a player who must move carries a **Play** button. Pressing it opens a
picker only that player sees (an ephemeral message): their board with the play so far
drawn, a menu of the checkers that can move, a menu of where the chosen one can go (with
the dice each uses) or, before any checker is chosen, every whole play when there are at
most 25, and Undo, Reset, Confirm and Resign. Each tap answers by replacing the picker
(interaction response type 7, picture included); Confirm sends the play through the same
session action as ``/backgammon move`` (the session's one entry,
:meth:`~bot.core.session.SessionService.act`).

Restart-proof and multi-process safe: every component's ``custom_id`` carries the match,
the match's stored version (the turn it was built for) and the groups taken so far
(``bgpk:<verb>:<match>:<version>:<steps>[:<source>]``, see :mod:`bot.engine.steps`). Nothing
lives in memory. A tap only reads the channel's game and compares; Confirm and Resign
carry the version to the session, which checks it under the channel's lock, so a picker
whose turn is over changes nothing, in any process, after any restart.

Which choices exist is decided by :class:`bot.engine.steps.PartialPlay` alone.

May import: discord, :mod:`bot.engine`, :mod:`bot.core.errors`, :mod:`bot.i18n`,
:mod:`bot.present`, :mod:`bot.core.records`, :mod:`bot.core.reports`, :mod:`cogs.replies`,
:mod:`cogs.helpers`, :mod:`cogs.kit` (the bot's guard runs every tap, as it runs every
button press). Never :mod:`cogs.views`, which imports this module for the Play button.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import re
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

import discord

from bot import present
from bot.core.actions import MoveCheck, may_move
from bot.core.errors import StaleButtonError, UserError
from bot.core.records import Action, MatchRow, Status
from bot.core.reports import ActionContext
from bot.engine import Game, Phase, Play, ResultKind
from bot.engine.steps import PartialPlay, StepError, decode_steps, encode_steps
from bot.i18n import language_of, say
from bot.present import picker as words
from cogs.helpers import player_of
from cogs.kit import Kit, kit_of
from cogs.replies import MenuReply, safe_name

Interaction = discord.Interaction[Any]

PLAYS_LISTED = 25  # a select holds at most 25 options: list every play up to that many
LABEL_LIMIT = 100  # an option's label and description (Discord's limits)
FILENAME = "picker.png"
KINDS = {
    "single": ResultKind.SINGLE,
    "gammon": ResultKind.GAMMON,
    "backgammon": ResultKind.BACKGAMMON,
}


class TapVerb(StrEnum):
    """What a picker component does; one letter each, for Discord's 100-character custom_id."""

    # buttons
    OPEN = "o"  # the public board's Play
    UNDO = "u"
    RESET = "r"
    CONFIRM = "c"
    RESIGN = "g"  # ask how much
    BACK = "b"  # from the resignation menu
    # selects
    SOURCE = "s"
    DESTINATION = "d"
    WHOLE = "a"  # a whole play at once
    KIND = "k"  # the resignation's kind


_BUTTON_VERBS = "".join(
    v
    for v in (
        TapVerb.OPEN,
        TapVerb.UNDO,
        TapVerb.RESET,
        TapVerb.CONFIRM,
        TapVerb.RESIGN,
        TapVerb.BACK,
    )
)
_SELECT_VERBS = "".join(
    v for v in (TapVerb.SOURCE, TapVerb.DESTINATION, TapVerb.WHOLE, TapVerb.KIND)
)
_ID = (
    r"bgpk:(?P<verb>[{verbs}]):(?P<match>[0-9]{{1,19}}):(?P<version>[0-9]{{1,12}}):"
    r"(?P<steps>[a-z1-6.]{{0,16}})(?::(?P<source>[0-9]{{1,2}}))?"
)


@dataclasses.dataclass(frozen=True, slots=True)
class Tap:
    """What one component of the picker means: its verb and the turn state it carries."""

    verb: TapVerb
    match_id: int
    version: int
    steps: str = ""
    source: int | None = None
    prefix: str = "bgpk"  # whose picker: a game's, or a puzzle's ("bgpz", cogs/puzzle.py)

    def custom_id(self) -> str:
        """At most 60 characters (a 19-digit match, a 12-digit version, 11 of steps)."""
        tail = "" if self.source is None else f":{self.source}"
        return f"{self.prefix}:{self.verb}:{self.match_id}:{self.version}:{self.steps}{tail}"

    @classmethod
    def parse(cls, match: re.Match[str], prefix: str = "bgpk") -> Tap:
        source = match["source"]
        return cls(
            TapVerb(match["verb"]),
            int(match["match"]),
            int(match["version"]),
            match["steps"],
            int(source) if source else None,
            prefix,
        )


class PickerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=_ID.format(verbs=_BUTTON_VERBS),
):
    """Play (on the public board), Undo, Reset, Confirm, Resign and Back (in the picker)."""

    def __init__(
        self,
        tap: Tap,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or tap.verb,
                style=style,
                custom_id=tap.custom_id(),
                disabled=disabled,
                row=row,
            )
        )
        self.tap = tap

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickerButton:
        return cls(Tap.parse(match))

    async def callback(self, interaction: Interaction) -> None:
        await _dispatch(interaction, self.tap, [])


class PickerSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=_ID.format(verbs=_SELECT_VERBS),
):
    """The menus: a checker, its destination, a whole play, how much to resign."""

    def __init__(
        self,
        tap: Tap,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        *,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=tap.custom_id(),
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
                row=row,
            )
        )
        self.tap = tap

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickerSelect:
        return cls(Tap.parse(match))

    async def callback(self, interaction: Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        await _dispatch(interaction, self.tap, values)


def play_button(row: MatchRow, language: str) -> PickerButton | None:
    """The public board's Play button, when a person must move (not the computer)."""
    game = row.game
    if row.status != Status.PLAYING or game is None or game.phase is not Phase.MOVE:
        return None
    if game.resignation is not None or game.actor is None:
        return None
    if row.computer_level is not None and game.actor == 1:
        return None
    tap = Tap(TapVerb.OPEN, row.id, row.version)
    return PickerButton(tap, say(words.PLAY, language), discord.ButtonStyle.primary)


class PickerReply(MenuReply):
    """The answer to a tap: the picker itself, replaced in place (or opened, for Play).

    After Confirm or a resignation is stored, the picker is replaced by a line saying what
    was sent (:class:`cogs.replies.MenuReply`), and the public board follows as a followup.
    """

    def __init__(self, interaction: Interaction, tap: Tap) -> None:
        super().__init__(interaction)
        self.tap = tap

    def context(self, match_id: int | None = None) -> ActionContext:
        """The picker's own turn, whatever the caller names: its match at its version."""
        return ActionContext(
            match_id=self.tap.match_id, version=self.tap.version, public=str(self.interaction.id)
        )

    async def show(self, *, new: bool, **kwargs: Any) -> None:
        """Open a picker (``new``) or replace the tapped one, whatever was sent so far."""
        interaction = self.interaction
        if not new:
            await self.replace(**kwargs)
            return
        async with self._lock:
            if not self.done:
                await interaction.response.send_message(ephemeral=True, **kwargs)
                return
        await interaction.followup.send(ephemeral=True, **kwargs)

    async def remove_buttons(self) -> None:
        """The picker says what was sent; the board it came from loses its Play button
        (where the bot may edit it: in its own channels)."""
        if self.sent is None:
            return
        await super().remove_buttons()
        # The picker was opened by a tap on a board: Discord names that message.
        picker = self.interaction.message
        metadata = picker.interaction_metadata if picker is not None else None
        board_id = metadata.interacted_message_id if metadata is not None else None
        if board_id is not None and self.interaction.channel_id is not None and self.in_channel:
            channel = self.interaction.client.get_partial_messageable(self.interaction.channel_id)
            # Off the answer's path: the new board need not wait for the old one's edit.
            task = asyncio.ensure_future(_edit_quietly(channel.get_partial_message(board_id)))
            _EDITS.add(task)
            task.add_done_callback(_EDITS.discard)


_EDITS: set[asyncio.Future[None]] = set()  # boards losing their Play button, kept alive


async def _edit_quietly(message: discord.PartialMessage) -> None:
    with contextlib.suppress(discord.HTTPException):
        await message.edit(view=None)


async def _dispatch(interaction: Interaction, tap: Tap, values: list[str]) -> None:
    kit = kit_of(interaction.client)
    reply = PickerReply(interaction, tap)
    try:
        if tap.verb == TapVerb.CONFIRM:
            await _confirm(kit, interaction, reply)
        elif tap.verb == TapVerb.KIND:
            await _resign(kit, interaction, reply, values)
        else:
            await kit.run(interaction, lambda r: _tap(kit, interaction, reply, values), reply=reply)
    except Exception as exc:  # the guard answers most; this catches what escapes it
        await interaction.client.tree.on_error(interaction, exc)


async def _turn(kit: Kit, interaction: Interaction, tap: Tap) -> tuple[MatchRow, Game]:
    """The channel's game if the tap still belongs to its turn and to the presser."""
    row = await kit.session.current(interaction.channel_id or 0)
    if row is None or row.id != tap.match_id:
        raise StaleButtonError(words.GAME_OVER)
    if row.version != tap.version:
        raise StaleButtonError(words.STALE)
    check = may_move(row, interaction.user.id)
    if check is MoveCheck.NO_TURN:
        raise StaleButtonError(words.NO_TURN)
    game = row.game
    assert game is not None
    if check is MoveCheck.NOT_YOURS:
        raise UserError(words.not_yours(safe_name(row.player_names[game.on_roll])))
    return row, game


def _partial(game: Game, steps: str) -> PartialPlay:
    assert game.dice is not None
    try:
        return PartialPlay(game.position, game.dice, decode_steps(steps))
    except StepError as exc:
        raise StaleButtonError(words.GONE) from exc


async def _tap(kit: Kit, interaction: Interaction, reply: PickerReply, values: list[str]) -> None:
    """Every tap that acts on nothing: open, choose, undo, reset, resign menu, back."""
    tap = reply.tap
    row, game = await _turn(kit, interaction, tap)
    partial, source = advance(_partial(game, tap.steps), tap, values)
    resigning = tap.verb == TapVerb.RESIGN
    language = language_of(interaction.locale)
    state = Tap(TapVerb.OPEN, row.id, row.version, encode_steps(partial.groups))
    view = (
        _resign_view(state, language)
        if resigning
        else _picker_view(state, partial, source, language)
    )
    text = say(words.status_line(partial, game.dice or (0, 0)), language)
    picture = await _picture(kit, row, game, partial, interaction.user.id, language)
    kwargs: dict[str, Any] = {"content": text, "view": view}
    if tap.verb == TapVerb.OPEN:
        await reply.show(new=True, file=picture, **kwargs)
    else:
        await reply.show(new=False, attachments=[picture], **kwargs)


def advance(partial: PartialPlay, tap: Tap, values: list[str]) -> tuple[PartialPlay, int | None]:
    """What one tap does to the play being built: the new partial play, and the checker
    chosen (the ``s`` menu) whose destinations to offer next. Undo takes back the last
    choice: the checker chosen, when the tap carries one, else the last group (a whole play
    is one group). Verbs that change nothing here (open, resign, back) leave it as it is. A
    choice no longer possible (a forged or stale id) is :class:`~bot.core.errors.StaleButtonError`.
    Shared with the puzzles' picker."""
    source: int | None = None
    verb = tap.verb
    try:
        if verb == TapVerb.SOURCE:
            source = int(values[0])
            if source not in {s.point for s in partial.sources()}:
                raise StepError(f"no checker can move from {source}")
        elif verb == TapVerb.DESTINATION:
            (group,) = decode_steps(values[0])
            partial = partial.then(group)
        elif verb == TapVerb.WHOLE:
            # Offered only before anything is built: never a swap of the moves made.
            if partial.groups:
                raise StepError("a whole play over moves already built")
            (group,) = decode_steps(values[0])
            partial = partial.then(group)
            if not partial.complete:
                raise StepError("a whole play that is not whole")
        elif verb == TapVerb.UNDO:
            if tap.source is None:
                partial = partial.undo()
        elif verb == TapVerb.RESET:
            partial = partial.reset()
    except (StepError, ValueError, IndexError) as exc:
        raise StaleButtonError(words.GONE) from exc
    return partial, source


async def _confirm(kit: Kit, interaction: Interaction, reply: PickerReply) -> None:
    """Send the built play through the same session action as ``/backgammon move``."""
    tap = reply.tap
    user = player_of(interaction.user)
    channel_id = interaction.channel_id or 0

    async def action(ctx: ActionContext) -> Any:
        _row, game = await _turn(kit, interaction, tap)  # a clear refusal before the lock
        partial = _partial(game, tap.steps)
        if not partial.complete:
            raise StaleButtonError(words.GONE)
        play = partial.play()
        reply.sent = words.played_line(str(play))
        return await kit.session.act(channel_id, user, Action.MOVE, ctx, play=play)

    await kit.act(interaction, action, pressed=True, reply=reply)


async def _resign(
    kit: Kit, interaction: Interaction, reply: PickerReply, values: list[str]
) -> None:
    """``/backgammon resign`` from the picker: the offer goes on the public board."""
    tap = reply.tap
    user = player_of(interaction.user)
    channel_id = interaction.channel_id or 0

    async def action(ctx: ActionContext) -> Any:
        await _turn(kit, interaction, tap)
        kind = KINDS.get(values[0] if values else "")
        if kind is None:
            raise StaleButtonError(words.GONE)
        reply.sent = words.RESIGN_SENT
        return await kit.session.act(channel_id, user, Action.RESIGN, ctx, kind=kind)

    await kit.act(interaction, action, pressed=True, reply=reply)


# --- what the picker shows ------------------------------------------------------------------


def _picker_view(
    state: Tap,
    partial: PartialPlay,
    source: int | None,
    language: str,
    *,
    button: type[PickerButton] | None = None,
    select: type[PickerSelect] | None = None,
    resign: bool = True,
) -> discord.ui.View:
    """At most 4 rows: the checker menu, then either the chosen checker's destinations or,
    before any checker is chosen or moved, every whole play (when 25 or fewer), and the
    buttons. One way to build at a time, so the whole plays never contradict moves built nor
    repeat a destination's label. ``source``: the checker the player chose (the only one
    that can move is chosen for them, unless the whole plays are listed). ``button`` and
    ``select``: another picker's components (a puzzle's, whose ids carry the puzzle), built
    from the same choices; ``resign``: offer Resign (a puzzle has none)."""
    PickerSelect_ = select or PickerSelect
    PickerButton_ = button or PickerButton
    view = discord.ui.View(timeout=None)
    row = 0
    chosen = source
    listed = source is None and not partial.groups and not partial.complete
    listed = listed and len(partial.plays) <= PLAYS_LISTED
    sources = partial.sources()
    if sources:
        if source is None and len(sources) == 1 and not listed:
            source = sources[0].point
        options = [
            discord.SelectOption(
                label=_cut(say(words.source_label(s), language)),
                value=str(s.point),
                default=s.point == source,
            )
            for s in sources
        ]
        view.add_item(
            PickerSelect_(
                dataclasses.replace(state, verb=TapVerb.SOURCE),
                options,
                _cut(say(words.CHOOSE_CHECKER, language)),
                row=row,
            )
        )
        row += 1
    if source is not None:
        options = [
            discord.SelectOption(
                label=_cut(words.destination_label(d)),
                value=encode_steps((d.group,)),
                description=_cut(say(words.destination_description(d), language)),
            )
            for d in partial.destinations(source)
        ]
        tap = dataclasses.replace(state, verb=TapVerb.DESTINATION, source=source)
        view.add_item(
            PickerSelect_(tap, options, _cut(say(words.where_to(source), language)), row=row)
        )
        row += 1
    elif listed:
        whole = sorted((str(p), partial.whole(p)) for p in partial.plays)
        options = [
            discord.SelectOption(label=_cut(text), value=encode_steps((group,)))
            for text, group in whole
        ]
        view.add_item(
            PickerSelect_(
                dataclasses.replace(state, verb=TapVerb.WHOLE),
                options,
                say(words.CHOOSE_PLAY, language),
                row=row,
            )
        )
        row += 1
    # Undo and Reset take back a checker chosen, too: the whole plays come back with them.
    taken = bool(partial.groups) or chosen is not None
    buttons = [
        (TapVerb.UNDO, words.UNDO, discord.ButtonStyle.secondary, not taken),
        (TapVerb.RESET, words.RESET, discord.ButtonStyle.secondary, not taken),
        (TapVerb.CONFIRM, words.CONFIRM, discord.ButtonStyle.success, not partial.complete),
    ]
    if resign:
        buttons.append((TapVerb.RESIGN, words.RESIGN, discord.ButtonStyle.danger, False))
    for verb, label, style, disabled in buttons:
        tap = dataclasses.replace(state, verb=verb, source=chosen if verb == TapVerb.UNDO else None)
        view.add_item(PickerButton_(tap, say(label, language), style, disabled=disabled, row=row))
    return view


def _resign_view(state: Tap, language: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    options = [
        discord.SelectOption(label=say(label, language), value=value)
        for label, value in zip(words.RESIGN_KINDS, KINDS, strict=True)
    ]
    view.add_item(
        PickerSelect(
            dataclasses.replace(state, verb=TapVerb.KIND),
            options,
            say(words.CHOOSE_KIND, language),
            row=0,
        )
    )
    back = dataclasses.replace(state, verb=TapVerb.BACK)
    view.add_item(PickerButton(back, say(words.BACK, language), row=1))
    return view


async def _picture(
    kit: Kit, row: MatchRow, game: Game, partial: PartialPlay, user_id: int, language: str
) -> discord.File:
    """The player's board with the play so far drawn as the last play (arrows, hits)."""
    shown = dataclasses.replace(
        game,
        position=partial.board,
        last_play=Play(partial.moves) if partial.moves else None,
        last_player=game.on_roll,
        last_position=game.position,
    )
    settings = await kit.services.club.user_settings(user_id)
    options: dict[str, Any] = {
        "perspective": game.on_roll,
        "names": row.player_names,
        "words": present.board_words(language),
        "theme": settings.theme,
        "home": settings.board_side,
    }
    render = kit.publisher.renderer
    if render is not None:
        png = await asyncio.to_thread(render, shown, **options)
    else:
        png = await kit.services.workers.render(shown, **options)
    return discord.File(io.BytesIO(png), filename=FILENAME)


picker_view = _picker_view  # for other pickers (cogs/puzzle.py)


def _cut(text: str) -> str:
    return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"
