"""Who sits where: the order by the dice (C1) and the rotation after each game (C8).

Pure functions of the order; dice are an input (a function that returns one die).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

Die = Callable[[], int]


def order_by_dice(
    players: Sequence[int], die: Die
) -> tuple[tuple[int, ...], list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """Each player rolls one die; the highest is the box, the next the captain, and so on;
    players who tie roll again among themselves for their places (C1).

    Returns the order and every round rolled, as (players, their dice), for the story.
    """
    rounds: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def place(group: Sequence[int]) -> list[int]:
        if len(group) <= 1:
            return list(group)
        dice = tuple(die() for _ in group)
        rounds.append((tuple(group), dice))
        placed: list[int] = []
        for value in sorted(set(dice), reverse=True):
            placed += place([p for p, d in zip(group, dice, strict=True) if d == value])
        return placed

    return tuple(place(list(players))), rounds


def rotate(
    order: Sequence[int],
    *,
    box_stays: bool,
    partner: bool,
    waiting: Sequence[int] = (),
    leaving: Collection[int] = (),
) -> tuple[int, ...]:
    """The order for the next game (C8).

    Without a partner: the box beat the captain, so the box stays and the captain goes to
    the back of the line; else the captain becomes the box and the box goes to the back.
    With a partner (the FIBS chouette rules): the partnership keeps the box and the captain
    goes to the back; else the captain becomes the box, the next in line its partner, the
    old partner the captain, and the old box goes to the back. Players who joined during
    the game come in at the back of the line before the loser goes there (ahead of them,
    as the Cambridge rules say); players who left are taken out last.
    """
    line = [*order, *(p for p in waiting if p not in order)]
    if partner and len(order) >= 3:
        box, mate, captain, rest = line[0], line[1], line[2], line[3:]
        if box_stays:
            new = [box, mate, *rest, captain]
        elif rest:
            new = [captain, rest[0], mate, *rest[1:], box]
        else:
            new = [captain, mate, box]
    elif len(line) >= 2:
        box, captain, rest = line[0], line[1], line[2:]
        new = [box, *rest, captain] if box_stays else [captain, *rest, box]
    else:
        new = line
    return tuple(p for p in new if p not in leaving)


__all__ = ["Die", "order_by_dice", "rotate"]
