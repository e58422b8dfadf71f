"""A shutdown counts the tournament, ladder and puzzle commands with /backgammon's actions
(they all run in the bot's one guard, cogs/kit.py): it waits for one in flight, and one
arriving while the bot stops is refused privately (the words /backgammon uses), changing
nothing."""

from __future__ import annotations

import asyncio

import pytest

from cogs.kit import Kit
from tests.e2e.conftest import Harness
from tests.e2e.tournament_support import announcement, people, tournament


def kit(h: Harness) -> Kit:
    assert h.bot is not None and h.bot.kit is not None
    return h.bot.kit


async def test_competition_commands_are_refused_while_the_bot_stops(harness: Harness) -> None:
    h = harness
    director, (alice, *_others) = people(h)
    await (await tournament(h, director, "create", name="Open", lengths="1")).answer()
    board = await announcement(h)
    guard = kit(h)
    guard.accepting = False
    try:
        create = await tournament(h, director, "create", name="Late", lengths="1")
        assert "restarting" in await h.error_of(create)
        join = await h.fake.click(alice, board, "tourney:join:1")
        assert "restarting" in await h.error_of(join)
        ladder = await h.fake.slash(alice, "games", "ladder", "join")
        assert "restarting" in await h.error_of(ladder)
        puzzle = await h.fake.slash(alice, "games", "puzzle", "get")
        assert "restarting" in await h.error_of(puzzle)
    finally:
        guard.accepting = True
    assert await h.services.tournaments.store.entrants(1) == []
    assert await h.services.ladders.state(h.fake.guild.id) is None
    assert await h.services.tournaments.store.tournament(2) is None
    h.fake.assert_clean()


async def test_a_shutdown_waits_for_a_ladder_command_in_flight(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = harness
    _director, (alice, *_others) = people(h)
    entered, release = asyncio.Event(), asyncio.Event()
    join = h.services.ladders.join

    async def slow_join(*args: object, **kwargs: object):
        entered.set()
        await release.wait()
        return await join(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(h.services.ladders, "join", slow_join)
    pending = asyncio.create_task(h.fake.slash(alice, "games", "ladder", "join"))
    await asyncio.wait_for(entered.wait(), 5)
    assert h.bot is not None
    drain = asyncio.create_task(h.bot.drain(timeout=5))
    await asyncio.sleep(0.2)
    assert not drain.done()  # the stop waits for the join in flight
    release.set()
    await asyncio.wait_for(drain, 5)
    assert (await (await pending).response()).ephemeral
    state = await h.services.ladders.state(h.fake.guild.id)
    assert state is not None and list(state.ladder.ranking) == [alice.id]
    kit(h).accepting = True
