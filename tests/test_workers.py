"""The worker pool: real processes draw the same pictures, the computer plays legally from
them, a dead worker raises instead of hanging, and close() leaves no process behind."""

from __future__ import annotations

import asyncio
import atexit
import logging
import os
import pickle
import random
import signal
import time

import pytest

from bot.computer import ComputerPlayer, CubeDecision, computer_available
from bot.engine import Game, MatchOptions, Phase, Play
from bot.pool import PoolError, ProcessPool
from bot.workers import WorkerError, Workers, default_size
from renderers import render_board
from renderers.examples import EXAMPLES, NAMES

needs_bgsage = pytest.mark.skipif(not computer_available(), reason="bgsage is not installed")


def nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def crash() -> None:
    os._exit(3)  # a worker dying as in a segfault or the OOM killer: no exception, no reply


def fail(message: str) -> None:
    raise LookupError(message)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie still answers kill(0): it has exited but not been reaped
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def random_game(seed: int, steps: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(MatchOptions(length=5)).opening_roll(3, 1)
    for _ in range(steps):
        if game.phase is Phase.ROLL:
            game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif game.phase is Phase.MOVE:
            plays = list(game.legal_plays())
            game = game.play(rng.choice(plays)) if plays[0].moves else game.pass_turn()
        else:
            break
    return game


def test_default_size_leaves_a_core_for_the_event_loop():
    assert default_size() == max(1, (os.cpu_count() or 1) - 1)
    with pytest.raises(ValueError):
        Workers(0)


def test_games_and_plays_pickle():
    for make in EXAMPLES.values():
        game, _ = make()
        assert pickle.loads(pickle.dumps(game)) == game
        if game.last_play is not None:
            assert pickle.loads(pickle.dumps(game.last_play)) == game.last_play
    game = random_game(1, 30)
    assert pickle.loads(pickle.dumps(game)) == game
    assert pickle.loads(pickle.dumps(CubeDecision.TAKE)) is CubeDecision.TAKE


@pytest.fixture
async def pool():
    workers = Workers(2, warm_computer=computer_available())
    await workers.start()
    try:
        yield workers
    finally:
        await workers.close()


async def test_a_worker_process_draws_the_same_picture(pool):
    assert len(pool.pids) == 2 and os.getpid() not in pool.pids
    for name in ("opening", "hit", "game-over"):
        game, perspective = EXAMPLES[name]()
        options = {"perspective": perspective, "names": NAMES, "theme": "dark", "width": 640}
        assert await pool.render(game, **options) == render_board(game, **options)
    jobs = [(EXAMPLES["doubled"]()[0], {"perspective": side}) for side in (0, 1)]
    assert await pool.render_many(jobs) == [render_board(g, **o) for g, o in jobs]


async def test_errors_in_the_work_come_back_as_they_are(pool):
    with pytest.raises(LookupError, match="no such thing"):
        await pool.call(fail, "no such thing")
    with pytest.raises(ValueError, match="__class__"):  # only a Thought reaches getattr
        await pool.think("expert", "__class__", Game.new())


async def test_a_dead_worker_raises_and_the_pool_recovers(pool):
    with pytest.raises(WorkerError):
        await pool.call(crash)
    game, perspective = EXAMPLES["opening"]()
    assert (await pool.render(game, perspective=perspective))[:4] == b"\x89PNG"


async def test_close_leaves_no_process_behind():
    workers = Workers(2, warm_computer=False)
    await workers.start()
    pids = workers.pids
    assert len(pids) == 2 and all(alive(pid) for pid in pids)
    await workers.close()
    assert not any(alive(pid) for pid in pids)
    await workers.close()  # idempotent
    with pytest.raises(RuntimeError):
        await workers.render(Game.new(), perspective=0)


async def test_workers_outlast_sigterm_and_close_ends_a_busy_one():
    """systemd's stop signals every process of the service: the workers stay for the
    action in flight, and close() still ends one stuck in a long call, quickly."""
    workers = Workers(1, warm_computer=False)
    await workers.start()
    (pid,) = workers.pids
    os.kill(pid, signal.SIGTERM)
    assert await workers.call(nap, 0.01) == 0.01
    busy = asyncio.ensure_future(workers.call(nap, 60.0))
    await asyncio.sleep(0.5)
    started = time.monotonic()
    await workers.close(timeout=0.2)
    assert time.monotonic() - started < 5
    assert not alive(pid)
    with pytest.raises(WorkerError):
        await asyncio.wait_for(busy, 5)


async def test_close_lets_the_call_in_flight_finish_and_fails_the_queued_ones():
    """A stop lets the action in flight end with its board; what still queues is refused
    as a worker failure (the session's to report), never as a cancellation of its caller."""
    workers = Workers(1, lane=0, warm_computer=False)
    await workers.start()
    in_flight = asyncio.ensure_future(workers.call(nap, 0.5))
    await asyncio.sleep(0.2)
    queued = [asyncio.ensure_future(workers.call(nap, 0.01)) for _ in range(5)]
    await asyncio.sleep(0.05)
    await workers.close(timeout=5.0)
    assert await in_flight == 0.5
    outcomes = await asyncio.gather(*queued, return_exceptions=True)
    assert all(o == 0.01 or isinstance(o, WorkerError) for o in outcomes), outcomes
    assert any(isinstance(o, WorkerError) for o in outcomes), outcomes


@needs_bgsage
async def test_the_computer_in_a_worker_plays_legally(pool):
    for seed in range(6):
        game = random_game(seed, 2 * seed + 1)
        if game.phase is not Phase.MOVE:
            continue
        play = await pool.choose_play("expert", game)
        assert isinstance(play, Play)
        assert play in game.legal_plays() or (not play.moves and game.legal_plays().is_forced_pass)
        # No noise at expert: the worker's answer is this process's answer.
        assert play == ComputerPlayer("expert").choose_play(game)
    roll = Game.new(MatchOptions(length=5)).opening_roll(6, 5)
    hints = await pool.hints("expert", roll, 2)
    assert len(hints) == 2 and hints[0].difference == 0.0


async def test_inline_workers_run_in_this_process() -> None:
    class Stub:
        def choose_play(self, game: Game) -> Play:
            return next(iter(game.legal_plays()))

        def analyze(self, decisions, *, players):
            return {player: len(decisions) for player in players}

    made: list[str] = []

    def factory(level: str) -> Stub:
        made.append(level)
        return Stub()

    workers = Workers.inline(computer=factory)
    await workers.start()
    game = Game.new().opening_roll(3, 1)
    play = await workers.choose_play("beginner", game)
    assert play in game.legal_plays()
    await workers.choose_play("beginner", game)
    assert made == ["beginner"]
    assert await workers.analyze([(game, play)], level="expert", players=[0]) == {0: 1}
    assert await workers.render(game, perspective=0) == render_board(game, perspective=0)
    assert workers.pids == []
    await workers.close()


def event_log() -> tuple[MatchOptions, list]:
    """A short money game's log, as the store keeps it."""
    from bot.core.records import Action, EventRecord

    options = MatchOptions()
    events: list[EventRecord] = []

    def log(
        game: Game,
        action: Action,
        player: int | None,
        notation: str | None = None,
        dice: tuple[int, int] | None = None,
    ) -> None:
        events.append(
            EventRecord(
                seq=len(events) + 1,
                game_number=1,
                actor_id=None if player is None else 100 + player,
                player=player,
                action=action,
                notation=notation,
                dice=dice,
                position_id=game.position_id(),
                gnu_match_id=game.match_id(),
                created_at=0.0,
            )
        )

    game = Game.new(options)
    log(game, Action.START, None)
    game = game.opening_roll(3, 1)
    log(game, Action.OPENING, None, dice=(3, 1))
    rng = random.Random(3)
    for _ in range(6):
        if game.phase is Phase.MOVE:
            player = game.on_roll
            play = next(iter(game.legal_plays()))
            game = game.play(play)
            log(game, Action.MOVE, player, notation=str(play))
        elif game.phase is Phase.ROLL:
            player, dice = game.on_roll, (rng.randint(1, 6), rng.randint(1, 6))
            game = game.roll(dice)
            log(game, Action.ROLL, player, dice=dice)
    return options, events


@needs_bgsage
async def test_a_match_log_is_analysed_in_a_worker(pool):
    from bot.core.replay import decisions_from_events

    options, events = event_log()
    result = await pool.analyze_log(options, events, level="expert", players=(0, 1))
    here = ComputerPlayer("expert").analyze(decisions_from_events(options, events))
    assert set(result) == {0, 1}
    for player in (0, 1):
        assert result[player].decisions == here[player].decisions > 0
        assert result[player].total_error == pytest.approx(here[player].total_error)


@needs_bgsage
async def test_a_match_review_runs_in_a_worker(pool):
    from bot.computer.luck import match_luck
    from bot.core.replay import decisions_from_events

    options, events = event_log()
    analyses, luck = await pool.review_log(options, events, level="expert", players=(0, 1))
    player = ComputerPlayer("expert")
    here = player.analyze(decisions_from_events(options, events))
    assert {p: a.decisions for p, a in analyses.items()} == {
        p: a.decisions for p, a in here.items()
    }
    assert luck == match_luck(options, events, player.evaluator)


def echo(data: bytes) -> bytes:
    return data[::-1]


async def test_big_calls_and_answers_pass_whole_in_both_directions(pool):
    """Far more than a pipe holds (64 KB), each way, many at once: nothing blocks or mixes."""
    payloads = [bytes([n]) * (300_000 + n) + b"end" for n in range(6)]
    answers = await asyncio.gather(*(pool.call(echo, data) for data in payloads))
    assert answers == [data[::-1] for data in payloads]


async def test_a_cancelled_call_leaves_the_worker_usable():
    """A caller that gives up (its interaction timed out) costs the pool nothing."""
    workers = Workers(1, lane=0, warm_computer=False)
    await workers.start()
    try:
        slow = asyncio.ensure_future(workers.call(nap, 0.3))
        await asyncio.sleep(0.05)
        slow.cancel()
        results = await asyncio.gather(*(workers.call(nap, 0.01 * n) for n in range(5)))
        assert results == [0.01 * n for n in range(5)]
    finally:
        await workers.close()


def slow_exit() -> None:
    """A worker whose exit takes a while after it has closed its pipes (a big heap)."""
    atexit.register(time.sleep, 0.5)


async def test_closing_idle_workers_lets_them_exit_and_kills_none(caplog):
    """A worker's pipes close a moment before its process is gone: close() waits for the
    exit instead of taking the exiting worker for a busy one and killing it."""
    pool = ProcessPool(2, slow_exit)
    pids = await pool.start()
    assert await pool.call(nap, 0.01) == 0.01
    with caplog.at_level(logging.WARNING, logger="bot.pool"):
        await pool.close(5.0)
    assert not any(alive(pid) for pid in pids)
    assert [r.getMessage() for r in caplog.records if "killing" in r.getMessage()] == []


async def test_calls_fail_rather_than_wait_when_no_worker_can_be_started_again(monkeypatch):
    """A dead worker whose replacement cannot even be spawned (no more processes): the
    calls fail at once, as worker failures, instead of waiting for ever for a worker."""
    import concurrent.futures

    pool = ProcessPool(1, time.sleep, (0,))
    await pool.start()

    def cannot_spawn(executor: object) -> None:
        raise OSError("fork: resource temporarily unavailable")

    monkeypatch.setattr(concurrent.futures.ProcessPoolExecutor, "_spawn_process", cannot_spawn)
    try:
        with pytest.raises(PoolError, match="died"):
            await pool.call(crash)
        with pytest.raises(PoolError, match="could be started"):
            await asyncio.wait_for(pool.call(nap, 0.01), 5)
        monkeypatch.undo()  # processes can be started again: so can the calls
        assert await asyncio.wait_for(pool.call(nap, 0.01), 30) == 0.01
    finally:
        await pool.close(5.0)


async def test_a_board_is_drawn_while_the_analysis_lane_is_busy():
    """Analyses have a lane of their own: a board never queues behind one (before the lane,
    one worker busy with a long analysis held every board until it finished)."""
    workers = Workers(1, lane=1, warm_computer=False)
    await workers.start()
    try:
        assert workers.lane_pids and not set(workers.lane_pids) & set(workers.pids)
        long_analysis = asyncio.ensure_future(workers.lane_call(nap, 3.0))
        await asyncio.sleep(0.2)  # it is running in the lane now
        game, perspective = EXAMPLES["opening"]()
        started = time.monotonic()
        png = await asyncio.wait_for(workers.render(game, perspective=perspective), 2.5)
        assert png[:4] == b"\x89PNG" and time.monotonic() - started < 1.5
        assert not long_analysis.done()
        # and the lane's processes run second in line for the CPU
        with open(f"/proc/{workers.lane_pids[0]}/stat") as stat:
            nice = int(stat.read().split(")")[-1].split()[16])
        assert nice >= 10
        assert await long_analysis == 3.0
    finally:
        await workers.close()


ORPHAN = """
import asyncio, os, sys, time
sys.path.insert(0, {root!r})
from bot.workers import Workers
from tests.test_workers import nap

async def main():
    workers = Workers(1, lane=0, warm_computer=False)
    await workers.start()
    (pid,) = workers.pids
    print(pid, flush=True)
    asyncio.ensure_future(workers.call(nap, 1.0))
    await asyncio.sleep(0.3)
    os._exit(9)  # the bot dies outright (kill -9, a crash) while its worker is busy

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_a_worker_whose_parent_died_exits_quietly(tmp_path):
    """No traceback on the service's log when the bot dies under a busy worker: the worker
    finishes its call, finds nobody listening, and exits."""
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = tmp_path / "orphan.py"
    script.write_text(ORPHAN.format(root=root))
    errors = tmp_path / "stderr.txt"
    with open(errors, "wb") as stderr:
        done = subprocess.run(
            [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=stderr, timeout=60
        )
    assert done.returncode == 9
    pid = int(done.stdout.split()[0])
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)
    time.sleep(0.2)
    assert "Traceback" not in errors.read_text(), errors.read_text()
