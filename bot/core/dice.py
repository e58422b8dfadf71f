"""Where dice come from. The engine never rolls; the session asks a :class:`Roller`.

Production dice come from ``secrets.SystemRandom`` (the operating system's entropy), so no
one can predict a roll from earlier ones; tests inject a :class:`ScriptedRoller`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Protocol


class Roller(Protocol):
    def die(self) -> int:
        """One die, 1-6."""
        ...


class SystemRoller:
    """Fair dice from the operating system's random source."""

    def __init__(self) -> None:
        self._random = secrets.SystemRandom()

    def die(self) -> int:
        return self._random.randint(1, 6)


class DiceExhausted(RuntimeError):
    """A scripted roller was asked for more dice than it was given."""


class ScriptedRoller:
    """Dice read from a list, for tests and reproducible demos.

    >>> r = ScriptedRoller([3, 1, 6, 6])
    >>> [r.die() for _ in range(4)]
    [3, 1, 6, 6]
    """

    def __init__(self, dice: Iterable[int] = ()) -> None:
        self._dice: list[int] = []
        self.extend(dice)

    def extend(self, dice: Iterable[int]) -> None:
        for die in dice:
            if not 1 <= die <= 6:
                raise ValueError(f"a die shows 1-6, not {die}")
            self._dice.append(die)

    def die(self) -> int:
        if not self._dice:
            raise DiceExhausted("the scripted dice ran out")
        return self._dice.pop(0)

    def remaining(self) -> int:
        return len(self._dice)
