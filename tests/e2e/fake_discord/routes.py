"""The route table: which handler answers each of Discord's routes the fake speaks (REST
under ``/api/v{n}``, the gateway's websocket, the CDN), and a 404 recorded as an unknown
route for everything else.

Why one table: the API the fake implements reads at a glance here, in one order (the first
matching route wins). Imports the route groups.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord.cdn import Cdn
from tests.e2e.fake_discord.gateway import Gateway
from tests.e2e.fake_discord.rest_channels import ChannelRoutes
from tests.e2e.fake_discord.rest_commands import CommandRoutes
from tests.e2e.fake_discord.rest_guilds import GuildRoutes
from tests.e2e.fake_discord.rest_identity import IdentityRoutes
from tests.e2e.fake_discord.rest_interactions import InteractionRoutes
from tests.e2e.fake_discord.rest_threads import ThreadRoutes
from tests.e2e.fake_discord.wire import ApiError


@dataclass(frozen=True)
class Routes:
    """The handler groups, put on an aiohttp application by ``add_to``."""

    identity: IdentityRoutes
    commands: CommandRoutes
    interactions: InteractionRoutes
    channels: ChannelRoutes
    threads: ThreadRoutes
    guilds: GuildRoutes
    gateway: Gateway
    cdn: Cdn

    def add_to(self, app: web.Application) -> None:
        r = app.router
        api = r"/api/v{version:\d+}"

        def add(method: str, path: str, handler: Callable[[web.Request], Any]) -> None:
            r.add_route(method, api + path, handler)

        add("GET", "/users/@me", self.identity.me)
        add("POST", "/users/@me/channels", self.identity.create_dm)
        add("GET", r"/users/{user_id:\d+}", self.identity.get_user)
        add("GET", "/oauth2/applications/@me", self.identity.application)
        add("GET", "/applications/@me", self.identity.application)
        add("GET", "/gateway", self.identity.gateway_info)
        add("GET", "/gateway/bot", self.identity.gateway_bot)
        for base in (
            r"/applications/{app_id:\d+}/commands",
            r"/applications/{app_id:\d+}/guilds/{guild_id:\d+}/commands",
        ):
            add("GET", base, self.commands.list_commands)
            add("PUT", base, self.commands.put_commands)
            add("POST", base, self.commands.post_command)
            add("GET", base + "/permissions", self.commands.command_permissions)
            add("GET", base + r"/{cmd_id:\d+}", self.commands.get_command)
            add("PATCH", base + r"/{cmd_id:\d+}", self.commands.patch_command)
            add("DELETE", base + r"/{cmd_id:\d+}", self.commands.delete_command)
        add("POST", r"/interactions/{iid:\d+}/{token}/callback", self.interactions.callback)
        wh = r"/webhooks/{app_id:\d+}/{token}"
        add("POST", wh, self.interactions.followup)
        whm = wh + r"/messages/{mid:\d+|@original}"
        add("GET", whm, self.interactions.webhook_get)
        add("PATCH", whm, self.interactions.webhook_edit)
        add("DELETE", whm, self.interactions.webhook_delete)
        ch = r"/channels/{channel_id:\d+}"
        add("GET", ch, self.channels.get_channel)
        add("PATCH", ch, self.channels.edit_channel)
        add("DELETE", ch, self.channels.delete_channel)
        add("POST", ch + "/typing", self.channels.typing)
        for pins in ("/messages/pins", "/pins"):
            add("GET", ch + pins, self.channels.list_pins)
            add("PUT", ch + pins + r"/{mid:\d+}", self.channels.pin)
            add("DELETE", ch + pins + r"/{mid:\d+}", self.channels.pin)
        add("POST", ch + "/messages/bulk-delete", self.channels.bulk_delete)
        add("GET", ch + "/messages", self.channels.list_messages)
        add("POST", ch + "/messages", self.channels.create_message)
        msg = ch + r"/messages/{mid:\d+}"
        add("GET", msg, self.channels.get_message)
        add("PATCH", msg, self.channels.edit_message)
        add("DELETE", msg, self.channels.delete_message)
        add("PUT", msg + "/reactions/{emoji}/{who}", self.channels.reaction)
        add("DELETE", msg + "/reactions/{emoji}/{who}", self.channels.reaction)
        add("DELETE", msg + "/reactions/{emoji}", self.channels.clear_reactions)
        add("DELETE", msg + "/reactions", self.channels.clear_reactions)
        add("POST", msg + "/threads", self.threads.thread_from_message)
        add("POST", ch + "/threads", self.threads.create_thread)
        add("GET", ch + "/thread-members", self.threads.list_thread_members)
        tm = ch + r"/thread-members/{who:\d+|@me}"
        add("GET", tm, self.threads.thread_member)
        add("PUT", tm, self.threads.thread_member)
        add("DELETE", tm, self.threads.thread_member)
        g = r"/guilds/{guild_id:\d+}"
        add("GET", g, self.guilds.get_guild)
        add("GET", g + "/channels", self.guilds.channels)
        add("GET", g + "/roles", self.guilds.roles)
        add("GET", g + "/members", self.guilds.members)
        add("GET", g + r"/members/{user_id:\d+}", self.guilds.member)
        r.add_route("GET", "/gateway/", self.gateway.serve)
        r.add_route("GET", "/gateway", self.gateway.serve)
        r.add_route(
            "GET",
            r"/attachments/{channel_id:\d+}/{attachment_id:\d+}/{filename}",
            self.cdn.attachment,
        )
        r.add_route("*", "/{tail:.*}", unknown_route)


async def unknown_route(request: web.Request) -> web.Response:
    raise ApiError(404, 0, f"404: Not Found ({request.method} {request.path})", unknown_route=True)
