"""Glicko-2 against the worked example of Glickman's paper, and solves as rated games."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.features.puzzles.rules import GRADE_SCORES, Glicko, Grade, Outcome, rate, rate_attempt
from bot.features.puzzles.rules.glicko import SCALE, variance_and_improvement

# "Example of the Glicko-2 system" (Glickman): a player rated 1500, RD 200, volatility
# 0.06 plays three games in a period, tau = 0.5.
PLAYER = Glicko(1500, 200, 0.06)
GAMES = [
    Outcome(Glicko(1400, 30), 1.0),
    Outcome(Glicko(1550, 100), 0.0),
    Outcome(Glicko(1700, 300), 0.0),
]


def test_the_papers_worked_example() -> None:
    after = rate(PLAYER, GAMES, tau=0.5)
    # The paper: mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999 (step 8, to its digits),
    # so r' = 1464.06 and RD' = 151.52. It rounds every intermediate value to four
    # digits; unrounded, r' is 1464.0507 and RD' 151.5165, inside its last digit.
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.deviation / SCALE, 4) == 0.8722
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)  # 0.0599960 unrounded
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)


def test_the_papers_intermediate_values() -> None:
    # Steps 3 and 4: v = 1.7785, delta = -0.4834 with the paper's rounded g and E values.
    v, delta = variance_and_improvement(PLAYER, GAMES)
    assert v == pytest.approx(1.7785, abs=0.001)
    assert delta == pytest.approx(-0.4834, abs=0.001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(PLAYER, [])
    assert after.rating == 1500 and after.volatility == 0.06
    # Step 6 alone: phi' = sqrt(phi^2 + sigma^2).
    assert after.deviation == pytest.approx(SCALE * math.sqrt((200 / SCALE) ** 2 + 0.06**2))


def test_a_draw_between_equals_changes_no_rating() -> None:
    solver, puzzle = rate_attempt(Glicko(), Glicko(), Grade.DOUBTFUL)
    assert solver.rating == pytest.approx(1500) and puzzle.rating == pytest.approx(1500)
    assert solver.deviation < 350  # but both are better known now


def test_a_right_answer_moves_the_solver_up_and_the_puzzle_down() -> None:
    solver, puzzle = rate_attempt(Glicko(1500, 100), Glicko(1700, 80), Grade.RIGHT)
    assert solver.rating > 1500 and puzzle.rating < 1700
    solver, puzzle = rate_attempt(Glicko(1500, 100), Glicko(1700, 80), Grade.WRONG)
    assert solver.rating < 1500 and puzzle.rating > 1700


def test_the_grades_score_as_win_draw_loss() -> None:
    assert GRADE_SCORES == {Grade.RIGHT: 1.0, Grade.DOUBTFUL: 0.5, Grade.WRONG: 0.0}


def test_a_score_outside_zero_to_one_is_refused() -> None:
    with pytest.raises(ValueError, match="score"):
        Outcome(Glicko(), 1.5)


rating = st.floats(800, 2500)
deviation = st.floats(30, 350)
volatility = st.floats(0.03, 0.1)
glicko = st.builds(Glicko, rating, deviation, volatility)


@given(glicko, glicko, st.sampled_from(list(Grade)))
def test_a_solve_moves_the_two_ratings_in_opposite_directions(solver, puzzle, grade) -> None:
    new_solver, new_puzzle = rate_attempt(solver, puzzle, grade)
    up = new_solver.rating - solver.rating
    down = new_puzzle.rating - puzzle.rating
    assert up * down <= 1e-9
    if grade is Grade.RIGHT:
        assert up > 0
    if grade is Grade.WRONG:
        assert up < 0
    for after in (new_solver, new_puzzle):
        assert math.isfinite(after.rating) and 0 < after.deviation <= 350 * 1.01
        assert 0 < after.volatility < 0.2
