"""REST: the application's commands, global and per guild (list, bulk overwrite, create,
get, edit, delete, permissions), checked as Discord checks them before they are stored.

Imports the command store, the world, the checks, the wire format and Discord's contract.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.e2e.discord_contract import ContractViolation, check_bulk_overwrite
from tests.e2e.fake_discord.commands import Commands
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.validation import (
    unique_localized_names,
    validate_command,
    validate_command_installs,
)
from tests.e2e.fake_discord.wire import ApiError, form_error, json_response, read_body
from tests.e2e.fake_discord.world import World


class CommandRoutes:
    """The handlers of ``/applications/{app}/commands`` and its guild twin."""

    def __init__(self, commands: Commands, world: World, traffic: Traffic) -> None:
        self._commands = commands
        self._world = world
        self._traffic = traffic

    def _command_scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app_id"]) != self._world.application_id:
            raise ApiError(403, 50001, "Missing Access")
        gid = request.match_info.get("guild_id")
        if gid is None:
            return None
        if not self._world.bot_in_guild(int(gid)):
            # Unknown, or a guild that did not install the app: commands cannot go there.
            raise ApiError(403, 50001, "Missing Access")
        return int(gid)

    def _find_command(self, scope: int | None, cmd_id: str) -> dict[str, Any]:
        for c in self._commands.by_scope.get(scope, []):
            if c["id"] == cmd_id:
                return c
        raise ApiError(404, 10063, "Unknown application command")

    async def list_commands(self, request: web.Request) -> web.Response:
        return json_response(self._commands.by_scope.get(self._command_scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        payload, _ = await read_body(request)
        if not isinstance(payload, list):
            raise form_error("_root", "Must be an array.")
        if len(payload) > 100:
            raise form_error("_root", "Must be 100 or fewer in length.")
        keys = [(c.get("name"), int(c.get("type", 1))) for c in payload]
        if len(set(keys)) != len(keys):
            raise form_error("_root", "Application command names must be unique")
        unique_localized_names([c for c in payload if int(c.get("type", 1)) == 1], "commands")
        try:
            check_bulk_overwrite(
                self._commands.by_scope.get(scope, []), payload, guild=scope is not None
            )
        except ContractViolation as broken:
            raise ApiError(broken.status, broken.code, broken.message, broken.errors) from None
        existing = {(c["name"], c["type"]): c for c in self._commands.by_scope.get(scope, [])}
        self._commands.by_scope[scope] = [
            self._commands.store_command(scope, raw, existing) for raw in payload
        ]
        self._traffic.changed()
        return json_response(self._commands.by_scope[scope])

    async def post_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        raw, _ = await read_body(request)
        cmds = self._commands.by_scope.setdefault(scope, [])
        existing = {(c["name"], c["type"]): c for c in cmds}
        cmd = self._commands.store_command(scope, raw, existing)
        cmds[:] = [c for c in cmds if c["id"] != cmd["id"]] + [cmd]
        self._traffic.changed()
        updated = cmd["id"] in {c["id"] for c in existing.values()}
        return json_response(cmd, 200 if updated else 201)

    async def get_command(self, request: web.Request) -> web.Response:
        return json_response(
            self._find_command(self._command_scope(request), request.match_info["cmd_id"])
        )

    async def patch_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        cmd = self._find_command(scope, request.match_info["cmd_id"])
        patch, _ = await read_body(request)
        merged = {**cmd, **patch}
        validate_command(merged)
        if scope is None:
            validate_command_installs(merged, self._world.app_integration_types)
        cmd.update(patch)
        if cmd.get("integration_types") is None:
            cmd["integration_types"] = self._commands.default_integration_types(scope)
        cmd["version"] = str(self._world.ids.next())
        self._traffic.changed()
        return json_response(cmd)

    async def delete_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        cmd = self._find_command(scope, request.match_info["cmd_id"])
        self._commands.by_scope[scope].remove(cmd)
        self._traffic.changed()
        return web.Response(status=204)

    async def command_permissions(self, request: web.Request) -> web.Response:
        self._command_scope(request)
        return json_response([])
