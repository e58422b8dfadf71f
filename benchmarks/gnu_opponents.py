"""The strength benchmark's GNU opponent before and after issue #38, side by side.

Before (commit d0219fc), ``benchmarks/strength.py`` asked the gnubg package's
``find_best_move`` at 2 plies with the package's own move filters (every play at 0-ply, the
best 12 within 0.24 kept, searched at 1-ply, the best 6 within 0.12 of those at 2-ply), and
completed a move the package cuts short at a bear-off with the best 2-ply play among those
that follow it. Now it plays GNU Backgammon's world class exactly
(:class:`tests.gnubg_world_class.GnuPlayer`: the "Normal" filter, 8 within 0.16 at 0-ply
then 2-ply). This script measures how much that changes:

1. Decisions: on positions from cubeless expert self-play (every bear-off position with a
   choice, a third of the others, as ``tests/test_gnubg_world_class.py`` draws them), how
   often the two choose differently, in which positions (bear-off, other race, contact),
   and what the difference is worth by a stronger judge: GNU's own 3-ply over both plays.
2. Games: ``--pairs`` duplicate-dice pairs of the old opponent against the new, cubeless
   money, the old one's points per game with a 95% interval.
3. ``--judge N``: on N such positions, where our ``--level`` (default world-class) and GNU's
   world class choose differently, which choice two stronger searches prefer: GNU's
   3-ply and bgsage's 4-ply, each over both plays (equity per decision, + = ours better).

Run from the repository root (``pip install -e ".[bench]"``), for instance:

    nice -n 19 .venv/bin/python benchmarks/gnu_opponents.py --positions 800 --pairs 400
    nice -n 19 .venv/bin/python benchmarks/gnu_opponents.py --positions 0 --judge 400 --seed 21

It prints figures and asserts nothing; docs/benchmarks.md keeps what was measured.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.strength import Outcome, play_game  # noqa: E402
from bot.computer import ANALYSIS, LEVELS, BgsageEvaluator, ComputerPlayer  # noqa: E402
from bot.computer.evaluator import CubeContext  # noqa: E402
from bot.engine import Game, MatchOptions, Phase, Play, Position  # noqa: E402
from tests.gnubg_world_class import (  # noqa: E402
    OFF,
    GnuPlayer,
    _reachable,
    apply_gnu_move,
    gnubg,
)

OPTIONS = MatchOptions(cube=False)
JUDGE_PLIES = 3


class PackageGnuPlayer(GnuPlayer):
    """The opponent before issue #38: the gnubg package's own filters, and a cut-short
    bear-off completed by the best 2-ply play among those that follow it."""

    cut_short = 0  # moves the package cut short at a bear-off

    def choose_play(self, game: Game) -> Play:
        assert gnubg is not None and game.dice is not None
        position = game.position
        board = gnubg.position_from_id(position.position_id())
        context = self._contexts[self.plies]
        move = gnubg.find_best_move(board, self.cube_info, context, game.dice)
        plays = game.legal_plays()
        if len(move) % 2 == 0:
            result = apply_gnu_move(position, move)
        else:
            self.cut_short += 1
            partial = apply_gnu_move(position, (*move, OFF)).board
            candidates = [r for r in plays.results() if _reachable(partial, r.board)]
            result = max(candidates, key=lambda r: self.score(r, self.plies))
        play = plays.play_for(result)
        assert play is not None
        return play


def positions(count: int, seed: int) -> list[Game]:
    """Checker plays with a real choice from cubeless expert self-play: every bear-off
    position, a third of the others."""
    expert = ComputerPlayer("expert", seed=seed)
    rng = random.Random(seed)
    found: list[Game] = []
    game = Game.new(OPTIONS)
    while len(found) < count:
        if game.phase is Phase.OVER:
            game = Game.new(OPTIONS)
        elif game.phase is Phase.OPENING:
            game = game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif game.phase is Phase.ROLL:
            game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        else:
            plays = game.legal_plays()
            if len(plays) > 1 and (game.position.all_home() or rng.random() < 0.33):
                found.append(game)
            game = game.play(expert.choose_play(game))
    return found


def kind(position: Position) -> str:
    """Bear-off (every checker of the mover home), race (no contact left) or contact."""
    if position.all_home():
        return "bear-off"
    b = position.board
    mine = [i for i in range(1, 26) if b[i] > 0]
    theirs = [i for i in range(0, 25) if b[i] < 0 or (i == 0 and b[0] > 0)]
    return "race" if max(mine) < min(theirs) else "contact"


def compare_decisions(count: int, seed: int) -> None:
    old, new, judge = PackageGnuPlayer(), GnuPlayer(), GnuPlayer(JUDGE_PLIES)
    games = positions(count, seed)
    tally: dict[str, list[float]] = {}  # kind -> judge's equity new minus old, per position
    start = time.perf_counter()
    for game in games:
        position = game.position
        before = old.cut_short
        mine = position.apply(old.choose_play(game))
        theirs = position.apply(new.choose_play(game))
        label = kind(position) + (" (cut short)" if old.cut_short > before else "")
        gain = 0.0
        if mine != theirs:
            gain = judge.score(theirs, JUDGE_PLIES) - judge.score(mine, JUDGE_PLIES)
        tally.setdefault(label, []).append(gain)
    elapsed = time.perf_counter() - start
    print(
        f"{len(games)} positions (seed {seed}), {elapsed:.0f} s; the new opponent's choice "
        f"against the old one's, valued by GNU {JUDGE_PLIES}-ply (equity, + = new better):"
    )
    everything = [gain for gains in tally.values() for gain in gains]
    for label, gains in [*sorted(tally.items()), ("all", everything)]:
        differ = [gain for gain in gains if gain != 0.0]
        mean = statistics.fmean(gains)
        print(
            f"  {label}: {len(gains)} positions, {len(differ)} choices differ "
            f"({100 * len(differ) / len(gains):.1f}%), mean {mean:+.4f} a decision"
            + (
                f", where they differ {statistics.fmean(differ):+.4f} "
                f"(new better in {sum(g > 0 for g in differ)}, worse in "
                f"{sum(g < 0 for g in differ)})"
                if differ
                else ""
            ),
            flush=True,
        )


def compare_games(pairs: int, seed: int, every: int) -> None:
    old, new = PackageGnuPlayer(), GnuPlayer()
    results: list[float] = []
    start = time.perf_counter()
    for pair in range(pairs):
        outcome = Outcome(2, pair, (0, 0))
        stream = f"{seed}:{pair}"
        first, _ = play_game((old, new), stream, outcome, 0)  # points (and luck-adjusted)
        second, _ = play_game((new, old), stream, outcome, 1)
        results.append((first + second) / 2)
        if (pair + 1) % every == 0 or pair + 1 == pairs:
            n = len(results)
            mean = statistics.fmean(results)
            half = 1.96 * statistics.stdev(results) / math.sqrt(n) if n > 1 else math.inf
            same = sum(value == 0 for value in results)
            print(
                f"after {time.perf_counter() - start:.0f} s: old vs new GNU 2-ply "
                f"{mean:+.3f} points/game [{mean - half:+.3f}, {mean + half:+.3f}] over "
                f"{2 * n} games ({same} pairs cancelled exactly); old cut short "
                f"{old.cut_short} moves",
                flush=True,
            )


def judge_choices(count: int, seed: int, level: str) -> None:
    ours = ComputerPlayer(ANALYSIS if level == ANALYSIS.name else LEVELS[level], seed=seed)
    gnu, gnu_judge, bgsage_judge = GnuPlayer(), GnuPlayer(JUDGE_PLIES), BgsageEvaluator(4)
    context = CubeContext(live=False)
    tally: dict[str, list[tuple[float, float]]] = {}
    for game in positions(count, seed):
        position = game.position
        mine = position.apply(ours.choose_play(game))
        theirs = position.apply(gnu.choose_play(game))
        by_gnu = by_bgsage = 0.0
        if mine != theirs:
            by_gnu = gnu_judge.score(mine, JUDGE_PLIES) - gnu_judge.score(theirs, JUDGE_PLIES)
            searched = bgsage_judge._search(position, [mine, theirs], context)
            assert searched is not None
            by_bgsage = searched[0].equity - searched[1].equity
        tally.setdefault(kind(position), []).append((by_gnu, by_bgsage))
    print(
        f"{level} against GNU's world class on {count} positions (seed {seed}), where they "
        f"differ judged by GNU {JUDGE_PLIES}-ply and bgsage 4-ply (equity, + = ours better):"
    )
    for label, rows in sorted(tally.items()):
        differ = [row for row in rows if row != (0.0, 0.0)]
        print(
            f"  {label}: {len(rows)} positions, {len(differ)} differ; a decision "
            f"{statistics.fmean(r[0] for r in rows):+.5f} (GNU) "
            f"{statistics.fmean(r[1] for r in rows):+.5f} (bgsage); GNU's choice better by "
            f"GNU in {sum(r[0] < 0 for r in differ)}, by bgsage in {sum(r[1] < 0 for r in differ)}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--pairs", type=int, default=0)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument("--every", type=int, default=25)
    parser.add_argument("--judge", type=int, default=0, help="positions to judge")
    parser.add_argument("--level", default="world-class", help="ours, for --judge")
    args = parser.parse_args()
    if gnubg is None:
        sys.exit('the gnubg package is not installed: .venv/bin/pip install -e ".[bench]"')
    if args.positions:
        compare_decisions(args.positions, args.seed)
    if args.pairs:
        compare_games(args.pairs, args.seed, args.every)
    if args.judge:
        judge_choices(args.judge, args.seed, args.level)


if __name__ == "__main__":
    main()
