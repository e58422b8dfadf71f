"""The competition core's refusals as the player's typed refusals.

The core (:mod:`bot.features.tournaments.rules`) refuses a request by raising a
:class:`CompetitionError`
subclass; the tournament and ladder services hand the player a :class:`UserError` carrying
the matching :class:`~bot.core.errors.CompetitionRefusal`, worded by ``bot.present.refusals``.
May import: the competition core and :mod:`bot.core.errors`; never :mod:`bot.present`.
"""

from __future__ import annotations

from bot.core.errors import CompetitionRefusal, UserError
from bot.features.tournaments.rules import CompetitionError, lifecycle
from bot.features.tournaments.rules import ladder as ladder_rules
from bot.features.tournaments.rules.knockout import LateEntryClosed
from bot.features.tournaments.rules.model import NotReady, ResultConflict, ResultError, UnknownMatch
from bot.features.tournaments.rules.swiss import RoundIncomplete

Why = CompetitionRefusal

RULES: dict[type[CompetitionError], CompetitionRefusal] = {
    lifecycle.IllegalTransition: Why.CANNOT_NOW,
    lifecycle.RegistrationClosed: Why.REGISTRATION_CLOSED,
    lifecycle.EventFull: Why.EVENT_FULL,
    lifecycle.AlreadyEntered: Why.ALREADY_IN,
    lifecycle.NotEntered: Why.NOT_ENTERED,
    lifecycle.TooFewPlayers: Why.TOO_FEW_PLAYERS,
    RoundIncomplete: Why.ROUND_INCOMPLETE,
    LateEntryClosed: Why.LATE_ENTRY_CLOSED,
    NotReady: Why.MATCH_NOT_READY,
    ResultConflict: Why.RESULT_CONFLICT,
    ResultError: Why.RESULT_MISFIT,
    UnknownMatch: Why.UNKNOWN_MATCH,
    ladder_rules.NotOnLadder: Why.NOT_ON_LADDER,
    ladder_rules.OutOfReach: Why.OUT_OF_REACH,
    ladder_rules.ChallengeLimit: Why.CHALLENGE_LIMIT,
    ladder_rules.ChallengeClosed: Why.CHALLENGE_CLOSED,
    ladder_rules.NotYourChallenge: Why.NOT_YOUR_CHALLENGE,
}


def rule_refusal(error: CompetitionError) -> CompetitionRefusal:
    """The refusal of a competition rule (its nearest kind; "cannot now" for any other)."""
    for kind in type(error).__mro__:
        if kind in RULES:
            return RULES[kind]
    return Why.CANNOT_NOW


def refused(error: CompetitionError) -> UserError:
    """The player's private error for a refused competition rule."""
    return UserError(rule_refusal(error))


__all__ = ["RULES", "refused", "rule_refusal"]
