"""The deeper analysis of a position ("Look deeper"): truncated rollouts in the analysis lane.

The real :class:`bot.workers.Workers` (worker processes; the analysis lane at ``nice`` +10
and ``SCHED_IDLE``) and the real :class:`bot.computer.position_service.PositionService`, as
the Look deeper button runs them: the world-class search first, then each close play (at
most four, 144 games each) or the cube decision (four batches of 108) rolled out, each game
cut 7 plies on (bgsage's 2T), one lane call each. For each position it prints when each
progress line would be shown and the whole time, and the rolled-out result beside the
search's, and the CPU time the lane's processes spent (read from ``/proc``: on a shared
machine the wall clock also counts the time the lane, at the lowest priority, waited for
the others). It asserts nothing; the aim is about 10 s on the 2-core development machine.

Run: ``nice -n 10 .venv/bin/python benchmarks/deep.py``.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.computer.position_service import PositionService  # noqa: E402
from bot.core.reports import SessionSettings  # noqa: E402
from bot.engine import PositionRecord  # noqa: E402
from bot.workers import Workers  # noqa: E402

POSITIONS = {
    "the opening 5-2, 5-point match": "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10",
    "a middle game 6-3, money": "XGID=-a-BaBC-A---eE---c-e----B-:0:0:1:63:0:0:0:0:10",
    "a crowded 2-2 (170 plays), money": "XGID=--a-CCCaB---Ba---bAbbbb-bA:0:0:-1:22:0:0:0:0:10",
    "a blitz 3-2, money": "XGID=--aa-aD-C---dD--Aa-bbab-BA:0:0:-1:32:0:0:0:0:10",
    "a cube decision, money": "XGID=-a-BaBC-A---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
    "a cube decision, 7-point match 4-2": "XGID=--a-CCC-B---Ba-a-bAbbbb-bA:0:0:1:00:4:2:0:7:10",
}


def lane_cpu(workers: Workers) -> float:
    """CPU seconds (user and system) the analysis lane's processes have used so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in workers.lane_pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


class _NoGames:
    async def current(self, channel_id: int) -> None:
        return None

    async def latest(self, channel_id: int) -> None:
        return None

    async def live_in(self, guild_id: int) -> list:
        return []


async def main() -> None:
    workers = Workers()
    await workers.start()
    try:
        service = PositionService(
            workers, _NoGames(), settings=SessionSettings(analysis_cooldown=0), clock=time.time
        )
        for name, xgid in POSITIONS.items():
            record = PositionRecord.parse(xgid)
            shown: list[str] = []
            cpu = lane_cpu(workers)
            started = time.perf_counter()

            async def progress(
                done: int, total: int, shown: list[str] = shown, started: float = started
            ) -> None:
                shown.append(f"{done}/{total} at {time.perf_counter() - started:.1f} s")

            plan = await service.plan_deeper(1, record, user_id=1)
            deep = await service.deeper(plan, progress)
            took = time.perf_counter() - started
            used = lane_cpu(workers) - cpu
            print(
                f"{name}: {took:.1f} s, lane CPU {used:.1f} s ({deep.rollouts} rollouts; "
                f"progress {', '.join(shown)})"
            )
            for play in deep.plays:
                print(
                    f"  {play.notation}: {play.equity:+.3f} ±{play.error:.3f} "
                    f"(search {play.searched:+.3f})"
                )
            if deep.cube is not None:
                nd, dt = deep.cube_errors
                print(
                    f"  {deep.cube.text}: no double {deep.cube.no_double:+.3f} ±{nd:.3f}, "
                    f"double/take {deep.cube.double_take:+.3f} ±{dt:.3f}"
                )
    finally:
        await workers.close()


if __name__ == "__main__":
    asyncio.run(main())
