"""Interaction-to-response latency of the bot process against the local fake Discord.

The bot runs as it is deployed (``python -m bot`` in its own process, pointed at the fake by
DISCORD_API_BASE / DISCORD_GATEWAY_URL); this script runs the fake and plays like people do:
50 games in parallel, each in its own channel, reading only what a player sees (the board
message's buttons and mention, autocomplete for the legal plays). Before each action a
player waits a random "thinking" time (``--think`` seconds on average; 0 = as fast as
possible). A move's latency is from sending the INTERACTION_CREATE to the board message
(text + PNG) arriving. Target on the 2-core machine: p99 under 250 ms.

Run: ``python benchmarks/e2e.py [--games 50] [--moves 20] [--think 1.0]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import TOKEN  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, RecordedMessage  # noqa: E402

MENTION = re.compile(r"<@(\d+)>")


class Timings:
    def __init__(self) -> None:
        self.moves: list[float] = []
        self.other: list[float] = []
        self.late = 0


async def play_one(
    fake: FakeDiscord, index: int, moves: int, think: float, rng: random.Random, timings: Timings
) -> int:
    channel = fake.add_channel(None, f"table-{index}")
    white = fake.create_member(f"white{index}")
    black = fake.create_member(f"black{index}")
    people = {white.id: white, black.id: black}

    async def pause() -> None:
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))

    async def timed(send, bucket: list[float]) -> RecordedMessage:
        started = time.perf_counter()
        result = await send
        message = await result.followup(0, timeout=60)
        bucket.append(time.perf_counter() - started)
        if result.late:
            timings.late += 1
        return message

    await pause()
    first = await fake.slash(
        white, channel.id, "backgammon", "challenge", options={"opponent": black.id}
    )
    challenge = await first.original_message()
    await pause()
    (accept,) = [c for c in challenge.custom_ids if c.startswith("bg:accept:")]
    board = await timed(fake.click(black, challenge, accept), timings.other)
    played = 0
    while played < moves:
        mentioned = MENTION.findall(board.content or "")
        if not mentioned:
            break  # the game is over
        actor = people[int(mentioned[-1])]
        await pause()
        rolls = [c for c in board.custom_ids if c.startswith("bg:roll:")]
        if rolls:
            board = await timed(fake.click(actor, board, rolls[0]), timings.other)
        elif "move your" in (board.content or ""):
            choices = await fake.autocomplete(
                actor, channel.id, "backgammon", "move", focused="play", value=""
            )
            play = rng.choice(choices)["value"]
            board = await timed(
                fake.slash(actor, channel.id, "backgammon", "move", options={"play": play}),
                timings.moves,
            )
            played += 1
        else:
            break
    return played


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def main(games: int, moves: int, think: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord(token=TOKEN) as fake:
            env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
            env.update(
                PYTHONPATH=str(ROOT),
                DISCORD_TOKEN=fake.token,
                DISCORD_API_BASE=fake.http_base,
                DISCORD_GATEWAY_URL=fake.gateway_url,
                DEV_GUILD_ID=str(fake.guild.id),
                DATABASE_PATH=str(Path(folder) / "bench.db"),
                LOG_LEVEL="WARNING",
            )
            bot = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=folder,
                env=env,
            )
            try:
                await fake.wait_until_ready(timeout=60)
                await fake.wait_for_commands(fake.guild.id, names=["backgammon"], timeout=60)
                timings = Timings()
                rng = random.Random(11)
                started = time.perf_counter()
                counts = await asyncio.gather(
                    *(play_one(fake, i, moves, think, rng, timings) for i in range(games))
                )
                elapsed = time.perf_counter() - started
            finally:
                bot.terminate()
                await bot.wait()
    ms = [t * 1000 for t in timings.moves]
    other = [t * 1000 for t in timings.other]
    print(
        f"{games} games in parallel, think time {think:.1f} s on average: "
        f"{sum(counts)} move commands in {elapsed:.1f} s "
        f"({(len(ms) + len(other)) / elapsed:.1f} board posts/s)"
    )
    print(
        f"move with board image: p50 {statistics.median(ms):.1f} ms, "
        f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms (target p99 < 250 ms)"
    )
    print(
        f"roll and accept:       p50 {statistics.median(other):.1f} ms, "
        f"p99 {percentile(other, 0.99):.1f} ms"
    )
    print(f"responses later than Discord's 3 s: {timings.late}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=20, help="move commands per game at most")
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a player waits before acting (0 = none)",
    )
    args = parser.parse_args()
    asyncio.run(main(args.games, args.moves, args.think))
