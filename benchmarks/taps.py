"""Tap-to-answer latency of the tap picker, the bot in its own process against the fake.

Beside ``benchmarks/e2e.py`` (typed moves): the same deployment (``python -m bot`` pointed
at the local fake Discord, its worker pool drawing the pictures), but every play is built
by taps as on a phone: Roll, then Play on the board (the private picker opens with its
picture), a checker from the menu, a destination from the next menu (each answer replaces
the picker, picture included: response type 7), until the play is whole, then Confirm
(the picker says what was played and the public board follows). Players choose at random
among the options they are shown. ``--games`` channels play at once, each player waiting
``--think`` seconds on average before each tap.

Each tap's latency is from sending the INTERACTION_CREATE to its answer arriving: the
picker message (Play), the type 7 update with its picture (a menu, Undo...), the public
board (Confirm, Roll). Target on the 2-core machine: p99 under 150 ms at 40 pictures a
second.

Run: ``python benchmarks/taps.py [--games 50] [--turns 12] [--think 1.2]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.e2e import NEXT, cpu_seconds, percentile  # noqa: E402
from tests.e2e.conftest import TOKEN  # noqa: E402
from tests.e2e.fake_discord import FakeDiscord, InteractionResult, RecordedMessage  # noqa: E402


def cid(message: RecordedMessage, prefix: str) -> str | None:
    found = [c for c in message.custom_ids if c.startswith(prefix)]
    return found[0] if found else None


async def play_one(
    fake: FakeDiscord,
    index: int,
    turns: int,
    think: float,
    rng: random.Random,
    timings: dict[str, list[float]],
) -> int:
    channel = fake.add_channel(None, f"table-{index}")
    white = fake.create_member(f"white{index}")
    black = fake.create_member(f"black{index}")
    people = {str(white.id): white, str(black.id): black, white.username: white}
    people[black.username] = black

    async def pause() -> None:
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))

    async def timed(kind: str, send: Awaitable[InteractionResult]) -> RecordedMessage:
        """From sending to the message that answers (a board, the picker)."""
        started = time.perf_counter()
        got = await (await send).answer(timeout=60)
        timings[kind].append(time.perf_counter() - started)
        return got

    async def timed_menu(send: Awaitable[InteractionResult]) -> None:
        """From sending a menu pick to its response (type 7: the picker updated in place)."""
        started = time.perf_counter()
        await (await send).response(60)
        timings["menu"].append(time.perf_counter() - started)

    challenge = await (
        await fake.slash(
            white, channel.id, "backgammon", "challenge", options={"opponent": black.id}
        )
    ).original_message()
    await pause()
    accept = cid(challenge, "bg:accept:")
    assert accept is not None, "the challenge has its Accept button"
    board = await timed("roll/accept", fake.click(black, challenge, accept))
    played = 0
    while played < turns:
        found = NEXT.findall(board.content or "")
        if not found:
            break  # the game is over
        actor = people[found[-1][0] or found[-1][1]]
        await pause()
        roll = cid(board, "bg:roll:")
        if roll is not None:
            board = await timed("roll/accept", fake.click(actor, board, roll))
            continue
        play = cid(board, "bgpk:o:")
        if play is None:
            break
        picker = await timed("open", fake.click(actor, board, play))
        while (
            "bgpk:c:" in str(picker.custom_ids)
            and picker.component(cid(picker, "bgpk:c:")).disabled
        ):
            await pause()
            menu = cid(picker, "bgpk:d:")
            if menu is None:  # choose a checker first
                source = cid(picker, "bgpk:s:")
                assert source is not None, "the picker offers a checker or a destination"
                value = rng.choice(picker.component(source).options)["value"]
                await timed_menu(fake.click(actor, picker, source, values=[value]))
            else:
                value = rng.choice(picker.component(menu).options)["value"]
                await timed_menu(fake.click(actor, picker, menu, values=[value]))
            picker = fake.message(picker.id)
        await pause()
        confirm = cid(picker, "bgpk:c:")
        assert confirm is not None, "a whole play is confirmed"
        board = await timed("confirm", fake.click(actor, picker, confirm))
        played += 1
    return played


async def run(games: int, turns: int, think: float) -> None:
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
                GAME_REVIEWS="off",
            )
            env.pop("WORKERS", None)
            bot = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=folder, env=env
            )
            try:
                await fake.wait_until_ready(timeout=60)
                await fake.wait_for_commands(fake.guild.id, names=["backgammon"], timeout=60)
                timings: dict[str, list[float]] = defaultdict(list)
                rng = random.Random(5)
                cpu_before = cpu_seconds(bot.pid)
                gc.collect()
                gc.disable()  # this process stands in for Discord: its pauses are not the bot's
                started = time.perf_counter()
                try:
                    counts = await asyncio.gather(
                        *(play_one(fake, i, turns, think, rng, timings) for i in range(games))
                    )
                finally:
                    gc.enable()
                elapsed = time.perf_counter() - started
                cpu_after = cpu_seconds(bot.pid)
            finally:
                bot.terminate()
                await bot.wait()
    every = [t * 1000 for values in timings.values() for t in values]
    rate = len(every) / elapsed
    bot_cpu = (cpu_after[0] - cpu_before[0]) / len(every) * 1000
    pool_cpu = (cpu_after[1] - cpu_before[1]) / len(every) * 1000
    print(
        f"{games} games, think {think:.2f} s: {sum(counts)} plays by taps, {len(every)} answers "
        f"with a picture in {elapsed:.1f} s ({rate:.1f} pictures/s); every tap: p50 "
        f"{statistics.median(every):.1f} ms, p99 {percentile(every, 0.99):.1f} ms, "
        f"max {max(every):.1f} ms; CPU per answer: bot {bot_cpu:.1f} ms, workers {pool_cpu:.1f} ms",
        flush=True,
    )
    for kind, values in sorted(timings.items()):
        ms = [t * 1000 for t in values]
        print(
            f"  {kind:12} {len(ms):5} taps  p50 {statistics.median(ms):6.1f} ms  "
            f"p99 {percentile(ms, 0.99):6.1f} ms  max {max(ms):6.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--turns", type=int, default=12, help="plays per game at most")
    parser.add_argument("--think", type=float, default=1.2, help="mean seconds before a tap")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.turns, args.think))
