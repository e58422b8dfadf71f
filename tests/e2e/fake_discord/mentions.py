"""Mentions: what a message asks Discord to ping (``would_ping``), Discord's checks on
``allowed_mentions``, and the record of each request that created or edited a message.

Why here: a bot that pings a whole server by accident is a real bug Discord will not stop, so
the fake answers the question for every message. Imports only the wire format.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tests.e2e.fake_discord.wire import ApiError, form_error


@dataclass
class MessageRequest:
    """One request that created or edited a message, with what it asked Discord to ping.

    ``allowed_mentions`` is the request's object as sent, or None when it had none (Discord then
    parses every mention in the content). ``content`` is the message's text after the request.
    """

    method: str
    path: str
    message_id: int
    content: str
    allowed_mentions: dict[str, Any] | None
    ephemeral: bool
    reply_to_author_id: int | None = None


_EVERYONE_RE = re.compile(r"@(everyone|here)")
_USER_MENTION_RE = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION_RE = re.compile(r"<@&(\d+)>")
_PARSE_TYPES = frozenset({"everyone", "roles", "users"})


def would_ping(
    content: str,
    allowed_mentions: Mapping[str, Any] | None,
    *,
    reply_to_author_id: int | None = None,
) -> set[str]:
    """What Discord notifies for ``content`` sent with ``allowed_mentions`` (None = absent).

    Returns ``"everyone"`` / ``"here"``, ``"user:ID"`` and ``"role:ID"`` entries. Absent
    allowed_mentions means Discord's default: every mention in the text pings (and a reply pings
    the replied-to author). Mentions escaped with a zero-width space (``@\\u200beveryone``,
    ``<@\\u200b123>``) are plain text. Permissions (Mention Everyone, mentionable roles) are not
    considered: the answer is what the message *asks* for, the worst case.
    """
    everyone = {m.group(1) for m in _EVERYONE_RE.finditer(content)}
    users = {m.group(1) for m in _USER_MENTION_RE.finditer(content)}
    roles = {m.group(1) for m in _ROLE_MENTION_RE.finditer(content)}
    if allowed_mentions is None:
        out = everyone | {f"user:{u}" for u in users} | {f"role:{r}" for r in roles}
        if reply_to_author_id is not None:
            out.add(f"user:{reply_to_author_id}")
        return out
    parse = set(allowed_mentions.get("parse") or [])
    allowed_users = {str(u) for u in allowed_mentions.get("users") or []}
    allowed_roles = {str(r) for r in allowed_mentions.get("roles") or []}
    out = set(everyone) if "everyone" in parse else set()
    out |= {f"user:{u}" for u in users if "users" in parse or u in allowed_users}
    out |= {f"role:{r}" for r in roles if "roles" in parse or r in allowed_roles}
    if reply_to_author_id is not None and allowed_mentions.get("replied_user"):
        out.add(f"user:{reply_to_author_id}")
    return out


def validate_allowed_mentions(value: Any) -> None:
    """Discord's checks on ``allowed_mentions`` (a bad object is a 400, nothing is sent)."""
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise form_error("allowed_mentions", "Must be an object.")
    parse = value.get("parse") or []
    bad = [p for p in parse if p not in _PARSE_TYPES]
    if bad:
        raise form_error("allowed_mentions.parse", f"Unknown mention type(s) {bad}.")
    for kind in ("users", "roles"):
        ids = value.get(kind) or []
        if ids and kind in parse:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                {
                    "allowed_mentions": {
                        "_errors": [
                            {
                                "code": "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                                "message": f'parse:["{kind}"] and {kind}: [ids...] are mutually '
                                "exclusive.",
                            }
                        ]
                    }
                },
            )
        if len(ids) > 100:
            raise form_error(f"allowed_mentions.{kind}", "Must be 100 or fewer in length.")
        if any(not str(i).isdigit() for i in ids):
            raise form_error(f"allowed_mentions.{kind}", "Value is not snowflake.")
