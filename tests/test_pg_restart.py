"""A PostgreSQL server stopped in the middle of a game (``pg_ctl stop -m immediate``, as in
a crash) and started again, under one store that stays open throughout (issue #25).

While it is down every action fails with the truthful private error (nothing changed, or,
when only the COMMIT's answer was lost, that it may have been stored), never a success;
once it is back the same store serves the next action without being reopened; and every
action that was answered with success is in the database after the crash recovery. The
server fsyncs as a real one does (``durable``): an immediate stop keeps what was committed.
(The same through Discord and a bot process: tests/e2e/test_pg_restart.py.)
"""

from __future__ import annotations

import contextlib

import asyncpg
import pytest

from bot.core.dice import ScriptedRoller
from bot.core.errors import Refusal, StoreInDoubtError, StoreUnavailableError
from bot.core.records import Status
from bot.core.session import Player, SessionService
from bot.storage import Store
from bot.storage.postgres import PostgresStore
from tests.pg_server import PgServer

GUILD, CHANNEL = 10, 20
ALICE = Player(1, "alice")
BOB = Player(2, "bob")


async def started(store: PostgresStore, roller: ScriptedRoller) -> SessionService:
    service = SessionService(store, roller=roller)
    await service.challenge(GUILD, CHANNEL, ALICE, BOB, None)
    roller.extend([3, 1])  # alice opens with 3-1
    await service.accept(CHANNEL, BOB)
    await service.move(CHANNEL, ALICE, "8/5 6/5")
    return service


async def stored_events(store: PostgresStore) -> list[str]:
    row = await store.live_match(CHANNEL)
    assert row is not None
    return [str(event.action) for event in await store.events(row.id)]


async def test_a_restart_mid_game_is_told_truthfully_and_survived(pg_server: PgServer) -> None:
    store = await PostgresStore.open(pg_server.base_url)
    roller = ScriptedRoller()
    try:
        service = await started(store, roller)
        before = await stored_events(store)

        pg_server.crash()
        roller.extend([6, 5])
        for attempt in (service.roll(CHANNEL, BOB), service.current(CHANNEL)):
            with pytest.raises(StoreUnavailableError) as caught:
                await attempt
            assert not isinstance(caught.value, StoreInDoubtError)
            assert caught.value.reason is Refusal.STORE_DOWN

        pg_server.launch()  # the same store, never reopened
        assert roller.remaining() == 2  # the dice of the failed roll are still to come
        report = await service.roll(CHANNEL, BOB)
        assert report.match.status == Status.PLAYING
        await service.move(CHANNEL, BOB, "24/18 18/13")
        after = await stored_events(store)
        assert after[: len(before)] == before
        assert after[len(before) :] == ["roll", "move"]
    finally:
        await store.close()


async def test_every_acknowledged_action_survives_the_crash(pg_server: PgServer) -> None:
    """What the store answered as applied is there after recovery, from another connection."""
    store = await PostgresStore.open(pg_server.base_url)
    roller = ScriptedRoller()
    try:
        service = await started(store, roller)
        roller.extend([6, 5])
        acknowledged = await service.roll(CHANNEL, BOB)
        pg_server.crash()
        pg_server.launch()
        connection = await asyncpg.connect(pg_server.base_url)
        try:
            version = await connection.fetchval(
                "SELECT version FROM matches WHERE id = $1", acknowledged.match.id
            )
        finally:
            await connection.close()
        assert version == acknowledged.match.version
    finally:
        await store.close()


async def test_a_commit_whose_answer_is_lost_is_reported_in_doubt(
    pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await PostgresStore.open(pg_server.base_url)
    roller = ScriptedRoller()
    try:
        service = await started(store, roller)
        row = await store.live_match(CHANNEL)
        assert row is not None
        commit = asyncpg.transaction.Transaction.commit

        async def crash_then_commit(self: asyncpg.transaction.Transaction) -> None:
            pg_server.crash()  # the server goes between the last statement and the COMMIT
            await commit(self)

        monkeypatch.setattr(asyncpg.transaction.Transaction, "commit", crash_then_commit)
        roller.extend([6, 5])
        with pytest.raises(StoreInDoubtError) as caught:
            await service.roll(CHANNEL, BOB)
        assert caught.value.reason is Refusal.STORE_IN_DOUBT
        monkeypatch.undo()

        pg_server.launch()
        # Here the COMMIT never reached the server: the roll is not stored, and the player,
        # told it may not have been, rolls again (committed dice would give the same roll:
        # the count drawn is stored with the action).
        again = await store.live_match(CHANNEL)
        assert again is not None and again.version == row.version
        roller.extend([6, 5])
        report = await service.roll(CHANNEL, BOB)
        assert report.match.version == row.version + 1
    finally:
        await store.close()


async def test_a_lock_held_when_the_server_goes_is_not_handed_on(pg_server: PgServer) -> None:
    """The channel lock's connection dies with the server; the next action gets a live one."""
    store = await PostgresStore.open(pg_server.base_url)
    roller = ScriptedRoller()
    try:
        service = await started(store, roller)
        with contextlib.suppress(StoreUnavailableError):
            async with store.channel_lock(CHANNEL):
                pg_server.crash()
                await store.live_match(CHANNEL)
        pg_server.launch()
        roller.extend([6, 5])
        report = await service.roll(CHANNEL, BOB)  # the lock, taken on a fresh connection
        assert report.match.status == Status.PLAYING
    finally:
        await store.close()


# --- SQLite's equivalent: a file that can no longer be written ----------------------------


async def test_sqlite_that_cannot_write_is_the_same_truthful_error(
    store: Store, service: SessionService, roller: ScriptedRoller
) -> None:
    """The disk goes read-only under the bot (``query_only``: SQLite's own "attempt to write
    a readonly database"): the action is refused with the same words as a PostgreSQL that
    is down and changes nothing; once the disk is writable again, the same action works."""
    await service.challenge(GUILD, CHANNEL, ALICE, BOB, None)
    roller.extend([3, 1])
    await service.accept(CHANNEL, BOB)
    await service.move(CHANNEL, ALICE, "8/5 6/5")
    row = await store.live_match(CHANNEL)
    assert row is not None
    db = store._db  # the test takes the disk away, as a failing volume would
    await db.execute("PRAGMA query_only = ON")
    roller.extend([6, 5])
    with pytest.raises(StoreUnavailableError) as caught:
        await service.roll(CHANNEL, BOB)
    assert caught.value.reason is Refusal.STORE_DOWN
    assert not isinstance(caught.value, StoreInDoubtError)
    after = await store.live_match(CHANNEL)
    assert after is not None and after.version == row.version  # nothing changed
    await db.execute("PRAGMA query_only = OFF")
    roller.extend([6, 5])
    report = await service.roll(CHANNEL, BOB)
    assert report.match.version == row.version + 1
