"""Time the board renderer on a fixed set of positions, beside the renderer before #17.

Run: ``python benchmarks/render.py [--width 1000] [--theme classic] [--rounds 30]``.

Prints the median and p95 time of one ``render_board`` call (compose and PNG-encode) for the
current renderer and for a frozen copy of the one before issue #17
(``benchmarks/_render_before.py``: compose everything in RGB, map the whole picture onto
the palette, Pillow's PNG encoder), timed in the same run, one call of each in turn; then
their ratio, the time to PNG-encode a blank RGB image with Pillow's default settings (the
floor a full-colour renderer pays), and the PNG sizes. Caches are warmed first: the bot
renders many pictures per process, so the first call's set-up is reported on its own.

The example states repeat: the renderer keeps regions of checkers, panels and names, and
arrows, as they recur in a game. Two more sets are drawn once each: ``--games N`` pictures
of random games in the order the bot posts them (after each roll, move and cube action),
the realistic case; ``--random N`` states from unrelated random games, the worst case for
those caches.

Figures on the 2-core development machine, shared with other work, 1000 px, classic
(November 2026), with isal installed (before -> now, ratio):
  examples  median 5.9 -> 1.8 ms (0.30), p95 15.6 -> 2.7 ms, PNG at most 76.5 KB
  games     median 7.7 -> 3.2 ms (0.42), p95 10.9 -> 6.5 ms, PNG at most 77.7 KB
  random    median 7.6 -> 4.4 ms (0.58), p95 10.2 -> 7.5 ms
Without isal the deflate takes 2.9 ms instead of 0.5 ms: examples median ratio about 0.6.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from benchmarks import _render_before as before
from bot.engine import Game, Phase
from renderers import png, render_board
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


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def random_positions(count: int) -> list[tuple[str, Game, int]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import random

    from tests.renderers.test_random import random_states

    states = random_states(random.Random(17), count)
    return [(f"random {i}", game, i % 2) for i, (game, _) in enumerate(states)]


def game_pictures(count: int, seed: int = 17) -> list[tuple[str, Game, int]]:
    """``count`` pictures as the bot posts them: every state of random games in order
    (after each roll, move, double and answer), from the side of whoever acts next."""
    import random

    from tests.renderers.test_random import random_step

    rng = random.Random(seed)
    out: list[tuple[str, Game, int]] = []
    while len(out) < count:
        game = Game.new()
        while game.phase is not Phase.OVER and len(out) < count:
            game = random_step(game, rng)
            actor = game.actor if game.actor is not None else game.on_roll
            out.append((f"game {len(out)}", game, actor))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--width", type=int, default=1000)
    parser.add_argument("--theme", default="classic")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--random", type=int, default=100, help="random states, drawn once")
    parser.add_argument("--games", type=int, default=200, help="pictures of games, in order")
    args = parser.parse_args()
    cases = positions()
    # The two keep one call shape but name their own sentinel types: Callable[..., bytes].
    paths: dict[str, Callable[..., bytes]] = {"before": before.render_board, "now": render_board}

    def draw(which: str, game: Game, perspective: int) -> bytes:
        return paths[which](
            game, perspective=perspective, names=NAMES, theme=args.theme, width=args.width
        )

    firsts = {}
    for which in paths:
        start = time.perf_counter()
        draw(which, cases[0][1], 0)
        firsts[which] = (time.perf_counter() - start) * 1000
        for _, game, perspective in cases:  # warm the caches for every case
            draw(which, game, perspective)

    times: dict[str, list[float]] = {which: [] for which in paths}
    cpu_times: dict[str, list[float]] = {which: [] for which in paths}
    sizes: dict[str, dict[str, int]] = {which: {} for which in paths}

    def measure(which: str, batch: list[tuple[str, Game, int]], into: str = "") -> None:
        for label, game, perspective in batch:
            start, cpu = time.perf_counter(), time.process_time()
            png = draw(which, game, perspective)
            times[which + into].append((time.perf_counter() - start) * 1000)
            cpu_times[which + into].append((time.process_time() - cpu) * 1000)
            sizes[which + into][label] = len(png)

    # Each round times every case with one renderer, then with the other: each keeps its
    # own data in the CPU's caches, as in the bot, and a change in the machine's load
    # falls on both.
    for _ in range(args.rounds):
        for which in paths:
            measure(which, cases)
    # Pictures drawn once: batches of ten, each renderer first in turn (the text images
    # one draws, the other finds in the cache they share).
    scenarios = {
        "random": random_positions(args.random) if args.random else [],
        "games": game_pictures(args.games) if args.games else [],
    }
    for name, batch in scenarios.items():
        for which in paths:
            times[f"{which} {name}"], cpu_times[f"{which} {name}"] = [], []
            sizes[f"{which} {name}"] = {}
        for number, start in enumerate(range(0, len(batch), 10)):
            for which in list(paths)[:: 1 if number % 2 else -1]:
                measure(which, batch[start : start + 10], f" {name}")

    layout = Layout.for_width(args.width)
    floor = blank_encode_ms(layout.width, layout.height, args.rounds * 3)
    print(
        f"image: {layout.width}x{layout.height} px, theme {args.theme}, "
        f"{len(cases)} example positions x {args.rounds} rounds, "
        f"{len(scenarios['random'])} random states, {len(scenarios['games'])} game pictures"
    )
    print(f"deflate: {'isal' if png.fast_zlib is not None else 'zlib (isal not installed)'}")
    print(f"{'':24} {'before':>10} {'now':>10}  now/before")
    rows = [
        ("first call (ms)", {w: firsts[w] for w in paths}),
        ("median (ms)", {w: statistics.median(times[w]) for w in paths}),
        ("p95 (ms)", {w: percentile(times[w], 0.95) for w in paths}),
        ("CPU median (ms)", {w: statistics.median(cpu_times[w]) for w in paths}),
        ("max PNG (KB)", {w: max(sizes[w].values()) / 1024 for w in paths}),
        ("median PNG (KB)", {w: statistics.median(sizes[w].values()) / 1024 for w in paths}),
    ]
    for name, batch in scenarios.items():
        if batch:
            rows += [
                (
                    f"{name}: median (ms)",
                    {w: statistics.median(times[f"{w} {name}"]) for w in paths},
                ),
                (f"{name}: p95 (ms)", {w: percentile(times[f"{w} {name}"], 0.95) for w in paths}),
                (
                    f"{name}: max PNG (KB)",
                    {w: max(sizes[f"{w} {name}"].values()) / 1024 for w in paths},
                ),
            ]
    for label, figures in rows:
        ratio = figures["now"] / figures["before"] if figures["before"] else float("nan")
        print(f"{label:<24} {figures['before']:>10.2f} {figures['now']:>10.2f}  {ratio:.2f}")
    median_now = statistics.median(times["now"])
    print(f"blank RGB PNG encode (Pillow's default floor): {floor:.2f} ms", end="")
    print(f"   now median/floor: {median_now / floor:.2f}")
    for label, size in sizes["now"].items():
        print(f"  {label:<24} {size / 1024:6.1f} KB")


if __name__ == "__main__":
    main()
