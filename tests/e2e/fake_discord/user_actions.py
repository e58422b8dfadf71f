"""What people do in Discord, as a test asks: run a slash command, a user command or a
message command, ask for autocomplete, press a button or pick in a select, submit a modal,
post a message. Each
becomes the gateway event Discord would send the bot, built from what the bot synced
(options are checked against the command's schema; a command Discord would not offer there
raises LookupError) and from the world (the interaction context, the installations that
authorise it, the member's permissions in the channel, resolved users, roles and channels).

Imports the world, the permission arithmetic, the installation rules, the commands, the
message store, the interactions, the gateway and the traffic log.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from tests.e2e.fake_discord.commands import Commands
from tests.e2e.fake_discord.constants import (
    ATTACHMENT_SIZE_LIMIT,
    CALLBACK_MODAL,
    COMMAND_MESSAGE,
    COMMAND_USER,
    COMPONENT_ACTION_ROW,
    COMPONENT_LABEL,
    COMPONENT_STRING_SELECT,
    COMPONENT_TEXT_INPUT,
    INTERACTION_APPLICATION_COMMAND,
    INTERACTION_AUTOCOMPLETE,
    INTERACTION_MESSAGE_COMPONENT,
    INTERACTION_MODAL_SUBMIT,
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
    SELECT_TYPES,
)
from tests.e2e.fake_discord.gateway import Gateway
from tests.e2e.fake_discord.installs import (
    answers_forced_ephemeral,
    app_permissions,
    can_see,
    channel_owners,
    command_owners,
    interaction_context,
    require_presence,
)
from tests.e2e.fake_discord.interactions import InteractionResult, Interactions
from tests.e2e.fake_discord.messages import MessageStore
from tests.e2e.fake_discord.permissions import (
    PERM_ALL,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
    permissions_for,
)
from tests.e2e.fake_discord.recorded import RecordedMessage
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.wire import Upload
from tests.e2e.fake_discord.world import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    World,
)


class UserActions:
    """The test-facing verbs that stand for people: each returns once Discord would have
    dispatched the event (an ``InteractionResult`` to wait on, or the posted message)."""

    def __init__(
        self,
        world: World,
        commands: Commands,
        store: MessageStore,
        interactions: Interactions,
        gateway: Gateway,
        traffic: Traffic,
    ) -> None:
        self._world = world
        self._commands = commands
        self._store = store
        self._interactions = interactions
        self._gateway = gateway
        self._traffic = traffic

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
        ch = self._world.channel(channel)
        u = self._world.find_user(user)
        data, full, owners = await self._command_data(
            ch, u, command, subcommand, options or {}, guild_id, timeout=timeout
        )
        payload = self._interaction_base(
            INTERACTION_APPLICATION_COMMAND, u, ch, data, locale=locale, owners=owners
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
        ch = self._world.channel(channel)
        u = self._world.find_user(user)
        data, full, owners = await self._command_data(
            ch,
            u,
            command,
            subcommand,
            options or {},
            guild_id,
            focused=focused,
            focused_value=value,
            timeout=timeout,
        )
        payload = self._interaction_base(
            INTERACTION_AUTOCOMPLETE, u, ch, data, locale=locale, owners=owners
        )
        result = await self._send_interaction(
            payload, user=u, channel=ch, command_name=full, timeout=timeout, session=session
        )
        cb = await result.response(timeout)
        return cb.choices

    async def user_command(
        self,
        user: FakeUser | FakeMember,
        channel: FakeChannel | int | str,
        name: str,
        target: FakeUser | FakeMember | int,
        *,
        guild_id: int | None = None,
        locale: str = "en-US",
        timeout: float = 5.0,
        session: int | None = None,
    ) -> InteractionResult:
        """Run the user command (type 2, a context menu's "Apps" entry) ``name`` on ``target``
        as ``user`` in ``channel``. ``data`` carries ``target_id`` and ``resolved.users`` (and
        ``resolved.members`` where the target is a member of the channel's guild), as
        application-commands.mdx's example interaction. Raises LookupError where Discord would
        not offer the command, PermissionError where it would refuse it ("A user must have
        permission to send text messages in the channel they invoke a user command in")."""
        ch = self._world.channel(channel)
        u = self._world.find_user(user)
        t = self._world.find_user(target)
        gid = guild_id if guild_id is not None else ch.guild_id
        found = await self._traffic.wait_for(
            lambda: self._commands.resolve(gid, name, COMMAND_USER) or None,
            timeout,
            f"user command {name!r} to be synced (guild {gid})",
        )
        cmd, scope, owners = self._offered(found, u, ch)
        guild = self._world.guilds.get(ch.guild_id) if ch.guild_id is not None else None
        if guild is None:
            # One can only right-click who is in the DM (the bot too, in its own DM): an
            # inference from where the client shows a user.
            present = {r.id for r in ch.recipients}
            if self._world.is_bot_dm(ch):
                present.add(self._world.bot_user.id)
            if t.id not in present:
                raise LookupError(f"{t.username} is not in DM channel {ch.id}")
        else:
            need = PERM_SEND_MESSAGES_IN_THREADS if ch.is_thread else PERM_SEND_MESSAGES
            if not permissions_for(self._world, u, ch) & need:
                raise PermissionError(f"{u.username} may not send messages in {ch.name!r}")
        resolved: dict[str, dict[str, Any]] = {"users": {str(t.id): t.payload()}}
        if guild is not None and t.id in guild.members:
            resolved["members"] = {
                str(t.id): guild.members[t.id].payload(
                    with_user=False, permissions=permissions_for(self._world, t, ch)
                )
            }
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": COMMAND_USER,
            "target_id": str(t.id),
            "resolved": resolved,
        }
        if scope is not None:
            data["guild_id"] = str(scope)
        payload = self._interaction_base(
            INTERACTION_APPLICATION_COMMAND, u, ch, data, locale=locale, owners=owners
        )
        return await self._send_interaction(
            payload, user=u, channel=ch, command_name=name, timeout=timeout, session=session
        )

    async def message_command(
        self,
        user: FakeUser | FakeMember,
        message: RecordedMessage | int,
        name: str,
        *,
        locale: str = "en-US",
        timeout: float = 5.0,
        session: int | None = None,
    ) -> InteractionResult:
        """Run the message command (type 3, "Apps > ``name``" on a message) on a stored
        ``message`` as ``user``, in the message's channel. ``data`` carries ``target_id``
        and ``resolved.messages``, the message as Discord would send it, as
        application-commands.mdx's example interaction. Raises LookupError where Discord
        would not offer the command (or the message is gone), PermissionError where the
        user cannot see the message."""
        mid = message if isinstance(message, int) else message.id
        msg = self._store.by_id.get(mid)
        if msg is None or msg.deleted:
            raise LookupError(f"message {mid} does not exist (or was deleted)")
        u = self._world.find_user(user)
        if msg.ephemeral and msg.interaction_user_id not in (None, u.id):
            raise PermissionError(f"{u.username} cannot see ephemeral message {mid}")
        ch = self._world.channel(msg.channel_id)
        found = await self._traffic.wait_for(
            lambda: self._commands.resolve(ch.guild_id, name, COMMAND_MESSAGE) or None,
            timeout,
            f"message command {name!r} to be synced (guild {ch.guild_id})",
        )
        cmd, scope, owners = self._offered(found, u, ch)
        data: dict[str, Any] = {
            "id": cmd["id"],
            "name": cmd["name"],
            "type": COMMAND_MESSAGE,
            "target_id": str(msg.id),
            "resolved": {"messages": {str(msg.id): msg.payload()}},
        }
        if scope is not None:
            data["guild_id"] = str(scope)
        payload = self._interaction_base(
            INTERACTION_APPLICATION_COMMAND, u, ch, data, locale=locale, owners=owners
        )
        return await self._send_interaction(
            payload, user=u, channel=ch, command_name=name, timeout=timeout, session=session
        )

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
        msg = self._store.by_id.get(mid)
        if msg is None or msg.deleted:
            raise LookupError(f"message {mid} does not exist (or was deleted)")
        comp = msg.component(custom_id)
        if comp.disabled:
            raise ValueError(f"component {custom_id!r} is disabled")
        u = self._world.find_user(user)
        ch = self._world.channel(msg.channel_id)
        # "Message component interactions can be triggered by any user the component is
        # visible to, regardless of the installation context" (the user-install tutorial).
        if not can_see(self._world, u, ch):
            raise PermissionError(f"{u.username} cannot see channel {ch.id} (message {mid})")
        if msg.ephemeral and msg.interaction_user_id not in (None, u.id):
            raise PermissionError(f"{u.username} cannot see ephemeral message {mid}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp.type}
        if comp.type in SELECT_TYPES:
            picked = list(values or [])
            if comp.type == COMPONENT_STRING_SELECT:
                allowed = [o["value"] for o in comp.options]
                bad = [v for v in picked if v not in allowed]
                if bad:
                    raise ValueError(f"values {bad} not among select options {allowed}")
            data["values"] = picked
        elif values is not None:
            raise ValueError("values= only applies to select menus")
        # The press is authorised as the message's interaction was (or, for a message the
        # bot posted with its token, by the guild install that let it post there).
        owners = msg.authorizing_integration_owners
        if owners is None:
            owners = channel_owners(self._world, ch)
        payload = self._interaction_base(
            INTERACTION_MESSAGE_COMPONENT, u, ch, data, locale=locale, message=msg, owners=owners
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
            if t in SELECT_TYPES:
                return {"type": t, "custom_id": c.get("custom_id"), "values": []}
            return {"type": t, "id": c.get("id")}

        data = {"custom_id": cb.custom_id, "components": [convert(c) for c in cb.components]}
        u = self._world.find_user(user)
        ch = self._world.channel(opened_by.channel_id)
        source = self._store.by_id.get(opened_by.source_message_id or 0)
        # Authorised as the interaction that opened the modal was (the command's, or the
        # pressed message's).
        payload = self._interaction_base(
            INTERACTION_MODAL_SUBMIT,
            u,
            ch,
            data,
            locale=locale,
            message=source,
            owners=opened_by.owners,
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
        """A human posts a message (dispatched as MESSAGE_CREATE, honouring intents; never
        for a DM or group DM between people, nor a guild without the bot)."""
        u = self._world.find_user(user)
        ch = self._world.channel(channel)
        if not self._world.bot_can_access(ch):
            require_presence(self._world, u, ch)
        msg = self._store.store_message(ch, author=u, content=content)
        await self._gateway.broadcast_message("MESSAGE_CREATE", msg)
        return msg

    # ----- building and sending interactions -------------------------------------------------

    def _interaction_base(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        locale: str,
        owners: Mapping[str, str],
        message: RecordedMessage | None = None,
    ) -> dict[str, Any]:
        """The INTERACTION_CREATE payload: in a guild (with the bot or not) ``guild_id``,
        ``guild``, ``guild_locale`` and ``member``; in a DM or group DM ``user``; ``context``
        from the channel and ``authorizing_integration_owners`` as ``owners``."""
        iid = self._world.ids.next()
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self._world.application_id),
            "type": itype,
            "data": data,
            "token": f"fake-itoken-{iid}-{secrets.token_hex(8)}",
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "app_permissions": str(app_permissions(self._world, channel)),
            "channel_id": str(channel.id),
            "channel": {
                **channel.payload(),
                "permissions": str(permissions_for(self._world, user, channel)),
            },
            "context": interaction_context(self._world, channel),
            "authorizing_integration_owners": dict(owners),
        }
        if channel.guild_id is not None:
            g = self._world.guilds[channel.guild_id]
            member = g.members.get(user.id)
            if member is None:
                raise LookupError(f"{user.username} is not a member of guild {g.name!r}")
            payload.update(
                guild_id=str(g.id),
                guild={"id": str(g.id), "locale": g.preferred_locale, "features": []},
                guild_locale=g.preferred_locale,
                member=member.payload(permissions=permissions_for(self._world, user, channel)),
            )
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = message.payload()
        return payload

    def _offered(
        self,
        found: Sequence[tuple[dict[str, Any], int | None]],
        user: FakeUser,
        channel: FakeChannel,
    ) -> tuple[dict[str, Any], int | None, dict[str, str]]:
        """The first of the commands found (the guild's, then the global one) that Discord
        would offer ``user`` in ``channel``, with the owners that authorise it; LookupError
        saying why for each when none is."""
        reasons: list[str] = []
        for cmd, scope in found:
            try:
                owners = command_owners(self._world, cmd, scope, user, channel)
            except LookupError as refused:
                reasons.append(str(refused))
                continue
            return cmd, scope, owners
        raise LookupError("; ".join(reasons))

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
            payload,
            user=user,
            channel=channel,
            guild_id=channel.guild_id,
            messages=self._store.by_id,
            traffic=self._traffic,
            rules=self._interactions.rules,
            source_message_id=source_message_id,
            command_name=command_name,
            parent=parent,
        )
        result.force_ephemeral = answers_forced_ephemeral(self._world, user, channel, result.owners)
        self._interactions.add(result)
        what = "a connected bot" if session is None else f"live gateway session #{session}"
        sess = await self._traffic.wait_for(
            lambda: self._gateway.interaction_session(session, channel.guild_id), timeout, what
        )
        result.session_index = sorted(self._gateway.sessions, key=lambda s: s.ready_index).index(
            sess
        )
        result.dispatched_at = asyncio.get_running_loop().time()
        self._traffic.gateway_log.append(("INTERACTION_CREATE", payload))
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
            user = self._world.find_user(value)
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            if guild is not None and user.id in guild.members:
                member = guild.members[user.id]
                perms = permissions_for(self._world, user, channel)
                resolved.setdefault("members", {})[str(user.id)] = member.payload(
                    with_user=False, permissions=perms
                )
            value = str(user.id)
        elif otype in (OPT_ROLE, OPT_MENTIONABLE):
            role = value if isinstance(value, FakeRole) else guild.roles[int(value)]  # type: ignore[union-attr]
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            value = str(role.id)
        elif otype == OPT_CHANNEL:
            ch = self._world.channel(value)
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
            att = self._store.new_attachment(Upload(0, filename, data), 0)
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
        user: FakeUser,
        command: str,
        subcommand: str | None,
        options: Mapping[str, Any],
        guild_id: int | None,
        *,
        focused: str | None = None,
        focused_value: Any = None,
        timeout: float,
    ) -> tuple[dict[str, Any], str, dict[str, str]]:
        """The command's ``data`` (options checked against its schema), its full name, and the
        owners that authorise ``user`` to run it in ``channel`` (LookupError if none do)."""
        gid = guild_id if guild_id is not None else channel.guild_id
        found = await self._traffic.wait_for(
            lambda: self._commands.resolve(gid, command) or None,
            timeout,
            f"command /{command} to be synced (guild {gid})",
        )
        cmd, scope, owners = self._offered(found, user, channel)
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
        guild = self._world.guilds.get(channel.guild_id) if channel.guild_id else None
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
        return data, " ".join([command, *path]), owners
