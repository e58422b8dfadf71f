r"""A local fake Discord (REST API + websocket gateway) for end-to-end tests.

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
- ``fake.add_role(guild, name, permissions) -> FakeRole``, ``fake.dm_channel(user)`` (the
  bot's own DM with ``user``).
  Permissions are role based, so ``Member.guild_permissions`` and ``interaction.permissions``
  agree; the interaction's ``member.permissions``/``app_permissions`` are computed per channel.

Where the app is installed (user installs, DMs between people, servers without the bot)
----------------------------------------------------------------------------------------
- ``fake.app_integration_types`` (a set, default ``{GUILD_INSTALL, USER_INSTALL}`` = ``{0, 1}``,
  settable): the installation contexts the app supports. A global command that names no
  ``integration_types`` is stored with these; one naming another is refused (below).
- ``fake.install_for_user(user)``: ``user`` installs the app to their account (USER_INSTALL);
  ``fake.user_installs`` is the set of their ids. A guild is guild-installed when the bot is
  a member: every guild ``FakeDiscord(guilds=...)``/``add_guild`` makes, unless
  ``fake.add_guild(name, ..., with_bot=False)``: no bot member, no bot role, never in READY nor
  announced (no GUILD_CREATE, CHANNEL_CREATE, GUILD_MEMBER_ADD... about it, nor op 8 chunks);
  ``fake.add_member(guild, user)`` still adds people.
- ``fake.private_dm(user_a, user_b) -> FakeChannel``: the DM between two people (type 1, both
  in ``recipients``; one per pair). ``fake.group_dm(owner, *users, name=None) -> FakeChannel``:
  a new group DM (type 3, ``recipients``, ``owner_id``, ``name``; 2 to 10 people). The bot is
  in neither.
- The bot's token reaches nothing in a DM or group DM between people, nor in a guild without
  it: every channel, message, pin, reaction, typing and thread route on those channels, every
  ``/guilds/{id}...`` route and the guild's command routes answer 403 ``{"code": 50001,
  "message": "Missing Access"}`` (the docs name no answer: the stricter plausible one). The
  gateway sends the bot no MESSAGE_CREATE/UPDATE/DELETE of them, even of the messages that
  answer its interactions there. The interaction's webhooks (callback, followups, edits) work
  everywhere.
- Which commands a person may run where (``slash``, ``autocomplete``, ``user_command`` raise
  LookupError saying why where Discord would not even offer the command; the user must also
  be a member of the channel's guild or a recipient of its (group) DM):
  a guild command (synced to a guild id) only in that guild and only while the bot is in it
  (its ``contexts``/``integration_types`` are ignored); a global command only in a context its
  ``contexts`` allow (null: all; null with ``dm_permission: false``: not the bot's DM) and
  through an installation its ``integration_types`` allow: the guild's install in a guild
  with the bot, and in the bot's DM; the user's own install (``install_for_user``) anywhere,
  and in a DM or group DM between people or a guild without the bot only that.
- The payload's ``context``: 0 a guild channel (with the bot or not), 1 the bot's DM, 2 any
  other DM or group DM. ``authorizing_integration_owners`` (string values): ``"0"`` when the
  guild install authorises it (the guild id; ``"0"`` in the bot's DM), ``"1"`` when the
  invoker's own install does (their id; never for a guild command). A component press or a
  modal submit carries the owners of the interaction that created the message (or opened
  the modal); a message the bot posted with its token, the guild install's. In a guild (with
  the bot or not): ``guild_id``, ``guild``, ``guild_locale``, ``member`` (with
  ``permissions``); in a (group) DM: ``user``. ``app_permissions``: the bot member's in a guild
  with the bot; ``ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE`` in a DM or group DM between
  people and (an inference) in a guild without the bot; plus ``USE_EXTERNAL_EMOJIS`` in the
  bot's DM (``"442368"``, the docs' own sample).
- Use External Apps (``PERM_USE_EXTERNAL_APPS``, 1 << 50, in the @everyone defaults): in a
  guild without the bot, when the invoking member lacks it in the channel, every message the
  interaction creates (a type 4 response, a type 5 deferral's message, followups) is
  ephemeral whatever the bot asked (``r.force_ephemeral``).
- An interaction whose owners hold ``"1"`` alone may create 5 followups (every accepted
  ``POST /webhooks/{app}/{token}`` counts, the one that fills in a deferral's message too);
  the sixth is answered 400 ``{"code": 40094, "message": "This interaction has hit the maximum
  number of follow up messages"}``, has no effect and lands in ``r.errors`` and
  ``fake.errors``.

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
- ``await fake.user_command(user, channel, "Challenge", target, guild_id=None)``: the user
  command (type 2, a user's context menu) ``name`` run on ``target`` (FakeUser/FakeMember/id):
  ``data`` has ``type: 2``, ``target_id``, ``resolved.users`` and, where the target is a
  member of the channel's guild, ``resolved.members`` (with ``permissions``). In a (group) DM
  the target must be in it; in a guild the invoker needs SEND_MESSAGES (PermissionError). Its
  answer is a CONTEXT_MENU_COMMAND message (type 23) whose ``interaction_metadata`` has
  ``command_type: 2`` and ``target_user``.
- ``await fake.message_command(user, message, "Analyse this position")``: the message command
  (type 3, a message's context menu) ``name`` run on a stored ``message`` in its channel:
  ``data`` has ``type: 3``, ``target_id`` and ``resolved.messages`` (the message's payload).
- ``await fake.click(user, message, custom_id, values=None)`` for buttons/selects on a stored
  message (raises if the component is missing/disabled; PermissionError if the message is
  someone else's ephemeral or ``user`` cannot see its channel: not a recipient of its (group)
  DM, not a member of its guild or without VIEW_CHANNEL). Anyone who sees it may press it,
  whether they installed the app or not.
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
``interaction_deadline``); ``r.payload`` (what was dispatched), ``r.context``, ``r.owners``
(its ``authorizing_integration_owners``), ``r.force_ephemeral``, ``r.followup_posts``;
``await r.wait_for(lambda r: ...)``. Generic waiting:
``await fake.wait_for(lambda: ..., timeout, what)`` wakes on every request/gateway event the fake
sees (plus a 0.1 s re-check for predicates over outside state such as ``bot.is_ready()``); on
timeout the error lists recent 4xx answers and unknown routes.
The acting user must be a member of the channel's guild (``create_member``) or a recipient of
its (group) DM, else LookupError.

Messages
--------
Every message (interaction responses, followups, channel sends) is a ``RecordedMessage``:
``id``, ``channel_id``, ``content``, ``embeds``, ``components`` (raw), ``buttons`` /
``interactive`` (flattened ``ComponentInfo`` with ``custom_id``, ``label``, ``disabled``...),
``attachments`` (``RecordedAttachment`` with ``data`` bytes, ``filename``), ``ephemeral``,
``loading``, ``deleted``, ``history`` (previous versions), ``interaction_id``,
``authorizing_integration_owners`` (of the interaction that created it; None if the bot posted
it with its token).
``fake.messages_in(channel, ephemeral=None, include_deleted=False)``, ``fake.last_message(...)``,
``fake.message(id)``, ``await fake.wait_for_message(channel, predicate)``,
``fake.visible_messages(user, channel)`` (what ``user`` sees there: the public messages and
the ephemeral answers to their own interactions; PermissionError if they cannot see it).

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

- interaction callback: ``("POST", r"/interactions/\d+/[^/]+/callback$")``
- followup: ``("POST", r"/webhooks/\d+/[^/]+$")``; edit of the response:
  ``("PATCH", r"/webhooks/\d+/[^/]+/messages/@original$")``
- channel message: ``("POST", r"/channels/\d+/messages$")``; login: ``("GET", "/users/@me$")``

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
4000 and 6000); a global command whose ``integration_types`` name an installation context the
app does not support (``fake.app_integration_types``), or whose ``contexts`` include
PRIVATE_CHANNEL (2) without USER_INSTALL (1) in its ``integration_types`` (its own or, when it
names none, the app's); a user or message command (type 2, 3) with a description or options.
A body Discord would refuse is answered 400 with Discord's error body,
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

Where things live
-----------------
``tests/e2e/fake_discord/`` is a package; each module has one job and its docstring says
which, and what it may import. ``FakeDiscord`` (``facade``) builds the others and hands each
the parts it needs:

- ``world``: users, guilds, roles, members and channels (the dataclasses) and the ``World``
  that holds them, with where the app is installed; ``world_setup``: adding to it while bots
  listen; ``permissions``: the bits and the arithmetic; ``installs``: interaction contexts,
  which installation authorises what where, who sees a channel, ``app_permissions`` outside
  the bot's guilds, and the answers Discord forces ephemeral.
- ``user_actions``: what people do (``slash``, ``click``, ``submit_modal``...);
  ``interactions``: one interaction's record (``InteractionResult``) and Discord's timing.
- ``messages``: the message store (create, edit, delete, files, mentions); ``recorded``: the
  recorded values; ``mentions``: ``would_ping``; ``validation``: Discord's limits.
- ``commands``: the application commands the app has.
- ``gateway``: sessions, the websocket protocol, and what is dispatched to whom.
- ``server``: where the fake listens and the gate every request passes (the log, faults,
  rate limits, the token); ``routes``: the route table; ``rest_identity``,
  ``rest_commands``, ``rest_interactions``, ``rest_channels`` (and ``channel_access``),
  ``rest_threads``, ``rest_guilds``, ``cdn``: the handlers, by section of Discord's API.
- ``traffic``: what the fake saw, and ``wait_for``; ``faults``: fault injection; ``wire``:
  JSON answers, Discord's error answers, request bodies; ``constants`` and ``clock``:
  Discord's numbers and time.

Beside the package: ``discord_contract`` (the OpenAPI checks), ``fake_ratelimit`` (the rate
limits) and ``fake_oauth`` (the Activity's OAuth2 and instances).
"""

from __future__ import annotations

from tests.e2e.fake_discord.clock import DISCORD_EPOCH_MS
from tests.e2e.fake_discord.constants import (
    ATTACHMENT_SIZE_LIMIT,
    CALLBACK_AUTOCOMPLETE_RESULT,
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_LAUNCH_ACTIVITY,
    CALLBACK_MODAL,
    CALLBACK_PONG,
    CALLBACK_UPDATE_MESSAGE,
    CHANNEL_CATEGORY,
    CHANNEL_DM,
    CHANNEL_FORUM,
    CHANNEL_GROUP_DM,
    CHANNEL_NEWS,
    CHANNEL_NEWS_THREAD,
    CHANNEL_PRIVATE_THREAD,
    CHANNEL_PUBLIC_THREAD,
    CHANNEL_TEXT,
    CHANNEL_VOICE,
    COMMAND_CHAT_INPUT,
    COMMAND_MESSAGE,
    COMMAND_USER,
    COMPONENT_ACTION_ROW,
    COMPONENT_BUTTON,
    COMPONENT_LABEL,
    COMPONENT_STRING_SELECT,
    COMPONENT_TEXT_INPUT,
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    GUILD_INSTALL,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_PRESENCES,
    INTENT_GUILDS,
    INTENT_MESSAGE_CONTENT,
    INTERACTION_APPLICATION_COMMAND,
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_MESSAGE_COMPONENT,
    INTERACTION_MODAL_SUBMIT,
    INTERACTION_PING,
    OPT_ATTACHMENT,
    OPT_BOOLEAN,
    OPT_CHANNEL,
    OPT_INTEGER,
    OPT_MENTIONABLE,
    OPT_NUMBER,
    OPT_ROLE,
    OPT_STRING,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    OPT_USER,
    THREAD_TYPES,
    USER_INSTALL,
)
from tests.e2e.fake_discord.facade import FakeDiscord
from tests.e2e.fake_discord.faults import FaultRule
from tests.e2e.fake_discord.gateway import HEARTBEAT_ACK_DELAY
from tests.e2e.fake_discord.interactions import InteractionResult
from tests.e2e.fake_discord.mentions import MessageRequest, would_ping
from tests.e2e.fake_discord.permissions import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    PERM_ADD_REACTIONS,
    PERM_ADMINISTRATOR,
    PERM_ALL,
    PERM_ATTACH_FILES,
    PERM_BAN_MEMBERS,
    PERM_CHANGE_NICKNAME,
    PERM_CREATE_INSTANT_INVITE,
    PERM_CREATE_PRIVATE_THREADS,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_EMBED_LINKS,
    PERM_KICK_MEMBERS,
    PERM_MANAGE_CHANNELS,
    PERM_MANAGE_GUILD,
    PERM_MANAGE_MESSAGES,
    PERM_MANAGE_ROLES,
    PERM_MANAGE_THREADS,
    PERM_MENTION_EVERYONE,
    PERM_READ_MESSAGE_HISTORY,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
    PERM_USE_APPLICATION_COMMANDS,
    PERM_USE_EXTERNAL_APPS,
    PERM_USE_EXTERNAL_EMOJIS,
    PERM_VIEW_CHANNEL,
)
from tests.e2e.fake_discord.recorded import (
    Callback,
    ComponentInfo,
    RecordedAttachment,
    RecordedMessage,
    RequestRecord,
    flatten_components,
)
from tests.e2e.fake_discord.traffic import FakeDiscordTimeout
from tests.e2e.fake_discord.validation import DISCORD_LOCALES, validate_components
from tests.e2e.fake_discord.wire import ApiError
from tests.e2e.fake_discord.world import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser

# tests/e2e/test_picker.py checks the fake's own select option rule directly, by the
# names these had when the fake was one module.
_ApiError = ApiError
_validate_components = validate_components

__all__ = [
    "ATTACHMENT_SIZE_LIMIT",
    "CALLBACK_AUTOCOMPLETE_RESULT",
    "CALLBACK_CHANNEL_MESSAGE",
    "CALLBACK_DEFERRED_CHANNEL_MESSAGE",
    "CALLBACK_DEFERRED_UPDATE_MESSAGE",
    "CALLBACK_LAUNCH_ACTIVITY",
    "CALLBACK_MODAL",
    "CALLBACK_PONG",
    "CALLBACK_UPDATE_MESSAGE",
    "CHANNEL_CATEGORY",
    "CHANNEL_DM",
    "CHANNEL_FORUM",
    "CHANNEL_GROUP_DM",
    "CHANNEL_NEWS",
    "CHANNEL_NEWS_THREAD",
    "CHANNEL_PRIVATE_THREAD",
    "CHANNEL_PUBLIC_THREAD",
    "CHANNEL_TEXT",
    "CHANNEL_VOICE",
    "COMMAND_CHAT_INPUT",
    "COMMAND_MESSAGE",
    "COMMAND_USER",
    "COMPONENT_ACTION_ROW",
    "COMPONENT_BUTTON",
    "COMPONENT_LABEL",
    "COMPONENT_STRING_SELECT",
    "COMPONENT_TEXT_INPUT",
    "CONTEXT_BOT_DM",
    "CONTEXT_GUILD",
    "CONTEXT_PRIVATE_CHANNEL",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "DISCORD_EPOCH_MS",
    "DISCORD_LOCALES",
    "FLAG_COMPONENTS_V2",
    "FLAG_EPHEMERAL",
    "FLAG_LOADING",
    "FLAG_SUPPRESS_EMBEDS",
    "FLAG_SUPPRESS_NOTIFICATIONS",
    "GUILD_INSTALL",
    "HEARTBEAT_ACK_DELAY",
    "INTENT_DIRECT_MESSAGES",
    "INTENT_GUILDS",
    "INTENT_GUILD_MEMBERS",
    "INTENT_GUILD_MESSAGES",
    "INTENT_GUILD_PRESENCES",
    "INTENT_MESSAGE_CONTENT",
    "INTERACTION_APPLICATION_COMMAND",
    "INTERACTION_AUTOCOMPLETE",
    "INTERACTION_MESSAGE_COMPONENT",
    "INTERACTION_MODAL_SUBMIT",
    "INTERACTION_PING",
    "OPT_ATTACHMENT",
    "OPT_BOOLEAN",
    "OPT_CHANNEL",
    "OPT_INTEGER",
    "OPT_MENTIONABLE",
    "OPT_NUMBER",
    "OPT_ROLE",
    "OPT_STRING",
    "OPT_SUB_COMMAND",
    "OPT_SUB_COMMAND_GROUP",
    "OPT_USER",
    "PERM_ADD_REACTIONS",
    "PERM_ADMINISTRATOR",
    "PERM_ALL",
    "PERM_ATTACH_FILES",
    "PERM_BAN_MEMBERS",
    "PERM_CHANGE_NICKNAME",
    "PERM_CREATE_INSTANT_INVITE",
    "PERM_CREATE_PRIVATE_THREADS",
    "PERM_CREATE_PUBLIC_THREADS",
    "PERM_EMBED_LINKS",
    "PERM_KICK_MEMBERS",
    "PERM_MANAGE_CHANNELS",
    "PERM_MANAGE_GUILD",
    "PERM_MANAGE_MESSAGES",
    "PERM_MANAGE_ROLES",
    "PERM_MANAGE_THREADS",
    "PERM_MENTION_EVERYONE",
    "PERM_READ_MESSAGE_HISTORY",
    "PERM_SEND_MESSAGES",
    "PERM_SEND_MESSAGES_IN_THREADS",
    "PERM_USE_APPLICATION_COMMANDS",
    "PERM_USE_EXTERNAL_APPS",
    "PERM_USE_EXTERNAL_EMOJIS",
    "PERM_VIEW_CHANNEL",
    "THREAD_TYPES",
    "USER_INSTALL",
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
