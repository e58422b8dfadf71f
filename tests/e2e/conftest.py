"""Fixtures that run the real gammon-bot (discord.py, cogs, session, store, renderer) against
the local fake Discord, pointed at it through the DISCORD_API_BASE / DISCORD_GATEWAY_URL
settings exactly as a deployment behind a proxy would be.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import io
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.client import GammonBot, point_discord_at
from bot.config import Settings
from bot.core.dice import ScriptedRoller
from bot.core.session import SessionService, SessionSettings
from bot.services import Services, build_services
from bot.storage import Store
from cogs.backgammon import Backgammon
from tests.e2e.fake_discord import (
    PERM_MANAGE_MESSAGES,
    FakeDiscord,
    FakeMember,
    InteractionResult,
    RecordedMessage,
)


class FakeClock:
    """Time that moves only when a test says so (for expiry and inactivity)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def running_cog(h: Harness, name: str, module: str) -> Any:
    """The cog ``name`` of ``h``'s running bot. Each bot loads its cogs as extensions, which
    discord.py executes anew: its class is the one in ``module`` as loaded now, not the one
    a test module imported before the bot started."""
    assert h.bot is not None
    cog = h.bot.get_cog(name)
    assert isinstance(cog, getattr(importlib.import_module(module), name)), cog
    return cog


@dataclass
class Harness:
    """One fake Discord, its people, and the bot (restartable on the same database)."""

    fake: FakeDiscord
    db_path: Path
    roller: ScriptedRoller = field(default_factory=ScriptedRoller)
    clock: FakeClock = field(default_factory=FakeClock)
    computer: Callable[[str], Any] | None = None  # a scripted computer opponent, if any
    game_reviews: bool = False  # the luck posts after each game (bgsage work): opt in
    fair_dice: bool = False  # the bot's own committed dice instead of the scripted roller
    # Commands synced globally, as a deployment does (not to a test server): only global
    # commands can be installed to users (Discord: integration_types and contexts are "only
    # for globally-scoped commands").
    global_commands: bool = False
    bot: GammonBot | None = None
    _task: asyncio.Task[None] | None = None
    _store: Store | None = None

    def __post_init__(self) -> None:
        self.alice = self.fake.create_member("alice")
        self.bob = self.fake.create_member("bob")
        self.carol = self.fake.create_member("carol")
        self.mod = self.fake.create_member("mod", permissions=PERM_MANAGE_MESSAGES)
        self.robot = self.fake.add_member(None, self.fake.create_user("robo", bot=True))

    @property
    def settings(self) -> Settings:
        return Settings(
            token=self.fake.token,
            dev_guild_id=None if self.global_commands else self.fake.guild.id,
            database_path=self.db_path,
            game_reviews=self.game_reviews,
            api_base=self.fake.http_base,
            gateway_url=self.fake.gateway_url,
        )

    @property
    def services(self) -> Services:
        assert self.bot is not None
        return self.bot.services

    @property
    def service(self) -> SessionService:
        """The game session (the services' first)."""
        return self.services.session

    @property
    def cog(self) -> Backgammon:
        """The running bot's game cog, for the tests that reach into it."""
        return running_cog(self, "Backgammon", "cogs.backgammon")

    async def start(self) -> GammonBot:
        settings = self.settings
        point_discord_at(settings)
        self._store = await Store.open(settings.database_path)
        services = build_services(
            self._store,
            roller=None if self.fair_dice else self.roller,
            settings=SessionSettings(
                challenge_timeout=15 * 60, inactivity_timeout=60 * 60, computer_retry=0.2
            ),
            clock=self.clock,
            computer=self.computer,
        )
        bot = GammonBot(settings, services)
        after = self.fake.ready_count
        self._task = asyncio.create_task(bot.start(settings.require_token()))
        # Generous: on two busy cores (the suite runs a worker a core) a start takes seconds.
        ready = asyncio.create_task(self.fake.wait_until_ready(timeout=30, after=after))
        await asyncio.wait({self._task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if self._task.done():
            ready.cancel()
            try:
                self._task.result()
            finally:
                await bot.close()
            raise AssertionError("the bot stopped before it was ready")
        await ready
        await asyncio.wait_for(bot.synced.wait(), 30)
        self.bot = bot
        return bot

    async def stop(self) -> None:
        """Stop the bot and close its store, even when the bot's task ended in an error (a
        start that failed): an open aiosqlite connection keeps a thread that would hold the
        test process open after the last test."""
        try:
            if self.bot is not None:
                await self.bot.drain()
                await self.bot.close()
            if self._task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait_for(self._task, 5)
        finally:
            if self._store is not None:
                await self._store.close()
            self.bot = self._task = self._store = None

    async def restart(self) -> GammonBot:
        await self.stop()
        return await self.start()

    # --- acting ----------------------------------------------------------------------------

    async def slash(
        self, who: FakeMember, sub: str, channel: str | int = "games", **options: object
    ) -> InteractionResult:
        return await self.fake.slash(who, channel, "backgammon", sub, options=options)

    async def board_after(self, result: InteractionResult) -> RecordedMessage:
        """The public message an action produced (the board post)."""
        message = await result.answer()
        assert not message.ephemeral, message.content
        return message

    async def error_of(self, result: InteractionResult) -> str:
        """The private error an action got; fails if the answer was public."""
        callback = await result.response()
        if callback.type == 5:  # deferred: the error comes as a followup
            message = await result.followup(0)
            assert message.ephemeral, message.content
            return message.content or ""
        assert callback.ephemeral, callback.content
        return callback.content or ""

    async def press(
        self, who: FakeMember, message: RecordedMessage, action: str
    ) -> InteractionResult:
        (custom_id,) = [c for c in message.custom_ids if c.startswith(f"bg:{action}:")]
        return await self.fake.click(who, message, custom_id)

    async def live(self, channel: str | int = "games"):
        return await self.service.store.live_match(self.fake.channel_id(channel))


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        assert image.format == "PNG"
        return image.size


# Shaped like a real bot token, so the bot's own token check accepts it.
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GfAkEd.fake-token-for-tests-only-0123456789"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN) as fake:
        with fake.patch_discord():
            yield fake


@pytest.fixture
async def harness(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(fake, tmp_path / "gammon.db")
    await h.start()
    try:
        yield h
    finally:
        await h.stop()
