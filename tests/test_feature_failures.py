"""Issue 36: a feature's writes fail as truthfully as a game action's. Tournaments and
puzzles compose the store's public primitives, so a PostgreSQL server that went away (``pg_ctl
stop -m immediate``, as in a crash) answers their writes "unavailable, nothing changed", as
it does a roll, and the same store serves them once the server is back; a read-only SQLite
file answers the same. (Before, tournament writes went straight to the pool or the SQLite
connection and raised the driver's own errors.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.errors import Refusal, StoreInDoubtError, StoreUnavailableError
from bot.core.session import Player, SessionService
from bot.features.tournaments.rules import Format, Phase
from bot.storage import Store
from bot.storage.competitions import CompetitionStore, EntrantRow, TournamentOptions
from bot.storage.postgres import PostgresStore
from bot.storage.puzzles import puzzle_store
from tests.pg_server import PgServer

GUILD, CHANNEL = 10, 20
ALICE, BOB = Player(1, "alice"), Player(2, "bob")


async def new_event(competitions: CompetitionStore):
    return await competitions.create_tournament(
        guild_id=GUILD,
        channel_id=9,
        name="Friday KO",
        format=Format.KNOCKOUT,
        options=TournamentOptions(lengths=(3,)),
        created_by=1,
        now=100.0,
        rng_seed=1,
    )


def down(caught: pytest.ExceptionInfo[StoreUnavailableError]) -> None:
    """The answer a game action gets while the server is down: nothing changed."""
    assert not isinstance(caught.value, StoreInDoubtError)
    assert caught.value.reason is Refusal.STORE_DOWN


async def test_a_tournament_write_is_told_as_an_action_is_while_postgresql_is_down(
    pg_server: PgServer,
) -> None:
    store = await PostgresStore.open(pg_server.base_url)
    roller = ScriptedRoller()
    try:
        competitions = CompetitionStore(store)
        puzzles = puzzle_store(store)
        event = await new_event(competitions)
        session = SessionService(store, roller=roller)
        await session.challenge(GUILD, CHANNEL, ALICE, BOB, None)
        pg_server.crash()
        with pytest.raises(StoreUnavailableError) as action:
            await session.accept(CHANNEL, BOB)
        down(action)
        writes = (
            competitions.add_entrant(event.id, EntrantRow(5, "eve", None, 1.0)),
            competitions.update_tournament(event, phase=Phase.REGISTRATION),
            competitions.set_td_role(GUILD, 77),
            puzzles.queue_source(1, 1.0),
            puzzles.set_kept_out(5, True, 1.0),
        )
        for write in writes:
            with pytest.raises(StoreUnavailableError) as caught:
                await write
            down(caught)
        with pytest.raises(StoreUnavailableError) as read:
            await competitions.tournament(event.id)
        down(read)
        pg_server.launch()  # the same store, never reopened
        assert await competitions.add_entrant(event.id, EntrantRow(5, "eve", None, 1.0))
        opened = await competitions.update_tournament(event, phase=Phase.REGISTRATION)
        assert opened.phase is Phase.REGISTRATION
        await puzzles.queue_source(1, 1.0)
        assert await puzzles.sources() == [1]
    finally:
        await store.close()


async def test_a_tournament_write_to_a_read_only_sqlite_file_changes_nothing(
    tmp_path: Path,
) -> None:
    store = await Store.open(tmp_path / "gammon.db")
    try:
        competitions = CompetitionStore(store)
        event = await new_event(competitions)
        await store._db.execute("PRAGMA query_only = ON")  # as a failing volume would
        for write in (
            competitions.add_entrant(event.id, EntrantRow(5, "eve", None, 1.0)),
            competitions.update_tournament(event, phase=Phase.REGISTRATION),
            puzzle_store(store).queue_source(1, 1.0),
        ):
            with pytest.raises(StoreUnavailableError):
                await write
        await store._db.execute("PRAGMA query_only = OFF")
        assert await competitions.entrants(event.id) == []
        assert (await competitions.tournament(event.id)) == event
    finally:
        await store.close()
