"""Errors the rules engine raises, each a ``ValueError`` whose message a player can act on.

The three families answer three different questions a player asks after a refusal:
"did I type it wrong?" (:class:`InvalidNotationError`), "why is that move illegal?"
(:class:`IllegalPlayError`) and "why can't I do that now?" (:class:`NotAllowedNowError`).
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidPositionError(EngineError):
    """A board, Position ID or Match ID that does not describe a real position."""


class InvalidNotationError(EngineError):
    """Text that is not backgammon move notation at all (bad syntax)."""


class IllegalPlayError(EngineError):
    """Well-formed notation for a play that the rules do not allow with this roll."""


class NotAllowedNowError(EngineError):
    """An action the game's current phase, cube or options do not allow."""
