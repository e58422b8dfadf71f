"""The spectator side over HTTP: the live socket follows facts, the replay has every frame,
the leaderboard lists the server's players; and nothing of it needs Discord."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp

from bot.core.dice import ScriptedRoller
from bot.core.records import GuildSettings
from bot.engine import MatchOptions, ResultKind
from tests.web.support import ALICE, BOB, CHANNEL, GUILD, serving, start_match


async def fetch(url: str, headers: dict[str, str] | None = None) -> str:
    async with aiohttp.ClientSession() as http, http.get(url, headers=headers) as response:
        assert response.status == 200, url
        return await response.text()


async def test_live_socket_sends_the_state_then_every_stored_action(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (server, services, base):
        row = await start_match(services, roller, (3, 1))
        match = row.id
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}m/{row.web_key}") as page:
                text = await page.text()
                assert page.status == 200 and 'data-page="live"' in text
            async with http.ws_connect(f"{base}m/{row.web_key}/ws") as socket:
                first = json.loads((await socket.receive()).data)
                assert first["state"]["game"]["dice"] == [3, 1]
                version = first["state"]["version"]
                await services.session.move(CHANNEL, ALICE, "8/5 6/5")
                message = await asyncio.wait_for(socket.receive(), 5)
                state = json.loads(message.data)["state"]
                assert state["version"] > version
                # Player 0 made the 5-point: two of their checkers there, from 0's side.
                assert state["game"]["points"][4] == 2
                assert state["game"]["last"]["text"] == "8/5 6/5"
            assert server.hub.watchers(match) == 0  # a closed socket is forgotten


async def test_a_match_that_does_not_exist_is_404(tmp_path: Path) -> None:
    async with serving(tmp_path) as (_server, _services, base), aiohttp.ClientSession() as http:
        unknown = "A" * 22
        for path in ("m/999", "r/999", "api/r/999", "api/m/999", f"m/{unknown}", f"r/{unknown}"):
            async with http.get(base + path) as response:
                assert response.status == 404, path


async def test_replay_frames_step_through_the_whole_match(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        session = services.session
        await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=1))
        roller.extend((3, 1))
        report = await session.accept(CHANNEL, BOB)
        match = report.match.web_key
        await session.move(CHANNEL, ALICE, "8/5 6/5")
        await session.resign(CHANNEL, BOB, ResultKind.SINGLE)
        await session.answer_resignation(CHANNEL, ALICE, True)
        body = json.loads(await fetch(f"{base}api/r/{match}"))
        frames = body["frames"]
        actions = [frame["action"] for frame in frames]
        assert actions[:3] == ["start", "opening", "move"]
        move = frames[2]
        assert move["notation"] == "8/5 6/5" and move["play"] == 1
        assert frames[1]["game"]["points"][4] == 0 and move["game"]["points"][4] == 2
        assert body["state"]["live"] is False


async def test_pages_speak_french_when_asked(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        row = await start_match(services, roller, (3, 1))
        text = await fetch(f"{base}r/{row.web_key}", {"Accept-Language": "fr-FR"})
        assert '<html lang="fr">' in text and "Relecture" in text


async def test_leaderboard_lists_the_server_s_players_escaped(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        session = services.session
        hostile = ALICE.__class__(ALICE.id, "<script>x</script>")
        await session.challenge(GUILD, CHANNEL, hostile, BOB, MatchOptions(length=1))
        roller.extend((3, 1))
        await session.accept(CHANNEL, BOB)
        await session.resign(CHANNEL, hostile, ResultKind.SINGLE)
        await session.answer_resignation(CHANNEL, BOB, True)
        store = services.session.store
        await store.save_guild_settings(GUILD, GuildSettings(public_leaderboard=True))
        text = await fetch(f"{base}g/{await store.guild_web_key(GUILD)}")
        assert "bob" in text
        assert "<script>x" not in text and "&lt;script&gt;x" in text
