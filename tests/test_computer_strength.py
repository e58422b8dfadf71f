"""The computer's levels and its deep search: legal, deterministic, within its budget.

How strong each level plays is measured by benchmarks/strength.py (against GNU Backgammon)
and how fast by benchmarks/computer.py; these tests check what those figures rest on: the
ladder's order, every level's choice legal and repeatable for a seed, the staged search
valuing its candidates exactly as bgsage's own search does, and the work of the deepest
stage bounded on the slowest positions of the conformance set (a 1-1 with 1,470 plays)
by its estimate, never by a clock.
"""

from __future__ import annotations

import itertools
import random

import pytest

from bot.computer import (
    ANALYSIS,
    LEVELS,
    BgsageEvaluator,
    ComputerPlayer,
    CubeContext,
    Level,
)
from bot.engine import Dice, Game, MatchOptions, Phase, Position
from tests.engine.support import conformance_cases


@pytest.fixture(scope="module")
def bgsage():
    return pytest.importorskip("bgsage")


def game_positions(count: int, seed: int, options: MatchOptions) -> list[Game]:
    """Games waiting for a checker play with a real choice, met in expert self-play."""
    expert = ComputerPlayer("expert", seed=seed)
    rng = random.Random(seed)
    found: list[Game] = []
    game = Game.new(options).opening_roll(3, 1)
    while len(found) < count:
        if game.phase is Phase.OVER or game.phase is Phase.DOUBLED:
            game = Game.new(options).opening_roll(*rng.sample(range(1, 7), 2))
        elif game.phase is Phase.ROLL:
            game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        else:
            if len(game.legal_plays()) > 1 and rng.random() < 0.25:
                found.append(game)
            game = game.play(expert.choose_play(game))
    return found


def slowest_cases(count: int) -> list[tuple[Position, Dice]]:
    """The conformance cases with the most distinct plays, most first."""
    cases = sorted(conformance_cases(), key=lambda case: -len(case["results"]))[:count]
    return [(Position.from_board(case["board"]), tuple(case["dice"])) for case in cases]


# --- the ladder ------------------------------------------------------------------------------


def test_each_level_searches_at_least_as_deep_with_less_noise_than_the_one_below() -> None:
    levels = list(LEVELS.values())
    assert [level.name for level in levels][-1] == "world-class"
    for lower, upper in itertools.pairwise(levels):
        assert (upper.plies, -upper.noise) > (lower.plies, -lower.noise)
        assert upper.plies >= lower.plies and upper.noise <= lower.noise
    # World-class is GNU Backgammon's 2-ply (bgsage counts the raw network as 1-ply) and
    # its 3-ply on a close call; analysis is its search without the close calls' ply.
    assert LEVELS["world-class"].plies == 4
    assert (ANALYSIS.plies, ANALYSIS.noise) == (3, 0.0)
    assert ANALYSIS.name not in LEVELS  # not an opponent anyone can pick


@pytest.mark.parametrize("cube", [True, False], ids=["cube", "cubeless"])
def test_every_level_chooses_a_legal_play_and_the_same_one_for_a_seed(bgsage, cube) -> None:
    games = game_positions(6, seed=4, options=MatchOptions(cube=cube))
    for name in LEVELS:
        first = ComputerPlayer(name, seed=21)
        second = ComputerPlayer(name, seed=21)
        chosen = [first.choose_play(game) for game in games]
        assert chosen == [second.choose_play(game) for game in games], name
        assert all(play in game.legal_plays() for play, game in zip(chosen, games, strict=True))


def test_a_player_that_has_played_still_advises_at_the_analysis_depth(bgsage) -> None:
    """The workers keep one player per level, warmed by a play: its hints and analysis must
    not fall back to the level's own (1-ply for expert) evaluator."""
    expert = ComputerPlayer("expert")
    expert.choose_play(Game.new().opening_roll(2, 1))
    assert expert.evaluator is BgsageEvaluator.shared(1)
    assert expert.analysis_evaluator is BgsageEvaluator.shared(ANALYSIS.plies, ANALYSIS.filters)


# --- the staged search -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "context",
    [CubeContext(), CubeContext(live=False), CubeContext(cube=2, owner="player", away=(4, 2))],
    ids=["money", "cubeless", "match"],
)
def test_the_third_ply_values_a_play_as_bgsage_checker_play_does(bgsage, context) -> None:
    """Where bgsage's own 3-ply ``checker_play`` is affordable (a few plays), the equities
    of the plays our stages search at 3-ply are its equities."""
    evaluator = BgsageEvaluator.shared(3)
    analyzer = bgsage.BgBotAnalyzer(eval_level="3ply", cubeful=context.live)
    checked = 0
    for game in game_positions(40, seed=8, options=MatchOptions()):
        plays = game.legal_plays()
        results = plays.results()
        if not 2 <= len(plays) <= 4 or sum(map(evaluator.cost, results)) > evaluator.budget:
            continue
        assert game.dice is not None
        ranked = evaluator.rank_plays(game.position, game.dice, results, context, force=results)
        kwargs = evaluator._checker_kwargs(context)
        theirs = analyzer.checker_play(game.position.to_board(), *game.dice, **kwargs)
        reference = {tuple(move.board): move for move in theirs.moves}
        for item in ranked:
            move = reference[item.result.board]
            expected = evaluator._play_equity(move.equity, move.probs, context)
            assert item.equity == pytest.approx(expected, abs=1e-6)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def budget(evaluator: BgsageEvaluator, depth: int) -> float:
    return evaluator.budget if depth == 3 else evaluator.close_budget


@pytest.mark.parametrize("plies", [3, 4])
def test_the_deep_stages_keep_to_their_candidates_and_budgets_on_the_slowest_positions(
    bgsage, monkeypatch, plies
) -> None:
    """Not a timed test: the work is counted. Each stage searches at most its filter's
    number of plays, and the 3- and 4-ply stages only plays whose estimated cost fits
    their budgets."""
    evaluator = BgsageEvaluator.shared(plies)
    searched: list[tuple[int, list[Position]]] = []
    search = BgsageEvaluator._search

    def spy(self, position, results, context, **kwargs):
        searched.append((self.plies, list(results)))
        return search(self, position, results, context, **kwargs)

    monkeypatch.setattr(BgsageEvaluator, "_search", spy)
    cases = slowest_cases(4)
    assert len(cases[0][0].legal_plays(cases[0][1])) == 1470
    for position, dice in cases:
        results = position.legal_plays(dice).results()
        for context in (CubeContext(), CubeContext(live=False)):
            searched.clear()
            ranked = evaluator.rank_plays(position, dice, results, context)
            assert sorted(item.result.board for item in ranked) == sorted(r.board for r in results)
            for depth, plays in searched:
                count, _threshold = evaluator.filters[depth - 2]
                assert 2 <= len(plays) <= count
                if depth >= 3:
                    spent = sum(evaluator.cost(play, depth) for play in plays)
                    assert spent <= budget(evaluator, depth)


def test_a_forced_play_the_budget_cannot_afford_leaves_every_play_a_ply_shallower(
    bgsage,
) -> None:
    """Analysis forces the play made: when its 3-ply search does not fit, no play is searched
    at 3-ply, so the error measured compares equities of one depth."""
    stingy = BgsageEvaluator(3, budget=0.0)
    position, dice = next(
        (position, dice)
        for position, dice in slowest_cases(20)
        if len(position.legal_plays(dice)) > 8
    )
    results = position.legal_plays(dice).results()
    context = CubeContext()
    two_ply = BgsageEvaluator.shared(2).rank_plays(position, dice, results, context)
    made = two_ply[-1].result
    ranked = stingy.rank_plays(position, dice, results, context, force=[made])
    again = BgsageEvaluator.shared(2).rank_plays(position, dice, results, context, force=[made])
    assert [(item.result, item.equity) for item in ranked] == [
        (item.result, item.equity) for item in again
    ]


def test_a_level_may_name_its_own_filters(bgsage) -> None:
    narrow = Level("narrow", 3, 0.0, filters=((4, 0.1), (2, 0.05)))
    player = ComputerPlayer(narrow, seed=1)
    assert player.evaluator is BgsageEvaluator.shared(3, ((4, 0.1), (2, 0.05)))
    game = Game.new().opening_roll(4, 2)
    assert player.choose_play(game) in game.legal_plays()


# --- world-class's close calls ---------------------------------------------------------------


@pytest.mark.parametrize(
    "context", [CubeContext(), CubeContext(live=False)], ids=["money", "cubeless"]
)
def test_world_class_searches_a_close_call_four_plies_deep(bgsage, monkeypatch, context) -> None:
    """Where the best two plays at 3 plies are within the last filter's threshold (0.02)
    and their 4-ply search fits its budget, world-class ranks them by that search (GNU
    Backgammon's 3-ply); elsewhere its choice is the 3-ply one. Counted, never timed."""
    world_class = ComputerPlayer("world-class").evaluator
    assert isinstance(world_class, BgsageEvaluator)
    # World-class's own search without its last stage.
    three = BgsageEvaluator(3, filters=world_class.filters[:-1], budget=world_class.budget)
    four = BgsageEvaluator.shared(4)
    searched: list[tuple[int, list[Position]]] = []
    search = BgsageEvaluator._search

    def spy(self, position, results, context, **kwargs):
        searched.append((self.plies, list(results)))
        return search(self, position, results, context, **kwargs)

    monkeypatch.setattr(BgsageEvaluator, "_search", spy)
    deeper = 0
    for game in game_positions(60, seed=38, options=MatchOptions(cube=context.live)):
        assert game.dice is not None
        results = game.legal_plays().results()
        searched.clear()
        ranked = world_class.rank_plays(game.position, game.dice, results, context)
        shallow = three.rank_plays(game.position, game.dice, results, context)
        deep = [plays for depth, plays in searched if depth == 4]
        top = shallow[:2]
        close = len(top) == 2 and top[0].equity - top[1].equity <= world_class.filters[-1][1]
        affordable = sum(world_class.cost(item.result, 4) for item in top) <= (
            world_class.close_budget
        )
        if not (close and affordable):
            assert not deep
            assert ranked[0].result == shallow[0].result
            continue
        deeper += 1
        assert deep == [[item.result for item in top]]
        expected = four._search(game.position, deep[0], context)
        assert expected is not None
        expected.sort(key=lambda item: -item.equity)
        assert [(item.result, item.equity) for item in ranked[:2]] == [
            (item.result, pytest.approx(item.equity, abs=1e-9)) for item in expected
        ]
    assert deeper >= 2


def test_a_three_ply_search_spread_over_two_threads_values_every_play_alike(bgsage) -> None:
    """World-class's 3-ply stage spreads each candidate's cubeful tree over two threads
    (a third less wall clock); the equities must be the single thread's, or the threads
    would change its choices."""
    three = BgsageEvaluator.shared(3)
    compared = 0
    for game in game_positions(12, seed=40, options=MatchOptions()):
        assert game.dice is not None
        results = game.legal_plays().results()[:4]
        context = CubeContext.for_game(game)
        one = three._search(game.position, results, context, threads=1)
        two = three._search(game.position, results, context, threads=2)
        assert one is not None and two is not None
        assert [(item.result, item.equity) for item in two] == [
            (item.result, pytest.approx(item.equity, abs=1e-9)) for item in one
        ]
        compared += len(results)
    assert compared >= 24


def test_world_class_decides_the_cube_at_three_plies(bgsage) -> None:
    world_class = ComputerPlayer("world-class").evaluator
    game = game_positions(1, seed=2, options=MatchOptions())[0]
    context = CubeContext.for_game(game)
    position = game.position.flip()  # the opponent, before its roll
    three = BgsageEvaluator.shared(3)
    assert world_class.cube_equities(position, context) == three.cube_equities(position, context)
