"""Round trip of a board picture to a worker process: ProcessPoolExecutor vs bot.pool.

Both sides in one run, one worker each, the same picture: ``concurrent.futures``'
ProcessPoolExecutor (what the bot used before: each call crosses two helper threads of the
calling process, which must win the GIL from the event loop) and
:class:`bot.pool.ProcessPool` (the event loop writes and reads the worker's pipes itself).
Measured with the loop idle, and with the loop busy as a bot's is under load: another
task runs pure Python in slices of ``--slice`` ms with short breaths between them.

Also prints the calling process's CPU time per call (the helper threads' included).

Run: ``python benchmarks/workers.py [--calls 400] [--slice 4]``
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import multiprocessing
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.pool import ProcessPool  # noqa: E402
from bot.workers import _init_worker, render  # noqa: E402
from renderers.examples import EXAMPLES, NAMES  # noqa: E402


def spin(ms: float) -> None:
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        pass


async def keep_busy(stop: asyncio.Event, slice_ms: float) -> None:
    while not stop.is_set():
        spin(slice_ms)
        await asyncio.sleep(0.002)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def measure(call, calls: int, busy: bool, slice_ms: float) -> tuple[list[float], float]:
    game, perspective = EXAMPLES["hit"]()
    options = {"perspective": perspective, "names": NAMES}
    for _ in range(20):  # warm
        await call(render, game, options)
    stop = asyncio.Event()
    busy_task = asyncio.ensure_future(keep_busy(stop, slice_ms)) if busy else None
    times = []
    cpu = time.process_time()
    for _ in range(calls):
        started = time.perf_counter()
        await call(render, game, options)
        times.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.01)
    cpu_per_call = (time.process_time() - cpu) * 1000 / calls
    if busy_task is not None:
        stop.set()
        await busy_task
    return times, cpu_per_call


async def executor_side(calls: int, busy: bool, slice_ms: float) -> tuple[list[float], float]:
    executor = concurrent.futures.ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_init_worker,
        initargs=(False,),
    )
    loop = asyncio.get_running_loop()
    try:
        return await measure(
            lambda fn, *args: loop.run_in_executor(executor, fn, *args), calls, busy, slice_ms
        )
    finally:
        executor.shutdown()


async def pool_side(calls: int, busy: bool, slice_ms: float) -> tuple[list[float], float]:
    pool = ProcessPool(1, _init_worker, (False,))
    await pool.start()
    try:
        return await measure(pool.call, calls, busy, slice_ms)
    finally:
        await pool.close(5.0)


async def main(calls: int, slice_ms: float) -> None:
    print(f"{calls} pictures each, one worker; times in ms")
    for busy in (False, True):
        loop_state = f"loop busy ({slice_ms:g} ms slices)" if busy else "loop idle"
        for label, side in (("ProcessPoolExecutor", executor_side), ("bot.pool", pool_side)):
            times, cpu = await side(calls, busy, slice_ms)
            # With the loop busy, this process's CPU is mostly the busy task's own.
            cpu_text = f", CPU here per call {cpu:.2f}" if not busy else ""
            print(
                f"{loop_state:24} {label:20} p50 {statistics.median(times):5.2f}  "
                f"p90 {percentile(times, 0.9):5.2f}  p99 {percentile(times, 0.99):5.2f}"
                f"{cpu_text}",
                flush=True,
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--slice", type=float, default=4.0, help="ms of work per busy slice")
    args = parser.parse_args()
    asyncio.run(main(args.calls, args.slice))
