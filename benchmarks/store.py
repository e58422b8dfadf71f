"""The store's own cost per call, without the session: what the storage layer adds.

Run from the repository root: ``.venv/bin/python benchmarks/store.py``. It prints figures
only; it asserts nothing. benchmarks/sessions.py measures the whole session under load;
this measures the store's calls one at a time, so a change to the storage layer (issue 26:
one shared layer for both backends) can be compared before and after on a shared machine.

Each call's wall time (median) depends on the disk and the other processes; its CPU time
(the process's, every thread counted: aiosqlite's thread, asyncpg's protocol) is what the
Python code costs and moves little with the machine's load. Calls timed, on each backend:

* ``live_match``: a channel's live row, the cached parse (every action starts with it);
* ``apply``: one move's change (the versioned update and one event), one at a time;
* ``apply x50``: fifty channels' changes at once (SQLite shares transactions: group commit);
* ``finish``: a change that finishes a human match (results, both players' records, ratings);
* ``guild_settings``, ``note_board``: the reads and small writes of posting a board.

To compare two trees, run this script from each (it puts its own tree first on the path).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.core.records import EndReason as MatchEnd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.records import (  # noqa: E402
    Action,
    Change,
    FinishedGame,
    MatchOutcome,
    NewEvent,
    Status,
)
from bot.engine import EndReason, Game, GameResult, MatchOptions, ResultKind  # noqa: E402
from bot.storage import open_store  # noqa: E402
from tests.pg_server import Unavailable, postgres  # noqa: E402

GUILD = 1


def event(game: Game) -> NewEvent:
    return NewEvent(
        game_number=1,
        actor_id=None,
        player=0,
        action=Action.MOVE,
        position_id=game.position_id(),
        gnu_match_id=game.match_id(),
        notation="8/5 6/5",
        dice=(3, 1),
    )


class Timer:
    def __init__(self) -> None:
        self.figures: dict[str, tuple[float, float]] = {}

    async def each(self, label: str, calls: int, call: Callable[[int], Awaitable[Any]]) -> None:
        """``calls`` calls one after another: the median wall time and the mean CPU time."""
        walls = []
        cpu = time.process_time()
        for i in range(calls):
            start = time.perf_counter()
            await call(i)
            walls.append(time.perf_counter() - start)
        self.figures[label] = (statistics.median(walls), (time.process_time() - cpu) / calls)


async def run(database: str | Path, args: argparse.Namespace) -> dict[str, tuple[float, float]]:
    store = await open_store(database)
    timer = Timer()
    game = Game.new(MatchOptions())
    try:
        channels = list(range(1000, 1000 + args.channels))
        for channel in channels:
            await store.create_challenge(
                guild_id=GUILD,
                channel_id=channel,
                players=((channel * 2, "a"), (channel * 2 + 1, "b")),
                options=MatchOptions(),
                rated=True,
                now=0.0,
                expires_at=None,
            )
        versions: dict[int, tuple[int, int]] = {}
        for channel in channels:
            row = await store.live_match(channel)
            assert row is not None
            versions[channel] = (row.id, row.version)

        async def move(channel: int, now: float) -> None:
            match_id, version = versions[channel]
            row = await store.apply(
                Change(match_id, version, Status.PLAYING, game, now, events=(event(game),))
            )
            versions[channel] = (match_id, row.version)

        for i, channel in enumerate(channels):  # warm up: the file and the WAL grow first
            await move(channel, -1.0 - i)
        await timer.each("apply", args.calls, lambda i: move(channels[i % len(channels)], i))
        for channel in channels:
            await store.live_match(channel)  # parsed once: the next reads hit the cache
        await timer.each(
            "live_match", args.calls, lambda i: store.live_match(channels[i % len(channels)])
        )
        await timer.each("guild_settings", args.calls, lambda i: store.guild_settings(GUILD))
        await timer.each(
            "note_board",
            args.calls,
            lambda i: store.note_board(versions[channels[0]][0], channels[0], i + 1),
        )

        async def burst(i: int) -> None:
            await asyncio.gather(*(move(channel, 1e6 + i) for channel in channels[:50]))

        await timer.each("apply x50", max(args.calls // 20, 5), burst)
        walls, cpu = timer.figures["apply x50"]
        timer.figures["apply x50"] = (walls / 50, cpu / 50)  # per action

        result = GameResult(0, ResultKind.GAMMON, 1, 2, EndReason.BORNE_OFF)

        async def finish(i: int) -> None:
            channel = channels[i]
            match_id, version = versions[channel]
            await store.apply(
                Change(
                    match_id,
                    version,
                    Status.FINISHED,
                    game,
                    2e6 + i,
                    events=(event(game),),
                    finished_games=(FinishedGame(1, result),),
                    outcome=MatchOutcome(0, (2, 0), MatchEnd.BORNE_OFF),
                )
            )

        await timer.each("finish", min(args.calls, len(channels)), finish)
    finally:
        await store.close()
    return timer.figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400, help="calls timed per figure")
    parser.add_argument("--channels", type=int, default=200)
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    results: dict[str, dict[str, tuple[float, float]]] = {}
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="gammon-store-")))
        results["SQLite"] = asyncio.run(run(folder / "store.db", args))
        if not args.no_postgres:
            try:
                schemas = stack.enter_context(postgres(durable=True))
            except Unavailable as exc:
                print(f"PostgreSQL left out: {exc}")
            else:
                with schemas.fresh() as url:
                    results["PostgreSQL"] = asyncio.run(run(url, args))
    print(f"store calls from {ROOT} (wall: median; CPU: mean, all threads of this process)")
    for backend, figures in results.items():
        print(f"  {backend}")
        for label, (wall, cpu) in figures.items():
            print(f"    {label:15} wall {wall * 1e3:7.3f} ms   CPU {cpu * 1e3:7.3f} ms")


if __name__ == "__main__":
    main()
