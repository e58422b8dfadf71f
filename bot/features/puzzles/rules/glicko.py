"""Glicko-2 ratings for puzzles and their solvers, as Glickman's paper computes them.

Mark E. Glickman, "Example of the Glicko-2 system" (glicko.net, 2013 revision): a rating,
a rating deviation (RD: how unsure the rating is) and a volatility (how erratic the player
is), updated once per rating period from the games of that period. Step numbers below are
the paper's; the new volatility is found with the Illinois algorithm of step 5.1, as the
paper does. The paper's worked example is a test (tests/puzzles/test_glicko.py).

**A solve is a game between the solver and the puzzle**, as on lichess ("each attempt to
solve is considered as a Glicko2 rated game between the player and the puzzle"), each
rated against the other's rating before the attempt, one attempt per rating period
(lichess updates at once, too). Lichess puzzles are won or lost; ours have three grades,
so a doubtful answer (GNU's "doubtful", a small error) is a draw: right = 1, doubtful =
1/2, wrong = 0 for the solver, the reverse for the puzzle. As on lichess, only a solver's
first attempt at a puzzle is rated (the caller knows which that is).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.features.puzzles.rules.model import Grade

__all__ = [
    "DEFAULT_TAU",
    "GRADE_SCORES",
    "Glicko",
    "Outcome",
    "rate",
    "rate_attempt",
]

SCALE = 173.7178  # the paper's factor between the Glicko and the Glicko-2 scales
DEFAULT_TAU = 0.5  # the system constant: how much the volatility may change (paper: 0.3-1.2)
EPSILON = 0.000001  # the convergence tolerance of step 5 (the paper's value)
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06

# What a solver scores against the puzzle for each grade (see the module docstring).
GRADE_SCORES: dict[Grade, float] = {Grade.RIGHT: 1.0, Grade.DOUBTFUL: 0.5, Grade.WRONG: 0.0}


@dataclass(frozen=True, slots=True)
class Glicko:
    """A rating on the Glicko scale (1500 for a newcomer), its RD and its volatility."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def __post_init__(self) -> None:
        if not (self.deviation > 0 and self.volatility > 0):
            raise ValueError(f"{self}: the deviation and the volatility must be positive")

    @property
    def mu(self) -> float:
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.deviation / SCALE


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game of a rating period: the opponent (as rated before it) and the score."""

    opponent: Glicko
    score: float  # 1 a win, 1/2 a draw, 0 a loss

    def __post_init__(self) -> None:
        if not 0.0 <= self.score <= 1.0:
            raise ValueError(f"a score of {self.score} is not between 0 and 1")


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def variance_and_improvement(player: Glicko, outcomes: Sequence[Outcome]) -> tuple[float, float]:
    """Steps 3 and 4: the estimated variance ``v`` and improvement ``delta`` of a period."""
    inverse_v = 0.0
    total = 0.0
    for outcome in outcomes:
        g = _g(outcome.opponent.phi)
        expected = _expected(player.mu, outcome.opponent.mu, outcome.opponent.phi)
        inverse_v += g * g * expected * (1.0 - expected)
        total += g * (outcome.score - expected)
    v = 1.0 / inverse_v
    return v, v * total


def _new_volatility(player: Glicko, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm (a regula falsi that halves)."""
    phi, sigma = player.phi, player.volatility
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, outcomes: Sequence[Outcome], *, tau: float = DEFAULT_TAU) -> Glicko:
    """The player's rating after a rating period with ``outcomes`` (steps 2 to 8).

    With no games the rating and volatility stay and only the RD grows (step 6 alone), as
    the paper prescribes for a player who did not compete.
    """
    if not outcomes:
        phi = math.sqrt(player.phi**2 + player.volatility**2)
        return Glicko(player.rating, phi * SCALE, player.volatility)
    v, delta = variance_and_improvement(player, outcomes)
    sigma = _new_volatility(player, v, delta, tau)
    phi_star = math.sqrt(player.phi**2 + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu = player.mu + phi * phi * (delta / v)
    return Glicko(mu * SCALE + START_RATING, phi * SCALE, sigma)


def rate_attempt(
    solver: Glicko, puzzle: Glicko, grade: Grade, *, tau: float = DEFAULT_TAU
) -> tuple[Glicko, Glicko]:
    """(solver, puzzle) after one rated attempt: a game between them, graded as above."""
    score = GRADE_SCORES[grade]
    return (
        rate(solver, [Outcome(puzzle, score)], tau=tau),
        rate(puzzle, [Outcome(solver, 1.0 - score)], tau=tau),
    )
