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

``--positions N`` (default 150) then times world-class checker plays on N positions met
in expert self-play twice, in the same run: searching only the best 8 plays at 1-ply
deeper (now) and searching every legal play at 2-ply, as bgsage's ``checker_play`` does
(before #17), and counts how often the two choose the same play.

Targets (issue #17): world-class answers within 0.5 s at p99, the default level within
0.1 s. Figures on the 2-core development machine (November 2026), shared with other work:
1-ply levels checker plays p50 about 2 ms, p99 under 10 ms, cube decisions p50 26-37 ms,
p99 under 45 ms; world-class checker plays p50 6-8 ms, p99 34-36 ms (before: p50 19 ms,
p99 95 ms, max 124 ms on the same 150 positions; a double with 140 plays took up to 0.5 s),
cube decisions p99 under 50 ms. Pruned world-class chose the full search's play in 143 of
150 positions and lost 0.55 millipoints a move to it on average (expert: 2.6).
"""

from __future__ import annotations

import argparse
import random
import statistics
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
        self.points = 0  # seat 0's net points (the computer's against random)
        self.gammons = 0
        self.drops = 0


def timed(into: list[float], call, *args):
    start = time.perf_counter()
    out = call(*args)
    into.append(1000 * (time.perf_counter() - start))
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
    return (
        f"{name} ({len(times)}): p50 {percentile(times, 0.5):6.1f}  "
        f"p99 {percentile(times, 0.99):6.1f}  max {max(times):6.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="self-play games per level")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--random-games", type=int, default=20)
    parser.add_argument("--positions", type=int, default=150)
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

    if args.positions:
        compare_world_class(args.positions, args.seed)

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


def compare_world_class(count: int, seed: int) -> None:
    """World-class checker plays, pruned (now) and full (before), on the same positions."""
    from bot.computer import BgsageEvaluator, CubeContext

    expert = ComputerPlayer(DEFAULT_LEVEL, seed=seed)
    rng = random.Random(seed)
    positions: list[Game] = []
    while len(positions) < count:
        length = rng.choice([0, 0, 5, 7])
        game = Game.new(MatchOptions(length=length)).opening_roll(
            rng.randint(1, 6), rng.randint(1, 6)
        )
        while game.phase is not Phase.OVER and len(positions) < count:
            if game.phase is Phase.ROLL:
                game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
            elif game.phase is Phase.MOVE:
                if len(game.legal_plays()) > 1:
                    positions.append(game)
                game = game.play(expert.choose_play(game))
            else:
                break
    evaluators = {"now": BgsageEvaluator.shared(2), "before": BgsageEvaluator(2, candidates=10**6)}
    times: dict[str, list[float]] = {name: [] for name in evaluators}
    best: dict[str, list] = {name: [] for name in evaluators}
    lost, expert_lost = [], []
    for game in positions:
        assert game.dice is not None
        results, context = game.legal_plays().results(), CubeContext.for_game(game)
        ranked = {}
        for name, evaluator in evaluators.items():
            start = time.perf_counter()
            ranked[name] = evaluator.rank_plays(game.position, game.dice, results, context)
            times[name].append(1000 * (time.perf_counter() - start))
            best[name].append(ranked[name][0].result)
        full = {item.result: item.equity for item in ranked["before"]}
        lost.append(ranked["before"][0].equity - full[ranked["now"][0].result])
        chosen = game.position.apply(expert.choose_play(game))
        expert_lost.append(ranked["before"][0].equity - full[chosen])
    same = sum(a == b for a, b in zip(best["now"], best["before"], strict=True))
    print(f"world-class checker plays on {count} positions from expert self-play:")
    labels = {"before": "before (every play at 2-ply)", "now": "now (best 8 at 2-ply)"}
    for name, label in labels.items():
        print(f"{'':15}{line(label, times[name])}")
    print(
        f"{'':15}same choice {same}/{count}; equity lost by pruning: mean "
        f"{1000 * statistics.mean(lost):.2f} millipoints, max {1000 * max(lost):.1f} "
        f"(expert, 1-ply: mean {1000 * statistics.mean(expert_lost):.2f}, "
        f"max {1000 * max(expert_lost):.1f})"
    )


if __name__ == "__main__":
    main()
