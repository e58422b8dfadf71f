"""What a channel route checks first: the channel exists and the bot can see it, the bot has
the permissions the action needs, and the message named is a visible one in that channel.

Why apart: channel, message, pin, reaction and thread routes all refuse the same way
(Discord's 404 Unknown Channel / Unknown Message, 403 Missing Access / Missing Permissions),
including for the channels the bot is not in at all (a DM or group DM between people, a guild
without the bot: 403 Missing Access).
Imports the world, the permission arithmetic, the message store and the wire format.
"""

from __future__ import annotations

from aiohttp import web

from tests.e2e.fake_discord.messages import MessageStore
from tests.e2e.fake_discord.permissions import PERM_VIEW_CHANNEL, permissions_for
from tests.e2e.fake_discord.recorded import RecordedMessage
from tests.e2e.fake_discord.wire import ApiError
from tests.e2e.fake_discord.world import FakeChannel, World


class ChannelAccess:
    """The bot's access to the channel (and message) a request names."""

    def __init__(self, world: World, store: MessageStore) -> None:
        self._world = world
        self._store = store

    def channel(self, request: web.Request) -> FakeChannel:
        ch = self._world.channels.get(int(request.match_info["channel_id"]))
        if ch is None or ch.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        if not self._world.bot_can_access(ch):
            # A DM or group DM between people, or a guild without the bot: the bot is no
            # recipient or member. The docs name no answer; Discord's for a channel one cannot
            # see is the stricter plausible one (an inference).
            raise ApiError(403, 50001, "Missing Access")
        if ch.guild_id is not None and not (
            permissions_for(self._world, self._world.bot_user, ch) & PERM_VIEW_CHANNEL
        ):
            raise ApiError(403, 50001, "Missing Access")
        return ch

    def require(self, ch: FakeChannel, perms: int) -> None:
        have = permissions_for(self._world, self._world.bot_user, ch)
        if have & perms != perms:
            raise ApiError(403, 50013, "Missing Permissions")

    def message(self, request: web.Request) -> tuple[FakeChannel, RecordedMessage]:
        ch = self.channel(request)
        msg = self._store.by_id.get(int(request.match_info["mid"]))
        if msg is None or msg.channel_id != ch.id or msg.deleted or msg.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return ch, msg
