"""REST: channels and their messages as the bot uses them: get, edit and delete a channel,
typing, list, send, get, edit and delete messages (one or in bulk), pins and reactions, each
with Discord's permission checks; every change is dispatched to the gateway.

Imports the world, the permission bits and arithmetic, the message store, the gateway, the
traffic log and the wire format.
"""

from __future__ import annotations

from aiohttp import web

from tests.e2e.fake_discord.channel_access import ChannelAccess
from tests.e2e.fake_discord.clock import now_iso
from tests.e2e.fake_discord.constants import CHANNEL_DM, CHANNEL_FLAGS, INTENT_GUILDS
from tests.e2e.fake_discord.gateway import Gateway
from tests.e2e.fake_discord.messages import MessageStore
from tests.e2e.fake_discord.permissions import (
    PERM_ADD_REACTIONS,
    PERM_ATTACH_FILES,
    PERM_MANAGE_CHANNELS,
    PERM_MANAGE_MESSAGES,
    PERM_MANAGE_THREADS,
    PERM_READ_MESSAGE_HISTORY,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
    permissions_for,
)
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.wire import ApiError, form_error, json_response, read_body
from tests.e2e.fake_discord.world import World


class ChannelRoutes:
    """The handlers of ``/channels/{channel}`` and its messages, pins and reactions."""

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

    async def typing(self, request: web.Request) -> web.Response:
        self._access.channel(request)
        return web.Response(status=204)

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self._access.channel(request).payload())

    async def edit_channel(self, request: web.Request) -> web.Response:
        ch = self._access.channel(request)
        payload, _ = await read_body(request)
        if ch.is_thread:
            if ch.owner_id != self._world.bot_user.id:
                self._access.require(ch, PERM_MANAGE_THREADS)
        else:
            self._access.require(ch, PERM_MANAGE_CHANNELS)
        for key in ("name", "topic", "archived", "locked", "invitable", "auto_archive_duration"):
            if key in payload:
                setattr(ch, key, payload[key])
        if "position" in payload:
            ch.position = int(payload["position"])
        self._traffic.changed()
        event = "THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE"
        await self._gateway.broadcast(event, ch.payload(), INTENT_GUILDS)
        return json_response(ch.payload())

    async def delete_channel(self, request: web.Request) -> web.Response:
        ch = self._access.channel(request)
        if ch.type == CHANNEL_DM:
            return json_response(ch.payload())
        self._access.require(ch, PERM_MANAGE_THREADS if ch.is_thread else PERM_MANAGE_CHANNELS)
        ch.deleted = True
        self._traffic.changed()
        data = ch.payload()
        if ch.is_thread:
            data = {k: data[k] for k in ("id", "guild_id", "parent_id", "type")}
        await self._gateway.broadcast(
            "THREAD_DELETE" if ch.is_thread else "CHANNEL_DELETE", data, INTENT_GUILDS
        )
        return json_response(ch.payload())

    async def list_messages(self, request: web.Request) -> web.Response:
        ch = self._access.channel(request)
        self._access.require(ch, PERM_READ_MESSAGE_HISTORY)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = [m for m in self._store.by_channel.get(ch.id, []) if not (m.deleted or m.ephemeral)]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][:limit]
        if "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around][-((limit + 1) // 2) :]
            newer = [m for m in msgs if m.id > around][: limit // 2]
            msgs = older + newer
        msgs = msgs[-limit:]
        return json_response([m.payload() for m in reversed(msgs)])

    async def create_message(self, request: web.Request) -> web.Response:
        ch = self._access.channel(request)
        payload, uploads = await read_body(request)
        if ch.is_thread:
            self._access.require(ch, PERM_SEND_MESSAGES_IN_THREADS)
            if (
                ch.locked
                and not permissions_for(self._world, self._world.bot_user, ch) & PERM_MANAGE_THREADS
            ):
                raise ApiError(403, 50083, "Thread is locked")
            ch.archived = False
        elif ch.guild_id is not None:
            self._access.require(ch, PERM_SEND_MESSAGES)
        if uploads and ch.guild_id is not None:
            self._access.require(ch, PERM_ATTACH_FILES)
        msg = self._store.create_from_payload(
            ch,
            payload,
            uploads,
            allowed_flags=CHANNEL_FLAGS,
        )
        self._store.record_message_request(request, msg, payload)
        await self._gateway.broadcast_message("MESSAGE_CREATE", msg)
        return json_response(msg.payload())

    async def get_message(self, request: web.Request) -> web.Response:
        ch, msg = self._access.message(request)
        if ch.guild_id is not None:
            self._access.require(ch, PERM_READ_MESSAGE_HISTORY)
        return json_response(msg.payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        _, msg = self._access.message(request)
        payload, uploads = await read_body(request)
        if msg.author_id != self._world.bot_user.id and (
            uploads or set(payload) & {"content", "embeds", "components", "attachments"}
        ):
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._store.edit_from_payload(msg, payload, uploads)
        self._store.record_message_request(request, msg, payload)
        await self._gateway.broadcast_message("MESSAGE_UPDATE", msg)
        return json_response(msg.payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        ch, msg = self._access.message(request)
        if msg.author_id != self._world.bot_user.id:
            if ch.guild_id is None:
                raise ApiError(403, 50003, "Cannot execute action on a DM channel")
            self._access.require(ch, PERM_MANAGE_MESSAGES)
        self._store.delete_message(msg)
        await self._gateway.broadcast_message("MESSAGE_DELETE", msg)
        return web.Response(status=204)

    async def bulk_delete(self, request: web.Request) -> web.Response:
        ch = self._access.channel(request)
        self._access.require(ch, PERM_MANAGE_MESSAGES)
        payload, _ = await read_body(request)
        ids = [int(i) for i in payload.get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise form_error("messages", "Must be between 2 and 100 in length.")
        for mid in ids:
            msg = self._store.by_id.get(mid)
            if msg is not None and msg.channel_id == ch.id and not msg.deleted:
                self._store.delete_message(msg)
                await self._gateway.broadcast_message("MESSAGE_DELETE", msg)
        return web.Response(status=204)

    async def list_pins(self, request: web.Request) -> web.Response:
        ch = self._access.channel(request)
        pinned = [m for m in self._store.by_channel.get(ch.id, []) if m.pinned and not m.deleted]
        if request.path.endswith("/messages/pins"):
            items = [{"pinned_at": now_iso(), "message": m.payload()} for m in reversed(pinned)]
            return json_response({"items": items, "has_more": False})
        return json_response([m.payload() for m in reversed(pinned)])

    async def pin(self, request: web.Request) -> web.Response:
        ch, msg = self._access.message(request)
        if ch.guild_id is not None:
            self._access.require(ch, PERM_MANAGE_MESSAGES)
        msg.pinned = request.method == "PUT"
        self._traffic.changed()
        return web.Response(status=204)

    async def reaction(self, request: web.Request) -> web.Response:
        ch, msg = self._access.message(request)
        emoji = request.match_info["emoji"]
        who = request.match_info["who"]
        uid = self._world.bot_user.id if who == "@me" else int(who)
        users = msg.reactions.setdefault(emoji, set())
        if request.method == "PUT":
            if who != "@me":
                raise ApiError(405, 0, "405: Method Not Allowed")
            if ch.guild_id is not None:
                self._access.require(ch, PERM_ADD_REACTIONS | PERM_READ_MESSAGE_HISTORY)
            users.add(uid)
        else:
            if uid != self._world.bot_user.id:
                self._access.require(ch, PERM_MANAGE_MESSAGES)
            users.discard(uid)
        self._traffic.changed()
        return web.Response(status=204)

    async def clear_reactions(self, request: web.Request) -> web.Response:
        ch, msg = self._access.message(request)
        self._access.require(ch, PERM_MANAGE_MESSAGES)
        emoji = request.match_info.get("emoji")
        if emoji is None:
            msg.reactions.clear()
        else:
            msg.reactions.pop(emoji, None)
        self._traffic.changed()
        return web.Response(status=204)
