"""Issue 40: long work shows its progress. A `/backgammon analyze` that takes more than a
couple of seconds first says how far it has come (games done of the total), updating, and
then its result; the log says when it began and ended and how long it took."""

from __future__ import annotations

import asyncio
import logging
import sys

import pytest

from tests.e2e.conftest import Harness


async def resigned_game(h: Harness) -> None:
    """A game of alice's and bob's match ends: bob resigns a single game."""
    offer = await h.board_after(await h.slash(h.bob, "resign", kind="single"))
    h.roller.extend([3, 1])  # the next game's opening roll
    await h.board_after(await h.press(h.alice, offer, "resign_accept"))


async def test_a_long_analysis_shows_its_progress_before_its_result(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("bgsage")
    h = harness
    h.roller.extend([3, 1])
    challenge = await (
        await h.slash(h.alice, "challenge", opponent=h.bob.id, length=5)
    ).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    await resigned_game(h)
    await resigned_game(h)  # two games over, the third being played
    reviews = h.services.reviews
    review_game = reviews._review_game

    async def slow(*args: object) -> object:
        await asyncio.sleep(1.0)  # a long match's game, in the analysis lane
        return await review_game(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(reviews, "_review_game", slow)
    games = sys.modules["cogs.backgammon"]  # the module the bot loaded as its extension
    monkeypatch.setattr(games, "PROGRESS_AFTER", 0.5)
    monkeypatch.setattr(games, "PROGRESS_EVERY", 0.0)
    caplog.set_level(logging.INFO, logger="bot.computer.reviews")
    result = await h.slash(h.alice, "analyze")
    report = await result.followup(0, timeout=30)
    assert "Skill and luck" in (report.content or "") or "alice" in (report.content or "")
    line = result.original
    assert line is not None and line.id != report.id
    seen = [version["content"] or "" for version in line.history] + [line.content or ""]
    assert any("Analysing match #1: 1 of 2 games done" in text for text in seen), seen
    assert "Match #1 analysed: 2 games in" in (line.content or "")
    logged = [r.getMessage() for r in caplog.records if r.name == "bot.computer.reviews"]
    assert any("analysis of match 1 (2 game(s)) started" in m for m in logged)
    assert any("analysis of match 1 (2 game(s)) ended in" in m for m in logged)
    h.fake.assert_clean()
