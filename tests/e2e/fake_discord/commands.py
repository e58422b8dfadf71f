"""The application commands the app has, global and per guild, as Discord stores them (ids,
versions and defaults filled in); how a slash command's name finds its command.

Why apart from the routes: the bot syncs commands over REST, a test invokes them by name,
and Discord itself adds one (the Activity's Entry Point, ``add``). Imports the world, the
checks and the traffic log.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.validation import validate_command
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

    def resolve(self, guild_id: int | None, name: str) -> tuple[dict[str, Any], int | None] | None:
        if guild_id is not None:
            for c in self.by_scope.get(guild_id, []):
                if c["name"] == name and c.get("type", 1) == 1:
                    return c, guild_id
        for c in self.by_scope.get(None, []):
            if c["name"] == name and c.get("type", 1) == 1:
                return c, None
        return None
