"""Time the competition pictures: a standings table and a knockout bracket, 8 to 64 players.

Run: ``python benchmarks/standings.py [--rounds 30] [--theme classic]``.

For each field size, a Swiss event is played out at random (``bot.features.tournaments.rules``) and
its table built in English (``bot.present.competitions.swiss_picture``); a knockout of the same
size is drawn after its first round. Each picture is then drawn and PNG-encoded
``--rounds`` times (``renderers.standings``); the median and p95 of one call are printed
with the PNG's size and pixels, twice: with the text caches warm (the names and figures
drawn before, as for the next round's table) and emptied before each call (every text
drawn anew; the fonts and the figures' character tiles stay loaded). The very first call
is reported apart. Beside each median, the median CPU time of this process: on a machine
shared with other work the wall time is often two or three times the CPU time.
The names are all different, long enough to be cut, and some need the fallback fonts (CJK,
emoji), as on a real server.

Target: the standings picture for 64 players in under 50 ms, the first one after a start too.

First, as the bot at start-up, the caches are warmed (``renderers.standings_warm``: fonts
and fallback fonts, palettes, medals, figure tiles, character widths) and the first table
of 64 players whose names were never drawn is timed.

Figures 2026-11-25 02:18 UTC (load average 5 on the 2 cores, three runs): warm-up 72-93 ms
at start-up, then the first table of 64 players 47-63 ms (CPU the same); warm median
9.4-10.2 ms; cold median 40-57 ms (CPU 40-51 ms); bracket of 64 cold 17-20 ms. A space
measured alone had no width (``clean`` drops it), so long names with spaces were cut too
little and then cut again by the exact search: counted right, the cold table went from
about 55 to 45 ms of CPU.

Older figures, before the warm-up and the space's width:

On the shared 2-core development machine (2026-11-24 22:55 UTC, load average 8,
three runs; wall time, then CPU time of this process):
  standings, 64 players: warm median 12-31 ms (CPU 7-10 ms), p95 26-38 ms; cold median
  138-158 ms (CPU 53-58 ms); 149 KB, 800x3654.
  standings, 8 players: warm 0.6 ms, cold 16-21 ms (CPU 8-9 ms).
  bracket, 64 players (three rounds shown): warm 7-9 ms (CPU 3 ms), cold 53-72 ms (CPU 26).
  Drawing straight onto the palette took the warm table from 175 ms (full colour, then
  quantized and compressed at zlib's level 6) to about 25 ms; cutting long names by
  cached character widths and composing figures from character tiles took the cold CPU
  time from 68 to 54 ms. What remains cold is mostly FreeType drawing each new name.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.features.tournaments.rules import Knockout, Result, Swiss
from bot.present.competitions import knockout_picture, swiss_picture
from renderers import standings as standings_renderer
from renderers.standings import render_bracket, render_table
from renderers.standings_warm import warm_up
from renderers.text import text_image

SIZES = (8, 32, 64)
CPU = [0.0, 0.0]  # the last measure's median CPU time of this process, warm and cold
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


def measure(
    draw: Callable[[], bytes], rounds: int
) -> tuple[float, list[float], list[float], bytes]:
    """The first call, then ``rounds`` calls with the text caches warm, then ``rounds``
    with them emptied first (fonts stay loaded): every name and figure drawn anew, as
    when a worker has drawn many boards since the last table."""
    start = time.perf_counter()
    png = draw()
    first = (time.perf_counter() - start) * 1000
    warm, cold, warm_cpu, cold_cpu = [], [], [], []
    for _ in range(rounds):
        start, cpu = time.perf_counter(), time.process_time()
        png = draw()
        warm.append((time.perf_counter() - start) * 1000)
        warm_cpu.append((time.process_time() - cpu) * 1000)
    for _ in range(rounds):
        standings_renderer._text_tile.cache_clear()
        text_image.cache_clear()
        start, cpu = time.perf_counter(), time.process_time()
        png = draw()
        cold.append((time.perf_counter() - start) * 1000)
        cold_cpu.append((time.process_time() - cpu) * 1000)
    CPU[0] = statistics.median(warm_cpu)
    CPU[1] = statistics.median(cold_cpu)
    return first, warm, cold, png


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def report(label: str, first: float, warm: list[float], cold: list[float], png: bytes) -> None:
    width, height = Image.open(io.BytesIO(png)).size
    print(
        f"{label:<23} first {first:5.1f} ms | warm median {statistics.median(warm):5.1f} "
        f"p95 {_p95(warm):5.1f} (CPU {CPU[0]:4.1f}) ms | cold median "
        f"{statistics.median(cold):5.1f} p95 {_p95(cold):5.1f} (CPU {CPU[1]:4.1f}) ms | "
        f"{len(png) / 1024:5.1f} KB {width}x{height}"
    )


def first_after_start_up(theme: str, rng: random.Random) -> None:
    """As the bot: the caches warmed at start-up (``renderers.standings_warm``), then the
    first table of 64 players, whose names the warm-up never drew."""
    start, cpu = time.perf_counter(), time.process_time()
    warm_up()
    warming = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
    who = {p: f"first {name}" for p, name in names(64).items()}
    table = swiss_picture(swiss(64, rng), names=who, title="Club Swiss, 64 players")
    start, cpu = time.perf_counter(), time.process_time()
    render_table(table, theme=theme)
    first = (time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000
    print(
        f"start-up warm-up {warming[0]:6.1f} ms (CPU {warming[1]:5.1f}); then the first "
        f"standings table of 64 players {first[0]:5.1f} ms (CPU {first[1]:5.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--theme", default="classic")
    args = parser.parse_args()
    rng = random.Random(28)
    first_after_start_up(args.theme, rng)
    for count in SIZES:
        who = names(count)
        table = swiss_picture(swiss(count, rng), names=who, title=f"Club Swiss, {count} players")
        first, warm, cold, png = measure(
            partial(render_table, table, theme=args.theme), args.rounds
        )
        report(f"standings, {count} players", first, warm, cold, png)
        bracket = knockout_picture(knockout(count, rng), names=who, title=f"Knockout, {count}")
        first, warm, cold, png = measure(
            partial(render_bracket, bracket, theme=args.theme), args.rounds
        )
        report(f"bracket, {count} players", first, warm, cold, png)


if __name__ == "__main__":
    main()
