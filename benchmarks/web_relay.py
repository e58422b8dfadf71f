"""How fast a change stored in one process reaches live boards served by another (PostgreSQL
NOTIFY/LISTEN, bot/relay.py), beside the same boards served by the process that made it.

Two sets of services on one PostgreSQL stand for a bot process and a web process (each with
its own store, pools and notifier, as ``python -m bot`` and ``python -m bot web`` have);
``--sockets`` WebSocket clients watch the match on the web process's live page. Moves of a
scripted game are made in the bot process through the session; a watcher's latency is from
the action being called to its state arriving. The same game is then played again with the
watchers on the bot process's own server (facts on its own bus), for comparison.

Run: ``python benchmarks/web_relay.py [--sockets 50] [--turns 40]`` (a throwaway PostgreSQL
from tests/pg_server.py, or TEST_DATABASE_URL). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

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


async def play(
    here: Services,
    roller: ScriptedRoller,
    server: WebServer,
    channel: int,
    sockets: int,
    turns: int,
) -> list[float]:
    """One scripted game in ``channel`` made through ``here``, watched on ``server``."""
    plan = script(covering_seed())
    session = here.session
    await session.challenge(1, channel, ALICE, BOB)
    roller.extend(plan.opening)
    match = (await session.accept(channel, BOB)).match.id
    url = f"http://127.0.0.1:{server.port}/m/{match}/ws"
    seen: list[dict[int, float]] = [{} for _ in range(sockets)]
    made: dict[int, float] = {}
    async with aiohttp.ClientSession() as http:
        readies = [asyncio.Event() for _ in range(sockets)]
        pairs = zip(seen, readies, strict=True)
        tasks = [asyncio.create_task(watch(http, url, s, r)) for s, r in pairs]
        await asyncio.gather(*(r.wait() for r in readies))
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
    return [
        (arrived[version] - started) * 1000
        for arrived in seen
        for version, started in made.items()
        if version in arrived
    ]


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
        web = WebServer(there, config, listen_url=url, origin="web")
        own = WebServer(here, config)
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
    print(f"  another process (NOTIFY, re-read): {percentiles(relayed)}")
    print(f"  the same process (its own facts):  {percentiles(local)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sockets", type=int, default=50)
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--database-url", default=None)
    asyncio.run(main(parser.parse_args()))
