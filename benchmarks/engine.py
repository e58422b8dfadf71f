"""Time the rules engine: legal play generation over the conformance cases, and parsing.

Run from the repository root: ``.venv/bin/python benchmarks/engine.py``. It prints figures
only; it asserts nothing (timed assertions do not belong in tests).

Targets: median legal_plays under 0.15 ms per position and roll, slowest under 5 ms.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.engine import Position, legal_plays, parse_play  # noqa: E402
from bot.engine.steps import PartialPlay  # noqa: E402

DATA = ROOT / "tests" / "data" / "legal_plays.jsonl"
RUNS = 10  # best of RUNS for each case
REPEAT = 3  # calls per run, so tiny cases are not all timer noise

# Typical things a player types, against the opening position.
PARSE_INPUTS: list[tuple[tuple[int, int], str]] = [
    ((6, 5), "24/13"),
    ((3, 1), "8/5 6/5"),
    ((6, 1), "13/7 8/7"),
    ((4, 2), "8/4, 6/4"),
    ((6, 4), "24/18 13/9"),
    ((5, 5), "13/3(2)"),
    ((3, 3), "8/5(2) 6/3(2)"),
    ((1, 1), "8/7(2) 6/5(2)"),
    ((6, 6), "24/18(2) 13/7(2)"),
    ((2, 1), "13/11 6/5"),
]


def best_time(function, runs: int = RUNS, repeat: int = REPEAT) -> float:
    """The best per-call time in seconds over ``runs`` runs of ``repeat`` calls."""
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(repeat):
            function()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench_legal_plays() -> None:
    cases = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    timings: list[tuple[float, dict]] = []
    plays_found = 0
    for case in cases:
        position = Position.from_board(case["board"])
        dice = tuple(case["dice"])
        plays_found += len(legal_plays(position, dice))
        elapsed = best_time(lambda position=position, dice=dice: legal_plays(position, dice))
        timings.append((elapsed, case))
    times = [t for t, _ in timings]
    total = sum(times)
    ms = [t * 1000 for t in times]
    print(f"legal_plays over {len(cases)} conformance cases (best of {RUNS} x {REPEAT} calls)")
    print(f"  distinct plays found: {plays_found}")
    print(f"  plays per second:     {plays_found / total:,.0f}")
    print(f"  positions per second: {len(cases) / total:,.0f}")
    print(f"  median: {statistics.median(ms):.3f} ms")
    print(f"  p95:    {percentile(ms, 0.95):.3f} ms")
    print(f"  max:    {max(ms):.3f} ms")
    print("  slowest cases:")
    for elapsed, case in sorted(timings, key=lambda item: item[0], reverse=True)[:5]:
        shown = "-".join(map(str, case["dice"]))
        tags = ",".join(case["tags"])
        print(
            f"    {elapsed * 1000:7.3f} ms  {shown}  {case['position_id']}  "
            f"{len(case['results']):4d} results  [{tags}]"
        )


def bench_parse_play() -> None:
    start = Position.start()
    print(f"parse_play on typical inputs (opening position, best of {RUNS} x 20 calls)")
    with_generation: list[float] = []
    for dice, text in PARSE_INPUTS:
        plays = legal_plays(start, dice)
        parse_only = best_time(lambda d=dice, t=text, p=plays: parse_play(start, d, t, p), RUNS, 20)
        whole = best_time(lambda d=dice, t=text: parse_play(start, d, t), RUNS, 20)
        with_generation.append(whole * 1000)
        print(
            f"  {dice[0]}-{dice[1]} {text!r:22} parse {parse_only * 1000:6.3f} ms, "
            f"with legal_plays {whole * 1000:6.3f} ms"
        )
    print(f"  median with legal_plays: {statistics.median(with_generation):.3f} ms")


def bench_parse_round_trip() -> None:
    """Parse the formatted text of every legal play of every conformance case."""
    cases = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    times: list[float] = []
    for case in cases:
        position = Position.from_board(case["board"])
        dice = tuple(case["dice"])
        plays = legal_plays(position, dice)
        for play in plays:
            text = str(play)
            times.append(
                best_time(
                    lambda p=position, d=dice, t=text, ps=plays: parse_play(p, d, t, ps), 3, 1
                )
            )
    ms = [t * 1000 for t in times]
    print(f"parse_play of every formatted conformance play ({len(times)} plays, best of 3)")
    print(f"  parses per second: {len(times) / sum(times):,.0f}")
    print(f"  median: {statistics.median(ms):.3f} ms, p95: {percentile(ms, 0.95):.3f} ms, ", end="")
    print(f"max: {max(ms):.3f} ms")


def bench_picker_steps() -> None:
    """What one tap of the picker costs in rules: the partial play rebuilt from its steps
    (the custom_id's), its checkers and every checker's destinations, from nothing."""
    cases = [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]
    ms = []
    for case in cases:
        position = Position.from_board(case["board"])
        dice = tuple(case["dice"])
        plays = list(legal_plays(position, dice))
        middle = PartialPlay(position, dice)
        if plays and plays[0].moves:  # half way through a legal play
            whole = middle.with_play(plays[0])
            middle = PartialPlay(position, dice, whole.groups[: len(whole.groups) // 2])
        steps = middle.groups

        def tap(position=position, dice=dice, steps=steps) -> None:
            partial = PartialPlay(position, dice, steps)
            for source in partial.sources():
                partial.destinations(source.point)

        ms.append(best_time(tap) * 1000)
    print(f"the picker's choices for one tap, {len(cases)} conformance cases, half-built plays")
    print(f"  median: {statistics.median(ms):.3f} ms, p95: {percentile(ms, 0.95):.3f} ms, ", end="")
    print(f"max: {max(ms):.3f} ms")


if __name__ == "__main__":
    bench_picker_steps()
    print()
    bench_legal_plays()
    print()
    bench_parse_play()
    print()
    bench_parse_round_trip()
