"""REST: threads: started in a channel, from a message, or as a forum post with its first
message; their members joined, read and removed; each announced to the gateway.

Imports the world, the permission bits, the channel checks, the message store, the gateway,
the traffic log and the wire format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord.channel_access import ChannelAccess
from tests.e2e.fake_discord.constants import (
    CHANNEL_FLAGS,
    CHANNEL_FORUM,
    CHANNEL_NEWS,
    CHANNEL_PRIVATE_THREAD,
    CHANNEL_PUBLIC_THREAD,
    CHANNEL_TEXT,
    INTENT_GUILDS,
)
from tests.e2e.fake_discord.gateway import Gateway
from tests.e2e.fake_discord.messages import MessageStore
from tests.e2e.fake_discord.permissions import (
    PERM_CREATE_PRIVATE_THREADS,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_MANAGE_THREADS,
    PERM_VIEW_CHANNEL,
)
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.wire import ApiError, form_error, json_response, read_body
from tests.e2e.fake_discord.world import FakeChannel, World


class ThreadRoutes:
    """The handlers of a channel's and a message's ``/threads`` and ``/thread-members``."""

    def __init__(
        self,
        world: World,
        store: MessageStore,
        gateway: Gateway,
        traffic: Traffic,
        access: ChannelAccess,
    ) -> None:
        self._world = world
        self._store = store
        self._gateway = gateway
        self._traffic = traffic
        self._access = access

    def _new_thread(
        self,
        parent: FakeChannel,
        name: str,
        ttype: int,
        payload: Mapping[str, Any],
        thread_id: int | None = None,
    ) -> FakeChannel:
        if parent.type not in (CHANNEL_TEXT, CHANNEL_NEWS, CHANNEL_FORUM):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        if not 1 <= len(name or "") <= 100:
            raise form_error("name", "Must be 1-100 in length.")
        private = ttype == CHANNEL_PRIVATE_THREAD
        need = PERM_CREATE_PRIVATE_THREADS if private else PERM_CREATE_PUBLIC_THREADS
        self._access.require(parent, need | PERM_VIEW_CHANNEL)
        thread = FakeChannel(
            thread_id or self._world.ids.next(),
            ttype,
            name,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=self._world.bot_user.id,
            auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
            invitable=bool(payload.get("invitable", True)),
            member_ids={self._world.bot_user.id},
        )
        self._world.guilds[parent.guild_id].channels[thread.id] = thread  # type: ignore[index]
        self._world.channels[thread.id] = thread
        self._traffic.changed()
        return thread

    async def _announce_thread(self, thread: FakeChannel) -> dict[str, Any]:
        data = {**thread.payload(), "newly_created": True}
        data["member"] = {
            "id": str(thread.id),
            "user_id": str(self._world.bot_user.id),
            "join_timestamp": thread.created_at,
            "flags": 0,
        }
        await self._gateway.broadcast("THREAD_CREATE", data, INTENT_GUILDS)
        return thread.payload()

    async def create_thread(self, request: web.Request) -> web.Response:
        parent = self._access.channel(request)
        payload, uploads = await read_body(request)
        if parent.type == CHANNEL_FORUM:
            name = payload.get("name", "")
            thread = self._new_thread(parent, name, CHANNEL_PUBLIC_THREAD, payload)
            starter = self._store.create_from_payload(
                thread,
                payload.get("message") or {},
                uploads,
                allowed_flags=CHANNEL_FLAGS,
            )
            data = await self._announce_thread(thread)
            await self._gateway.broadcast_message("MESSAGE_CREATE", starter)
            return json_response({**data, "message": starter.payload()}, 201)
        ttype = int(payload.get("type") or CHANNEL_PRIVATE_THREAD)
        thread = self._new_thread(parent, payload.get("name", ""), ttype, payload)
        return json_response(await self._announce_thread(thread), 201)

    async def thread_from_message(self, request: web.Request) -> web.Response:
        parent, msg = self._access.message(request)
        payload, _ = await read_body(request)
        if msg.id in self._world.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(
            parent, payload.get("name", ""), CHANNEL_PUBLIC_THREAD, payload, thread_id=msg.id
        )
        return json_response(await self._announce_thread(thread), 201)

    async def list_thread_members(self, request: web.Request) -> web.Response:
        ch = self._access.channel(request)
        return json_response(
            [
                {"id": str(ch.id), "user_id": str(u), "join_timestamp": ch.created_at, "flags": 0}
                for u in sorted(ch.member_ids)
            ]
        )

    async def thread_member(self, request: web.Request) -> web.Response:
        ch = self._access.channel(request)
        if not ch.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        who = request.match_info["who"]
        uid = self._world.bot_user.id if who == "@me" else int(who)
        if request.method == "GET":
            if uid not in ch.member_ids:
                raise ApiError(404, 10007, "Unknown Member")
            return json_response(
                {"id": str(ch.id), "user_id": str(uid), "join_timestamp": ch.created_at, "flags": 0}
            )
        if request.method == "PUT":
            if uid not in self._world.guilds[ch.guild_id].members:  # type: ignore[index]
                raise ApiError(404, 10007, "Unknown Member")
            ch.member_ids.add(uid)
        else:
            if uid != self._world.bot_user.id and ch.owner_id != self._world.bot_user.id:
                self._access.require(ch, PERM_MANAGE_THREADS)
            ch.member_ids.discard(uid)
        self._traffic.changed()
        return web.Response(status=204)
