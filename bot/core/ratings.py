"""The FIBS rating formula, as pure functions.

Everyone starts at 1500 with experience 0. With ``D`` the rating difference and ``n`` the
match length (1 for a money game): ``P_upset = 1 / (10^(D*sqrt(n)/2000) + 1)``; the winner
gains ``4*K*sqrt(n)*P`` where ``P`` is ``1 - P_upset`` if the underdog won, else ``P_upset``;
the loser loses the same with their own ``K = max(1, 5 - experience/100)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0


@dataclass(frozen=True, slots=True)
class Rated:
    rating: float = START_RATING
    experience: int = 0


def k_factor(experience: int) -> float:
    return max(1.0, 5.0 - experience / 100.0)


def fibs_update(winner: Rated, loser: Rated, length: int) -> tuple[Rated, Rated]:
    """New (winner, loser) ratings after a match of ``length`` points (0 = money game).

    >>> w, l = fibs_update(Rated(), Rated(), 1)
    >>> round(w.rating, 6), round(l.rating, 6)
    (1510.0, 1490.0)
    """
    n = max(length, 1)
    difference = abs(winner.rating - loser.rating)
    p_upset = 1.0 / (10 ** (difference * math.sqrt(n) / 2000.0) + 1.0)
    underdog_won = winner.rating < loser.rating
    p = 1.0 - p_upset if underdog_won else p_upset
    gain = 4.0 * k_factor(winner.experience) * math.sqrt(n) * p
    loss = 4.0 * k_factor(loser.experience) * math.sqrt(n) * p
    return (
        Rated(winner.rating + gain, winner.experience + n),
        Rated(loser.rating - loss, loser.experience + n),
    )
