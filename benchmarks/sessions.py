"""Time the session layer: many concurrent games of random legal play on one database file.

Run from the repository root: ``.venv/bin/python benchmarks/sessions.py``. It prints figures
only; it asserts nothing (timed assertions do not belong in tests).

Each of ``--games`` game loops owns a channel and plays money games (or matches, with
``--length``) one after another through :class:`~bot.core.session.SessionService`: random dice,
a uniformly random legal play, now and then a double that is taken or dropped. All loops run
at once under ``asyncio.gather`` against one :class:`~bot.storage.Store` on one file; after
``--seconds`` each loop leaves its game unfinished, so only the steady state is measured.

Two runs:

* **paced**: each player thinks for a random 0-2x``--think`` seconds before acting, as
  people on Discord do. The figures are the throughput the loops reach and the latency of
  each action (the time from calling the session to getting its report back).
* **flat out**: no thinking at all, every loop acts again as soon as it is answered; this
  is the layer's capacity, and its latency is mostly waiting behind the other games.

Each run goes against SQLite (``synchronous=FULL``, the bot's setting, and ``NORMAL`` for
comparison) and PostgreSQL side by side: ``--database-url`` names a server (each run works in
a fresh schema there, dropped afterwards); without it a throwaway server is started from the
local PostgreSQL binaries (``tests/pg_server.py``), fsyncing every commit as a real one does.

Targets on the development machine: over 500 actions/s and p99 under 20 ms (paced run).
The default think time (0-0.5 s, mean 0.25 s: far quicker than people) offers about 800
actions/s. Measured on the 2-CPU development VM: paced 790 actions/s, p50 0.8 ms, p99 7 ms;
with ``--think 0.2`` 980/s, p99 8-21 ms (noisy); flat out 1,550 actions/s, where latency
is queueing (p50 ~125 ms with 200 games always waiting).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.core.replay import replay  # noqa: E402
from bot.core.session import Player, Report, SessionService  # noqa: E402
from bot.engine import MatchOptions, Phase  # noqa: E402
from bot.storage import Store, open_store  # noqa: E402
from tests.pg_server import Schemas, Unavailable, postgres  # noqa: E402

GUILD = 1


class SeededRoller:
    """Random dice from a seeded generator, so a run can be repeated."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def die(self) -> int:
        return self._random.randint(1, 6)


class Recorder:
    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.games = 0
        self.matches = 0

    async def timed(self, action: str, call) -> Report:
        start = time.perf_counter()
        report = await call
        self.latencies[action].append(time.perf_counter() - start)
        return report

    def all(self) -> list[float]:
        return [t for values in self.latencies.values() for t in values]


async def game_loop(
    service: SessionService,
    recorder: Recorder,
    channel: int,
    rng: random.Random,
    options: MatchOptions,
    deadline: float,
    think: float,
) -> None:
    players = (Player(channel * 2, f"p{channel}a"), Player(channel * 2 + 1, f"p{channel}b"))

    async def pause() -> None:
        await asyncio.sleep(rng.uniform(0.0, 2.0 * think) if think else 0.0)

    await asyncio.sleep(rng.uniform(0.0, 2.0 * think))  # the games do not all start at once
    while time.perf_counter() < deadline:
        await recorder.timed(
            "challenge", service.challenge(GUILD, channel, players[0], players[1], options)
        )
        await pause()
        report = await recorder.timed("accept", service.accept(channel, players[1]))
        while report.match.status == "playing":
            if time.perf_counter() >= deadline:
                return  # leave the game unfinished: only the steady state is measured
            game = report.match.game
            assert game is not None and game.actor is not None
            actor = players[game.actor]
            await pause()
            if game.phase is Phase.ROLL:
                if game.can_double() and rng.random() < 0.05:
                    report = await recorder.timed("double", service.double(channel, actor))
                else:
                    report = await recorder.timed("roll", service.roll(channel, actor))
            elif game.phase is Phase.DOUBLED:
                if rng.random() < 0.7:
                    report = await recorder.timed("take", service.take(channel, actor))
                else:
                    report = await recorder.timed("drop", service.drop(channel, actor))
            elif game.phase is Phase.MOVE:
                plays = list(game.legal_plays())
                text = str(rng.choice(plays))
                report = await recorder.timed("move", service.move(channel, actor, text))
            else:
                raise AssertionError(f"unexpected phase {game.phase}")
            recorder.games += report.finished is not None
        recorder.matches += 1


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def run(
    label: str,
    args: argparse.Namespace,
    think: float,
    synchronous: str = "FULL",
    database_url: str | None = None,
) -> tuple[float, float, float]:
    """One run (on PostgreSQL when ``database_url`` is given); returns (actions/s, p50, p99)."""
    folder = Path(tempfile.mkdtemp(prefix="gammon-bench-"))
    if database_url:
        store = await open_store(database_url)
    else:
        store = await Store.open(folder / "sessions.db")
    if synchronous != "FULL":
        # Only to measure what durability costs: the bot always runs with FULL.
        assert isinstance(store, Store), "synchronous is SQLite's setting"
        await store._db.execute(f"PRAGMA synchronous = {synchronous}")
    service = SessionService(store, roller=SeededRoller(args.seed))
    recorder = Recorder()
    options = MatchOptions(length=args.length)
    deadline = time.perf_counter() + args.seconds
    started = time.perf_counter()
    await asyncio.gather(
        *(
            game_loop(
                service,
                recorder,
                channel,
                random.Random(args.seed * 1_000_003 + channel),
                options,
                deadline,
                think,
            )
            for channel in range(1, args.games + 1)
        )
    )
    elapsed = time.perf_counter() - started
    everything = recorder.all()

    # The figures mean nothing if the games are wrong: replay a sample from their logs.
    checked = 0
    for channel in range(1, args.games + 1, max(1, args.games // 10)):
        row, events = await service.history(channel)
        assert replay(row.options, events) == row.game, f"replay differs in channel {channel}"
        checked += 1
    if database_url:
        size = 0.0
    else:
        size = sum((folder / name).stat().st_size for name in ("sessions.db", "sessions.db-wal"))
    await store.close()

    backend = "PostgreSQL" if database_url else f"SQLite, synchronous={synchronous}"
    print(
        f"{label} ({backend}): {args.games} concurrent game loops for {args.seconds:.0f} s",
        end="",
    )
    print(f" (think 0-{2 * think:.2f} s)" if think else " (no think time)")
    print(f"  matches finished: {recorder.matches}, games finished: {recorder.games}")
    print(f"  actions: {len(everything)} in {elapsed:.1f} s = {len(everything) / elapsed:,.0f}/s")
    print(
        f"  latency p50 {ms(statistics.median(everything))}  p90 "
        f"{ms(percentile(everything, 0.90))}  p99 {ms(percentile(everything, 0.99))}  "
        f"max {ms(max(everything))}"
    )
    for action, values in sorted(recorder.latencies.items()):
        print(
            f"    {action:9} {len(values):6d}  p50 {ms(statistics.median(values))}  "
            f"p99 {ms(percentile(values, 0.99))}"
        )
    print(
        f"  replayed {checked} matches from their event logs"
        + (f"; database {size / 1e6:.1f} MB" if size else "")
    )
    return (
        len(everything) / elapsed,
        statistics.median(everything),
        percentile(everything, 0.99),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent game loops")
    parser.add_argument("--seconds", type=float, default=20.0, help="play for this long")
    parser.add_argument("--think", type=float, default=0.25, help="mean think time, seconds")
    parser.add_argument("--length", type=int, default=0, help="match length (0: money game)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=["paced", "flat"], help="run one of the two")
    parser.add_argument(
        "--no-normal",
        action="store_true",
        help="skip the comparison runs with synchronous=NORMAL (what fsyncing every action costs)",
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="a PostgreSQL server to run against too (default: start a throwaway one)",
    )
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args()
    figures: dict[tuple[str, str], tuple[float, float, float]] = {}
    runs = [("paced", args.think), ("flat out", 0.0)]
    if args.only:
        runs = [r for r in runs if r[0].startswith(args.only)]
    levels = ["FULL"] if args.no_normal else ["FULL", "NORMAL"]
    with contextlib.ExitStack() as stack:
        schemas: Schemas | None = None
        if args.database_url:
            schemas = Schemas(args.database_url)
        elif not args.no_postgres:
            try:
                schemas = stack.enter_context(postgres(durable=True))
            except Unavailable as exc:
                print(f"PostgreSQL left out: {exc}\n")
        for label, think in runs:
            for level in levels:
                figures[label, level] = asyncio.run(run(label, args, think, level))
                print()
            if schemas is not None:
                with schemas.fresh() as url:
                    figures[label, "postgres"] = asyncio.run(run(label, args, think, "FULL", url))
                print()
    backends = [("SQLite", "FULL")] + (
        [("PostgreSQL", "postgres")] if (runs[0][0], "postgres") in figures else []
    )
    print(f"side by side, {args.games} concurrent games (all actions):")
    for label, _ in runs:
        print(
            f"  {label:8}  "
            + "   |   ".join(
                f"{name} {figures[label, key][0]:6,.0f}/s p50 {ms(figures[label, key][1])} "
                f"p99 {ms(figures[label, key][2])}"
                for name, key in backends
            )
        )
    if len(levels) == 2:
        print("durability cost (FULL fsyncs every action; NORMAL, the old setting, does not):")
        for label, _ in runs:
            (full_rate, full_p50, full_p99), (normal_rate, normal_p50, normal_p99) = (
                figures[label, "FULL"],
                figures[label, "NORMAL"],
            )
            print(
                f"  {label:8}  FULL {full_rate:6,.0f}/s p50 {ms(full_p50)} p99 {ms(full_p99)}"
                f"   |   NORMAL {normal_rate:6,.0f}/s p50 {ms(normal_p50)} p99 {ms(normal_p99)}"
            )


if __name__ == "__main__":
    main()
