"""Puzzles (issue 29): extraction from a 25-point match, and ``/puzzle`` while boards are served.

1. **Extraction.** A 25-point match with the cube is played to the end through the real
   session and a SQLite file, both sides chosen by the computer at ``--level`` (beginner by
   default: noisy, so it errs as club players do). Then
   :func:`bot.features.puzzles.service.extract_puzzles` (what the analysis lane runs) makes its
   puzzles: every decision valued at 1-ply, the candidates confirmed at the strongest
   level. Printed: decisions, candidates, puzzles kept, wall and CPU seconds (this process,
   one core, as one lane worker would spend them).
2. **Latency.** The bot runs as its own process (``python -m bot``, its worker pool and
   lane) against the local fake Discord, on that database with its puzzles. ``--games``
   channels play typed moves (``benchmarks/e2e.py``'s players, ``--think`` seconds between
   actions: about 40 boards a second at 50 games and 1 s), while ``--solvers`` members each
   ask ``/puzzle get``, pick a whole play from the puzzle's menu (a cube puzzle: press an
   answer) and confirm, pausing ``--think`` seconds between steps. Each reply's latency is
   from sending the interaction to its answer arriving. Target: ``/puzzle get`` p99 under
   150 ms while the boards are served.

Run: ``python benchmarks/puzzles.py [--length 25] [--games 50] [--solvers 10] [--think 1.0]``
(``--skip-latency`` for the extraction alone).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.e2e import Timings, cpu_seconds, percentile, play_one  # noqa: E402
from bot.computer import ComputerPlayer, CubeDecision  # noqa: E402
from bot.core.records import Status  # noqa: E402
from bot.core.replay import decisions_from_events  # noqa: E402
from bot.core.session import Player, SessionService  # noqa: E402
from bot.engine import MatchOptions, Phase  # noqa: E402
from bot.features.puzzles.rules import Seat, SourceGame, select_puzzles  # noqa: E402
from bot.features.puzzles.rules.codec import key_text, puzzle_to_text  # noqa: E402
from bot.features.puzzles.rules.evaluate import analyse_all  # noqa: E402
from bot.features.puzzles.service import extract_puzzles  # noqa: E402
from bot.storage import Store  # noqa: E402
from bot.storage.puzzles import puzzle_store  # noqa: E402
from tests.e2e.conftest import TOKEN  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, FakeMember, RecordedMessage  # noqa: E402

ALICE, BOB = Player(1, "alice"), Player(2, "bob")
CHANNEL = 7


class SeededRoller:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def die(self) -> int:
        return self.random.randint(1, 6)


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def play_match(store: Store, guild_id: int, length: int, level: str, seed: int) -> int:
    """A whole match, both sides the computer at ``level`` (its noise makes the errors)."""
    service = SessionService(store, roller=SeededRoller(seed))
    brain = ComputerPlayer(level, seed=seed)
    await service.challenge(guild_id, CHANNEL, ALICE, BOB, MatchOptions(length=length))
    await service.accept(CHANNEL, BOB)
    while True:
        row = await service.current(CHANNEL)
        if row is None or row.game is None:
            latest = await service.latest(CHANNEL)
            assert latest is not None and latest.status == Status.FINISHED
            return latest.id
        game = row.game
        who = (ALICE, BOB)[game.actor or 0]
        if game.phase is Phase.ROLL:
            if game.can_double() and brain.should_double(game):
                await service.double(CHANNEL, who)
            else:
                await service.roll(CHANNEL, who)
        elif game.phase is Phase.DOUBLED:
            answer = brain.cube_response(game)
            if answer is CubeDecision.DROP:
                await service.drop(CHANNEL, who)
            else:  # no beavers in a match
                await service.take(CHANNEL, who)
        else:
            await service.move(CHANNEL, who, str(brain.choose_play(game)))


async def extraction(path: Path, guild_id: int, length: int, level: str) -> int:
    """Play the match, extract and store its puzzles; how many were kept."""
    store = await Store.open(path)
    try:
        started = time.perf_counter()
        match_id = await play_match(store, guild_id, length, level, seed=3)
        row = await store.get_match(match_id)
        assert row is not None
        events = await store.events(match_id)
        print(
            f"a {length}-point match at {level}: {len(events)} events, "
            f"played in {time.perf_counter() - started:.1f} s",
            flush=True,
        )
        source = SourceGame(match_id, row.status, (Seat(ALICE.id), Seat(BOB.id)))
        # The screen alone first (for the counts), then the whole extraction as the lane runs it.
        screen = ComputerPlayer("expert").evaluator
        wall, spent = time.perf_counter(), cpu()
        decisions = decisions_from_events(row.options, events)
        analysed = analyse_all(screen, decisions, level="expert")
        candidates = select_puzzles(source, analysed)
        screen_wall, screen_cpu = time.perf_counter() - wall, cpu() - spent
        wall, spent = time.perf_counter(), cpu()
        puzzles = extract_puzzles(row.options, events, source, frozenset())
        whole_wall, whole_cpu = time.perf_counter() - wall, cpu() - spent
        kinds: dict[str, int] = defaultdict(int)
        for puzzle in puzzles:
            kinds[str(puzzle.kind)] += 1
        print(
            f"extraction: {len(analysed)} decisions, {len(candidates)} candidates at 1-ply "
            f"(the screen alone {screen_wall:.1f} s wall, {screen_cpu:.1f} s CPU), "
            f"{len(puzzles)} confirmed at the strongest level ({dict(kinds)}); the whole "
            f"extraction {whole_wall:.1f} s wall, {whole_cpu:.1f} s CPU",
            flush=True,
        )
        store_of = puzzle_store(store)
        for puzzle in puzzles:
            await store_of.add_puzzle(
                guild_id,
                key_text(puzzle.key),
                puzzle_to_text(puzzle),
                match_id=match_id,
                owner_id=puzzle.owner_id,
                players=(ALICE.id, BOB.id),
                now=time.time(),
            )
        return len(puzzles)
    finally:
        await store.close()


def cid(message: RecordedMessage, prefix: str) -> str | None:
    found = [c for c in message.custom_ids if c.startswith(prefix)]
    return found[0] if found else None


async def solve(
    fake: FakeDiscord,
    solver: FakeMember,
    rounds: int,
    think: float,
    rng: random.Random,
    timings: dict[str, list[float]],
) -> int:
    """``/puzzle get``, a whole play from the menu (or a cube answer), Confirm; repeat."""
    channel = fake.channel("general")
    solved = 0

    async def pause() -> None:
        await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))

    for _ in range(rounds):
        await pause()
        started = time.perf_counter()
        result = await fake.slash(solver, channel.id, "puzzle", "get")
        callback = await result.response(60)
        timings["get"].append(time.perf_counter() - started)
        if callback.message is None or not callback.files:
            break  # every puzzle seen
        puzzle = fake.message(callback.message.id)
        await pause()
        cube = cid(puzzle, "bgpz:x:")
        if cube is not None:
            started = time.perf_counter()
            await (await fake.click(solver, puzzle, cube)).response(60)
            timings["answer"].append(time.perf_counter() - started)
            solved += 1
            continue
        menu = cid(puzzle, "bgpz:a:")
        if menu is None:
            continue  # more than 25 plays: no whole-play menu (taps would build it)
        value = rng.choice(puzzle.component(menu).options)["value"]
        started = time.perf_counter()
        await (await fake.click(solver, puzzle, menu, values=[value])).response(60)
        timings["tap"].append(time.perf_counter() - started)
        puzzle = fake.message(puzzle.id)
        await pause()
        started = time.perf_counter()
        await (await fake.click(solver, puzzle, cid(puzzle, "bgpz:c:") or "")).response(60)
        timings["answer"].append(time.perf_counter() - started)
        solved += 1
    return solved


async def latency(args: argparse.Namespace, folder: Path, fake: FakeDiscord) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(
        PYTHONPATH=str(ROOT),
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.http_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DEV_GUILD_ID=str(fake.guild.id),
        DATABASE_PATH=str(folder / "bench.db"),
        LOG_LEVEL="WARNING",
        GAME_REVIEWS="off",
    )
    env.pop("WORKERS", None)
    bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=folder, env=env)
    try:
        await fake.wait_until_ready(timeout=60)
        await fake.wait_for_commands(fake.guild.id, names=["backgammon", "puzzle"], timeout=60)
        solvers = [fake.create_member(f"solver{i}") for i in range(args.solvers)]
        boards = Timings()
        timings: dict[str, list[float]] = defaultdict(list)
        rng = random.Random(7)
        cpu_before = cpu_seconds(bot.pid)
        gc.collect()
        gc.disable()  # this process stands in for Discord: its pauses are not the bot's
        started = time.perf_counter()
        try:
            games = [
                play_one(fake, i, args.moves, args.think, rng, boards) for i in range(args.games)
            ]
            solving = [solve(fake, s, args.rounds, args.think, rng, timings) for s in solvers]
            results = await asyncio.gather(*games, *solving)
        finally:
            gc.enable()
        elapsed = time.perf_counter() - started
        cpu_after = cpu_seconds(bot.pid)
    finally:
        bot.terminate()
        await bot.wait()
    every_board = [t * 1000 for t in boards.moves + boards.other] or [0.0]
    solved = sum(results[args.games :])
    print(
        f"{args.games} games and {args.solvers} solvers, think {args.think:.2f} s, "
        f"{elapsed:.1f} s: {len(boards.moves + boards.other) / elapsed:.1f} boards/s (p50 "
        f"{statistics.median(every_board):.1f} ms, p99 {percentile(every_board, 0.99):.1f} ms); "
        f"{solved} puzzles answered; bot CPU {cpu_after[0] - cpu_before[0]:.1f} s, "
        f"workers {cpu_after[1] - cpu_before[1]:.1f} s",
        flush=True,
    )
    for kind in ("get", "tap", "answer"):
        ms = [t * 1000 for t in timings.get(kind, [])]
        if ms:
            print(
                f"  /puzzle {kind:7} {len(ms):5} replies  p50 {statistics.median(ms):6.1f} ms  "
                f"p99 {percentile(ms, 0.99):6.1f} ms  max {max(ms):6.1f} ms",
                flush=True,
            )


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        async with FakeDiscord(token=TOKEN) as fake:
            kept = await extraction(folder / "bench.db", fake.guild.id, args.length, args.level)
            if args.skip_latency or not kept:
                return
            await latency(args, folder, fake)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--length", type=int, default=25)
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=20, help="typed moves per game at most")
    parser.add_argument("--solvers", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=8, help="puzzles per solver at most")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--skip-latency", action="store_true")
    asyncio.run(main(parser.parse_args()))
