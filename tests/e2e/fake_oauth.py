"""Discord's OAuth2 and Activity-instance endpoints, for a :class:`FakeDiscord`'s world.

Why: the Activity proves its player the way Discord documents (``developers/activities/
how-activities-work``, ``multiplayer-experience`` "Preventing unwanted activity sessions"):
the SDK's ``authorize`` gives the browser a one-time code; the app's server exchanges it at
``POST /oauth2/token`` with its client id and secret; ``GET /users/@me`` with the Bearer token
names the user; ``GET /applications/{app}/activity-instances/{instance}`` with the **bot**
token says where the instance runs and who is in it. This fake answers those three as
Discord does, over the fake's users, guilds and channels, on a server of its own (the
fake Discord's own routes only take the bot's token), so that a test can also play the
Discord client: mint the code a user's consent would give, launch an instance in a channel,
let users join it.

What Discord enforces and so does this fake:

- the token endpoint takes only ``application/x-www-form-urlencoded`` bodies, with
  ``grant_type=authorization_code``, the client id and secret in the body or HTTP Basic
  auth; a wrong client is ``401 {"error": "invalid_client"}``; a code that is unknown, used
  before, expired (10 minutes) or another app's is ``400 {"error": "invalid_grant"}``, and
  so is a code of the web consent page (``topics/oauth2``, authorization code grant)
  exchanged without the ``redirect_uri`` it was given to;
- the answer is ``{"access_token", "token_type": "Bearer", "expires_in", "refresh_token",
  "scope"}``; ``/users/@me`` needs a live Bearer token with the ``identify`` scope, else
  ``401 {"message": "401: Unauthorized", "code": 0}``;
- the activity-instance route needs the bot token of the app the path names (OpenAPI
  ``applications_get_activity_instance``: security ``BotToken``); an instance that does not
  exist or has ended is 404 (Discord's "Unknown" JSON error); the body is
  ``EmbeddedActivityInstance`` (checked against the vendored OpenAPI schema in the tests).

API: ``oauth = FakeOAuth(fake)``; ``await oauth.start()`` / ``stop()``; ``oauth.http_base``
(``http://127.0.0.1:PORT/api/v10``), ``oauth.client_id`` (the fake's application id),
``oauth.client_secret``; ``oauth.code_for(user, scopes=("identify",))``;
``oauth.launch(channel, *users) -> instance_id``, ``oauth.join(instance_id, user)``,
``oauth.end(instance_id)``; ``oauth.enable_activities()`` (the Entry Point command, and
LAUNCH_ACTIVITY responses start instances: ``oauth.launched``); ``oauth.requests`` logs
``(method, path, status)``.
"""

from __future__ import annotations

import base64
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeMember, FakeUser

CODE_LIFETIME = 600.0  # Discord's authorization codes are short-lived
TOKEN_LIFETIME = 604800  # seconds, as Discord's answer says for a fresh access token


@dataclass
class _Code:
    user_id: int
    client_id: int
    scopes: tuple[str, ...]
    expires: float
    redirect_uri: str | None = None
    used: bool = False


@dataclass
class _Token:
    user_id: int
    scopes: tuple[str, ...]
    expires: float


@dataclass
class _Instance:
    instance_id: str
    launch_id: str
    channel: FakeChannel
    users: list[int] = field(default_factory=list)
    ended: bool = False


def _error(status: int, body: dict[str, Any]) -> web.Response:
    return web.json_response(body, status=status)


UNAUTHORIZED = {"message": "401: Unauthorized", "code": 0}


class FakeOAuth:
    """The OAuth2 token endpoint, ``/users/@me`` for Bearer tokens, and activity instances."""

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        client_secret: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.fake = fake
        self.client_secret = client_secret or secrets.token_urlsafe(24)
        self.clock = clock
        self._codes: dict[str, _Code] = {}
        self._tokens: dict[str, _Token] = {}
        self._instances: dict[str, _Instance] = {}
        self.requests: list[tuple[str, str, int]] = []
        self.launched: list[str] = []  # instances started by a LAUNCH_ACTIVITY response
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def client_id(self) -> int:
        return self.fake.application_id

    @property
    def http_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    # --- the Discord client's side ------------------------------------------------------

    def code_for(
        self,
        user: FakeUser | FakeMember,
        scopes: tuple[str, ...] = ("identify",),
        *,
        redirect_uri: str | None = None,
    ) -> str:
        """The code the SDK's ``authorize`` would hand the Activity after ``user`` agreed, or
        (``redirect_uri``) the one Discord's consent page sends to a web sign-in's callback."""
        code = secrets.token_urlsafe(20)
        self._codes[code] = _Code(
            user.id, self.client_id, scopes, self.clock() + CODE_LIFETIME, redirect_uri
        )
        return code

    def launch(self, channel: FakeChannel | str, *users: FakeUser | FakeMember) -> str:
        """Discord starts the Activity in a guild channel; ``users`` are in it."""
        where = self.fake.channel(channel) if isinstance(channel, str) else channel
        instance_id = f"i-{secrets.randbelow(10**12)}-gc-{where.guild_id}-{where.id}"
        launch = str(self.fake.snowflake())
        self._instances[instance_id] = _Instance(instance_id, launch, where, [u.id for u in users])
        return instance_id

    def join(self, instance_id: str, user: FakeUser | FakeMember) -> None:
        self._instances[instance_id].users.append(user.id)

    def enable_activities(self, handler: int = 2) -> dict[str, Any]:
        """What the Developer Portal does when the app's Activity is switched on: Discord
        creates the global Entry Point command ("launch", type 4, ``handler`` 2: Discord
        launches the Activity itself), which a bulk overwrite must keep; and from then on a
        LAUNCH_ACTIVITY response (type 12) starts an instance in the interaction's channel
        with the user who pressed in it. Returns the Entry Point command."""
        fake = self.fake
        raw = {
            "name": "launch",
            "type": 4,
            "description": "",
            "handler": handler,
            "contexts": [0, 1, 2],
            "integration_types": [0, 1],
        }
        entry = fake.add_command(raw)

        def launch(channel_id: int, user_id: int) -> str:
            instance = self.launch(fake.channel(channel_id), fake.users[user_id])
            self.launched.append(instance)
            return instance

        fake.launch_activity = launch
        return dict(entry)

    def end(self, instance_id: str) -> None:
        """Everyone left: Discord ends the instance and never reuses its id."""
        self._instances[instance_id].ended = True

    # --- lifecycle ----------------------------------------------------------------------

    async def start(self) -> FakeOAuth:
        app = web.Application(middlewares=[self._log])
        api = r"/api/v{version:\d+}"
        app.router.add_post(api + "/oauth2/token", self._token)
        app.router.add_get(api + "/users/@me", self._me)
        app.router.add_get(
            api + r"/applications/{app:\d+}/activity-instances/{instance}", self._instance
        )
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @web.middleware
    async def _log(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        self.requests.append((request.method, request.path, response.status))
        return response

    # --- the endpoints ------------------------------------------------------------------

    def _client(self, request: web.Request, form: Any) -> bool:
        client_id, secret = form.get("client_id"), form.get("client_secret")
        header = request.headers.get("Authorization", "")
        if header.startswith("Basic "):
            try:
                decoded = base64.b64decode(header[6:]).decode()
            except ValueError:
                return False
            client_id, _, secret = decoded.partition(":")
        return client_id == str(self.client_id) and secret == self.client_secret

    async def _token(self, request: web.Request) -> web.Response:
        if request.content_type != "application/x-www-form-urlencoded":
            return _error(400, {"error": "invalid_request"})
        form = await request.post()
        if not self._client(request, form):
            return _error(401, {"error": "invalid_client"})
        if form.get("grant_type") != "authorization_code":
            return _error(400, {"error": "unsupported_grant_type"})
        code = self._codes.get(str(form.get("code", "")))
        if code is None or code.used or code.expires < self.clock():
            return _error(
                400, {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}
            )
        if code.client_id != self.client_id:
            return _error(400, {"error": "invalid_grant"})
        if code.redirect_uri is not None and form.get("redirect_uri") != code.redirect_uri:
            # RFC 6749 4.1.3, as Discord applies it: a code given to a redirect URI is
            # exchanged only with that same URI.
            return _error(400, {"error": "invalid_grant", "error_description": "redirect_uri"})
        code.used = True
        token = secrets.token_urlsafe(24)
        self._tokens[token] = _Token(code.user_id, code.scopes, self.clock() + TOKEN_LIFETIME)
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": TOKEN_LIFETIME,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": " ".join(code.scopes),
            }
        )

    async def _me(self, request: web.Request) -> web.Response:
        header = request.headers.get("Authorization", "")
        token = (
            self._tokens.get(header.removeprefix("Bearer "))
            if header.startswith("Bearer ")
            else None
        )
        if token is None or token.expires < self.clock() or "identify" not in token.scopes:
            return _error(401, UNAUTHORIZED)
        user = self.fake.users[token.user_id]
        # A user's own token sees the private fields too (UserPIIResponse); e-mail only with
        # the `email` scope, which the Activity never asks for.
        return web.json_response({**user.payload(), "mfa_enabled": False, "locale": "en-US"})

    async def _instance(self, request: web.Request) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {self.fake.token}":
            return _error(401, UNAUTHORIZED)
        if int(request.match_info["app"]) != self.client_id:
            return _error(403, {"message": "Missing Access", "code": 50001})
        instance = self._instances.get(request.match_info["instance"])
        if instance is None or instance.ended:
            return _error(404, {"message": "404: Not Found", "code": 0})
        channel = instance.channel
        return web.json_response(
            {
                "application_id": str(self.client_id),
                "instance_id": instance.instance_id,
                "launch_id": instance.launch_id,
                "location": {
                    "id": f"gc-{channel.guild_id}-{channel.id}",
                    "kind": "gc",
                    "channel_id": str(channel.id),
                    "guild_id": str(channel.guild_id),
                },
                "users": [str(user) for user in instance.users],
            }
        )


__all__ = ["FakeOAuth"]
