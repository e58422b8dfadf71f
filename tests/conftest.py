"""Shared fixtures: a real database file per test, scripted dice and a clock the test moves.

Kept generic on purpose: the fixtures build the pieces the session layer needs and nothing
about any particular game, so every test reads as its own script.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.records import EventRecord, FinishedGame, MatchRow, PlayerStats
from bot.core.session import SessionService, SessionSettings
from bot.services import Services, build_services
from bot.storage import Store
from tests.pg_server import PgServer, Schemas, Unavailable, find_bindir, postgres


class FakeClock:
    """A clock that only moves when the test says so."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass(frozen=True)
class Snapshot:
    """Everything an action may write, for "nothing changed" assertions."""

    match: MatchRow | None
    events: list[EventRecord]
    results: list[FinishedGame]
    players: dict[int, PlayerStats | None]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "gammon.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(db_path)
    yield opened
    await opened.close()  # harmless when a restart test has closed it already


@pytest.fixture(scope="session")
def pg_schemas() -> Iterator[Schemas]:
    """One PostgreSQL server for the whole run (see tests/pg_server.py).

    Without one the PostgreSQL tests skip, saying why; under CI (``CI=true``) they fail.
    """
    stack = contextlib.ExitStack()
    try:
        schemas = stack.enter_context(postgres())
    except Unavailable as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required under CI: {exc}")
        pytest.skip(f"no PostgreSQL: {exc}")
    with stack:
        yield schemas


@pytest.fixture
def pg_server() -> Iterator[PgServer]:
    """A PostgreSQL server of the test's own, to stop and start (the shared one must not be),
    fsyncing every commit as a real one does. Skips without the binaries (fails under CI)."""
    bindir = find_bindir()
    if bindir is None:
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL binaries are required under CI")
        pytest.skip("no PostgreSQL binaries to start and stop a server of the test's own")
    server = PgServer(bindir, durable=True)
    try:
        server.start()
    except Unavailable as exc:
        server.stop()
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pg_url(pg_schemas: Schemas) -> Iterator[str]:
    """A database URL whose sessions see a fresh, empty schema of their own."""
    with pg_schemas.fresh() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, db_path: Path) -> Path | str:
    """Where a backend-neutral test keeps its data: an SQLite file, then a PostgreSQL URL."""
    if request.param == "sqlite":
        return db_path
    return request.getfixturevalue("pg_url")


@pytest.fixture
def roller() -> ScriptedRoller:
    return ScriptedRoller()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings() -> SessionSettings:
    return SessionSettings(challenge_timeout=15 * 60.0, inactivity_timeout=60 * 60.0)


@pytest.fixture
def services(
    store: Store, roller: ScriptedRoller, clock: FakeClock, settings: SessionSettings
) -> Services:
    """The session, reviews and club life over the test's store, as the bot composes them."""
    return build_services(store, roller=roller, settings=settings, clock=clock)


@pytest.fixture
def service(services: Services) -> SessionService:
    return services.session


@pytest.fixture
def snapshot(store: Store) -> Callable[..., Awaitable[Snapshot]]:
    """``await snapshot(match_id, guild_id, user_ids)``: the stored state of one match."""

    async def take(match_id: int, guild_id: int, user_ids: tuple[int, ...]) -> Snapshot:
        return Snapshot(
            match=await store.get_match(match_id),
            events=await store.events(match_id),
            results=await store.game_results(match_id),
            players={uid: await store.player_stats(guild_id, uid) for uid in user_ids},
        )

    return take
