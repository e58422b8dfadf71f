"""``python -m bot`` as its own process, configured only through its environment, against the
fake Discord: it logs in, syncs, answers a command, and exits cleanly on SIGTERM; and when it
cannot start (a bad database, Discord unreachable) it says so in one line and exits, instead
of printing a traceback and hanging (issue #12).

Start-up failures are run with ``LOG_LEVEL=WARNING``: the operator's one line must be the
only thing on stderr, whatever the bot logs at INFO on a good day.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Awaitable
from pathlib import Path

import pytest

from bot.engine import Phase
from bot.storage import Store
from tests.e2e.conftest import TOKEN
from tests.e2e.fake_discord import FakeDiscord, InteractionResult
from tests.e2e.process_support import (
    BotProcess,
    acknowledged,
    answered,
    answers,
    bot_env,
    latest,
    stderr_lines,
)

START_FAILURE_SECONDS = 5.0


async def test_process_serves_commands_and_stops_on_sigterm(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    env = bot_env(tmp_path / "db" / "gammon.db", fake)
    bot = await BotProcess(env, tmp_path).start()
    try:
        await fake.wait_until_ready(timeout=30)
        await fake.wait_for_commands(fake.guild.id, names=["backgammon"], timeout=30)
        alice = fake.create_member("alice")
        bob = fake.create_member("bob")
        help_ = await (await fake.slash(alice, "games", "backgammon", "help")).response()
        assert help_.ephemeral
        challenge = await fake.slash(
            alice, "games", "backgammon", "challenge", options={"opponent": bob.id}
        )
        text = (await challenge.original_message()).content or ""
        assert text.startswith(f"alice challenges {bob.mention} to a money game (rated).")

        started = time.monotonic()
        assert bot.process is not None
        bot.process.send_signal(signal.SIGTERM)
        code, stderr, _ = await bot.wait_exit(10)
        assert time.monotonic() - started < 5
        assert code == 0, stderr.decode()
        log = stderr.decode()
        assert "database closed" in log
        assert fake.token not in log
        assert (tmp_path / "db" / "gammon.db").exists()
    finally:
        await bot.kill()


# --- a database the bot cannot use --------------------------------------------------------


def _read_only_mount(folder: Path) -> list[str] | None:
    """A command prefix that runs the bot with ``folder`` mounted read-only, or None.

    Root ignores file modes, so a chmod would not stop it; a read-only bind mount in a private
    mount namespace does, as a read-only volume would in production.
    """
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    script = 'mount --bind "$0" "$0" && mount -o remount,ro,bind "$0" "$0" && exec "$@"'
    prefix = [unshare, "--mount", "sh", "-c", script, str(folder)]
    probe = subprocess.run(
        [*prefix, "sh", "-c", 'touch "$0/probe" 2>&1; echo "rc=$?"', str(folder)],
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    if "rc=1" not in probe.stdout or "Read-only" not in probe.stdout:
        return None
    return prefix


async def _make_database(kind: str, tmp_path: Path) -> tuple[Path, list[str]]:
    """The DATABASE_PATH for one kind of bad database, and a command prefix for the bot."""
    if kind == "garbage":
        path = tmp_path / "gammon.db"
        path.write_bytes(random.Random(12).randbytes(8192))
        return path, []
    if kind == "directory":
        path = tmp_path / "gammon.db"
        path.mkdir()
        (path / "something").write_text("a folder where the database file should be\n")
        return path, []
    assert kind == "read-only"
    folder = tmp_path / "ro"
    path = folder / "gammon.db"
    store = await Store.open(path)  # a good, migrated database...
    await store.close()
    if os.geteuid() == 0:
        prefix = _read_only_mount(folder)
        if prefix is None:
            pytest.skip(
                "running as root, which ignores file modes, and no read-only mount is "
                "possible here (needs unshare and CAP_SYS_ADMIN)"
            )
        return path, prefix
    path.chmod(0o444)  # ...on a folder and file nobody may write
    folder.chmod(0o555)
    return path, []


@pytest.mark.parametrize("kind", ["garbage", "directory", "read-only"])
async def test_a_bad_database_stops_the_process_with_one_line(
    kind: str, fake: FakeDiscord, tmp_path: Path
) -> None:
    """Issue #12 (5): the process must end within 5 s, non-zero, with one line naming the
    database path on stderr and no traceback (today: a traceback, then it hangs)."""
    path, prefix = await _make_database(kind, tmp_path)
    env = bot_env(path, fake, log_level="WARNING")
    bot = await BotProcess(env, tmp_path, wrapper=prefix).start()
    try:
        code, stderr, alive = await bot.wait_exit(START_FAILURE_SECONDS)
    finally:
        await bot.kill()
        if kind == "read-only" and os.geteuid() != 0:
            (tmp_path / "ro").chmod(0o755)
    text = stderr.decode(errors="replace")
    assert code is not None, f"still running {START_FAILURE_SECONDS} s after start"
    assert code != 0, text
    assert alive < START_FAILURE_SECONDS
    assert "Traceback" not in text, text
    lines = stderr_lines(text)
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{text}"
    assert str(path) in lines[0], f"the line does not name {path}: {lines[0]!r}"
    assert fake.token not in text


# --- Discord at start-up ------------------------------------------------------------------


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_discord_unreachable_at_start_stops_the_process_with_one_line(
    tmp_path: Path,
) -> None:
    """Nothing listens where Discord should be: one line saying Discord cannot be reached,
    a non-zero exit within 20 s (retrying a little first is fine), and no traceback."""
    port = _closed_port()
    env = bot_env(
        tmp_path / "gammon.db",
        api_base=f"http://127.0.0.1:{port}/api/v10",
        gateway_url=f"ws://127.0.0.1:{port}/gateway/",
        token=TOKEN,
        log_level="WARNING",
    )
    bot = await BotProcess(env, tmp_path).start()
    try:
        code, stderr, _ = await bot.wait_exit(20)
    finally:
        await bot.kill()
    text = stderr.decode(errors="replace")
    assert code is not None, "still running 20 s after start with Discord unreachable"
    assert code != 0, text
    assert "Traceback" not in text, text
    lines = stderr_lines(text)
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{text}"
    assert "discord" in lines[0].lower(), lines[0]
    assert TOKEN not in text


async def test_login_retries_discord_server_errors(fake: FakeDiscord, tmp_path: Path) -> None:
    """Two 502s on GET /users/@me (Discord having a bad moment) do not stop the bot: it retries
    with a backoff, logs in, and serves commands."""
    rule = fake.fail_requests("GET", r"/users/@me$", 502, count=2)
    bot = await BotProcess(bot_env(tmp_path / "gammon.db", fake), tmp_path).start()
    try:
        await fake.wait_until_ready(timeout=30)
        assert rule.hits == 2
        alice = fake.create_member("alice")
        result = await fake.slash(alice, "games", "backgammon", "help", timeout=30)
        assert (await result.response()).ephemeral
        assert await bot.terminate() == 0
    finally:
        await bot.kill()
    fake.assert_clean()


# --- two processes on one database -----------------------------------------------------------


async def test_two_processes_on_one_database_finish_a_game(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Issue #12 (7): two bot processes share one database file (a rolling deploy, or a second
    instance started by mistake) and interactions alternate between them. Every action must
    succeed and the game must finish: neither process may act on a row it cached before the
    other one changed it."""
    db = tmp_path / "gammon.db"
    bots: list[BotProcess] = []
    try:
        for _ in range(2):
            after = fake.ready_count
            bots.append(await BotProcess(bot_env(db, fake), tmp_path).start())
            await fake.wait_until_ready(timeout=30, after=after)
        fake.interaction_routing = "round_robin"
        alice = fake.create_member("alice")
        bob = fake.create_member("bob")
        players = {alice.id: alice, bob.id: bob}
        channel_id = fake.channel_id("games")
        rng = random.Random(7)
        sessions: set[int | None] = set()

        async def act(result_of: Awaitable[InteractionResult], what: str) -> None:
            result = await result_of
            sessions.add(result.session_index)
            await result.wait_for(answered, 15, f"the answer to {what}")
            assert acknowledged(result), f"{what}: {[m.content for m in answers(result)]}"

        await act(
            fake.slash(alice, "games", "backgammon", "challenge", options={"opponent": bob.id}),
            "the challenge",
        )
        rolls = 0
        for _ in range(300):
            snap = latest(db, channel_id)
            assert snap is not None
            if snap.status == "finished":
                break
            if snap.status == "challenge":
                (message, custom_id) = next(
                    (m, c)
                    for m in fake.messages_in("games")
                    for c in m.custom_ids
                    if c.startswith(f"bg:accept:{snap.id}:")
                )
                await act(fake.click(bob, message, custom_id), "accept")
                continue
            assert snap.status == "playing" and snap.game is not None, snap
            game = snap.game
            assert game.actor is not None
            who = players[snap.player_ids[game.actor]]
            if game.phase is Phase.DOUBLED:
                sub, options = "drop", {}
            elif game.phase is Phase.MOVE:
                sub, options = "move", {"play": str(rng.choice(list(game.legal_plays())))}
            elif rolls >= 8 and game.can_double():
                sub, options = "double", {}
            else:
                sub, options = "roll", {}
                rolls += 1
            await act(fake.slash(who, "games", "backgammon", sub, options=options), sub)
        else:
            raise AssertionError("the game did not finish in 300 actions")
        assert sessions == {0, 1}  # both processes served it
        for bot in bots:
            assert await bot.terminate() == 0
    finally:
        for bot in bots:
            await bot.kill()
    fake.assert_clean()
