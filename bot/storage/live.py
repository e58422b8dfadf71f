"""The row cache both stores keep: each channel's live match, parsed, as last read or written.

Parsing a row's JSON state is the costly part of a read (:mod:`bot.storage.rows`). Every
read still asks the database for the row (one round trip), and the cached row is used only
when its id and version are the ones just read: a write from another process (or another
store on the same database) bumps the version, so a stale row is never served.

Imports only the records.
"""

from __future__ import annotations

from bot.core.records import MatchRow


class LiveRows:
    """Parsed live rows by channel id."""

    __slots__ = ("_rows",)

    def __init__(self) -> None:
        self._rows: dict[int, MatchRow] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def fresh(self, channel_id: int, match_id: int, version: int) -> MatchRow | None:
        """The cached row of the channel if it is still this match at this version."""
        cached = self._rows.get(channel_id)
        if cached is not None and cached.id == match_id and cached.version == version:
            return cached
        return None

    def remember(self, row: MatchRow) -> None:
        """Keep a row just read or written; a row that ended leaves its channel's slot."""
        if row.live:
            self._rows[row.channel_id] = row
        elif (cached := self._rows.get(row.channel_id)) is not None and cached.id == row.id:
            del self._rows[row.channel_id]

    def forget(self, match_id: int) -> None:
        """Drop a match wherever it is cached: its stored row may differ from ours now."""
        for channel_id, row in list(self._rows.items()):
            if row.id == match_id:
                del self._rows[channel_id]

    def vacate(self, channel_id: int) -> None:
        """The channel has no live row any more."""
        self._rows.pop(channel_id, None)

    def clear(self) -> None:
        self._rows.clear()


__all__ = ["LiveRows"]
