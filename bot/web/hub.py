"""The live hub: every stored change of a match, pushed to the browsers watching it.

The hub subscribes to the session's facts (:mod:`bot.core.facts`), never to the database: when a
change is stored the session publishes an :class:`~bot.core.facts.ActionTaken` carrying the row as
stored (a change made in another process on the same PostgreSQL arrives through
:mod:`bot.relay`, and the web server re-reads its row only if someone here watches it), and the
hub turns it into the board's JSON once and hands the same text to every watcher of that match
and of that channel (an Activity watches its channel, whatever match is played there; its
text alone carries the players' Discord ids, which its page tells them apart by). Who may
watch is decided before a watcher is made (:mod:`bot.web.access`). A
watcher keeps only the newest state: a slow browser skips states rather than holding the others
up or growing a queue without end.

Pure of Discord and of aiohttp: a watcher is a mailbox the web server drains into a socket.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable, Sequence

from bot.core.facts import ActionTaken, Fact, FactBus
from bot.core.records import MatchRow
from bot.web.state import match_json


class Watcher:
    """One browser's mailbox: the newest state text not yet sent, and a bell; ``key`` is
    what it watches (a match or a channel)."""

    def __init__(self, key: tuple[str, int]) -> None:
        self.key = key
        self._latest: str | None = None
        self._bell = asyncio.Event()

    def put(self, text: str) -> None:
        self._latest = text  # an older unsent state is replaced: only the newest matters
        self._bell.set()

    async def get(self) -> str:
        while self._latest is None:
            self._bell.clear()
            await self._bell.wait()
        text, self._latest = self._latest, None
        return text


class LiveHub:
    """Who watches which match or channel, fed by the fact bus."""

    def __init__(self) -> None:
        self._matches: dict[int, set[Watcher]] = {}
        self._channels: dict[int, set[Watcher]] = {}
        self._unsubscribe: Callable[[], None] | None = None
        self.published = 0  # states handed out (benchmarks read it)

    def attach(self, facts: FactBus) -> None:
        if self._unsubscribe is None:
            self._unsubscribe = facts.subscribe(self.hear)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def watch_match(self, match_id: int) -> Watcher:
        watcher = Watcher(("match", match_id))
        self._matches.setdefault(match_id, set()).add(watcher)
        return watcher

    def watch_channel(self, channel_id: int) -> Watcher:
        watcher = Watcher(("channel", channel_id))
        self._channels.setdefault(channel_id, set()).add(watcher)
        return watcher

    def leave(self, watcher: Watcher) -> None:
        kind, key = watcher.key
        table = self._matches if kind == "match" else self._channels
        watchers = table.get(key)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del table[key]

    def watchers(self, match_id: int) -> int:
        return len(self._matches.get(match_id, ()))

    async def hear(self, facts: Sequence[Fact]) -> None:
        """The newest stored row of each match in the batch goes to its watchers."""
        newest: dict[int, ActionTaken] = {}
        for fact in facts:
            if isinstance(fact, ActionTaken):
                newest[fact.match.id] = fact
        for taken in newest.values():
            self.show(taken.match)

    def follows(self, match_id: int, channels: Iterable[int | None]) -> bool:
        """Whether anyone watches this match, or one of these channels (a change made in
        another process is read from the database only then)."""
        return match_id in self._matches or any(c in self._channels for c in channels)

    def watched(self) -> tuple[list[int], list[int]]:
        """The matches and the channels watched now."""
        return list(self._matches), list(self._channels)

    def show(self, row: MatchRow) -> None:
        """Hand ``row`` as stored to the watchers of its match and of its channels."""
        matches = self._matches.get(row.id, ())
        channels = self._channels.get(row.channel_id, ())
        if row.home_channel_id is not None:
            channels = {*channels, *self._channels.get(row.home_channel_id, ())}
        if not matches and not channels:
            return
        if matches:  # spectators: no one's Discord id
            text = json.dumps({"type": "state", "state": match_json(row)})
            for watcher in matches:
                watcher.put(text)
                self.published += 1
        if channels:  # an Activity in the channel tells its players apart by their ids
            text = json.dumps({"type": "state", "state": match_json(row, with_ids=True)})
            for watcher in channels:
                watcher.put(text)
                self.published += 1


__all__ = ["LiveHub", "Watcher"]
