"""A local fake Discord (REST API + websocket gateway) for end-to-end tests.

Why: we want to drive the *real* bot through the *unmodified* discord.py library, exactly as
Discord would, without network access. ``FakeDiscord`` is an aiohttp server on 127.0.0.1 that
speaks enough of Discord's v10 REST API and gateway (HELLO/IDENTIFY/READY/GUILD_CREATE,
heartbeats, zlib-stream compression, RESUME) for discord.py 2.7 to log in, sync application
commands and answer interactions. Everything the bot does is recorded so tests can assert on it.

Pointing a bot at the fake
--------------------------
discord.py reads two class attributes; set them before the client is created::

    discord.http.Route.BASE = fake.http_base                 # "http://127.0.0.1:PORT/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)

``with fake.patch_discord(): ...`` does both (and restores them) for in-process bots. Log in with
``fake.token``. A plain ``discord.Client`` connects to ``DEFAULT_GATEWAY`` directly;
``AutoShardedClient`` asks ``GET /gateway/bot``, which also returns ``fake.gateway_url``. Pass
``guild_ready_timeout=0.1`` to the client if anything waits for ``on_ready`` (the default waits
2 s after the last GUILD_CREATE).

World setup (synchronous, do it before the bot connects)
--------------------------------------------------------
``FakeDiscord(guilds=("Test Guild",))`` creates each guild with an @everyone role, a managed
bot role, a category plus text channels ``#general`` and ``#games`` (text channels can host
threads), the guild owner and the bot member.

- ``fake.guild`` (first guild), ``fake.guilds``, ``fake.add_guild(name, channels=...)``,
  ``fake.add_channel(guild, name, type=CHANNEL_TEXT)``, ``fake.channel("games")``.
- ``fake.create_user("alice", global_name=None, bot=False) -> FakeUser``
- ``fake.add_member(guild, user, roles=(), permissions=0, nick=None) -> FakeMember``
- ``fake.create_member("mod", permissions=PERM_MANAGE_MESSAGES) -> FakeMember`` (both at once)
- ``fake.add_role(guild, name, permissions) -> FakeRole``, ``fake.dm_channel(user)``.
  Permissions are role based, so ``Member.guild_permissions`` and ``interaction.permissions``
  agree; the interaction's ``member.permissions``/``app_permissions`` are computed per channel.

Bot connection
--------------
- ``await fake.start()`` / ``await fake.stop()`` (or ``async with FakeDiscord() as fake``).
- ``fake.http_base``, ``fake.gateway_url``, ``fake.base_url``, ``fake.token``,
  ``fake.application_id``, ``fake.bot_user``.
- ``await fake.wait_until_ready(timeout=5, after=None)``: a live gateway session got READY and
  all GUILD_CREATEs. For a restarted bot pass ``after=fake.ready_count`` read *before* starting it.
- ``fake.commands(guild_id=None)`` (synced commands, ids assigned),
  ``await fake.wait_for_commands(guild_id, names=("backgammon",))``.
- ``fake.add_command(raw, guild_id=None)``: a command the bot did not sync, one Discord makes
  itself (the Activity's Entry Point, ``fake_oauth``); ``fake.snowflake()``: a new id.

Interactions (each returns an ``InteractionResult`` right after the gateway dispatch)
-----------------------------------------------------------------------------------
- ``await fake.slash(user, channel, "backgammon", "move", options={"play": "13/7 8/7"})``;
  ``subcommand`` may be ``"group sub"`` or ``None``. Options are type-checked against the synced
  schema; user options take FakeUser/FakeMember/id and fill ``resolved.users``/``members``.
  Waits (up to ``timeout``) for the command to be synced.
- ``await fake.autocomplete(user, channel, "backgammon", "move", focused="play", value="13/")``
  returns the choices list (``[{"name": ..., "value": ...}]``).
- ``await fake.click(user, message, custom_id, values=None)`` for buttons/selects on a stored
  message (raises if the component is missing/disabled or the message is someone else's
  ephemeral).
- ``await fake.submit_modal(user, result_that_opened_modal, {"text_input_id": "value"})``.
- ``await fake.send_user_message(user, channel, "text")`` (MESSAGE_CREATE, honours intents),
  ``await fake.dispatch(event, data)`` (any raw gateway event), ``await fake.force_reconnect()``
  (op 7; discord.py reconnects and RESUMEs the same session).

``InteractionResult``: ``await r.response()`` -> ``Callback`` (``type``, ``ephemeral``,
``content``, ``embeds``, ``components``, ``buttons``, ``files``, ``choices``, ``message``);
``r.followups``; ``await r.followup(i)``; ``r.original`` / ``await r.original_message()`` (the
message the response created, or for component clicks the clicked message, after
deferral/edits); ``await r.answer()`` (the message that answers it, however sent: a type 4
response, a deferral's filled-in message, or a pressed button's followup); ``r.log``
(ordered ``("callback"|"followup"|"edit"|"delete", message_id)``);
``r.errors`` (4xx the bot got for this interaction); ``r.late`` (responded after
``interaction_deadline``); ``await r.wait_for(lambda r: ...)``. Generic waiting:
``await fake.wait_for(lambda: ..., timeout, what)`` wakes on every request/gateway event the fake
sees (plus a 0.1 s re-check for predicates over outside state such as ``bot.is_ready()``); on
timeout the error lists recent 4xx answers and unknown routes.
The acting user must be a member of the channel's guild (``create_member``), else LookupError.

Messages
--------
Every message (interaction responses, followups, channel sends) is a ``RecordedMessage``:
``id``, ``channel_id``, ``content``, ``embeds``, ``components`` (raw), ``buttons`` /
``interactive`` (flattened ``ComponentInfo`` with ``custom_id``, ``label``, ``disabled``...),
``attachments`` (``RecordedAttachment`` with ``data`` bytes, ``filename``), ``ephemeral``,
``loading``, ``deleted``, ``history`` (previous versions), ``interaction_id``.
``fake.messages_in(channel, ephemeral=None, include_deleted=False)``, ``fake.last_message(...)``,
``fake.message(id)``, ``await fake.wait_for_message(channel, predicate)``.

Hygiene: ``fake.unknown_routes`` (routes the fake does not implement, answered 404),
``fake.errors`` (4xx answers, e.g. validation or permission failures), ``fake.server_errors``;
``fake.assert_clean()`` raises if any is non-empty (or an answer was late). ``fake.requests``
logs every request, ``fake.gateway_log`` every gateway packet (``("op2", ...)``,
``("INTERACTION_CREATE", payload)``, ...). ``fake.permissions_for(user, channel)`` is the
permission math used for ``member.permissions`` / ``app_permissions`` and for enforcement.
Attachment URLs point at the fake (``/attachments/...``), so ``Attachment.read()`` works.

Fault injection
---------------
``rule = fake.fail_requests(method, path_pattern, status, *, count=1, code=0, message="",
retry_after=None) -> FaultRule``: the next ``count`` requests whose method is ``method`` (or any,
with ``"*"``) and whose path matches the regex ``path_pattern`` (``re.search`` on the full path,
``/api/v10/...``) are answered ``status`` with Discord's JSON error body
(``{"message", "code"}``) and have NO effect. A 429 also carries ``retry_after`` (default 1.0) and
``"global": false`` in the body and ``Retry-After``, ``X-RateLimit-*`` and ``Via`` headers, so
discord.py sleeps and retries as it would against Discord. Injected answers go to
``fake.injected`` (and the interaction's ``r.injected``), never to ``fake.errors`` /
``fake.server_errors``, so ``assert_clean()`` still judges the bot. ``rule.hits``,
``rule.remaining``, ``rule.records``, ``rule.cancel()``; ``fake.clear_faults()``. Paths:

- interaction callback: ``("POST", r"/interactions/\\d+/[^/]+/callback$")``
- followup: ``("POST", r"/webhooks/\\d+/[^/]+$")``; edit of the response:
  ``("PATCH", r"/webhooks/\\d+/[^/]+/messages/@original$")``
- channel message: ``("POST", r"/channels/\\d+/messages$")``; login: ``("GET", "/users/@me$")``

How discord.py 2.7 reacts (so pick the status that tests what you mean): on webhook routes
(callbacks, followups, response edits) it retries every 5xx up to 5 attempts, sleeping 1, 3, 5,
7, 9 s, so ``count=1`` is a retry that succeeds 1 s later and only ``count>=5`` reaches the bot
(after 25 s); on bot routes it retries 500/502/504/524 (sleeping 1, 3, 5, 7 s) but raises
``DiscordServerError`` on the first 503. A 429 is retried after ``retry_after`` (webhooks: always;
bot routes: unless it exceeds ``max_ratelimit_timeout``); 4xx answers raise at once
(404 -> ``NotFound``, e.g. ``code=10062`` "Unknown interaction", ``10015`` "Unknown Webhook").

Mentions
--------
Every request that creates or edits message content is recorded in ``fake.message_requests``, a
list of ``MessageRequest(method, path, message_id, content, allowed_mentions, ephemeral,
reply_to_author_id)`` in order: channel message create/edit, interaction callbacks of type 4
and 7, followups and webhook edits (a type-5 defer carries no message data and is not listed).
``allowed_mentions`` is the dict the request sent, or None when it sent none; the message keeps
the latest one as ``RecordedMessage.allowed_mentions``. ``fake.would_ping(message_or_request)``
(and the pure ``would_ping(content, allowed_mentions)``) says what Discord would notify:
``{"everyone", "here", "user:ID", "role:ID"}``. Absent ``allowed_mentions`` = Discord's default
(every ``@everyone``/``@here``/``<@id>``/``<@!id>``/``<@&id>`` in the content, and a reply's
author); else ``parse`` / ``users`` / ``roles`` / ``replied_user`` decide. Text escaped with a
zero-width space after the ``@`` does not ping. Embeds never ping. Invalid objects (``parse``
with ``users`` and a ``users`` list too, unknown parse types, > 100 ids) are a 400 like Discord's.

Several bot processes
---------------------
Every live gateway session gets broadcasts (GUILD_CREATE, MESSAGE_*). Interactions go to one:
``fake.interaction_routing = "newest"`` (default: the most recently READY session) or
``"round_robin"`` (each interaction to the next live session in turn). ``slash``,
``autocomplete`` and ``click`` take ``session=i``: an index into the live sessions, oldest first
(waits for it to exist). ``r.session_index`` tells where an interaction went.

Discord's contract (every e2e test is a contract test)
-----------------------------------------------------
Every request body the bot sends (JSON, or a multipart request's ``payload_json``) is checked
against Discord's published OpenAPI description (``discord_api/openapi.json``, vendored with its
MIT licence) for the operation its method and path name, and against the documented limits the
schema leaves out (``discord_contract``): integer options and their choices/bounds within
±(2^53-1) (NUMBER ±2^53), 8000 characters per slash command (names, descriptions, choice
values; per field the longest of default and localizations), 25 choices and 25 options,
custom_id 1-100, 5 action rows of 5 buttons, 25 select options, 10 embeds and 6000 characters
across them, content <= 2000 and a string choice value <= 100 (the docs win over the spec's
4000 and 6000). A body Discord would refuse is answered 400 with Discord's error body,
``{"code": 50035, "errors": {<field path>: {"_errors": [{"code", "message"}]}}, "message":
"Invalid Form Body"}``, has no effect, and lands in ``fake.errors`` (so ``assert_clean`` fails).
Never loosen it to make a test pass: fix the bot.

Rate limits (``fake.rate_limits``, a ``fake_ratelimit.RateLimits``; or ``rate_limits=`` to the
constructor): every ``/api/`` answer carries Discord's bucket headers (``X-RateLimit-Limit``,
``-Remaining``, ``-Reset``, ``-Reset-After``, ``-Bucket``); a bucket (route + major parameter)
over ``route_limit`` per ``route_window`` s (default 10 per 1 s), or everything over
``global_limit`` per second (50), gets Discord's 429 (``Retry-After``, ``X-RateLimit-Scope``,
``retry_after``/``global`` in the body), with no effect; discord.py waits and retries. Those go
to ``fake.rate_limited``, not ``fake.errors``. Interaction callbacks are bound by neither, the
interaction token's webhook routes not by the global limit. ``fake.rate_limits.reset()``
forgets the buckets; ``enabled = False`` switches them off.

Realism worth knowing (it mirrors Discord and catches real bugs)
----------------------------------------------------------------
- The initial response must arrive within ``interaction_deadline`` (3 s; ``None`` disables),
  else 404 "Unknown interaction" (10062); a second response gives 400 (40060).
- An interaction token lives ``interaction_token_lifetime`` seconds (15 minutes): after it,
  its webhook routes (followups, edits) answer 401 "Invalid Webhook Token" (50027).
- After a type-5 defer, the *first* followup edits the "thinking" message instead of creating a
  new one and keeps the defer's ephemeral state (Discord documents this): a private answer
  after a public deferral is shown to everyone.
- Messages are also validated by the fake's own checks (labels <= 80, unique custom_ids,
  <= 25 autocomplete choices, modal limits...).
- Ephemeral messages are not reachable through channel routes (404), only the interaction
  webhook. Sending in a channel requires the bot's view/send permissions.
- The application id differs from the bot user id, to catch code mixing them up.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime as _dt
import json
import logging
import mimetypes
import re
import secrets
import struct
import time
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from aiohttp import BodyPartReader, WSMsgType, web

from tests.e2e.discord_contract import ContractViolation, check_bulk_overwrite, check_request
from tests.e2e.fake_ratelimit import RateLimits

log = logging.getLogger(__name__)

T = TypeVar("T")

DISCORD_EPOCH_MS = 1_420_070_400_000
ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024

# --- permission bits (https://discord.com/developers/docs/topics/permissions) ---
PERM_CREATE_INSTANT_INVITE = 1 << 0
PERM_KICK_MEMBERS = 1 << 1
PERM_BAN_MEMBERS = 1 << 2
PERM_ADMINISTRATOR = 1 << 3
PERM_MANAGE_CHANNELS = 1 << 4
PERM_MANAGE_GUILD = 1 << 5
PERM_ADD_REACTIONS = 1 << 6
PERM_VIEW_CHANNEL = 1 << 10
PERM_SEND_MESSAGES = 1 << 11
PERM_MANAGE_MESSAGES = 1 << 13
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_MESSAGE_HISTORY = 1 << 16
PERM_MENTION_EVERYONE = 1 << 17
PERM_USE_EXTERNAL_EMOJIS = 1 << 18
PERM_CHANGE_NICKNAME = 1 << 26
PERM_MANAGE_ROLES = 1 << 28
PERM_USE_APPLICATION_COMMANDS = 1 << 31
PERM_MANAGE_THREADS = 1 << 34
PERM_CREATE_PUBLIC_THREADS = 1 << 35
PERM_CREATE_PRIVATE_THREADS = 1 << 36
PERM_SEND_MESSAGES_IN_THREADS = 1 << 38
PERM_ALL = (1 << 53) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    PERM_CREATE_INSTANT_INVITE
    | PERM_ADD_REACTIONS
    | PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_EMBED_LINKS
    | PERM_ATTACH_FILES
    | PERM_READ_MESSAGE_HISTORY
    | PERM_USE_EXTERNAL_EMOJIS
    | PERM_CHANGE_NICKNAME
    | PERM_USE_APPLICATION_COMMANDS
    | PERM_CREATE_PUBLIC_THREADS
    | PERM_SEND_MESSAGES_IN_THREADS
)
DEFAULT_BOT_PERMISSIONS = (
    DEFAULT_EVERYONE_PERMISSIONS
    | PERM_MANAGE_MESSAGES
    | PERM_MANAGE_THREADS
    | PERM_CREATE_PRIVATE_THREADS
)

HEARTBEAT_ACK_DELAY = 0.05  # seconds: a network's round trip, see FakeDiscord._heartbeat_ack

# --- gateway intents ---
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

# --- channel types ---
CHANNEL_TEXT = 0
CHANNEL_DM = 1
CHANNEL_VOICE = 2
CHANNEL_CATEGORY = 4
CHANNEL_NEWS = 5
CHANNEL_NEWS_THREAD = 10
CHANNEL_PUBLIC_THREAD = 11
CHANNEL_PRIVATE_THREAD = 12
CHANNEL_FORUM = 15
THREAD_TYPES = (CHANNEL_NEWS_THREAD, CHANNEL_PUBLIC_THREAD, CHANNEL_PRIVATE_THREAD)

# --- interaction types and callback (response) types ---
INTERACTION_PING = 1
INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_MESSAGE_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5

CALLBACK_PONG = 1
CALLBACK_CHANNEL_MESSAGE = 4
CALLBACK_DEFERRED_CHANNEL_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE_MESSAGE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE_RESULT = 8
CALLBACK_MODAL = 9

CALLBACK_LAUNCH_ACTIVITY = 12  # commands, components, modal submits; needs an Activity
_ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    INTERACTION_APPLICATION_COMMAND: frozenset({4, 5, 9}),
    INTERACTION_MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    INTERACTION_AUTOCOMPLETE: frozenset({8}),
    INTERACTION_MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}

# --- message flags ---
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15
_CHANNEL_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
_INTERACTION_FLAGS = _CHANNEL_FLAGS | FLAG_EPHEMERAL

# --- component types ---
COMPONENT_ACTION_ROW = 1
COMPONENT_BUTTON = 2
COMPONENT_STRING_SELECT = 3
COMPONENT_TEXT_INPUT = 4
COMPONENT_LABEL = 18
_SELECT_TYPES = (3, 5, 6, 7, 8)
_INTERACTIVE_TYPES = (COMPONENT_BUTTON, *_SELECT_TYPES)

# --- option types ---
OPT_SUB_COMMAND = 1
OPT_SUB_COMMAND_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_MENTIONABLE = 9
OPT_NUMBER = 10
OPT_ATTACHMENT = 11

_COMMAND_NAME_RE = re.compile(
    r"[-_'\w\u0900-\u0950\u0955-\u0963\u0966-\u097f\ua8e0-\ua8ff\u0e01-\u0e3a\u0e40-\u0e5b]{1,32}"
)  # Discord's: [-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]
# The locales Discord knows (https://discord.com/developers/docs/reference#locales):
# localization keys must be one of them.
DISCORD_LOCALES = frozenset(
    {
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    }
)


def _now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat()


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def _json_response(data: Any, status: int = 200) -> web.Response:
    """discord.py only decodes bodies whose Content-Type is exactly ``application/json``.

    aiohttp's ``json_response`` appends ``; charset=utf-8``, which discord.py would treat as text.
    """
    return web.Response(
        body=_dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class FakeDiscordTimeout(AssertionError):
    """Raised when a test waits for something the bot never did (AssertionError for pytest)."""


class _ApiError(Exception):
    """An error answer in Discord's JSON error format; recorded by the middleware."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        unknown_route: bool = False,
    ) -> None:
        super().__init__(f"{status} {code} {message} {errors or ''}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.unknown_route = unknown_route

    def response(self) -> web.Response:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return _json_response(body, self.status)


def _form_error(field_path: str, message: str) -> _ApiError:
    return _ApiError(
        400,
        50035,
        "Invalid Form Body",
        {field_path: {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}},
    )


class _Snowflakes:
    """Time-based, strictly increasing snowflakes, so discord.py's created_at math is sane."""

    def __init__(self) -> None:
        self._last_ms = 0
        self._inc = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        if ms <= self._last_ms:
            ms = self._last_ms
            self._inc += 1
            if self._inc >= 4096:
                ms += 1
                self._inc = 0
        else:
            self._inc = 0
        self._last_ms = ms
        return (ms << 22) | (1 << 17) | self._inc


# ---------------------------------------------------------------------------------------------
# World model
# ---------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    """A Discord user (people and bots)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role; permissions live on roles so discord.py's own permission math agrees."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class FakeMember:
    """A user's membership in one guild."""

    user: FakeUser
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=_now_iso)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def username(self) -> str:
        return self.user.username

    @property
    def mention(self) -> str:
        return self.user.mention

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeChannel:
    """A guild channel, thread or DM channel."""

    id: int
    type: int
    name: str | None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    permission_overwrites: list[dict[str, Any]] = field(default_factory=list)
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    recipients: list[FakeUser] = field(default_factory=list)
    member_ids: set[int] = field(default_factory=set)
    message_count: int = 0
    last_message_id: int | None = None
    created_at: str = field(default_factory=_now_iso)
    deleted: bool = False

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        last = str(self.last_message_id) if self.last_message_id else None
        if self.type == CHANNEL_DM:
            return {
                "id": str(self.id),
                "type": CHANNEL_DM,
                "recipients": [u.payload() for u in self.recipients],
                "last_message_id": last,
                "flags": 0,
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "nsfw": False,
            "last_message_id": last,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id) if self.owner_id else None,
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=len(self.member_ids),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": self.created_at,
                },
            )
            return data
        data["permission_overwrites"] = copy.deepcopy(self.permission_overwrites)
        data["topic"] = self.topic
        if self.type == CHANNEL_VOICE:
            data.update(bitrate=64000, user_limit=0, rtc_region=None)
        if self.type == CHANNEL_FORUM:
            data.update(available_tags=[], default_auto_archive_duration=1440)
        return data


@dataclass(eq=False)
class FakeGuild:
    """A guild with its roles, channels and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    joined_at: str = field(default_factory=_now_iso)
    # The server's language (Discord's "preferred_locale"; interactions' "guild_locale").
    preferred_locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]

    def channel(self, name: str) -> FakeChannel:
        for ch in self.channels.values():
            if ch.name == name and not ch.deleted:
                return ch
        raise LookupError(f"no channel {name!r} in guild {self.name!r}")

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == CHANNEL_TEXT and not c.deleted]

    def member(self, user: FakeUser | FakeMember | int) -> FakeMember:
        uid = user if isinstance(user, int) else user.id
        return self.members[uid]


# ---------------------------------------------------------------------------------------------
# Recorded output
# ---------------------------------------------------------------------------------------------


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


def _walk_components(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Yield every component, descending into rows, containers, sections and labels."""
    for comp in components or ():
        yield comp
        yield from _walk_components(comp.get("components") or ())
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, Mapping):
                yield from _walk_components([child])


def flatten_components(components: Sequence[Mapping[str, Any]]) -> list[ComponentInfo]:
    """All buttons and selects in document order."""
    out = []
    for c in _walk_components(components):
        if c.get("type") in _INTERACTIVE_TYPES:
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
    timestamp: str = field(default_factory=_now_iso)
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_user_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
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
        comps = _walk_components(self.components)
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


@dataclass(eq=False)
class FaultRule:
    """An injected failure: the next ``count`` matching requests get ``status``."""

    method: str
    path_pattern: str
    status: int
    count: int = 1
    code: int = 0
    message: str = ""
    retry_after: float | None = None
    hits: int = 0
    records: list[RequestRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._regex = re.compile(self.path_pattern)

    @property
    def remaining(self) -> int:
        return max(self.count - self.hits, 0)

    def cancel(self) -> None:
        """Stop injecting (``hits`` keeps what was already answered)."""
        self.count = self.hits

    def matches(self, method: str, path: str) -> bool:
        return (
            self.remaining > 0
            and self.method in ("*", method.upper())
            and self._regex.search(path) is not None
        )

    def response(self) -> web.Response:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        headers = {"Content-Type": "application/json"}
        if self.status == 429:
            retry = 1.0 if self.retry_after is None else self.retry_after
            body.update(retry_after=retry, **{"global": False})
            # discord.py treats a 429 without ``Via`` as a Cloudflare ban and never retries it;
            # Discord's own answers carry it.
            headers.update(
                {
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, int(retry + 0.999))),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                    "X-RateLimit-Reset-After": f"{retry:.3f}",
                    "X-RateLimit-Bucket": "fake-injected-bucket",
                    "X-RateLimit-Scope": "user",
                }
            )
        return web.Response(body=_dumps(body).encode(), status=self.status, headers=headers)

    def __repr__(self) -> str:
        return (
            f"<FaultRule {self.method} /{self.path_pattern}/ -> {self.status} "
            f"hits={self.hits}/{self.count}>"
        )


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


def _validate_allowed_mentions(value: Any) -> None:
    """Discord's checks on ``allowed_mentions`` (a bad object is a 400, nothing is sent)."""
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise _form_error("allowed_mentions", "Must be an object.")
    parse = value.get("parse") or []
    bad = [p for p in parse if p not in _PARSE_TYPES]
    if bad:
        raise _form_error("allowed_mentions.parse", f"Unknown mention type(s) {bad}.")
    for kind in ("users", "roles"):
        ids = value.get(kind) or []
        if ids and kind in parse:
            raise _ApiError(
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
            raise _form_error(f"allowed_mentions.{kind}", "Must be 100 or fewer in length.")
        if any(not str(i).isdigit() for i in ids):
            raise _form_error(f"allowed_mentions.{kind}", "Value is not snowflake.")


class InteractionResult:
    """Everything the bot did in answer to one interaction we dispatched."""

    def __init__(
        self,
        fake: FakeDiscord,
        payload: dict[str, Any],
        *,
        user: FakeUser,
        channel: FakeChannel,
        guild_id: int | None,
        source_message_id: int | None = None,
        command_name: str | None = None,
        parent: InteractionResult | None = None,
    ) -> None:
        self._fake = fake
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.user = user
        self.channel_id = channel.id
        self.guild_id = guild_id
        self.source_message_id = source_message_id
        self.command_name = command_name
        self.parent = parent
        self.callback: Callback | None = None
        self.followups: list[RecordedMessage] = []
        self.log: list[tuple[str, int | None]] = []
        self.errors: list[RequestRecord] = []
        self.injected: list[RequestRecord] = []
        self.session_index: int | None = None
        self.late = False
        self.dispatched_at = 0.0
        self.original_id: int | None = None
        self._defer_consumed = False

    @property
    def original(self) -> RecordedMessage | None:
        """The response message: created by type 4/5, or the clicked message for 6/7."""
        if self.original_id is not None:
            return self._fake._messages.get(self.original_id)
        return None

    @property
    def messages(self) -> list[RecordedMessage]:
        """Original response message (if created by us) plus followups, deduplicated."""
        out: list[RecordedMessage] = []
        for m in [self.original, *self.followups]:
            if m is not None and m not in out:
                out.append(m)
        return out

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.callback.choices if self.callback else []

    async def wait_for(
        self,
        predicate: Callable[[InteractionResult], T | None],
        timeout: float = 5.0,
        what: str = "",
    ) -> T:
        """Wait until ``predicate(self)`` is truthy and return its value."""
        return await self._fake.wait_for(
            lambda: predicate(self), timeout, what or f"condition on interaction {self.id}", self
        )

    async def response(self, timeout: float = 5.0) -> Callback:
        """The initial response (callback); raises FakeDiscordTimeout if none came in time.

        Fails at once if the bot already answered after ``interaction_deadline``.
        """

        def got(r: InteractionResult) -> Callback | None:
            if r.late and r.callback is None:
                raise FakeDiscordTimeout(
                    f"bot answered interaction {r.id} after the "
                    f"{r._fake.interaction_deadline}s deadline; Discord rejected it (10062)\n"
                    + r.describe()
                )
            return r.callback

        return await self.wait_for(got, timeout, "initial interaction response")

    async def followup(self, index: int = 0, timeout: float = 5.0) -> RecordedMessage:
        """The ``index``-th followup message (waits for it)."""
        return await self.wait_for(
            lambda r: r.followups[index] if len(r.followups) > index else None,
            timeout,
            f"followup #{index}",
        )

    async def answer(self, timeout: float = 5.0) -> RecordedMessage:
        """The message that answers the interaction, however the bot sent it: for a command,
        its response message once it is no longer "thinking..." (a type 4 response, or a
        type 5 deferral whose first followup fills it in); for a pressed button (a type 6
        or 7 update of the pressed message), its first followup."""
        callback = await self.response(timeout)
        if callback.type in (CALLBACK_DEFERRED_UPDATE_MESSAGE, CALLBACK_UPDATE_MESSAGE):
            return await self.followup(0, timeout)
        return await self.original_message(timeout)

    async def original_message(self, timeout: float = 5.0) -> RecordedMessage:
        """The response message once it exists and is no longer a 'thinking…' placeholder."""

        def ready(r: InteractionResult) -> RecordedMessage | None:
            m = r.original
            return m if m is not None and not m.loading else None

        return await self.wait_for(ready, timeout, "original response message (not loading)")

    def describe(self) -> str:
        lines = [f"interaction {self.id} type={self.type} command={self.command_name!r}"]
        lines.append(f"  callback: {self.callback!r}  late={self.late}")
        lines.extend(f"  {kind}: {mid}" for kind, mid in self.log)
        lines.extend(f"  error: {e}" for e in self.errors)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<InteractionResult id={self.id} type={self.type} callback={self.callback!r}>"


@dataclass
class _Upload:
    index: int
    filename: str
    data: bytes


# ---------------------------------------------------------------------------------------------
# Validation (mirrors Discord's limits so bugs surface in tests, not in production)
# ---------------------------------------------------------------------------------------------


def _validate_embeds(embeds: Sequence[Mapping[str, Any]]) -> None:
    if len(embeds) > 10:
        raise _form_error("embeds", "Must be 10 or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        limits = {"title": 256, "description": 4096}
        for key, lim in limits.items():
            n = len(e.get(key) or "")
            total += n
            if n > lim:
                raise _form_error(f"embeds.{i}.{key}", f"Must be {lim} or fewer in length.")
        fields = e.get("fields") or []
        if len(fields) > 25:
            raise _form_error(f"embeds.{i}.fields", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            name, value = str(f.get("name") or ""), str(f.get("value") or "")
            if not name or len(name) > 256:
                raise _form_error(f"embeds.{i}.fields.{j}.name", "Must be 1-256 in length.")
            if not value or len(value) > 1024:
                raise _form_error(f"embeds.{i}.fields.{j}.value", "Must be 1-1024 in length.")
            total += len(name) + len(value)
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        if len(footer) > 2048 or len(author) > 256:
            raise _form_error(f"embeds.{i}", "footer/author text too long")
        total += len(footer) + len(author)
    if total > 6000:
        raise _form_error("embeds", "Embed size exceeds maximum size of 6000")


def _validate_components(components: Sequence[Mapping[str, Any]], *, v2: bool) -> None:
    if not isinstance(components, list):
        raise _form_error("components", "Must be an array.")
    seen: set[str] = set()
    if not v2:
        if len(components) > 5:
            raise _form_error("components", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != COMPONENT_ACTION_ROW:
                raise _form_error(f"components.{i}.type", "Top level must be action rows.")
            children = row.get("components") or []
            if not children:
                raise _form_error(f"components.{i}.components", "Must be 1 or more in length.")
            kinds = {c.get("type") for c in children}
            if COMPONENT_BUTTON in kinds and len(kinds) > 1:
                raise _form_error(f"components.{i}", "Cannot mix buttons and selects in a row.")
            if COMPONENT_BUTTON in kinds and len(children) > 5:
                raise _form_error(f"components.{i}.components", "Must be 5 or fewer in length.")
            if kinds & set(_SELECT_TYPES) and len(children) != 1:
                raise _form_error(f"components.{i}.components", "A select must be alone in a row.")
    elif sum(1 for _ in _walk_components(components)) > 40:
        raise _form_error("components", "Must be 40 or fewer components in total.")
    for c in _walk_components(components):
        t = c.get("type")
        cid = c.get("custom_id")
        if t == COMPONENT_BUTTON:
            style = c.get("style")
            if style == 5:
                if not c.get("url") or cid:
                    raise _form_error("components", "Link buttons need a url and no custom_id.")
            elif style != 6 and not cid:
                raise _form_error("components", "Non-link buttons need a custom_id.")
            label = c.get("label")
            if label is not None and len(label) > 80:
                raise _form_error("components", f"Button label must be 80 or fewer: {label!r}")
            if not label and not c.get("emoji"):
                raise _form_error("components", "Button needs a label or an emoji.")
        elif t in _SELECT_TYPES:
            if not cid:
                raise _form_error("components", "Selects need a custom_id.")
            opts = c.get("options") or []
            if t == COMPONENT_STRING_SELECT and not 1 <= len(opts) <= 25:
                raise _form_error("components", "String select needs 1-25 options.")
            if len(c.get("placeholder") or "") > 150:
                raise _form_error("components", "Select placeholder must be 150 or fewer.")
            if t == COMPONENT_STRING_SELECT:
                _validate_select_options(opts, c)
        if cid is not None:
            if not 1 <= len(cid) <= 100:
                raise _form_error("components", f"custom_id must be 1-100 in length: {cid!r}")
            if cid in seen:
                raise _form_error("components", f"Component custom id cannot be duplicated: {cid}")
            seen.add(cid)


def _validate_select_options(
    options: Sequence[Mapping[str, Any]], select: Mapping[str, Any]
) -> None:
    """A string select's options as Discord documents them (Select Option Structure): label
    and value 1-100 characters, description up to 100, values distinct, no more defaults
    than ``max_values`` allows."""
    values: set[str] = set()
    for i, option in enumerate(options):
        where = f"components.options.{i}"
        label, value = option.get("label"), option.get("value")
        if not isinstance(label, str) or not 1 <= len(label) <= 100:
            raise _form_error(f"{where}.label", "Must be between 1 and 100 in length.")
        if not isinstance(value, str) or not 1 <= len(value) <= 100:
            raise _form_error(f"{where}.value", "Must be between 1 and 100 in length.")
        if len(option.get("description") or "") > 100:
            raise _form_error(f"{where}.description", "Must be 100 or fewer in length.")
        if value in values:
            raise _form_error(f"{where}.value", f"Select option values must be unique: {value}")
        values.add(value)
    defaults = sum(1 for option in options if option.get("default"))
    if defaults > int(select.get("max_values") or 1):
        raise _form_error("components.options", "More default options than max_values.")


def _validate_modal(data: Mapping[str, Any]) -> None:
    title, cid = data.get("title") or "", data.get("custom_id") or ""
    if not 1 <= len(title) <= 45:
        raise _form_error("data.title", "Must be 1-45 in length.")
    if not 1 <= len(cid) <= 100:
        raise _form_error("data.custom_id", "Must be 1-100 in length.")
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        raise _form_error("data.components", "Must be 1-5 in length.")
    seen: set[str] = set()
    for c in _walk_components(comps):
        if c.get("type") == COMPONENT_TEXT_INPUT:
            tid = c.get("custom_id") or ""
            if not 1 <= len(tid) <= 100 or tid in seen:
                raise _form_error("data.components", f"bad/duplicate text input id {tid!r}")
            seen.add(tid)
            if len(c.get("label") or "") > 45 or len(c.get("value") or "") > 4000:
                raise _form_error("data.components", "text input label/value too long")


def _validate_choices(choices: Any) -> None:
    if not isinstance(choices, list) or len(choices) > 25:
        raise _form_error("data.choices", "Must be 25 or fewer in length.")
    for i, ch in enumerate(choices):
        name = ch.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise _form_error(f"data.choices.{i}.name", "Must be 1-100 in length.")
        value = ch.get("value")
        if isinstance(value, str) and len(value) > 100:
            raise _form_error(f"data.choices.{i}.value", "Must be 100 or fewer in length.")
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise _form_error(f"data.choices.{i}.value", "Must be a string or number.")


def _validate_command(cmd: Mapping[str, Any]) -> None:
    ctype = cmd.get("type", 1)
    name = cmd.get("name") or ""
    if ctype == 1:
        if not _COMMAND_NAME_RE.fullmatch(name) or name != name.lower():
            raise _form_error("name", f"Invalid chat input command name {name!r}")
        if not 1 <= len(cmd.get("description") or "") <= 100:
            raise _form_error("description", f"Command {name!r} description must be 1-100 long")
    elif not 1 <= len(name) <= 32:
        raise _form_error("name", f"Invalid context menu name {name!r}")
    _validate_localizations(cmd, name, name_rule=ctype == 1)
    _validate_options(cmd.get("options") or [], name)


def _validate_localizations(item: Mapping[str, Any], where: str, *, name_rule: bool) -> None:
    """A command's or option's translated names and descriptions, as Discord checks them."""
    for locale, words in (item.get("name_localizations") or {}).items():
        if locale not in DISCORD_LOCALES:
            raise _form_error("name_localizations", f"{where}: unknown locale {locale!r}")
        if name_rule and (not _COMMAND_NAME_RE.fullmatch(words) or words != words.lower()):
            raise _form_error("name_localizations", f"{where}: bad {locale} name {words!r}")
    for locale, words in (item.get("description_localizations") or {}).items():
        if locale not in DISCORD_LOCALES:
            raise _form_error("description_localizations", f"{where}: unknown locale {locale!r}")
        if not 1 <= len(words) <= 100:
            raise _form_error("description_localizations", f"{where}: {locale} 1-100 long")


def _unique_localized_names(items: Sequence[Mapping[str, Any]], where: str) -> None:
    """No two siblings may share a name in any locale (their own or a translated one)."""
    locales = {loc for item in items for loc in item.get("name_localizations") or {}}
    for locale in locales:
        seen: set[str | None] = set()
        for item in items:
            words = (item.get("name_localizations") or {}).get(locale) or item.get("name")
            if words in seen:
                raise _form_error("name_localizations", f"{where}: {locale} name {words!r} twice")
            seen.add(words)


def _validate_options(options: Sequence[Mapping[str, Any]], where: str) -> None:
    if len(options) > 25:
        raise _form_error("options", f"{where}: at most 25 options")
    seen_optional = False
    names: set[str] = set()
    _unique_localized_names(options, where)
    for opt in options:
        name = opt.get("name") or ""
        if not _COMMAND_NAME_RE.fullmatch(name) or name != name.lower() or name in names:
            raise _form_error("options", f"{where}: bad or duplicate option name {name!r}")
        names.add(name)
        if not 1 <= len(opt.get("description") or "") <= 100:
            raise _form_error("options", f"{where}.{name}: description must be 1-100 long")
        _validate_localizations(opt, f"{where}.{name}", name_rule=True)
        if opt.get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            _validate_options(opt.get("options") or [], f"{where} {name}")
            continue
        if opt.get("required"):
            if seen_optional:
                raise _form_error("options", f"{where}: required options must come first")
        else:
            seen_optional = True
        if len(opt.get("choices") or []) > 25:
            raise _form_error("options", f"{where}.{name}: at most 25 choices")
        for choice in opt.get("choices") or []:
            for locale, words in (choice.get("name_localizations") or {}).items():
                if locale not in DISCORD_LOCALES or not 1 <= len(words) <= 100:
                    raise _form_error("options", f"{where}.{name}: bad choice name {words!r}")
        if opt.get("choices") and opt.get("autocomplete"):
            raise _form_error("options", f"{where}.{name}: choices and autocomplete conflict")


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


# ---------------------------------------------------------------------------------------------
# Gateway plumbing
# ---------------------------------------------------------------------------------------------


class _Connection:
    """One websocket plus its (stateful) compression stream."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.lock = asyncio.Lock()
        self._mode = compress
        self._zlib: Any = None
        self._zstd: Any = None
        if compress == "zlib-stream":
            self._zlib = zlib.compressobj()
        elif compress == "zstd-stream":  # only asked for when zstandard/compression.zstd exist
            try:
                import zstandard

                self._zstd = ("zstandard", zstandard.ZstdCompressor().compressobj())
            except ImportError:
                from compression import zstd  # type: ignore[import-not-found]

                self._zstd = ("stdlib", zstd.ZstdCompressor())
        elif compress:
            raise ValueError(f"unsupported compress={compress!r}")

    @property
    def closed(self) -> bool:
        return self.ws.closed

    async def send_locked(self, payload: dict[str, Any]) -> None:
        raw = _dumps(payload).encode()
        if self._zlib is not None:
            await self.ws.send_bytes(self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
        elif self._zstd is not None:
            kind, obj = self._zstd
            if kind == "zstandard":
                import zstandard

                chunk = obj.compress(raw) + obj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
            else:
                chunk = obj.compress(raw, mode=obj.FLUSH_BLOCK)
            await self.ws.send_bytes(chunk)
        else:
            await self.ws.send_str(raw.decode())


class _GatewaySession:
    """A gateway session (survives RESUME onto a new connection)."""

    def __init__(self, conn: _Connection) -> None:
        self.conn: _Connection | None = conn
        self.session_id: str | None = None
        self.seq = 0
        self.intents = 0
        self.shard: tuple[int, int] | None = None
        self.ready_index = 0

    @property
    def live(self) -> bool:
        return self.conn is not None and not self.conn.closed and self.ready_index > 0

    async def send(self, payload: dict[str, Any]) -> bool:
        conn = self.conn
        if conn is None or conn.closed:
            return False
        async with conn.lock:
            if conn.closed:
                return False
            try:
                await conn.send_locked(payload)
            except (ConnectionError, RuntimeError) as exc:
                log.debug("gateway send failed: %r", exc)
                return False
        return True

    async def dispatch(self, event: str, data: Any) -> bool:
        conn = self.conn
        if conn is None or conn.closed:
            return False
        async with conn.lock:
            if conn.closed:
                return False
            self.seq += 1
            try:
                await conn.send_locked({"op": 0, "t": event, "s": self.seq, "d": data})
            except (ConnectionError, RuntimeError) as exc:
                log.debug("gateway dispatch %s failed: %r", event, exc)
                return False
        return True

    def wants_guild(self, guild_id: int) -> bool:
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (guild_id >> 22) % max(count, 1) == shard_id


# ---------------------------------------------------------------------------------------------
# The fake
# ---------------------------------------------------------------------------------------------


class FakeDiscord:
    """Fake Discord REST API + gateway on 127.0.0.1. See the module docstring for the API."""

    def __init__(
        self,
        guilds: Sequence[str] = ("Test Guild",),
        *,
        token: str = "fake-bot-token",
        bot_name: str = "GammonBot",
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        interaction_deadline: float | None = 3.0,
        interaction_token_lifetime: float = 15 * 60,
        rate_limits: RateLimits | None = None,
        heartbeat_interval_ms: int = 41_250,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.token = token
        self.interaction_deadline = interaction_deadline
        # Activities (tests/e2e/fake_oauth.py): called with (channel id, user id) for a
        # LAUNCH_ACTIVITY response (callback type 12), returns the new instance's id. None:
        # the app has no Activity, and Discord refuses type 12.
        self.launch_activity: Callable[[int, int], str] | None = None
        self.interaction_token_lifetime = interaction_token_lifetime
        self.rate_limits = rate_limits if rate_limits is not None else RateLimits()
        self.rate_limited: list[RequestRecord] = []
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.bot_permissions = bot_permissions
        self.everyone_permissions = everyone_permissions
        self._host = host
        self._port = port
        self._ids = _Snowflakes()

        self.users: dict[int, FakeUser] = {}
        self.bot_user = self.create_user(bot_name, bot=True)
        self.owner = self.create_user("app-owner", global_name="App Owner")
        self.application_id = self._ids.next()
        self.guilds: dict[int, FakeGuild] = {}
        self._dm_channels: dict[int, FakeChannel] = {}
        self._channels: dict[int, FakeChannel] = {}

        self._commands: dict[int | None, list[dict[str, Any]]] = {}
        self._messages: dict[int, RecordedMessage] = {}
        self._channel_messages: dict[int, list[RecordedMessage]] = {}
        self._attachments: dict[int, RecordedAttachment] = {}
        self._interactions: dict[str, InteractionResult] = {}
        self.interactions: list[InteractionResult] = []

        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[RequestRecord] = []
        self.errors: list[RequestRecord] = []
        self.server_errors: list[RequestRecord] = []
        self.gateway_log: list[tuple[str, Any]] = []
        self.fault_rules: list[FaultRule] = []
        self.injected: list[RequestRecord] = []
        self.message_requests: list[MessageRequest] = []
        self.interaction_routing: str = "newest"
        self._round_robin = 0

        self._sessions: dict[str, _GatewaySession] = {}
        self._pending_sessions: set[_GatewaySession] = set()
        self.ready_count = 0
        self.identify_count = 0

        self._changed_event: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0

        for name in guilds:
            self.add_guild(name)

    # ----- lifecycle -------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, self._host, self._port).start()
        self.port = self._runner.addresses[0][1]
        log.info("fake discord listening on %s", self.base_url)
        return self

    async def stop(self) -> None:
        """Close gateway sockets (code 1001, so a still-running client gives up) and the server."""
        for sess in [*self._sessions.values(), *self._pending_sessions]:
            conn = sess.conn
            if conn is not None and not conn.closed:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1001, message=b"fake discord stopping")
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def http_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self._host}:{self.port}/gateway/"

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py (this process) at the fake; restores the originals afterwards."""
        import discord.gateway
        import discord.http
        import yarl

        old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.http_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old

    # ----- change notification ---------------------------------------------------------------

    def _changed(self) -> None:
        """Wake every waiter; each re-checks its predicate (no polling sleeps)."""
        ev = self._changed_event
        self._changed_event = None
        if ev is not None:
            ev.set()

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 5.0,
        what: str = "condition",
        result: InteractionResult | None = None,
        *,
        recheck: float = 0.1,
    ) -> T:
        """Wait until ``predicate()`` is truthy and return it; FakeDiscordTimeout otherwise.

        Re-evaluated whenever the fake records anything (request, gateway event), so waits end
        as soon as the bot acts. Predicates over state the fake cannot see (``bot.is_ready()``)
        are additionally re-checked every ``recheck`` seconds as a safety net.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeDiscordTimeout(self._timeout_message(what, timeout, result))
            if self._changed_event is None:
                self._changed_event = asyncio.Event()
            ev = self._changed_event
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ev.wait(), min(remaining, recheck))

    def _timeout_message(self, what: str, timeout: float, result: InteractionResult | None) -> str:
        parts = [f"timed out after {timeout}s waiting for {what}"]
        if result is not None:
            parts.append(result.describe())
        if self.errors:
            parts.append("recent error answers:\n  " + "\n  ".join(map(str, self.errors[-5:])))
        if self.unknown_routes:
            parts.append("unknown routes:\n  " + "\n  ".join(map(str, self.unknown_routes[-5:])))
        if self.server_errors:
            parts.append("FAKE SERVER ERRORS:\n  " + "\n  ".join(map(str, self.server_errors)))
        return "\n".join(parts)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----- fault injection and mentions ------------------------------------------------------

    def fail_requests(
        self,
        method: str,
        path_pattern: str,
        status: int,
        *,
        count: int = 1,
        code: int = 0,
        message: str = "",
        retry_after: float | None = None,
    ) -> FaultRule:
        """Answer the next ``count`` matching requests with ``status`` and do nothing else.

        ``method`` is an HTTP method or ``"*"``; ``path_pattern`` a regex searched in the request
        path (e.g. ``r"/webhooks/\\d+/[^/]+$"``: interaction followups). Rules are tried in the
        order they were added; each answer is recorded in ``fake.injected`` and ``rule.hits``.
        """
        if status < 400:
            raise ValueError(f"an injected failure needs an error status, not {status}")
        default = {
            429: "You are being rate limited.",
            500: "500: Internal Server Error",
            502: "502: Bad Gateway",
            503: "503: Service Unavailable",
            504: "504: Gateway Timeout",
        }.get(status, f"{status}: injected failure")
        rule = FaultRule(
            method.upper() if method != "*" else "*",
            path_pattern,
            status,
            count=count,
            code=code,
            message=message or default,
            retry_after=retry_after,
        )
        self.fault_rules.append(rule)
        return rule

    def clear_faults(self) -> None:
        """Cancel every fault rule (their ``hits`` stay readable)."""
        for rule in self.fault_rules:
            rule.cancel()
        self.fault_rules.clear()

    def would_ping(self, message: RecordedMessage | MessageRequest) -> set[str]:
        """What ``message`` (as stored now, or one recorded request) makes Discord notify.

        See the module-level ``would_ping``: ``{"everyone", "here", "user:ID", "role:ID"}``.
        """
        if isinstance(message, MessageRequest):
            reply_to = message.reply_to_author_id
        else:
            reply_to = self._reply_author(message)
        return would_ping(message.content, message.allowed_mentions, reply_to_author_id=reply_to)

    def _reply_author(self, msg: RecordedMessage) -> int | None:
        ref = msg.message_reference or {}
        target = self._messages.get(int(ref.get("message_id") or 0))
        return target.author_id if target is not None and msg.type == 19 else None

    def _record_message_request(
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

    def assert_clean(self) -> None:
        """Fail if the bot hit unknown routes, got 4xx answers, or the fake itself crashed."""
        problems = []
        if self.unknown_routes:
            problems.append("unknown routes: " + "; ".join(map(str, self.unknown_routes)))
        if self.errors:
            problems.append("error answers: " + "; ".join(map(str, self.errors)))
        if self.server_errors:
            problems.append("fake server errors: " + "; ".join(map(str, self.server_errors)))
        late = [r.id for r in self.interactions if r.late]
        if late:
            problems.append(f"late interaction responses: {late}")
        if problems:
            raise AssertionError("\n".join(problems))

    # ----- world setup -----------------------------------------------------------------------

    def create_user(
        self, username: str, *, global_name: str | None = None, bot: bool = False
    ) -> FakeUser:
        user = FakeUser(self._ids.next(), username, global_name, bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        channels: Sequence[str] = ("general", "games"),
        owner: FakeUser | None = None,
        locale: str = "en-US",
    ) -> FakeGuild:
        gid = self._ids.next()
        guild = FakeGuild(gid, name, (owner or self.owner).id, preferred_locale=locale)
        guild.roles[gid] = FakeRole(gid, gid, "@everyone", self.everyone_permissions, 0)
        bot_role = FakeRole(
            self._ids.next(),
            gid,
            self.bot_user.username,
            self.bot_permissions,
            1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        self.guilds[gid] = guild
        category = self.add_channel(guild, "Text Channels", type=CHANNEL_CATEGORY)
        for ch in channels:
            self.add_channel(guild, ch, parent=category)
        guild.members[guild.owner_id] = FakeMember(self.users[guild.owner_id], gid)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, gid, [bot_role.id])
        if self._sessions:
            self._spawn(self._send_guild_create_to_all(guild))
        return guild

    def add_channel(
        self,
        guild: FakeGuild | int | None,
        name: str,
        *,
        type: int = CHANNEL_TEXT,
        parent: FakeChannel | int | None = None,
        topic: str | None = None,
        permission_overwrites: Sequence[Mapping[str, Any]] = (),
    ) -> FakeChannel:
        g = self._guild(guild)
        parent_id = parent.id if isinstance(parent, FakeChannel) else parent
        ch = FakeChannel(
            self._ids.next(),
            type,
            name,
            g.id,
            position=len(g.channels),
            parent_id=parent_id,
            topic=topic,
            permission_overwrites=[dict(o) for o in permission_overwrites],
        )
        g.channels[ch.id] = ch
        self._channels[ch.id] = ch
        self._broadcast_later("CHANNEL_CREATE", ch.payload(), INTENT_GUILDS)
        return ch

    def add_role(self, guild: FakeGuild | int | None, name: str, permissions: int = 0) -> FakeRole:
        g = self._guild(guild)
        role = FakeRole(self._ids.next(), g.id, name, permissions, len(g.roles))
        g.roles[role.id] = role
        self._broadcast_later(
            "GUILD_ROLE_CREATE", {"guild_id": str(g.id), "role": role.payload()}, INTENT_GUILDS
        )
        return role

    def add_member(
        self,
        guild: FakeGuild | int | None,
        user: FakeUser,
        *,
        roles: Sequence[FakeRole | int] = (),
        permissions: int = 0,
        nick: str | None = None,
    ) -> FakeMember:
        """Add ``user`` to a guild; ``permissions`` are granted through a (shared) role."""
        g = self._guild(guild)
        role_ids = [r.id if isinstance(r, FakeRole) else r for r in roles]
        if permissions:
            role = next(
                (r for r in g.roles.values() if r.name == f"perms-{permissions}"), None
            ) or self.add_role(g, f"perms-{permissions}", permissions)
            role_ids.append(role.id)
        member = FakeMember(user, g.id, role_ids, nick)
        g.members[user.id] = member
        self._broadcast_later(
            "GUILD_MEMBER_ADD", {**member.payload(), "guild_id": str(g.id)}, INTENT_GUILD_MEMBERS
        )
        return member

    def create_member(
        self,
        username: str,
        *,
        guild: FakeGuild | int | None = None,
        permissions: int = 0,
        roles: Sequence[FakeRole | int] = (),
        global_name: str | None = None,
        nick: str | None = None,
    ) -> FakeMember:
        """create_user + add_member in one go (the usual way to make alice/bob/mod)."""
        user = self.create_user(username, global_name=global_name)
        return self.add_member(guild, user, roles=roles, permissions=permissions, nick=nick)

    def dm_channel(self, user: FakeUser | FakeMember | int) -> FakeChannel:
        u = self._user(user)
        ch = self._dm_channels.get(u.id)
        if ch is None:
            ch = FakeChannel(self._ids.next(), CHANNEL_DM, None, recipients=[u])
            self._dm_channels[u.id] = ch
            self._channels[ch.id] = ch
        return ch

    @property
    def guild(self) -> FakeGuild:
        """The first guild (most tests need just one)."""
        return next(iter(self.guilds.values()))

    def channel(self, ref: FakeChannel | int | str) -> FakeChannel:
        """Resolve a channel by object, id, or name (searching guilds in creation order)."""
        if isinstance(ref, FakeChannel):
            return ref
        if isinstance(ref, int):
            ch = self._channels.get(ref)
            if ch is None:
                raise LookupError(f"unknown channel id {ref}")
            return ch
        for g in self.guilds.values():
            with contextlib.suppress(LookupError):
                return g.channel(ref)
        raise LookupError(f"unknown channel name {ref!r}")

    def channel_id(self, ref: FakeChannel | int | str) -> int:
        return self.channel(ref).id

    def _guild(self, ref: FakeGuild | int | None) -> FakeGuild:
        if ref is None:
            return self.guild
        if isinstance(ref, FakeGuild):
            return ref
        return self.guilds[ref]

    def _user(self, ref: FakeUser | FakeMember | int) -> FakeUser:
        if isinstance(ref, FakeUser):
            return ref
        if isinstance(ref, FakeMember):
            return ref.user
        return self.users[ref]

    def snowflake(self) -> int:
        """A new id, as Discord makes them (for things a test makes beside the fake, such as
        an Activity's launch in ``fake_oauth``)."""
        return self._ids.next()

    # ----- permissions -----------------------------------------------------------------------

    def permissions_for(self, user: FakeUser | FakeMember | int, channel: FakeChannel) -> int:
        """Discord's permission algorithm: roles, administrator, then channel overwrites."""
        uid = self._user(user).id
        if channel.guild_id is None:
            return (
                PERM_VIEW_CHANNEL
                | PERM_SEND_MESSAGES
                | PERM_EMBED_LINKS
                | PERM_ATTACH_FILES
                | PERM_READ_MESSAGE_HISTORY
                | PERM_ADD_REACTIONS
                | PERM_USE_APPLICATION_COMMANDS
            )
        g = self.guilds[channel.guild_id]
        if uid == g.owner_id:
            return PERM_ALL
        member = g.members.get(uid)
        role_ids = member.roles if member else []
        perms = g.everyone.permissions
        for rid in role_ids:
            role = g.roles.get(rid)
            if role is not None:
                perms |= role.permissions
        if perms & PERM_ADMINISTRATOR:
            return PERM_ALL
        base: FakeChannel | None = channel
        if channel.is_thread:  # a thread has its parent channel's overwrites
            assert channel.parent_id is not None
            base = self._channels.get(channel.parent_id)
        overwrites = {int(o["id"]): o for o in (base.permission_overwrites if base else [])}
        if (ow := overwrites.get(g.id)) is not None:
            perms = (perms & ~int(ow.get("deny", 0))) | int(ow.get("allow", 0))
        allow = deny = 0
        for rid in role_ids:
            if (ow := overwrites.get(rid)) is not None and int(ow.get("type", 0)) == 0:
                allow |= int(ow.get("allow", 0))
                deny |= int(ow.get("deny", 0))
        perms = (perms & ~deny) | allow
        if (ow := overwrites.get(uid)) is not None and int(ow.get("type", 0)) == 1:
            perms = (perms & ~int(ow.get("deny", 0))) | int(ow.get("allow", 0))
        return perms

    # ----- gateway ---------------------------------------------------------------------------

    @property
    def sessions(self) -> list[_GatewaySession]:
        return [s for s in self._sessions.values() if s.live]

    async def wait_until_ready(self, timeout: float = 5.0, *, after: int | None = None) -> None:
        """Wait for a live session that received READY + GUILD_CREATEs.

        ``after``: only count sessions readied after ``ready_count`` had this value (restarts).
        """
        floor = -1 if after is None else after

        def ready() -> bool:
            return any(s.live and s.ready_index > floor for s in self._sessions.values())

        await self.wait_for(ready, timeout, "bot gateway READY")

    def _pick_session(self) -> _GatewaySession | None:
        live = self.sessions
        return max(live, key=lambda s: s.ready_index) if live else None

    def _interaction_session(
        self, index: int | None, guild_id: int | None = None
    ) -> _GatewaySession | None:
        """The session an interaction goes to: ``index`` into the live sessions (oldest first),
        else one that owns the guild's shard (as Discord routes them), chosen among those by
        ``interaction_routing``: ``"newest"`` or ``"round_robin"``."""
        live = sorted(self.sessions, key=lambda s: s.ready_index)
        if not live:
            return None
        if index is not None:
            return live[index] if -len(live) <= index < len(live) else None
        if guild_id is not None:
            live = [s for s in live if s.wants_guild(guild_id)]
            if not live:
                return None  # the shard's process is down: wait for it (or a takeover)
        if self.interaction_routing == "newest":
            return live[-1]
        if self.interaction_routing == "round_robin":
            sess = live[self._round_robin % len(live)]
            self._round_robin += 1
            return sess
        raise ValueError(f"unknown interaction_routing {self.interaction_routing!r}")

    async def dispatch(self, event: str, data: Any, *, timeout: float = 5.0) -> None:
        """Send a raw DISPATCH to the newest live session (waits for one to exist)."""
        sess = await self.wait_for(self._pick_session, timeout, "a connected bot")
        self.gateway_log.append((event, data))
        if not await sess.dispatch(event, data):
            raise RuntimeError(f"could not dispatch {event}: gateway connection closed")

    async def force_reconnect(self) -> None:
        """Send op 7 RECONNECT to every live session; discord.py then reconnects and RESUMEs."""
        for sess in self.sessions:
            await sess.send({"op": 7, "d": None, "s": None, "t": None})

    async def _broadcast(self, event: str, data: Any, intent: int | None) -> None:
        """``event`` to the live sessions with ``intent``; a guild's events only to the
        sessions whose shard owns the guild, as Discord does."""
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        for sess in list(self._sessions.values()):
            if not sess.live or (intent is not None and not sess.intents & intent):
                continue
            if guild_id is not None and not sess.wants_guild(int(guild_id)):
                continue
            await sess.dispatch(event, data)

    def _broadcast_later(self, event: str, data: Any, intent: int | None) -> None:
        if any(s.live for s in self._sessions.values()):
            self._spawn(self._broadcast(event, data, intent))

    async def _send_guild_create_to_all(self, guild: FakeGuild) -> None:
        for sess in list(self._sessions.values()):
            if sess.live and sess.wants_guild(guild.id):
                await sess.dispatch("GUILD_CREATE", self._guild_create_payload(guild, sess))

    def _guild_create_payload(self, g: FakeGuild, sess: _GatewaySession) -> dict[str, Any]:
        data = self._guild_payload(g)
        if sess.intents & INTENT_GUILD_PRESENCES:
            members = list(g.members.values())
        else:  # Discord only sends yourself (and voice members) without the presences intent
            members = [g.members[self.bot_user.id]]
        data.update(
            joined_at=g.joined_at,
            large=False,
            unavailable=False,
            member_count=len(g.members),
            members=[m.payload() for m in members],
            channels=[
                c.payload() for c in g.channels.values() if not c.is_thread and not c.deleted
            ],
            threads=[
                c.payload()
                for c in g.channels.values()
                if c.is_thread and not c.deleted and not c.archived
            ],
            voice_states=[],
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
            embedded_activities=[],
        )
        return data

    def _guild_payload(self, g: FakeGuild) -> dict[str, Any]:
        system = next(iter(g.text_channels), None)
        return {
            "id": str(g.id),
            "name": g.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(g.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in g.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(system.id) if system else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": g.preferred_locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
        }

    async def _h_gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        query = request.query
        if query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only json encoding is supported")
            return ws
        if query.get("v", "10") not in ("9", "10"):
            await ws.close(code=4012, message=b"Invalid API version")
            return ws
        try:
            conn = _Connection(ws, query.get("compress"))
        except (ValueError, ImportError) as exc:
            await ws.close(code=4000, message=str(exc).encode())
            return ws
        sess = _GatewaySession(conn)
        self._pending_sessions.add(sess)
        self.gateway_log.append(("CONNECT", dict(query)))
        try:
            await sess.send(
                {
                    "op": 10,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake"]},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    try:
                        packet = json.loads(msg.data)
                    except ValueError:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                        break
                    sess = await self._gateway_op(sess, conn, packet)
                elif msg.type == WSMsgType.ERROR:
                    log.debug("gateway ws error: %r", ws.exception())
                    break
        finally:
            self._pending_sessions.discard(sess)
            if sess.conn is conn:
                sess.conn = None
            self.gateway_log.append(("DISCONNECT", ws.close_code))
            self._changed()
        return ws

    async def _heartbeat_ack(self, sess: _GatewaySession) -> None:
        """Ack a heartbeat a moment later, as over a network. discord.py's keep-alive thread
        notes the send time only after the send returns, so an ack on the same instant can
        be read first and logged as "Can't keep up ... 41.3s behind" (one interval)."""
        await asyncio.sleep(HEARTBEAT_ACK_DELAY)
        await sess.send({"op": 11, "d": None, "s": None, "t": None})

    async def _gateway_op(
        self, sess: _GatewaySession, conn: _Connection, packet: dict[str, Any]
    ) -> _GatewaySession:
        op = packet.get("op")
        d: Any = packet.get("d")  # its shape depends on op (identify: a dict)
        self.gateway_log.append((f"op{op}", d if op != 2 else {**d, "token": "***"}))
        if op == 1:
            self._spawn(self._heartbeat_ack(sess))
        elif op == 2:
            await self._identify(sess, conn, d or {})
        elif op == 6:
            return await self._resume(sess, conn, d or {})
        elif op == 8:
            await self._request_members(sess, d or {})
        elif op in (3, 4):
            pass  # presence / voice state updates: accepted and ignored
        else:
            log.warning("fake gateway: unknown op %r", op)
        return sess

    def _token_ok(self, token: Any) -> bool:
        return token in (self.token, f"Bot {self.token}")

    async def _identify(self, sess: _GatewaySession, conn: _Connection, d: dict[str, Any]) -> None:
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if sess.session_id is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        self.identify_count += 1
        sess.session_id = secrets.token_hex(16)
        sess.intents = int(d.get("intents") or 0)
        shard = d.get("shard")
        sess.shard = (int(shard[0]), int(shard[1])) if shard else None
        self._pending_sessions.discard(sess)
        self._sessions[sess.session_id] = sess
        guilds = [g for g in self.guilds.values() if sess.wants_guild(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": sess.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake"],
        }
        if sess.shard is not None:
            ready["shard"] = list(sess.shard)
        await sess.dispatch("READY", ready)
        for g in guilds:
            await sess.dispatch("GUILD_CREATE", self._guild_create_payload(g, sess))
        self.ready_count += 1
        sess.ready_index = self.ready_count
        self._changed()

    async def _resume(
        self, sess: _GatewaySession, conn: _Connection, d: dict[str, Any]
    ) -> _GatewaySession:
        old = self._sessions.get(str(d.get("session_id")))
        if old is None or not self._token_ok(d.get("token")):
            await sess.send({"op": 9, "d": False, "s": None, "t": None})
            return sess
        self._pending_sessions.discard(sess)
        old.conn = conn
        await old.dispatch("RESUMED", {"_trace": ["fake"]})
        self._changed()
        return old

    def _members_refusal(self, sess: _GatewaySession, d: dict[str, Any]) -> str | None:
        """Why Discord would not answer this Request Guild Members (op 8), or None.

        From the gateway docs (Request Guild Members): at most 100 ``user_ids``; the whole
        member list (``query`` "" with ``limit`` 0) needs the GUILD_MEMBERS intent; presences
        need GUILD_PRESENCES."""
        user_ids = d.get("user_ids")
        if isinstance(user_ids, list) and len(user_ids) > 100:
            return f"{len(user_ids)} user_ids (at most 100)"
        whole = user_ids is None and d.get("query") == "" and not int(d.get("limit") or 0)
        if whole and not sess.intents & INTENT_GUILD_MEMBERS:
            return "the whole member list without the GUILD_MEMBERS intent"
        if d.get("presences") and not sess.intents & INTENT_GUILD_PRESENCES:
            return "presences without the GUILD_PRESENCES intent"
        return None

    async def _request_members(self, sess: _GatewaySession, d: dict[str, Any]) -> None:
        refusal = self._members_refusal(sess, d)
        if refusal is not None:
            # Discord sends no chunk: the request is an error the test must see.
            self.errors.append(RequestRecord("GATEWAY", "op 8", "", 4000, None, refusal))
            return
        raw_ids: Any = d.get("guild_id")  # one snowflake or a list of them
        for raw in raw_ids if isinstance(raw_ids, list) else [raw_ids]:
            g = self.guilds.get(int(raw))
            if g is None:
                continue
            members = list(g.members.values())
            user_ids = d.get("user_ids")
            query = d.get("query")
            not_found: list[str] = []
            if user_ids is not None:
                wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
                members = [m for m in members if m.id in wanted]
                not_found = [str(u) for u in sorted(wanted - {m.id for m in members})]
            elif query:
                q = str(query).lower()
                members = [
                    m
                    for m in members
                    if m.username.lower().startswith(q) or (m.nick or "").lower().startswith(q)
                ]
            limit = int(d.get("limit") or 0)
            if limit:
                members = members[:limit]
            chunk: dict[str, Any] = {
                "guild_id": str(g.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": not_found,  # ids asked for that are not members
            }
            if d.get("nonce") is not None:
                chunk["nonce"] = d["nonce"]
            if d.get("presences"):
                chunk["presences"] = []
            await sess.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ----- commands --------------------------------------------------------------------------

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Synced commands (global when ``guild_id`` is None), as Discord stores them."""
        return copy.deepcopy(self._commands.get(guild_id, []))

    async def wait_for_commands(
        self, guild_id: int | None = None, *, names: Sequence[str] = (), timeout: float = 5.0
    ) -> list[dict[str, Any]]:
        def synced() -> list[dict[str, Any]] | None:
            cmds = self._commands.get(guild_id) or []
            have = {c["name"] for c in cmds}
            return cmds if cmds and all(n in have for n in names) else None

        await self.wait_for(synced, timeout, f"commands synced for guild {guild_id}")
        return self.commands(guild_id)

    def add_command(self, raw: Mapping[str, Any], guild_id: int | None = None) -> dict[str, Any]:
        """Store a command the bot did not sync: one Discord creates itself (the Activity's
        Entry Point, ``fake_oauth``), which the bot's bulk overwrites must then keep."""
        cmd = self._store_command(guild_id, raw, {})
        self._commands.setdefault(guild_id, []).append(cmd)
        return cmd

    def _store_command(
        self, guild_id: int | None, raw: Mapping[str, Any], existing: dict[Any, dict[str, Any]]
    ) -> dict[str, Any]:
        _validate_command(raw)
        ctype = int(raw.get("type", 1))
        old = existing.get((raw["name"], ctype))
        cmd = {
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            "name_localizations": None,
            "description_localizations": None,
            **copy.deepcopy(dict(raw)),
        }
        cmd.update(
            id=old["id"] if old else str(self._ids.next()),
            application_id=str(self.application_id),
            version=str(self._ids.next()),
            type=ctype,
            description=raw.get("description", ""),
        )
        if guild_id is not None:
            cmd["guild_id"] = str(guild_id)
        else:
            cmd.setdefault("dm_permission", True)
        return cmd

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app_id"]) != self.application_id:
            raise _ApiError(403, 50001, "Missing Access")
        gid = request.match_info.get("guild_id")
        if gid is None:
            return None
        if int(gid) not in self.guilds:
            raise _ApiError(403, 50001, "Missing Access")
        return int(gid)

    async def _h_list_commands(self, request: web.Request) -> web.Response:
        return _json_response(self._commands.get(self._command_scope(request), []))

    async def _h_put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        payload, _ = await self._read_body(request)
        if not isinstance(payload, list):
            raise _form_error("_root", "Must be an array.")
        if len(payload) > 100:
            raise _form_error("_root", "Must be 100 or fewer in length.")
        keys = [(c.get("name"), int(c.get("type", 1))) for c in payload]
        if len(set(keys)) != len(keys):
            raise _form_error("_root", "Application command names must be unique")
        _unique_localized_names([c for c in payload if int(c.get("type", 1)) == 1], "commands")
        try:
            check_bulk_overwrite(self._commands.get(scope, []), payload, guild=scope is not None)
        except ContractViolation as broken:
            raise _ApiError(broken.status, broken.code, broken.message, broken.errors) from None
        existing = {(c["name"], c["type"]): c for c in self._commands.get(scope, [])}
        self._commands[scope] = [self._store_command(scope, raw, existing) for raw in payload]
        self._changed()
        return _json_response(self._commands[scope])

    async def _h_post_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        raw, _ = await self._read_body(request)
        cmds = self._commands.setdefault(scope, [])
        existing = {(c["name"], c["type"]): c for c in cmds}
        cmd = self._store_command(scope, raw, existing)
        cmds[:] = [c for c in cmds if c["id"] != cmd["id"]] + [cmd]
        self._changed()
        updated = cmd["id"] in {c["id"] for c in existing.values()}
        return _json_response(cmd, 200 if updated else 201)

    def _find_command(self, scope: int | None, cmd_id: str) -> dict[str, Any]:
        for c in self._commands.get(scope, []):
            if c["id"] == cmd_id:
                return c
        raise _ApiError(404, 10063, "Unknown application command")

    async def _h_get_command(self, request: web.Request) -> web.Response:
        return _json_response(
            self._find_command(self._command_scope(request), request.match_info["cmd_id"])
        )

    async def _h_patch_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        cmd = self._find_command(scope, request.match_info["cmd_id"])
        patch, _ = await self._read_body(request)
        merged = {**cmd, **patch}
        _validate_command(merged)
        cmd.update(patch)
        cmd["version"] = str(self._ids.next())
        self._changed()
        return _json_response(cmd)

    async def _h_delete_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        cmd = self._find_command(scope, request.match_info["cmd_id"])
        self._commands[scope].remove(cmd)
        self._changed()
        return web.Response(status=204)

    async def _h_command_permissions(self, request: web.Request) -> web.Response:
        self._command_scope(request)
        return _json_response([])

    # ----- dispatching interactions ----------------------------------------------------------

    def _resolve_command(
        self, guild_id: int | None, name: str
    ) -> tuple[dict[str, Any], int | None] | None:
        if guild_id is not None:
            for c in self._commands.get(guild_id, []):
                if c["name"] == name and c.get("type", 1) == 1:
                    return c, guild_id
        for c in self._commands.get(None, []):
            if c["name"] == name and c.get("type", 1) == 1:
                return c, None
        return None

    def _interaction_base(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        locale: str,
        message: RecordedMessage | None = None,
    ) -> dict[str, Any]:
        iid = self._ids.next()
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "token": f"fake-itoken-{iid}-{secrets.token_hex(8)}",
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "app_permissions": str(self.permissions_for(self.bot_user, channel)),
            "channel_id": str(channel.id),
            "channel": {
                **channel.payload(),
                "permissions": str(self.permissions_for(user, channel)),
            },
        }
        if channel.guild_id is not None:
            g = self.guilds[channel.guild_id]
            member = g.members.get(user.id)
            if member is None:
                raise LookupError(f"{user.username} is not a member of guild {g.name!r}")
            payload.update(
                guild_id=str(g.id),
                guild={"id": str(g.id), "locale": g.preferred_locale, "features": []},
                guild_locale=g.preferred_locale,
                member=member.payload(permissions=self.permissions_for(user, channel)),
                context=0,
                authorizing_integration_owners={"0": str(g.id)},
            )
        else:
            payload.update(
                user=user.payload(), context=1, authorizing_integration_owners={"0": "0"}
            )
        if message is not None:
            payload["message"] = message.payload()
        return payload

    async def _send_interaction(
        self,
        payload: dict[str, Any],
        *,
        user: FakeUser,
        channel: FakeChannel,
        source_message_id: int | None = None,
        command_name: str | None = None,
        parent: InteractionResult | None = None,
        timeout: float = 5.0,
        session: int | None = None,
    ) -> InteractionResult:
        result = InteractionResult(
            self,
            payload,
            user=user,
            channel=channel,
            guild_id=channel.guild_id,
            source_message_id=source_message_id,
            command_name=command_name,
            parent=parent,
        )
        self._interactions[result.token] = result
        self.interactions.append(result)
        what = "a connected bot" if session is None else f"live gateway session #{session}"
        sess = await self.wait_for(
            lambda: self._interaction_session(session, channel.guild_id), timeout, what
        )
        result.session_index = sorted(self.sessions, key=lambda s: s.ready_index).index(sess)
        result.dispatched_at = asyncio.get_running_loop().time()
        self.gateway_log.append(("INTERACTION_CREATE", payload))
        if not await sess.dispatch("INTERACTION_CREATE", payload):
            raise RuntimeError("gateway connection closed while dispatching interaction")
        return result

    def _option_payload(
        self,
        schema: Mapping[str, Any],
        value: Any,
        channel: FakeChannel,
        guild: FakeGuild | None,
        resolved: dict[str, dict[str, Any]],
        *,
        strict: bool,
    ) -> dict[str, Any]:
        otype, name = schema["type"], schema["name"]
        out: dict[str, Any] = {"name": name, "type": otype}
        if otype == OPT_STRING:
            value = str(value)
            lo, hi = schema.get("min_length"), schema.get("max_length")
            if strict and ((lo and len(value) < lo) or (hi and len(value) > hi)):
                raise ValueError(f"option {name!r}: length outside [{lo}, {hi}]")
        elif otype == OPT_INTEGER:
            if isinstance(value, bool) or int(value) != value:
                raise ValueError(f"option {name!r} must be an integer, got {value!r}")
            value = int(value)
        elif otype == OPT_NUMBER:
            value = float(value)
        elif otype == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise ValueError(f"option {name!r} must be a bool, got {value!r}")
        elif otype in (OPT_USER, OPT_MENTIONABLE) and not isinstance(value, FakeRole):
            user = self._user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if guild is not None and user.id in guild.members:
                member = guild.members[user.id]
                perms = self.permissions_for(user, channel)
                resolved.setdefault("members", {})[str(user.id)] = member.payload(
                    with_user=False, permissions=perms
                )
            value = str(user.id)
        elif otype in (OPT_ROLE, OPT_MENTIONABLE):
            role = value if isinstance(value, FakeRole) else guild.roles[int(value)]  # type: ignore[union-attr]
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            value = str(role.id)
        elif otype == OPT_CHANNEL:
            ch = self.channel(value)
            types = schema.get("channel_types")
            if strict and types and ch.type not in types:
                raise ValueError(f"option {name!r}: channel type {ch.type} not in {types}")
            resolved.setdefault("channels", {})[str(ch.id)] = {
                **ch.payload(),
                "permissions": str(PERM_ALL),
            }
            value = str(ch.id)
        elif otype == OPT_ATTACHMENT:
            filename, data = value
            att = self._new_attachment(_Upload(0, filename, data), 0)
            resolved.setdefault("attachments", {})[str(att.id)] = att.payload()
            value = str(att.id)
        if strict and otype in (OPT_INTEGER, OPT_NUMBER):
            lo, hi = schema.get("min_value"), schema.get("max_value")
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise ValueError(f"option {name!r}: {value} outside [{lo}, {hi}]")
        choices = schema.get("choices")
        if strict and choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r}: {value!r} is not one of the choices {choices}")
        out["value"] = value
        return out

    async def _command_data(
        self,
        channel: FakeChannel,
        command: str,
        subcommand: str | None,
        options: Mapping[str, Any],
        guild_id: int | None,
        *,
        focused: str | None = None,
        focused_value: Any = None,
        timeout: float,
    ) -> tuple[dict[str, Any], str]:
        gid = guild_id if guild_id is not None else channel.guild_id
        found = await self.wait_for(
            lambda: self._resolve_command(gid, command),
            timeout,
            f"command /{command} to be synced (guild {gid})",
        )
        cmd, scope = found
        path = subcommand.split() if subcommand else []
        schema_opts = cmd.get("options") or []
        nest: list[tuple[str, int]] = []
        for part in path:
            sub = next((o for o in schema_opts if o["name"] == part), None)
            if sub is None or sub["type"] not in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
                have = [o["name"] for o in schema_opts]
                raise LookupError(f"/{command}: no subcommand {part!r}; have {have}")
            nest.append((part, sub["type"]))
            schema_opts = sub.get("options") or []
        if any(o["type"] in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP) for o in schema_opts):
            raise LookupError(f"/{command} {subcommand or ''}: a subcommand is required")
        guild = self.guilds.get(channel.guild_id) if channel.guild_id else None
        by_name = {o["name"]: o for o in schema_opts}
        resolved: dict[str, dict[str, Any]] = {}
        leaf: list[dict[str, Any]] = []
        autocomplete = focused is not None
        for name, value in options.items():
            if name not in by_name:
                raise LookupError(f"unknown option {name!r}; have {list(by_name)}")
            leaf.append(
                self._option_payload(
                    by_name[name], value, channel, guild, resolved, strict=not autocomplete
                )
            )
        if autocomplete:
            schema = by_name.get(focused)
            if schema is None or not schema.get("autocomplete"):
                raise LookupError(f"option {focused!r} is not an autocomplete option")
            leaf.append(
                {"name": focused, "type": schema["type"], "value": focused_value, "focused": True}
            )
        else:
            missing = [n for n, o in by_name.items() if o.get("required") and n not in options]
            if missing:
                raise ValueError(f"missing required options {missing}")
        opts: list[dict[str, Any]] = leaf
        for part, ptype in reversed(nest):
            opts = [{"name": part, "type": ptype, "options": opts}]
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": 1,
            "options": opts,
        }
        if resolved:
            data["resolved"] = resolved
        if scope is not None:
            data["guild_id"] = str(scope)
        return data, " ".join([command, *path])

    async def slash(
        self,
        user: FakeUser | FakeMember,
        channel: FakeChannel | int | str,
        command: str,
        subcommand: str | None = None,
        *,
        options: Mapping[str, Any] | None = None,
        guild_id: int | None = None,
        locale: str = "en-US",
        timeout: float = 5.0,
        session: int | None = None,
    ) -> InteractionResult:
        """Invoke ``/command [group] subcommand option:value…`` as ``user`` in ``channel``."""
        ch = self.channel(channel)
        u = self._user(user)
        data, full = await self._command_data(
            ch, command, subcommand, options or {}, guild_id, timeout=timeout
        )
        payload = self._interaction_base(
            INTERACTION_APPLICATION_COMMAND, u, ch, data, locale=locale
        )
        return await self._send_interaction(
            payload, user=u, channel=ch, command_name=full, timeout=timeout, session=session
        )

    async def autocomplete(
        self,
        user: FakeUser | FakeMember,
        channel: FakeChannel | int | str,
        command: str,
        subcommand: str | None = None,
        *,
        focused: str,
        value: Any = "",
        options: Mapping[str, Any] | None = None,
        guild_id: int | None = None,
        locale: str = "en-US",
        timeout: float = 5.0,
        session: int | None = None,
    ) -> list[dict[str, Any]]:
        """Ask for autocomplete choices of option ``focused`` while the user typed ``value``."""
        ch = self.channel(channel)
        u = self._user(user)
        data, full = await self._command_data(
            ch,
            command,
            subcommand,
            options or {},
            guild_id,
            focused=focused,
            focused_value=value,
            timeout=timeout,
        )
        payload = self._interaction_base(INTERACTION_AUTOCOMPLETE, u, ch, data, locale=locale)
        result = await self._send_interaction(
            payload, user=u, channel=ch, command_name=full, timeout=timeout, session=session
        )
        cb = await result.response(timeout)
        return cb.choices

    async def click(
        self,
        user: FakeUser | FakeMember,
        message: RecordedMessage | int,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        locale: str = "en-US",
        timeout: float = 5.0,
        session: int | None = None,
    ) -> InteractionResult:
        """Press a button (or pick ``values`` in a select) on a stored message."""
        mid = message if isinstance(message, int) else message.id
        msg = self._messages.get(mid)
        if msg is None or msg.deleted:
            raise LookupError(f"message {mid} does not exist (or was deleted)")
        comp = msg.component(custom_id)
        if comp.disabled:
            raise ValueError(f"component {custom_id!r} is disabled")
        u = self._user(user)
        if msg.ephemeral and msg.interaction_user_id not in (None, u.id):
            raise PermissionError(f"{u.username} cannot see ephemeral message {mid}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp.type}
        if comp.type in _SELECT_TYPES:
            picked = list(values or [])
            if comp.type == COMPONENT_STRING_SELECT:
                allowed = [o["value"] for o in comp.options]
                bad = [v for v in picked if v not in allowed]
                if bad:
                    raise ValueError(f"values {bad} not among select options {allowed}")
            data["values"] = picked
        elif values is not None:
            raise ValueError("values= only applies to select menus")
        ch = self.channel(msg.channel_id)
        payload = self._interaction_base(
            INTERACTION_MESSAGE_COMPONENT, u, ch, data, locale=locale, message=msg
        )
        return await self._send_interaction(
            payload,
            user=u,
            channel=ch,
            source_message_id=msg.id,
            timeout=timeout,
            session=session,
        )

    async def submit_modal(
        self,
        user: FakeUser | FakeMember,
        opened_by: InteractionResult,
        values: Mapping[str, str],
        *,
        locale: str = "en-US",
        timeout: float = 5.0,
    ) -> InteractionResult:
        """Submit the modal that ``opened_by`` answered with (callback type 9)."""
        cb = opened_by.callback
        if cb is None or cb.type != CALLBACK_MODAL:
            raise ValueError("that interaction did not respond with a modal")
        known = {t["custom_id"] for t in cb.text_inputs}
        unknown = set(values) - known
        if unknown:
            raise LookupError(f"modal has no inputs {sorted(unknown)}; have {sorted(known)}")

        def convert(c: Mapping[str, Any]) -> dict[str, Any]:
            t = c.get("type")
            if t == COMPONENT_ACTION_ROW:
                return {"type": 1, "components": [convert(x) for x in c.get("components") or []]}
            if t == COMPONENT_LABEL:
                return {"type": t, "id": c.get("id"), "component": convert(c["component"])}
            if t == COMPONENT_TEXT_INPUT:
                value = values.get(c["custom_id"], c.get("value") or "")
                if c.get("required", True) and not value:
                    raise ValueError(f"text input {c['custom_id']!r} is required")
                return {"type": t, "id": c.get("id"), "custom_id": c["custom_id"], "value": value}
            if t in _SELECT_TYPES:
                return {"type": t, "custom_id": c.get("custom_id"), "values": []}
            return {"type": t, "id": c.get("id")}

        data = {"custom_id": cb.custom_id, "components": [convert(c) for c in cb.components]}
        u = self._user(user)
        ch = self.channel(opened_by.channel_id)
        source = self._messages.get(opened_by.source_message_id or 0)
        payload = self._interaction_base(
            INTERACTION_MODAL_SUBMIT, u, ch, data, locale=locale, message=source
        )
        return await self._send_interaction(
            payload,
            user=u,
            channel=ch,
            source_message_id=source.id if source else None,
            parent=opened_by,
            timeout=timeout,
        )

    async def send_user_message(
        self, user: FakeUser | FakeMember, channel: FakeChannel | int | str, content: str
    ) -> RecordedMessage:
        """A human posts a message (dispatched as MESSAGE_CREATE, honouring intents)."""
        u = self._user(user)
        ch = self.channel(channel)
        msg = self._store_message(ch, author=u, content=content)
        await self._broadcast_message("MESSAGE_CREATE", msg)
        return msg

    # ----- messages: storage -----------------------------------------------------------------

    def message(self, message_id: int) -> RecordedMessage:
        return self._messages[message_id]

    def messages_in(
        self,
        channel: FakeChannel | int | str,
        *,
        ephemeral: bool | None = None,
        include_deleted: bool = False,
    ) -> list[RecordedMessage]:
        """Messages in a channel, oldest first. ``ephemeral``: None=all, False/True=filter."""
        cid = self.channel_id(channel)
        return [
            m
            for m in self._channel_messages.get(cid, [])
            if (include_deleted or not m.deleted)
            and (ephemeral is None or m.ephemeral == ephemeral)
        ]

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
        cid = self.channel_id(channel)

        def find() -> RecordedMessage | None:
            for m in self._channel_messages.get(cid, []):
                if m.deleted or (after is not None and m.id <= after):
                    continue
                if predicate is None or predicate(m):
                    return m
            return None

        return await self.wait_for(find, timeout, f"a message in channel {cid}")

    def _new_attachment(
        self,
        up: _Upload,
        channel_id: int,
        *,
        filename: str | None = None,
        description: str | None = None,
    ) -> RecordedAttachment:
        aid = self._ids.next()
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
            url=f"{self.base_url}/attachments/{channel_id}/{aid}/{name}",
            description=description,
            width=size[0] if size else None,
            height=size[1] if size else None,
        )
        self._attachments[aid] = att
        return att

    def _resolve_attachments(
        self,
        payload: Mapping[str, Any],
        uploads: Sequence[_Upload],
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
                    raise _form_error(f"attachments.{i}.id", "Invalid attachment id") from None
                if aid in keep:
                    result.append(keep[aid])
                elif aid in by_index:
                    used.add(aid)
                    result.append(
                        self._new_attachment(
                            by_index[aid],
                            channel_id,
                            filename=entry.get("filename"),
                            description=entry.get("description"),
                        )
                    )
                else:
                    raise _form_error(f"attachments.{i}.id", f"Unknown attachment {aid}")
        for up in uploads:
            if up.index not in used:
                result.append(self._new_attachment(up, channel_id))
        if len(result) > 10:
            raise _form_error("attachments", "Must be 10 or fewer in length.")
        if sum(a.size for a in result) > ATTACHMENT_SIZE_LIMIT:
            raise _ApiError(413, 40005, "Request entity too large")
        return result

    def _store_message(
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
            m = self.guilds[channel.guild_id].members.get(author.id)
            member = m.payload(with_user=False) if m else None
        msg = RecordedMessage(
            id=self._ids.next(),
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
            extra={"bot_id": self.bot_user.id},
        )
        if interaction is not None:
            msg.webhook_id = self.application_id
            msg.application_id = self.application_id
            msg.interaction_id = interaction.id
            msg.interaction_user_id = interaction.user.id
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": interaction.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
            if interaction.command_name and interaction.type == INTERACTION_APPLICATION_COMMAND:
                meta["name"] = interaction.command_name
                meta["command_type"] = 1
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
        self._messages[msg.id] = msg
        self._channel_messages.setdefault(channel.id, []).append(msg)
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            channel.message_count += 1
        self._changed()
        return msg

    def _message_fields(
        self, payload: Mapping[str, Any], attachments: Sequence[RecordedAttachment] | None
    ) -> dict[str, Any]:
        """Validate create/edit fields and normalise them."""
        fields: dict[str, Any] = {}
        _validate_allowed_mentions(payload.get("allowed_mentions"))
        if "content" in payload:
            content = payload["content"]
            fields["content"] = "" if content is None else str(content)
            if len(fields["content"]) > 2000:
                raise _form_error("content", "Must be 2000 or fewer in length.")
        if "embeds" in payload:
            fields["embeds"] = list(payload["embeds"] or [])
            _validate_embeds(fields["embeds"])
        if "components" in payload:
            fields["components"] = list(payload["components"] or [])
            _validate_components(
                fields["components"], v2=bool(int(payload.get("flags") or 0) & FLAG_COMPONENTS_V2)
            )
        if attachments is not None:
            fields["attachments"] = list(attachments)
        return fields

    def _create_from_payload(
        self,
        channel: FakeChannel,
        payload: Mapping[str, Any],
        uploads: Sequence[_Upload],
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
            raise _form_error("content", "Cannot send content or embeds with IS_COMPONENTS_V2")
        extras = payload.get("sticker_ids") or payload.get("poll")
        if not (force_flags & FLAG_LOADING) and not (
            content or embeds or components or atts or extras
        ):
            raise _ApiError(400, 50006, "Cannot send an empty message")
        ref = payload.get("message_reference")
        msg = self._store_message(
            channel,
            author=self.bot_user,
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

    def _edit_from_payload(
        self, msg: RecordedMessage, payload: Mapping[str, Any], uploads: Sequence[_Upload]
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
            raise _form_error("content", "Cannot have content or embeds with IS_COMPONENTS_V2")
        components = fields.get("components", msg.components)
        attachments = fields.get("attachments", msg.attachments)
        if not msg.loading and not (content or embeds or components or attachments):
            raise _ApiError(400, 50006, "Cannot send an empty message")
        msg.history.append(msg.snapshot())
        msg.content, msg.embeds, msg.components, msg.attachments = (
            content,
            embeds,
            components,
            attachments,
        )
        msg.flags = flags & ~FLAG_LOADING
        msg.edited_timestamp = _now_iso()
        self._changed()
        return msg

    def _delete_message(self, msg: RecordedMessage) -> None:
        msg.deleted = True
        self._changed()

    async def _broadcast_message(self, event: str, msg: RecordedMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE to sessions with the matching intent (never ephemeral)."""
        if msg.ephemeral:
            return
        intent = INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DIRECT_MESSAGES
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
            await self._broadcast(event, data, intent)
            return
        full = msg.payload()
        for sess in list(self._sessions.values()):
            if not sess.live or not sess.intents & intent:
                continue
            if msg.guild_id is not None and not sess.wants_guild(msg.guild_id):
                continue
            data = full
            if msg.author_id != self.bot_user.id and not sess.intents & INTENT_MESSAGE_CONTENT:
                data = {**full, "content": "", "embeds": [], "attachments": [], "components": []}
            await sess.dispatch(event, data)

    # ----- HTTP plumbing ---------------------------------------------------------------------

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        rec = RequestRecord(request.method, request.path, request.query_string)
        self.requests.append(rec)
        path = request.path
        rule = next((r for r in self.fault_rules if r.matches(request.method, path)), None)
        if rule is not None:
            # An injected failure: no effect, not a bot error (assert_clean ignores it).
            rule.hits += 1
            response = rule.response()
            rec.status, rec.code, rec.message = rule.status, rule.code, rule.message
            rule.records.append(rec)
            self.injected.append(rec)
            token = request.match_info.get("token")
            if token and token in self._interactions:
                self._interactions[token].injected.append(rec)
            log.info("fake discord: injected %s for %s %s", rule.status, request.method, path)
            self._changed()
            return response
        verdict = self.rate_limits.check(request.method, path)
        if verdict is not None and verdict.refused:
            # Discord's 429: no effect; discord.py waits and retries (not a bot error).
            rec.status, rec.code, rec.message = 429, 0, "You are being rate limited."
            self.rate_limited.append(rec)
            self._changed()
            response = _json_response(verdict.body(), 429)
            response.headers.update(verdict.headers)
            return response
        try:
            if (
                path.startswith("/api/")
                and "/webhooks/" not in path
                and "/interactions/" not in path
                and not path.rstrip("/").endswith("/gateway")
                and request.headers.get("Authorization") != f"Bot {self.token}"
            ):
                raise _ApiError(401, 0, "401: Unauthorized")
            response = await handler(request)
        except _ApiError as err:
            response = err.response()
            rec.code, rec.message, rec.errors = err.code, err.message, err.errors
            if err.unknown_route:
                self.unknown_routes.append(rec)
                log.warning("fake discord: unknown route %s %s", request.method, path)
            else:
                self.errors.append(rec)
                log.info("fake discord: %s %s -> %s", request.method, path, err)
            self._note_interaction_error(request, rec)
        except web.HTTPException:
            raise
        except Exception as exc:
            log.exception("fake discord crashed handling %s %s", request.method, path)
            rec.code, rec.message = 0, f"fake server error: {exc!r}"
            self.server_errors.append(rec)
            response = _json_response({"message": rec.message, "code": 0}, 500)
        rec.status = response.status
        if verdict is not None:
            response.headers.update(verdict.headers)
        self._changed()
        return response

    def _note_interaction_error(self, request: web.Request, rec: RequestRecord) -> None:
        token = request.match_info.get("token")
        if token and token in self._interactions:
            self._interactions[token].errors.append(rec)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[_Upload]]:
        """The body, checked against Discord's contract (``discord_contract``): 400 50035.

        JSON, or multipart ``payload_json`` + ``files[n]`` parts (as discord.py sends), where
        the ``payload_json`` part is what Discord validates.
        """
        payload, uploads = await self._parse_body(request)
        try:
            check_request(request.method, request.path, payload)
        except ContractViolation as broken:
            log.warning("fake discord: contract: %s %s: %s", request.method, request.path, broken)
            raise _ApiError(broken.status, broken.code, broken.message, broken.errors) from None
        return payload, uploads

    async def _parse_body(self, request: web.Request) -> tuple[Any, list[_Upload]]:
        if request.content_type.startswith("multipart/"):
            payload: Any = {}
            uploads: list[_Upload] = []
            reader = await request.multipart()
            next_index = 10_000
            async for part in reader:
                # aiohttp types a part as possibly a nested multipart: discord.py sends none.
                assert isinstance(part, BodyPartReader), part
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif part.filename is not None:
                    m = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                    if m:
                        index = int(m.group(1))
                    else:
                        index, next_index = next_index, next_index + 1
                    data = await part.read(decode=False)
                    uploads.append(_Upload(index, part.filename, bytes(data)))
            return payload, uploads
        raw = await request.read()
        if not raw:
            return {}, []
        try:
            return json.loads(raw), []
        except ValueError:
            raise _ApiError(400, 50109, "The request body contains invalid JSON.") from None

    def _add_routes(self, app: web.Application) -> None:
        r = app.router
        api = r"/api/v{version:\d+}"

        def add(method: str, path: str, handler: Callable[[web.Request], Any]) -> None:
            r.add_route(method, api + path, handler)

        add("GET", "/users/@me", self._h_me)
        add("POST", "/users/@me/channels", self._h_create_dm)
        add("GET", r"/users/{user_id:\d+}", self._h_get_user)
        add("GET", "/oauth2/applications/@me", self._h_application)
        add("GET", "/applications/@me", self._h_application)
        add("GET", "/gateway", self._h_gateway_info)
        add("GET", "/gateway/bot", self._h_gateway_bot)
        for base in (
            r"/applications/{app_id:\d+}/commands",
            r"/applications/{app_id:\d+}/guilds/{guild_id:\d+}/commands",
        ):
            add("GET", base, self._h_list_commands)
            add("PUT", base, self._h_put_commands)
            add("POST", base, self._h_post_command)
            add("GET", base + "/permissions", self._h_command_permissions)
            add("GET", base + r"/{cmd_id:\d+}", self._h_get_command)
            add("PATCH", base + r"/{cmd_id:\d+}", self._h_patch_command)
            add("DELETE", base + r"/{cmd_id:\d+}", self._h_delete_command)
        add("POST", r"/interactions/{iid:\d+}/{token}/callback", self._h_callback)
        wh = r"/webhooks/{app_id:\d+}/{token}"
        add("POST", wh, self._h_followup)
        whm = wh + r"/messages/{mid:\d+|@original}"
        add("GET", whm, self._h_webhook_get)
        add("PATCH", whm, self._h_webhook_edit)
        add("DELETE", whm, self._h_webhook_delete)
        ch = r"/channels/{channel_id:\d+}"
        add("GET", ch, self._h_get_channel)
        add("PATCH", ch, self._h_edit_channel)
        add("DELETE", ch, self._h_delete_channel)
        add("POST", ch + "/typing", self._h_no_content)
        for pins in ("/messages/pins", "/pins"):
            add("GET", ch + pins, self._h_list_pins)
            add("PUT", ch + pins + r"/{mid:\d+}", self._h_pin)
            add("DELETE", ch + pins + r"/{mid:\d+}", self._h_pin)
        add("POST", ch + "/messages/bulk-delete", self._h_bulk_delete)
        add("GET", ch + "/messages", self._h_list_messages)
        add("POST", ch + "/messages", self._h_create_message)
        msg = ch + r"/messages/{mid:\d+}"
        add("GET", msg, self._h_get_message)
        add("PATCH", msg, self._h_edit_message)
        add("DELETE", msg, self._h_delete_message)
        add("PUT", msg + "/reactions/{emoji}/{who}", self._h_reaction)
        add("DELETE", msg + "/reactions/{emoji}/{who}", self._h_reaction)
        add("DELETE", msg + "/reactions/{emoji}", self._h_clear_reactions)
        add("DELETE", msg + "/reactions", self._h_clear_reactions)
        add("POST", msg + "/threads", self._h_thread_from_message)
        add("POST", ch + "/threads", self._h_create_thread)
        add("GET", ch + "/thread-members", self._h_list_thread_members)
        tm = ch + r"/thread-members/{who:\d+|@me}"
        add("GET", tm, self._h_thread_member)
        add("PUT", tm, self._h_thread_member)
        add("DELETE", tm, self._h_thread_member)
        g = r"/guilds/{guild_id:\d+}"
        add("GET", g, self._h_get_guild)
        add("GET", g + "/channels", self._h_guild_channels)
        add("GET", g + "/roles", self._h_guild_roles)
        add("GET", g + "/members", self._h_guild_members)
        add("GET", g + r"/members/{user_id:\d+}", self._h_guild_member)
        r.add_route("GET", "/gateway/", self._h_gateway)
        r.add_route("GET", "/gateway", self._h_gateway)
        r.add_route(
            "GET", r"/attachments/{channel_id:\d+}/{attachment_id:\d+}/{filename}", self._h_cdn
        )
        r.add_route("*", "/{tail:.*}", self._h_unknown)

    async def _h_unknown(self, request: web.Request) -> web.Response:
        raise _ApiError(
            404, 0, f"404: Not Found ({request.method} {request.path})", unknown_route=True
        )

    async def _h_no_content(self, request: web.Request) -> web.Response:
        self._get_channel(request)
        return web.Response(status=204)

    # ----- REST: identity --------------------------------------------------------------------

    async def _h_me(self, request: web.Request) -> web.Response:
        return _json_response({**self.bot_user.payload(), "verified": True, "mfa_enabled": False})

    async def _h_get_user(self, request: web.Request) -> web.Response:
        user = self.users.get(int(request.match_info["user_id"]))
        if user is None:
            raise _ApiError(404, 10013, "Unknown User")
        return _json_response(user.payload())

    async def _h_create_dm(self, request: web.Request) -> web.Response:
        payload, _ = await self._read_body(request)
        uid = int(payload.get("recipient_id", 0))
        if uid not in self.users or self.users[uid].bot:
            raise _ApiError(400, 50007, "Cannot send messages to this user")
        return _json_response(self.dm_channel(uid).payload())

    async def _h_application(self, request: web.Request) -> web.Response:
        return _json_response(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.owner.payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": self.bot_user.payload(),
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "tags": [],
                "approximate_guild_count": len(self.guilds),
                "hook": True,
            }
        )

    async def _h_gateway_info(self, request: web.Request) -> web.Response:
        return _json_response({"url": self.gateway_url})

    async def _h_gateway_bot(self, request: web.Request) -> web.Response:
        return _json_response(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _h_cdn(self, request: web.Request) -> web.Response:
        att = self._attachments.get(int(request.match_info["attachment_id"]))
        if att is None or att.filename != request.match_info["filename"]:
            raise _ApiError(404, 0, "404: Not Found")
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    # ----- REST: interactions ----------------------------------------------------------------

    def _interaction_for(self, request: web.Request) -> InteractionResult:
        token = request.match_info["token"]
        inter = self._interactions.get(token)
        if "iid" in request.match_info:
            if inter is None or inter.id != int(request.match_info["iid"]):
                raise _ApiError(404, 10062, "Unknown interaction")
        elif inter is None or int(request.match_info["app_id"]) != self.application_id:
            raise _ApiError(404, 10015, "Unknown Webhook")
        elif (
            asyncio.get_running_loop().time() - inter.dispatched_at
            > self.interaction_token_lifetime
        ):
            # An interaction token lives 15 minutes; after that Discord answers 401.
            raise _ApiError(401, 50027, "Invalid Webhook Token")
        return inter

    async def _h_callback(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        payload, uploads = await self._read_body(request)
        if inter.callback is not None:
            raise _ApiError(400, 40060, "Interaction has already been acknowledged.")
        loop = asyncio.get_running_loop()
        if (
            self.interaction_deadline is not None
            and loop.time() - inter.dispatched_at > self.interaction_deadline
        ):
            inter.late = True
            raise _ApiError(404, 10062, "Unknown interaction")
        ctype = int(payload.get("type", 0))
        data = dict(payload.get("data") or {})
        launching = (
            ctype == CALLBACK_LAUNCH_ACTIVITY
            and self.launch_activity is not None
            and inter.type != INTERACTION_AUTOCOMPLETE
        )
        if not launching and ctype not in _ALLOWED_CALLBACKS.get(inter.type, frozenset()):
            raise _form_error(
                "type", f"callback type {ctype} is invalid for interaction type {inter.type}"
            )
        if ctype == CALLBACK_UPDATE_MESSAGE and inter.source_message_id is None:
            raise _form_error("type", "UPDATE_MESSAGE needs a message component interaction")
        ch = self.channel(inter.channel_id)
        message: RecordedMessage | None = None
        files: list[RecordedAttachment] = []
        if ctype == CALLBACK_CHANNEL_MESSAGE:
            message = self._create_from_payload(
                ch,
                data,
                uploads,
                allowed_flags=_INTERACTION_FLAGS,
                interaction=inter,
                msg_type=20 if inter.type == INTERACTION_APPLICATION_COMMAND else 0,
            )
            files = list(message.attachments)
        elif ctype == CALLBACK_DEFERRED_CHANNEL_MESSAGE:
            message = self._store_message(
                ch,
                author=self.bot_user,
                flags=(int(data.get("flags") or 0) & FLAG_EPHEMERAL) | FLAG_LOADING,
                type=20 if inter.type == INTERACTION_APPLICATION_COMMAND else 0,
                interaction=inter,
            )
        elif ctype == CALLBACK_UPDATE_MESSAGE:
            target = self._messages.get(inter.source_message_id or 0)
            if target is None or target.deleted:
                raise _ApiError(404, 10008, "Unknown Message")
            before = {a.id for a in target.attachments}
            message = self._edit_from_payload(target, data, uploads)
            files = [a for a in message.attachments if a.id not in before]
        elif ctype == CALLBACK_AUTOCOMPLETE_RESULT:
            _validate_choices(data.get("choices"))
        elif ctype == CALLBACK_MODAL:
            _validate_modal(data)
        if ctype in (CALLBACK_DEFERRED_UPDATE_MESSAGE, CALLBACK_UPDATE_MESSAGE):
            inter.original_id = inter.source_message_id
        elif message is not None:
            inter.original_id = message.id
        inter.callback = Callback(ctype, data, files, message)
        inter.log.append(("callback", message.id if message else None))
        if message is not None and ctype in (CALLBACK_CHANNEL_MESSAGE, CALLBACK_UPDATE_MESSAGE):
            self._record_message_request(request, message, data)
        self._changed()
        if message is not None:
            event = "MESSAGE_UPDATE" if ctype == CALLBACK_UPDATE_MESSAGE else "MESSAGE_CREATE"
            await self._broadcast_message(event, message)
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
        if launching and self.launch_activity is not None:
            instance = self.launch_activity(inter.channel_id, inter.user.id)
            body["resource"] = {"type": ctype, "activity_instance": {"id": instance}}
        return _json_response(body)

    async def _h_followup(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        payload, uploads = await self._read_body(request)
        cb = inter.callback
        if cb is None or cb.type in (CALLBACK_AUTOCOMPLETE_RESULT, CALLBACK_MODAL):
            raise _ApiError(404, 10015, "Unknown Webhook")
        original = inter.original
        if (
            cb.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE
            and not inter._defer_consumed
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first followup after a type-5 defer edits the "thinking" message and
            # keeps the defer's ephemeral state (the followup's own ephemeral flag is ignored).
            # (_edit_from_payload never changes the ephemeral bit.)
            msg = self._edit_from_payload(original, payload, uploads)
            inter._defer_consumed = True
            event = "MESSAGE_UPDATE"
        else:
            ch = self.channel(inter.channel_id)
            msg = self._create_from_payload(
                ch,
                payload,
                uploads,
                allowed_flags=_INTERACTION_FLAGS,
                interaction=inter,
            )
            event = "MESSAGE_CREATE"
        inter.followups.append(msg)
        inter.log.append(("followup", msg.id))
        self._record_message_request(request, msg, payload)
        self._changed()
        await self._broadcast_message(event, msg)
        return _json_response(msg.payload())  # followups always behave as wait=true

    def _webhook_message(self, inter: InteractionResult, mid: str) -> RecordedMessage:
        cb = inter.callback
        if cb is None or cb.type in (CALLBACK_AUTOCOMPLETE_RESULT, CALLBACK_MODAL):
            raise _ApiError(404, 10008, "Unknown Message")
        if mid == "@original":
            msg = inter.original
        else:
            msg = self._messages.get(int(mid))
            if msg is not None and msg.interaction_id != inter.id and msg.id != inter.original_id:
                msg = None
        if msg is None or msg.deleted:
            raise _ApiError(404, 10008, "Unknown Message")
        return msg

    async def _h_webhook_get(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        return _json_response(self._webhook_message(inter, request.match_info["mid"]).payload())

    async def _h_webhook_edit(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        msg = self._webhook_message(inter, request.match_info["mid"])
        payload, uploads = await self._read_body(request)
        was_loading = msg.loading
        self._edit_from_payload(msg, payload, uploads)
        if was_loading:
            inter._defer_consumed = True
        inter.log.append(("edit", msg.id))
        self._record_message_request(request, msg, payload)
        self._changed()
        await self._broadcast_message("MESSAGE_UPDATE", msg)
        return _json_response(msg.payload())

    async def _h_webhook_delete(self, request: web.Request) -> web.Response:
        inter = self._interaction_for(request)
        msg = self._webhook_message(inter, request.match_info["mid"])
        self._delete_message(msg)
        inter.log.append(("delete", msg.id))
        await self._broadcast_message("MESSAGE_DELETE", msg)
        return web.Response(status=204)

    # ----- REST: channels and messages -------------------------------------------------------

    def _get_channel(self, request: web.Request) -> FakeChannel:
        ch = self._channels.get(int(request.match_info["channel_id"]))
        if ch is None or ch.deleted:
            raise _ApiError(404, 10003, "Unknown Channel")
        if ch.guild_id is not None and not (
            self.permissions_for(self.bot_user, ch) & PERM_VIEW_CHANNEL
        ):
            raise _ApiError(403, 50001, "Missing Access")
        return ch

    def _require(self, ch: FakeChannel, perms: int) -> None:
        have = self.permissions_for(self.bot_user, ch)
        if have & perms != perms:
            raise _ApiError(403, 50013, "Missing Permissions")

    def _channel_message(self, request: web.Request) -> tuple[FakeChannel, RecordedMessage]:
        ch = self._get_channel(request)
        msg = self._messages.get(int(request.match_info["mid"]))
        if msg is None or msg.channel_id != ch.id or msg.deleted or msg.ephemeral:
            raise _ApiError(404, 10008, "Unknown Message")
        return ch, msg

    async def _h_get_channel(self, request: web.Request) -> web.Response:
        return _json_response(self._get_channel(request).payload())

    async def _h_edit_channel(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        payload, _ = await self._read_body(request)
        if ch.is_thread:
            if ch.owner_id != self.bot_user.id:
                self._require(ch, PERM_MANAGE_THREADS)
        else:
            self._require(ch, PERM_MANAGE_CHANNELS)
        for key in ("name", "topic", "archived", "locked", "invitable", "auto_archive_duration"):
            if key in payload:
                setattr(ch, key, payload[key])
        if "position" in payload:
            ch.position = int(payload["position"])
        self._changed()
        event = "THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE"
        await self._broadcast(event, ch.payload(), INTENT_GUILDS)
        return _json_response(ch.payload())

    async def _h_delete_channel(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        if ch.type == CHANNEL_DM:
            return _json_response(ch.payload())
        self._require(ch, PERM_MANAGE_THREADS if ch.is_thread else PERM_MANAGE_CHANNELS)
        ch.deleted = True
        self._changed()
        data = ch.payload()
        if ch.is_thread:
            data = {k: data[k] for k in ("id", "guild_id", "parent_id", "type")}
        await self._broadcast(
            "THREAD_DELETE" if ch.is_thread else "CHANNEL_DELETE", data, INTENT_GUILDS
        )
        return _json_response(ch.payload())

    async def _h_list_messages(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        self._require(ch, PERM_READ_MESSAGE_HISTORY)
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = [m for m in self._channel_messages.get(ch.id, []) if not (m.deleted or m.ephemeral)]
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
        return _json_response([m.payload() for m in reversed(msgs)])

    async def _h_create_message(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        payload, uploads = await self._read_body(request)
        if ch.is_thread:
            self._require(ch, PERM_SEND_MESSAGES_IN_THREADS)
            if ch.locked and not self.permissions_for(self.bot_user, ch) & PERM_MANAGE_THREADS:
                raise _ApiError(403, 50083, "Thread is locked")
            ch.archived = False
        elif ch.guild_id is not None:
            self._require(ch, PERM_SEND_MESSAGES)
        if uploads and ch.guild_id is not None:
            self._require(ch, PERM_ATTACH_FILES)
        msg = self._create_from_payload(
            ch,
            payload,
            uploads,
            allowed_flags=_CHANNEL_FLAGS,
        )
        self._record_message_request(request, msg, payload)
        await self._broadcast_message("MESSAGE_CREATE", msg)
        return _json_response(msg.payload())

    async def _h_get_message(self, request: web.Request) -> web.Response:
        ch, msg = self._channel_message(request)
        if ch.guild_id is not None:
            self._require(ch, PERM_READ_MESSAGE_HISTORY)
        return _json_response(msg.payload())

    async def _h_edit_message(self, request: web.Request) -> web.Response:
        _, msg = self._channel_message(request)
        payload, uploads = await self._read_body(request)
        if msg.author_id != self.bot_user.id and (
            uploads or set(payload) & {"content", "embeds", "components", "attachments"}
        ):
            raise _ApiError(403, 50005, "Cannot edit a message authored by another user")
        self._edit_from_payload(msg, payload, uploads)
        self._record_message_request(request, msg, payload)
        await self._broadcast_message("MESSAGE_UPDATE", msg)
        return _json_response(msg.payload())

    async def _h_delete_message(self, request: web.Request) -> web.Response:
        ch, msg = self._channel_message(request)
        if msg.author_id != self.bot_user.id:
            if ch.guild_id is None:
                raise _ApiError(403, 50003, "Cannot execute action on a DM channel")
            self._require(ch, PERM_MANAGE_MESSAGES)
        self._delete_message(msg)
        await self._broadcast_message("MESSAGE_DELETE", msg)
        return web.Response(status=204)

    async def _h_bulk_delete(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        self._require(ch, PERM_MANAGE_MESSAGES)
        payload, _ = await self._read_body(request)
        ids = [int(i) for i in payload.get("messages", [])]
        if not 2 <= len(ids) <= 100:
            raise _form_error("messages", "Must be between 2 and 100 in length.")
        for mid in ids:
            msg = self._messages.get(mid)
            if msg is not None and msg.channel_id == ch.id and not msg.deleted:
                self._delete_message(msg)
                await self._broadcast_message("MESSAGE_DELETE", msg)
        return web.Response(status=204)

    async def _h_list_pins(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        pinned = [m for m in self._channel_messages.get(ch.id, []) if m.pinned and not m.deleted]
        if request.path.endswith("/messages/pins"):
            items = [{"pinned_at": _now_iso(), "message": m.payload()} for m in reversed(pinned)]
            return _json_response({"items": items, "has_more": False})
        return _json_response([m.payload() for m in reversed(pinned)])

    async def _h_pin(self, request: web.Request) -> web.Response:
        ch, msg = self._channel_message(request)
        if ch.guild_id is not None:
            self._require(ch, PERM_MANAGE_MESSAGES)
        msg.pinned = request.method == "PUT"
        self._changed()
        return web.Response(status=204)

    async def _h_reaction(self, request: web.Request) -> web.Response:
        ch, msg = self._channel_message(request)
        emoji = request.match_info["emoji"]
        who = request.match_info["who"]
        uid = self.bot_user.id if who == "@me" else int(who)
        users = msg.reactions.setdefault(emoji, set())
        if request.method == "PUT":
            if who != "@me":
                raise _ApiError(405, 0, "405: Method Not Allowed")
            if ch.guild_id is not None:
                self._require(ch, PERM_ADD_REACTIONS | PERM_READ_MESSAGE_HISTORY)
            users.add(uid)
        else:
            if uid != self.bot_user.id:
                self._require(ch, PERM_MANAGE_MESSAGES)
            users.discard(uid)
        self._changed()
        return web.Response(status=204)

    async def _h_clear_reactions(self, request: web.Request) -> web.Response:
        ch, msg = self._channel_message(request)
        self._require(ch, PERM_MANAGE_MESSAGES)
        emoji = request.match_info.get("emoji")
        if emoji is None:
            msg.reactions.clear()
        else:
            msg.reactions.pop(emoji, None)
        self._changed()
        return web.Response(status=204)

    def _new_thread(
        self,
        parent: FakeChannel,
        name: str,
        ttype: int,
        payload: Mapping[str, Any],
        thread_id: int | None = None,
    ) -> FakeChannel:
        if parent.type not in (CHANNEL_TEXT, CHANNEL_NEWS, CHANNEL_FORUM):
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        if not 1 <= len(name or "") <= 100:
            raise _form_error("name", "Must be 1-100 in length.")
        private = ttype == CHANNEL_PRIVATE_THREAD
        need = PERM_CREATE_PRIVATE_THREADS if private else PERM_CREATE_PUBLIC_THREADS
        self._require(parent, need | PERM_VIEW_CHANNEL)
        thread = FakeChannel(
            thread_id or self._ids.next(),
            ttype,
            name,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
            invitable=bool(payload.get("invitable", True)),
            member_ids={self.bot_user.id},
        )
        self.guilds[parent.guild_id].channels[thread.id] = thread  # type: ignore[index]
        self._channels[thread.id] = thread
        self._changed()
        return thread

    async def _announce_thread(self, thread: FakeChannel) -> dict[str, Any]:
        data = {**thread.payload(), "newly_created": True}
        data["member"] = {
            "id": str(thread.id),
            "user_id": str(self.bot_user.id),
            "join_timestamp": thread.created_at,
            "flags": 0,
        }
        await self._broadcast("THREAD_CREATE", data, INTENT_GUILDS)
        return thread.payload()

    async def _h_create_thread(self, request: web.Request) -> web.Response:
        parent = self._get_channel(request)
        payload, uploads = await self._read_body(request)
        if parent.type == CHANNEL_FORUM:
            name = payload.get("name", "")
            thread = self._new_thread(parent, name, CHANNEL_PUBLIC_THREAD, payload)
            starter = self._create_from_payload(
                thread,
                payload.get("message") or {},
                uploads,
                allowed_flags=_CHANNEL_FLAGS,
            )
            data = await self._announce_thread(thread)
            await self._broadcast_message("MESSAGE_CREATE", starter)
            return _json_response({**data, "message": starter.payload()}, 201)
        ttype = int(payload.get("type") or CHANNEL_PRIVATE_THREAD)
        thread = self._new_thread(parent, payload.get("name", ""), ttype, payload)
        return _json_response(await self._announce_thread(thread), 201)

    async def _h_thread_from_message(self, request: web.Request) -> web.Response:
        parent, msg = self._channel_message(request)
        payload, _ = await self._read_body(request)
        if msg.id in self._channels:
            raise _ApiError(400, 160004, "A thread has already been created for this message")
        thread = self._new_thread(
            parent, payload.get("name", ""), CHANNEL_PUBLIC_THREAD, payload, thread_id=msg.id
        )
        return _json_response(await self._announce_thread(thread), 201)

    async def _h_list_thread_members(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        return _json_response(
            [
                {"id": str(ch.id), "user_id": str(u), "join_timestamp": ch.created_at, "flags": 0}
                for u in sorted(ch.member_ids)
            ]
        )

    async def _h_thread_member(self, request: web.Request) -> web.Response:
        ch = self._get_channel(request)
        if not ch.is_thread:
            raise _ApiError(400, 50024, "Cannot execute action on this channel type")
        who = request.match_info["who"]
        uid = self.bot_user.id if who == "@me" else int(who)
        if request.method == "GET":
            if uid not in ch.member_ids:
                raise _ApiError(404, 10007, "Unknown Member")
            return _json_response(
                {"id": str(ch.id), "user_id": str(uid), "join_timestamp": ch.created_at, "flags": 0}
            )
        if request.method == "PUT":
            if uid not in self.guilds[ch.guild_id].members:  # type: ignore[index]
                raise _ApiError(404, 10007, "Unknown Member")
            ch.member_ids.add(uid)
        else:
            if uid != self.bot_user.id and ch.owner_id != self.bot_user.id:
                self._require(ch, PERM_MANAGE_THREADS)
            ch.member_ids.discard(uid)
        self._changed()
        return web.Response(status=204)

    # ----- REST: guilds ----------------------------------------------------------------------

    def _get_guild(self, request: web.Request) -> FakeGuild:
        g = self.guilds.get(int(request.match_info["guild_id"]))
        if g is None:
            raise _ApiError(404, 10004, "Unknown Guild")
        return g

    async def _h_get_guild(self, request: web.Request) -> web.Response:
        g = self._get_guild(request)
        data = self._guild_payload(g)
        if request.query.get("with_counts", "").lower() in ("1", "true"):
            data.update(approximate_member_count=len(g.members), approximate_presence_count=0)
        return _json_response(data)

    async def _h_guild_channels(self, request: web.Request) -> web.Response:
        g = self._get_guild(request)
        return _json_response(
            [c.payload() for c in g.channels.values() if not c.is_thread and not c.deleted]
        )

    async def _h_guild_roles(self, request: web.Request) -> web.Response:
        return _json_response([r.payload() for r in self._get_guild(request).roles.values()])

    async def _h_guild_members(self, request: web.Request) -> web.Response:
        g = self._get_guild(request)
        limit = max(1, min(1000, int(request.query.get("limit", 1))))
        after = int(request.query.get("after", 0))
        members = sorted((m for m in g.members.values() if m.id > after), key=lambda m: m.id)
        return _json_response([m.payload() for m in members[:limit]])

    async def _h_guild_member(self, request: web.Request) -> web.Response:
        g = self._get_guild(request)
        m = g.members.get(int(request.match_info["user_id"]))
        if m is None:
            raise _ApiError(404, 10007, "Unknown Member")
        return _json_response(m.payload())


__all__ = [
    "CHANNEL_CATEGORY",
    "CHANNEL_DM",
    "CHANNEL_FORUM",
    "CHANNEL_PRIVATE_THREAD",
    "CHANNEL_PUBLIC_THREAD",
    "CHANNEL_TEXT",
    "Callback",
    "ComponentInfo",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordTimeout",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUser",
    "FaultRule",
    "InteractionResult",
    "MessageRequest",
    "RecordedAttachment",
    "RecordedMessage",
    "RequestRecord",
    "flatten_components",
    "would_ping",
]
