"""REST: guilds as the bot reads them: the guild, its channels, roles and members (of a guild
the bot is a member of; any other answers 403 Missing Access).

Imports the world and the wire format.
"""

from __future__ import annotations

from aiohttp import web

from tests.e2e.fake_discord.wire import ApiError, json_response
from tests.e2e.fake_discord.world import FakeGuild, World


class GuildRoutes:
    """The handlers of ``/guilds/{guild}``."""

    def __init__(self, world: World) -> None:
        self._world = world

    def _guild(self, request: web.Request) -> FakeGuild:
        g = self._world.guilds.get(int(request.match_info["guild_id"]))
        if g is None:
            raise ApiError(404, 10004, "Unknown Guild")
        if not self._world.bot_in_guild(g.id):
            # Not a member: Discord's refusal of what one may not see (an inference; the docs
            # do not say).
            raise ApiError(403, 50001, "Missing Access")
        return g

    async def get_guild(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        data = g.payload()
        if request.query.get("with_counts", "").lower() in ("1", "true"):
            data.update(approximate_member_count=len(g.members), approximate_presence_count=0)
        return json_response(data)

    async def channels(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        return json_response(
            [c.payload() for c in g.channels.values() if not c.is_thread and not c.deleted]
        )

    async def roles(self, request: web.Request) -> web.Response:
        return json_response([r.payload() for r in self._guild(request).roles.values()])

    async def members(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        limit = max(1, min(1000, int(request.query.get("limit", 1))))
        after = int(request.query.get("after", 0))
        members = sorted((m for m in g.members.values() if m.id > after), key=lambda m: m.id)
        return json_response([m.payload() for m in members[:limit]])

    async def member(self, request: web.Request) -> web.Response:
        g = self._guild(request)
        m = g.members.get(int(request.match_info["user_id"]))
        if m is None:
            raise ApiError(404, 10007, "Unknown Member")
        return json_response(m.payload())
