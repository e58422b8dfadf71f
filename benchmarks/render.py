"""Time the board renderer on a fixed set of positions.

Run: ``python benchmarks/render.py [--width 1000] [--theme classic] [--rounds 30]``.

Prints the median and p95 time of one ``render_board`` call (compose and PNG-encode), the
time to PNG-encode a blank RGB image of the same size with Pillow's default settings (the
floor a full-colour renderer pays), their ratio, and the PNG sizes. The output is a palette
PNG, which encodes faster than any RGB one; the blank palette image's time is printed too.
Caches are warmed first: the bot renders many pictures per process, so the first call's
set-up is reported on its own.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.engine import Game
from renderers import render_board
from renderers.examples import EXAMPLES
from renderers.theme import Layout

NAMES = ("alice 🎲", "Bob Marley 山田 the Third of His Name")


def positions() -> list[tuple[str, Game, int]]:
    """Every example state (opening, hits, bar, bear-off, cube, Crawford, game over), from
    both sides of the board."""
    cases = []
    for name, make in EXAMPLES.items():
        game, perspective = make()
        cases.append((name, game, perspective))
        cases.append((f"{name}, other side", game, 1 - perspective))
    return cases


def blank_encode_ms(width: int, height: int, rounds: int, mode: str = "RGB") -> float:
    """Median time to PNG-encode a blank image with Pillow's default settings."""
    blank = Image.new(mode, (width, height))
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        blank.save(io.BytesIO(), "PNG")
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--theme", default="classic")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    cases = positions()

    start = time.perf_counter()
    render_board(cases[0][1], perspective=0, names=NAMES, theme=args.theme, width=args.width)
    first = (time.perf_counter() - start) * 1000
    for _, game, perspective in cases:  # warm the caches for every case
        render_board(game, perspective=perspective, names=NAMES, theme=args.theme, width=args.width)

    times: list[float] = []
    cpu_times: list[float] = []
    sizes: dict[str, int] = {}
    for _ in range(args.rounds):
        for label, game, perspective in cases:
            start, cpu = time.perf_counter(), time.process_time()
            png = render_board(
                game, perspective=perspective, names=NAMES, theme=args.theme, width=args.width
            )
            times.append((time.perf_counter() - start) * 1000)
            cpu_times.append((time.process_time() - cpu) * 1000)
            sizes[label] = len(png)
    times.sort()
    median = statistics.median(times)
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    layout = Layout.for_width(args.width)
    floor = blank_encode_ms(layout.width, layout.height, args.rounds * 3)

    print(
        f"image: {layout.width}x{layout.height} px, theme {args.theme}, "
        f"{len(cases)} positions x {args.rounds} rounds"
    )
    print(f"first call (fonts, sprites, palette): {first:.0f} ms")
    print(f"render median: {median:.2f} ms   p95: {p95:.2f} ms")
    # CPU time is what the process itself spent: a check when other work shares the machine.
    print(f"render CPU time median: {statistics.median(cpu_times):.2f} ms")
    print(f"blank PNG encode (floor): {floor:.2f} ms   ratio median/floor: {median / floor:.2f}")
    floor_p = blank_encode_ms(layout.width, layout.height, args.rounds * 3, "P")
    print(f"  (a blank palette image, as the output is, encodes in {floor_p:.2f} ms)")
    print(
        f"PNG size: median {statistics.median(sizes.values()) / 1024:.1f} KB, "
        f"max {max(sizes.values()) / 1024:.1f} KB"
    )
    for label, size in sizes.items():
        print(f"  {label:<24} {size / 1024:6.1f} KB")


if __name__ == "__main__":
    main()
