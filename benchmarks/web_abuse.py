"""Can one anonymous visitor of the web board slow the boards of everyone else? (issue 41)

The bot runs as deployed (``python -m bot`` with ``WEB_URL``, in its own process, against
the local fake Discord run here). A long match (random play to the end, 25 points by
default) was played in a channel every member can see, so its replay opens from its link
for anyone. Another channel has a game in progress, where a player asks for
``/backgammon board`` every ``--pace`` seconds; each answer's latency is from the
interaction sent to the board message arriving.

Two sides, alternating round by round so that both meet the same machine: without web
traffic, and with ``--loops`` anonymous visitors (8 by default) each looping as fast as
the server answers over the replay's frames, its analysis, each game's chart, and counted
ids (``/m/1``, ``/r/2``...), in a process of their own. Before issue 41 each such request
replayed the whole event log on the bot's event loop; now the frames and charts are worked
out once per match version in the analysis lane, and a client gets 10 requests a second (40
at once), a request over it held a second before its 429.

Run: ``python benchmarks/web_abuse.py [--length 25] [--loops 8] [--probes 60] [--rounds 2]``.
Prints both sides' p50 and p99 and their ratio (target: p99 with the loops at most 1.5 times
without), and what the loops got (statuses); asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import multiprocessing
import os
import random
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.core.session import Player, SessionService  # noqa: E402
from bot.engine import MatchOptions, Phase  # noqa: E402
from bot.storage import Store  # noqa: E402
from tests.e2e.conftest import TOKEN  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, FakeMember  # noqa: E402


class SeededRoller:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def die(self) -> int:
        return self.random.randint(1, 6)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def long_match(db: Path, guild: int, channel: int, length: int, seed: int) -> tuple[str, int]:
    """Random legal play to the end of a ``length``-point match: its web key and games."""
    store = await Store.open(db)
    try:
        service = SessionService(store, roller=SeededRoller(seed))
        rng = random.Random(seed)
        alice, bob = Player(10, "alice"), Player(11, "bob")
        await service.challenge(guild, channel, alice, bob, MatchOptions(length=length, cube=False))
        await service.accept(channel, bob)
        while (row := await service.current(channel)) is not None and row.game is not None:
            game = row.game
            assert game.actor is not None
            who = (alice, bob)[game.actor]
            if game.phase is Phase.ROLL:
                await service.roll(channel, who)
            else:
                await service.move(
                    channel, who, rng.choice(await service.legal_play_texts(channel, who.id))
                )
        row = await store.latest_match(channel)
        assert row is not None and row.web_key is not None
        games = len(await store.game_results(row.id))
        return row.web_key, games
    finally:
        await store.close()


async def probe(
    fake: FakeDiscord, who: FakeMember, count: int, pace: float, into: list[float]
) -> None:
    """``/backgammon board`` every ``pace`` seconds in #general: each answer's latency."""
    for _ in range(count):
        started = time.perf_counter()
        result = await fake.slash(who, "general", "backgammon", "board")
        await result.answer(timeout=30)
        into.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(max(0.0, pace - (time.perf_counter() - started)))


async def visitor(
    base: str, key: str, games: int, stop: asyncio.Event, statuses: collections.Counter[int]
) -> None:
    """An anonymous visitor in a tight loop over what a link (and counting) reaches."""
    paths = [f"api/r/{key}", f"api/r/{key}/analysis", f"r/{key}"]
    paths += [f"r/{key}/chart/{n}.png" for n in range(1, games + 1)]
    paths += [f"{page}/{n}" for n in range(1, 6) for page in ("m", "r", "api/m", "api/r")]
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
        index = 0
        while not stop.is_set():
            path = paths[index % len(paths)]
            index += 1
            try:
                async with http.get(base + path) as response:
                    await response.read()
                    statuses[response.status] += 1
            except (aiohttp.ClientError, TimeoutError):
                statuses[0] += 1


def visitors(base: str, key: str, games: int, loops: int, stop: Any, out: Any) -> None:
    """The loops, in a process of their own: the fake Discord and the probe must not share
    an event loop (or a GIL) with the traffic they measure the bot under."""

    async def run() -> collections.Counter[int]:
        statuses: collections.Counter[int] = collections.Counter()
        done = asyncio.Event()

        async def watch() -> None:
            while not stop.is_set():
                await asyncio.sleep(0.05)
            done.set()

        tasks = [
            asyncio.create_task(visitor(base, key, games, done, statuses)) for _ in range(loops)
        ]
        await watch()
        for task in tasks:  # a request still waiting (a chart being drawn) is abandoned
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return statuses

    out.put(dict(asyncio.run(run())))


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        async with FakeDiscord(token=TOKEN) as fake:
            started = time.perf_counter()
            key, games = await long_match(
                db, fake.guild.id, fake.channel_id("games"), args.length, args.seed
            )
            print(
                f"a {args.length}-point match of random play, {games} games, "
                f"in {time.perf_counter() - started:.1f} s",
                flush=True,
            )
            port = free_port()
            base = f"http://127.0.0.1:{port}/"
            env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
            env.update(
                PYTHONPATH=str(ROOT),
                DISCORD_TOKEN=fake.token,
                DISCORD_API_BASE=fake.http_base,
                DISCORD_GATEWAY_URL=fake.gateway_url,
                DEV_GUILD_ID=str(fake.guild.id),
                DATABASE_PATH=str(db),
                LOG_LEVEL="WARNING",
                GAME_REVIEWS="off",
                WEB_URL=base,
                WEB_PORT=str(port),
            )
            bot = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=folder, env=env
            )
            try:
                await fake.wait_until_ready(timeout=60)
                await fake.wait_for_commands(fake.guild.id, names=["backgammon"], timeout=60)
                alice, bob = fake.create_member("alice"), fake.create_member("bob")
                challenge = await fake.slash(
                    alice, "general", "backgammon", "challenge", options={"opponent": bob.id}
                )
                message = await challenge.original_message()
                (accept,) = [c for c in message.custom_ids if c.startswith("bg:accept:")]
                await (await fake.click(bob, message, accept)).answer(timeout=30)
                # The analysis and the charts worked out once, as a first visitor would: the
                # loops then measure what every later request costs.
                started = time.perf_counter()
                async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600)) as http:
                    for path in [f"api/r/{key}/analysis"] + [
                        f"r/{key}/chart/{n}.png" for n in range(1, games + 1)
                    ]:
                        async with http.get(base + path) as response:
                            await response.read()
                print(
                    f"the analysis and {games} charts worked out in "
                    f"{time.perf_counter() - started:.1f} s",
                    flush=True,
                )
                quiet: list[float] = []
                loaded: list[float] = []
                statuses: collections.Counter[int] = collections.Counter()
                context = multiprocessing.get_context("spawn")
                for _ in range(args.rounds):
                    await probe(fake, alice, args.probes, args.pace, quiet)
                    stop, out = context.Event(), context.Queue()
                    loops = context.Process(
                        target=visitors, args=(base, key, games, args.loops, stop, out)
                    )
                    loops.start()
                    await asyncio.sleep(2.0)  # the loops at full speed before measuring
                    await probe(fake, alice, args.probes, args.pace, loaded)
                    stop.set()
                    statuses.update(await asyncio.to_thread(out.get, True, 30))
                    await asyncio.to_thread(loops.join, 30)
            finally:
                bot.terminate()
                await bot.wait()
    load = os.getloadavg()[0]

    def line(name: str, values: list[float]) -> str:
        return (
            f"{name}: n={len(values)} p50 {statistics.median(values):.1f} ms, "
            f"p99 {percentile(values, 0.99):.1f} ms, max {max(values):.1f} ms"
        )

    print(line("others' /backgammon board, no web traffic", quiet))
    print(line(f"others' /backgammon board, {args.loops} anonymous loops", loaded))
    print(
        f"p99 ratio {percentile(loaded, 0.99) / percentile(quiet, 0.99):.2f}, "
        f"p50 ratio {statistics.median(loaded) / statistics.median(quiet):.2f} "
        f"(target: p99 ratio at most 1.5); load average {load:.1f}"
    )
    total = sum(statuses.values())
    print(f"the loops' {total} requests: {dict(sorted(statuses.items()))}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--length", type=int, default=25, help="the public match's length")
    parser.add_argument("--loops", type=int, default=8, help="anonymous visitors")
    parser.add_argument("--probes", type=int, default=60, help="boards asked per side and round")
    parser.add_argument("--pace", type=float, default=0.25, help="seconds between boards")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=3)
    asyncio.run(main(parser.parse_args()))
