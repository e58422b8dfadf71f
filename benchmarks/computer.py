"""Time the computer's decisions at every level, and check its strength against random play.

Run from the repository root: ``.venv/bin/python benchmarks/computer.py`` (about a minute
on two cores). Options: ``--games N`` self-play games per level (default 3), ``--levels``
(comma-separated, default all), ``--random-games N`` games of the default level against a
random player (default 20), ``--no-cube``, ``--seed N``. It prints figures only; it asserts
nothing.

Decision times are measured where they matter, in realistic positions: each level plays
itself (both seats, money games, cube on), and every checker play with more than one legal
choice and every cube decision (``should_double`` when doubling is allowed,
``cube_response``) is timed, wall clock, in this process. The random player picks
uniformly among the legal plays, never doubles, and tosses a coin between take and drop;
expected: the default level wins above 95% of those games.

Then (issue #30): ``--slowest N`` (default 20) times world-class on the N conformance
positions with the most plays (tests/data/legal_plays.jsonl; a 1-1 with 1,470), checker
plays with the cube on and off and the cube decision on each board; ``--analysis-match N``
(default 25) plays an N-point match of expert self-play and times its analysis as the
reviews run it (``ComputerPlayer.analyze``, at the analysis depth), decision by decision.
Each time is wall clock with its CPU time (all of bgsage's threads) beside it: on this
shared machine the wall clock mostly measures how busy the other work keeps the cores.

Targets: world-class p99 under 0.5 s, checker play and cube alike, the default level's
under 0.1 s; a 25-point match analysed well under a minute. Figures: docs/benchmarks.md
(measured under a load average of 8-9 on the 2 cores).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.computer import (  # noqa: E402
    DEFAULT_LEVEL,
    LEVELS,
    ComputerPlayer,
    CubeDecision,
    computer_available,
)
from bot.engine import Game, MatchOptions, Phase, Play  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Stats:
    def __init__(self) -> None:
        self.move_ms: list[float] = []  # checker plays with more than one legal choice
        self.cube_ms: list[float] = []  # should_double and cube_response calls
        self.wins = 0
        self.points = 0  # seat 0's net points (the computer's against random)
        self.gammons = 0
        self.drops = 0


CPU_MS: dict[int, list[float]] = {}  # id(wall list) -> CPU times of the same calls


def timed(into: list[float], call, *args):
    """Time a call into ``into`` (wall clock, ms), its CPU time (all threads) beside it."""
    start, cpu = time.perf_counter(), time.process_time()
    out = call(*args)
    into.append(1000 * (time.perf_counter() - start))
    CPU_MS.setdefault(id(into), []).append(1000 * (time.process_time() - cpu))
    return out


def play_game(
    players: tuple[ComputerPlayer | None, ComputerPlayer | None],
    options: MatchOptions,
    rng: random.Random,
    stats: Stats,
) -> int:
    """One game; a None seat plays at random. Returns the winner's seat."""

    def die() -> int:
        return rng.randint(1, 6)

    game = Game.new(options)
    while game.phase is not Phase.OVER:
        if game.phase is Phase.OPENING:
            game = game.opening_roll(die(), die())
        elif game.phase is Phase.ROLL:
            me = players[game.on_roll]
            doubles = False
            if me is not None and game.can_double():
                doubles = timed(stats.cube_ms, me.should_double, game)
            game = game.double() if doubles else game.roll((die(), die()))
        elif game.phase is Phase.DOUBLED:
            assert game.actor is not None  # a doubled game waits on someone
            me = players[game.actor]
            if me is not None:
                answer = timed(stats.cube_ms, me.cube_response, game)
            else:
                answer = rng.choice([CubeDecision.TAKE, CubeDecision.DROP])
            game = game.drop() if answer is CubeDecision.DROP else game.take()
        else:
            plays = game.legal_plays()
            me = players[game.on_roll]
            if me is None:
                play = rng.choice(list(plays))
            elif len(plays) > 1:
                play = timed(stats.move_ms, me.choose_play, game)
            else:
                play = me.choose_play(game)
            game = game.play(play)
    result = game.result
    assert result is not None
    stats.points += result.points if result.winner == 0 else -result.points
    stats.gammons += result.winner == 0 and result.kind >= 2
    stats.drops += result.reason == "dropped"
    return result.winner


def line(name: str, times: list[float]) -> str:
    if not times:
        return f"{name} (0)"
    text = (
        f"{name} ({len(times)}): p50 {percentile(times, 0.5):6.1f}  "
        f"p99 {percentile(times, 0.99):6.1f}  max {max(times):6.1f} ms"
    )
    cpu = CPU_MS.get(id(times))
    if cpu:  # on a busy machine the wall clock is mostly the wait for a core
        text += f" (CPU p50 {percentile(cpu, 0.5):.1f}, p99 {percentile(cpu, 0.99):.1f})"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="self-play games per level")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--random-games", type=int, default=20)
    parser.add_argument("--slowest", type=int, default=20)
    parser.add_argument("--analysis-match", type=int, default=25)
    parser.add_argument("--no-cube", dest="cube", action="store_false")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not computer_available():
        sys.exit("bgsage is not installed: there is no computer to benchmark.")
    options = MatchOptions(cube=args.cube)
    cube = "cube on" if args.cube else "cube off"

    print(f"decision time, wall clock, self-play money games ({cube}), {args.games} per level")
    for name in args.levels.split(","):
        level = LEVELS[name]
        computer = ComputerPlayer(name, seed=args.seed)
        computer.choose_play(Game.new().opening_roll(3, 1))  # load the weights first
        rng = random.Random(args.seed)
        stats = Stats()
        start = time.perf_counter()
        for _ in range(args.games):
            play_game((computer, computer), options, rng, stats)
        elapsed = time.perf_counter() - start
        print(f"{name:>13} ({level.plies}-ply, noise {level.noise}), {elapsed:.1f} s")
        print(f"{'':15}{line('checker plays', stats.move_ms)}")
        print(f"{'':15}{line('cube decisions', stats.cube_ms)}")

    if args.slowest:
        time_slowest(args.slowest)
    if args.analysis_match:
        time_match_analysis(args.analysis_match, args.seed)

    if args.random_games:
        computer = ComputerPlayer(DEFAULT_LEVEL, seed=args.seed)
        rng = random.Random(args.seed)
        stats = Stats()
        wins = 0
        for number in range(args.random_games):
            seat = number % 2
            players = (computer, None) if seat == 0 else (None, computer)
            # Stats count seat 0's points; fold the computer's seat in by hand.
            before = stats.points
            winner = play_game(players, options, rng, stats)
            if seat == 1:
                stats.points = before - (stats.points - before)
            wins += winner == seat
        print(
            f"{DEFAULT_LEVEL} against uniformly random plays, {args.random_games} games: "
            f"won {wins / args.random_games:.0%}, {stats.points / args.random_games:+.2f} "
            f"points per game"
        )


def time_slowest(count: int) -> None:
    """World-class on the conformance positions with the most plays (a 1-1 with 1,470):
    checker plays, cube on and off, and the cube decision on each board before the roll."""
    import json

    from bot.computer import BgsageEvaluator, CubeContext
    from bot.engine import Position

    lines = (ROOT / "tests" / "data" / "legal_plays.jsonl").read_text().splitlines()
    cases = sorted(
        (json.loads(line) for line in lines if line.strip()), key=lambda c: -len(c["results"])
    )[:count]
    evaluator = BgsageEvaluator.shared(LEVELS["world-class"].plies)
    print(
        f"world-class on the {count} conformance positions with the most plays "
        f"({len(cases[0]['results'])} to {len(cases[-1]['results'])}):"
    )
    for label, context in (("cube on", CubeContext()), ("cube off", CubeContext(live=False))):
        times: list[float] = []
        for case in cases:
            position, dice = Position.from_board(case["board"]), tuple(case["dice"])
            results = position.legal_plays(dice).results()
            timed(times, evaluator.rank_plays, position, dice, results, context)
        print(f"{'':15}{line(f'checker plays, {label}', times)}")
    times = []
    for case in cases:
        timed(times, evaluator.cube_equities, Position.from_board(case["board"]), CubeContext())
    print(f"{'':15}{line('cube decisions', times)}")


def time_match_analysis(length: int, seed: int) -> None:
    """A ``length``-point match of expert self-play, then analysed as the reviews do
    (``ComputerPlayer.analyze``, at the analysis depth): the whole time and per decision."""
    from bot.computer import CubeDecision as Cube

    expert = ComputerPlayer(DEFAULT_LEVEL, seed=seed)
    rng = random.Random(seed)
    decisions: list[tuple[Game, Play | Cube]] = []
    game = Game.new(MatchOptions(length=length))
    while True:
        if game.phase is Phase.OVER:
            if game.match_over:
                break
            game = game.next_game()
        elif game.phase is Phase.OPENING:
            game = game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif game.phase is Phase.ROLL:
            doubles = game.can_double() and expert.should_double(game)
            if game.can_double():
                decisions.append((game, Cube.DOUBLE if doubles else Cube.NO_DOUBLE))
            game = game.double() if doubles else game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif game.phase is Phase.DOUBLED:
            answer = expert.cube_response(game)
            decisions.append((game, answer))
            game = game.drop() if answer is Cube.DROP else game.take()
        else:
            play = expert.choose_play(game)
            decisions.append((game, play))
            game = game.play(play)
    analyst = ComputerPlayer(DEFAULT_LEVEL)
    analyst.analyze(decisions[:2])  # the weights loaded first
    times: dict[str, list[float]] = {"checker plays": [], "cube decisions": []}
    start, cpu = time.perf_counter(), time.process_time()
    for decision in decisions:
        kind = "cube decisions" if isinstance(decision[1], Cube) else "checker plays"
        timed(times[kind], analyst.analyze, [decision])
    total, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"a {length}-point match analysed ({game.game_number} games, {len(decisions)} "
        f"decisions): {total:.1f} s in all, {cpu:.1f} s of CPU (all threads)"
    )
    for kind, values in times.items():
        print(f"{'':15}{line(kind, values)}")


if __name__ == "__main__":
    main()
