"""One function decides what a player sees for any error (bot.client.explain).

A bug before anything is stored: "the game is unchanged", privately; a failure after the
action is stored: "saved", privately; a player's mistake: its own sentence; the same for
buttons (which never reach the command tree) and for commands outside the cog's guard.
"""

from __future__ import annotations

import asyncio
from typing import NoReturn

import discord
import pytest

from bot.client import SAVED, SORRY
from tests.e2e.conftest import Harness


async def test_every_error_is_answered_privately_and_truthfully(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    h.roller.extend([3, 1, 6, 6])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    cog = h.cog

    async def boom(*args: object, **kwargs: object) -> NoReturn:
        raise RuntimeError("a bug")

    # A button, a bug before anything is stored (every front end acts through act()).
    act = h.service.act
    monkeypatch.setattr(h.service, "act", boom)
    assert await h.error_of(await h.press(h.bob, challenge, "accept")) == SORRY
    monkeypatch.setattr(h.service, "act", act)

    # A button, a failure after the action is stored.
    publish = cog.publisher.publish
    monkeypatch.setattr(cog.publisher, "publish", boom)
    result = await h.press(h.bob, challenge, "accept")
    assert await h.error_of(result) == SAVED
    monkeypatch.setattr(cog.publisher, "publish", publish)
    live = await h.live()
    assert live is not None and live.status == "playing"  # it was indeed stored

    # A command, a bug before anything is stored; a player's mistake; a restart.
    monkeypatch.setattr(h.service, "act", boom)
    assert await h.error_of(await h.slash(h.alice, "move", play="8/5 6/5")) == SORRY
    monkeypatch.setattr(h.service, "act", act)
    assert "turn" in await h.error_of(await h.slash(h.bob, "roll"))
    kit = cog.kit
    kit.accepting = False
    assert "restarting" in await h.error_of(await h.slash(h.alice, "move", play="8/5 6/5"))
    kit.accepting = True

    # A command outside the cog's guard.
    await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    await asyncio.wait_for(kit.idle.wait(), 5)
    embed = discord.Embed

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    discord.Embed = broken  # type: ignore[misc, assignment]
    try:
        assert await h.error_of(await h.slash(h.alice, "help")) == SORRY
    finally:
        discord.Embed = embed  # type: ignore[misc]
