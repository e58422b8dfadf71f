"""Errors whose text is meant for the player, raised by the session layer.

The command layer shows ``str(error)`` privately (ephemerally) and changes nothing; any
other exception is a bug, logged and answered with a generic apology.
"""

from __future__ import annotations


class UserError(Exception):
    """Something the player asked for cannot be done; the message says what to do instead."""


class NoGameError(UserError):
    """There is no live game or challenge in this channel."""


class NotYourTurnError(UserError):
    """The player may not act now (out of turn, or not in this game at all)."""


class ChannelBusyError(UserError):
    """The channel already holds a live game or a pending challenge."""


class ConflictError(UserError):
    """Another action changed the game first; the player should look again and retry."""
