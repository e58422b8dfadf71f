"""A whole game played only with taps, through the real discord.py and the fake Discord."""

from __future__ import annotations

from tests.e2e.conftest import Harness
from tests.e2e.picker_support import open_picker, options, play_by_taps, press, tapped


async def start_game(h: Harness, opening: tuple[int, int]):
    h.roller.extend(opening)
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    return await press(h, h.bob, challenge, "accept")


async def test_an_opening_play_by_taps(harness: Harness) -> None:
    h = harness
    board = await start_game(h, (3, 1))
    assert "Play" in [b.label for b in board.buttons]
    picker = await open_picker(h, h.alice, board)
    assert sorted(options(picker, "s")) == [
        "13-point (5 checkers)",
        "24-point (2 checkers)",
        "6-point (5 checkers)",
        "8-point (3 checkers)",
    ]
    after = await play_by_taps(h, h.alice, board, ["8/5", "6/5"])
    assert "alice rolls 3-1 and plays 8/5 6/5." in after.content
    h.fake.assert_clean()
