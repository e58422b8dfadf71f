"""Setting the world up: a test adds guilds, channels, roles and members, and the bots that
are connected hear of each as Discord would tell them (GUILD_CREATE, CHANNEL_CREATE,
GUILD_ROLE_CREATE, GUILD_MEMBER_ADD).

Why apart from ``world``: the world holds what exists; this is how it changes while bots
listen. Imports the world and the fake's numbers; it announces through any ``Announcer``
(the gateway).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from tests.e2e.fake_discord.constants import (
    CHANNEL_CATEGORY,
    CHANNEL_TEXT,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILDS,
)
from tests.e2e.fake_discord.world import (
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    World,
)


class Announcer(Protocol):
    """Who tells the connected bots of a change (the gateway)."""

    def broadcast_later(self, event: str, data: Any, intent: int | None) -> None: ...

    def announce_guild(self, guild: FakeGuild) -> None: ...


class WorldSetup:
    """Adds to the world and announces each addition. A new guild comes as the fake has always
    made them: an @everyone role, the bot's managed role, a category of text channels, and its
    owner and the bot as members (or, ``with_bot=False``, without the bot and its role). The
    gateway announces nothing of a guild without the bot (``Gateway.broadcast``)."""

    def __init__(
        self,
        world: World,
        announcer: Announcer,
        *,
        bot_permissions: int,
        everyone_permissions: int,
    ) -> None:
        self._world = world
        self._announcer = announcer
        self.bot_permissions = bot_permissions
        self.everyone_permissions = everyone_permissions

    def add_guild(
        self,
        name: str,
        *,
        channels: Sequence[str] = ("general", "games"),
        owner: FakeUser | None = None,
        locale: str = "en-US",
        with_bot: bool = True,
    ) -> FakeGuild:
        """A new guild. ``with_bot=False``: a server that never added the app's bot (no bot
        member, no bot role): the bot's gateway never hears of it and its token reaches
        nothing there; its members reach the app only through a user install."""
        gid = self._world.ids.next()
        guild = FakeGuild(gid, name, (owner or self._world.owner).id, preferred_locale=locale)
        guild.roles[gid] = FakeRole(gid, gid, "@everyone", self.everyone_permissions, 0)
        bot_role: FakeRole | None = None
        if with_bot:
            bot_role = FakeRole(
                self._world.ids.next(),
                gid,
                self._world.bot_user.username,
                self.bot_permissions,
                1,
                managed=True,
                bot_id=self._world.bot_user.id,
            )
            guild.roles[bot_role.id] = bot_role
        self._world.guilds[gid] = guild
        category = self.add_channel(guild, "Text Channels", type=CHANNEL_CATEGORY)
        for ch in channels:
            self.add_channel(guild, ch, parent=category)
        guild.members[guild.owner_id] = FakeMember(self._world.users[guild.owner_id], gid)
        if bot_role is not None:
            guild.members[self._world.bot_user.id] = FakeMember(
                self._world.bot_user, gid, [bot_role.id]
            )
            self._announcer.announce_guild(guild)
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
        g = self._world.find_guild(guild)
        parent_id = parent.id if isinstance(parent, FakeChannel) else parent
        ch = FakeChannel(
            self._world.ids.next(),
            type,
            name,
            g.id,
            position=len(g.channels),
            parent_id=parent_id,
            topic=topic,
            permission_overwrites=[dict(o) for o in permission_overwrites],
        )
        g.channels[ch.id] = ch
        self._world.channels[ch.id] = ch
        self._announcer.broadcast_later("CHANNEL_CREATE", ch.payload(), INTENT_GUILDS)
        return ch

    def add_role(self, guild: FakeGuild | int | None, name: str, permissions: int = 0) -> FakeRole:
        g = self._world.find_guild(guild)
        role = FakeRole(self._world.ids.next(), g.id, name, permissions, len(g.roles))
        g.roles[role.id] = role
        self._announcer.broadcast_later(
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
        g = self._world.find_guild(guild)
        role_ids = [r.id if isinstance(r, FakeRole) else r for r in roles]
        if permissions:
            role = next(
                (r for r in g.roles.values() if r.name == f"perms-{permissions}"), None
            ) or self.add_role(g, f"perms-{permissions}", permissions)
            role_ids.append(role.id)
        member = FakeMember(user, g.id, role_ids, nick)
        g.members[user.id] = member
        self._announcer.broadcast_later(
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
        user = self._world.create_user(username, global_name=global_name)
        return self.add_member(guild, user, roles=roles, permissions=permissions, nick=nick)
