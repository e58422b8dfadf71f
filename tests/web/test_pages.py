"""The spectator side over HTTP: the live socket follows facts, the replay has every frame,
the live board's move list is its game's, match pages name their server, the leaderboard
lists the server's players, ``/`` says what this is (or is the Activity, when Discord opens
it; or, in offline play, the terminal's game and its live board); and nothing of it needs
Discord."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import aiohttp

from bot.config import Settings
from bot.core.dice import ScriptedRoller
from bot.core.records import GuildSettings
from bot.core.session import Player
from bot.engine import MatchOptions, ResultKind
from bot.offline import OFFLINE_CHANNEL, OFFLINE_GUILD, _serve_board
from bot.services import build_services
from bot.storage import Store
from bot.web.discord_api import DiscordOAuth
from bot.web.signin import SESSION_COOKIE
from tests.web.support import ALICE, BOB, CHANNEL, GUILD, free_port, serving, start_match


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


async def test_root_says_what_this_is_unless_discord_opens_the_activity(tmp_path: Path) -> None:
    async with serving(tmp_path) as (_server, _services, base):
        landing = await fetch(base)
        assert 'data-page="landing"' in landing and "web board" in landing
        assert "Discord did not confirm" not in landing
        assert 'id="sign-in"' not in landing  # no sign-in set up on this bot
        # Discord opens the Activity at the same address, naming its frame and instance.
        launched = await fetch(f"{base}?frame_id=f-1&instance_id=i-1&platform=desktop")
        assert 'data-page="activity"' in launched
        french = await fetch(base, {"Accept-Language": "fr"})
        assert "plateau web" in french


async def test_root_offers_to_sign_in_and_says_who_is_signed_in(tmp_path: Path) -> None:
    oauth = DiscordOAuth(
        client_id=42, client_secret="s", bot_token="t", api_base="http://127.0.0.1:9/api"
    )
    async with serving(tmp_path, oauth=oauth) as (server, _services, base):
        landing = await fetch(base)
        assert 'id="sign-in"' in landing and 'href="auth/login"' in landing
        assert "Activity" in landing  # the board also opens inside Discord
        assert server.signer is not None
        cookie = server.signer.session(ALICE.id, "<alice>")
        signed_in = await fetch(base, {"Cookie": f"{SESSION_COOKIE}={cookie}"})
        assert "Signed in as &lt;alice&gt;" in signed_in and 'id="sign-out"' in signed_in
        assert 'id="sign-in"' not in signed_in


async def test_offline_root_is_the_terminal_s_game_not_discord_s(tmp_path: Path) -> None:
    """``python -m bot play`` with WEB_URL: ``/`` names the game typed in the terminal and
    links its live board; nothing about Discord, which is not there; a server's game in the
    same database is not linked."""
    store = await Store.open(tmp_path / "gammon.db")
    roller = ScriptedRoller()
    services = build_services(store, roller=roller)
    port = free_port()
    settings = Settings.from_env(
        {"WEB_URL": f"http://127.0.0.1:{port}", "WEB_PORT": str(port)}, env_file=None
    )
    web = await _serve_board(settings, services)  # as offline play builds its web server
    assert web is not None
    base = f"http://127.0.0.1:{port}/"
    try:
        session = services.session
        await session.challenge(GUILD, CHANNEL, ALICE, BOB)  # a Discord server's game
        roller.extend((3, 1))
        await session.accept(CHANNEL, BOB)
        idle = await fetch(base)
        assert 'data-page="landing"' in idle and "No game is running." in idle
        assert "the game played in the terminal" in idle
        assert 'id="live-link"' not in idle and "Discord" not in idle
        carol, dave = Player(1, "carol"), Player(2, "dave")
        await session.challenge(OFFLINE_GUILD, OFFLINE_CHANNEL, carol, dave, rated=False)
        roller.extend((5, 2))
        row = (await session.accept(OFFLINE_CHANNEL, dave)).match
        playing = await fetch(base)
        assert "Discord" not in playing and "No game is running." not in playing
        assert "<title>Live board</title>" in playing and "carol vs dave" in playing
        assert f'<a class="button" id="live-link" href="m/{row.web_key}">Watch live</a>' in playing
        assert 'data-page="live"' in await fetch(f"{base}m/{row.web_key}")
        french = await fetch(base, {"Accept-Language": "fr"})
        assert "carol contre dave" in french and "Suivre en direct" in french
    finally:
        await web.stop()
        await store.close()


def page_data(text: str) -> dict[str, Any]:
    found = re.search(r'<script id="data" type="application/json">(.*?)</script>', text)
    assert found is not None
    return dict(json.loads(found.group(1)))


async def test_match_pages_name_their_server_but_a_shared_replay_does_not(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        row = await start_match(services, roller, (3, 1))
        session = services.session
        live = await fetch(f"{base}m/{row.web_key}")
        assert page_data(live)["server"] == "The Club"
        assert "<title>alice – bob · Live board · The Club</title>" in live
        await session.resign(CHANNEL, BOB, ResultKind.SINGLE)
        await session.answer_resignation(CHANNEL, ALICE, True)
        replay = await fetch(f"{base}r/{row.web_key}")
        assert page_data(replay)["server"] == "The Club"
        share = await session.store.share_replay(row.id, ALICE.id, 1.0)
        shared = await fetch(f"{base}s/{share}")
        assert page_data(shared)["server"] is None and "The Club" not in shared


async def test_the_live_move_list_is_the_current_game_s_and_follows_it(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        session = services.session
        await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=3))
        roller.extend((3, 1))
        row = (await session.accept(CHANNEL, BOB)).match
        moves = f"{base}api/m/{row.web_key}/moves"
        first = json.loads(await fetch(moves))
        assert [f["action"] for f in first["frames"]] == ["start", "opening"]
        await session.move(CHANNEL, ALICE, "8/5 6/5")
        after = json.loads(await fetch(moves))
        assert after["version"] > first["version"]
        assert after["frames"][-1]["notation"] == "8/5 6/5"
        # Game 2: only its own frames.
        await session.resign(CHANNEL, BOB, ResultKind.SINGLE)
        roller.extend((6, 4))
        await session.answer_resignation(CHANNEL, ALICE, True)
        second = json.loads(await fetch(moves))
        assert [f["action"] for f in second["frames"]] == ["next_game", "opening"]
        assert {f["game_number"] for f in second["frames"]} == {2}
        # The state says since when the player to act is awaited, and the engine's pips.
        state = json.loads(await fetch(f"{base}api/m/{row.web_key}"))
        current = await session.match(row.id)
        assert current is not None and current.game is not None
        assert state["last_action_at"] == current.last_action_at
        assert state["game"]["pips"] == list(current.game.pips())
        assert state["game"]["final_score"] == [1, 0]
