"""GNU Backgammon's analysis of a match, turned into PR under the bot's own definition.

GNU Backgammon does not report PR. One gnubg process imports each ``.mat`` file, analyses it
(``analyse match`` at ``plies``, both checker play and cube) and writes every decision's
equities as JSON: each checker play's candidates and the one played, each cube decision's
no double / double-take / double-pass. Match-winning chances are turned into normalized
equity (EMG) inside gnubg, with its own ``mwc2eq`` and match equity table, as its own
statistics do (``analysis.c``). :func:`gnu_performance` then applies the rules of
:mod:`bot.computer.pr` to those numbers, so the bot's PR and GNU's differ only by the
engines' evaluations.
"""

from __future__ import annotations

import json
import os
import subprocess
import textwrap
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.computer import (
    DEFAULT_LEVEL,
    ComputerPlayer,
    CubeContext,
    CubeEquities,
    Evaluator,
    RankedResult,
)
from bot.computer.pr import (
    PerformanceRating,
    PRPart,
    checker_counts,
    decision_weight,
    double_counts,
    response_counts,
)
from bot.core.matfile import match_to_mat
from bot.core.replay import decisions_from_events
from bot.engine import Dice, MatchOptions, Position
from tests.computer_match import PlayedMatch, play_computer_match
from tests.gnubg_support import require_gnubg

# Runs inside gnubg. Plain Python: gnubg's own interpreter has nothing of ours installed.
# Player 0 of the bot (the .mat's left column) is gnubg's "X".
_DRIVER = textwrap.dedent(
    """
    import json, os
    import gnubg

    job = json.load(open(os.environ["GAMMON_GNUBG_JOB"]))
    plies = job["plies"]
    gnubg.command("set threads 1")
    gnubg.command("set analysis chequerplay evaluation plies %d" % plies)
    gnubg.command("set analysis cubedecision evaluation plies %d" % plies)
    results = []
    for item in job["files"]:
        gnubg.command("set jacoby " + ("on" if item["jacoby"] else "off"))
        gnubg.command("import mat " + item["path"])
        gnubg.command("analyse match")
        match = gnubg.match(1, 1, 1, 1)  # analysis, boards, statistics, verbose
        length = match["match-info"]["match-length"]
        games = []
        for game in match["games"]:
            info = game["info"]
            score = (info["score-X"], info["score-O"])
            cube, owner = 1, -1
            cubes = None
            doubled_at = None
            decisions = []

            def emg(value, player):
                if not length:
                    return value
                mine, theirs = score[player], score[1 - player]
                relative = -1 if owner < 0 else (0 if owner == player else 1)
                info_ = gnubg.cubeinfo(cube, relative, 0, length, (mine, theirs), 0)
                return gnubg.mwc2eq(value, info_)

            for record in game["game"]:
                action = record["action"]
                player = 0 if record["player"] == "X" else 1
                analysis = record.get("analysis") or {}
                relative = -1 if owner < 0 else (0 if owner == player else 1)
                where = {
                    "board": record.get("board"),
                    "cube_value": cube,
                    "owner": relative,
                    "score": (score[player], score[1 - player]),
                }
                if action in ("move", "double") and "nd-cubeful-eq" in analysis:
                    cubes = (
                        emg(analysis["nd-cubeful-eq"], player),
                        emg(analysis["dt-cubeful-eq"], player),
                        1.0,
                    )
                    kind = "no_double" if action == "move" else "double"
                    decisions.append(dict(where, player=player, kind=kind, cube=cubes))
                    doubled_at = where
                if action == "move" and analysis.get("moves"):
                    decisions.append(
                        dict(
                            where,
                            player=player,
                            kind="checker",
                            dice=record["dice"],
                            moves=[move["move"] for move in analysis["moves"]],
                            scores=[move["score"] for move in analysis["moves"]],
                            played=analysis.get("imove"),
                        )
                    )
                if action in ("take", "drop") and cubes is not None:
                    # Valued as the doubler sees it, where the double was.
                    decisions.append(dict(doubled_at, player=player, kind=action, cube=cubes))
                if action == "take":
                    cube, owner = cube * 2, player
                if action != "double":
                    cubes = None
            games.append({"score": score, "decisions": decisions})
        stats = match.get("stats") or {}
        checker = [stats.get(side, {}).get("moves", {}).get("error-skill") for side in "XO"]
        results.append({"length": length, "games": games, "gnu_checker_error": checker})
    with open(os.environ["GAMMON_GNUBG_OUT"], "w") as out:
        json.dump(results, out)
    """
)


@dataclass(frozen=True, slots=True)
class GnuDecision:
    """One decision as GNU Backgammon analysed it, equities normalized (EMG).

    ``scores``/``played``: a checker play's candidates, best first, and the index of the
    one played (None when gnubg did not list it); ``moves`` the candidates as gnubg's
    (from, to) tuples, points numbered from the mover's side (25 the bar, 0 off). ``cube``:
    the roller's no double, double/take and double/pass, for a cube decision and for the
    answer to a double. ``board`` (GNU's Position ID, seen by the roller or mover),
    ``cube_value``, ``owner`` (-1 centred, 0 the mover or roller, 1 the other) and ``score``
    (theirs, the other's) say where it was.
    """

    player: int
    kind: str  # "checker", "no_double", "double", "take" or "drop"
    board: str = ""
    cube_value: int = 1
    owner: int = -1
    score: tuple[int, int] = (0, 0)
    dice: tuple[int, int] = (0, 0)
    moves: tuple[tuple[tuple[int, int], ...], ...] = ()
    scores: tuple[float, ...] = ()
    played: int | None = None
    cube: tuple[float, float, float] | None = None


@dataclass(frozen=True, slots=True)
class GnuMatch:
    length: int
    decisions: tuple[GnuDecision, ...]
    gnu_checker_error: tuple[float | None, float | None]  # GNU's own totals, per player


def analyse_with_gnubg(
    files: Sequence[tuple[Path, bool]], workdir: Path, *, plies: int = 2, timeout: float = 3600
) -> list[GnuMatch]:
    """Each (``.mat`` path, jacoby) analysed by one gnubg process at ``plies``, in order."""
    gnubg = require_gnubg()
    workdir.mkdir(parents=True, exist_ok=True)
    driver = workdir / "gnubg_pr_driver.py"
    driver.write_text(_DRIVER, encoding="utf-8")
    job = workdir / "gnubg_pr_job.json"
    out = workdir / "gnubg_pr_out.json"
    out.unlink(missing_ok=True)
    job.write_text(
        json.dumps({"plies": plies, "files": [{"path": str(p), "jacoby": j} for p, j in files]}),
        encoding="utf-8",
    )
    home = workdir / "home"
    home.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "HOME": str(home),  # gnubg keeps settings in ~/.gnubg: keep the tests' own
        "GAMMON_GNUBG_JOB": str(job),
        "GAMMON_GNUBG_OUT": str(out),
    }
    done = subprocess.run(
        ["nice", "-n", "10", gnubg, "-t", "-q", "-p", str(driver)],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=timeout,
        check=False,
    )
    if not out.exists():
        raise AssertionError(f"gnubg failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return [_match(item) for item in json.loads(out.read_text(encoding="utf-8"))]


def _match(item: dict[str, Any]) -> GnuMatch:
    decisions = []
    for game in item["games"]:
        for data in game["decisions"]:
            cube = data.get("cube")
            dice = data.get("dice") or (0, 0)
            decisions.append(
                GnuDecision(
                    player=data["player"],
                    kind=data["kind"],
                    board=data.get("board") or "",
                    cube_value=data["cube_value"],
                    owner=data["owner"],
                    score=(data["score"][0], data["score"][1]),
                    dice=(dice[0], dice[1]),
                    moves=tuple(
                        tuple((step[0], step[1]) for step in move)
                        for move in data.get("moves") or ()
                    ),
                    scores=tuple(data.get("scores") or ()),
                    played=data.get("played"),
                    cube=None if cube is None else (cube[0], cube[1], cube[2]),
                )
            )
    first, second = item["gnu_checker_error"]
    return GnuMatch(item["length"], tuple(decisions), (first, second))


def checker_error(decision: GnuDecision) -> float:
    """What a checker play lost against GNU's best (0 when it is not in GNU's list)."""
    if decision.played is None or not decision.scores:
        return 0.0
    return max(0.0, max(decision.scores) - decision.scores[decision.played])


def gnu_performance(match: GnuMatch) -> dict[int, PerformanceRating]:
    """Each player's PR from GNU's equities, under :mod:`bot.computer.pr`'s definition."""
    weight = decision_weight(match.length)
    parts = {player: [PRPart(), PRPart()] for player in (0, 1)}
    for decision in match.decisions:
        mine = parts[decision.player]
        if decision.kind == "checker":
            if checker_counts(decision.scores):
                mine[0] = mine[0].counted(checker_error(decision), weight)
            continue
        assert decision.cube is not None
        no_double, double_take, double_pass = decision.cube
        doubled = min(double_take, double_pass)  # the receiver's best answer
        best = max(no_double, doubled)
        if decision.kind in ("no_double", "double"):
            lost = best - (no_double if decision.kind == "no_double" else doubled)
            if double_counts(no_double, double_take, double_pass, max(0.0, lost)):
                mine[1] = mine[1].counted(lost, weight)
        elif response_counts(double_take, double_pass):
            chosen = double_take if decision.kind == "take" else double_pass
            mine[1] = mine[1].counted(chosen - doubled, weight)
    return {player: PerformanceRating(*parts[player]) for player in (0, 1)}


def gnu_unforced_checker_error(match: GnuMatch, player: int) -> float:
    """GNU's unforced checker error of ``player`` recomputed from the decisions: equal to its
    own statistics' total when the decisions were read right."""
    return sum(
        checker_error(d)
        for d in match.decisions
        if d.player == player and d.kind == "checker" and len(d.scores) > 1
    )


# --- GNU's equities through the bot's own analysis ----------------------------------------------

_Where = tuple[str, int, int, tuple[int, int]]  # Position ID, cube, owner, (away, other's away)
_OWNERS = {"centered": -1, "player": 0, "opponent": 1}


def _away(length: int, score: tuple[int, int]) -> tuple[int, int]:
    return (length - score[0], length - score[1]) if length else (0, 0)


def gnu_notation(move: Sequence[tuple[int, int]]) -> str:
    """gnubg's (from, to) tuples as the bot's notation (25 the bar, 0 off)."""
    return " ".join(
        f"{'bar' if source == 25 else source}/{'off' if target == 0 else target}"
        for source, target in move
    )


class GnuEquities:
    """An :class:`~bot.computer.Evaluator` that answers with GNU Backgammon's own equities,
    for the positions of one analysed match: the bot's analysis run on it counts and sums
    exactly what :func:`gnu_performance` does, if both read the same definition.

    A legal play GNU did not list is worth its worst listed one (so the spread of the plays,
    which decides whether a play counts, is GNU's); a position GNU did not analyse raises
    KeyError (the two did not see the same decisions).
    """

    def __init__(self, match: GnuMatch) -> None:
        self.length = match.length
        self.plays: dict[tuple[_Where, Dice], dict[tuple[int, ...], float]] = {}
        self.cubes: dict[_Where, CubeEquities] = {}
        for decision in match.decisions:
            where = (
                decision.board,
                decision.cube_value,
                decision.owner,
                _away(match.length, decision.score),
            )
            if decision.kind == "checker":
                position = Position.from_id(decision.board)
                dice = (max(decision.dice), min(decision.dice))
                self.plays[(where, dice)] = {
                    position.apply(position.parse_play(dice, gnu_notation(move))).board: score
                    for move, score in zip(decision.moves, decision.scores, strict=True)
                }
            elif decision.cube is not None:
                self.cubes[where] = CubeEquities(*decision.cube)

    def _where(self, position: Position, context: CubeContext) -> _Where:
        return (position.position_id(), context.cube, _OWNERS[context.owner], context.away)

    def rank_plays(
        self,
        position: Position,
        dice: Dice,
        results: Sequence[Position],
        context: CubeContext,
        *,
        force: Collection[Position] = (),
    ) -> list[RankedResult]:
        known = self.plays[(self._where(position, context), (max(dice), min(dice)))]
        floor = min(known.values())
        ranked = [RankedResult(result, known.get(result.board, floor)) for result in results]
        return sorted(ranked, key=lambda item: -item.equity)

    def cube_equities(self, position: Position, context: CubeContext) -> CubeEquities:
        return self.cubes[self._where(position, context)]


# --- samples: matches compared as one ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Sample:
    """Matches compared as one (a money session is several one-game matches)."""

    name: str
    played: tuple[PlayedMatch, ...]


async def play_samples(
    folder: Path,
    levels: tuple[str, str],
    seed: int,
    *,
    lengths: Sequence[int] = (),
    sessions: int = 0,
    money_games: int = 0,
) -> list[Sample]:
    """One match of each length, then ``sessions`` money sessions of ``money_games`` games;
    every match seeded from ``seed`` on."""
    samples = []
    for length in lengths:
        seed += 1
        match = await play_computer_match(folder, MatchOptions(length=length), levels, seed)
        samples.append(Sample(f"{length}-point match (seed {seed})", (match,)))
    for _ in range(sessions):
        games = []
        first = seed + 1
        for _ in range(money_games):
            seed += 1
            games.append(await play_computer_match(folder, MatchOptions(), levels, seed))
        samples.append(Sample(f"money, {money_games} games (seeds {first}-{seed})", tuple(games)))
    return samples


def export_samples(samples: Sequence[Sample], folder: Path) -> list[tuple[Path, bool]]:
    """Every match of ``samples`` as a ``.mat`` file, in order: (path, jacoby)."""
    files = []
    for index, sample in enumerate(samples):
        for number, match in enumerate(sample.played):
            path = folder / f"s{index}-{number}.mat"
            path.write_text(match_to_mat(match.row, match.events), encoding="utf-8")
            files.append((path, match.row.options.jacoby))
    return files


def by_sample(samples: Sequence[Sample], analysed: Sequence[GnuMatch]) -> list[list[GnuMatch]]:
    """GNU's analyses (in :func:`export_samples`' order) grouped by sample."""
    grouped, at = [], 0
    for sample in samples:
        grouped.append(list(analysed[at : at + len(sample.played)]))
        at += len(sample.played)
    assert at == len(analysed)
    return grouped


def total(ratings: Iterable[dict[int, PerformanceRating]]) -> dict[int, PerformanceRating]:
    """Each player's ratings pooled."""
    found = {0: PerformanceRating(), 1: PerformanceRating()}
    for rating in ratings:
        for player, mine in rating.items():
            found[player] = found[player] + mine
    return found


def bot_performance(
    sample: Sample, evaluator: Evaluator | None = None
) -> dict[int, PerformanceRating]:
    """The bot's PR of each player over ``sample``, as ``/backgammon analyze`` computes it
    (or with ``evaluator`` alone)."""
    analyst = ComputerPlayer(DEFAULT_LEVEL, evaluator=evaluator)
    return total(
        {
            player: analysis.performance
            for player, analysis in analyst.analyze(
                decisions_from_events(match.row.options, match.events)
            ).items()
        }
        for match in sample.played
    )
