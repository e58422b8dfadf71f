"""/analyze: finished games only (a live game is never shown), a cooldown per member, each
finished game reviewed once (the post-game review fills the cache), and the games of a
match reviewed apart then merged into what one review of the whole log gives."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from bot.computer import ComputerPlayer
from bot.computer.reviews import AnalysisCooldownError
from bot.core.errors import UserError
from bot.core.replay import decisions_from_events
from bot.core.session import Player, SessionService
from bot.engine import MatchOptions, Phase
from bot.services import build_services
from bot.storage import Store
from tests.telling import refuses

pytest.importorskip("bgsage")

ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")
CHANNEL = 7


class SeededRoller:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def die(self) -> int:
        return self.random.randint(1, 6)


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def play_until_game_over(service: SessionService, rng: random.Random, games: int) -> None:
    """Random legal play (no cube) until ``games`` games of the match are over."""
    for _ in range(2000):
        row = await service.current(CHANNEL)
        if row is None or row.game is None:
            return
        game = row.game
        if game.game_number > games:
            return
        assert game.actor is not None  # a finished game gives way to the next at once
        who = (ALICE, BOB)[game.actor]
        if game.phase is Phase.ROLL:
            await service.roll(CHANNEL, who)
        else:
            choices = await service.legal_play_texts(CHANNEL, who.id)
            await service.move(CHANNEL, who, rng.choice(choices))
    raise AssertionError("the games did not end")


@pytest.fixture
async def services(tmp_path: Path):
    store = await Store.open(tmp_path / "lane.db")
    services = build_services(store, roller=SeededRoller(5), clock=Clock())
    service = services.session
    await service.challenge(1, CHANNEL, ALICE, BOB, MatchOptions(length=7, cube=False), rated=True)
    await service.accept(CHANNEL, BOB)
    yield services
    await store.close()


async def test_a_live_rated_game_is_never_analysed_and_finished_games_are(services) -> None:
    with refuses(UserError, "finished games only"):
        await services.reviews.analysis(CHANNEL, CAROL.id)
    rng = random.Random(2)
    await play_until_game_over(services.session, rng, games=1)
    row = await services.session.current(CHANNEL)
    assert row is not None and row.live and row.game.game_number == 2
    # a few moves into game 2: still nothing of it is shown
    for _ in range(4):
        game = (await services.session.current(CHANNEL)).game
        who = (ALICE, BOB)[game.actor]
        if game.phase is Phase.ROLL:
            await services.session.roll(CHANNEL, who)
        else:
            await services.session.move(
                CHANNEL, who, rng.choice(await services.session.legal_play_texts(CHANNEL, who.id))
            )
    review = await services.reviews.analysis(CHANNEL, CAROL.id)
    assert [game.game_number for game in review.luck.games] == [1]
    events = await services.session.store.events(row.id)
    first = [e for e in events if e.game_number == 1]
    decisions = [d for d in decisions_from_events(row.options, first) if d[0].game_number == 1]
    whole = ComputerPlayer("expert").analyze(decisions)
    for player in (0, 1):
        assert review.analyses[player].decisions == whole[player].decisions > 0


async def test_each_member_waits_between_two_analyses(services) -> None:
    await play_until_game_over(services.session, random.Random(3), games=1)
    await services.reviews.analysis(CHANNEL, CAROL.id)
    with refuses(AnalysisCooldownError, r"try again in 30 s"):
        await services.reviews.analysis(CHANNEL, CAROL.id)
    await services.reviews.analysis(CHANNEL, ALICE.id)  # someone else may
    services.session.clock.now += 29.5
    with refuses(AnalysisCooldownError, r"try again in 1 s"):
        await services.reviews.analysis(CHANNEL, CAROL.id)
    services.session.clock.now += 1
    await services.reviews.analysis(CHANNEL, CAROL.id)


async def test_a_finished_game_is_reviewed_once_and_a_match_is_the_sum_of_its_games(
    services, monkeypatch, caplog
) -> None:
    calls: list[int | None] = []
    review_log = services.workers.review_log

    async def counted(*args, **kwargs):
        calls.append(kwargs.get("game_number"))
        return await review_log(*args, **kwargs)

    monkeypatch.setattr(services.workers, "review_log", counted)
    await play_until_game_over(services.session, random.Random(4), games=2)
    row = await services.session.current(CHANNEL)
    # the review posted when game 1 ended fills the cache; the log says when it ran
    caplog.set_level(logging.INFO, logger="bot.computer.reviews")
    await services.reviews.review(row, 1)
    assert calls == [1]
    logged = [r.getMessage() for r in caplog.records if r.name == "bot.computer.reviews"]
    assert f"review of match {row.id}, game(s) [1], started" in logged
    assert any(m.startswith(f"review of match {row.id}, game(s) [1], done in ") for m in logged)
    first = await services.reviews.analysis(CHANNEL, CAROL.id)
    assert calls == [1, 2]  # only game 2 was new
    again = await services.reviews.analysis(CHANNEL, ALICE.id)
    assert calls == [1, 2]  # nothing new: the second analysis costs nothing
    assert again.analyses == first.analyses
    # the games reviewed apart add up to one review of the whole log
    events = await services.session.store.events(row.id)
    done = [e for e in events if e.game_number <= 2]
    decisions = [d for d in decisions_from_events(row.options, done) if d[0].game_number <= 2]
    whole = ComputerPlayer("expert").analyze(decisions)
    for player in (0, 1):
        mine, theirs = first.analyses[player], whole[player]
        assert mine.decisions == theirs.decisions
        assert mine.blunders == theirs.blunders
        assert mine.total_error == pytest.approx(theirs.total_error)
        assert [m.equity_lost for m in mine.mistakes] == pytest.approx(
            [m.equity_lost for m in theirs.mistakes]
        )
    assert [g.game_number for g in first.luck.games] == [1, 2]

    # after a restart (nothing in memory) the stored reviews are read, not worked out again
    restarted = build_services(services.session.store, clock=services.session.clock)
    redone: list[int | None] = []

    async def recounted(*args, **kwargs):
        redone.append(kwargs.get("game_number"))
        raise AssertionError("a stored review was worked out again")

    monkeypatch.setattr(restarted.workers, "review_log", recounted)
    read_back = await restarted.reviews.analysis(CHANNEL, CAROL.id)
    assert redone == []
    assert read_back.analyses == first.analyses and read_back.luck == first.luck


async def test_a_board_is_drawn_while_a_long_analysis_runs(tmp_path: Path) -> None:
    """The session's real analysis in real worker processes: a board asked for meanwhile
    comes back at once, not after the analysis (before the lane it queued behind it)."""
    import asyncio
    import time

    from bot.workers import Workers
    from renderers.examples import EXAMPLES

    store = await Store.open(tmp_path / "long.db")
    workers = Workers(1, lane=1)
    await workers.start()
    try:
        services = build_services(store, roller=SeededRoller(8), clock=Clock(), workers=workers)
        service = services.session
        options = MatchOptions(length=3, cube=False)
        await service.challenge(1, CHANNEL, ALICE, BOB, options, rated=True)
        await service.accept(CHANNEL, BOB)
        await play_until_game_over(service, random.Random(8), games=1)
        plan = await services.reviews.plan_analysis(CHANNEL, CAROL.id)
        assert plan.games == (1,)  # one game: one call of a few seconds in a worker
        game, perspective = EXAMPLES["hit"]()
        await workers.render(game, perspective=perspective)  # fonts loaded: time the queue only
        began = time.monotonic()
        analysis = asyncio.ensure_future(services.reviews.run_analysis(plan))
        await asyncio.sleep(0.3)  # under way in the lane
        started = time.monotonic()
        png = await workers.render(game, perspective=perspective)
        drawn = time.monotonic() - started
        assert png[:4] == b"\x89PNG"
        review = await analysis
        took = time.monotonic() - began
        assert [g.game_number for g in review.luck.games] == [1]
        assert took > 0.6, f"the analysis took {took:.2f} s: too short to tell anything"
        assert drawn < took / 3, (drawn, took)
    finally:
        await workers.close()
        await store.close()
