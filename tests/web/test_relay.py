"""Facts across processes on PostgreSQL (bot/relay.py): two sets of services on one database
stand for two processes. A change stored in one reaches a live socket of the other's web
server; the web server never hears its own changes twice; after its listening connection is
cut it reconnects and re-reads what is watched, so a change made meanwhile still arrives.
On SQLite nothing listens."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.config import Settings
from bot.core.dice import ScriptedRoller
from bot.core.records import Action
from bot.relay import CHANNEL, Changed, FactNotifier
from bot.services import build_services
from bot.storage import open_store
from bot.web import WebConfig, WebServer, web_server
from tests.channel_readers import Readers
from tests.web.support import ALICE, BOB, start_match
from tests.web.support import CHANNEL as GAMES


def test_a_change_reads_back_and_garbage_is_skipped() -> None:
    changed = Changed("abc", 7, 12, 99, None, Action.MOVE)
    assert Changed.parse(changed.payload()) == changed
    homed = Changed("abc", 7, 12, 99, 98, Action.ROLL)
    assert Changed.parse(homed.payload()) == homed
    for bad in ("", "{", "[]", '{"o":"x"}', changed.payload().replace('"move"', '"fly"')):
        assert Changed.parse(bad) is None


def test_only_a_web_server_on_postgresql_listens(tmp_path: Path) -> None:
    services: Any = object()
    sqlite = Settings(database_path=tmp_path / "g.db", web_url="http://127.0.0.1/")
    server = web_server(sqlite, services)
    assert server is not None and server.listener is None
    pg = Settings(database_url="postgresql://u@h/db", web_url="http://127.0.0.1/")
    server = web_server(pg, services)
    assert server is not None and server.listener is not None


async def state(ws: aiohttp.ClientWebSocketResponse) -> Any:
    message = await ws.receive(10)
    return json.loads(message.data)["state"]


async def state_at(ws: aiohttp.ClientWebSocketResponse, version: int) -> Any:
    """The first state sent at ``version`` or later (a state may come twice: a change told
    late shows the row as it is then, which the page already has)."""
    while (seen := await state(ws))["version"] < version:
        pass
    return seen


async def _terminate_listeners(url: str) -> int:
    """Cut the connections listening on the relay's channel, as a restart of the server would."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE $1",
            f"LISTEN%{CHANNEL}%",
        )
        return len(rows)
    finally:
        await connection.close()


async def _until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def test_a_change_in_one_process_reaches_the_others_live_board(pg_url: str) -> None:
    pytest.importorskip("asyncpg")
    roller = ScriptedRoller()
    store_a, store_b = await open_store(pg_url), await open_store(pg_url)
    here = build_services(store_a, roller=roller)  # the bot process
    there = build_services(store_b, roller=roller)  # the web process
    notifier_a, notifier_b = FactNotifier(pg_url, "a"), FactNotifier(pg_url, "b")
    await notifier_a.start(here.facts)
    await notifier_b.start(there.facts)
    server = WebServer(
        there,
        WebConfig(url="http://127.0.0.1/", port=0),
        listen_url=pg_url,
        origin="b",
        readers=Readers(),  # type: ignore[arg-type]
    )
    await server.start()
    listener = server.listener
    assert listener is not None and listener.listening.is_set()
    try:
        match = (await start_match(here, roller, (3, 1))).web_key
        base = f"http://127.0.0.1:{server.port}/"
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{base}m/{match}/ws") as ws:
            first = await state(ws)
            moved = await here.session.move(GAMES, ALICE, "8/5 6/5")
            seen = await state_at(ws, moved.match.version)
            assert seen["version"] == moved.match.version > first["version"]
            # A change made by the web process itself arrives once, on its own bus.
            await _until(lambda: notifier_a.pending == 0 and listener.heard == notifier_a.sent)
            heard = listener.heard
            roller.extend((6, 4))
            rolled = await there.session.roll(GAMES, BOB)
            assert (await state_at(ws, rolled.match.version))["version"] == rolled.match.version
            await asyncio.sleep(0.3)
            assert listener.heard == heard
            # The listening connection is cut; a change made meanwhile still arrives.
            cut = await _terminate_listeners(pg_url)
            assert cut == 1
            await _until(lambda: not listener.listening.is_set())
            played = await here.session.move(GAMES, BOB, "24/14")
            assert not listener.listening.is_set()  # told while nobody listened
            after = await state_at(ws, played.match.version)
            assert after["version"] == played.match.version
            assert listener.listening.is_set()
    finally:
        await server.stop()
        await notifier_a.close()
        await notifier_b.close()
        await store_a.close()
        await store_b.close()
