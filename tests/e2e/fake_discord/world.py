"""The world the fake Discord holds: users, guilds with their roles, members and channels
(threads and DMs too), and the application's own identity, as plain dataclasses that know
their Discord payloads; ``World`` holds them all and resolves what a test passes (an object,
an id, a name) to the thing itself.

Changes that connected bots must hear of (a new guild, channel, role or member) go through
``world_setup``; this module announces nothing. Imports only the fake's numbers and clock.
"""

from __future__ import annotations

import contextlib
import copy
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.fake_discord.clock import Snowflakes, now_iso
from tests.e2e.fake_discord.constants import (
    CHANNEL_DM,
    CHANNEL_FORUM,
    CHANNEL_GROUP_DM,
    CHANNEL_TEXT,
    CHANNEL_VOICE,
    GUILD_INSTALL,
    THREAD_TYPES,
    USER_INSTALL,
)


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
    joined_at: str = field(default_factory=now_iso)

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
    """A guild channel, thread, DM channel (the bot's, or one between two people) or group
    DM."""

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
    created_at: str = field(default_factory=now_iso)
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
        if self.type == CHANNEL_GROUP_DM:  # channel.mdx, "Example Group DM Channel"
            return {
                "id": str(self.id),
                "type": CHANNEL_GROUP_DM,
                "name": self.name,
                "icon": None,
                "owner_id": str(self.owner_id),
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
    joined_at: str = field(default_factory=now_iso)
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

    def payload(self) -> dict[str, Any]:
        system = next(iter(self.text_channels), None)
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
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
            "preferred_locale": self.preferred_locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
        }


class World:
    """Who and what exists, by id; the bot user, the app's owner and the application id are
    made first, in that order, as the fake always has. Also where the app is installed: to
    every guild its bot is a member of, and to the users who installed it themselves."""

    def __init__(self, ids: Snowflakes, *, bot_name: str) -> None:
        self.ids = ids
        self.users: dict[int, FakeUser] = {}
        self.bot_user = self.create_user(bot_name, bot=True)
        self.owner = self.create_user("app-owner", global_name="App Owner")
        self.application_id = self.ids.next()
        self.guilds: dict[int, FakeGuild] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        # DMs between two people (not the bot), by the pair's ids; group DMs are only in
        # ``channels``.
        self.private_dms: dict[frozenset[int], FakeChannel] = {}
        # Every channel by id: guild channels, threads, DM and group DM channels.
        self.channels: dict[int, FakeChannel] = {}
        # The installation contexts the app supports (its settings' "Installation Contexts");
        # new apps support both since June 2024 (change-log, "Updated Defaults for New Apps").
        self.app_integration_types: set[int] = {GUILD_INSTALL, USER_INSTALL}
        # The users who installed the app to their account (USER_INSTALL).
        self.user_installs: set[int] = set()

    def create_user(
        self, username: str, *, global_name: str | None = None, bot: bool = False
    ) -> FakeUser:
        user = FakeUser(self.ids.next(), username, global_name, bot)
        self.users[user.id] = user
        return user

    def dm_channel(self, user: FakeUser | FakeMember | int) -> FakeChannel:
        u = self.find_user(user)
        ch = self.dm_channels.get(u.id)
        if ch is None:
            ch = FakeChannel(self.ids.next(), CHANNEL_DM, None, recipients=[u])
            self.dm_channels[u.id] = ch
            self.channels[ch.id] = ch
        return ch

    def private_dm(
        self, user_a: FakeUser | FakeMember, user_b: FakeUser | FakeMember
    ) -> FakeChannel:
        """The DM between two people (one per pair, as on Discord). The bot is not in it: it
        can only answer interactions there (through a user install)."""
        a, b = self.find_user(user_a), self.find_user(user_b)
        if a.id == b.id or self.bot_user.id in (a.id, b.id):
            raise ValueError("a DM between people needs two different users, neither the bot")
        key = frozenset((a.id, b.id))
        ch = self.private_dms.get(key)
        if ch is None:
            ch = FakeChannel(self.ids.next(), CHANNEL_DM, None, recipients=[a, b])
            self.private_dms[key] = ch
            self.channels[ch.id] = ch
        return ch

    def group_dm(
        self, owner: FakeUser | FakeMember, *users: FakeUser | FakeMember, name: str | None = None
    ) -> FakeChannel:
        """A new group DM of ``owner`` and ``users`` (the bot is never in it)."""
        people = [self.find_user(owner), *(self.find_user(u) for u in users)]
        if any(u.id == self.bot_user.id for u in people):
            raise ValueError("the bot cannot be a recipient of a group DM")
        if len({u.id for u in people}) != len(people) or len(people) < 2:
            raise ValueError("a group DM needs at least two different people")
        # channel.mdx documents no cap for people's group DMs; 10 is the client's (inference).
        if len(people) > 10:
            raise ValueError("a group DM holds at most 10 people")
        ch = FakeChannel(
            self.ids.next(), CHANNEL_GROUP_DM, name, owner_id=people[0].id, recipients=people
        )
        self.channels[ch.id] = ch
        return ch

    def install_for_user(self, user: FakeUser | FakeMember | int) -> None:
        """``user`` installs the app to their account (USER_INSTALL): its global commands that
        allow it then follow them into DMs, group DMs and servers without the bot."""
        if USER_INSTALL not in self.app_integration_types:
            raise ValueError("the app does not support user installs (app_integration_types)")
        self.user_installs.add(self.find_user(user).id)

    def user_installed(self, user: FakeUser | FakeMember | int) -> bool:
        """Whether ``user`` installed the app (what a user install's commands need)."""
        return self.find_user(user).id in self.user_installs

    def bot_in_guild(self, guild_id: int) -> bool:
        """Whether the bot is a member of the guild: the guild installed the app."""
        g = self.guilds.get(guild_id)
        return g is not None and self.bot_user.id in g.members

    def is_bot_dm(self, channel: FakeChannel) -> bool:
        """Whether ``channel`` is a DM with the bot (``dm_channel``)."""
        return (
            channel.type == CHANNEL_DM
            and len(channel.recipients) == 1
            and self.dm_channels.get(channel.recipients[0].id) is channel
        )

    def bot_can_access(self, channel: FakeChannel) -> bool:
        """Whether the bot is in ``channel`` at all (its guild, or its own DM): elsewhere its
        token reaches nothing and its gateway hears nothing."""
        if channel.guild_id is not None:
            return self.bot_in_guild(channel.guild_id)
        return self.is_bot_dm(channel)

    @property
    def guild(self) -> FakeGuild:
        """The first guild (most tests need just one)."""
        return next(iter(self.guilds.values()))

    def channel(self, ref: FakeChannel | int | str) -> FakeChannel:
        """Resolve a channel by object, id, or name (searching guilds in creation order)."""
        if isinstance(ref, FakeChannel):
            return ref
        if isinstance(ref, int):
            ch = self.channels.get(ref)
            if ch is None:
                raise LookupError(f"unknown channel id {ref}")
            return ch
        for g in self.guilds.values():
            with contextlib.suppress(LookupError):
                return g.channel(ref)
        raise LookupError(f"unknown channel name {ref!r}")

    def channel_id(self, ref: FakeChannel | int | str) -> int:
        return self.channel(ref).id

    def find_guild(self, ref: FakeGuild | int | None) -> FakeGuild:
        if ref is None:
            return self.guild
        if isinstance(ref, FakeGuild):
            return ref
        return self.guilds[ref]

    def find_user(self, ref: FakeUser | FakeMember | int) -> FakeUser:
        if isinstance(ref, FakeUser):
            return ref
        if isinstance(ref, FakeMember):
            return ref.user
        return self.users[ref]
