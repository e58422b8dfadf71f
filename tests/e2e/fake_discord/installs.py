"""Where the app is installed, and what that lets a person do with it: the interaction
context of a channel, whether Discord would offer a command there and which installations
authorise it (``authorizing_integration_owners``), who can see a channel (and so press the
components on its messages), the app's permissions where its bot is not a member, and when
Discord turns every answer ephemeral.

Why apart: since user installs (2024) a command reaches the app through a guild install, a
user install, or both, and the same rules decide what the test verbs may do, what the
interaction says, and what the answers become. Discord's documentation, which this follows:
``interactions/receiving-and-responding.mdx`` (Interaction Context Types, Authorizing
Integration Owners Object, the ``app_permissions`` footnote), ``interactions/
application-commands.mdx`` (Contexts), ``tutorials/developing-a-user-installable-app.mdx``
and ``topics/permissions.mdx`` (USE_EXTERNAL_APPS). Imports the world, the fake's numbers and
the permission arithmetic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.e2e.fake_discord.constants import (
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    GUILD_INSTALL,
    USER_INSTALL,
)
from tests.e2e.fake_discord.permissions import (
    PERM_ATTACH_FILES,
    PERM_EMBED_LINKS,
    PERM_MENTION_EVERYONE,
    PERM_USE_EXTERNAL_APPS,
    PERM_USE_EXTERNAL_EMOJIS,
    PERM_VIEW_CHANNEL,
    permissions_for,
)
from tests.e2e.fake_discord.world import FakeChannel, FakeUser, World

ALL_CONTEXTS = (CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL)
# receiving-and-responding.mdx, the footnote on ``app_permissions``: "ATTACH_FILES |
# EMBED_LINKS | MENTION_EVERYONE permissions for (G)DMs with other users, and additionally
# USE_EXTERNAL_EMOJIS for DMs with the app's bot user".
PRIVATE_APP_PERMISSIONS = PERM_ATTACH_FILES | PERM_EMBED_LINKS | PERM_MENTION_EVERYONE
BOT_DM_APP_PERMISSIONS = PRIVATE_APP_PERMISSIONS | PERM_USE_EXTERNAL_EMOJIS

Owners = dict[str, str]


def interaction_context(world: World, channel: FakeChannel) -> int:
    """GUILD (0) in any guild channel, with the bot or not; BOT_DM (1) in the bot's own DM;
    PRIVATE_CHANNEL (2) in any other DM or group DM (the tutorial: "If you run the same
    command in a DM with your bestie, or in a group DM, the interaction context will be
    PRIVATE_CHANNEL")."""
    if channel.guild_id is not None:
        return CONTEXT_GUILD
    if world.is_bot_dm(channel):
        return CONTEXT_BOT_DM
    return CONTEXT_PRIVATE_CHANNEL


def require_presence(world: World, user: FakeUser, channel: FakeChannel) -> None:
    """Raise LookupError unless ``user`` is where ``channel`` is: a member of its guild, or a
    recipient of its DM or group DM (Discord shows nobody else the channel at all)."""
    if channel.guild_id is not None:
        g = world.guilds[channel.guild_id]
        if user.id not in g.members:
            raise LookupError(f"{user.username} is not a member of guild {g.name!r}")
    elif all(u.id != user.id for u in channel.recipients):
        raise LookupError(f"{user.username} is not a recipient of DM channel {channel.id}")


def can_see(world: World, user: FakeUser, channel: FakeChannel) -> bool:
    """Whether ``user`` sees ``channel`` (and so its messages and their components): a
    recipient of a (group) DM; a member with VIEW_CHANNEL in a guild."""
    if channel.guild_id is None:
        return any(u.id == user.id for u in channel.recipients)
    if user.id not in world.guilds[channel.guild_id].members:
        return False
    return bool(permissions_for(world, user, channel) & PERM_VIEW_CHANNEL)


def command_contexts(command: Mapping[str, Any]) -> tuple[int, ...]:
    """The interaction contexts a global command allows. ``contexts`` null means all of them
    (application-commands.mdx: "defaults to all contexts [0,1,2]"); with null ``contexts``,
    the deprecated ``dm_permission: false`` still hides it from the bot's DM ("Indicates
    whether the command is available in DMs with the app"; that it does not also hide it
    from other DMs is an inference: those are not "DMs with the app")."""
    contexts = command.get("contexts")
    if contexts is not None:
        return tuple(int(c) for c in contexts)
    if command.get("dm_permission") is False:
        return (CONTEXT_GUILD, CONTEXT_PRIVATE_CHANNEL)
    return ALL_CONTEXTS


def command_owners(
    world: World,
    command: Mapping[str, Any],
    scope: int | None,
    user: FakeUser,
    channel: FakeChannel,
) -> Owners:
    """The ``authorizing_integration_owners`` of ``user`` running ``command`` (synced to guild
    ``scope``, or global when None) in ``channel``; LookupError saying why when Discord would
    not even offer the command there.

    A key is present when the app is installed that way, the command supports that
    installation context (``integration_types``) and that installation reaches this context
    (receiving-and-responding.mdx, Authorizing Integration Owners Object): "0" (the guild id
    in a guild, "0" in the bot's DM) for a guild install, "1" (the installing user's id,
    here the invoker's) for a user install. A guild install never reaches a DM between
    people (PRIVATE_CHANNEL "is only meaningful for commands installed to a user",
    application-commands.mdx, Interaction Contexts).
    """
    require_presence(world, user, channel)
    context = interaction_context(world, channel)
    name = command.get("name")
    if scope is not None:
        # Guild commands: only in that guild, only while it has the app; ``contexts`` and
        # ``integration_types`` are "only for globally-scoped commands" (application-
        # commands.mdx). That a guild command carries no "1" key is an inference: it is not
        # installed to any user.
        if channel.guild_id != scope:
            raise LookupError(f"/{name} is a command of guild {scope}, not of this channel")
        if not world.bot_in_guild(scope):
            raise LookupError(f"/{name}: guild {scope} has not installed the app")
        return {str(GUILD_INSTALL): str(scope)}
    if context not in command_contexts(command):
        raise LookupError(
            f"/{name} is not offered in interaction context {context} "
            f"(its contexts are {list(command_contexts(command))})"
        )
    supported = world.app_integration_types
    raw_types = command.get("integration_types")
    types = set(supported) if raw_types is None else {int(t) for t in raw_types} & supported
    owners: Owners = {}
    if GUILD_INSTALL in types:
        if context == CONTEXT_GUILD and channel.guild_id is not None:
            if world.bot_in_guild(channel.guild_id):
                owners[str(GUILD_INSTALL)] = str(channel.guild_id)
        elif context == CONTEXT_BOT_DM:
            owners[str(GUILD_INSTALL)] = "0"
    if USER_INSTALL in types and world.user_installed(user):
        owners[str(USER_INSTALL)] = str(user.id)
    if not owners:
        where = {
            CONTEXT_GUILD: "in a guild without the app's guild install",
            CONTEXT_BOT_DM: "in the bot's DM",
            CONTEXT_PRIVATE_CHANNEL: "in a DM or group DM between people",
        }[context]
        raise LookupError(
            f"/{name} is not offered to {user.username} {where}: its integration_types are "
            f"{sorted(types)} and {user.username} "
            + ("installed the app" if world.user_installed(user) else "has not installed it")
        )
    return owners


def channel_owners(world: World, channel: FakeChannel) -> Owners:
    """The owners of a message the bot posted with its token (no interaction made it): the
    guild install that let it post there (it can post only where it is)."""
    if channel.guild_id is not None and world.bot_in_guild(channel.guild_id):
        return {str(GUILD_INSTALL): str(channel.guild_id)}
    if world.is_bot_dm(channel):
        return {str(GUILD_INSTALL): "0"}
    return {}


def app_permissions(world: World, channel: FakeChannel) -> int:
    """The app's permissions where an interaction comes from: its bot member's in a guild
    that has it; the documented sets in the bot's DM and in (G)DMs between people. In a
    guild without the bot the docs give no value: the (G)DM set, the app's own reach there
    being no greater (an inference)."""
    if channel.guild_id is not None and world.bot_in_guild(channel.guild_id):
        return permissions_for(world, world.bot_user, channel)
    if world.is_bot_dm(channel):
        return BOT_DM_APP_PERMISSIONS
    return PRIVATE_APP_PERMISSIONS


def answers_forced_ephemeral(
    world: World, user: FakeUser, channel: FakeChannel, owners: Mapping[str, str]
) -> bool:
    """Whether Discord makes every message answering this interaction ephemeral: in a guild
    that did not install the app (no bot member; so no "0" owner), when the invoking member lacks
    USE_EXTERNAL_APPS there (permissions.mdx: "When disabled, users will still be allowed to
    use their apps but the responses will be ephemeral. This only applies to apps not also
    installed to the server.")."""
    if channel.guild_id is None or str(GUILD_INSTALL) in owners:
        return False
    if world.bot_in_guild(channel.guild_id):
        return False  # "This only applies to apps not also installed to the server."
    return not permissions_for(world, user, channel) & PERM_USE_EXTERNAL_APPS


def only_user_installed(owners: Mapping[str, str]) -> bool:
    """The owners hold USER_INSTALL alone: Discord caps such an interaction's followups at 5
    (receiving-and-responding.mdx, Create Followup Message)."""
    return str(USER_INSTALL) in owners and str(GUILD_INSTALL) not in owners
