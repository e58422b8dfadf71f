"""The computer's strength against GNU Backgammon: duplicate-dice cubeless money games.

Run from the repository root, after ``.venv/bin/pip install -e ".[bench]"`` (the ``gnubg``
package from PyPI, GNU Backgammon's engine as a Python module; never a runtime dependency):

    nice -n 19 .venv/bin/python benchmarks/strength.py --opponents 2 --pairs 2500

Options: ``--level`` (default world-class), ``--opponents`` GNU Backgammon's plies,
comma-separated (default ``0,1,2``: GNU's "expert" is 0-ply, its "world class" 2-ply;
bgsage's 1-ply is GNU's 0-ply, so our 3-ply is GNU's 2-ply), ``--pairs N`` pairs of games
per opponent, ``--jobs N`` worker processes, ``--seed``, ``--every N`` (print the running
figures every N pairs), ``--no-prune`` (GNU searches its deepest ply without pruning; its
named levels prune), ``--against`` our own levels instead of GNU Backgammon (comma-separated
names: the ladder of levels, each against the next, needs no gnubg). It prints figures
only; it asserts nothing.

Duplicate dice: each pair is two games played with one stream of dice, the computer in
seat 0 in one and in seat 1 in the other, so the same rolls fall to each side once and
most of the luck cancels. The figure is the computer's points per game (a pair's mean), its
95% interval from the spread of the pairs (1.96 standard errors), the number of games, and
both sides' decision times (checker plays with more than one legal choice, wall clock and
CPU time of all threads, in the same process; GNU's includes turning our position into
its board). The cube is
off, so a game is worth 1, 2 (gammon) or 3 (backgammon) points; GNU evaluates cubeless.

The issue's targets (#30): world-class at least level with GNU 2-ply (the interval's upper
bound above zero, its centre not below zero) over 5,000 games or more, clearly above GNU
1-ply, its decision p99 under 0.5 s. The README keeps the figures measured, the sample
and the command.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.computer import LEVELS, ComputerPlayer, computer_available  # noqa: E402
from bot.engine import Game, MatchOptions, Phase, Play, Position  # noqa: E402

try:
    import gnubg
except ImportError:  # a benchmark-only dependency: pip install -e ".[bench]"
    gnubg = None

OPTIONS = MatchOptions(cube=False)  # a cubeless money game
BAR, OFF = 25, 0  # gnubg's move points, 1-based from the mover's side


class GnuPlayer:
    """GNU Backgammon choosing cubeless checker plays at ``plies`` (0 = its raw network)."""

    def __init__(self, plies: int, prune: bool) -> None:
        assert gnubg is not None
        self.plies = plies
        self.cube_info = gnubg.cube_info(1, -1, 1, 0, (0, 0), 0, 0)
        self.context = gnubg.eval_context(0, plies, 1, int(prune), 0.0)

    def choose_play(self, game: Game) -> Play:
        assert gnubg is not None and game.dice is not None
        position = game.position
        board = gnubg.position_from_id(position.position_id())
        move = gnubg.find_best_move(board, self.cube_info, self.context, game.dice)
        plays = game.legal_plays()
        if len(move) % 2 == 0:
            result = apply_gnu_move(position, move)
        else:
            result = self._complete(position, move, plays.results())
        play = plays.play_for(result)
        if play is None:
            raise RuntimeError(f"GNU Backgammon's {move} is not legal in {game!r}")
        return play

    def _complete(self, position: Position, move: tuple[int, ...], results: list) -> Position:
        """The result of a move the gnubg package cut short.

        The package ends a move's tuple at its first checker borne off (GNU's "off" is
        -1 inside, where the tuple stops), so ``(7, 2, 2)`` is 7/2 2/off and anything
        after is lost. The legal results that the known part leads to (checkers only
        move down and off in a bear-off) are few; GNU's own evaluation at its depth, from
        the opponent's side, picks among them as its search would.
        """
        assert gnubg is not None
        partial = apply_gnu_move(position, (*move, OFF)).board
        candidates = [r for r in results if _reachable(partial, r.board)]
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise RuntimeError(f"no legal result follows GNU Backgammon's {move}")

        def their_equity(result: Position) -> float:
            board = gnubg.position_from_id(result.flip().position_id())
            return gnubg.evaluate(board, self.cube_info, self.context)[5]

        return min(candidates, key=their_equity)


def _reachable(partial: tuple[int, ...], result: tuple[int, ...]) -> bool:
    """Whether moving the mover's checkers down or off turns ``partial`` into ``result``."""
    above_partial = above_result = 0
    for point in range(25, 0, -1):
        above_partial += max(partial[point], 0)
        above_result += max(result[point], 0)
        if above_result > above_partial:
            return False
    return True


def apply_gnu_move(position: Position, move: tuple[int, ...]) -> Position:
    """The position after gnubg's ``(from, to, from, to, ...)`` move, seen by the mover."""
    board = position.to_board()  # the mover's checkers positive on their points, bar at 25
    for source, target in zip(move[::2], move[1::2], strict=True):
        board[source if source != BAR else 25] -= 1
        if target == OFF:
            continue
        if board[target] == -1:  # a blot hit: to the opponent's bar, board[0]
            board[target] = 0
            board[0] += 1
        board[target] += 1
    return Position.from_board(board)


Opponent = int | str
"""GNU Backgammon's plies, or the name of one of our own levels (``--against``)."""


def opponent_name(opponent: Opponent) -> str:
    return f"GNU {opponent}-ply" if isinstance(opponent, int) else opponent


@dataclass
class Outcome:
    opponent: Opponent
    pair: int
    points: tuple[int, int]  # the computer's points in each game of the pair
    ours_ms: list[float] = field(default_factory=list)
    theirs_ms: list[float] = field(default_factory=list)
    ours_cpu_ms: list[float] = field(default_factory=list)
    theirs_cpu_ms: list[float] = field(default_factory=list)


def play_game(players: tuple, seed: str, outcome: Outcome, ours: int) -> int:
    """One cubeless game with the dice of ``seed``; the computer's points (seat ``ours``)."""
    rng = random.Random(seed)
    game = Game.new(OPTIONS)
    while game.phase is not Phase.OVER:
        if game.phase is Phase.OPENING:
            game = game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif game.phase is Phase.ROLL:
            game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        else:
            plays = game.legal_plays()
            if plays.is_forced_pass or len(plays) == 1:
                game = game.play(next(iter(plays), Play(())))
                continue
            mover = game.on_roll
            start, cpu = time.perf_counter(), time.process_time()
            play = players[mover].choose_play(game)
            elapsed = 1000 * (time.perf_counter() - start)
            used = 1000 * (time.process_time() - cpu)
            if mover == ours:
                outcome.ours_ms.append(elapsed)
                outcome.ours_cpu_ms.append(used)
            else:
                outcome.theirs_ms.append(elapsed)
                outcome.theirs_cpu_ms.append(used)
            game = game.play(play)
    result = game.result
    assert result is not None
    return result.points if result.winner == ours else -result.points


_players: dict[tuple[str, Opponent, bool], tuple[ComputerPlayer, GnuPlayer | ComputerPlayer]] = {}


def _warm(computer: ComputerPlayer) -> ComputerPlayer:
    for dice in ((2, 1), (4, 1), (5, 4), (6, 2)):  # load every depth's weights first
        computer.choose_play(Game.new(OPTIONS).opening_roll(*dice))
    return computer


def play_pair(job: tuple[str, Opponent, int, int, bool]) -> Outcome:
    """Both games of one pair, in a worker process (players made once per process)."""
    level, opponent, pair, seed, prune = job
    key = (level, opponent, prune)
    if key not in _players:
        computer = _warm(ComputerPlayer(level, seed=seed))
        if isinstance(opponent, int):
            _players[key] = (computer, GnuPlayer(opponent, prune))
        else:  # another of our levels, its noise from a stream of its own
            _players[key] = (computer, _warm(ComputerPlayer(opponent, seed=seed + 1)))
    computer, other = _players[key]
    outcome = Outcome(opponent, pair, (0, 0))
    stream = f"{seed}:{pair}"
    first = play_game((computer, other), stream, outcome, 0)
    second = play_game((other, computer), stream, outcome, 1)
    outcome.points = (first, second)
    return outcome


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@dataclass
class Tally:
    pairs: list[float] = field(default_factory=list)  # each pair's points per game
    ours_ms: list[float] = field(default_factory=list)
    theirs_ms: list[float] = field(default_factory=list)
    ours_cpu_ms: list[float] = field(default_factory=list)
    theirs_cpu_ms: list[float] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.pairs.append(sum(outcome.points) / 2)
        self.ours_ms += outcome.ours_ms
        self.theirs_ms += outcome.theirs_ms
        self.ours_cpu_ms += outcome.ours_cpu_ms
        self.theirs_cpu_ms += outcome.theirs_cpu_ms

    def line(self, level: str, opponent: Opponent) -> str:
        n = len(self.pairs)
        mean = statistics.fmean(self.pairs)
        half = 1.96 * statistics.stdev(self.pairs) / math.sqrt(n) if n > 1 else math.inf
        return (
            f"{level} vs {opponent_name(opponent)}: {mean:+.3f} points/game "
            f"[{mean - half:+.3f}, {mean + half:+.3f}] over {2 * n} games ({n} pairs); "
            f"decision ms ours {times(self.ours_ms, self.ours_cpu_ms)}, "
            f"theirs {times(self.theirs_ms, self.theirs_cpu_ms)}"
        )


def times(wall: list[float], cpu: list[float]) -> str:
    """Wall-clock p50/p99/max, then the CPU time's (all threads): on a busy machine at
    ``nice -n 19`` the wall clock mostly measures the wait for a core."""
    return (
        f"p50 {percentile(wall, 0.5):.0f} p99 {percentile(wall, 0.99):.0f} "
        f"max {max(wall):.0f} (CPU p50 {percentile(cpu, 0.5):.0f} "
        f"p99 {percentile(cpu, 0.99):.0f} max {max(cpu):.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="world-class", choices=list(LEVELS))
    parser.add_argument("--opponents", default="0,1,2", help="GNU Backgammon's plies")
    parser.add_argument("--pairs", type=int, default=100, help="pairs of games per opponent")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=25, help="print every N pairs")
    parser.add_argument("--no-prune", dest="prune", action="store_false")
    parser.add_argument("--against", help="our own levels to play instead of GNU Backgammon")
    args = parser.parse_args()
    if not computer_available():
        sys.exit("bgsage is not installed: there is no computer to measure.")
    opponents: list[Opponent]
    if args.against:
        names = [name.strip() for name in args.against.split(",")]
        unknown = [name for name in names if name not in LEVELS]
        opponents = list(names)
        if unknown:
            sys.exit(f"no such level: {', '.join(unknown)} (levels: {', '.join(LEVELS)})")
    elif gnubg is None:
        sys.exit('the gnubg package is not installed: .venv/bin/pip install -e ".[bench]"')
    else:
        opponents = [int(plies) for plies in args.opponents.split(",")]
    jobs = [
        (args.level, opponent, pair, args.seed, args.prune)
        for pair in range(args.pairs)
        for opponent in opponents
    ]
    against = (
        f"our {', '.join(map(str, opponents))}"
        if args.against
        else f"GNU Backgammon {gnubg.version} at {opponents} plies "
        f"(prune {'on' if args.prune else 'off'})"
    )
    print(
        f"{args.level} against {against}, {args.pairs} pairs each, "
        f"{args.jobs} processes, seed {args.seed}",
        flush=True,
    )
    tallies: dict[Opponent, Tally] = {opponent: Tally() for opponent in opponents}
    start = time.perf_counter()
    done = 0
    with multiprocessing.Pool(args.jobs) as pool:
        for outcome in pool.imap_unordered(play_pair, jobs):
            tallies[outcome.opponent].add(outcome)
            done += 1
            if done % (args.every * len(opponents)) == 0 or done == len(jobs):
                print(f"after {time.perf_counter() - start:.0f} s:", flush=True)
                for opponent, tally in tallies.items():
                    if tally.pairs:
                        print("  " + tally.line(args.level, opponent), flush=True)


if __name__ == "__main__":
    main()
