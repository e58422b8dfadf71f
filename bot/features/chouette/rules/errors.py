"""Why a chouette action is refused, as a code: the words are chosen where it is shown.

Every verb of :mod:`.play` raises :class:`ChouetteError` with a :class:`Code` (and the facts
it names) and changes nothing, the way the engine's :class:`~bot.engine.NotAllowedNowError`
does; the feature's service turns it into the player's private refusal.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Code(StrEnum):
    """Every refusal of the chouette rules."""

    # the session
    FULL = "full"
    ALREADY_SEATED = "already-seated"
    NOT_SEATED = "not-seated"
    ALREADY_BEGUN = "already-begun"
    TOO_FEW = "too-few"  # most: the players needed
    SESSION_OVER = "session-over"
    NO_GAME = "no-game"
    # whose decision
    NOT_IN_TEAM = "not-in-team"
    NOT_THE_BOX = "not-the-box"
    NOT_THE_CAPTAIN = "not-the-captain"  # captain: who decides
    NOT_NOW = "not-now"  # the stage the game is at
    COMPUTER_DECIDES = "computer-decides"
    # the cubes
    CUBE_OUT = "cube-out"  # your cube is out of this game
    BOX_OWNS_CUBE = "box-owns-cube"
    MEMBER_OWNS_CUBE = "member-owns-cube"  # member
    ALREADY_DOUBLED = "already-doubled"
    CUBE_AT_MAXIMUM = "cube-at-maximum"
    NOTHING_TO_ANSWER = "nothing-to-answer"
    ANSWER_EVERY_DOUBLE = "answer-every-double"
    PICK_MEMBERS = "pick-members"
    BEAVERS_OFF = "beavers-off"
    TAKE_CAPTAIN = "take-captain"  # house rule: the box must take the captain's double
    TAKE_HALF = "take-half"  # house rule: at least half, or none; most: how many
    WAIT_LINE = "wait-line"  # house rule: the end of the line answers first; member: who
    CAPTAIN_LAST = "captain-last"  # house rule: the captain answers last
    MUST_BEAVER = "must-beaver"  # house rule: a captain taking alone beavers
    # checkers and advice
    NOT_LEGAL = "not-legal"  # play, dice
    NO_ADVICE = "no-advice"  # the session's consultation rule forbids it
    ADVICE_TEXT = "advice-text"


class ChouetteError(Exception):
    """A refused chouette action: ``code`` says why, ``params`` the facts it names."""

    def __init__(self, code: Code, **params: Any) -> None:
        self.code = code
        self.params = params
        details = ", ".join(f"{k}={v!r}" for k, v in params.items())
        super().__init__(f"{code}: {details}" if details else str(code))


__all__ = ["ChouetteError", "Code"]
