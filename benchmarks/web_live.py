"""How fast a move made in the Activity reaches the boards that watch it.

The bot runs in this process against the local fake Discord (as the e2e tests run it), with
its web server and the fake Discord's OAuth2. Two players log in to the Activity over HTTP
as its page does and play a scripted game through its API (roll, then the play built from
taps); every action also goes to the channel as a board post, as in production. Watching:
``--sockets`` plain WebSocket clients on the match's live page socket, and ``--browsers``
tabs of a real headless Chromium showing the live page (each tab records when it drew each
state, on the wall clock). A watcher's latency is from the action's request leaving the
player to the state arriving (sockets) or being drawn (browsers). Target: p99 under 200 ms.

Run: ``python benchmarks/web_live.py [--sockets 50] [--browsers 5] [--turns 30]``
(needs Debian's chromium and chromium-driver for the browsers; ``--browsers 0`` without).
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.web.guard import SocketQuota  # noqa: E402
from bot.web.state import to_absolute  # noqa: E402
from tests.e2e.activity_support import Activity, activity  # noqa: E402
from tests.e2e.browser_support import body_data, browser, wait_until  # noqa: E402
from tests.e2e.conftest import TOKEN, Harness  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord  # noqa: E402
from tests.e2e.tap_game import covering_seed, script  # noqa: E402


def percentiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return (
        f"n={len(values)} p50 {at(0.5):.1f} ms  p90 {at(0.9):.1f} ms  "
        f"p99 {at(0.99):.1f} ms  max {ordered[-1]:.1f} ms  mean {statistics.fmean(values):.1f} ms"
    )


class SocketWatcher:
    def __init__(self) -> None:
        self.seen: dict[int, float] = {}  # version -> wall clock when it arrived

    async def run(self, http: aiohttp.ClientSession, url: str, ready: asyncio.Event) -> None:
        async with http.ws_connect(url) as socket:
            ready.set()
            async for message in socket:
                state = json.loads(message.data).get("state")
                if state:
                    self.seen.setdefault(state["version"], time.time())


async def act(a: Activity, seat: str, verb: str, steps: str = "") -> int:
    row = await a.h.live()
    assert row is not None and row.web_key
    status, answer = await a.post(
        "api/activity/act",  # the match named by its web key, as the Activity's page names it
        {"verb": verb, "match": row.web_key, "version": row.version, "steps": steps},
        seat,
    )
    assert status == 200, answer
    return int(answer["state"]["version"])


async def steps_for(a: Activity, seat: str, play: Any) -> str:
    """The taps of ``play``, asked of the server one by one as the Activity's page does."""
    row = await a.h.live()
    assert row is not None and row.game is not None
    mover = row.game.on_roll
    steps = ""
    for move in play.moves:
        source = to_absolute(move.source, mover)
        _, offered = await a.post("api/activity/taps", {"steps": steps, "source": source}, seat)
        target = to_absolute(move.target, mover)
        (chosen,) = [d for d in offered["destinations"] if d["target"] == target]
        steps = f"{steps}.{chosen['steps']}" if steps else chosen["steps"]
    return steps


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord(token=TOKEN) as fake:
            with fake.patch_discord():
                h = Harness(fake, Path(tmp) / "gammon.db")
                await h.start()
                try:
                    await run(h, args)
                finally:
                    await h.stop()


async def run(h: Harness, args: argparse.Namespace) -> None:
    plan = script(covering_seed())
    h.roller.extend(plan.opening)
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await (await h.press(h.bob, challenge, "accept")).answer()
    row = await h.live()
    assert row is not None
    async with activity(h) as a:
        # Every watcher here comes from 127.0.0.1: the per-client socket quota (8, against
        # one visitor opening boards in a loop) is widened to let them all watch.
        watching = args.sockets + args.browsers
        a.server.sockets = SocketQuota(per_client=watching + 8, total=watching + 1000)
        instance = a.oauth.launch("games", h.alice, h.bob)
        seats = {0: (await a.login(h.alice, instance))["session"]}
        seats[1] = (await a.login(h.bob, instance))["session"]
        # A match's pages are addressed by its web key, never its row id (which is a 404).
        assert row.web_key, "a live match has a web key"
        page = f"{a.base}m/{row.web_key}"
        url = f"{page.replace('http', 'ws', 1)}/ws"
        watchers = [SocketWatcher() for _ in range(args.sockets)]
        readies = [asyncio.Event() for _ in watchers]
        tasks = [
            asyncio.create_task(w.run(a.http, url, ready))
            for w, ready in zip(watchers, readies, strict=True)
        ]
        await every_socket_open(tasks, readies)
        with browser() if args.browsers else _nothing() as driver:
            tabs = []
            for index in range(args.browsers):
                assert driver is not None
                if index:
                    await asyncio.to_thread(driver.switch_to.new_window, "tab")
                await asyncio.to_thread(driver.get, page)
                # The live page itself, its socket open (not a notice page, not a 404).
                await asyncio.to_thread(
                    wait_until, lambda: body_data(driver, "connected") == "1", 30.0, "a tab"
                )
                tabs.append(driver.current_window_handle)
            sent: dict[int, float] = {}
            for number, turn in enumerate(plan.turns[: args.turns]):
                seat = seats[turn.player]
                if number:
                    h.roller.extend(turn.dice)
                    start = time.time()
                    sent[await act(a, seat, "roll")] = start
                    await settle(watchers)
                if turn.play is not None:
                    steps = await steps_for(a, seat, turn.play)
                    start = time.time()
                    sent[await act(a, seat, "move", steps)] = start
                    await settle(watchers)
            socket_ms = [
                (w.seen[v] - t) * 1000 for w in watchers for v, t in sent.items() if v in w.seen
            ]
            missing = sum(1 for w in watchers for v in sent if v not in w.seen)
            browser_ms: list[float] = []
            tab_missing = 0
            for handle in tabs:
                assert driver is not None
                await asyncio.to_thread(driver.switch_to.window, handle)
                seen = dict(driver.execute_script("return window.gammonSeen || []"))
                browser_ms += [seen[v] - t * 1000 for v, t in sent.items() if v in seen]
                tab_missing += sum(1 for v in sent if v not in seen)
        for task in tasks:
            task.cancel()
        posts = len(h.fake.messages_in("games"))
        print(f"actions through the Activity: {len(sent)} (board posts in the channel: {posts})")
        print(f"{args.sockets} socket watchers: {percentiles(socket_ms)}  (missed {missing})")
        if args.browsers:
            drawn = percentiles(browser_ms)
            print(f"{args.browsers} Chromium tabs, state drawn: {drawn}  (missed {tab_missing})")


async def every_socket_open(tasks: list[asyncio.Task[None]], readies: list[asyncio.Event]) -> None:
    """Wait until every watcher's socket is open; a socket refused (a wrong address is a
    404) stops the run with its error instead of waiting for ever."""
    opened = asyncio.ensure_future(asyncio.gather(*(ready.wait() for ready in readies)))
    pending: set[asyncio.Future[Any]] = {opened, *tasks}
    while not opened.done():
        done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()  # a watcher that ended before the run began: its error, raised


async def settle(watchers: list[SocketWatcher], pause: float = 0.15) -> None:
    """A player's pause between actions (the watchers draw meanwhile)."""
    await asyncio.sleep(pause)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=50)
    parser.add_argument("--browsers", type=int, default=5)
    parser.add_argument("--turns", type=int, default=30)
    asyncio.run(main(parser.parse_args()))
