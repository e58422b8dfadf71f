"""``python -m bot`` as its own process, configured only through its environment, against the
fake Discord: it logs in, syncs, answers a command, and exits cleanly on SIGTERM.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from tests.e2e.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


async def test_process_serves_commands_and_stops_on_sigterm(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.http_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DEV_GUILD_ID=str(fake.guild.id),
        DATABASE_PATH=str(tmp_path / "db" / "gammon.db"),
        LOG_LEVEL="INFO",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
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
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), 10)
        assert time.monotonic() - started < 5
        assert process.returncode == 0, stderr.decode()
        log = stderr.decode()
        assert "database closed" in log
        assert fake.token not in log
        assert (tmp_path / "db" / "gammon.db").exists()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
