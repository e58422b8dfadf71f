"""``/backgammon position``'s best play against GNU Backgammon 2-ply's: the full comparison.

Positions from seeded money games of the expert level against itself (every checker play
with a choice; ``tests/gnubg_positions.py``), each set in one gnubg process and hinted at
``--plies`` (2: GNU's "world class"), cubeful, cube centred, no Jacoby. Where GNU's best play
leads its second by 0.05 or more (a clear choice), the bot's best play, the one
``/backgammon position`` shows (the analysis lane's :func:`bot.workers.position_hints`), is
compared with GNU's by the position each leads to. It prints how many positions were
clear, how many agreed, the disagreements, and the time each side took; it asserts nothing
(``tests/test_position_gnubg.py`` holds the 90 % bound on a smaller sample).

Run: ``nice -n 10 .venv/bin/python benchmarks/position_gnubg.py [--positions 900] [--seed 38]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.gnubg_positions import (  # noqa: E402
    CLEAR,
    agreement,
    compare,
    gnubg_hints,
    sample_positions,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=900)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--plies", type=int, default=2, help="GNU Backgammon's search depth")
    args = parser.parse_args()

    started = time.perf_counter()
    records = sample_positions(args.positions, args.seed)
    sampled = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        gnu = gnubg_hints(records, Path(folder), plies=args.plies)
        gnu_time = time.perf_counter() - started
    started = time.perf_counter()
    compared = compare(records, gnu)
    bot_time = time.perf_counter() - started
    clear, agreed = agreement(compared)
    print(f"{len(records)} positions of expert self-play (seed {args.seed}) in {sampled:.1f} s")
    print(f"GNU Backgammon {args.plies}-ply hints: {gnu_time:.1f} s")
    print(
        f"clear choices (GNU's best ahead by {CLEAR} or more): {clear}; the bot's best play "
        f"agrees on {agreed} ({100 * agreed / max(clear, 1):.1f} %); "
        f"the bot's analysis of them: {bot_time:.1f} s "
        f"({1000 * bot_time / max(clear, 1):.0f} ms each)"
    )
    for item in compared:
        if not item.agree:
            said = f"GNU {item.gnu_best} (+{item.gnu_lead:.3f})"
            print(f"  {item.record.xgid()}: {said}, bot {item.bot_best}")


if __name__ == "__main__":
    main()
