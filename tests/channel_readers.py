"""Stand-ins for Discord's answers to "who reads this channel?"
(:class:`bot.core.visibility.ChannelReaders`).

Service and page tests are about puzzles and pages, not Discord: :class:`Readers` says who
reads which channel from two plain sets, so a test can hide a channel from someone and see
what follows. The end-to-end tests ask the fake Discord instead
(``tests/e2e/test_web_privacy.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Readers:
    """Every member reads every channel unless told otherwise: ``hidden`` channels only
    ``allowed[channel]``'s users read; ``strangers`` are members of no server."""

    hidden: set[int] = field(default_factory=set)
    allowed: dict[int, set[int]] = field(default_factory=dict)
    strangers: set[int] = field(default_factory=set)
    asked: int = 0

    async def member_reads(self, guild_id: int, channel_id: int, user_id: int) -> bool:
        self.asked += 1
        if user_id in self.strangers:
            return False
        return channel_id not in self.hidden or user_id in self.allowed.get(channel_id, set())

    async def everyone_reads(self, guild_id: int, channel_id: int) -> bool:
        self.asked += 1
        return channel_id not in self.hidden

    async def is_member(self, guild_id: int, user_id: int) -> bool:
        return user_id not in self.strangers

    async def server_name(self, guild_id: int) -> str | None:
        return "The Club"

    async def close(self) -> None:
        pass


EVERYONE = Readers()


__all__ = ["EVERYONE", "Readers"]
