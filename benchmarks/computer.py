"""Play the computer against a random player and time its decisions.

Run from the repository root: ``.venv/bin/python benchmarks/computer.py`` (200 money games
at the default level, cube on). Options: ``--games N``, ``--level NAME``, ``--no-cube``,
``--seed N``. It prints figures only; it asserts nothing.

The random player picks uniformly among the legal plays, never doubles, and answers a
double by tossing a coin between take and drop. The computer plays from both seats in
turn. Expected: a win rate above 95%.
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
from bot.engine import Game, MatchOptions, Phase  # noqa: E402


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


class Stats:
    def __init__(self) -> None:
        self.move_ms: list[float] = []  # checker plays with more than one legal choice
        self.cube_ms: list[float] = []  # should_double and cube_response calls
        self.wins = 0
        self.points = 0  # the computer's net points
        self.gammons = 0
        self.drops = 0


def play_game(
    computer: ComputerPlayer, seat: int, options: MatchOptions, rng: random.Random, stats: Stats
) -> None:
    def die() -> int:
        return rng.randint(1, 6)

    game = Game.new(options)
    while game.phase is not Phase.OVER:
        if game.phase is Phase.OPENING:
            game = game.opening_roll(die(), die())
        elif game.phase is Phase.ROLL:
            doubles = False
            if game.on_roll == seat and game.can_double():
                start = time.perf_counter()
                doubles = computer.should_double(game)
                stats.cube_ms.append(1000 * (time.perf_counter() - start))
            game = game.double() if doubles else game.roll((die(), die()))
        elif game.phase is Phase.DOUBLED:
            if game.actor == seat:
                start = time.perf_counter()
                answer = computer.cube_response(game)
                stats.cube_ms.append(1000 * (time.perf_counter() - start))
            else:
                answer = rng.choice([CubeDecision.TAKE, CubeDecision.DROP])
            game = game.drop() if answer is CubeDecision.DROP else game.take()
        else:
            plays = game.legal_plays()
            if game.on_roll == seat:
                start = time.perf_counter()
                play = computer.choose_play(game)
                if len(plays) > 1:
                    stats.move_ms.append(1000 * (time.perf_counter() - start))
            else:
                play = rng.choice(list(plays))
            game = game.play(play)
    result = game.result
    assert result is not None
    won = result.winner == seat
    stats.wins += won
    stats.points += result.points if won else -result.points
    stats.gammons += won and result.kind >= 2
    stats.drops += result.reason == "dropped"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--level", choices=list(LEVELS), default=DEFAULT_LEVEL)
    parser.add_argument("--no-cube", dest="cube", action="store_false")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not computer_available():
        sys.exit("bgsage is not installed: there is no computer to benchmark.")

    computer = ComputerPlayer(args.level, seed=args.seed)
    options = MatchOptions(cube=args.cube)
    rng = random.Random(args.seed)
    stats = Stats()
    start = time.perf_counter()
    computer.choose_play(Game.new().opening_roll(3, 1))  # load the weights outside the timings
    for number in range(args.games):
        play_game(computer, number % 2, options, rng, stats)
    elapsed = time.perf_counter() - start

    cube = "cube on" if args.cube else "cube off"
    print(f"{args.games} money games ({cube}), {args.level} against uniformly random plays")
    print(f"  win rate:        {stats.wins / args.games:.1%} ({stats.wins}/{args.games})")
    print(f"  gammons won:     {stats.gammons}")
    if args.cube:
        print(f"  games dropped:   {stats.drops}")
    print(f"  points per game: {stats.points / args.games:+.2f}")
    print(f"  wall time:       {elapsed:.1f} s")
    timed = (
        ("checker plays with a choice", stats.move_ms),
        ("cube decisions", stats.cube_ms),
    )
    for name, times in timed:
        if times:
            print(
                f"  {name} ({len(times)}): p50 {percentile(times, 0.5):.1f} ms, "
                f"p99 {percentile(times, 0.99):.1f} ms, max {max(times):.1f} ms"
            )


if __name__ == "__main__":
    main()
