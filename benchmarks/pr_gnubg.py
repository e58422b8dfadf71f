"""The bot's PR beside GNU Backgammon's on the same matches: the whole comparison, and its time.

Matches are played by two computer levels against each other (seeded dice and noise, through
the real session into SQLite, ``tests/computer_match.py``), exported as ``.mat``
(:mod:`bot.core.matfile`), and analysed twice: by the bot as ``/backgammon analyze`` does (its
analysis depth, 3-ply with the 1-ply screen for no-doubles) and by GNU Backgammon
(``/usr/games/gnubg``, ``analyse match`` at ``--plies``, 2 by default: its "world class").
Both PRs follow :mod:`bot.computer.pr`'s definition (GNU's through ``tests/gnubg_pr.py``), so
they differ only by the engines' evaluations. It prints, per sample and player, the counted
decisions, both PRs and their difference (with the checker and cube parts), and how long
each analysis took. It asserts nothing; ``tests/test_pr_gnubg.py`` holds the bound.

Run: ``nice -n 10 .venv/bin/python benchmarks/pr_gnubg.py`` (options: ``--plies``,
``--bot-plies`` (bgsage alone at that depth instead of the bot's analysis), ``--levels a,b``,
``--seed``, ``--lengths 7,11``, ``--sessions N`` money sessions of ``--money-games N``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.computer import BgsageEvaluator  # noqa: E402
from tests.gnubg_pr import (  # noqa: E402
    analyse_with_gnubg,
    bot_performance,
    by_sample,
    export_samples,
    gnu_performance,
    gnu_unforced_checker_error,
    play_samples,
    total,
)


def fmt(pr: float | None) -> str:
    return "   -  " if pr is None else f"{pr:6.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=2, help="GNU Backgammon's analysis plies")
    parser.add_argument(
        "--bot-plies",
        type=int,
        default=None,
        help="analyse with bgsage at this depth alone (default: the bot's analysis, 3-ply)",
    )
    parser.add_argument("--levels", default="intermediate,advanced")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--lengths", default="7,11,15", help="match lengths, one match each")
    parser.add_argument("--sessions", type=int, default=2, help="money sessions")
    parser.add_argument("--money-games", type=int, default=8, help="games per money session")
    args = parser.parse_args()
    first, second = args.levels.split(",")
    evaluator = None if args.bot_plies is None else BgsageEvaluator.shared(args.bot_plies)

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        started = time.perf_counter()
        samples = asyncio.run(
            play_samples(
                folder,
                (first, second),
                args.seed,
                lengths=[int(n) for n in args.lengths.split(",") if n],
                sessions=args.sessions,
                money_games=args.money_games,
            )
        )
        seconds = time.perf_counter() - started
        print(f"{len(samples)} samples played in {seconds:.1f} s ({args.levels})")
        files = export_samples(samples, folder)
        started = time.perf_counter()
        analysed = analyse_with_gnubg(files, folder / "gnubg", plies=args.plies)
        seconds = time.perf_counter() - started
        decisions = sum(len(match.decisions) for match in analysed)
        print(
            f"GNU Backgammon {args.plies}-ply analysed {len(files)} files "
            f"({decisions} decisions, forced ones included) in {seconds:.1f} s"
        )
        for match in analysed:
            for player in (0, 1):
                own = match.gnu_checker_error[player]
                mine = gnu_unforced_checker_error(match, player)
                if own is not None and abs(own - mine) > 1e-3:
                    print(f"  warning: GNU's checker error {own:.4f} read back as {mine:.4f}")
        print(
            f"{'sample':<34} {'pl':>2} {'dec bot':>7} {'dec gnu':>7} {'PR bot':>6} {'PR gnu':>6}"
            f" {'diff':>6} {'checker b/g':>13} {'cube b/g':>13} {'bot s':>6}"
        )
        worst = 0.0
        for sample, matches in zip(samples, by_sample(samples, analysed), strict=True):
            started = time.perf_counter()
            ours = bot_performance(sample, evaluator)
            seconds = time.perf_counter() - started
            theirs = total(gnu_performance(match) for match in matches)
            for player in (0, 1):
                a, b = ours[player], theirs[player]
                diff = None if a.pr is None or b.pr is None else a.pr - b.pr
                if diff is not None:
                    worst = max(worst, abs(diff))
                print(
                    f"{sample.name:<34} {player:>2} {a.decisions:>7} {b.decisions:>7}"
                    f" {fmt(a.pr)} {fmt(b.pr)} {fmt(diff)}"
                    f" {fmt(a.checker_pr)}/{fmt(b.checker_pr)} {fmt(a.cube_pr)}/{fmt(b.cube_pr)}"
                    f" {seconds:6.1f}"
                )
        print(f"largest difference: {worst:.2f}")


if __name__ == "__main__":
    main()
