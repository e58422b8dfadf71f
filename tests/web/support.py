"""A web server over real services and a SQLite store, without Discord (for HTTP tests).

Who may see a channel comes from :class:`tests.channel_readers.Readers`, a stand-in for
Discord's answers in which every member reads every channel: these tests are about the
pages, not permissions (``tests/e2e/test_web_privacy.py`` asks the fake Discord)."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from pathlib import Path

from bot.core.dice import ScriptedRoller
from bot.core.records import MatchRow
from bot.core.session import Player
from bot.services import Services, build_services
from bot.storage import Store
from bot.web import WebConfig, WebServer
from bot.web.discord_api import DiscordOAuth
from tests.channel_readers import Readers

GUILD, CHANNEL = 1, 10
ALICE, BOB = Player(101, "alice"), Player(102, "bob")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.asynccontextmanager
async def serving(
    path: Path, *, oauth: DiscordOAuth | None = None, roller: ScriptedRoller | None = None
) -> AsyncIterator[tuple[WebServer, Services, str]]:
    """A started server on a free port, its services, and its base URL."""
    store = await Store.open(path / "web.db")
    services = build_services(store, roller=roller or ScriptedRoller())
    port = free_port()  # WEB_URL names the port: sockets open only from its pages
    server = WebServer(
        services,
        WebConfig(url=f"http://127.0.0.1:{port}/", port=port),
        oauth=oauth,
        readers=Readers(),  # type: ignore[arg-type]
    )
    await server.start()
    try:
        yield server, services, f"http://127.0.0.1:{server.port}/"
    finally:
        await server.stop()
        await store.close()


async def start_match(
    services: Services, roller: ScriptedRoller, opening: tuple[int, int]
) -> MatchRow:
    """Alice challenges Bob in CHANNEL, Bob accepts; the opening roll is ``opening``."""
    session = services.session
    await session.challenge(GUILD, CHANNEL, ALICE, BOB)
    roller.extend(opening)
    report = await session.accept(CHANNEL, BOB)
    return report.match
