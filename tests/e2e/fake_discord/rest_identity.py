"""REST: who is who and where to connect: the bot user, other users, the application, DM
channels, and the gateway's URL (``/gateway``, ``/gateway/bot``).

Imports the world, the server's address and the wire format.
"""

from __future__ import annotations

from aiohttp import web

from tests.e2e.fake_discord.server import Listener
from tests.e2e.fake_discord.wire import ApiError, json_response, read_body
from tests.e2e.fake_discord.world import World


class IdentityRoutes:
    """The handlers of ``/users``, ``/applications/@me`` and ``/gateway``."""

    def __init__(self, world: World, listener: Listener) -> None:
        self._world = world
        self._listener = listener

    async def me(self, request: web.Request) -> web.Response:
        return json_response(
            {**self._world.bot_user.payload(), "verified": True, "mfa_enabled": False}
        )

    async def get_user(self, request: web.Request) -> web.Response:
        user = self._world.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await read_body(request)
        uid = int(payload.get("recipient_id", 0))
        if uid not in self._world.users or self._world.users[uid].bot:
            raise ApiError(400, 50007, "Cannot send messages to this user")
        return json_response(self._world.dm_channel(uid).payload())

    async def application(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "id": str(self._world.application_id),
                "name": self._world.bot_user.username,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self._world.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self._world.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": sum(
                    1 for g in self._world.guilds if self._world.bot_in_guild(g)
                ),
                "approximate_user_install_count": len(self._world.user_installs),
                "integration_types_config": {
                    str(t): {} for t in sorted(self._world.app_integration_types)
                },
                "hook": True,
            }
        )

    async def gateway_info(self, request: web.Request) -> web.Response:
        return json_response({"url": self._listener.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self._listener.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )
