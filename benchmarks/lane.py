"""Boards while one member repeats ``/backgammon analyze`` on a long match: before and after
the analysis lane, in one run; and how long a long match's analysis takes.

A 25-point match is played to the end by random legal play through the real session and a
SQLite file. Then the real :class:`bot.workers.Workers` (worker processes, as many board
workers as the bot starts) draws boards at ``--rate`` a second (other channels' boards: a
real picture of a random position each, arriving on a steady clock) while one member asks
for the match's analysis every ``--every`` seconds, or as soon as the last is answered:

- **no analysis**: the boards alone, for reference;
- **before**: the analysis as the bot ran it before the lane (one call replaying and
  analysing the whole match, in the same worker queue as the boards: ``Workers(lane=0)``);
- **lane, no cache**: the analysis lane (processes of its own at ``nice`` +10 and
  ``SCHED_IDLE``; "no analysis" measured again just before, as the machine drifts), every
  analysis worked out again, memory and database forgotten (as many members asking about
  many matches would);
- **lane + cache**: what the bot does now (``ReviewService.run_analysis``): each finished
  game reviewed once, the repeats cost nothing. (The per-member cooldown would refuse most
  of the repeats too; it is left out, so the figures show the lane and the cache.)

Each side prints the boards' p50/p99/max and the analyses answered meanwhile (with how long
the first took). Last, the whole match's analysis with no boards: game by game in the lane
(cold), asked again (from memory), and after a restart (read from the database).

Run: ``python benchmarks/lane.py [--rate 40] [--seconds 20] [--length 25]``; ``--players
expert`` plays the match with the expert on both sides and the cube on (a club's match:
fewer, saner decisions than random play), ``--whole-only`` times only the whole match.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.computer import DEFAULT_LEVEL, ComputerPlayer, CubeDecision  # noqa: E402
from bot.computer.reviews import AnalysisPlan, ReviewService  # noqa: E402
from bot.core.session import Player, SessionService  # noqa: E402
from bot.engine import Game, MatchOptions, Phase  # noqa: E402
from bot.services import build_services  # noqa: E402
from bot.storage import Store  # noqa: E402
from bot.workers import Workers, default_size  # noqa: E402

ALICE, BOB = Player(1, "alice"), Player(2, "bob")
CHANNEL = 7


class _Skip(Exception):
    """--whole-only: the sides with boards are left out."""


class SeededRoller:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def die(self) -> int:
        return self.random.randint(1, 6)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def _forget(store: Store) -> None:
    """Drop the stored reviews: the next analysis works everything out again."""
    async with store._lock:
        await store._db.execute("DELETE FROM game_reviews")


async def settle(service: ReviewService, workers: Workers) -> None:
    """Stop the reviews a side left running (its member gave up waiting, the work went on)
    and let the lane finish the call it is on, so the next timing starts from nothing."""
    running = list(service.cache.running.values())
    for task in running:
        task.cancel()
    await asyncio.gather(*running, return_exceptions=True)
    await workers.lane_call(abs, 0)  # queued behind whatever the lane is still doing


async def play_match(
    store: Store, length: int, seed: int, players: str = "random"
) -> SessionService:
    """A whole match to analyse: random legal play with the cube off (the long log), or
    (``players="expert"``) the expert computer on both sides with the cube, as a club's
    match goes."""
    service = SessionService(store, roller=SeededRoller(seed))
    rng = random.Random(seed)
    expert = ComputerPlayer(DEFAULT_LEVEL, seed=seed) if players == "expert" else None
    options = MatchOptions(length=length, cube=expert is not None)
    await service.challenge(1, CHANNEL, ALICE, BOB, options, rated=True)
    await service.accept(CHANNEL, BOB)
    while True:
        row = await service.current(CHANNEL)
        if row is None or row.game is None:
            return service
        game = row.game
        assert game.actor is not None  # a stored game in play always waits on someone
        who = (ALICE, BOB)[game.actor]
        if expert is None:
            if game.phase is Phase.ROLL:
                await service.roll(CHANNEL, who)
            else:
                plays = await service.legal_play_texts(CHANNEL, who.id)
                await service.move(CHANNEL, who, rng.choice(plays))
        elif game.phase is Phase.ROLL:
            if game.can_double() and expert.should_double(game):
                await service.double(CHANNEL, who)
            else:
                await service.roll(CHANNEL, who)
        elif game.phase is Phase.DOUBLED:
            if expert.cube_response(game) is CubeDecision.DROP:
                await service.drop(CHANNEL, who)
            else:
                await service.take(CHANNEL, who)
        else:
            await service.move(CHANNEL, who, str(expert.choose_play(game)))


def board_states(count: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        game = Game.new().opening_roll(3, 1)
        for _ in range(rng.randint(0, 40)):
            if game.phase is Phase.ROLL:
                game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
            elif game.phase is Phase.MOVE:
                plays = list(game.legal_plays())
                game = game.play(rng.choice(plays)) if plays[0].moves else game.pass_turn()
            else:
                break
        states.append(game)
    return states


async def boards_while_analysing(
    workers: Workers, analyse, rate: float, seconds: float, states: list[Game], every: float
) -> tuple[list[float], list[float]]:
    """Board latencies at ``rate`` a second for ``seconds`` while one member asks for an
    analysis every ``every`` seconds (or as soon as the last one is answered, if later);
    the analyses' durations."""
    latencies: list[float] = []
    durations: list[float] = []
    stop = asyncio.Event()

    async def member() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            await analyse()
            durations.append(time.perf_counter() - started)
            await asyncio.sleep(max(0.0, every - durations[-1]))

    async def board(game: Game) -> None:
        started = time.perf_counter()
        await workers.render(game, perspective=0)
        latencies.append(time.perf_counter() - started)

    repeating = asyncio.ensure_future(member()) if analyse is not None else None
    await asyncio.sleep(0.5)  # the analysis is under way
    loop = asyncio.get_running_loop()
    start = loop.time()
    tasks = []
    for n in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, start + n / rate - loop.time()))
        tasks.append(asyncio.ensure_future(board(states[n % len(states)])))
    await asyncio.gather(*tasks)
    stop.set()
    if repeating is not None:
        repeating.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await repeating
    return latencies, durations


async def side(workers: Workers, analyse, args: argparse.Namespace, states: list[Game]):
    return await boards_while_analysing(
        workers, analyse, args.rate, args.seconds, states, args.every
    )


def line(name: str, latencies: list[float], durations: list[float]) -> str:
    ms = [1000 * t for t in latencies]
    done = (
        f"{len(durations)} analyses answered meanwhile, the first in {durations[0]:.1f} s"
        if durations
        else "no analysis answered meanwhile"
    )
    return (
        f"{name:<15} boards {len(ms)}: p50 {percentile(ms, 0.5):7.1f} ms  "
        f"p99 {percentile(ms, 0.99):8.1f} ms  max {max(ms):8.1f} ms  ({done})"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=40.0, help="boards a second")
    parser.add_argument("--seconds", type=float, default=20.0, help="per side")
    parser.add_argument("--length", type=int, default=25, help="the match's length")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--lane", type=int, default=None, help="the lane's processes (default: the bot's)"
    )
    parser.add_argument(
        "--whole-only",
        action="store_true",
        help="only the whole match's analysis, with no boards (skips the four sides)",
    )
    parser.add_argument(
        "--players",
        choices=("random", "expert"),
        default="random",
        help="random legal play, cube off (default), or the expert on both sides, cube on",
    )
    parser.add_argument(
        "--every", type=float, default=1.0, help="seconds between one member's requests"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "lane.db")
        started = time.perf_counter()
        played = await play_match(store, args.length, args.seed, args.players)
        row = await store.latest_match(CHANNEL)
        assert row is not None and not row.live
        events = await store.events(row.id)
        games = sorted({e.game_number for e in events})
        print(
            f"a {args.length}-point match of {args.players} play: {len(games)} games, "
            f"{len(events)} events (played in {time.perf_counter() - started:.1f} s); "
            f"{default_size()} board worker(s), boards at {args.rate:.0f}/s for "
            f"{args.seconds:.0f} s a side"
        )
        states = board_states(200, args.seed)
        plan = AnalysisPlan(row, tuple(events), tuple(games))
        humans = (0, 1)

        # before: the whole match in one call, in the board workers' queue
        before = Workers(lane=0)
        await before.start()
        try:
            if args.whole_only:
                raise _Skip

            async def whole() -> None:
                await before.review_log(row.options, events, level=DEFAULT_LEVEL, players=humans)

            print(line("no analysis", *await side(before, None, args, states)))
            print(line("before", *await side(before, whole, args, states)))
        except _Skip:
            pass
        finally:
            await before.close()

        after = Workers(lane=args.lane)
        await after.start()
        try:
            service = build_services(store, workers=after).reviews

            async def uncached() -> None:
                service.cache.games.clear()
                await _forget(store)
                await service.run_analysis(plan)

            async def cached() -> None:
                await service.run_analysis(plan)

            if not args.whole_only:
                print(line("no analysis", *await side(after, None, args, states)))
                print(line("lane, no cache", *await side(after, uncached, args, states)))
                await settle(service, after)
            service.cache.games.clear()
            await _forget(store)
            t = time.perf_counter()
            await service.run_analysis(plan)
            cold = time.perf_counter() - t
            t = time.perf_counter()
            await service.run_analysis(plan)
            warm = time.perf_counter() - t
            restarted = build_services(store, workers=after).reviews  # nothing in memory
            t = time.perf_counter()
            await restarted.run_analysis(plan)
            stored = time.perf_counter() - t
            if not args.whole_only:
                print(line("lane + cache", *await side(after, cached, args, states)))
        finally:
            await after.close()
        print(
            f"the whole match's analysis with no boards: game by game in the lane "
            f"({after.lane_size} worker(s)) {cold:.1f} s; asked again (in memory) "
            f"{1000 * warm:.1f} ms; after a restart (read from the database) "
            f"{1000 * stored:.1f} ms"
        )
        del played
        await store.close()


if __name__ == "__main__":
    asyncio.run(main())
