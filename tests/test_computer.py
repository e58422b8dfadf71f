"""The computer opponent: only legal plays, sensible cube action, hints, stable analysis.

Everything but the import check needs bgsage and is skipped where it is missing (its wheels
exist only for Linux x86-64, macOS arm64 and Windows).
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.computer import (
    ANALYSIS,
    ComputerPlayer,
    CubeAction,
    CubeContext,
    CubeDecision,
    CubeEquities,
    CubeHint,
    Decision,
    PlayHint,
    RankedResult,
    analyze,
)
from bot.core.errors import Refusal
from bot.engine import Dice, Game, MatchOptions, Phase, Play, Position, ResultKind

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bgsage():
    return pytest.importorskip("bgsage")


@pytest.fixture
def expert(bgsage) -> ComputerPlayer:
    return ComputerPlayer("expert", seed=1)


def board(points: dict[int, int]) -> Position:
    """A position from the player on roll's view: {point: count}, negative = opponent."""
    cells = [0] * 26
    for point, count in points.items():
        cells[point] = count
    return Position.from_board(cells)


# The player on roll: three checkers on each of points 1-5 (45 pips). The opponent: five on
# each of their 4-, 5- and 6-points (75 pips). Far ahead in a race with no gammons.
RACE_LEAD = board({1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 19: -5, 20: -5, 21: -5})


def before_roll(position: Position, **fields) -> Game:
    return Game(position=position, phase=Phase.ROLL, **fields)


def random_positions(count: int, seed: int) -> list[tuple[Position, Dice]]:
    """Positions and rolls with a real choice, met in games of random plays."""
    rng = random.Random(seed)
    found: list[tuple[Position, Dice]] = []
    position = Position.start()
    while len(found) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = position.legal_plays(dice)
        if len(plays) > 1 and rng.random() < 0.2:
            found.append((position, dice))
        result = rng.choice(plays.results())
        position = Position.start() if result.is_over() else result.flip()
    return found


def in_move(position: Position, dice: Dice, **fields) -> Game:
    return Game(position=position, phase=Phase.MOVE, dice=dice, **fields)


# --- without bgsage ---------------------------------------------------------------------------


def test_importing_without_bgsage_is_safe() -> None:
    code = (
        "import sys; sys.modules['bgsage'] = None\n"
        "import bot.computer as computer\n"
        "from bot.engine import Game\n"
        "assert not computer.computer_available()\n"
        "try:\n"
        "    computer.ComputerPlayer().choose_play(Game.new().opening_roll(3, 1))\n"
        "except computer.ComputerUnavailableError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == str(Refusal.COMPUTER_UNAVAILABLE)


def test_unknown_level_names_the_levels() -> None:
    with pytest.raises(ValueError, match="beginner, intermediate, advanced, expert, world-class"):
        ComputerPlayer("grandmaster")
    assert ComputerPlayer("World class").level.plies == 4


def test_docstring_example(bgsage) -> None:
    import doctest

    import bot.computer

    result = doctest.testmod(bot.computer)
    assert result.attempted > 0
    assert result.failed == 0


# --- checker play -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "best"),
    [
        ((3, 1), "8/5 6/5"),
        ((4, 2), "8/4 6/4"),
        ((6, 1), "13/7 8/7"),
        ((6, 5), "24/13"),
        ((6, 6), "24/18(2) 13/7(2)"),
    ],
)
def test_opening_plays(expert: ComputerPlayer, dice: Dice, best: str) -> None:
    assert str(expert.choose_play(in_move(Position.start(), dice))) == best


def test_bears_off_when_it_can(expert: ComputerPlayer) -> None:
    home = board({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 24: -3})
    assert str(expert.choose_play(in_move(home, (6, 5)))) == "6/off 5/off"


def test_agrees_with_bgsage_checker_play(bgsage, expert: ComputerPlayer) -> None:
    """Our results are bgsage's post-move boards: no flipping anywhere."""
    analyzer = bgsage.BgBotAnalyzer(eval_level="1ply")
    for position, dice in random_positions(25, seed=3):
        best = analyzer.checker_play(position.to_board(), *dice, jacoby=False).moves[0]
        result = position.apply(expert.choose_play(in_move(position, dice)))
        assert result.to_board() == best.board, (position, dice)


class Refuses:
    """An evaluator that must not be asked."""

    def rank_plays(self, *args, **kwargs):
        raise AssertionError("evaluated a position with no choice")

    def cube_equities(self, *args, **kwargs):
        raise AssertionError("evaluated a position with no choice")


def test_forced_pass_and_single_play_need_no_evaluation() -> None:
    computer = ComputerPlayer(evaluator=Refuses())
    closed = board({25: 1, 1: 14, 19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2, 12: -3})
    assert computer.choose_play(in_move(closed, (6, 5))) == Play(())
    one_way = board({25: 1, 1: 14, 19: -2, 21: -2, 22: -2, 23: -2, 24: -2, 12: -5})
    game = in_move(one_way, (5, 5))
    play = computer.choose_play(game)
    assert play in game.legal_plays()
    assert len(game.legal_plays()) == 1


class PipCounter:
    """A toy engine: fewest own pips is best; it also slips in a result that is not legal."""

    def rank_plays(self, position, dice, results, context, *, force=()):
        bogus = RankedResult(Position.start(), 99.0)
        ranked = sorted(results, key=lambda result: result.pips()[0])
        return [bogus, *(RankedResult(result, -result.pips()[0]) for result in ranked)]

    def cube_equities(self, position, context):
        return CubeEquities(no_double=0.0, double_take=-0.5, double_pass=1.0)


def test_another_engine_can_play_and_never_plays_outside_our_list() -> None:
    computer = ComputerPlayer(evaluator=PipCounter())
    game = in_move(Position.start(), (6, 5))
    play = computer.choose_play(game)
    assert play in game.legal_plays()
    assert not computer.should_double(before_roll(Position.start()))


def test_rank_plays_returns_exactly_the_candidates(expert: ComputerPlayer) -> None:
    position = Position.start()
    results = position.legal_plays((4, 1)).results()
    context = CubeContext()
    some = expert.evaluator.rank_plays(position, (4, 1), results[:3], context)
    assert {item.result for item in some} == set(results[:3])
    # A result bgsage does not list (the rare rules disagreement) is valued on its own.
    odd = board({6: 5, 8: 3, 13: 4, 24: 3, 1: -2, 12: -5, 17: -3, 19: -5})
    ranked = expert.evaluator.rank_plays(position, (4, 1), [*results, odd], context)
    assert sorted(item.result.board for item in ranked) == sorted(
        result.board for result in [*results, odd]
    )
    equities = [item.equity for item in ranked]
    assert equities == sorted(equities, reverse=True)


@pytest.mark.parametrize(
    "options",
    [MatchOptions(cube=False), MatchOptions(length=5, cube=False), MatchOptions(length=1)],
)
def test_plays_without_a_live_cube(expert: ComputerPlayer, options: MatchOptions) -> None:
    game = Game.new(options).opening_roll(3, 1)
    assert str(expert.choose_play(game)) == "8/5 6/5"
    hints = expert.play_hints(game, count=16)
    assert [hint.equity for hint in hints] == sorted((h.equity for h in hints), reverse=True)


def test_thread_safe(expert: ComputerPlayer) -> None:
    games = [in_move(position, dice) for position, dice in random_positions(12, seed=4)]
    alone = [expert.choose_play(game) for game in games]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(expert.choose_play, games))
    assert together == alone


# --- complete games against a random player ----------------------------------------------------


def play_match(
    computer: ComputerPlayer, seat: int, options: MatchOptions, rng: random.Random
) -> tuple[Game, int]:
    """Play a match through the engine; return the last game and the plays the computer chose."""

    def die() -> int:
        return rng.randint(1, 6)

    game = Game.new(options)
    chosen = 0
    while True:
        if game.phase is Phase.OPENING:
            game = game.opening_roll(die(), die())
        elif game.phase is Phase.ROLL:
            if game.on_roll == seat:
                doubles = computer.should_double(game)
                assert not doubles or game.can_double()
            else:
                doubles = game.can_double() and rng.random() < 0.1
            game = game.double() if doubles else game.roll((die(), die()))
        elif game.phase is Phase.DOUBLED:
            if game.actor == seat:
                answer = computer.cube_response(game)
            else:
                answers = [CubeDecision.TAKE, CubeDecision.DROP]
                if options.beavers and not game.beaver_pending:
                    answers.append(CubeDecision.BEAVER)
                answer = rng.choice(answers)
            game = {
                CubeDecision.TAKE: game.take,
                CubeDecision.DROP: game.drop,
                CubeDecision.BEAVER: game.beaver,
            }[answer]()
        elif game.phase is Phase.MOVE:
            plays = game.legal_plays()
            if game.on_roll == seat:
                play = computer.choose_play(game)
                assert play in plays, (game, play)
                chosen += 1
            else:
                play = rng.choice(list(plays))
            game = game.play(play)
        else:
            if game.match_over:
                return game, chosen
            game = game.next_game()


@pytest.mark.parametrize(
    ("seed", "seat", "options"),
    [
        (1, 0, MatchOptions()),
        (2, 1, MatchOptions(jacoby=True, beavers=True)),
        (3, 1, MatchOptions(length=3)),
    ],
)
def test_complete_matches_against_a_random_player(
    bgsage, seed: int, seat: int, options: MatchOptions
) -> None:
    computer = ComputerPlayer("advanced", seed=seed)
    game, chosen = play_match(computer, seat, options, random.Random(seed))
    assert game.match_over
    assert chosen > 5 or (game.result is not None and game.result.reason == "dropped")


# --- the cube ------------------------------------------------------------------------------


def test_no_double_in_the_opening_position(expert: ComputerPlayer) -> None:
    game = before_roll(Position.start())
    assert not expert.should_double(game)
    hint = expert.cube_hint(game)
    assert hint.action is CubeAction.NO_DOUBLE_TAKE
    assert hint.double_take is not None  # the cube is available in the opening position
    assert hint.no_double > hint.double_take


def test_huge_race_lead_doubles_and_the_opponent_passes(expert: ComputerPlayer) -> None:
    game = before_roll(RACE_LEAD)
    assert expert.should_double(game)
    doubled = game.double()
    assert expert.cube_response(doubled) is CubeDecision.DROP
    assert not expert.should_take(doubled)
    hint = expert.hints(game)
    assert isinstance(hint, CubeHint)
    assert hint.action is CubeAction.DOUBLE_PASS
    assert (hint.double, hint.take, hint.text) == (True, False, "Double, pass")
    assert hint.chances is not None and hint.chances.win > 0.9


@pytest.mark.parametrize(
    "fields",
    [
        {"options": MatchOptions(length=1)},
        {"options": MatchOptions(length=5), "score": (4, 2), "crawford": True},
        {"options": MatchOptions(length=5), "score": (1, 2), "cube": 4, "cube_owner": 0},
        {"options": MatchOptions(cube=False)},
        {"cube": 2, "cube_owner": 1},
    ],
)
def test_never_doubles_when_the_cube_is_not_available(expert: ComputerPlayer, fields) -> None:
    game = before_roll(RACE_LEAD, **fields)
    assert not expert.should_double(game)
    hint = expert.cube_hint(game)
    assert hint.action is CubeAction.NO_DOUBLE
    assert hint.refusal == game.cube_refusal()


def test_post_crawford_trailer_doubles(expert: ComputerPlayer) -> None:
    game = before_roll(
        Position.start(), options=MatchOptions(length=5), score=(2, 4), post_crawford=True
    )
    assert expert.should_double(game)
    assert expert.should_take(game.double())  # the leader has nothing to save by passing


def test_beavers_in_a_money_game(expert: ComputerPlayer) -> None:
    game = before_roll(Position.start(), options=MatchOptions(beavers=True))
    doubled = game.double()
    assert expert.cube_response(doubled) is CubeDecision.BEAVER
    assert expert.cube_response(doubled.beaver()) is CubeDecision.TAKE
    assert expert.cube_hint(game).action is CubeAction.NO_DOUBLE_BEAVER


# --- hints ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("position", "dice"), random_positions(6, seed=5))
def test_hints_are_legal_plays_best_first(
    expert: ComputerPlayer, position: Position, dice: Dice
) -> None:
    game = in_move(position, dice)
    hints = expert.hints(game, count=3)
    assert isinstance(hints, list)
    assert 1 <= len(hints) <= 3
    assert all(isinstance(hint, PlayHint) for hint in hints)
    for hint in hints:
        assert hint.play in game.legal_plays()
        assert position.parse_play(dice, hint.notation) == hint.play
    equities = [hint.equity for hint in hints]
    assert equities == sorted(equities, reverse=True)
    assert hints[0].difference == 0.0
    assert all(hint.difference <= 0.0 for hint in hints)
    # Hints search at the analysis depth whatever the level asked.
    assert hints[0].play == ComputerPlayer(ANALYSIS).choose_play(game)


# --- analysis ------------------------------------------------------------------------------


def scripted_game() -> list[tuple[Game, Decision]]:
    """A short game with fixed dice: player 0 opens with the worst 3-1 and player 1 doubles
    far too early."""
    decisions: list[tuple[Game, Decision]] = []
    game = Game.new().opening_roll(3, 1)

    def move(text: str) -> None:
        nonlocal game
        assert game.dice is not None  # a play follows a roll
        play = game.position.parse_play(game.dice, text)
        decisions.append((game, play))
        game = game.play(play)

    def cube(decision: CubeDecision, dice: Dice | None = None) -> None:
        nonlocal game
        decisions.append((game, decision))
        if decision is CubeDecision.NO_DOUBLE:
            assert dice is not None
            game = game.roll(dice)
        else:
            game = {
                CubeDecision.DOUBLE: game.double,
                CubeDecision.TAKE: game.take,
                CubeDecision.DROP: game.drop,
            }[decision]()

    move("8/7 8/5")  # the worst play: 8/5 6/5 makes a point
    cube(CubeDecision.NO_DOUBLE, (5, 2))
    move("13/8 13/11")
    cube(CubeDecision.NO_DOUBLE, (6, 6))
    move("24/18(2) 13/7(2)")
    cube(CubeDecision.DOUBLE)  # player 1 is behind: a terrible double
    cube(CubeDecision.TAKE)
    cube(CubeDecision.NO_DOUBLE, (2, 1))
    move("13/11 6/5")
    return decisions


def test_analysis_of_a_scripted_game(expert: ComputerPlayer) -> None:
    decisions = scripted_game()
    first = expert.analyze(decisions)
    assert analyze(decisions) == first  # the same numbers every time
    zero, one = first[0], first[1]

    assert zero.checker_decisions == 2
    assert zero.cube_decisions == 1  # the take; rolling without doubling was never close
    worst = zero.mistakes[0]
    assert (worst.made, worst.best, worst.kind) == ("8/7 8/5", "8/5 6/5", "checker")
    assert worst.equity_lost > 0.3
    assert worst.position_id == Position.start().position_id()
    assert worst.game.dice == (3, 1)
    assert zero.blunders >= 1

    assert one.checker_decisions == 2
    assert one.mistakes[0].kind == "cube"
    assert (one.mistakes[0].made, one.mistakes[0].best) == ("Double", "No double")
    assert one.blunders >= 1

    for player in (zero, one):
        assert player.decisions == player.checker_decisions + player.cube_decisions
        assert player.error_rate == pytest.approx(player.total_millipoints / player.decisions)
        assert len(player.mistakes) <= 3
        losses = [mistake.equity_lost for mistake in player.mistakes]
        assert losses == sorted(losses, reverse=True)
        assert player.rating


def test_analysis_can_leave_out_a_player(expert: ComputerPlayer) -> None:
    assert set(expert.analyze(scripted_game(), players=(1,))) == {1}


class FixedCube:
    """A stub evaluator whose every cube decision has the given equities; it counts them."""

    def __init__(self, no_double: float, double_take: float) -> None:
        self.equities = CubeEquities(no_double, double_take, 1.0)
        self.asked = 0

    def rank_plays(self, position, dice, results, context, *, force=()) -> list[RankedResult]:
        return [RankedResult(result, 0.0) for result in results]

    def cube_equities(self, position: Position, context: CubeContext) -> CubeEquities:
        self.asked += 1
        return self.equities


def test_the_screen_spares_the_search_of_a_no_double_far_from_doubling() -> None:
    from bot.computer.analysis import SCREEN_BOUND, analyze_decisions

    decisions = scripted_game()
    counted: list[tuple[Game, Decision]] = [
        (g, d) for g, d in decisions if isinstance(d, CubeDecision) and g.can_double()
    ]
    counted += [(g, d) for g, d in decisions if g.phase is Phase.DOUBLED]
    no_doubles = sum(d is CubeDecision.NO_DOUBLE for _, d in counted)
    cubes = len(counted)  # the cube decisions there were (a roll when doubling was allowed)
    assert no_doubles >= 2 and cubes > no_doubles
    # The search finds each no-double close (doubling 0.05 worse): all are counted.
    close = FixedCube(0.3, 0.25)
    # A screen finding doubling far worse (beyond what either way of counting counts, and
    # the margin, and a little more): none is searched nor counted, and the double and the
    # take still are.
    far = FixedCube(0.3, 0.3 - SCREEN_BOUND - 0.01)
    found = analyze_decisions(close, decisions, screen=far)
    assert far.asked == no_doubles
    assert close.asked == cubes - no_doubles
    assert sum(a.cube_decisions for a in found.values()) == cubes - no_doubles
    # A screen finding them near enough leaves each to the search, which counts it.
    near = FixedCube(0.3, 0.3 - SCREEN_BOUND + 0.01)
    close.asked = 0
    found = analyze_decisions(close, decisions, screen=near)
    assert close.asked == cubes
    assert sum(a.cube_decisions for a in found.values()) == cubes
    assert found == analyze_decisions(close, decisions)  # as with no screen at all


# --- levels --------------------------------------------------------------------------------


def test_a_beginner_sometimes_plays_worse_than_world_class(bgsage) -> None:
    strong = ComputerPlayer("world-class")
    beginner = ComputerPlayer("beginner", seed=11)
    games = [in_move(position, dice) for position, dice in random_positions(20, seed=6)]
    # World-class's ranking mixes depths (its close calls' 4 plies above the rest's 3): a
    # play's equity lost is judged as the reviews judge it, by the analysis search.
    judge = strong.analysis_evaluator
    lost = []
    for game in games:
        assert game.dice is not None  # in_move: the dice are rolled
        ranked = judge.rank_plays(
            game.position, game.dice, game.legal_plays().results(), CubeContext()
        )
        equities = {item.result: item.equity for item in ranked}
        choice = game.position.apply(beginner.choose_play(game))
        lost.append(ranked[0].equity - equities[choice])
    assert min(lost) >= 0.0
    assert sum(loss > 0.0 for loss in lost) >= 3
    first = ComputerPlayer("beginner", seed=5)
    second = ComputerPlayer("beginner", seed=5)
    assert [first.choose_play(game) for game in games] == [
        second.choose_play(game) for game in games
    ]


@pytest.mark.parametrize(
    "context", [CubeContext(), CubeContext(cube=2, owner="opponent", away=(3, 5))]
)
def test_world_class_searches_only_the_best_plays_deeper(bgsage, context: CubeContext) -> None:
    """Only the best plays at 1-ply are searched at 2-ply, each valued exactly as bgsage's
    full search values it; every legal result is still ranked once."""
    from bot.computer import BgsageEvaluator

    pruned = BgsageEvaluator.shared(2)
    full = BgsageEvaluator(2, filters=[(10_000, 100.0)])
    candidates = pruned.filters[0][0]
    doubles = [(p, d) for p, d in random_positions(60, seed=9) if d[0] == d[1]]
    cases = [(p, d) for p, d in doubles if len(p.legal_plays(d)) > candidates][:3]
    assert cases
    for position, dice in cases:
        results = position.legal_plays(dice).results()
        ranked = pruned.rank_plays(position, dice, results, context, force=[results[-1]])
        assert sorted(item.result.board for item in ranked) == sorted(r.board for r in results)
        everything = {
            item.result.board: item.equity
            for item in full.rank_plays(position, dice, results, context)
        }
        searched = ranked[:candidates]
        assert searched[0].equity == max(item.equity for item in searched)
        for item in searched[:2]:
            assert item.equity == pytest.approx(everything[item.result.board], abs=1e-9)
        forced = next(item for item in ranked if item.result == results[-1])
        assert forced.equity == pytest.approx(everything[results[-1].board], abs=1e-9)


def test_resignation_answers_follow_the_expected_result(expert: ComputerPlayer) -> None:
    """A single offered in an even position is taken; one offered when a gammon is certain
    is refused, while the gammon itself is accepted."""
    even = Game.new().opening_roll(3, 1).move("8/5 6/5")
    assert expert.accepts_resignation(even.offer_resignation(1, ResultKind.SINGLE))
    # Player 0 (the computer) is bearing off; player 1 has borne off nothing and is far away.
    far_behind = board({1: 3, 2: 3, 3: 3, 4: 3, 5: 3, 7: -5, 8: -5, 9: -5})
    crushing = dataclasses.replace(even, position=far_behind, on_roll=0, phase=Phase.ROLL)
    assert not expert.accepts_resignation(crushing.offer_resignation(1, ResultKind.SINGLE))
    assert expert.accepts_resignation(crushing.offer_resignation(1, ResultKind.GAMMON))
