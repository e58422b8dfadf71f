"""XG's Performance Rating: which decisions count, the bands, the sums, the luck-adjusted result.

Hand-set equities throughout (stub evaluators): each rule of :mod:`bot.computer.pr` is tried
on both sides of its bound, and through :func:`bot.computer.analysis.analyze_decisions`, where
XG's count and GNU Backgammon's (the error rate) differ on purpose.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

import pytest

from bot.computer import CubeContext, CubeDecision, RankedResult
from bot.computer.analysis import analyze_decisions
from bot.computer.luck import GameLuck, MatchLuck, RollLuck, match_luck
from bot.computer.pr import (
    ONE_POINT_WEIGHT,
    PerformanceRating,
    PRBand,
    PRPart,
    band,
    checker_counts,
    decision_weight,
    double_counts,
    response_counts,
)
from bot.core.dice import ScriptedRoller
from bot.core.records import EventRecord
from bot.core.session import Player, SessionService
from bot.engine import Dice, Game, MatchOptions, Phase, Play, Position
from bot.storage import Store
from tests.test_computer import FixedCube, scripted_game
from tests.test_luck import TableEvaluator

# --- the rules --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("equities", "counts"),
    [
        ([0.1], False),  # forced: one legal play
        ([0.1, 0.1, 0.1], False),  # every play worth the same: the choice did not matter
        ([0.1, 0.1, 0.0995], False),  # within 0.001
        ([0.1, 0.1, 0.099], True),
        ([0.3, -0.2], True),
    ],
)
def test_a_checker_play_counts_when_the_choice_mattered(
    equities: list[float], counts: bool
) -> None:
    assert checker_counts(equities) is counts


@pytest.mark.parametrize(
    ("no_double", "double_take", "double_pass", "error", "counts"),
    [
        (0.50, 0.45, 1.0, 0.0, True),  # a close no double
        (0.50, 0.31, 1.0, 0.0, True),  # doubling 0.19 worse: still a decision
        (0.50, 0.29, 1.0, 0.0, False),  # doubling 0.21 worse: an obvious no double
        (0.50, 0.29, 1.0, 0.21, True),  # ... but doubling there is an error, and counts
        (0.60, 0.70, 1.0, 0.0, True),  # a proper double
        (1.19, 1.50, 1.0, 0.0, True),  # too good by 0.19: a decision
        (1.21, 1.50, 1.0, 0.0, False),  # too good by 0.21: obvious
        (1.21, 1.50, 1.0, 0.21, True),  # ... doubled anyway
        (0.40, 0.4005, 1.0, 0.0, False),  # doubling changes nothing
        (-0.95, -0.92, 1.0, 0.0, False),  # hopeless either way
        (-0.95, -0.92, 1.0, 0.03, True),  # ... but doubling was better by 0.03
        (-0.95, -0.85, 1.0, 0.0, True),  # no double hopeless, doubling not: a decision
    ],
)
def test_which_cube_decisions_of_the_roller_count(
    no_double: float, double_take: float, double_pass: float, error: float, counts: bool
) -> None:
    assert double_counts(no_double, double_take, double_pass, error) is counts


@pytest.mark.parametrize(
    ("take", "drop", "counts"),
    [(0.5, 1.0, True), (1.2, 1.0, True), (1.0, 1.0, False), (0.9995, 1.0, False)],
)
def test_an_answer_to_a_double_counts_unless_take_and_drop_are_the_same(
    take: float, drop: float, counts: bool
) -> None:
    assert response_counts(take, drop) is counts


@pytest.mark.parametrize(
    ("pr", "expected"),
    [
        (0.0, PRBand.WORLD_CHAMPION),
        (2.49, PRBand.WORLD_CHAMPION),
        (2.5, PRBand.WORLD_CLASS),
        (4.99, PRBand.WORLD_CLASS),
        (5.0, PRBand.EXPERT),
        (7.49, PRBand.EXPERT),
        (7.5, PRBand.ADVANCED),
        (12.49, PRBand.ADVANCED),
        (12.5, PRBand.INTERMEDIATE),
        (17.5, PRBand.CASUAL),
        (22.49, PRBand.CASUAL),
        (22.5, PRBand.BEGINNER),
        (29.99, PRBand.BEGINNER),
        (30.0, PRBand.BELOW_BEGINNER),
        (70.0, PRBand.BELOW_BEGINNER),
    ],
)
def test_bands_start_at_their_lower_bound(pr: float, expected: PRBand) -> None:
    assert band(pr) is expected


def test_a_negative_pr_has_no_band() -> None:
    with pytest.raises(ValueError, match="never negative"):
        band(-0.1)


def test_pr_is_500_times_the_mean_error_over_counted_decisions() -> None:
    rating = PerformanceRating(PRPart(40, 0.4), PRPart(10, 0.3))
    assert rating.decisions == 50
    assert rating.pr == pytest.approx(500 * 0.7 / 50)
    assert rating.checker_pr == pytest.approx(500 * 0.4 / 40)
    assert rating.cube_pr == pytest.approx(500 * 0.3 / 10)
    assert rating.band is PRBand.EXPERT  # 7.0
    assert PerformanceRating().pr is None and PerformanceRating().band is None
    # Ratings pool their decisions (not the mean of two PRs).
    other = PerformanceRating(PRPart(10, 0.0), PRPart())
    assert (rating + other).pr == pytest.approx(500 * 0.7 / 60)
    assert PerformanceRating.total([rating, other]) == rating + other


def test_an_error_weighs_one_and_a_half_in_a_one_point_match() -> None:
    assert decision_weight(1) == ONE_POINT_WEIGHT == 1.5
    assert decision_weight(0) == decision_weight(7) == 1.0
    assert PRPart().counted(0.02, decision_weight(1)) == PRPart(1, 0.03)
    assert PRPart().counted(-0.01) == PRPart(1, 0.0)  # a loss is never negative


# --- through the analysis ---------------------------------------------------------------------


class Spread(FixedCube):
    """Cube equities as FixedCube; each legal play 0.01 worse than the one before."""

    def rank_plays(
        self,
        position: Position,
        dice: Dice,
        results: Sequence[Position],
        context: CubeContext,
        *,
        force: Collection[Position] = (),
    ) -> list[RankedResult]:
        return [RankedResult(result, -0.01 * i) for i, result in enumerate(results)]


def forced_play(seed: int = 3) -> Game:
    """A game waiting for a play that is the only legal one (not a pass)."""
    rng = random.Random(seed)
    for _ in range(500):
        game = Game.new().opening_roll(3, 1)
        for _ in range(200):
            if game.phase is Phase.ROLL:
                game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
            elif game.phase is Phase.MOVE:
                plays = list(game.legal_plays())
                if len(plays) == 1 and plays[0].moves:
                    return game
                game = game.play(rng.choice(plays)) if plays[0].moves else game.pass_turn()
            else:
                break
    raise AssertionError("no forced play found")


def test_a_forced_play_is_no_decision() -> None:
    game = forced_play()
    (play,) = list(game.legal_plays())
    player = game.on_roll
    found = analyze_decisions(Spread(0.3, 0.25), [(game, play)], players=(player,))[player]
    assert found.checker_decisions == 0
    assert found.performance.decisions == 0 and found.performance.pr is None


def test_checker_plays_count_only_when_their_choice_mattered() -> None:
    decisions = scripted_game()
    plays = sum(isinstance(d, Play) and len(g.legal_plays()) > 1 for g, d in decisions)
    assert plays >= 3
    # Every play worth the same: GNU Backgammon counts them, XG does not.
    same = analyze_decisions(FixedCube(0.3, 0.25), decisions)
    assert sum(a.checker_decisions for a in same.values()) == plays
    assert sum(a.performance.checker.decisions for a in same.values()) == 0
    # Plays 0.01 apart: both count them all.
    spread = analyze_decisions(Spread(0.3, 0.25), decisions)
    assert sum(a.performance.checker.decisions for a in spread.values()) == plays
    assert sum(a.checker_decisions for a in spread.values()) == plays


def test_a_no_double_counts_by_xgs_bound_not_gnus() -> None:
    decisions = scripted_game()
    no_doubles = sum(d is CubeDecision.NO_DOUBLE and g.can_double() for g, d in decisions)
    others = sum(
        isinstance(d, CubeDecision) and d is not CubeDecision.NO_DOUBLE for _, d in decisions
    )
    assert no_doubles >= 2 and others == 2  # the double and the take
    # Doubling 0.18 worse: not close for GNU Backgammon (0.16), a decision for XG (0.2).
    found = analyze_decisions(FixedCube(0.3, 0.12), decisions)
    assert sum(a.cube_decisions for a in found.values()) == others
    assert sum(a.performance.cube.decisions for a in found.values()) == others + no_doubles
    # Doubling 0.25 worse: obvious for both.
    found = analyze_decisions(FixedCube(0.3, 0.05), decisions)
    assert sum(a.cube_decisions for a in found.values()) == others
    assert sum(a.performance.cube.decisions for a in found.values()) == others
    # Doubling 0.05 worse: close for both.
    found = analyze_decisions(FixedCube(0.3, 0.25), decisions)
    assert sum(a.cube_decisions for a in found.values()) == others + no_doubles
    assert sum(a.performance.cube.decisions for a in found.values()) == others + no_doubles


def test_a_take_counts_unless_taking_and_passing_are_the_same() -> None:
    decisions = scripted_game()
    (taker,) = [g.actor for g, d in decisions if d is CubeDecision.TAKE]
    assert taker is not None
    # Double/take worth double/pass (1.0): the take is no decision for XG, one for GNU
    # (no double, 1.5, is too good by far: no roller's decision counts either way).
    same = analyze_decisions(FixedCube(1.5, 1.0), decisions)[taker]
    assert same.cube_decisions == 1
    assert same.performance.cube.decisions == 0
    differ = analyze_decisions(FixedCube(1.5, 0.9), decisions)[taker]
    assert differ.performance.cube.decisions == 1


def test_the_pr_is_the_error_of_counted_decisions() -> None:
    decisions = scripted_game()
    # The double in the scripted game is wrong by 0.05 (no double 0.3, double/take 0.25).
    found = analyze_decisions(Spread(0.3, 0.25), decisions)
    (doubler,) = [g.actor for g, d in decisions if d is CubeDecision.DOUBLE]
    assert doubler is not None
    mine = found[doubler].performance
    checker_error = found[doubler].checker_error
    assert mine.cube.error == pytest.approx(0.05)
    assert mine.checker.error == pytest.approx(checker_error)
    assert mine.pr == pytest.approx(500 * (0.05 + checker_error) / mine.decisions)


def test_errors_of_a_one_point_match_weigh_more() -> None:
    game = Game.new(MatchOptions(length=1)).opening_roll(3, 1)
    plays = list(game.legal_plays())
    worst = plays[-1]
    player = game.on_roll
    found = analyze_decisions(Spread(0.3, 0.25), [(game, worst)], players=(player,))[player]
    lost = found.checker_error
    assert lost > 0
    assert found.performance.checker == PRPart(1, 1.5 * lost)


# --- luck-adjusted result ---------------------------------------------------------------------

ALICE, BOB = Player(1, "alice"), Player(2, "bob")


async def doubled_game(store: Store, options: MatchOptions) -> list[EventRecord]:
    """Bob opens 2-1; Alice doubles, Bob takes; Alice rolls 6-6; Bob redoubles, Alice drops."""
    roller = ScriptedRoller()
    service = SessionService(store, roller=roller)
    channel = 5
    await service.challenge(10, channel, ALICE, BOB, options)
    roller.extend([1, 2])
    await service.accept(channel, BOB)
    await service.move(channel, BOB, "24/21")
    await service.double(channel, ALICE)
    await service.take(channel, BOB)
    roller.extend([6, 6])
    await service.roll(channel, ALICE)
    await service.move(channel, ALICE, "24/18(2) 13/7(2)")
    await service.double(channel, BOB)
    roller.extend([3, 1])  # a match goes on: the next game's opening
    await service.drop(channel, ALICE)
    _row, events = await service.history(channel)
    return events


class TableWithMet(TableEvaluator):
    """A made-up match equity table: 0.5 plus a tenth per point of lead; equity e is
    0.5 + e / 10 of the match whatever the score."""

    def score_mwc(self, away: tuple[int, int], *, post_crawford: bool) -> float:
        if away[0] <= 0:
            return 1.0
        return 0.5 + (away[1] - away[0]) / 10

    def equity_mwc(self, equity: float, context: CubeContext) -> float:
        return 0.5 + equity / 10


async def test_luck_adjusted_result_of_a_money_game(store: Store) -> None:
    events = await doubled_game(store, MatchOptions())
    stub = TableEvaluator({(6, 6): 0.36, (2, 1): 0.09})
    luck = match_luck(MatchOptions(), events, stub)
    (game,) = luck.games
    assert (game.winner, game.winnings) == (1, 2.0)  # Bob wins the 2-cube
    opening, six_six = game.rolls
    average = (0.36 + 2 * 0.09) / 36
    assert opening.result_luck == pytest.approx(0.09)  # at the 1-cube
    assert six_six.luck == pytest.approx(0.36 - average)
    assert six_six.result_luck == pytest.approx(2 * (0.36 - average))  # at the 2-cube
    alice = luck.luck_adjusted(0)
    bob = luck.luck_adjusted(1)
    assert alice is not None and bob is not None
    assert alice.actual == -2.0 and bob.actual == 2.0
    assert alice.luck == pytest.approx(2 * (0.36 - average))
    assert alice.opponent_luck == pytest.approx(0.09)
    assert alice.adjusted == pytest.approx(-2.0 - 2 * (0.36 - average) + 0.09)
    assert bob.adjusted == pytest.approx(-alice.adjusted)
    assert alice.rolls == 1 and alice.rate == pytest.approx(1000 * (0.36 - average))


async def test_luck_adjusted_result_of_a_match_in_match_winning_chances(store: Store) -> None:
    options = MatchOptions(length=5)
    events = await doubled_game(store, options)
    stub = TableWithMet({(6, 6): 0.36, (2, 1): 0.09})
    luck = match_luck(options, events, stub, games=[1])
    (game,) = luck.games
    # Bob goes from 5-away/5-away (0.5) to 3-away/5-away (0.7).
    assert game.winnings == pytest.approx(0.2)
    assert [r.result_luck for r in game.rolls] == pytest.approx([r.luck / 10 for r in game.rolls])
    bob = luck.luck_adjusted(1)
    assert bob is not None
    assert bob.actual == pytest.approx(0.2)
    assert bob.adjusted == pytest.approx(0.2 - 0.009 + game.rolls[1].luck / 10)
    # Without a match equity table the stakes of a match are unknown.
    plain = match_luck(options, events, TableEvaluator({(6, 6): 0.36}), games=[1])
    assert plain.games[0].winnings is None and plain.luck_adjusted(1) is None


def test_an_unfinished_game_wins_nothing() -> None:
    rolls = [RollLuck(1, 0, (6, 6), 0.3, 0.3, 0.0, result_luck=0.3)]
    luck = MatchLuck([GameLuck(1, rolls)])
    adjusted = luck.luck_adjusted(0)
    assert adjusted is not None
    assert (adjusted.actual, adjusted.adjusted) == (0.0, pytest.approx(-0.3))


# --- stored reviews -----------------------------------------------------------------------------


def test_a_stored_review_keeps_the_pr_and_the_stakes_and_an_old_one_is_redone() -> None:
    import doctest
    import json

    from bot.computer import PlayerAnalysis, reviewcodec

    analysis = PlayerAnalysis(
        player=1,
        checker_decisions=30,
        checker_error=0.2,
        performance=PerformanceRating(PRPart(27, 0.2), PRPart(4, 0.05)),
    )
    rolls = [RollLuck(1, 1, (6, 6), 0.3, 0.4, 0.1, play=1, result_luck=0.6)]
    review = ({1: analysis}, MatchLuck([GameLuck(1, rolls, [], winner=1, winnings=2.0)]))
    text = reviewcodec.review_to_text(review)
    assert reviewcodec.review_from_text(text) == review
    older = json.loads(text)
    older["format"] = 1
    assert reviewcodec.review_from_text(json.dumps(older)) is None
    assert doctest.testmod(reviewcodec).failed == 0
