"""The strength benchmark's opponent is GNU Backgammon's "world class", checked against GNU.

Debian's gnubg gives its own ``hint`` at world class (2 plies, pruning nets, no noise, the
"Normal" move filter; cubeless, as the benchmark's games are) on positions from cubeless
self-play, bear-offs among them (where the gnubg package cuts a move short). Then:

- :func:`~tests.gnubg_world_class.gnu_search`, run inside that same gnubg over its own
  ``evaluate``, chooses exactly what its ``hint`` chooses: the procedure is GNU's search.
- The benchmark's :class:`~tests.gnubg_world_class.GnuPlayer` (the gnubg package from PyPI)
  chooses what :func:`gnu_search` ranks best over the package's own evaluations, on every
  position, and what Debian's ``hint`` chooses wherever GNU's best leads its second by
  ``CLEAR`` or more: the package ships a newer network (weights 1.01; Debian's 1.07 has
  1.00), whose equities differ from Debian's by a few thousandths, so a closer choice may
  fairly go the other way.

Two plays that GNU values exactly alike (a sure win or loss, a bear-off from its database)
are the same choice. The first test needs Debian's gnubg (skipped without it, except on CI,
like the other gnubg tests); the second also the gnubg package, installed with the
benchmark's extra (``pip install -e ".[bench]"``), and skips without it.
"""

from __future__ import annotations

import inspect
import random
import textwrap
from dataclasses import dataclass

import pytest

from bot.computer import ComputerPlayer
from bot.engine import Game, MatchOptions, Phase, Position
from tests.gnubg_support import require_gnubg, run_script
from tests.gnubg_world_class import (
    NORMAL_FILTERS,
    WORLD_CLASS_PLIES,
    float32,
    gnu_search,
)

CLEAR = 0.01  # equity: GNU's best leads by this much, so both networks agree on it
TIE = 1e-6  # equity: GNU values two plays alike

# Runs inside gnubg: for each position, its world-class hint (every play tied with the best,
# in GNU's notation) and the ranking gnu_search makes over its evaluate, both with scores.
_DRIVER = (
    "from __future__ import annotations\nimport json, os, struct\nimport gnubg\n"
    + inspect.getsource(float32)
    + inspect.getsource(gnu_search)
    + textwrap.dedent(
        """
        job = json.load(open(os.environ["GAMMON_GNUBG_JOB"]))
        plies, filters = job["plies"], [tuple(f) for f in job["filters"]]
        for command in (
            "set player 0 human",
            "set player 1 human",
            "set evaluation chequerplay evaluation plies %d" % plies,
            "set evaluation chequerplay evaluation prune on",
            "set evaluation chequerplay evaluation noise 0",
            "set evaluation chequerplay evaluation cubeful off",
        ):
            gnubg.command(command)
        for level, (accept, extra, threshold) in enumerate(filters):
            gnubg.command(
                "set evaluation movefilter %d %d %d %d %f"
                % (plies, level, accept, extra, threshold)
            )
        cube = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0, 0)
        contexts = [gnubg.evalcontext(0, ply, 1, 1, 0.0) for ply in range(plies + 1)]

        def score(candidate, ply):
            board = gnubg.positionfromid(candidate)
            return float32(-gnubg.evaluate(board, cube, contexts[ply])[5])

        out = []
        for item in job["positions"]:
            gnubg.command("new session")
            gnubg.command("set cube use off")
            gnubg.command("set board " + item["position_id"])
            gnubg.command("set dice %d %d" % tuple(item["dice"]))
            hint = gnubg.hint()["hint"]
            ranked = gnu_search(item["candidates"], score, plies, filters)
            out.append(
                {
                    "hint": [[move["move"], move["equity"]] for move in hint],
                    "search": [[candidate, value] for candidate, value in ranked],
                }
            )
        with open(os.environ["GAMMON_GNUBG_OUT"], "w") as done:
            json.dump(out, done)
        """
    )
)


@dataclass(frozen=True)
class Case:
    game: Game
    best: frozenset[Position]  # hint's plays tied with its best, as results
    lead: float  # how far hint's best leads the next play (inf: a single play)
    search_best: frozenset[Position]  # gnu_search's plays tied with its best, in gnubg


def positions(count: int, seed: int) -> list[Game]:
    """Cubeless games waiting for a checker play with a real choice, from expert self-play:
    every third such position, and every bear-off one (a checker borne off among its
    plays), so about a quarter are bear-offs."""
    options = MatchOptions(cube=False)
    expert = ComputerPlayer("expert", seed=seed)
    rng = random.Random(seed)
    found: list[Game] = []
    game = Game.new(options)
    while len(found) < count:
        if game.phase is Phase.OVER:
            game = Game.new(options)
        elif game.phase is Phase.OPENING:
            game = game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif game.phase is Phase.ROLL:
            game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        else:
            plays = game.legal_plays()
            if len(plays) > 1 and (game.position.all_home() or rng.random() < 0.33):
                found.append(game)
            game = game.play(expert.choose_play(game))
    return found


@pytest.fixture(scope="module")
def gnu_cases(tmp_path_factory) -> tuple[Case, ...]:
    """Debian's gnubg on the positions, in one process (about half a minute)."""
    require_gnubg()
    workdir = tmp_path_factory.mktemp("gnubg-world-class")
    games = positions(120, seed=38)
    job = {
        "plies": WORLD_CLASS_PLIES,
        "filters": NORMAL_FILTERS[WORLD_CLASS_PLIES],
        "positions": [
            {
                "position_id": game.position.position_id(),
                "dice": list(game.dice or ()),
                "candidates": [r.flip().position_id() for r in game.legal_plays().results()],
            }
            for game in games
        ],
    }
    run = run_script(_DRIVER, job, workdir, timeout=600)
    cases = []
    for game, answer in zip(games, run.result, strict=True):
        assert game.dice is not None
        hint = answer["hint"]
        top = hint[0][1]
        tied = [move for move, equity in hint if top - equity <= TIE]
        rest = [equity for _move, equity in hint if top - equity > TIE]
        best = frozenset(game.position.apply(game.position.parse_play(game.dice, m)) for m in tied)
        search = answer["search"]
        search_best = frozenset(
            Position.from_id(candidate).flip()
            for candidate, value in search
            if search[0][1] - value <= TIE
        )
        lead = top - rest[0] if rest else float("inf")
        cases.append(Case(game, best, lead, search_best))
    return tuple(cases)


def test_gnu_search_inside_gnubg_is_its_own_world_class_hint(gnu_cases) -> None:
    cases = gnu_cases
    bear_offs = sum(case.game.position.all_home() for case in cases)
    assert bear_offs >= 20
    for case in cases:
        assert case.search_best & case.best, case.game


def test_the_benchmark_opponent_plays_gnus_world_class(gnu_cases) -> None:
    pytest.importorskip("gnubg", reason='the gnubg package: pip install -e ".[bench]"')
    from tests.gnubg_world_class import GnuPlayer

    cases = gnu_cases
    player = GnuPlayer()
    agree = clear = 0
    for case in cases:
        game = case.game
        chosen = game.position.apply(player.choose_play(game))
        # The package's own search over its own evaluations: exactly the choice.
        ranked = player.rank(game.legal_plays().results())
        assert chosen in {result for result, value in ranked if ranked[0][1] - value <= TIE}
        # Debian's hint, another network: the same wherever GNU's choice is clear.
        agree += chosen in case.best
        if case.lead >= CLEAR:
            clear += 1
            assert chosen in case.best, (game, case.lead)
    assert clear >= len(cases) // 2
    assert agree >= 0.97 * len(cases)
