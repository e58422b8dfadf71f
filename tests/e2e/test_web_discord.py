"""The web board in Discord: links on the board and the leaderboard when WEB_URL is set, the
Activity launched by the board's button and by /backgammon play-here (response type 12),
and a global command sync that keeps the Activity's Entry Point command."""

from __future__ import annotations

import contextlib
import socket
from dataclasses import dataclass, replace
from pathlib import Path

import aiohttp
import pytest

from bot.config import Settings
from cogs.weblinks import can_launch
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import FakeDiscord, RecordedMessage
from tests.e2e.fake_oauth import FakeOAuth
from tests.e2e.process_support import BotProcess, bot_env, stderr_lines

WEB = "https://gammon.example"


@dataclass
class WebHarness(Harness):
    """The bot with WEB_URL (and the Activity's client when ``activity``)."""

    activity: bool = True
    global_sync: bool = False

    @property
    def settings(self) -> Settings:
        settings = replace(super().settings, web_url=WEB)
        if self.activity:
            settings = replace(settings, client_id=self.fake.application_id, client_secret="s")
        if self.global_sync:
            settings = replace(settings, dev_guild_id=None)
        return settings


@contextlib.asynccontextmanager
async def web_bot(fake: FakeDiscord, tmp_path: Path, **kwargs: bool):
    h = WebHarness(fake, tmp_path / "gammon.db")
    for name, value in kwargs.items():  # the harness's switches: activity, global_sync
        setattr(h, name, value)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


async def start(h: Harness) -> RecordedMessage:
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    return await (await h.press(h.bob, challenge, "accept")).answer()


@pytest.mark.skipif(not can_launch(), reason="LAUNCH_ACTIVITY needs discord.py 2.6")
async def test_boards_link_to_the_page_and_launch_the_activity(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    oauth = FakeOAuth(fake)
    oauth.enable_activities()
    async with web_bot(fake, tmp_path) as h:
        h.roller.extend((3, 1))
        challenge = await (
            await h.slash(h.alice, "challenge", opponent=h.bob.id)
        ).original_message()
        board = await (await h.press(h.bob, challenge, "accept")).answer()
        match = await h.live()
        assert match is not None
        links = [b for b in board.buttons if b.url]
        # The page by the match's key, never its number (issue 41).
        assert match.web_key and len(match.web_key) >= 22
        assert [b.url for b in links] == [f"{WEB}/m/{match.web_key}"]
        result = await fake.click(h.carol, board, "bgweb:launch")
        callback = await result.response()
        assert callback.type == 12
        assert len(oauth.launched) == 1 and str(fake.channel_id("games")) in oauth.launched[0]
        here = await h.slash(h.alice, "play-here")
        assert (await here.response()).type == 12
    fake.assert_clean()


async def test_a_chouette_s_boards_link_to_its_page_by_its_key(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Spectators see every cube on the web: each chouette board links its page, by the
    session's key, never its number (issue 39)."""
    async with web_bot(fake, tmp_path, activity=False) as h:
        opened = await h.fake.slash(h.alice, "games", "chouette", "start")
        await opened.answer()
        (thread,) = [c for c in h.fake.guild.channels.values() if c.is_thread]
        board = [m for m in h.fake.messages_in(thread.id) if m.interactive][-1]
        found = await h.services.chouette.current(thread.id)
        assert found is not None and len(found[0].web_key) >= 22
        (link,) = [b for b in board.buttons if b.url]
        assert link.url == f"{WEB}/c/{found[0].web_key}" and link.label == "Watch live"
        h.fake.assert_clean()


async def test_without_the_activity_there_is_no_play_here_and_no_launch(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with web_bot(fake, tmp_path, activity=False) as h:
        (group,) = [c for c in fake.commands(fake.guild.id) if c["name"] == "backgammon"]
        assert "play-here" not in {option["name"] for option in group["options"]}
        h.roller.extend((3, 1))
        challenge = await (
            await h.slash(h.alice, "challenge", opponent=h.bob.id)
        ).original_message()
        board = await (await h.press(h.bob, challenge, "accept")).answer()
        assert "bgweb:launch" not in board.custom_ids  # a link, but no Launch
        assert any(b.url for b in board.buttons)
        leaderboard = await (await h.slash(h.alice, "leaderboard")).answer()
        key = await h.service.store.guild_web_key(fake.guild.id)
        assert leaderboard.embeds[0]["url"] == f"{WEB}/g/{key}" and str(fake.guild.id) not in key
    fake.assert_clean()


async def test_a_global_sync_keeps_the_entry_point_command(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """With the Activity enabled Discord holds a type 4 command; a bulk overwrite without it
    is refused (50240), so the bot sends it back with the tree's commands."""
    entry = FakeOAuth(fake).enable_activities()
    async with web_bot(fake, tmp_path, global_sync=True):
        commands = {c["name"]: c for c in fake.commands()}
        menus = {"Challenge to backgammon", "Analyse this position"}
        groups = {"backgammon", "puzzle", "tournament", "ladder", "chouette"}
        assert set(commands) == {*menus, *groups, "launch"}
        assert commands["launch"]["id"] == entry["id"] and commands["launch"]["type"] == 4
    fake.assert_clean()


async def test_the_fake_refuses_a_bulk_overwrite_that_drops_the_entry_point(
    fake: FakeDiscord,
) -> None:
    FakeOAuth(fake).enable_activities()
    url = f"{fake.http_base}/applications/{fake.application_id}/commands"
    headers = {"Authorization": f"Bot {fake.token}"}
    ping = {"name": "ping", "description": "Ping", "type": 1}
    async with aiohttp.ClientSession() as http:
        async with http.put(url, json=[ping], headers=headers) as response:
            assert response.status == 400
            assert (await response.json())["code"] == 50240
        (entry,) = [c for c in fake.commands() if c["type"] == 4]
        kept = [ping, {"id": entry["id"], "name": "launch", "type": 4, "handler": 2}]
        async with http.put(url, json=kept, headers=headers) as response:
            assert response.status == 200, await response.text()
        guild_url = (
            f"{fake.http_base}/applications/{fake.application_id}/guilds/{fake.guild.id}/commands"
        )
        async with http.put(guild_url, json=kept, headers=headers) as response:
            assert response.status == 400  # Entry Point commands are global only
    assert [c["name"] for c in fake.commands()] == ["ping", "launch"]
    fake.errors.clear()


async def test_tree_sync_alone_is_refused_once_the_activity_is_on(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """What the bot did before: discord.py's tree.sync() drops the Entry Point command."""
    FakeOAuth(fake).enable_activities()
    async with web_bot(fake, tmp_path, global_sync=True) as h:
        assert h.bot is not None
        with pytest.raises(Exception, match="50240"):
            await h.bot.tree.sync()
    fake.errors.clear()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_python_m_bot_serves_the_web_board_when_web_url_is_set(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The server runs inside the bot's process, and stops with it."""
    port = free_port()
    env = bot_env(
        tmp_path / "gammon.db", fake, WEB_URL=f"http://127.0.0.1:{port}", WEB_PORT=str(port)
    )
    bot = await BotProcess(env, tmp_path).start()
    try:
        await fake.wait_for_commands(fake.guild.id, names=["backgammon"], timeout=30)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"http://127.0.0.1:{port}/") as response:
                assert response.status == 200
            # Nothing is reachable by a bare id (issue 41).
            for path in (f"g/{fake.guild.id}", "m/1", "r/1", "api/m/1"):
                async with http.get(f"http://127.0.0.1:{port}/{path}") as response:
                    assert response.status == 404, path
        assert await bot.terminate() == 0
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
    finally:
        await bot.kill()


async def test_python_m_bot_stops_with_one_line_when_the_web_port_is_taken(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = bot_env(
            tmp_path / "gammon.db",
            fake,
            log_level="CRITICAL",
            WEB_URL="http://127.0.0.1",
            WEB_PORT=str(port),
        )
        bot = await BotProcess(env, tmp_path).start()
        try:
            code, stderr, _ = await bot.wait_exit(30)
        finally:
            await bot.kill()
    assert code == 1
    (line,) = stderr_lines(stderr)
    assert line.startswith("gammon-bot: cannot serve the web board:")
