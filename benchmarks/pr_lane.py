"""A 25-point match's PR, worked out in the analysis lane as the bot does it, and its time.

A rated 25-point match is played through the real session into SQLite, the expert on both
sides with the cube on (``benchmarks/lane.py``'s ``play_match``: a club's match). Then the
real :class:`bot.workers.Workers` (worker processes, the analysis lane at ``nice`` +10 and
``SCHED_IDLE``) reviews it as the bot does when each game ends and when a member asks
(:meth:`bot.computer.reviews.ReviewService.review`: game by game over the lane's processes,
at the analysis depth), and the PR ladder keeps it (the :class:`~bot.core.facts.
MatchReviewed` fact). It prints the match's size, the whole analysis's time (cold, with the
lane's CPU time beside the wall clock, then read back), and each player's PR with its
checker and cube parts, band, counted decisions and luck-adjusted result. It asserts
nothing.

Run: ``nice -n 10 .venv/bin/python benchmarks/pr_lane.py [--length 25] [--seed 1]``.
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

from benchmarks.deep import lane_cpu  # noqa: E402
from benchmarks.lane import CHANNEL, play_match  # noqa: E402
from bot.services import build_services  # noqa: E402
from bot.storage import Store  # noqa: E402
from bot.workers import Workers  # noqa: E402


def figure(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lane", type=int, default=None, help="lane processes (default: cores)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "pr.db")
        started = time.perf_counter()
        await play_match(store, args.length, args.seed, "expert")
        played = time.perf_counter() - started
        row = await store.latest_match(CHANNEL)
        assert row is not None and not row.live
        events = await store.events(row.id)
        games = sorted({event.game_number for event in events})
        print(
            f"a {args.length}-point match, expert against expert with the cube: "
            f"{len(games)} games, {len(events)} events (played in {played:.1f} s)"
        )
        workers = Workers(lane=args.lane)
        await workers.start()
        try:
            services = build_services(store, workers=workers)
            cpu = lane_cpu(workers)
            started = time.perf_counter()
            review = await services.reviews.review(row)
            cold = time.perf_counter() - started
            used = lane_cpu(workers) - cpu
            again = build_services(store, workers=workers)  # a restart: read back
            started = time.perf_counter()
            await again.reviews.review(row)
            stored = time.perf_counter() - started
            print(
                f"the whole match's analysis in the lane ({workers.lane_size} process(es), "
                f"game by game): {cold:.1f} s (the lane's CPU {used:.1f} s); after a restart, "
                f"read back: {1000 * stored:.0f} ms"
            )
            for player, analysis in sorted(review.analyses.items()):
                rating = analysis.performance
                band = rating.band.value if rating.band is not None else "—"
                luck = review.luck.luck_adjusted(player)
                adjusted = (
                    "—" if luck is None else f"{luck.adjusted:+.1%} (actual {luck.actual:+.1%})"
                )
                print(
                    f"  {row.player_names[player]}: PR {figure(rating.pr)} ({band}) over "
                    f"{rating.decisions} decisions: checker {figure(rating.checker_pr)} "
                    f"({rating.checker.decisions}), cube {figure(rating.cube_pr)} "
                    f"({rating.cube.decisions}); luck-adjusted result {adjusted}"
                )
            ladder = await services.performance.ladder(row.guild_id, min_decisions=1)
            print(f"  on the PR ladder: {', '.join(entry.name for entry in ladder)}")
        finally:
            await workers.close()
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
