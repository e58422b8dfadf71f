"""The computer's strength against GNU Backgammon: duplicate-dice cubeless money games.

Run from the repository root, after ``.venv/bin/pip install -e ".[bench]"`` (the ``gnubg``
package from PyPI, GNU Backgammon's engine as a Python module; never a runtime dependency):

    nice -n 19 .venv/bin/python benchmarks/strength.py --opponents 2 --pairs 2500

Options: ``--level`` (default world-class), ``--opponents`` GNU Backgammon's plies,
comma-separated (default ``0,1,2``: GNU's "expert" is 0-ply, its "world class" 2-ply;
bgsage's 1-ply is GNU's 0-ply, so our 3-ply is GNU's 2-ply), each with GNU's own "Normal"
move filter, so 2 plies is GNU's world class exactly (``tests/gnubg_world_class.py``; the
gnubg package's own default filters are wider), ``--pairs N`` pairs of games
per opponent, ``--jobs N`` worker processes, ``--seed``, ``--every N`` (print the running
figures every N pairs), ``--no-prune`` (GNU searches its deepest ply without pruning; its
named levels prune), ``--against`` our own levels instead of GNU Backgammon (comma-separated
names: the ladder of levels, each against the next, needs no gnubg), ``--start N`` (the
first pair's number: one seed's pairs split between runs). It prints figures only; it
asserts nothing.

Trying another search: ``--search 8:0.16,8:0.16,2:0.08`` (the stages after 1-ply, each
``count:threshold``), ``--budget`` (seconds of the 3-ply stage's estimated search) and
``--close-budget`` (seconds of CPU of the 4-ply stage's) set the computer's
:class:`~bot.computer.BgsageEvaluator` instead of its level's. ``--record FILE`` appends
each pair to FILE as a JSON line; ``--pool FILE ...`` prints recorded runs' figures, each
and together (runs of one search with distinct seeds: independent samples), and
``--compare BEFORE AFTER`` the second's luck-adjusted points a game less the first's over
the pairs both played: with the same seed they had the same dice, so the difference shows
only where their choices differ.

Duplicate dice: each pair is two games played with one stream of dice, the computer in
seat 0 in one and in seat 1 in the other, so the same rolls fall to each side once and
most of the luck cancels. The figure is the computer's points per game (a pair's mean), its
95% interval from the spread of the pairs (1.96 standard errors), the number of games, and
both sides' decision times (checker plays with more than one legal choice, wall clock and
CPU time of all threads, in the same process; GNU's includes turning our position into
its board). The cube is off, so a game is worth 1, 2 (gammon) or 3 (backgammon) points;
GNU evaluates cubeless.

Beside it, the same games **luck-adjusted**, as GNU Backgammon reduces the variance of its
rollouts: each roll's luck (the best play's equity with the dice that came minus its
average over the 36 ways they could fall, bgsage's 1-ply network judging,
:mod:`bot.computer.luck`) is taken from the side that rolled it. A roll's luck averages to
exactly zero over the dice whatever network judges it, so the adjusted mean estimates the
same points a game, unbiased; what it removes is most of the spread (a pair's standard
deviation about 0.11 instead of 0.76 against GNU's world class), so its interval is about
seven times narrower for the same games. The judge only decides how much spread is
removed: a poor one would leave more, never tilt the figure toward either side.

Each pair's dice come from ``--seed`` and the pair's number alone, so runs with different
seeds are independent samples that pool, and a run repeated with the same seed replays the
same dice.

The target (issue #38): world-class clearly at least GNU's world class (2-ply), the 95%
interval's lower bound at or above zero over 5,000 games or more, its decision p99 under
0.5 s. docs/benchmarks.md keeps the figures measured, the sample and the command.
"""

from __future__ import annotations

import argparse
import json
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

from bot.computer import LEVELS, BgsageEvaluator, ComputerPlayer, computer_available  # noqa: E402
from bot.computer.luck import LuckEvaluations, opening_luck, roll_luck  # noqa: E402
from bot.engine import Game, MatchOptions, Phase, Play  # noqa: E402
from tests.gnubg_world_class import GnuPlayer, gnubg  # noqa: E402

OPTIONS = MatchOptions(cube=False)  # a cubeless money game


Opponent = int | str
"""GNU Backgammon's plies, or the name of one of our own levels (``--against``)."""


def opponent_name(opponent: Opponent) -> str:
    return f"GNU {opponent}-ply" if isinstance(opponent, int) else opponent


@dataclass
class Outcome:
    opponent: Opponent
    pair: int
    points: tuple[int, int]  # the computer's points in each game of the pair
    adjusted: tuple[float, float] = (0.0, 0.0)  # the same, less each side's luck
    ours_ms: list[float] = field(default_factory=list)
    theirs_ms: list[float] = field(default_factory=list)
    ours_cpu_ms: list[float] = field(default_factory=list)
    theirs_cpu_ms: list[float] = field(default_factory=list)


def play_game(players: tuple, seed: str, outcome: Outcome, ours: int) -> tuple[int, float]:
    """One cubeless game with the dice of ``seed``: the computer's points (seat ``ours``),
    and those points less the computer's luck plus the opponent's (the luck-adjusted
    figure of the module's docstring)."""
    rng = random.Random(seed)
    game = Game.new(OPTIONS)
    luck = LuckEvaluations(BgsageEvaluator.shared(1))
    luck_for_ours = 0.0
    while game.phase is not Phase.OVER:
        if game.phase is Phase.OPENING:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if dice[0] != dice[1]:
                winner, value = opening_luck(game, dice, luck)
                luck_for_ours += value if winner == ours else -value
            game = game.opening_roll(*dice)
        elif game.phase is Phase.ROLL:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            value = roll_luck(game, dice, luck)
            luck_for_ours += value if game.on_roll == ours else -value
            game = game.roll(dice)
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
    points = result.points if result.winner == ours else -result.points
    return points, points - luck_for_ours


@dataclass(frozen=True)
class Search:
    """The computer's search when not its level's own (``--search``, ``--budget``,
    ``--close-budget``): the filters of its stages and the budgets of its 3- and 4-ply
    stages, as :class:`~bot.computer.BgsageEvaluator` takes them."""

    filters: tuple[tuple[int, float], ...]
    budget: float = BgsageEvaluator.BUDGET
    close_budget: float = BgsageEvaluator.CLOSE_BUDGET

    def describe(self) -> str:
        stages = ",".join(f"{count}:{threshold:g}" for count, threshold in self.filters)
        return f"{stages} budget {self.budget:g} s, close {self.close_budget:g} s"


@dataclass(frozen=True)
class Job:
    """One pair of games to play in a worker process."""

    level: str
    opponent: Opponent
    pair: int
    seed: int
    prune: bool = True
    search: Search | None = None


_players: dict[tuple, tuple[ComputerPlayer, GnuPlayer | ComputerPlayer]] = {}


def _warm(computer: ComputerPlayer) -> ComputerPlayer:
    for dice in ((2, 1), (4, 1), (5, 4), (6, 2)):  # load every depth's weights first
        computer.choose_play(Game.new(OPTIONS).opening_roll(*dice))
    return computer


def _computer(level: str, seed: int, search: Search | None) -> ComputerPlayer:
    if search is None:
        return ComputerPlayer(level, seed=seed)
    evaluator = BgsageEvaluator(
        LEVELS[level].plies,
        filters=search.filters,
        budget=search.budget,
        close_budget=search.close_budget,
    )
    return ComputerPlayer(level, seed=seed, evaluator=evaluator)


def play_pair(job: Job) -> Outcome:
    """Both games of one pair, in a worker process (players made once per process)."""
    level, opponent, pair, seed, prune = job.level, job.opponent, job.pair, job.seed, job.prune
    key = (level, opponent, prune, job.search)
    if key not in _players:
        computer = _warm(_computer(level, seed, job.search))
        if isinstance(opponent, int):
            _players[key] = (computer, GnuPlayer(opponent, prune=prune))
        else:  # another of our levels, its noise from a stream of its own
            _players[key] = (computer, _warm(ComputerPlayer(opponent, seed=seed + 1)))
    computer, other = _players[key]
    outcome = Outcome(opponent, pair, (0, 0))
    stream = f"{seed}:{pair}"
    first, first_adjusted = play_game((computer, other), stream, outcome, 0)
    second, second_adjusted = play_game((other, computer), stream, outcome, 1)
    outcome.points = (first, second)
    outcome.adjusted = (first_adjusted, second_adjusted)
    return outcome


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@dataclass
class Tally:
    pairs: list[float] = field(default_factory=list)  # each pair's points per game
    adjusted: list[float] = field(default_factory=list)  # the same, luck-adjusted
    ours_ms: list[float] = field(default_factory=list)
    theirs_ms: list[float] = field(default_factory=list)
    ours_cpu_ms: list[float] = field(default_factory=list)
    theirs_cpu_ms: list[float] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        self.pairs.append(sum(outcome.points) / 2)
        self.adjusted.append(sum(outcome.adjusted) / 2)
        self.ours_ms += outcome.ours_ms
        self.theirs_ms += outcome.theirs_ms
        self.ours_cpu_ms += outcome.ours_cpu_ms
        self.theirs_cpu_ms += outcome.theirs_cpu_ms

    def line(self, level: str, opponent: Opponent) -> str:
        n = len(self.pairs)
        return (
            f"{level} vs {opponent_name(opponent)}: {interval(self.pairs)} points/game, "
            f"luck-adjusted {interval(self.adjusted)}, over {2 * n} games ({n} pairs); "
            f"decision ms ours {times(self.ours_ms, self.ours_cpu_ms)}, "
            f"theirs {times(self.theirs_ms, self.theirs_cpu_ms)}"
        )


def interval(values: list[float]) -> str:
    """The mean and its 95% interval (1.96 standard errors of the spread of ``values``)."""
    mean = statistics.fmean(values)
    n = len(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.inf
    return f"{mean:+.3f} [{mean - half:+.3f}, {mean + half:+.3f}]"


def times(wall: list[float], cpu: list[float]) -> str:
    """Wall-clock p50/p99/max, then the CPU time's (all threads): on a busy machine at
    ``nice -n 19`` the wall clock mostly measures the wait for a core."""
    return (
        f"p50 {percentile(wall, 0.5):.0f} p99 {percentile(wall, 0.99):.0f} "
        f"max {max(wall):.0f} (CPU p50 {percentile(cpu, 0.5):.0f} "
        f"p99 {percentile(cpu, 0.99):.0f} max {max(cpu):.0f})"
    )


def record_line(outcome: Outcome, level: str, seed: int, search: Search | None) -> str:
    """One pair as a JSON line of ``--record``: what ``--pool`` and ``--compare`` read."""
    return json.dumps(
        {
            "level": level,
            "opponent": outcome.opponent,
            "seed": seed,
            "pair": outcome.pair,
            "search": search.describe() if search else None,
            "points": outcome.points,
            "adjusted": outcome.adjusted,
            "ours_ms": outcome.ours_ms,
            "theirs_ms": outcome.theirs_ms,
            "ours_cpu_ms": outcome.ours_cpu_ms,
            "theirs_cpu_ms": outcome.theirs_cpu_ms,
        }
    )


def read_records(path: str) -> dict[tuple[Opponent, int, int], Outcome]:
    """A ``--record`` file's pairs by opponent, seed and pair number (a pair played twice
    counts once)."""
    found: dict[tuple[Opponent, int, int], Outcome] = {}
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            outcome = Outcome(
                row["opponent"],
                row["pair"],
                tuple(row["points"]),
                tuple(row["adjusted"]),
                row["ours_ms"],
                row["theirs_ms"],
                row["ours_cpu_ms"],
                row["theirs_cpu_ms"],
            )
            found[(outcome.opponent, row["seed"], outcome.pair)] = outcome
    return found


def pool(paths: list[str], level: str) -> None:
    """Each recorded run's figures, then all of them as one sample (distinct seeds are
    independent samples)."""
    everything: dict[Opponent, Tally] = {}
    for path in paths:
        tallies: dict[Opponent, Tally] = {}
        for (opponent, _seed, _pair), outcome in sorted(read_records(path).items(), key=str):
            tallies.setdefault(opponent, Tally()).add(outcome)
            everything.setdefault(opponent, Tally()).add(outcome)
        for opponent, tally in tallies.items():
            print(f"{path}: {tally.line(level, opponent)}")
    for opponent, tally in everything.items():
        print(f"pooled: {tally.line(level, opponent)}")


def compare(first: str, second: str) -> None:
    """The second run's luck-adjusted points a game less the first's, pair by pair, over
    the pairs both played (the same dice: they differ only where their choices do)."""
    before, after = read_records(first), read_records(second)
    common = sorted(set(before) & set(after), key=str)
    if len(common) < 2:
        sys.exit("the two records share fewer than two pairs: nothing to compare")
    differences = [sum(after[key].adjusted) / 2 - sum(before[key].adjusted) / 2 for key in common]
    alike = sum(after[key].points == before[key].points for key in common)
    print(
        f"{second} less {first}: {interval(differences)} luck-adjusted points a game over "
        f"{len(common)} pairs ({alike} with the same points)"
    )


def parse_search(text: str) -> tuple[tuple[int, float], ...]:
    """``--search``'s stages, ``count:threshold`` comma-separated (``8:0.16,4:0.08,2:0.02``)."""
    stages = []
    for stage in text.split(","):
        count, _, threshold = stage.partition(":")
        stages.append((int(count), float(threshold)))
    return tuple(stages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="world-class", choices=list(LEVELS))
    parser.add_argument("--opponents", default="0,1,2", help="GNU Backgammon's plies")
    parser.add_argument("--pairs", type=int, default=100, help="pairs of games per opponent")
    parser.add_argument("--start", type=int, default=0, help="the first pair's number")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=25, help="print every N pairs")
    parser.add_argument("--no-prune", dest="prune", action="store_false")
    parser.add_argument("--against", help="our own levels to play instead of GNU Backgammon")
    parser.add_argument("--search", help="the computer's stages instead of its level's")
    parser.add_argument("--budget", type=float, help="seconds of its 3-ply stage")
    parser.add_argument("--close-budget", type=float, help="seconds of CPU of its 4-ply stage")
    parser.add_argument("--record", help="append each pair to this file (JSON lines)")
    parser.add_argument("--pool", nargs="+", help="print the figures of recorded runs")
    parser.add_argument("--compare", nargs=2, help="two recorded runs, pair by pair")
    args = parser.parse_args()
    if args.pool:
        pool(args.pool, args.level)
        return
    if args.compare:
        compare(*args.compare)
        return
    if not computer_available():
        sys.exit("bgsage is not installed: there is no computer to measure.")
    search = None
    if args.search or args.budget is not None or args.close_budget is not None:
        level = LEVELS[args.level]
        filters = (
            parse_search(args.search)
            if args.search
            else level.filters or BgsageEvaluator.FILTERS[level.plies]
        )
        if len(filters) != level.plies - 1:
            sys.exit(f"{args.level} searches {level.plies} plies: give {level.plies - 1} stages")
        search = Search(
            filters,
            BgsageEvaluator.BUDGET if args.budget is None else args.budget,
            BgsageEvaluator.CLOSE_BUDGET if args.close_budget is None else args.close_budget,
        )
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
        Job(args.level, opponent, pair, args.seed, args.prune, search)
        for pair in range(args.start, args.start + args.pairs)
        for opponent in opponents
    ]
    against = (
        f"our {', '.join(map(str, opponents))}"
        if args.against
        else f"GNU Backgammon {gnubg.version} at {opponents} plies "
        f"(prune {'on' if args.prune else 'off'})"
    )
    print(
        f"{args.level}{f' ({search.describe()})' if search else ''} against {against}, "
        f"{args.pairs} pairs each from pair {args.start}, {args.jobs} processes, "
        f"seed {args.seed}",
        flush=True,
    )
    tallies: dict[Opponent, Tally] = {opponent: Tally() for opponent in opponents}
    start = time.perf_counter()
    done = 0
    with multiprocessing.Pool(args.jobs) as workers:
        for outcome in workers.imap_unordered(play_pair, jobs):
            tallies[outcome.opponent].add(outcome)
            if args.record:
                with open(args.record, "a", encoding="utf-8") as record:
                    print(record_line(outcome, args.level, args.seed, search), file=record)
            done += 1
            if done % (args.every * len(opponents)) == 0 or done == len(jobs):
                print(f"after {time.perf_counter() - start:.0f} s:", flush=True)
                for opponent, tally in tallies.items():
                    if tally.pairs:
                        print("  " + tally.line(args.level, opponent), flush=True)


if __name__ == "__main__":
    main()
