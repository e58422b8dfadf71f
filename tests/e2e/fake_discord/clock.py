"""Discord's time, as the fake stamps things: time-based snowflake ids and ISO timestamps.

Imports nothing of the fake.
"""

from __future__ import annotations

import datetime as _dt
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat()


class Snowflakes:
    """Time-based, strictly increasing snowflakes, so discord.py's created_at math is sane."""

    def __init__(self) -> None:
        self._last_ms = 0
        self._inc = 0

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        if ms <= self._last_ms:
            ms = self._last_ms
            self._inc += 1
            if self._inc >= 4096:
                ms += 1
                self._inc = 0
        else:
            self._inc = 0
        self._last_ms = ms
        return (ms << 22) | (1 << 17) | self._inc
