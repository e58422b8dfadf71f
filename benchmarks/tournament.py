"""A 64-player knockout's first round opened through Discord's rate limits (issue 28).

Run: ``python benchmarks/tournament.py [--players 64] [--route-limit 5] [--route-window 5]``

The real bot (discord.py, the cogs, the services, an SQLite file) runs in this process
against the local fake Discord (tests/e2e/fake_discord/), whose rate limits are set to
Discord's tightest documented bucket (5 requests per 5 s per route and channel) and its
global 50 requests per second. 64 members join, a director runs ``/tournament start``, and
the draw opens the 32 first-round matches: 32 threads under one channel (one bucket), a
ping and the opening board in each, one notice in the channel. Printed: the time until the
last board is posted, how many 429s discord.py met (and waited out: the fake answers them
as Discord does, with ``Retry-After`` and the bucket headers), any request refused for
another reason (there must be none), and the time each thread took after the previous one.
Then the standings picture of the 64-player bracket is drawn (its own benchmark,
``benchmarks/standings.py``, has the full figures).

A benchmark prints figures; it asserts nothing. Figures (2026-11-25 01:18 UTC, load average
4.9 on the shared 2 cores): at 5 per 5 s the last board 30.4 s after the command, paced by
thread creation in one channel; no request refused; no 429 (discord.py read the bucket
headers and waited); at the fake's default 10 per second, 3.2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import TOKEN, Harness  # noqa: E402
from tests.e2e.fake_discord import PERM_MANAGE_GUILD, FakeDiscord  # noqa: E402


async def run(players: int, route_limit: int, route_window: float) -> None:
    from cogs.tournament_posts import pictures  # the bot's own modules, after the path

    async with FakeDiscord(token=TOKEN) as fake:
        with fake.patch_discord():
            fake.rate_limits.route_limit = route_limit
            fake.rate_limits.route_window = route_window
            with tempfile.TemporaryDirectory() as folder:
                h = Harness(fake, Path(folder) / "gammon.db", fair_dice=True)
                director = fake.create_member("td", permissions=PERM_MANAGE_GUILD)
                members = [fake.create_member(f"player{i:02d}") for i in range(players)]
                await h.start()
                try:
                    await measure(h, director, members, pictures)
                finally:
                    await h.stop()


async def measure(h: Harness, director, members, pictures) -> None:
    fake = h.fake
    tournaments = h.services.tournaments
    created = await fake.slash(
        director, "games", "tournament", "create", options={"name": "Big KO", "lengths": "5"}
    )
    await created.answer()
    [event] = await tournaments.current(fake.guild.id)
    from bot.core.reports import Player

    for member in members:  # joining by the service: the buttons are measured elsewhere
        await tournaments.join(event.id, Player(member.id, member.username), None)
    fake.rate_limits.reset()
    limited_before = len(fake.rate_limited)
    started_at = time.perf_counter()
    started = await fake.slash(director, "games", "tournament", "start")
    await started.response()  # deferred at once; the answer comes when the round is open
    expected = len(members) // 2

    appeared: list[float] = []  # when each thread was first seen

    def boards() -> list:
        threads = [c for c in fake.guild.channels.values() if c.is_thread]
        while len(appeared) < len(threads):
            appeared.append(time.perf_counter())
        return [
            m
            for t in threads
            for m in fake.messages_in(t.id)
            if m.attachments and m.attachments[0].filename.endswith(".png")
        ]

    await fake.wait_for(lambda: len(boards()) >= expected, 600, "every first-round board")
    elapsed = time.perf_counter() - started_at
    await started.answer(600)  # the director's answer, once the round is open
    answered = time.perf_counter() - started_at
    threads = sorted((c for c in fake.guild.channels.values() if c.is_thread), key=lambda c: c.id)
    limited = fake.rate_limited[limited_before:]
    print(f"{len(members)} players: {len(threads)} threads, {len(boards())} opening boards")
    print(
        f"  last board posted {elapsed:.1f} s after /tournament start; the director's "
        f"answer {answered:.1f} s"
    )
    print(f"  429s met and waited out by discord.py: {len(limited)}")
    routes: dict[str, int] = {}
    for record in limited:
        key = record.method + " " + record.path.split("/api/v10")[-1]
        key = "/".join("{id}" if part.isdigit() else part for part in key.split("/"))
        routes[key] = routes.get(key, 0) + 1
    for route, count in sorted(routes.items(), key=lambda kv: -kv[1]):
        print(f"    {count:3d} on {route}")
    print(f"  other refusals (must be none): {len(fake.errors)}")
    if len(appeared) > 1:
        gaps = [b - a for a, b in itertools.pairwise(appeared)]
        print(
            f"  first thread {appeared[0] - started_at:.2f} s after the command; between "
            f"threads median {statistics.median(gaps):.2f} s, longest {max(gaps):.2f} s"
        )
    event_row = await tournaments.event(event.id)
    state = await tournaments.load(event_row)
    names = await tournaments.names(event.id)
    samples = []
    for _ in range(10):
        began = time.perf_counter()
        pictures(state, names, "en")
        samples.append((time.perf_counter() - began) * 1000)
    print(
        f"  the 64-player bracket picture: median {statistics.median(samples):.1f} ms, "
        f"first {samples[0]:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--route-limit", type=int, default=5)
    parser.add_argument("--route-window", type=float, default=5.0)
    args = parser.parse_args()
    asyncio.run(run(args.players, args.route_limit, args.route_window))


if __name__ == "__main__":
    main()
