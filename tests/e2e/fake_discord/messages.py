"""The messages the fake holds: stored as the bot (or a test's user) created them, edited
with their history kept, deleted; the files uploaded with them; and what each create or edit
asked Discord to ping.

Why one store: channel routes, interaction callbacks, webhooks and the test-facing verbs all
create and edit messages, and Discord applies the same rules to each (content and embed
limits, components, attachments kept or added by id). Imports the world, the recorded values,
the checks, the traffic log and the server's address (attachment URLs point at the fake).
"""

from __future__ import annotations

import copy
import mimetypes
import struct
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord.clock import now_iso
from tests.e2e.fake_discord.constants import (
    ATTACHMENT_SIZE_LIMIT,
    COMMAND_USER,
    FLAG_COMPONENTS_V2,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    INTERACTION_APPLICATION_COMMAND,
)
from tests.e2e.fake_discord.installs import can_see
from tests.e2e.fake_discord.interactions import InteractionResult
from tests.e2e.fake_discord.mentions import MessageRequest, validate_allowed_mentions, would_ping
from tests.e2e.fake_discord.recorded import RecordedAttachment, RecordedMessage
from tests.e2e.fake_discord.server import Listener
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.validation import validate_components, validate_embeds
from tests.e2e.fake_discord.wire import ApiError, Upload, form_error
from tests.e2e.fake_discord.world import FakeChannel, FakeMember, FakeUser, World


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


class MessageStore:
    """Every message by id and by channel (oldest first), every attachment by id, and every
    request that created or edited a message (``message_requests``)."""

    def __init__(self, world: World, traffic: Traffic, listener: Listener) -> None:
        self._world = world
        self._traffic = traffic
        self._listener = listener
        self.by_id: dict[int, RecordedMessage] = {}
        self.by_channel: dict[int, list[RecordedMessage]] = {}
        self.attachments: dict[int, RecordedAttachment] = {}
        self.message_requests: list[MessageRequest] = []

    # ----- looking messages up ---------------------------------------------------------------

    def message(self, message_id: int) -> RecordedMessage:
        return self.by_id[message_id]

    def messages_in(
        self,
        channel: FakeChannel | int | str,
        *,
        ephemeral: bool | None = None,
        include_deleted: bool = False,
    ) -> list[RecordedMessage]:
        """Messages in a channel, oldest first. ``ephemeral``: None=all, False/True=filter."""
        cid = self._world.channel_id(channel)
        return [
            m
            for m in self.by_channel.get(cid, [])
            if (include_deleted or not m.deleted)
            and (ephemeral is None or m.ephemeral == ephemeral)
        ]

    def visible_messages(
        self, user: FakeUser | FakeMember | int, channel: FakeChannel | int | str
    ) -> list[RecordedMessage]:
        """The messages ``user`` sees in ``channel``, oldest first: every public one and the
        ephemeral ones of their own interactions. PermissionError if they cannot see the
        channel at all (not a recipient, not a member, no VIEW_CHANNEL)."""
        u = self._world.find_user(user)
        ch = self._world.channel(channel)
        if not can_see(self._world, u, ch):
            raise PermissionError(f"{u.username} cannot see channel {ch.id}")
        return [m for m in self.messages_in(ch) if not m.ephemeral or m.interaction_user_id == u.id]

    def last_message(
        self, channel: FakeChannel | int | str, *, ephemeral: bool | None = None
    ) -> RecordedMessage | None:
        msgs = self.messages_in(channel, ephemeral=ephemeral)
        return msgs[-1] if msgs else None

    async def wait_for_message(
        self,
        channel: FakeChannel | int | str,
        predicate: Callable[[RecordedMessage], bool] | None = None,
        *,
        after: int | None = None,
        timeout: float = 5.0,
    ) -> RecordedMessage:
        """First (non-deleted) message in ``channel`` with id > ``after`` matching predicate."""
        cid = self._world.channel_id(channel)

        def find() -> RecordedMessage | None:
            for m in self.by_channel.get(cid, []):
                if m.deleted or (after is not None and m.id <= after):
                    continue
                if predicate is None or predicate(m):
                    return m
            return None

        return await self._traffic.wait_for(find, timeout, f"a message in channel {cid}")

    # ----- storing, editing and deleting -----------------------------------------------------

    def new_attachment(
        self,
        up: Upload,
        channel_id: int,
        *,
        filename: str | None = None,
        description: str | None = None,
    ) -> RecordedAttachment:
        aid = self._world.ids.next()
        name = filename or up.filename
        ctype = mimetypes.guess_type(name)[0]
        size = _png_size(up.data)
        if size is not None:
            ctype = "image/png"
        att = RecordedAttachment(
            id=aid,
            filename=name,
            data=up.data,
            content_type=ctype,
            url=f"{self._listener.base_url}/attachments/{channel_id}/{aid}/{name}",
            description=description,
            width=size[0] if size else None,
            height=size[1] if size else None,
        )
        self.attachments[aid] = att
        return att

    def _resolve_attachments(
        self,
        payload: Mapping[str, Any],
        uploads: Sequence[Upload],
        channel_id: int,
        existing: Sequence[RecordedAttachment] | None,
    ) -> list[RecordedAttachment] | None:
        """Discord's rule: ``attachments`` lists what to keep plus new files by upload index."""
        by_index = {u.index: u for u in uploads}
        spec = payload.get("attachments")
        used: set[int] = set()
        if spec is None:
            if not uploads:
                return None  # unchanged
            result = list(existing or [])
        else:
            keep = {a.id: a for a in existing or []}
            result = []
            for i, entry in enumerate(spec):
                try:
                    aid = int(entry["id"])
                except (KeyError, TypeError, ValueError):
                    raise form_error(f"attachments.{i}.id", "Invalid attachment id") from None
                if aid in keep:
                    result.append(keep[aid])
                elif aid in by_index:
                    used.add(aid)
                    result.append(
                        self.new_attachment(
                            by_index[aid],
                            channel_id,
                            filename=entry.get("filename"),
                            description=entry.get("description"),
                        )
                    )
                else:
                    raise form_error(f"attachments.{i}.id", f"Unknown attachment {aid}")
        for up in uploads:
            if up.index not in used:
                result.append(self.new_attachment(up, channel_id))
        if len(result) > 10:
            raise form_error("attachments", "Must be 10 or fewer in length.")
        if sum(a.size for a in result) > ATTACHMENT_SIZE_LIMIT:
            raise ApiError(413, 40005, "Request entity too large")
        return result

    def store_message(
        self,
        channel: FakeChannel,
        *,
        author: FakeUser,
        content: str = "",
        embeds: list[dict[str, Any]] | None = None,
        components: list[dict[str, Any]] | None = None,
        attachments: list[RecordedAttachment] | None = None,
        flags: int = 0,
        type: int = 0,
        interaction: InteractionResult | None = None,
        message_reference: dict[str, Any] | None = None,
    ) -> RecordedMessage:
        member = None
        if channel.guild_id is not None:
            m = self._world.guilds[channel.guild_id].members.get(author.id)
            member = m.payload(with_user=False) if m else None
        msg = RecordedMessage(
            id=self._world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author.payload(),
            content=content,
            embeds=embeds or [],
            components=components or [],
            attachments=attachments or [],
            flags=flags,
            type=type,
            member=member,
            message_reference=message_reference,
            extra={"bot_id": self._world.bot_user.id},
        )
        if interaction is not None:
            msg.webhook_id = self._world.application_id
            msg.application_id = self._world.application_id
            msg.interaction_id = interaction.id
            msg.interaction_user_id = interaction.user.id
            # What a component on this message will say authorised its press (``click``).
            msg.authorizing_integration_owners = interaction.owners
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": interaction.owners,
            }
            if interaction.command_name and interaction.type == INTERACTION_APPLICATION_COMMAND:
                data = interaction.payload.get("data") or {}
                meta["name"] = interaction.command_name
                meta["command_type"] = int(data.get("type") or 1)
                target = (data.get("resolved") or {}).get("users", {}).get(data.get("target_id"))
                if meta["command_type"] == COMMAND_USER and target is not None:
                    meta["target_user"] = target  # message.mdx, interaction metadata
                msg.interaction_legacy = {
                    "id": str(interaction.id),
                    "type": interaction.type,
                    "name": interaction.command_name,
                    "user": interaction.user.payload(),
                }
            if interaction.source_message_id is not None:
                meta["interacted_message_id"] = str(interaction.source_message_id)
            if interaction.original_id is not None:
                meta["original_response_message_id"] = str(interaction.original_id)
            msg.interaction_metadata = meta
        self.by_id[msg.id] = msg
        self.by_channel.setdefault(channel.id, []).append(msg)
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            channel.message_count += 1
        self._traffic.changed()
        return msg

    def _message_fields(
        self, payload: Mapping[str, Any], attachments: Sequence[RecordedAttachment] | None
    ) -> dict[str, Any]:
        """Validate create/edit fields and normalise them."""
        fields: dict[str, Any] = {}
        validate_allowed_mentions(payload.get("allowed_mentions"))
        if "content" in payload:
            content = payload["content"]
            fields["content"] = "" if content is None else str(content)
            if len(fields["content"]) > 2000:
                raise form_error("content", "Must be 2000 or fewer in length.")
        if "embeds" in payload:
            fields["embeds"] = list(payload["embeds"] or [])
            validate_embeds(fields["embeds"])
        if "components" in payload:
            fields["components"] = list(payload["components"] or [])
            validate_components(
                fields["components"], v2=bool(int(payload.get("flags") or 0) & FLAG_COMPONENTS_V2)
            )
        if attachments is not None:
            fields["attachments"] = list(attachments)
        return fields

    def create_from_payload(
        self,
        channel: FakeChannel,
        payload: Mapping[str, Any],
        uploads: Sequence[Upload],
        *,
        allowed_flags: int,
        interaction: InteractionResult | None = None,
        msg_type: int = 0,
        force_flags: int = 0,
    ) -> RecordedMessage:
        atts = self._resolve_attachments(payload, uploads, channel.id, None) or []
        fields = self._message_fields(payload, atts)
        flags = (int(payload.get("flags") or 0) & allowed_flags) | force_flags
        content = fields.get("content", "")
        embeds = fields.get("embeds", [])
        components = fields.get("components", [])
        if flags & FLAG_COMPONENTS_V2 and (content or embeds):
            raise form_error("content", "Cannot send content or embeds with IS_COMPONENTS_V2")
        extras = payload.get("sticker_ids") or payload.get("poll")
        if not (force_flags & FLAG_LOADING) and not (
            content or embeds or components or atts or extras
        ):
            raise ApiError(400, 50006, "Cannot send an empty message")
        ref = payload.get("message_reference")
        msg = self.store_message(
            channel,
            author=self._world.bot_user,
            content=content,
            embeds=embeds,
            components=components,
            attachments=atts,
            flags=flags,
            type=msg_type if not ref else 19,
            interaction=interaction,
            message_reference=dict(ref) if ref else None,
        )
        if payload.get("poll"):
            msg.extra["poll"] = payload["poll"]
        return msg

    def edit_from_payload(
        self, msg: RecordedMessage, payload: Mapping[str, Any], uploads: Sequence[Upload]
    ) -> RecordedMessage:
        atts = self._resolve_attachments(payload, uploads, msg.channel_id, msg.attachments)
        flags = msg.flags
        if "flags" in payload and payload["flags"] is not None:
            new = int(payload["flags"])
            flags = (flags & ~FLAG_SUPPRESS_EMBEDS) | (new & FLAG_SUPPRESS_EMBEDS)
            flags |= new & FLAG_COMPONENTS_V2  # can be set, never unset
        v2_payload = {**payload, "flags": flags}
        fields = self._message_fields(v2_payload, atts)
        content = fields.get("content", msg.content)
        embeds = fields.get("embeds", msg.embeds)
        if flags & FLAG_COMPONENTS_V2 and (content or embeds):
            raise form_error("content", "Cannot have content or embeds with IS_COMPONENTS_V2")
        components = fields.get("components", msg.components)
        attachments = fields.get("attachments", msg.attachments)
        if not msg.loading and not (content or embeds or components or attachments):
            raise ApiError(400, 50006, "Cannot send an empty message")
        msg.history.append(msg.snapshot())
        msg.content, msg.embeds, msg.components, msg.attachments = (
            content,
            embeds,
            components,
            attachments,
        )
        msg.flags = flags & ~FLAG_LOADING
        msg.edited_timestamp = now_iso()
        self._traffic.changed()
        return msg

    def delete_message(self, msg: RecordedMessage) -> None:
        msg.deleted = True
        self._traffic.changed()

    # ----- mentions --------------------------------------------------------------------------

    def would_ping(self, message: RecordedMessage | MessageRequest) -> set[str]:
        """What ``message`` (as stored now, or one recorded request) makes Discord notify.

        See ``mentions.would_ping``: ``{"everyone", "here", "user:ID", "role:ID"}``.
        """
        if isinstance(message, MessageRequest):
            reply_to = message.reply_to_author_id
        else:
            reply_to = self._reply_author(message)
        return would_ping(message.content, message.allowed_mentions, reply_to_author_id=reply_to)

    def _reply_author(self, msg: RecordedMessage) -> int | None:
        ref = msg.message_reference or {}
        target = self.by_id.get(int(ref.get("message_id") or 0))
        return target.author_id if target is not None and msg.type == 19 else None

    def record_message_request(
        self, request: web.Request, msg: RecordedMessage, payload: Mapping[str, Any]
    ) -> None:
        mentions = payload.get("allowed_mentions")
        msg.allowed_mentions = copy.deepcopy(dict(mentions)) if mentions is not None else None
        self.message_requests.append(
            MessageRequest(
                request.method,
                request.path,
                msg.id,
                msg.content,
                copy.deepcopy(msg.allowed_mentions),
                msg.ephemeral,
                self._reply_author(msg),
            )
        )
