"""Issue 25: the bot as Discord's contract sees it, through the strict fake Discord.

The fake refuses what Discord refuses (``discord_contract``), so these tests fail where real
Discord would: the real command tree must be accepted at start-up; a private answer stays
private when the watchdog defers it; a command sync Discord does not take is retried when
that can help, and otherwise stops the process with a line saying why.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import client
from bot.client import CommandSyncError
from cogs import replies
from tests.e2e.conftest import Harness
from tests.e2e.discord_contract import MAX_SAFE_INTEGER, check_request
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.process_support import BotProcess, bot_env, stderr_lines

SYNC_ROUTE = r"/applications/\d+/guilds/\d+/commands$"


def _text_channel(h: Harness, channel_id: int) -> discord.TextChannel:
    """The bot's own view of one of the fake's text channels."""
    assert h.bot is not None
    channel = h.bot.get_channel(channel_id)
    assert isinstance(channel, discord.TextChannel), channel
    return channel


def _walk(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for option in options:
        found.append(option)
        found += _walk(option.get("options") or [])
    return found


async def test_the_real_command_tree_is_accepted_by_discords_contract(harness: Harness) -> None:
    """The tree the bot builds at start-up (every command, its French names and
    descriptions) is synced through the strict fake. It used to declare ``match`` up to
    2^62: Discord refused the whole sync (50035) and the bot could not start."""
    h = harness
    trees = {t["name"]: t for t in h.fake.commands(h.fake.guild.id)}
    assert sorted(trees) == [
        "Analyse this position",
        "Challenge to backgammon",
        "backgammon",
        "chouette",
        "ladder",
        "puzzle",
        "tournament",
    ]
    menu = trees["Analyse this position"]  # a message command: capitals and spaces allowed
    assert menu["type"] == 3 and menu["name_localizations"]["fr"] == "Analyser cette position"
    tree = trees["backgammon"]
    assert [e for e in h.fake.errors if "/commands" in e.path] == []
    options = _walk(tree["options"])
    bounds = [o[k] for o in options for k in ("min_value", "max_value") if k in o]
    assert bounds and all(abs(b) <= MAX_SAFE_INTEGER for b in bounds)
    export = next(o for o in tree["options"] if o["name"] == "export")
    (match,) = [o for o in export["options"] if o["name"] == "match"]
    assert match["max_value"] == MAX_SAFE_INTEGER
    french = {o["name"]: (o.get("name_localizations") or {}).get("fr") for o in options}
    assert french["settings"] == "réglages"  # the French names went along, and were kept
    puzzle = trees["puzzle"]
    assert (puzzle.get("name_localizations") or {}).get("fr") == "problème"
    events = trees["tournament"]
    assert (events.get("name_localizations") or {}).get("fr") == "tournoi"
    french_events = {
        o["name"]: (o.get("name_localizations") or {}).get("fr") for o in _walk(events["options"])
    }
    # Every name is French, but for the words French writes the same (format, pause...).
    same = {"format", "consolation", "pause"}
    assert [name for name, fr in french_events.items() if not fr and name not in same] == []
    table = trees["chouette"]
    assert table["integration_types"] == [0] and table["contexts"] == [0]  # a club's
    french_table = {
        o["name"]: (o.get("name_localizations") or {}).get("fr") for o in _walk(table["options"])
    }
    assert french_table["start"] == "commencer" and french_table["computer"] == "ordinateur"
    same = {"jacoby", "beavers", "consultation", "rotation"}  # the same words in French
    assert [name for name, fr in french_table.items() if not fr and name not in same] == []
    check_request("PUT", "/api/v10/applications/1/guilds/2/commands", list(trees.values()))


@pytest.mark.parametrize(
    ("sub", "options", "slow"),
    [("games", {}, "games_of"), ("settings", {"board": "left"}, "update_user_settings")],
)
async def test_a_private_answer_stays_private_after_the_watchdog(
    harness: Harness,
    monkeypatch: pytest.MonkeyPatch,
    sub: str,
    options: dict[str, Any],
    slow: str,
) -> None:
    """``/backgammon games`` or ``settings`` taking longer than the watchdog: the watchdog
    deferred publicly, Discord gave the answer the deferral's visibility, and a player's
    private games and settings were shown to the whole channel."""
    monkeypatch.setattr(replies, "WATCHDOG_SECONDS", 0.2)
    h = harness
    original = getattr(h.services.club, slow)

    async def slowly(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.6)
        return await original(*args, **kwargs)

    monkeypatch.setattr(h.services.club, slow, slowly)
    result = await h.slash(h.alice, sub, **options)
    callback = await result.response()
    assert callback.type == 5  # the watchdog deferred
    answer = await result.answer()
    assert answer.ephemeral, answer.content
    assert callback.ephemeral
    assert [m for m in h.fake.messages_in("games") if not m.ephemeral] == []
    h.fake.assert_clean()


async def test_a_body_discord_refuses_is_answered_like_discord(harness: Harness) -> None:
    """Through discord.py, as the bot would meet it: 400, 50035, the field's path."""
    h = harness
    channel = _text_channel(h, h.fake.channel_id("general"))
    with pytest.raises(discord.HTTPException) as refused:
        await channel.send("x" * 2001)
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert "content" in refused.value.text
    (record,) = h.fake.errors
    assert record.errors["content"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert h.fake.messages_in("general") == []


# --- the command sync at start-up ------------------------------------------------------------


@pytest.fixture
def quick_sync(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(client, "SYNC_PAUSES", (0.1, 0.1, 0.1, 0.1))


@pytest.mark.parametrize(("status", "count"), [(503, 2), (500, 1)])
async def test_a_sync_that_fails_for_a_while_is_retried(
    fake: FakeDiscord, tmp_path: Path, quick_sync: None, status: int, count: int
) -> None:
    """503 twice (discord.py does not retry a 503 on a bot route: the bot does), or a 500
    (discord.py retries it itself): the bot starts with its commands, instead of running on
    without them."""
    rule = fake.fail_requests("PUT", SYNC_ROUTE, status, count=count)
    h = Harness(fake, tmp_path / "gammon.db")
    await h.start()
    try:
        assert rule.hits == count
        names = sorted(c["name"] for c in fake.commands(fake.guild.id))
        menus = ["Analyse this position", "Challenge to backgammon"]
        assert names == [*menus, "backgammon", "chouette", "ladder", "puzzle", "tournament"]
    finally:
        await h.stop()


@pytest.mark.parametrize(("status", "code", "tries"), [(503, 0, 5), (400, 50035, 1)])
async def test_a_sync_discord_never_takes_stops_the_bot(
    fake: FakeDiscord, tmp_path: Path, quick_sync: None, status: int, code: int, tries: int
) -> None:
    """Always 503: five tries, then an error naming the cause. A refusal (400 50035) is not
    tried again: the same commands would be refused again."""
    rule = fake.fail_requests("PUT", SYNC_ROUTE, status, count=100, code=code)
    h = Harness(fake, tmp_path / "gammon.db")
    with pytest.raises(CommandSyncError, match=str(status)):
        await h.start()
    with contextlib.suppress(CommandSyncError):  # the bot's task ended with it too
        await h.stop()
    assert rule.hits == tries
    assert fake.commands(fake.guild.id) == []


async def test_python_m_bot_exits_when_discord_refuses_the_commands(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    fake.fail_requests("PUT", SYNC_ROUTE, 400, count=100, code=50035, message="Invalid Form Body")
    env = bot_env(tmp_path / "gammon.db", fake, log_level="CRITICAL")
    bot = await BotProcess(env, tmp_path).start()
    try:
        code, stderr, _ = await bot.wait_exit(30)
    finally:
        await bot.kill()
    assert code == 1
    (line,) = stderr_lines(stderr)
    assert line.startswith("gammon-bot: cannot register the slash commands: Discord refused")
    assert "50035" in line


async def test_python_m_bot_starts_when_the_sync_succeeds_after_503s(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    rule = fake.fail_requests("PUT", SYNC_ROUTE, 503, count=2)
    env = bot_env(tmp_path / "gammon.db", fake)
    bot = await BotProcess(env, tmp_path).start()
    try:
        await fake.wait_for_commands(fake.guild.id, names=["backgammon"], timeout=30)
        assert rule.hits == 2
        assert bot.running
    finally:
        await bot.kill()


# --- rate limits and the interaction token's life --------------------------------------------


async def test_a_burst_over_the_route_limit_waits_and_every_message_arrives(
    harness: Harness,
) -> None:
    """20 messages at once into one channel, 5 allowed per 0.5 s: Discord's 429s (or its
    bucket headers) make discord.py wait; every message arrives, none is an error."""
    h = harness
    h.fake.rate_limits.route_limit, h.fake.rate_limits.route_window = 5, 0.5
    channel = _text_channel(h, h.fake.channel_id("general"))
    started = asyncio.get_running_loop().time()
    sent = await asyncio.gather(*(channel.send(f"message {i}") for i in range(20)))
    waited = asyncio.get_running_loop().time() - started
    assert len({m.id for m in sent}) == 20
    texts = {m.content for m in h.fake.messages_in("general")}
    assert {f"message {i}" for i in range(20)} <= texts
    # 20 requests in 5-request windows of 0.5 s: the limit held them for 3 windows at least.
    assert waited >= 1.4
    h.fake.assert_clean()


async def test_a_burst_over_the_global_limit_waits_too(harness: Harness) -> None:
    """Over the global limit (here 8 per second) across channels: global 429s, and
    discord.py waits them out; interaction callbacks are not bound by it."""
    h = harness
    h.fake.rate_limits.global_limit = 8
    h.fake.rate_limits.reset()
    ids = [h.fake.channel_id(name) for name in ("general", "games")]
    channels = [_text_channel(h, i) for i in ids]
    sent = await asyncio.gather(*(channels[i % 2].send(f"hello {i}") for i in range(20)))
    assert len(sent) == 20
    assert any(r.status == 429 for r in h.fake.rate_limited)
    h.fake.rate_limits.global_limit = 1  # an interaction is still answered at once
    h.fake.rate_limits.reset()
    assert (await (await h.slash(h.alice, "help")).response()).ephemeral
    h.fake.assert_clean()


async def test_an_interaction_token_expires_after_its_lifetime(harness: Harness) -> None:
    """Discord: a token is valid for 15 minutes; after that its webhook routes answer 401
    Invalid Webhook Token (50027). The fake takes a shorter life to show it."""
    h = harness
    result = await h.slash(h.alice, "help")
    await result.response()
    assert h.bot is not None
    webhook = discord.Webhook.partial(h.fake.application_id, result.token, client=h.bot)
    await webhook.send("still in time")
    h.fake.interaction_token_lifetime = 0.2
    await asyncio.sleep(0.3)
    with pytest.raises(discord.HTTPException) as gone:
        await webhook.send("too late")
    assert (gone.value.status, gone.value.code) == (401, 50027)


async def test_python_m_bot_exits_when_discord_never_takes_the_commands(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Always 503: the process tries for 15 s (1, 2, 4, 8 s apart), then stops with one line
    naming the cause, instead of running on with no commands (what it used to do)."""
    rule = fake.fail_requests("PUT", SYNC_ROUTE, 503, count=100)
    env = bot_env(tmp_path / "gammon.db", fake, log_level="CRITICAL")
    bot = await BotProcess(env, tmp_path).start()
    try:
        code, stderr, _ = await bot.wait_exit(60)
    finally:
        await bot.kill()
    assert code == 1
    (line,) = stderr_lines(stderr)
    assert line.startswith("gammon-bot: cannot register the slash commands: Discord did not")
    assert "after 5 tries" in line and "503" in line
    assert rule.hits == 5
