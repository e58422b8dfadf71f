"""The three calls to Discord's API that prove who an Activity's player is and where.

Discord documents the Activity login this way, and nothing the browser says is trusted:

1. the browser's one-time ``code`` (from the SDK's ``authorize``) is exchanged for an access
   token at ``POST /oauth2/token`` with the app's client id and secret (the secret never
   leaves the server);
2. ``GET /users/@me`` with that Bearer token says whose token it is;
3. ``GET /applications/{app}/activity-instances/{instance}`` with the **bot** token says in
   which guild and channel the instance runs and who is in it (404 for an instance that
   does not exist, or is not this app's).

:class:`LoginGate` limits code exchanges: the endpoint is public, and a flood of made-up
codes would make Discord rate-limit the bot's own address.

Pure of discord.py: plain aiohttp client calls.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

DISCORD_API = "https://discord.com/api/v10"


class DiscordRefused(Exception):
    """Discord said no (a bad code, a bad token, an unknown instance): ``status`` tells."""

    def __init__(self, status: int, what: str) -> None:
        super().__init__(f"{what}: HTTP {status}")
        self.status = status


@dataclass(frozen=True, slots=True)
class DiscordUser:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Instance:
    """Where an Activity instance runs, as Discord (not the browser) says."""

    instance_id: str
    guild_id: int | None
    channel_id: int
    users: frozenset[int]


class DiscordOAuth:
    """Code exchange, the token's user and the instance's place, over one HTTP session."""

    def __init__(
        self, *, client_id: int, client_secret: str, bot_token: str, api_base: str | None = None
    ) -> None:
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self.api = (api_base or DISCORD_API).rstrip("/")
        self._http: aiohttp.ClientSession | None = None

    @property
    def client_secret(self) -> str:
        """The app's secret (it also keys the web sign-in's cookies: bot.web.signin)."""
        return self._secret

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        return self._http

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()

    async def _json(self, response: aiohttp.ClientResponse, what: str) -> Any:
        if response.status != 200:
            raise DiscordRefused(response.status, what)
        return await response.json()

    async def exchange(self, code: str, redirect_uri: str | None = None) -> str:
        """The access token for a one-time authorization code (``redirect_uri``: the one the
        web sign-in sent to Discord's consent page, which Discord checks; the Activity's SDK
        code has none)."""
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        if redirect_uri is not None:
            form["redirect_uri"] = redirect_uri
        async with self._session().post(f"{self.api}/oauth2/token", data=form) as response:
            body = await self._json(response, "oauth2/token")
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str) or not token:
            raise DiscordRefused(502, "oauth2/token: no access_token")
        return token

    async def user(self, access_token: str) -> DiscordUser:
        headers = {"Authorization": f"Bearer {access_token}"}
        async with self._session().get(f"{self.api}/users/@me", headers=headers) as response:
            body = await self._json(response, "users/@me")
        name = body.get("global_name") or body.get("username") or "?"
        return DiscordUser(int(body["id"]), str(name))

    async def instance(self, instance_id: str) -> Instance:
        headers = {"Authorization": f"Bot {self._bot_token}"}
        url = f"{self.api}/applications/{self.client_id}/activity-instances/{instance_id}"
        async with self._session().get(url, headers=headers) as response:
            body = await self._json(response, "activity-instances")
        location = body.get("location") or {}
        guild = location.get("guild_id")
        return Instance(
            instance_id=str(body["instance_id"]),
            guild_id=int(guild) if guild else None,
            channel_id=int(location["channel_id"]),
            users=frozenset(int(user) for user in body.get("users", ())),
        )


class LoginGate:
    """At most ``per_address`` login requests a minute from one address and ``overall`` from
    all (a login is two: the code exchange, then the session)."""

    def __init__(
        self,
        *,
        per_address: int = 20,
        overall: int = 240,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_address = per_address
        self.overall = overall
        self.window = window
        self.clock = clock
        self._all: deque[float] = deque()
        self._by_address: dict[str, deque[float]] = {}
        self._paused_until = 0.0

    def pause(self, seconds: float = 60.0) -> None:
        """Refuse every login for a while (Discord answered 429 to one)."""
        self._paused_until = self.clock() + seconds

    def admit(self, address: str) -> bool:
        now = self.clock()
        if now < self._paused_until:
            return False
        cutoff = now - self.window
        for times in (self._all, self._by_address.get(address)):
            while times and times[0] <= cutoff:
                times.popleft()
        mine = self._by_address.setdefault(address, deque())
        if len(mine) >= self.per_address or len(self._all) >= self.overall:
            return False
        mine.append(now)
        self._all.append(now)
        if len(self._by_address) > 10_000:  # forget the quiet addresses
            for key in [k for k, v in self._by_address.items() if not v]:
                del self._by_address[key]
        return True


__all__ = ["DiscordOAuth", "DiscordRefused", "DiscordUser", "Instance", "LoginGate"]
