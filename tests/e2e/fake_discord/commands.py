"""The application commands the app has, global and per guild, as Discord stores them (ids,
versions and defaults filled in, ``integration_types`` from the app's supported installation
contexts); how a command's name and type find its commands.

Why apart from the routes: the bot syncs commands over REST, a test invokes them by name,
and Discord itself adds one (the Activity's Entry Point, ``add``). Imports the world, the
fake's numbers, the checks and the traffic log.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tests.e2e.fake_discord.constants import COMMAND_CHAT_INPUT, GUILD_INSTALL
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.validation import validate_command, validate_command_installs
from tests.e2e.fake_discord.world import World


class Commands:
    """Stored commands by scope: a guild id, or None for the global ones."""

    def __init__(self, world: World, traffic: Traffic) -> None:
        self._world = world
        self._traffic = traffic
        self.by_scope: dict[int | None, list[dict[str, Any]]] = {}

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Synced commands (global when ``guild_id`` is None), as Discord stores them."""
        return copy.deepcopy(self.by_scope.get(guild_id, []))

    async def wait_for_commands(
        self, guild_id: int | None = None, *, names: Sequence[str] = (), timeout: float = 5.0
    ) -> list[dict[str, Any]]:
        def synced() -> list[dict[str, Any]] | None:
            cmds = self.by_scope.get(guild_id) or []
            have = {c["name"] for c in cmds}
            return cmds if cmds and all(n in have for n in names) else None

        await self._traffic.wait_for(synced, timeout, f"commands synced for guild {guild_id}")
        return self.commands(guild_id)

    def add(self, raw: Mapping[str, Any], guild_id: int | None = None) -> dict[str, Any]:
        """Store a command the bot did not sync: one Discord creates itself (the Activity's
        Entry Point, ``fake_oauth``), which the bot's bulk overwrites must then keep."""
        cmd = self.store_command(guild_id, raw, {})
        self.by_scope.setdefault(guild_id, []).append(cmd)
        return cmd

    def store_command(
        self, guild_id: int | None, raw: Mapping[str, Any], existing: dict[Any, dict[str, Any]]
    ) -> dict[str, Any]:
        validate_command(raw)
        if guild_id is None:
            validate_command_installs(raw, self._world.app_integration_types)
        ctype = int(raw.get("type", 1))
        old = existing.get((raw["name"], ctype))
        cmd = {
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "contexts": None,
            "name_localizations": None,
            "description_localizations": None,
            **copy.deepcopy(dict(raw)),
        }
        if cmd.get("integration_types") is None:
            cmd["integration_types"] = self.default_integration_types(guild_id)
        cmd.update(
            id=old["id"] if old else str(self._world.ids.next()),
            application_id=str(self._world.application_id),
            version=str(self._world.ids.next()),
            type=ctype,
            description=raw.get("description", ""),
        )
        if guild_id is not None:
            cmd["guild_id"] = str(guild_id)
        else:
            cmd.setdefault("dm_permission", True)
        return cmd

    def default_integration_types(self, guild_id: int | None) -> list[int]:
        """What Discord stores when a body names no ``integration_types``: for a global
        command "your app's configured contexts" (application-commands.mdx, Application
        Command Structure); for a guild command GUILD_INSTALL ("defaults to GUILD_INSTALL
        ([0])", Bulk Overwrite Guild Application Commands), where the field means nothing."""
        if guild_id is not None:
            return [GUILD_INSTALL]
        return sorted(self._world.app_integration_types)

    def resolve(
        self, guild_id: int | None, name: str, command_type: int = COMMAND_CHAT_INPUT
    ) -> list[tuple[dict[str, Any], int | None]]:
        """The commands named ``name`` of ``command_type`` a channel of ``guild_id`` (None: a
        DM) may show: the guild's own first, then the global one."""
        found: list[tuple[dict[str, Any], int | None]] = []
        for scope in ([guild_id] if guild_id is not None else []) + [None]:
            for c in self.by_scope.get(scope, []):
                if c["name"] == name and c.get("type", 1) == command_type:
                    found.append((c, scope))
        return found
