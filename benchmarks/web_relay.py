"""How fast a change stored in one process reaches live boards served by another (PostgreSQL
NOTIFY/LISTEN, bot/relay.py), beside the same boards served by the process that made it.

Two sets of services on one PostgreSQL stand for a bot process and a web process (each with
its own store, pools and notifier, as ``python -m bot`` and ``python -m bot web`` have);
``--sockets`` WebSocket clients watch the match on the web process's live page. Moves of a
scripted game are made in the bot process through the session; a watcher's latency is from
the action being called to its state arriving. The same game is then played again with the
watchers on the bot process's own server (facts on its own bus), for comparison.

The watchers open the match by its web key (a row id is a 404), all from 127.0.0.1: each
server's per-client socket quota and rate limit's burst are widened for them, and who may
see a channel is :class:`tests.channel_readers.Readers`' (everyone), as in the page tests.
A socket refused stops the run with its error.

Run: ``python benchmarks/web_relay.py [--sockets 50] [--turns 40]`` (a throwaway PostgreSQL
from tests/pg_server.py, or TEST_DATABASE_URL). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.web_live import percentiles  # noqa: E402
from bot.core.dice import ScriptedRoller  # noqa: E402
from bot.core.reports import Player  # noqa: E402
from bot.relay import FactNotifier  # noqa: E402
from bot.services import Services, build_services  # noqa: E402
from bot.storage import open_store  # noqa: E402
from bot.web import WebConfig, WebServer  # noqa: E402
from bot.web.guard import RateLimiter, SocketQuota  # noqa: E402
from tests.channel_readers import Readers  # noqa: E402
from tests.e2e.tap_game import covering_seed, script  # noqa: E402
from tests.pg_server import Schemas, postgres  # noqa: E402

ALICE, BOB = Player(101, "alice"), Player(102, "bob")


async def watch(
    http: aiohttp.ClientSession, url: str, seen: dict[int, float], ready: asyncio.Event
) -> None:
    async with http.ws_connect(url) as ws:
        async for message in ws:
            state = json.loads(message.data)["state"]
            seen.setdefault(state["version"], time.perf_counter())
            ready.set()
    if not ready.is_set():
        raise RuntimeError(f"{url}: closed before its first state")


@dataclass(frozen=True, slots=True)
class Watched:
    """What the watchers saw: each state's latency, and how many (watcher, state) pairs
    never arrived (a relayed watcher is shown the row as re-read: a change stored before
    the re-read shows the newer state instead of this one)."""

    latencies: list[float]
    missed: int
    states: int

    def __str__(self) -> str:
        return f"{percentiles(self.latencies)}  ({self.states} states, missed {self.missed})"


async def play(
    here: Services,
    roller: ScriptedRoller,
    server: WebServer,
    channel: int,
    sockets: int,
    turns: int,
) -> Watched:
    """One scripted game in ``channel`` made through ``here``, watched on ``server``."""
    plan = script(covering_seed())
    session = here.session
    await session.challenge(1, channel, ALICE, BOB)
    roller.extend(plan.opening)
    match = (await session.accept(channel, BOB)).match
    # A match's pages are addressed by its web key, never its row id (which is a 404).
    assert match.web_key, "a live match has a web key"
    url = f"ws://127.0.0.1:{server.port}/m/{match.web_key}/ws"
    seen: list[dict[int, float]] = [{} for _ in range(sockets)]
    made: dict[int, float] = {}
    async with aiohttp.ClientSession() as http:
        readies = [asyncio.Event() for _ in range(sockets)]
        pairs = zip(seen, readies, strict=True)
        tasks = [asyncio.create_task(watch(http, url, s, r)) for s, r in pairs]
        await every_socket_open(tasks, readies)
        players = {0: ALICE, 1: BOB}
        for number, turn in enumerate(plan.turns[:turns]):
            who = players[turn.player]
            if number:
                roller.extend(turn.dice)
                started = time.perf_counter()
                report = await session.roll(channel, who)
                made[report.match.version] = started
            if turn.play is not None:
                started = time.perf_counter()
                report = await session.move(channel, who, str(turn.play))
                made[report.match.version] = started
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.5)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return Watched(
        [
            (arrived[version] - started) * 1000
            for arrived in seen
            for version, started in made.items()
            if version in arrived
        ],
        missed=sum(1 for arrived in seen for version in made if version not in arrived),
        states=len(made),
    )


def quota(sockets: int) -> SocketQuota:
    """Every watcher comes from 127.0.0.1: the per-client socket quota (8, against one
    visitor opening boards in a loop) is widened to let them all watch."""
    return SocketQuota(per_client=sockets + 8, total=sockets + 1000)


def opening(sockets: int) -> RateLimiter:
    """The per-client rate limit's burst (40) widened likewise: the watchers open their
    sockets at once."""
    return RateLimiter(burst=sockets + 40.0)


async def every_socket_open(tasks: list[asyncio.Task[None]], readies: list[asyncio.Event]) -> None:
    """Wait until every watcher's socket is open; a socket refused (a wrong address is a
    404, one too many from this address a 429) stops the run with its error instead of
    waiting for ever."""
    opened = asyncio.ensure_future(asyncio.gather(*(ready.wait() for ready in readies)))
    pending: set[asyncio.Future[Any]] = {opened, *tasks}
    while not opened.done():
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()  # a watcher that ended before the run began: its error, raised


async def main(args: argparse.Namespace) -> None:
    if args.database_url is None:
        with postgres(durable=True) as schemas:
            args.database_url = schemas.url
            await main(args)
        return
    with Schemas(args.database_url).fresh() as url:
        roller = ScriptedRoller()
        store_a, store_b = await open_store(url), await open_store(url)
        here = build_services(store_a, roller=roller)
        there = build_services(store_b, roller=roller)
        notifier = FactNotifier(url, "bot")
        await notifier.start(here.facts)
        config = WebConfig(url="http://127.0.0.1/", port=0)
        readers: Any = Readers()  # everyone reads every channel (no Discord here)
        web = WebServer(
            there,
            config,
            readers=readers,
            sockets=quota(args.sockets),
            limiter=opening(args.sockets),
            listen_url=url,
            origin="web",
        )
        own = WebServer(
            here,
            config,
            readers=readers,
            sockets=quota(args.sockets),
            limiter=opening(args.sockets),
        )
        await web.start()
        await own.start()
        try:
            relayed = await play(here, roller, web, 10, args.sockets, args.turns)
            local = await play(here, roller, own, 11, args.sockets, args.turns)
        finally:
            await web.stop()
            await own.stop()
            await notifier.close()
            await store_a.close()
            await store_b.close()
    print(f"{args.sockets} sockets, {args.turns} turns of a scripted game")
    print(f"  another process (NOTIFY, re-read): {relayed}")
    print(f"  the same process (its own facts):  {local}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sockets", type=int, default=50)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--database-url", default=None)
    asyncio.run(main(parser.parse_args()))
