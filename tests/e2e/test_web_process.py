"""The web board as its own process (``python -m bot web``) beside a bot process on one
PostgreSQL: a move made in the bot process reaches a WebSocket watching the live board
served by the web process (the change told with NOTIFY, the row re-read there), and so
does the end of the match. Also: the web process alone needs WEB_URL."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.engine import legal_plays
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process_support import (
    MATCH_COLUMNS,
    BotProcess,
    Snapshot,
    acknowledged,
    answered,
    bot_env,
    snapshot,
)

asyncpg = pytest.importorskip("asyncpg")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def latest(connection: Any, channel_id: int) -> Snapshot:
    row = await connection.fetchrow(
        f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
        channel_id,
    )
    assert row is not None
    return snapshot(tuple(row))


async def next_state(ws: aiohttp.ClientWebSocketResponse, timeout: float = 10.0) -> Any:
    message = await ws.receive(timeout)
    assert message.type == aiohttp.WSMsgType.TEXT, message
    data = json.loads(message.data)
    assert data["type"] == "state"
    return data["state"]


async def wait_serving(base: str, web: BotProcess, log: Path) -> None:
    deadline = time.monotonic() + 30
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < deadline:
            assert web.running, log.read_text(errors="replace")[-2000:]
            try:
                async with http.get(base + "api/m/1") as response:
                    if response.status in (200, 404):
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    raise AssertionError("the web process is not serving")


async def test_a_move_in_the_bot_process_reaches_a_watcher_of_the_web_process(
    fake: FakeDiscord, pg_url: str, tmp_path: Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    web_env = bot_env(
        tmp_path / "unused.db",
        fake,  # the bot token: who may see a match is asked of Discord
        log_level="INFO",
        DATABASE_URL=pg_url,
        WORKERS="0",
        WEB_URL=base,
        WEB_PORT=str(port),
    )
    bot_log, web_log = tmp_path / "bot.log", tmp_path / "web.log"
    bot = BotProcess(
        bot_env(tmp_path / "unused.db", fake, DATABASE_URL=pg_url, WORKERS="0"),
        tmp_path,
        log=bot_log,
    )
    web = BotProcess(web_env, tmp_path, log=web_log, args=["web"])
    connection = await asyncpg.connect(pg_url)
    try:
        await bot.start()
        await fake.wait_until_ready(timeout=30)
        await fake.wait_for_commands(fake.guild.id, names=["backgammon"], timeout=30)
        await web.start()  # after the bot has migrated the database
        await wait_serving(base, web, web_log)
        alice, bob = fake.create_member("alice"), fake.create_member("bob")
        players = {alice.id: alice, bob.id: bob}
        channel_id = fake.channel_id("games")
        challenge = await fake.slash(
            alice, "games", "backgammon", "challenge", options={"opponent": bob.id}
        )
        message = await challenge.original_message()
        (accept,) = [c for c in message.custom_ids if c.startswith("bg:accept:")]
        accepted = await fake.click(bob, message, accept)
        await accepted.wait_for(answered, 15, "the accept")
        snap = await latest(connection, channel_id)
        assert snap.status == "playing" and snap.game is not None and snap.game.dice is not None
        key = await connection.fetchval("SELECT web_key FROM matches WHERE id = $1", snap.id)
        async with (
            aiohttp.ClientSession() as http,
            http.ws_connect(f"{base}m/{key}/ws") as ws,
        ):
            first = await next_state(ws)
            assert first["version"] == snap.version and first["game"]["phase"] == "move"
            game = snap.game
            assert game.actor is not None and game.dice is not None
            play = str(next(iter(legal_plays(game.position, game.dice))))
            mover = players[snap.player_ids[game.actor]]
            moved = await fake.slash(mover, "games", "backgammon", "move", options={"play": play})
            await moved.wait_for(answered, 15, "the move")
            assert acknowledged(moved)
            after = await latest(connection, channel_id)
            while (seen := await next_state(ws))["version"] < after.version:
                pass  # a change told late shows the row as it is then: the same state again
            assert seen["version"] == after.version > snap.version
            assert seen["game"]["last"]["text"] == play
            # The other player resigns in the chat, the mover accepts: the watcher sees the end.
            other = players[snap.player_ids[1 - game.actor]]
            offer = await fake.slash(
                other, "games", "backgammon", "resign", options={"kind": "single"}
            )
            offered = await offer.original_message()
            (yes,) = [c for c in offered.custom_ids if c.startswith("bg:resign_accept:")]
            await (await fake.click(mover, offered, yes)).wait_for(answered, 15, "the accept")
            final = await latest(connection, channel_id)
            assert final.status == "finished"
            while (state := await next_state(ws))["version"] < final.version:
                pass  # the offer's state, then the end
            assert state["live"] is False and state["winner"] == game.actor
    finally:
        await web.terminate(10)
        await bot.terminate(10)
        await connection.close()
    assert "lost the database connection" not in web_log.read_text()


async def test_the_web_process_needs_web_url(tmp_path: Path) -> None:
    env = bot_env(tmp_path / "gammon.db", None)
    env.pop("WEB_URL", None)
    web = await BotProcess(env, tmp_path, args=["web"]).start()
    code, stderr, _alive = await web.wait_exit(15)
    assert code == 2 and b"needs WEB_URL" in stderr
