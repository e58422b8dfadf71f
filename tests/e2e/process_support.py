"""Running ``python -m bot`` as its own process against the fake Discord, configured only
through its environment, as an operator would run it; reading its database from outside;
telling its successful answers from its errors.

The bot gets its own process group, so :meth:`BotProcess.kill` is a real ``kill -9`` of the
bot and of any worker process it started (what systemd does to a service's cgroup), and a
test never leaves processes behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from bot.core import codec
from bot.engine import Game, MatchOptions
from tests.e2e.fake_discord import FakeDiscord, InteractionResult, RecordedMessage

ROOT = Path(__file__).resolve().parents[2]


def bot_env(
    database: Path,
    fake: FakeDiscord | None = None,
    *,
    api_base: str | None = None,
    gateway_url: str | None = None,
    token: str | None = None,
    log_level: str = "INFO",
    **extra: str,
) -> dict[str, str]:
    """The environment of a bot process: this one's, minus any real Discord settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.pop("DEV_GUILD_ID", None)
    env.pop("DATABASE_PATH", None)
    env.update(PYTHONPATH=str(ROOT), DATABASE_PATH=str(database), LOG_LEVEL=log_level)
    if fake is not None:
        env.update(
            DISCORD_TOKEN=fake.token,
            DISCORD_API_BASE=fake.http_base,
            DISCORD_GATEWAY_URL=fake.gateway_url,
            DEV_GUILD_ID=str(fake.guild.id),
        )
    for key, value in (
        ("DISCORD_API_BASE", api_base),
        ("DISCORD_GATEWAY_URL", gateway_url),
        ("DISCORD_TOKEN", token),
    ):
        if value is not None:
            env[key] = value
    env.update(extra)
    return env


def stderr_lines(stderr: bytes | str) -> list[str]:
    """The non-empty lines of a process's standard error."""
    text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
    return [line for line in text.splitlines() if line.strip()]


class BotProcess:
    """One ``python -m bot`` process; stderr goes to ``log`` (a file) or a pipe."""

    def __init__(
        self,
        env: Mapping[str, str],
        cwd: Path,
        *,
        log: Path | None = None,
        wrapper: Sequence[str] = (),
        args: Sequence[str] = (),
    ) -> None:
        self.env = dict(env)
        self.args = list(args)  # after ``python -m bot`` (e.g. ``web``)
        self.cwd = cwd
        self.log = log
        self.wrapper = list(wrapper)
        self.process: asyncio.subprocess.Process | None = None
        self.started_at = 0.0
        self._log_file: IO[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def start(self) -> BotProcess:
        stderr: int | IO[bytes] = asyncio.subprocess.PIPE
        if self.log is not None:
            self._log_file = self.log.open("ab")
            stderr = self._log_file
        self.started_at = time.monotonic()
        self.process = await asyncio.create_subprocess_exec(
            *self.wrapper,
            sys.executable,
            "-m",
            "bot",
            *self.args,
            cwd=self.cwd,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL if self.log is not None else asyncio.subprocess.PIPE,
            stderr=stderr,
            start_new_session=True,
        )
        return self

    async def wait_exit(self, timeout: float) -> tuple[int | None, bytes, float]:
        """(return code or None if still running after ``timeout``, stderr, seconds alive)."""
        assert self.process is not None
        try:
            _, stderr = await asyncio.wait_for(self.process.communicate(), timeout)
        except TimeoutError:
            return None, b"", time.monotonic() - self.started_at
        return self.process.returncode, stderr or b"", time.monotonic() - self.started_at

    async def kill(self) -> None:
        """SIGKILL the bot's process group (the bot and its workers) and reap the bot."""
        if self.process is None:
            return
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        # the group may outlive its leader for a moment (workers); kill it again after reaping
        await self.process.wait()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    async def terminate(self, timeout: float = 10.0) -> int | None:
        """SIGTERM the bot and wait; SIGKILL if it is still running after ``timeout``."""
        if self.process is None:
            return None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), timeout)
        code = self.process.returncode
        await self.kill()
        return code


# --- the database, read from outside the bot -----------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """The latest match row of a channel, as read from the database file."""

    id: int
    status: str
    player_ids: tuple[int, int]
    computer_level: str | None
    options: MatchOptions
    game: Game | None
    version: int

    @property
    def key(self) -> tuple[int, str, int]:
        return self.id, self.status, self.version


MATCH_COLUMNS = "id, status, player0_id, player1_id, options, computer_level, state, version"


def snapshot(row: tuple[Any, ...]) -> Snapshot:
    id_, status, p0, p1, options, level, state, version = row
    return Snapshot(
        id=id_,
        status=status,
        player_ids=(p0, p1),
        computer_level=level,
        options=codec.options_from_dict(codec.loads(options)),
        game=codec.game_from_dict(codec.loads(state)) if state else None,
        version=version,
    )


@contextlib.contextmanager
def read_only(db: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the bot's database (WAL: readers never block the writer)."""
    connection = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        yield connection
    finally:
        connection.close()


def latest(db: Path, channel_id: int) -> Snapshot | None:
    """The newest match row of a channel (live or ended), or None."""
    for attempt in range(50):
        try:
            with read_only(db) as connection:
                row = connection.execute(
                    f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = ? "
                    "ORDER BY id DESC LIMIT 1",
                    (channel_id,),
                ).fetchone()
            return snapshot(row) if row else None
        except sqlite3.OperationalError:  # the bot is creating the file or its WAL index
            if attempt == 49:
                raise
            time.sleep(0.05)
    return None


# --- the bot's answers ---------------------------------------------------------------------


def answers(result: InteractionResult) -> list[RecordedMessage]:
    """The messages the bot sent in answer (not the clicked message it merely edited)."""
    callback = result.callback
    out: list[RecordedMessage] = []
    if callback is not None and callback.type == 4 and callback.message is not None:
        out.append(callback.message)
    if callback is not None and callback.type == 5 and result.original is not None:
        out.append(result.original)
    out.extend(m for m in result.followups if m not in out)
    return [m for m in out if not m.loading and not m.deleted]


def answered(result: InteractionResult) -> bool:
    return bool(answers(result))


def acknowledged(result: InteractionResult) -> bool:
    """A public answer with a board or buttons: what the bot posts when an action succeeded."""
    return any(not m.ephemeral and (m.attachments or m.buttons) for m in answers(result))
