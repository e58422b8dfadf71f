"""Issue #25: a button acts on the exact game and turn it was posted for, or on none.

Every board's buttons name the match, the game and the version of the state they were
posted for; the session refuses them, privately and changing nothing, once the channel's
game has moved on. Each test drives the real bot through the fake Discord and failed on the
code before (where a button named only its match, so any old board of the match acted on the
current state).
"""

from __future__ import annotations

from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import RecordedMessage


async def _match_to_three(h: Harness) -> RecordedMessage:
    """alice challenges bob to 3 points; alice wins the opening with 3-1 and plays it.
    Returns the board after her play: bob to roll (Roll and Double buttons)."""
    h.roller.extend([3, 1])
    result = await h.slash(h.alice, "challenge", opponent=h.bob.id, length=3)
    challenge = await result.original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    return await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))


async def _bob_resigns_game_one(h: Harness) -> RecordedMessage:
    """bob offers to resign game 1; returns the offer's board (Accept resignation, Reject)."""
    return await h.board_after(await h.slash(h.bob, "resign", kind="single"))


async def _into_game_two(h: Harness, offer: RecordedMessage) -> None:
    """alice accepts bob's resignation; game 2 opens (alice 3-1 again) and she plays it."""
    h.roller.extend([3, 1])
    ended = await h.board_after(await h.press(h.alice, offer, "resign_accept"))
    assert "game 2" in (ended.content or "").lower(), ended.content
    await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))


async def test_game_ones_roll_pressed_in_game_two_is_refused(harness: Harness) -> None:
    h = harness
    game_one_board = await _match_to_three(h)
    assert any(c.startswith("bg:roll:") for c in game_one_board.custom_ids)
    offer = await _bob_resigns_game_one(h)
    await _into_game_two(h, offer)
    before = await h.live()
    assert before is not None and before.game is not None
    assert before.game.game_number == 2 and before.game.dice is None  # bob to roll

    h.roller.extend([6, 5])  # what a wrongly accepted press would roll
    error = await h.error_of(await h.press(h.bob, game_one_board, "roll"))
    assert "game 1" in error and "game 2" in error, error
    after = await h.live()
    assert after == before  # nothing changed: same version, no dice
    assert h.roller.remaining() == 2


async def test_a_resignation_accept_from_game_one_is_refused_in_game_two(
    harness: Harness,
) -> None:
    h = harness
    await _match_to_three(h)
    offer = await _bob_resigns_game_one(h)
    # A second board of the same offer (its buttons stay when the first is pressed).
    copy = await h.board_after(await h.slash(h.alice, "board"))
    assert any(c.startswith("bg:resign_accept:") for c in copy.custom_ids)
    await _into_game_two(h, offer)
    await h.board_after(await h.slash(h.bob, "resign", kind="single"))  # a new offer, game 2
    before = await h.live()
    assert before is not None and before.game is not None
    assert before.game.game_number == 2 and before.game.resignation is not None

    h.roller.extend([3, 1])  # game 3's opening, were the press wrongly accepted
    error = await h.error_of(await h.press(h.alice, copy, "resign_accept"))
    assert "game 1" in error, error
    assert h.roller.remaining() == 2
    after = await h.live()
    assert after == before  # game 2 goes on, its offer still waiting for an answer
    assert after is not None and after.status == "playing"


async def test_a_board_commands_button_is_refused_once_the_game_moved_on(
    harness: Harness,
) -> None:
    h = harness
    board = await _match_to_three(h)  # bob to roll
    looked = await h.board_after(await h.slash(h.bob, "board"))
    assert any(c.startswith("bg:roll:") for c in looked.custom_ids)
    h.roller.extend([5, 2])
    await h.board_after(await h.press(h.bob, board, "roll"))
    await h.board_after(await h.slash(h.bob, "move", play="13/8 13/11"))
    h.roller.extend([3, 1])
    await h.board_after(await h.slash(h.alice, "roll"))
    await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    before = await h.live()  # bob to roll again, as when the board was looked at
    assert before is not None and before.game is not None and before.game.dice is None
    assert before.game.on_roll == 1

    h.roller.extend([6, 6])
    error = await h.error_of(await h.press(h.bob, looked, "roll"))
    assert "earlier turn" in error, error
    assert await h.live() == before
    assert h.roller.remaining() == 2


def _as_posted_by_the_old_bot(h: Harness, message: RecordedMessage) -> None:
    """Rewrite a stored message's buttons to the ids the bot posted before they carried a
    version (``bg:<action>:<match>``), as on a server that ran the old bot."""
    for component in h.fake.message(message.id).interactive:
        parts = (component.custom_id or "").split(":")
        component.raw["custom_id"] = ":".join(parts[:3])  # type: ignore[index]


async def test_buttons_posted_by_the_old_bot_are_refused_politely(harness: Harness) -> None:
    """A running game's button without a version could be any old board: refused as
    stale. A challenge's Accept never needed one (a challenge changes only when answered)."""
    h = harness
    h.roller.extend([3, 1])
    challenge = await (
        await h.slash(h.alice, "challenge", opponent=h.bob.id, length=3)
    ).original_message()
    _as_posted_by_the_old_bot(h, challenge)
    assert any(c.count(":") == 2 for c in challenge.custom_ids)
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    board = await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    _as_posted_by_the_old_bot(h, board)
    before = await h.live()

    h.roller.extend([6, 5])
    error = await h.error_of(await h.press(h.bob, board, "roll"))
    assert h.roller.remaining() == 2
    assert "older board" in error and "/backgammon board" in error, error
    assert await h.live() == before
    assert [e for e in h.fake.errors if e.status >= 400] == []


async def test_every_custom_id_fits_discords_limit(harness: Harness) -> None:
    h = harness
    board = await _match_to_three(h)
    for custom_id in board.custom_ids:
        assert len(custom_id) <= 100
        _action, match, game, version = custom_id.split(":")[1:]
        assert int(match) > 0 and game == "1" and int(version) > 0, custom_id
