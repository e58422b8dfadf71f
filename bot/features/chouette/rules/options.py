"""The house rules a chouette session is played under: every switch in one value.

The defaults are the commonest club rules of the sources (``docs/chouette.md``): Jacoby on,
no beavers, consultation only once your own cube is turned, the box free to answer each
double as it likes, answers in any order, rotation by the result between the box and the
captain. Every other switch is a rule some club plays (the Sydney scorer's list).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MAX_PLAYERS = 6  # the ACT club's limit; LA splits a seven-handed game
MIN_TO_BEGIN = 3  # a chouette; two players left later play on as a plain money game
PARTNER_FROM = 6  # the box may take a partner from six players


class Consultation(StrEnum):
    """Who may give the captain advice (the Suggest button)."""

    NONE = "none"  # the captain decides alone
    CUBE_TURNED = "cube-turned"  # "no cube, no talk": only members whose own cube is turned
    FULL = "full"  # every member still in the game, cube decisions included


class AnswerOrder(StrEnum):
    """In what order the members doubled by the box answer."""

    FREE = "free"  # each as they like
    LINE_TO_CAPTAIN = "line-to-captain"  # from the end of the line to the captain


class Rotation(StrEnum):
    """What keeps the box in the box after a game."""

    CAPTAIN = "captain"  # the box beat the captain
    NET = "net"  # the box did not lose points over the game (a Los Angeles variant)


@dataclass(frozen=True, slots=True)
class ChouetteOptions:
    """A session's switches; ``level`` is the computer's strength when it takes a seat."""

    jacoby: bool = True
    beavers: bool = False
    consultation: Consultation = Consultation.CUBE_TURNED
    box_takes_captain: bool = False  # taking any double, the box must take the captain's
    box_takes_half: bool = False  # doubled by several at once: take at least half, or none
    answer_order: AnswerOrder = AnswerOrder.FREE
    captain_must_beaver: bool = False  # a captain who alone takes the box's double beavers it
    partner: bool = False  # from six players the box has a partner sharing its result
    auto_doubles: int = 0  # cube turns on tied opening rolls (at the box's option: 0 is none)
    rotation: Rotation = Rotation.CAPTAIN
    level: str = "expert"

    def __post_init__(self) -> None:
        if not 0 <= self.auto_doubles <= 3:
            raise ValueError(f"automatic doubles are 0 to 3, not {self.auto_doubles}")


__all__ = [
    "MAX_PLAYERS",
    "MIN_TO_BEGIN",
    "PARTNER_FROM",
    "AnswerOrder",
    "ChouetteOptions",
    "Consultation",
    "Rotation",
]
