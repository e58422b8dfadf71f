"""The chouette tables on both backends: one live session per channel, versioned saves that
write the state, the log and the points together or not at all, and the all-time table."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.errors import ConflictError
from bot.storage import open_store
from bot.storage.chouette import ChouetteStore, LogEntry, PointsRow

GUILD = 42


async def test_a_session_is_kept_versioned_with_its_log_and_points(database: Path | str) -> None:
    store = await open_store(database)
    try:
        chouettes = ChouetteStore(store)
        row = await chouettes.create(
            guild_id=GUILD,
            channel_id=7,
            home_channel_id=3,
            started_by=1,
            status="open",
            state='{"a": 1}',
            events=[LogEntry(0, "joined", '{"player": 1}')],
            now=10.0,
        )
        assert row is not None and (row.id, row.version, row.live) == (1, 1, True)
        # One live session per channel; another channel is free.
        again = await chouettes.create(
            guild_id=GUILD,
            channel_id=7,
            home_channel_id=3,
            started_by=2,
            status="open",
            state="{}",
            events=[],
            now=11.0,
        )
        assert again is None
        saved = await chouettes.save(
            row,
            status="playing",
            state='{"a": 2}',
            events=[LogEntry(1, "game", "{}"), LogEntry(1, "over", '{"value": 2}')],
            points=[(1, "alice", 4), (2, "bob", -4)],
            now=12.0,
        )
        assert (saved.version, saved.state, saved.status) == (2, '{"a": 2}', "playing")
        # A save from the version before is refused, and writes nothing at all.
        with pytest.raises(ConflictError):
            await chouettes.save(
                row,
                status="ended",
                state="{}",
                events=[LogEntry(1, "x", "{}")],
                points=[(1, "alice", 100)],
                now=13.0,
            )
        assert [(e.seq, e.kind) for e in await chouettes.events(row.id)] == [
            (1, "joined"),
            (2, "game"),
            (3, "over"),
        ]
        await chouettes.save(
            saved, status="ended", state="{}", events=[], points=[(1, "alice", -1)], now=14.0
        )
        assert await chouettes.live(7) is None
        assert await chouettes.standings(GUILD) == [
            PointsRow(1, "alice", 3, 2),
            PointsRow(2, "bob", -4, 1),
        ]
        assert await chouettes.standings(GUILD + 1) == []
    finally:
        await store.close()
    store = await open_store(database)
    try:
        chouettes = ChouetteStore(store)
        kept = await chouettes.get(1)
        assert kept is not None and kept.status == "ended" and kept.version == 3
        assert await chouettes.live_sessions() == []
    finally:
        await store.close()
