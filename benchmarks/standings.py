"""Time the competition pictures: a standings table and a knockout bracket, 8 to 64 players.

Run: ``python benchmarks/standings.py [--rounds 30] [--theme classic]``.

For each field size, a Swiss event is played out at random (``bot.competitions``) and its
table built in English (``bot.present.competitions.swiss_picture``); a knockout of the same
size is drawn after its first round. Each picture is then drawn and PNG-encoded
``--rounds`` times (``renderers.standings``); the median and p95 of one call are printed
with the PNG's size and pixels. The first call of each (fonts, medals, name images to
cache) is reported apart: the bot draws many pictures per process. The names are all
different and some need the fallback fonts (CJK, emoji), as on a real server.

Target: the standings picture for 64 players in under 50 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.competitions import Knockout, Result, Swiss
from bot.present.competitions import knockout_picture, swiss_picture
from renderers.standings import render_bracket, render_table

SIZES = (8, 32, 64)
SCRIPTS = ("", " 山田", " 🎲", " Ŵ", "")


def names(count: int) -> dict[int, str]:
    return {p: f"player {p}{SCRIPTS[p % len(SCRIPTS)]} of the club" for p in range(count)}


def swiss(count: int, rng: random.Random) -> Swiss:
    event = Swiss.start(range(count))
    while not event.finished:
        for key, pairing in event.open_matches():
            a, b = pairing.players
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            event = event.record(key, Result.played(winner, loser, (5, rng.randrange(5))))
        event = event.pair_next()
    return event


def knockout(count: int, rng: random.Random) -> Knockout:
    event = Knockout(tuple(range(count)), lengths=(5, 7, 9))
    for match in event.ready():
        a, b = match.players
        event = event.record(match.key, Result.played(a, b, (5, rng.randrange(5))))
    return event


def measure(draw: Callable[[], bytes], rounds: int) -> tuple[float, list[float], bytes]:
    start = time.perf_counter()
    png = draw()
    first = (time.perf_counter() - start) * 1000
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        png = draw()
        times.append((time.perf_counter() - start) * 1000)
    return first, times, png


def report(label: str, first: float, times: list[float], png: bytes) -> None:
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    import io

    width, height = Image.open(io.BytesIO(png)).size
    print(
        f"{label:<24} first {first:6.1f} ms   median {statistics.median(times):6.1f} ms   "
        f"p95 {p95:6.1f} ms   {len(png) / 1024:5.1f} KB   {width}x{height}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--theme", default="classic")
    args = parser.parse_args()
    rng = random.Random(28)
    for count in SIZES:
        who = names(count)
        table = swiss_picture(swiss(count, rng), names=who, title=f"Club Swiss, {count} players")
        first, times, png = measure(lambda t=table: render_table(t, theme=args.theme), args.rounds)
        report(f"standings, {count} players", first, times, png)
        bracket = knockout_picture(knockout(count, rng), names=who, title=f"Knockout, {count}")
        first, times, png = measure(
            lambda b=bracket: render_bracket(b, theme=args.theme), args.rounds
        )
        report(f"bracket, {count} players", first, times, png)


if __name__ == "__main__":
    main()
