"""What the fake recorded of the bot's output: messages as they stand now (with their
history), uploaded files, the components on them, an interaction's initial response, and
one record per HTTP request.

Why values: tests assert on these, so they are plain dataclasses that also know the Discord
payload the bot reads back. Imports only the fake's numbers and clock.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.fake_discord.clock import now_iso
from tests.e2e.fake_discord.constants import (
    COMPONENT_BUTTON,
    COMPONENT_TEXT_INPUT,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    INTERACTIVE_TYPES,
)


@dataclass(eq=False)
class RecordedAttachment:
    """An uploaded file; ``data`` holds the exact bytes the bot sent."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None
    width: int | None = None
    height: int | None = None

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.width is not None:
            data["width"] = self.width
            data["height"] = self.height
        return data


@dataclass(frozen=True)
class ComponentInfo:
    """A flattened interactive component (button or select) of a message."""

    type: int
    custom_id: str | None
    label: str | None
    disabled: bool
    style: int | None
    url: str | None
    emoji: Any
    options: tuple[Mapping[str, Any], ...]
    raw: Mapping[str, Any]

    @property
    def is_button(self) -> bool:
        return self.type == COMPONENT_BUTTON


def walk_components(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Yield every component, descending into rows, containers, sections and labels."""
    for comp in components or ():
        yield comp
        yield from walk_components(comp.get("components") or ())
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, Mapping):
                yield from walk_components([child])


def flatten_components(components: Sequence[Mapping[str, Any]]) -> list[ComponentInfo]:
    """All buttons and selects in document order."""
    out = []
    for c in walk_components(components):
        if c.get("type") in INTERACTIVE_TYPES:
            out.append(
                ComponentInfo(
                    type=c["type"],
                    custom_id=c.get("custom_id"),
                    label=c.get("label"),
                    disabled=bool(c.get("disabled", False)),
                    style=c.get("style"),
                    url=c.get("url"),
                    emoji=c.get("emoji"),
                    options=tuple(c.get("options") or ()),
                    raw=c,
                )
            )
    return out


class _HasComponents:
    """Shared helpers for anything carrying ``components``."""

    components: list[dict[str, Any]]

    @property
    def interactive(self) -> list[ComponentInfo]:
        return flatten_components(self.components)

    @property
    def buttons(self) -> list[ComponentInfo]:
        return [c for c in self.interactive if c.is_button]

    @property
    def custom_ids(self) -> list[str]:
        return [c.custom_id for c in self.interactive if c.custom_id]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> ComponentInfo:
        """Find a component by custom_id or label (raises LookupError listing what exists)."""
        for c in self.interactive:
            if (custom_id is None or c.custom_id == custom_id) and (
                label is None or c.label == label
            ):
                return c
        have = [(c.custom_id, c.label) for c in self.interactive]
        raise LookupError(f"no component custom_id={custom_id!r} label={label!r}; have {have}")

    button = component


@dataclass(eq=False)
class RecordedMessage(_HasComponents):
    """A message as currently stored (edits mutate it; older versions go to ``history``)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[RecordedAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: str = field(default_factory=now_iso)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    # The ``authorizing_integration_owners`` of the interaction that created it (None: the
    # bot posted it with its token); a press of its components carries them.
    authorizing_integration_owners: dict[str, str] | None = None
    interaction_legacy: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    member: dict[str, Any] | None = None
    pinned: bool = False
    reactions: dict[str, set[int]] = field(default_factory=dict)
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    # ``allowed_mentions`` of the latest request that created or edited it (None: it had none).
    allowed_mentions: dict[str, Any] | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def author_id(self) -> int:
        return int(self.author["id"])

    @property
    def files(self) -> list[RecordedAttachment]:
        return self.attachments

    def attachment(self, filename: str | None = None) -> RecordedAttachment:
        for a in self.attachments:
            if filename is None or a.filename == filename:
                return a
        have = [a.filename for a in self.attachments]
        raise LookupError(f"no attachment {filename!r}; have {have}")

    def snapshot(self) -> dict[str, Any]:
        """A plain copy of the editable state (what ``history`` stores)."""
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "edited_timestamp": self.edited_timestamp,
        }

    def payload(self) -> dict[str, Any]:
        """The Discord message object discord.py parses.

        Shallow: edits replace lists wholesale, and payloads are serialised straight away.
        """
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": self.content,
            "author": dict(self.author),
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": [a.payload() for a in self.attachments],
            "flags": self.flags,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": self.pinned,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.member is not None:
            data["member"] = dict(self.member)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = dict(self.interaction_metadata)
        if self.interaction_legacy is not None:
            data["interaction"] = dict(self.interaction_legacy)
        if self.message_reference is not None:
            data["message_reference"] = dict(self.message_reference)
        if self.reactions:
            bot_id = int(self.extra.get("bot_id", 0))
            data["reactions"] = [
                {
                    "emoji": _emoji_payload(emoji),
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": bot_id in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
                if users
            ]
        return data

    def __repr__(self) -> str:
        flags = "ephemeral " if self.ephemeral else ""
        return (
            f"<RecordedMessage {flags}id={self.id} channel={self.channel_id} "
            f"content={self.content[:60]!r} embeds={len(self.embeds)} "
            f"files={[a.filename for a in self.attachments]} custom_ids={self.custom_ids}>"
        )


def _emoji_payload(emoji: str) -> dict[str, Any]:
    name, sep, eid = emoji.partition(":")
    if sep and eid.isdigit():
        return {"id": eid, "name": name}
    return {"id": None, "name": emoji}


@dataclass(eq=False)
class Callback(_HasComponents):
    """The initial interaction response (POST /interactions/{id}/{token}/callback)."""

    type: int
    data: dict[str, Any]
    files: list[RecordedAttachment]
    message: RecordedMessage | None

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        if self.message is not None:
            return self.message.ephemeral
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:  # type: ignore[override]
        return list(self.data.get("components") or [])

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (type 8)."""
        return list(self.data.get("choices") or [])

    @property
    def custom_id(self) -> str | None:
        """Modal custom_id (type 9)."""
        return self.data.get("custom_id")

    @property
    def title(self) -> str | None:
        return self.data.get("title")

    @property
    def text_inputs(self) -> list[dict[str, Any]]:
        """Modal text inputs (type 9)."""
        comps = walk_components(self.components)
        return [dict(c) for c in comps if c.get("type") == COMPONENT_TEXT_INPUT]

    def __repr__(self) -> str:
        return (
            f"<Callback type={self.type} ephemeral={self.ephemeral} content={self.content!r} "
            f"files={[f.filename for f in self.files]} custom_ids={self.custom_ids}>"
        )


@dataclass
class RequestRecord:
    """One HTTP request the bot made, with the status we answered."""

    method: str
    path: str
    query: str
    status: int = 0
    code: int | None = None
    message: str | None = None
    errors: Any = None

    def __str__(self) -> str:
        q = f"?{self.query}" if self.query else ""
        extra = f" {self.code} {self.message} {self.errors or ''}" if self.code is not None else ""
        return f"{self.method} {self.path}{q} -> {self.status}{extra}"
