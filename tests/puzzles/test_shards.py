"""The puzzle service run by several processes on one database (the bot's shards), on both
backends: two stores opened on the same database stand for two processes.

- Concurrent first answers to one puzzle are all counted in its rating (no lost update).
- A queued match is extracted by one process only; a crashed process's claim is taken
  over once its lease runs out.
- A player who keeps their games out after their match was queued, even while it is being
  worked on, gives no puzzle.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.facts import FactBus
from bot.core.records import EventRecord
from bot.core.session import Player, SessionService
from bot.engine import MatchOptions
from bot.features.puzzles.rules import (
    CubeAnswer,
    CubeOwner,
    Glicko,
    Grade,
    Puzzle,
    PuzzleKind,
    rate_attempt,
    select_puzzles,
)
from bot.features.puzzles.rules.codec import key_text, puzzle_to_text
from bot.features.puzzles.service import LEASE, PuzzleService
from bot.services import build_services
from bot.storage import Storage, open_store
from bot.storage.puzzles import puzzle_store
from tests.conftest import FakeClock
from tests.puzzles.support import decision, source

GUILD = 10
ALICE = Player(1, "alice")
BOB = Player(2, "bob")
SOLVERS = tuple(range(100, 112))


class LaneStub:
    """The workers' analysis lane, as slow as a real extraction: long enough for another
    process to look at the same queue meanwhile. ``during`` runs inside the call."""

    def __init__(self, during: Callable[[], Awaitable[None]] | None = None) -> None:
        self.during = during

    async def lane_call(self, fn: Callable[..., Any], *args: Any) -> Any:
        await asyncio.sleep(0.05)
        if self.during is not None:
            await self.during()
        return fn(*args)


def a_take_puzzle(match_id: int) -> Puzzle:
    """A wrong take (Alice's): answered with the Take and Pass buttons."""
    wrong = decision(
        {CubeAnswer.TAKE: -1.2, CubeAnswer.PASS: -1.0},
        CubeAnswer.TAKE,
        kind=PuzzleKind.TAKE,
        cube=2,
        cube_owner=CubeOwner.OPPONENT,
    )
    [found] = select_puzzles(source(), [wrong])
    return replace(found, match_id=match_id, owner_id=ALICE.id, confirmed_level="world-class")


async def a_match(store: Storage) -> int:
    """A money game between Alice and Bob, the puzzles' source."""
    row = await store.create_challenge(
        guild_id=GUILD,
        channel_id=5,
        players=((ALICE.id, ALICE.name), (BOB.id, BOB.name)),
        options=MatchOptions(length=0),
        rated=False,
        now=1.0,
        expires_at=None,
    )
    return row.id


async def add_puzzle(store: Storage, puzzle: Puzzle) -> int:
    """``puzzle`` (Alice's mistake in her match with Bob) added to the server's puzzles."""
    pid = await puzzle_store(store).add_puzzle(
        GUILD,
        key_text(puzzle.key),
        puzzle_to_text(puzzle),
        match_id=puzzle.match_id,
        owner_id=ALICE.id,
        players=(ALICE.id, BOB.id),
        now=2.0,
    )
    assert pid is not None
    return pid


@pytest.fixture
async def two(database: Path | str) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two stores on one database: two processes of the bot."""
    first = await open_store(database)
    second = await open_store(database)
    yield first, second
    await first.close()
    await second.close()


def service(
    store: Storage,
    clock: FakeClock,
    *,
    extract: Callable[..., list[Puzzle]],
    during: Callable[[], Awaitable[None]] | None = None,
) -> PuzzleService:
    return PuzzleService(
        store,
        LaneStub(during),  # type: ignore[arg-type]
        FactBus(),
        clock=clock,
        extract=extract,
        reader=SessionService(store),
    )


async def finished_match(store: Storage, clock: FakeClock) -> int:
    """A match played to its end (Bob doubles, Alice passes): queued for its puzzles."""
    roller = ScriptedRoller()
    services = build_services(store, roller=roller, clock=clock)
    session = services.session
    await session.challenge(GUILD, 1, ALICE, BOB, MatchOptions(length=0))
    roller.extend([3, 1])
    await session.accept(1, BOB)
    await session.move(1, ALICE, "8/5 6/5")
    await session.double(1, BOB)
    await session.drop(1, ALICE)
    [match_id] = await puzzle_store(store).sources()
    return match_id


async def test_concurrent_first_answers_to_one_puzzle_are_all_counted(
    two: tuple[Storage, Storage],
) -> None:
    first, second = two
    clock = FakeClock()
    match_id = await a_match(first)
    pid = await add_puzzle(first, a_take_puzzle(match_id))
    shards = [service(store, clock, extract=lambda *a: []) for store in (first, second)]
    # Twelve new solvers, all right, at the same moment, half through each process.
    answers = await asyncio.gather(
        *(
            shards[i % 2].answer(GUILD, solver, pid, str(CubeAnswer.PASS))
            for i, solver in enumerate(SOLVERS)
        )
    )
    assert all(a.rated and a.verdict.grade is Grade.RIGHT for a in answers)
    # Every solver was new and right: each answer moves the puzzle the same way, in any
    # order, so twelve counted answers leave exactly this rating.
    expected = Glicko()
    for _ in SOLVERS:
        _solver, expected = rate_attempt(Glicko(), expected, Grade.RIGHT)
    stored = await puzzle_store(second).puzzle(pid)
    assert stored is not None
    assert stored.rating.rating == pytest.approx(expected.rating)
    assert stored.rating.deviation == pytest.approx(expected.deviation)
    for solver in SOLVERS:
        standing = await puzzle_store(first).solver(GUILD, solver)
        assert standing is not None and standing.attempts == 1 and standing.solved == 1


async def test_one_solver_answering_two_puzzles_at_once_counts_both(
    two: tuple[Storage, Storage],
) -> None:
    """The solver's own rating is read and written in the same transaction too."""
    first, second = two
    clock = FakeClock()
    match_id = await a_match(first)
    base = a_take_puzzle(match_id)
    ids = []
    for score in ((0, 0), (1, 0)):
        puzzle = replace(base, situation=replace(base.situation, score=score, length=5))
        ids.append(await add_puzzle(first, puzzle))
    shards = [service(store, clock, extract=lambda *a: []) for store in (first, second)]
    await asyncio.gather(
        *(shards[i].answer(GUILD, 500, pid, str(CubeAnswer.PASS)) for i, pid in enumerate(ids))
    )
    standing = await puzzle_store(first).solver(GUILD, 500)
    assert standing is not None and (standing.attempts, standing.solved) == (2, 2)
    once, _puzzle = rate_attempt(Glicko(), Glicko(), Grade.RIGHT)
    assert standing.rating.deviation < once.deviation  # both answers moved it


def counting(calls: list[int]) -> Callable[..., list[Puzzle]]:
    def extract(
        options: MatchOptions, events: Sequence[EventRecord], game: Any, known: frozenset[str]
    ) -> list[Puzzle]:
        calls.append(game.match_id)
        return []

    return extract


async def test_a_queued_match_is_extracted_by_one_process_only(
    two: tuple[Storage, Storage],
) -> None:
    first, second = two
    clock = FakeClock()
    match_id = await finished_match(first, clock)
    calls: list[int] = []
    shards = [service(store, clock, extract=counting(calls)) for store in (first, second)]
    for shard in shards:
        shard.start()
    await asyncio.gather(*(shard.idle() for shard in shards))
    assert calls == [match_id], "extracted once, by one of the two processes"
    assert await puzzle_store(second).sources() == []
    for shard in shards:
        await shard.close()


async def test_a_crashed_processs_claim_is_taken_over_when_its_lease_runs_out(
    two: tuple[Storage, Storage],
) -> None:
    first, second = two
    clock = FakeClock()
    match_id = await finished_match(first, clock)
    # A process claimed the match, then died before it was done.
    assert await puzzle_store(first).claim_source(match_id, "crashed", clock(), clock() + LEASE)
    calls: list[int] = []
    survivor = service(second, clock, extract=counting(calls))
    survivor.start()
    await survivor.idle()
    assert calls == [] and await puzzle_store(second).sources() == [match_id]
    assert survivor.retry_at == clock() + LEASE, "it looks again when the lease ends"
    clock.advance(LEASE + 1)
    survivor.kick()  # what its timer does then
    await survivor.idle()
    assert calls == [match_id]
    assert await puzzle_store(second).sources() == []
    await survivor.close()


async def test_a_player_who_keeps_out_after_the_match_was_queued_gives_no_puzzle(
    two: tuple[Storage, Storage],
) -> None:
    first, second = two
    clock = FakeClock()
    match_id = await finished_match(first, clock)

    def makes_one(*args: Any) -> list[Puzzle]:
        return [a_take_puzzle(match_id)]

    # Queued, then Bob keeps his games out (in another process) before it is worked on.
    await service(second, clock, extract=makes_one).keep_out(BOB.id, True)
    shard = service(first, clock, extract=makes_one)
    shard.start()
    await shard.idle()
    assert await puzzle_store(first).pool(GUILD) == []
    assert await puzzle_store(first).keys(GUILD) == set()
    assert await puzzle_store(first).sources() == []
    await shard.close()


async def test_a_player_who_keeps_out_while_the_match_is_worked_on_gives_no_puzzle(
    two: tuple[Storage, Storage],
) -> None:
    first, second = two
    clock = FakeClock()
    match_id = await finished_match(first, clock)
    other = service(second, clock, extract=lambda *a: [])

    async def bob_keeps_out() -> None:
        await other.keep_out(BOB.id, True)

    def makes_one(*args: Any) -> list[Puzzle]:
        return [a_take_puzzle(match_id)]

    shard = service(first, clock, extract=makes_one, during=bob_keeps_out)
    shard.start()
    await shard.idle()
    assert await puzzle_store(first).keys(GUILD) == set(), "no puzzle row kept at all"
    await other.keep_out(BOB.id, False)
    assert await puzzle_store(first).pool(GUILD) == [], "letting games in again brings none"
    await shard.close()
