"""A message command ("Apps > Analyse this position") sent through the fake Discord.

The fake has a helper for slash commands, buttons and modals but none yet for a message
command: this builds the interaction as Discord sends one (type 2, command type 3, the
target message in ``resolved.messages``) on the fake's own interaction plumbing, so the bot
answers it through discord.py exactly as it would on Discord. (To move into the fake's
``Interactions`` section once its package split lands.)
"""

from __future__ import annotations

from tests.e2e.fake_discord import (
    INTERACTION_APPLICATION_COMMAND,
    FakeDiscord,
    FakeMember,
    InteractionResult,
    RecordedMessage,
)

MESSAGE_COMMAND = 3  # an application command's type: a message command (context menu)


async def message_command(
    fake: FakeDiscord,
    user: FakeMember,
    message: RecordedMessage,
    name: str,
    *,
    locale: str = "en-US",
    timeout: float = 5.0,
) -> InteractionResult:
    """Invoke the message command ``name`` on ``message``, as ``user``, where it was posted."""
    channel = fake.channel(message.channel_id)
    synced = await fake.wait_for_commands(channel.guild_id, names=[name], timeout=timeout)
    (command,) = [c for c in synced if c["name"] == name and c.get("type") == MESSAGE_COMMAND]
    data = {
        "id": command["id"],
        "name": command["name"],
        "type": MESSAGE_COMMAND,
        "target_id": str(message.id),
        "resolved": {"messages": {str(message.id): message.payload()}},
        "guild_id": str(channel.guild_id),
    }
    member = fake._user(user)  # the fake's own helpers, until it has this one
    payload = fake._interaction_base(
        INTERACTION_APPLICATION_COMMAND, member, channel, data, locale=locale
    )
    return await fake._send_interaction(
        payload, user=member, channel=channel, command_name=name, timeout=timeout
    )
