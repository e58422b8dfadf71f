"""Seeding: the order of the field at the draw, at random or by rating.

The random draw takes its seed as an input (the storage layer keeps it, so a draw can be
shown again and checked), never the clock. By rating, unrated players come last, in a
random order among themselves, and equal ratings are ordered by the same random draw.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum

from bot.features.tournaments.rules.model import Entrant, PlayerId


class Seeding(StrEnum):
    RANDOM = "random"
    RATING = "rating"


def seed(entrants: Sequence[Entrant], method: Seeding, *, rng_seed: int) -> tuple[PlayerId, ...]:
    """The players in seed order (seed 1 first).

    The result depends only on the entrants as a set, the method and ``rng_seed``: the
    order of joining does not change the draw.

    >>> field = [Entrant(3, 1600.0), Entrant(1, None), Entrant(2, 1700.0)]
    >>> seed(field, Seeding.RATING, rng_seed=7)
    (2, 3, 1)
    """
    players = sorted(entrants, key=lambda e: e.player)
    if len({e.player for e in players}) != len(players):
        raise ValueError("a player is entered twice")
    rng = random.Random(rng_seed)
    rng.shuffle(players)
    if method is Seeding.RATING:
        # A stable sort keeps the shuffled order among equals and among the unrated.
        players.sort(key=lambda e: (e.rating is None, -(e.rating or 0.0)))
    return tuple(e.player for e in players)


def bracket_order(size: int) -> tuple[int, ...]:
    """Seed numbers in the order of a knockout's first-round slots (size a power of two).

    Seed 1 meets the last seed, and seeds 1 and 2 can meet only in the final: the order
    is built by replacing each seed ``s`` of the bracket half the size with ``s`` and
    ``size + 1 - s``.

    >>> bracket_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    >>> bracket_order(16)[:4]
    (1, 16, 8, 9)
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket size is a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for top in order for s in (top, total - top)]
    return tuple(order)


def snake_groups(players: Sequence[PlayerId], group_count: int) -> tuple[tuple[PlayerId, ...], ...]:
    """Deal seeded players into groups back and forth (1 2 3 3 2 1 ...), so every group
    gets a fair share of strong and weak seeds and sizes differ by at most one.

    >>> snake_groups([1, 2, 3, 4, 5, 6, 7], 3)
    ((1, 6, 7), (2, 5), (3, 4))
    """
    if group_count < 1:
        raise ValueError("at least one group")
    groups: list[list[PlayerId]] = [[] for _ in range(group_count)]
    for index, player in enumerate(players):
        lap, at = divmod(index, group_count)
        groups[at if lap % 2 == 0 else group_count - 1 - at].append(player)
    return tuple(tuple(group) for group in groups)
