"""Interaction-to-response latency of the bot process against the local fake Discord.

The bot runs as it is deployed (``python -m bot`` in its own process, pointed at the fake by
DISCORD_API_BASE / DISCORD_GATEWAY_URL); this script runs the fake and plays like people do:
50 games in parallel, each in its own channel, reading only what a player sees (the board
message's buttons and mention, autocomplete for the legal plays). Before each action a
player waits a random "thinking" time (``--think`` seconds on average; 0 = as fast as
possible). A move's latency is from sending the INTERACTION_CREATE to the board message
(text + PNG) arriving. Target on the 2-core machine: p99 under 250 ms.

Run: ``python benchmarks/e2e.py [--games 50] [--moves 20] [--think 1.0]``

Both sides in one run: the bot drawing boards and thinking in its own process (WORKERS=0,
as before the worker pool; everything else is today's code) and with its worker pool
(WORKERS unset: the cores less one). ``--sweep`` shortens the think time step by step and
prints, for each side, the board posts per second at which the p99 of a move first passes
250 ms (interpolated between the last point under and the first over). Each run also prints
the CPU time per board of the bot process, of its workers, and of this process (the fake
Discord and the players), which share the machine's cores with the bot here and would not
in production.

``--shards`` compares instead one process with two shard processes (SHARD_COUNT=2, one
SHARD_IDS each), both over one PostgreSQL: ``--database-url`` names the server (each run
works in a fresh schema), else a throwaway one is started from the local PostgreSQL
binaries (tests/pg_server.py). The games are spread over two servers, one on each shard.

``--thinks 1.6,1.3,1.0`` sets the sweep's steps. Each run prints the load average.
(``--pool executor,loop --repeat 3``, the comparison of the worker pool's two implementations
that decided for ProcessPoolExecutor, is at commit 96d5ce1: docs/benchmarks.md.)

``--busy N`` runs N neighbour processes that each keep a core busy during the measurement:
a shared machine's busy hour, made repeatable. ``--only LABEL`` runs one side;
``--workers N`` sets the pool side's WORKERS.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import TOKEN  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, FakeGuild, RecordedMessage  # noqa: E402

# "<@id>, your turn: roll." / "white3, move your 6-1 ..." (no ping for the one acting)
NEXT = re.compile(r"(?:<@(\d+)>|(\w+)), (?:your turn|move your)")


class Timings:
    def __init__(self) -> None:
        self.moves: list[float] = []
        self.other: list[float] = []
        self.late = 0


async def play_one(
    fake: FakeDiscord,
    index: int,
    moves: int,
    think: float,
    rng: random.Random,
    timings: Timings,
    guild: FakeGuild | None = None,
) -> int:
    channel = fake.add_channel(guild, f"table-{index}")
    white = fake.create_member(f"white{index}", guild=guild)
    black = fake.create_member(f"black{index}", guild=guild)
    people = {str(white.id): white, str(black.id): black, white.username: white}
    people[black.username] = black

    async def pause() -> None:
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))

    async def timed(send, bucket: list[float]) -> RecordedMessage:
        started = time.perf_counter()
        result = await send
        message = await result.answer(timeout=60)
        bucket.append(time.perf_counter() - started)
        if result.late:
            timings.late += 1
        return message

    await pause()
    first = await fake.slash(
        white, channel.id, "backgammon", "challenge", options={"opponent": black.id}
    )
    challenge = await first.original_message()
    await pause()
    (accept,) = [c for c in challenge.custom_ids if c.startswith("bg:accept:")]
    board = await timed(fake.click(black, challenge, accept), timings.other)
    played = 0
    while played < moves:
        found = NEXT.findall(board.content or "")
        if not found:
            break  # the game is over
        actor = people[found[-1][0] or found[-1][1]]
        await pause()
        rolls = [c for c in board.custom_ids if c.startswith("bg:roll:")]
        if rolls:
            board = await timed(fake.click(actor, board, rolls[0]), timings.other)
        elif "move your" in (board.content or ""):
            choices = await fake.autocomplete(
                actor, channel.id, "backgammon", "move", focused="play", value=""
            )
            play = rng.choice(choices)["value"]
            board = await timed(
                fake.slash(actor, channel.id, "backgammon", "move", options={"play": play}),
                timings.moves,
            )
            played += 1
        else:
            break
    return played


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User + system CPU seconds of a process, and of its live children (the worker pool)."""
    tick = os.sysconf("SC_CLK_TCK")

    def own(stat: str) -> float:
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / tick  # utime, stime

    main = children = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if int(entry.name) == pid:
            main += own(stat)
        elif ppid == pid:
            children += own(stat)
    return main, children


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@dataclass
class Run:
    label: str
    think: float
    boards_per_second: float
    p50: float
    p99: float
    late: int
    load: tuple[float, float] = (0.0, 0.0)  # the 1-minute load average before and after


def guild_on_shard(fake: FakeDiscord, shard: int, count: int) -> FakeGuild:
    """A new server that Discord would route to ``shard`` (snowflakes are time-based)."""
    while True:
        guild = fake.add_guild(f"shard {shard}")
        if (guild.id >> 22) % count == shard:
            return guild
        time.sleep(0.001)


async def run(
    games: int,
    moves: int,
    think: float,
    workers: str | None,
    label: str,
    *,
    database_url: str | None = None,
    shards: int | None = None,
    busy: int = 0,
) -> Run:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord(token=TOKEN) as fake:
            guilds: list[FakeGuild | None] = [None]
            if database_url is not None:
                guilds = [guild_on_shard(fake, shard, 2) for shard in range(2)]
            env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
            env.update(
                PYTHONPATH=str(ROOT),
                DISCORD_TOKEN=fake.token,
                DISCORD_API_BASE=fake.http_base,
                DISCORD_GATEWAY_URL=fake.gateway_url,
                DEV_GUILD_ID=str(fake.guild.id),
                DATABASE_PATH=str(Path(folder) / "bench.db"),
                LOG_LEVEL="WARNING",
                GAME_REVIEWS="off",
            )
            env.pop("WORKERS", None)
            if workers is not None:
                env["WORKERS"] = workers
            commands_in: int | None = fake.guild.id
            processes = [dict(env)]
            if database_url is not None:
                env.update(DATABASE_URL=database_url, DEV_GUILD_ID="")
                commands_in = None  # global commands: every server has them
                processes = [dict(env)]
                if shards:
                    processes = [
                        {**env, "SHARD_COUNT": str(shards), "SHARD_IDS": str(shard)}
                        for shard in range(shards)
                    ]
            bots = [
                await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bot", cwd=folder, env=process_env
                )
                for process_env in processes
            ]
            try:
                await fake.wait_until_ready(timeout=60)
                while fake.ready_count < len(bots):
                    await asyncio.sleep(0.05)
                await fake.wait_for_commands(commands_in, names=["backgammon"], timeout=60)
                timings = Timings()
                rng = random.Random(11)
                load_before = os.getloadavg()[0]
                cpu_before = [cpu_seconds(bot.pid) for bot in bots]
                here_before = time.process_time()
                # This process stands in for Discord's servers: its own collector pauses
                # (a full pass over every recorded message: 70-260 ms, more with each run)
                # would be counted as the bot's latency. None during the measurement.
                gc.collect()
                gc.disable()
                # Busy neighbours: processes that each keep a core busy all along, as other
                # tenants of a shared machine do in its busy hours.
                neighbours = [
                    subprocess.Popen([sys.executable, "-c", "while True: pass"])
                    for _ in range(busy)
                ]
                started = time.perf_counter()
                try:
                    counts = await asyncio.gather(
                        *(
                            play_one(fake, i, moves, think, rng, timings, guilds[i % len(guilds)])
                            for i in range(games)
                        )
                    )
                finally:
                    gc.enable()
                    for neighbour in neighbours:
                        neighbour.kill()
                        neighbour.wait()
                elapsed = time.perf_counter() - started
                load_after = os.getloadavg()[0]
                here = time.process_time() - here_before
                cpu_after = [cpu_seconds(bot.pid) for bot in bots]
                loop_cpu = sum(a[0] - b[0] for a, b in zip(cpu_after, cpu_before, strict=True))
                pool_cpu = sum(a[1] - b[1] for a, b in zip(cpu_after, cpu_before, strict=True))
            finally:
                for bot in bots:
                    bot.terminate()
                for bot in bots:
                    await bot.wait()
    ms = [t * 1000 for t in timings.moves]
    other = [t * 1000 for t in timings.other]
    posts = len(ms) + len(other)
    rate = posts / elapsed
    print(
        f"[{label}] {games} games, think {think:.2f} s: {sum(counts)} moves in {elapsed:.1f} s "
        f"({rate:.1f} board posts/s); move p50 {statistics.median(ms):.1f} ms, "
        f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms; roll/accept p50 "
        f"{statistics.median(other):.1f} ms, p99 {percentile(other, 0.99):.1f} ms; "
        f"late {timings.late}; CPU per board: bot process {loop_cpu / posts * 1000:.1f} ms, "
        f"its workers {pool_cpu / posts * 1000:.1f} ms, fake Discord and players "
        f"{here / posts * 1000:.1f} ms; load average {load_before:.1f} -> {load_after:.1f}",
        flush=True,
    )
    return Run(
        label,
        think,
        rate,
        statistics.median(ms),
        percentile(ms, 0.99),
        timings.late,
        (load_before, load_after),
    )


LIMIT_MS = 250.0


def crossing(runs: list[Run], limit: float) -> str:
    """Where the p99 first passes ``limit``, read off the sweep: between the last rate under
    it and the first over it, linearly interpolated (the sweep stops a side at its first
    point over, so a lucky later point never counts)."""
    for under, over in itertools.pairwise(runs):
        if under.p99 <= limit < over.p99:
            share = (limit - under.p99) / (over.p99 - under.p99)
            rate = under.boards_per_second + share * (
                over.boards_per_second - under.boards_per_second
            )
            return (
                f"about {rate:.0f} boards/s (p99 {under.p99:.0f} ms at "
                f"{under.boards_per_second:.1f}, {over.p99:.0f} ms at {over.boards_per_second:.1f})"
            )
    if runs and runs[0].p99 > limit:
        return f"below {runs[0].boards_per_second:.1f} boards/s (the sweep's first point)"
    top = max((r.boards_per_second for r in runs), default=0.0)
    return f"not within the sweep (p99 <= {limit:.0f} ms up to {top:.1f} boards/s)"


SWEEP = (2.0, 1.0, 0.7, 0.55, 0.47, 0.4, 0.35, 0.3, 0.25, 0.18)
SIDES = (("in-process (before)", "0"), ("worker pool", None))
SHARD_SIDES = (("1 process, PostgreSQL", None), ("2 shard processes, PG", 2))


async def main(args: argparse.Namespace) -> None:
    if args.shards and args.database_url is None:
        from tests.pg_server import postgres

        with postgres(durable=True) as schemas:
            await main(argparse.Namespace(**{**vars(args), "database_url": schemas.url}))
        return
    games, moves, sweep, busy = args.games, args.moves, args.sweep, args.busy
    thinks = [args.think]
    if sweep:
        thinks = args.thinks or list(SWEEP)
    sides: tuple[tuple[str, str | int | None], ...] = SHARD_SIDES if args.shards else SIDES
    if args.workers is not None and not args.shards:
        sides = (SIDES[0], (f"worker pool of {args.workers}", args.workers))
    if args.only is not None:
        sides = tuple(side for side in sides if side[0].startswith(args.only))
    if busy:
        print(f"with {busy} busy neighbour process(es), each keeping a core busy", flush=True)
    results: dict[str, list[Run]] = {label: [] for label, _ in sides}
    for value in thinks:
        for label, choice in sides:
            if sweep and results[label] and results[label][-1].p99 > LIMIT_MS:
                continue  # past its limit already
            if not args.shards:
                assert not isinstance(choice, int)  # a worker side's choice is its WORKERS
                results[label].append(await run(games, moves, value, choice, label, busy=busy))
                continue
            assert not isinstance(choice, str)  # a shard side's choice is its shard count
            from tests.pg_server import Schemas

            with Schemas(args.database_url).fresh() as url:
                results[label].append(
                    await run(
                        games,
                        moves,
                        value,
                        None,
                        label,
                        database_url=url,
                        shards=choice,
                        busy=busy,
                    )
                )
    print()
    for label, runs in results.items():
        for r in runs:
            print(
                f"{label:20} {r.boards_per_second:6.1f} boards/s  p50 {r.p50:6.1f} ms  "
                f"p99 {r.p99:6.1f} ms"
            )
        if sweep:
            print(f"{label:20} p99 passes 250 ms at: {crossing(runs, LIMIT_MS)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=20, help="move commands per game at most")
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a player waits before acting (0 = none)",
    )
    parser.add_argument(
        "--sweep", action="store_true", help="shorten the think time until p99 passes 250 ms"
    )
    parser.add_argument(
        "--shards",
        action="store_true",
        help="compare one process with two shard processes over PostgreSQL",
    )
    parser.add_argument(
        "--database-url", default=None, help="PostgreSQL for --shards (default: a throwaway one)"
    )
    parser.add_argument(
        "--only",
        default=None,
        help='run one side only, named by the start of its label ("worker", "in-process", '
        '"1 process", "2 shard")',
    )
    parser.add_argument(
        "--workers",
        default=None,
        help="the pool side's WORKERS (default: unset, the cores less one)",
    )
    parser.add_argument(
        "--thinks",
        type=lambda text: [float(x) for x in text.split(",")],
        default=None,
        help="the sweep's think times, longest first (default: " + ",".join(map(str, SWEEP)) + ")",
    )
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        help="this many neighbour processes keep a core busy each during the measurement",
    )
    asyncio.run(main(parser.parse_args()))
