"""The web server beside the real bot, logging in through the fake Discord's OAuth2.

``Activity`` bundles a :class:`Harness` (the bot and the fake Discord), a :class:`FakeOAuth`
and a :class:`WebServer` over the bot's own services: what a test of the Activity or of the
live pages needs. ``login`` runs the documented login over HTTP as the SDK's page does.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web

from bot.web import WebConfig, WebServer
from bot.web.directory import DiscordDirectory, WebReaders
from bot.web.discord_api import DiscordOAuth, LoginGate
from bot.web.guard import RateLimiter
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import FakeMember
from tests.e2e.fake_oauth import FakeOAuth


@dataclass
class Activity:
    h: Harness
    oauth: FakeOAuth
    server: WebServer
    http: aiohttp.ClientSession

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/"

    async def post(self, path: str, body: Any, session: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {session}"} if session else {}
        async with self.http.post(self.base + path, json=body, headers=headers) as response:
            if response.content_type == "application/json":
                return response.status, await response.json()
            return response.status, await response.text()

    async def login(self, who: FakeMember, instance_id: str) -> dict[str, Any]:
        """The SDK's page: code -> /api/token -> /api/activity/session."""
        status, token = await self.post("api/token", {"code": self.oauth.code_for(who)})
        assert status == 200, token
        status, seat = await self.post(
            "api/activity/session",
            {"access_token": token["access_token"], "instance_id": instance_id},
        )
        assert status == 200, seat
        return dict(seat)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.asynccontextmanager
async def activity(
    h: Harness,
    *,
    gate: LoginGate | None = None,
    routes: list[web.RouteDef] | None = None,
    limiter: RateLimiter | None = None,
) -> AsyncIterator[Activity]:
    """The web server of ``h``'s bot, with the Activity's login against a fake OAuth2.

    Every visitor of a test comes from 127.0.0.1, so the per-client rate limit is wide
    unless ``limiter`` says otherwise (tests/web/test_guard.py tests the limit itself)."""
    oauth = await FakeOAuth(h.fake).start()
    client = DiscordOAuth(
        client_id=oauth.client_id,
        client_secret=oauth.client_secret,
        bot_token=h.fake.token,
        api_base=oauth.http_base,
    )
    readers = WebReaders(DiscordDirectory(bot_token=h.fake.token, api_base=h.fake.http_base))
    port = free_port()  # WEB_URL names the port: sockets open only from its pages
    server = WebServer(
        h.services,
        WebConfig(url=f"http://127.0.0.1:{port}/", port=port),
        oauth=client,
        readers=readers,
        gate=gate,
        limiter=limiter or RateLimiter(rate=1000.0, burst=1000.0),
        tap_limiter=RateLimiter(rate=1000.0, burst=1000.0),  # scripted players tap fast
    )
    if routes:
        server.app.add_routes(routes)
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            yield Activity(h, oauth, server, http)
    finally:
        await server.stop()
        await oauth.stop()
