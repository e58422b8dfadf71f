"""Press-to-board latency of a chouette's actions (issue 39) beside a game's, in one run.

The deployment of ``benchmarks/anywhere.py`` (``python -m bot`` in its own process, pointed
at the local fake Discord, its worker pool drawing the pictures). Half the tables are games
between two members of a server (``anywhere.py``'s own players, every play built by taps);
the other half are chouettes of four members, each in the thread the bot opens for it:
seated by Take a seat, begun, then played as the board asks, whoever it calls acting: the
captain rolls for the team (a member doubles first now and then, and the box takes every
double), the box rolls, whoever has the dice plays by taps. The bot's real dice.

Each press's latency is from sending the INTERACTION_CREATE to the public message that
answers it (the new board, drawn with the table's seats and cubes beside the checkers); the
picker is timed apart. Printed side by side: a chouette board's p99 beside a game board's.
Benchmarks print and never assert.

Run: ``python benchmarks/chouette.py [--tables 12] [--turns 12] [--think 1.0]``
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

from benchmarks.anywhere import cid, play_one  # noqa: E402
from benchmarks.e2e import cpu_seconds, percentile  # noqa: E402
from tests.e2e.conftest import TOKEN  # noqa: E402
from tests.e2e.fake_discord import (  # noqa: E402
    FakeDiscord,
    FakeMember,
    InteractionResult,
    RecordedMessage,
)

Timings = dict[tuple[str, str], list[float]]
DOUBLE_CHANCE = 0.15  # a member doubles in this share of the team's windows


async def play_chouette(
    fake: FakeDiscord, index: int, turns: int, think: float, rng: random.Random, timings: Timings
) -> int:
    """One table of four, ``turns`` board actions at most; returns how many were timed."""
    channel = fake.add_channel(None, f"chouette-{index}")
    people = [fake.create_member(f"p{index}x{n}") for n in range(4)]
    by_id = {f"user:{p.id}": p for p in people}

    async def pause() -> None:
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))

    async def timed(kind: str, send: Awaitable[InteractionResult]) -> RecordedMessage | None:
        """The message answering a press, timed: a public board, or the picker only its
        player sees; None (untimed) for a private refusal."""
        started = time.perf_counter()
        result = await send
        got = await result.answer(timeout=60)
        if got.ephemeral and not got.interactive:
            return None
        timings[("chouette", kind)].append(time.perf_counter() - started)
        return got

    async def by_taps(
        actor: FakeMember, board: RecordedMessage, opener: str
    ) -> RecordedMessage | None:
        """The tap picker as a player uses it, until Confirm is lit."""
        picker = await timed("picker", fake.click(actor, board, opener))
        if picker is None:
            return None
        while (
            "chpk:c:" in str(picker.custom_ids)
            and picker.component(cid(picker, "chpk:c:")).disabled
        ):
            await pause()
            # The whole plays at once when the picker lists them, else checker and point.
            menu = cid(picker, "chpk:a:") or cid(picker, "chpk:d:") or cid(picker, "chpk:s:")
            assert menu is not None, "the picker offers a checker or a destination"
            value = rng.choice(picker.component(menu).options)["value"]
            await (await fake.click(actor, picker, menu, values=[value])).response(60)
            picker = fake.message(picker.id)
        await pause()
        confirm = cid(picker, "chpk:c:")
        assert confirm is not None, "a whole play is confirmed"
        return await timed("board", fake.click(actor, picker, confirm))

    opened = await fake.slash(people[0], channel, "chouette", "start", options={})
    await opened.answer(timeout=60)
    (thread,) = [c for c in fake.guild.channels.values() if c.parent_id == channel.id]

    def latest() -> RecordedMessage:
        boards = [m for m in fake.messages_in(thread.id) if m.interactive and not m.ephemeral]
        return boards[-1]

    for person in people[1:]:
        await pause()
        board = latest()
        join = cid(board, "ch:join:")
        assert join is not None, "the table has its Take a seat button"
        await timed("seat", fake.click(person, board, join))
    await pause()
    board = latest()
    begin = cid(board, "ch:begin:")
    assert begin is not None, "four seated: Begin"
    await timed("board", fake.click(people[0], board, begin))
    done = 0
    for _attempt in range(4 * turns):  # refused presses count as attempts, not as actions
        if done >= turns:
            break
        await pause()
        board = latest()
        called = [by_id[p] for p in fake.would_ping(board) if p in by_id]
        if not called:
            break  # nobody called: the computer or the clock's turn, or the session is over
        actor = called[0]
        takeall, roll = cid(board, "ch:takeall:"), cid(board, "ch:roll:")
        double = cid(board, "ch:double:")
        if takeall is not None:
            got = await timed("board", fake.click(actor, board, takeall))
        elif roll is not None and double is not None and rng.random() < DOUBLE_CHANCE:
            member = rng.choice([p for p in people if p is not actor])
            got = await timed("board", fake.click(member, board, double))  # the box: refused
        elif roll is not None:
            got = await timed("board", fake.click(actor, board, roll))
        elif (opener := cid(board, "chpk:o:")) is not None:
            got = await by_taps(actor, board, opener)
        else:
            break  # a decision this benchmark does not make (the box's double, say)
        done += got is not None
    return done


async def run(tables: int, turns: int, think: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord(token=TOKEN) as fake:
            env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
            env.update(
                PYTHONPATH=str(ROOT),
                DISCORD_TOKEN=fake.token,
                DISCORD_API_BASE=fake.http_base,
                DISCORD_GATEWAY_URL=fake.gateway_url,
                DATABASE_PATH=str(Path(folder) / "bench.db"),
                LOG_LEVEL="WARNING",
                GAME_REVIEWS="off",
            )
            for name in ("WORKERS", "DEV_GUILD_ID"):
                env.pop(name, None)
            bot = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=folder, env=env
            )
            try:
                await fake.wait_until_ready(timeout=60)
                await fake.wait_for_commands(None, names=["backgammon", "chouette"], timeout=60)
                timings: Timings = defaultdict(list)
                rng = random.Random(39)
                cpu_before = cpu_seconds(bot.pid)
                gc.collect()
                gc.disable()  # this process stands in for Discord: its pauses are not the bot's
                started = time.perf_counter()
                try:
                    counts = await asyncio.gather(
                        *(
                            play_chouette(fake, i, turns, think, rng, timings)
                            if i % 2
                            else play_one(fake, i, "server", turns, think, rng, timings)
                            for i in range(tables)
                        )
                    )
                finally:
                    gc.enable()
                elapsed = time.perf_counter() - started
                cpu_after = cpu_seconds(bot.pid)
                refused = [str(e) for e in fake.errors]
            finally:
                bot.terminate()
                await bot.wait()
    answers = sum(len(v) for v in timings.values())
    bot_cpu = (cpu_after[0] - cpu_before[0]) / max(1, answers) * 1000
    print(
        f"{tables} tables ({tables - tables // 2} games, {tables // 2} chouettes of four), "
        f"think {think:.2f} s: {sum(counts)} actions, {answers} timed answers in "
        f"{elapsed:.1f} s; bot CPU per answer {bot_cpu:.1f} ms; refused requests: "
        f"{len(refused)}",
        flush=True,
    )
    for kind in ("board", "picker", "seat"):
        for table in ("server", "chouette"):
            ms = [t * 1000 for t in timings[(table, kind)]]
            if not ms:
                continue
            name = "game" if table == "server" else table
            print(
                f"  {kind:7} {name:9} {len(ms):5} presses  p50 {statistics.median(ms):6.1f} ms"
                f"  p99 {percentile(ms, 0.99):6.1f} ms  max {max(ms):6.1f} ms",
                flush=True,
            )
    game = [t * 1000 for t in timings[("server", "board")]]
    chouette = [t * 1000 for t in timings[("chouette", "board")]]
    if game and chouette:
        ratio = percentile(chouette, 0.99) / percentile(game, 0.99)
        print(f"  board p99, chouette / game: {ratio:.2f}", flush=True)
    for line in refused[:10]:
        print(f"  refused: {line}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--turns", type=int, default=12, help="board actions per table at most")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before a press")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.turns, args.think))
