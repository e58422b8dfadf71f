"""Cube theory: the right double, take, drop or beaver, given the equities of each.

Pure and evaluator-free: the functions here take :class:`~bot.computer.evaluator.CubeEquities`
(the doubler's equity after no double, a double taken and a double passed) and the game's
options, and say what each side should do. The computer's own choices
(:mod:`bot.computer.player`) and the hints and analysis (:mod:`bot.computer.analysis`) both
decide through them, so a cube hint never disagrees with what the computer itself does.

Equities are the doubler's, normalized to the cube now; the receiver answers so as to
minimize them.
"""

from __future__ import annotations

from enum import StrEnum

from bot.computer.evaluator import CubeEquities
from bot.engine import Game, Play

__all__ = [
    "CubeAction",
    "CubeDecision",
    "Decision",
    "beaver_take_value",
    "beaver_value",
    "beavers_allowed",
    "best_response",
    "proper_action",
    "responses",
]


class CubeDecision(StrEnum):
    """A cube action as a decision someone made (the input to :func:`bot.computer.analyze`)."""

    NO_DOUBLE = "no_double"  # rolled without doubling
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


Decision = Play | CubeDecision


class CubeAction(StrEnum):
    """The proper cube action, in GNU Backgammon's words."""

    NO_DOUBLE_TAKE = "No double, take"
    NO_DOUBLE_BEAVER = "No double, beaver"
    DOUBLE_TAKE = "Double, take"
    DOUBLE_BEAVER = "Double, beaver"
    DOUBLE_PASS = "Double, pass"
    TOO_GOOD_TAKE = "Too good to double, take"
    TOO_GOOD_PASS = "Too good to double, pass"
    NO_DOUBLE = "No double"  # the cube cannot be turned now


def beaver_value(double_take: float) -> float:
    """The doubler's equity after a beaver, from the equity of a plain take."""
    # After a beaver the doubler takes the redouble (twice the take) or drops it (-2).
    return max(2.0 * double_take, -2.0)


def responses(equities: CubeEquities, beavers: bool) -> dict[CubeDecision, float]:
    """The doubler's equity after each answer the receiver may give (the receiver minimizes)."""
    options = {
        CubeDecision.TAKE: equities.double_take,
        CubeDecision.DROP: equities.double_pass,
    }
    if beavers:
        options[CubeDecision.BEAVER] = beaver_value(equities.double_take)
    return options


def best_response(options: dict[CubeDecision, float]) -> CubeDecision:
    """The receiver's best answer among ``options`` (see :func:`responses`)."""
    return min(options, key=options.__getitem__)  # ties go to the take, listed first


def proper_action(equities: CubeEquities, beavers: bool) -> CubeAction:
    """The proper cube action for both sides, as GNU Backgammon names it."""
    options = responses(equities, beavers)
    response = best_response(options)
    if options[response] > equities.no_double:
        return {
            CubeDecision.TAKE: CubeAction.DOUBLE_TAKE,
            CubeDecision.BEAVER: CubeAction.DOUBLE_BEAVER,
        }.get(response, CubeAction.DOUBLE_PASS)
    if equities.no_double >= equities.double_pass:
        if response is CubeDecision.DROP:
            return CubeAction.TOO_GOOD_PASS
        return CubeAction.TOO_GOOD_TAKE
    if response is CubeDecision.BEAVER:
        return CubeAction.NO_DOUBLE_BEAVER
    return CubeAction.NO_DOUBLE_TAKE


def beavers_allowed(game: Game) -> bool:
    """Whether the player answering the pending double in ``game`` may beaver it."""
    return (
        game.options.is_money
        and game.options.beavers
        and not game.beaver_pending
        and game.cube * 4 <= 1 << 15
    )


def beaver_take_value(owned: CubeEquities) -> float:
    """After a beaver, the doubler's equity for taking it, per cube now (drop: -1).

    ``owned`` are the equities of the position with the beaverer owning the cube (what
    ``CubeContext.for_game`` gives once the beaver is pending).
    """
    return 2.0 * owned.no_double
