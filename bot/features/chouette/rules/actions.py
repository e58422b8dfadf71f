"""The chouette's verb table: every action a seat takes, named once, and its rule.

Like the game's :data:`bot.core.actions.RULES`, one table maps each :class:`ChouetteAction`
to the function of :mod:`.play` that applies it, so every front end (the buttons, the
commands, the tap picker) and the computer's seat name an action and go through the same
rules. Each rule takes the session, the acting player, the dice and its own parameters.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from bot.features.chouette.rules import play as verbs
from bot.features.chouette.rules.seats import Die
from bot.features.chouette.rules.state import Answer, Chouette, Seat


class ChouetteAction(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    BEGIN = "begin"
    DOUBLE = "double"  # a member in the window; the box with ``members``
    NO_DOUBLE = "no-double"
    ROLL = "roll"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    ANSWER = "answer"  # the box's answers to the team's doubles, ``answers`` per member
    MOVE = "move"
    ADVISE = "advise"
    FOLLOW = "follow"  # idle members follow the captain (the session's clock)
    END = "end"


Rule = Callable[..., verbs.Applied]


def _join(s: Chouette, player: int, die: Die, *, seat: Seat) -> verbs.Applied:
    if seat.id != player:
        raise ValueError("a player takes their own seat")
    return verbs.join(s, seat)


def _answer(answer: Answer) -> Rule:
    def rule(s: Chouette, player: int, die: Die) -> verbs.Applied:
        return verbs.answer_member(s, player, answer, die)

    return rule


RULES: dict[ChouetteAction, Rule] = {
    ChouetteAction.JOIN: _join,
    ChouetteAction.LEAVE: lambda s, player, die: verbs.leave(s, player, die),
    ChouetteAction.BEGIN: lambda s, player, die: verbs.begin(s, player, die),
    ChouetteAction.DOUBLE: lambda s, player, die, members=None: verbs.double(
        s, player, die, members
    ),
    ChouetteAction.NO_DOUBLE: lambda s, player, die: verbs.no_double(s, player),
    ChouetteAction.ROLL: lambda s, player, die: verbs.roll(s, player, die),
    ChouetteAction.TAKE: _answer(Answer.TAKE),
    ChouetteAction.DROP: _answer(Answer.DROP),
    ChouetteAction.BEAVER: _answer(Answer.BEAVER),
    ChouetteAction.ANSWER: lambda s, player, die, answers: verbs.answer_box(
        s, player, answers, die
    ),
    ChouetteAction.MOVE: lambda s, player, die, play: verbs.move(s, player, play, die),
    ChouetteAction.ADVISE: lambda s, player, die, text: verbs.advise(s, player, text),
    ChouetteAction.FOLLOW: lambda s, player, die, members: verbs.follow_captain(s, members, die),
    ChouetteAction.END: lambda s, player, die: verbs.end(s, player),
}


def apply(
    session: Chouette, action: ChouetteAction, player: int, die: Die, **params: Any
) -> verbs.Applied:
    """Run ``action`` for ``player`` through :data:`RULES`."""
    return RULES[action](session, player, die, **params)


__all__ = ["RULES", "ChouetteAction", "apply"]
