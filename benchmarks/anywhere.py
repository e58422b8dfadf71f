"""Press-to-board latency of a game in a DM (issue 37) beside the same game on a server.

The deployment of ``benchmarks/taps.py`` (``python -m bot`` in its own process, pointed at
the local fake Discord, its worker pool drawing the pictures), with the commands synced
globally as user installs need. Half the tables are server channels of a server that added
the bot; the other half are DMs between a player who installed the app and a friend who did
not (the bot is not in those chats: the fake refuses it every channel call, so each board
is the answer to the press that caused it). Every play is built by taps; the players
choose at random among what they are shown.

Each press's latency is from sending the INTERACTION_CREATE to the message that answers
it: a board after Roll, Accept or Confirm (on a server the new board is the press's own
response; in a DM the pressed board loses its buttons by the response, a type 7 update, and
the new board follows as a followup), the picker after Play. Printed side by side, per
venue; the target: a DM board's p99 no worse than 1.5 times a server board's.

Run: ``python benchmarks/anywhere.py [--games 20] [--turns 10] [--think 1.0]``
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
from tests.e2e.fake_discord import (  # noqa: E402
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeUser,
    InteractionResult,
    RecordedMessage,
)

VENUES = ("server", "dm")


def cid(message: RecordedMessage, prefix: str) -> str | None:
    found = [c for c in message.custom_ids if c.startswith(prefix)]
    return found[0] if found else None


async def play_one(
    fake: FakeDiscord,
    index: int,
    venue: str,
    turns: int,
    think: float,
    rng: random.Random,
    timings: dict[tuple[str, str], list[float]],
) -> int:
    white: FakeMember | FakeUser
    black: FakeMember | FakeUser
    channel: FakeChannel
    if venue == "server":
        channel = fake.add_channel(None, f"table-{index}")
        white = fake.create_member(f"white{index}")
        black = fake.create_member(f"black{index}")
    else:
        white = fake.create_user(f"white{index}")
        black = fake.create_user(f"black{index}")
        fake.install_for_user(white)  # the friend has no app: they only press components
        channel = fake.private_dm(white, black)
    people = {white.username: white, black.username: black, str(white.id): white}
    people[str(black.id)] = black

    async def pause() -> None:
        if think:
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))

    async def timed(kind: str, send: Awaitable[InteractionResult]) -> RecordedMessage:
        started = time.perf_counter()
        got = await (await send).answer(timeout=60)
        timings[(venue, kind)].append(time.perf_counter() - started)
        return got

    challenge = await (
        await fake.slash(white, channel, "backgammon", "challenge", options={"opponent": black})
    ).answer(timeout=60)
    await pause()
    accept = cid(challenge, "bg:accept:")
    assert accept is not None, "the challenge has its Accept button"
    board = await timed("board", fake.click(black, challenge, accept))
    played = 0
    while played < turns:
        found = NEXT.findall(board.content or "")
        if not found:
            break  # the game is over
        actor = people[found[-1][0] or found[-1][1]]
        await pause()
        roll = cid(board, "bg:roll:")
        if roll is not None:
            board = await timed("board", fake.click(actor, board, roll))
            continue
        play = cid(board, "bgpk:o:")
        if play is None:
            break
        picker = await timed("picker", fake.click(actor, board, play))
        while (
            "bgpk:c:" in str(picker.custom_ids)
            and picker.component(cid(picker, "bgpk:c:")).disabled
        ):
            await pause()
            menu = cid(picker, "bgpk:d:") or cid(picker, "bgpk:s:")
            assert menu is not None, "the picker offers a checker or a destination"
            value = rng.choice(picker.component(menu).options)["value"]
            await (await fake.click(actor, picker, menu, values=[value])).response(60)
            picker = fake.message(picker.id)
        await pause()
        confirm = cid(picker, "bgpk:c:")
        assert confirm is not None, "a whole play is confirmed"
        board = await timed("board", fake.click(actor, picker, confirm))
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
                DATABASE_PATH=str(Path(folder) / "bench.db"),
                LOG_LEVEL="WARNING",
                GAME_REVIEWS="off",
            )
            for name in ("WORKERS", "DEV_GUILD_ID"):
                env.pop(name, None)  # global commands: user installs need them
            bot = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=folder, env=env
            )
            try:
                await fake.wait_until_ready(timeout=60)
                await fake.wait_for_commands(None, names=["backgammon"], timeout=60)
                timings: dict[tuple[str, str], list[float]] = defaultdict(list)
                rng = random.Random(7)
                cpu_before = cpu_seconds(bot.pid)
                gc.collect()
                gc.disable()  # this process stands in for Discord: its pauses are not the bot's
                started = time.perf_counter()
                try:
                    counts = await asyncio.gather(
                        *(
                            play_one(fake, i, VENUES[i % 2], turns, think, rng, timings)
                            for i in range(games)
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
    bot_cpu = (cpu_after[0] - cpu_before[0]) / answers * 1000
    print(
        f"{games} tables ({games // 2 + games % 2} on a server, {games // 2} in DMs), think "
        f"{think:.2f} s: {sum(counts)} plays by taps, {answers} timed answers in "
        f"{elapsed:.1f} s; bot CPU per answer {bot_cpu:.1f} ms; refused requests: "
        f"{len(refused)}",
        flush=True,
    )
    for kind in ("board", "picker"):
        for venue in VENUES:
            ms = [t * 1000 for t in timings[(venue, kind)]]
            if not ms:
                continue
            print(
                f"  {kind:7} {venue:7} {len(ms):5} presses  p50 {statistics.median(ms):6.1f} ms"
                f"  p99 {percentile(ms, 0.99):6.1f} ms  max {max(ms):6.1f} ms",
                flush=True,
            )
    server = [t * 1000 for t in timings[("server", "board")]]
    dm = [t * 1000 for t in timings[("dm", "board")]]
    if server and dm:
        ratio = percentile(dm, 0.99) / percentile(server, 0.99)
        print(f"  board p99, DM / server: {ratio:.2f} (target at most 1.5)", flush=True)
    for line in refused[:10]:
        print(f"  refused: {line}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=10, help="plays per game at most")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before a press")
    args = parser.parse_args()
    asyncio.run(run(args.games, args.turns, args.think))
