"""Discord's permissions: the bits, the defaults the fake gives @everyone and its bot, and the
arithmetic (roles, administrator, channel overwrites) that ``member.permissions``,
``app_permissions`` and the routes' refusals all use.

Why one function: Discord computes a member's permissions one way, and the fake must agree
with itself everywhere (what the interaction says the bot may do is what a route allows).
Imports only the world.
"""

from __future__ import annotations

from tests.e2e.fake_discord.world import FakeChannel, FakeMember, FakeUser, World

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
# Lets a member's user-installed apps answer in public where the server did not add the app;
# without it their answers are ephemeral (permissions.mdx, USE_EXTERNAL_APPS).
PERM_USE_EXTERNAL_APPS = 1 << 50
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
    # "enabled for servers by default" (change-log, June 27, 2024: User-Installed Apps GA)
    | PERM_USE_EXTERNAL_APPS
)
DEFAULT_BOT_PERMISSIONS = (
    DEFAULT_EVERYONE_PERMISSIONS
    | PERM_MANAGE_MESSAGES
    | PERM_MANAGE_THREADS
    | PERM_CREATE_PRIVATE_THREADS
)


def permissions_for(world: World, user: FakeUser | FakeMember | int, channel: FakeChannel) -> int:
    """Discord's permission algorithm: roles, administrator, then channel overwrites."""
    uid = world.find_user(user).id
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
    g = world.guilds[channel.guild_id]
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
        base = world.channels.get(channel.parent_id)
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
