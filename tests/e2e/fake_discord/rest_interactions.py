"""REST: answering interactions: the initial response (callback, with Discord's deadline and
the response types each interaction allows), followups (at most 5 for a user install's
interaction), and the interaction token's webhook routes to read, edit and delete its messages
(for as long as the token lives). These work wherever the interaction came from, in channels
the bot is not in too; Discord may force what they create ephemeral (``installs``).

Imports the interactions, the installation rules, the world, the message store, the gateway,
the checks, the traffic log and the wire format.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord.constants import (
    CALLBACK_AUTOCOMPLETE_RESULT,
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_LAUNCH_ACTIVITY,
    CALLBACK_MODAL,
    CALLBACK_UPDATE_MESSAGE,
    COMMAND_CHAT_INPUT,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    INTERACTION_APPLICATION_COMMAND,
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_FLAGS,
    INTERACTION_MESSAGE_COMPONENT,
    INTERACTION_MODAL_SUBMIT,
)
from tests.e2e.fake_discord.gateway import Gateway
from tests.e2e.fake_discord.installs import only_user_installed
from tests.e2e.fake_discord.interactions import InteractionResult, Interactions
from tests.e2e.fake_discord.messages import MessageStore
from tests.e2e.fake_discord.recorded import Callback, RecordedAttachment, RecordedMessage
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.validation import validate_choices, validate_modal
from tests.e2e.fake_discord.wire import ApiError, form_error, json_response, read_body
from tests.e2e.fake_discord.world import World

# A user install's interaction may create this many followups (Create Followup Message).
MAX_USER_INSTALL_FOLLOWUPS = 5

_ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    INTERACTION_APPLICATION_COMMAND: frozenset({4, 5, 9}),
    INTERACTION_MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    INTERACTION_AUTOCOMPLETE: frozenset({8}),
    INTERACTION_MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}


def _message_type(inter: InteractionResult) -> int:
    """The type of the message that answers ``inter``: CHAT_INPUT_COMMAND (20) or
    CONTEXT_MENU_COMMAND (23) for a command, DEFAULT (0) for a component or modal."""
    if inter.type != INTERACTION_APPLICATION_COMMAND:
        return 0
    command_type = int((inter.payload.get("data") or {}).get("type") or COMMAND_CHAT_INPUT)
    return 20 if command_type == COMMAND_CHAT_INPUT else 23


class InteractionRoutes:
    """The handlers of ``/interactions/{id}/{token}/callback`` and ``/webhooks/{app}/{token}``."""

    def __init__(
        self,
        interactions: Interactions,
        world: World,
        store: MessageStore,
        gateway: Gateway,
        traffic: Traffic,
    ) -> None:
        self._interactions = interactions
        self._world = world
        self._store = store
        self._gateway = gateway
        self._traffic = traffic

    def _interaction_for(self, request: web.Request) -> InteractionResult:
        token = request.match_info["token"]
        inter = self._interactions.by_token.get(token)
        if "iid" in request.match_info:
            if inter is None or inter.id != int(request.match_info["iid"]):
                raise ApiError(404, 10062, "Unknown interaction")
        elif inter is None or int(request.match_info["app_id"]) != self._world.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        elif (
            asyncio.get_running_loop().time() - inter.dispatched_at
            > self._interactions.rules.interaction_token_lifetime
        ):
            # An interaction token lives 15 minutes; after that Discord answers 401.
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return inter

    async def callback(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        payload, uploads = await read_body(request)
        if inter.callback is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        loop = asyncio.get_running_loop()
        if (
            self._interactions.rules.interaction_deadline is not None
            and loop.time() - inter.dispatched_at > self._interactions.rules.interaction_deadline
        ):
            inter.late = True
            raise ApiError(404, 10062, "Unknown interaction")
        ctype = int(payload.get("type", 0))
        data = dict(payload.get("data") or {})
        launching = (
            ctype == CALLBACK_LAUNCH_ACTIVITY
            and self._interactions.rules.launch_activity is not None
            and inter.type != INTERACTION_AUTOCOMPLETE
        )
        if not launching and ctype not in _ALLOWED_CALLBACKS.get(inter.type, frozenset()):
            raise form_error(
                "type", f"callback type {ctype} is invalid for interaction type {inter.type}"
            )
        if ctype == CALLBACK_UPDATE_MESSAGE and inter.source_message_id is None:
            raise form_error("type", "UPDATE_MESSAGE needs a message component interaction")
        ch = self._world.channel(inter.channel_id)
        message: RecordedMessage | None = None
        files: list[RecordedAttachment] = []
        forced = FLAG_EPHEMERAL if inter.force_ephemeral else 0
        if ctype == CALLBACK_CHANNEL_MESSAGE:
            message = self._store.create_from_payload(
                ch,
                data,
                uploads,
                allowed_flags=INTERACTION_FLAGS,
                interaction=inter,
                msg_type=_message_type(inter),
                force_flags=forced,
            )
            files = list(message.attachments)
        elif ctype == CALLBACK_DEFERRED_CHANNEL_MESSAGE:
            message = self._store.store_message(
                ch,
                author=self._world.bot_user,
                flags=(int(data.get("flags") or 0) & FLAG_EPHEMERAL) | FLAG_LOADING | forced,
                type=_message_type(inter),
                interaction=inter,
            )
        elif ctype == CALLBACK_UPDATE_MESSAGE:
            target = self._store.by_id.get(inter.source_message_id or 0)
            if target is None or target.deleted:
                raise ApiError(404, 10008, "Unknown Message")
            before = {a.id for a in target.attachments}
            message = self._store.edit_from_payload(target, data, uploads)
            files = [a for a in message.attachments if a.id not in before]
        elif ctype == CALLBACK_AUTOCOMPLETE_RESULT:
            validate_choices(data.get("choices"))
        elif ctype == CALLBACK_MODAL:
            validate_modal(data)
        if ctype in (CALLBACK_DEFERRED_UPDATE_MESSAGE, CALLBACK_UPDATE_MESSAGE):
            inter.original_id = inter.source_message_id
        elif message is not None:
            inter.original_id = message.id
        inter.callback = Callback(ctype, data, files, message)
        inter.log.append(("callback", message.id if message else None))
        if message is not None and ctype in (CALLBACK_CHANNEL_MESSAGE, CALLBACK_UPDATE_MESSAGE):
            self._store.record_message_request(request, message, data)
        self._traffic.changed()
        if message is not None:
            event = "MESSAGE_UPDATE" if ctype == CALLBACK_UPDATE_MESSAGE else "MESSAGE_CREATE"
            await self._gateway.broadcast_message(event, message)
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)
        body: dict[str, Any] = {
            "interaction": {
                "id": str(inter.id),
                "type": inter.type,
                "response_message_loading": ctype == CALLBACK_DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            body["interaction"]["response_message_id"] = str(message.id)
            body["resource"] = {"type": ctype, "message": message.payload()}
        if launching and self._interactions.rules.launch_activity is not None:
            instance = self._interactions.rules.launch_activity(inter.channel_id, inter.user.id)
            body["resource"] = {"type": ctype, "activity_instance": {"id": instance}}
        return json_response(body)

    async def followup(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        payload, uploads = await read_body(request)
        cb = inter.callback
        if cb is None or cb.type in (CALLBACK_AUTOCOMPLETE_RESULT, CALLBACK_MODAL):
            raise ApiError(404, 10015, "Unknown Webhook")
        if only_user_installed(inter.owners) and inter.followup_posts >= MAX_USER_INSTALL_FOLLOWUPS:
            # receiving-and-responding.mdx, Create Followup Message: "limited to 5 followup
            # messages per interaction if it was initiated from a user-installed app and isn't
            # installed in the server"; the change-log (June 27, 2024): "This only affects the
            # Create Followup Message endpoint", so every accepted POST counts, the one that
            # fills in a deferral's "thinking" message too.
            raise ApiError(
                400, 40094, "This interaction has hit the maximum number of follow up messages"
            )
        original = inter.original
        if (
            cb.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE
            and not inter.defer_consumed
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first followup after a type-5 defer edits the "thinking" message and
            # keeps the defer's ephemeral state (the followup's own ephemeral flag is ignored).
            # (edit_from_payload never changes the ephemeral bit.)
            msg = self._store.edit_from_payload(original, payload, uploads)
            inter.defer_consumed = True
            event = "MESSAGE_UPDATE"
        else:
            ch = self._world.channel(inter.channel_id)
            msg = self._store.create_from_payload(
                ch,
                payload,
                uploads,
                allowed_flags=INTERACTION_FLAGS,
                interaction=inter,
                force_flags=FLAG_EPHEMERAL if inter.force_ephemeral else 0,
            )
            event = "MESSAGE_CREATE"
        inter.followup_posts += 1
        inter.followups.append(msg)
        inter.log.append(("followup", msg.id))
        self._store.record_message_request(request, msg, payload)
        self._traffic.changed()
        await self._gateway.broadcast_message(event, msg)
        return json_response(msg.payload())  # followups always behave as wait=true

    def _webhook_message(self, inter: InteractionResult, mid: str) -> RecordedMessage:
        cb = inter.callback
        if cb is None or cb.type in (CALLBACK_AUTOCOMPLETE_RESULT, CALLBACK_MODAL):
            raise ApiError(404, 10008, "Unknown Message")
        if mid == "@original":
            msg = inter.original
        else:
            msg = self._store.by_id.get(int(mid))
            if msg is not None and msg.interaction_id != inter.id and msg.id != inter.original_id:
                msg = None
        if msg is None or msg.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return msg

    async def webhook_get(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        return json_response(self._webhook_message(inter, request.match_info["mid"]).payload())

    async def webhook_edit(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        msg = self._webhook_message(inter, request.match_info["mid"])
        payload, uploads = await read_body(request)
        was_loading = msg.loading
        self._store.edit_from_payload(msg, payload, uploads)
        if was_loading:
            inter.defer_consumed = True
        inter.log.append(("edit", msg.id))
        self._store.record_message_request(request, msg, payload)
        self._traffic.changed()
        await self._gateway.broadcast_message("MESSAGE_UPDATE", msg)
        return json_response(msg.payload())

    async def webhook_delete(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        msg = self._webhook_message(inter, request.match_info["mid"])
        self._store.delete_message(msg)
        inter.log.append(("delete", msg.id))
        await self._gateway.broadcast_message("MESSAGE_DELETE", msg)
        return web.Response(status=204)
