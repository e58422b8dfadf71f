"""The puzzle tables on both backends: puzzles unique per server, first attempts rated once,
the daily post claimed once, opted-out players out of the pool and the standings; and the
tables copied by ``copy-db``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.engine import MatchOptions
from bot.features.puzzles.rules import Glicko, Grade, PoolEntry
from bot.storage import Storage, open_store
from bot.storage.copy import TABLES, copy_database
from bot.storage.puzzles import Attempt, PuzzleSettings, puzzle_store

GUILD = 10
ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
async def store(database: Path | str):
    opened = await open_store(database)
    yield opened
    await opened.close()


SOURCE_CHANNEL = 5  # where the puzzles' match was played: the pool says so (issue 41)


async def a_match(store: Storage) -> int:
    row = await store.create_challenge(
        guild_id=GUILD,
        channel_id=SOURCE_CHANNEL,
        players=((ALICE, "alice"), (BOB, "bob")),
        options=MatchOptions(length=3),
        rated=False,
        now=1.0,
        expires_at=None,
    )
    return row.id


async def test_puzzles_are_unique_per_server_and_leave_the_pool_with_an_opt_out(store) -> None:
    puzzles = puzzle_store(store)
    match = await a_match(store)
    first = await puzzles.add_puzzle(
        GUILD, "k1", "{}", match_id=match, owner_id=ALICE, players=(ALICE, BOB), now=2.0
    )
    again = await puzzles.add_puzzle(
        GUILD, "k1", "{}", match_id=match, owner_id=BOB, players=(ALICE, BOB), now=3.0
    )
    other = await puzzles.add_puzzle(
        GUILD, "k2", '{"x":1}', match_id=match, owner_id=None, players=(BOB, None), now=4.0
    )
    assert first is not None and other is not None and again is None
    assert await puzzles.keys(GUILD) == {"k1", "k2"}
    assert await puzzles.keys(GUILD + 1) == set()
    stored = await puzzles.puzzle(other)
    assert stored is not None and stored.data == '{"x":1}' and stored.players == (BOB, None)
    assert await puzzles.pool(GUILD) == [
        PoolEntry(first, ALICE, 1500.0, SOURCE_CHANNEL),
        PoolEntry(other, None, 1500.0, SOURCE_CHANNEL),
    ]
    await puzzles.set_kept_out(ALICE, True, 5.0)
    assert await puzzles.kept_out([ALICE, BOB]) == {ALICE}
    assert [entry.puzzle_id for entry in await puzzles.pool(GUILD)] == [other]
    # A kept-out player's match gives no new puzzle at all.
    assert (
        await puzzles.add_puzzle(
            GUILD, "k3", "{}", match_id=match, owner_id=BOB, players=(BOB, ALICE), now=5.5
        )
        is None
    )
    assert await puzzles.keys(GUILD) == {"k1", "k2"}
    await puzzles.set_kept_out(ALICE, False, 6.0)
    assert len(await puzzles.pool(GUILD)) == 2


async def test_only_the_first_attempt_is_kept_and_rated(store) -> None:
    puzzles = puzzle_store(store)
    match = await a_match(store)
    pid = await puzzles.add_puzzle(
        GUILD, "k", "{}", match_id=match, owner_id=BOB, players=(ALICE, BOB), now=2.0
    )
    assert pid is not None
    entry = PoolEntry(pid, BOB, 1500.0, SOURCE_CHANNEL)
    assert await puzzles.fresh(GUILD, CAROL) == ([entry], [entry])
    await puzzles.give(GUILD, CAROL, pid, 3.0)
    assert await puzzles.fresh(GUILD, CAROL) == ([entry], [])
    assert await puzzles.fresh(GUILD, ALICE) == ([entry], [entry])
    assert await puzzles.current(GUILD, CAROL) == pid
    assert await puzzles.seen(GUILD, CAROL) == {pid}
    attempt = Attempt(pid, GUILD, CAROL, "a", Grade.RIGHT, 0.0, 4.0)
    solver, puzzle = Glicko(1600.0, 200.0, 0.06), Glicko(1400.0, 300.0, 0.06)
    seen: list[tuple[Glicko, Glicko]] = []

    def rate(before: Glicko, rating: Glicko) -> tuple[Glicko, Glicko]:
        seen.append((before, rating))
        return solver, puzzle

    assert await puzzles.record_attempt(attempt, rate) == (Glicko(), solver)
    assert seen == [(Glicko(), Glicko())]  # a newcomer against a new puzzle
    wrong = Attempt(pid, GUILD, CAROL, "b", Grade.WRONG, 0.3, 5.0)
    assert await puzzles.record_attempt(wrong, lambda s, p: (Glicko(1000.0), p)) is None
    assert len(seen) == 1
    assert await puzzles.attempt_of(pid, CAROL) == attempt
    assert await puzzles.current(GUILD, CAROL) is None
    standing = await puzzles.solver(GUILD, CAROL)
    assert standing is not None
    assert (standing.rating, standing.solved, standing.attempts) == (solver, 1, 1)
    stored = await puzzles.puzzle(pid)
    assert stored is not None and stored.rating == puzzle
    assert await puzzles.solver_history(GUILD, CAROL) == [(Grade.RIGHT, 4.0)]
    assert await puzzles.solved_by(pid, 0.0, 10.0) == [CAROL]
    assert await puzzles.solved_by(pid, 4.5, 10.0) == []
    assert [s.user_id for s in await puzzles.standings(GUILD)] == [CAROL]
    await puzzles.set_kept_out(CAROL, True, 6.0)
    assert await puzzles.standings(GUILD) == []
    assert await puzzles.solved_by(pid, 0.0, 10.0) == []


async def test_the_daily_post_is_claimed_once_and_revealed_when_due(store) -> None:
    puzzles = puzzle_store(store)
    match = await a_match(store)
    pid = await puzzles.add_puzzle(
        GUILD, "k", "{}", match_id=match, owner_id=BOB, players=(ALICE, BOB), now=2.0
    )
    assert pid is not None
    settings = PuzzleSettings(channel_id=77, minute=600, next_post_at=100.0, name_players=True)
    await puzzles.save_settings(GUILD, settings)
    assert await puzzles.settings(GUILD) == settings
    assert await puzzles.settings(GUILD + 1) == PuzzleSettings()
    assert await puzzles.due_daily(99.0) == []
    assert await puzzles.due_daily(100.0) == [(GUILD, settings)]
    post = await puzzles.claim_post(GUILD, pid, 77, 100.0, 200.0, 186_500.0)
    assert post is not None and post.message_id is None
    assert await puzzles.claim_post(GUILD, pid, 77, 100.0, 200.0, 186_500.0) is None
    assert await puzzles.due_daily(150.0) == []
    assert await puzzles.unsent_posts() == [post]
    assert await puzzles.due_reveals(300.0) == []  # not sent: nothing to reveal
    await puzzles.post_sent(post.id, 555, 100.0, 200.0)
    assert await puzzles.unsent_posts() == []
    assert await puzzles.due_reveals(199.0) == []
    (due,) = await puzzles.due_reveals(200.0)
    assert due.message_id == 555 and due.puzzle_id == pid
    await puzzles.revealed(post.id)
    assert await puzzles.due_reveals(300.0) == []
    assert await puzzles.posted_puzzles(GUILD) == {pid}
    again = await puzzles.post(post.id)
    assert again is not None and again.revealed


async def test_extraction_queue_survives_until_done(store) -> None:
    puzzles = puzzle_store(store)
    match = await a_match(store)
    await puzzles.queue_source(match, 1.0)
    await puzzles.queue_source(match, 2.0)
    assert await puzzles.sources() == [match]
    await puzzles.source_done(match)
    assert await puzzles.sources() == []


async def test_copy_db_carries_the_puzzle_tables(tmp_path: Path, pg_url: str) -> None:
    names = {table for table, _ in TABLES}
    assert {"puzzles", "puzzle_attempts", "puzzle_posts", "puzzle_optouts"} <= names
    source = await open_store(tmp_path / "a.db")
    destination = await open_store(pg_url)
    try:
        puzzles = puzzle_store(source)
        match = await a_match(source)
        pid = await puzzles.add_puzzle(
            GUILD, "k", "{}", match_id=match, owner_id=BOB, players=(ALICE, BOB), now=2.0
        )
        assert pid is not None
        await puzzles.record_attempt(
            Attempt(pid, GUILD, CAROL, "a", Grade.RIGHT, 0.0, 4.0), lambda s, p: (s, p)
        )
        await puzzles.set_kept_out(ALICE, True, 5.0)
        await puzzles.save_settings(GUILD, PuzzleSettings(77, 10, 100.0))
        await puzzles.claim_post(GUILD, pid, 77, 100.0, 200.0, 300.0)
        report = await copy_database(source, destination)  # type: ignore[arg-type]
        assert report.rows["puzzles"] == 1 and report.rows["puzzle_posts"] == 1
        copied = puzzle_store(destination)
        assert (await copied.puzzle(pid)) == (await puzzles.puzzle(pid))
        assert await copied.kept_out([ALICE]) == {ALICE}
        # New rows get fresh ids after the copied ones.
        other = await copied.add_puzzle(
            GUILD, "k2", "{}", match_id=match, owner_id=None, players=(CAROL, BOB), now=6.0
        )
        assert other is not None and other > pid
    finally:
        await source.close()
        await destination.close()
