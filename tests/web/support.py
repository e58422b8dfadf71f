"""A web server over real services and a SQLite store, without Discord (for HTTP tests)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot.dice import ScriptedRoller
from bot.services import Services, build_services
from bot.session import Player
from bot.storage import Store
from bot.web import WebConfig, WebServer
from bot.web.discord_api import DiscordOAuth

GUILD, CHANNEL = 1, 10
ALICE, BOB = Player(101, "alice"), Player(102, "bob")


@contextlib.asynccontextmanager
async def serving(
    path: Path, *, oauth: DiscordOAuth | None = None, roller: ScriptedRoller | None = None
) -> AsyncIterator[tuple[WebServer, Services, str]]:
    """A started server on a free port, its services, and its base URL."""
    store = await Store.open(path / "web.db")
    services = build_services(store, roller=roller or ScriptedRoller())
    server = WebServer(services, WebConfig(url="http://127.0.0.1/", port=0), oauth=oauth)
    await server.start()
    try:
        yield server, services, f"http://127.0.0.1:{server.port}/"
    finally:
        await server.stop()
        await store.close()


async def start_match(services: Services, roller: ScriptedRoller, opening: tuple[int, int]) -> int:
    """Alice challenges Bob in CHANNEL, Bob accepts; the opening roll is ``opening``."""
    session = services.session
    await session.challenge(GUILD, CHANNEL, ALICE, BOB)
    roller.extend(opening)
    report = await session.accept(CHANNEL, BOB)
    return report.match.id
