"""Tapping through the tap picker as a player on a phone would (tests/e2e/test_picker.py).

Everything goes through the fake Discord's ``click``: the public board's Play button, then
the picker's menus and buttons, found by their labels as a player reads them.
"""

from __future__ import annotations

from bot.engine import Move, Play, format_moves
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    FakeMember,
    InteractionResult,
    RecordedMessage,
)


def custom_id(message: RecordedMessage, verb: str) -> str:
    (found,) = [c for c in message.custom_ids if c.startswith(f"bgpk:{verb}:")]
    return found


def options(message: RecordedMessage, verb: str) -> dict[str, str]:
    """A picker menu's options: label -> value."""
    component = message.component(custom_id(message, verb))
    return {o["label"]: o["value"] for o in component.options}


async def open_picker(h: Harness, who: FakeMember, board: RecordedMessage) -> RecordedMessage:
    """Press Play on a public board; the private picker it opens."""
    result = await h.fake.click(who, board, custom_id(board, "o"))
    callback = await result.response()
    assert callback.type == CALLBACK_CHANNEL_MESSAGE and callback.ephemeral, callback
    assert callback.message is not None
    picker = h.fake.message(callback.message.id)
    assert picker.attachments and picker.attachments[0].filename == "picker.png"
    return picker


async def tap(
    h: Harness, who: FakeMember, picker: RecordedMessage, verb: str, value: str | None = None
) -> InteractionResult:
    values = None if value is None else [value]
    return await h.fake.click(who, picker, custom_id(picker, verb), values=values)


async def tapped(
    h: Harness, who: FakeMember, picker: RecordedMessage, verb: str, value: str | None = None
) -> RecordedMessage:
    """A tap that must replace the picker in place (type 7, the picture with it)."""
    result = await tap(h, who, picker, verb, value)
    callback = await result.response()
    assert callback.type == CALLBACK_UPDATE_MESSAGE, (callback, result.errors)
    updated = h.fake.message(picker.id)
    assert updated.ephemeral and [a.filename for a in updated.attachments] == ["picker.png"]
    return updated


async def choose(
    h: Harness, who: FakeMember, picker: RecordedMessage, move: str
) -> RecordedMessage:
    """One checker's move by its label (``24/18*/13``, ``bar/22``, ``6/off``)."""
    head = move.split("/")[0]
    source = "25" if head == "bar" else head
    if not any(c.startswith("bgpk:d:") and c.endswith(f":{source}") for c in picker.custom_ids):
        picker = await tapped(h, who, picker, "s", source)
    targets = options(picker, "d")
    assert move in targets, (move, targets)
    return await tapped(h, who, picker, "d", targets[move])


async def confirm(h: Harness, who: FakeMember, picker: RecordedMessage) -> RecordedMessage:
    """Confirm: the picker says what was played and the public board follows."""
    result = await tap(h, who, picker, "c")
    board = await result.answer()
    assert not board.ephemeral, board.content
    after = h.fake.message(picker.id)
    assert after.ephemeral and after.components == [] and after.attachments == []
    assert after.content.startswith("Played: ")
    return board


async def play_button_gone(h: Harness, board: RecordedMessage) -> None:
    """The board a play was made from loses its Play button (an edit of its own)."""
    await h.fake.wait_for(
        lambda: not [c for c in h.fake.message(board.id).custom_ids if c.startswith("bgpk:o:")],
        5,
        "the Play button to come off",
    )


async def play_by_taps(
    h: Harness, who: FakeMember, board: RecordedMessage, moves: list[str]
) -> RecordedMessage:
    """A whole play by taps from a public board: the next public board."""
    picker = await open_picker(h, who, board)
    for move in moves:
        picker = await choose(h, who, picker, move)
    assert "Press Confirm" in picker.content, picker.content
    after = await confirm(h, who, picker)
    await play_button_gone(h, board)
    return after


async def press(
    h: Harness, who: FakeMember, board: RecordedMessage, action: str
) -> RecordedMessage:
    """A public board's button (Roll, Double, Take...): the next public board."""
    return await h.board_after(await h.press(who, board, action))


def groups_of(play: Play, *, combine: bool) -> list[str]:
    """A play as the labels a player taps: one a move, or (``combine``) one a checker where
    the same checker moves on (``24/18*/13``)."""
    groups: list[list[Move]] = []
    for move in play.moves:
        if combine and groups and groups[-1][-1].target == move.source:
            groups[-1].append(move)
        else:
            groups.append([move])
    return [format_moves(tuple(group)) for group in groups]
