"""Errors whose text is meant for the player, raised by the session layer.

Their text is a :class:`~bot.i18n.Text` built with ``_()`` (a message id and its
parameters), so the reader's language is chosen only when it is shown.

The command layer shows ``error.text`` privately (ephemerally), in the reader's language
(:func:`bot.i18n.say`), and changes nothing; any other exception is a bug, logged and
answered with a generic apology. ``str(error)`` is the English text, for logs.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import Text, _


class UserError(Exception):
    """Something the player asked for cannot be done; the message says what to do instead."""

    def __init__(self, text: Text | str) -> None:
        super().__init__(str(text))
        self.text: Text | str = text

    def __reduce__(self) -> tuple[object, ...]:
        # Raised in a worker process and pickled back: keep the Text (and any attributes a
        # subclass set), whatever the subclass's own constructor takes.
        return (_rebuild, (type(self), self.text), dict(self.__dict__))


def _rebuild(cls: type[UserError], text: Text | str) -> UserError:
    error = cls.__new__(cls)
    Exception.__init__(error, str(text))
    error.text = text
    return error


CHANNEL_BUSY = _(
    "This channel already has a game or a challenge. Finish it first, or play in another "
    "channel or thread."
)
CONFLICT = _("The game changed while you were acting; look again and retry.")
STORE_DOWN = _("The database is unavailable right now, so nothing changed. Try again in a minute.")
STORE_IN_DOUBT = _(
    "The database stopped answering while your action was being saved, so it may or may not "
    "have been stored. /backgammon board shows the game as it is, once the database is back."
)


class NoGameError(UserError):
    """There is no live game or challenge in this channel."""


class NotYourTurnError(UserError):
    """The player may not act now (out of turn, or not in this game at all)."""


class ChannelBusyError(UserError):
    """The channel already holds a live game or a pending challenge."""

    def __init__(self, text: Text | str | None = None) -> None:
        super().__init__(CHANNEL_BUSY if text is None else text)


class ConflictError(UserError):
    """Another action changed the game first; the player should look again and retry."""

    def __init__(self, text: Text | str | None = None) -> None:
        super().__init__(CONFLICT if text is None else text)


class StoreUnavailableError(UserError):
    """The database cannot be reached (stopped, restarting, out of disk or connections) and
    nothing was written: the player may simply try again once it is back."""

    def __init__(self, text: Text | str | None = None) -> None:
        super().__init__(STORE_DOWN if text is None else text)


class StoreInDoubtError(StoreUnavailableError):
    """The database went away after a write was sent and before it answered: the write may
    or may not have been committed, so the player is told to look before trying again."""

    def __init__(self, text: Text | str | None = None) -> None:
        super().__init__(STORE_IN_DOUBT if text is None else text)


class StaleButtonError(UserError):
    """A button (or command) named a game that is no longer the channel's live one."""


class StoreOpenError(Exception):
    """The database cannot be opened or migrated; the message is one line for the operator."""


class UnreadableMatchError(Exception):
    """A stored match's state no longer parses; the session quarantines it."""

    def __init__(self, match_id: int, channel_id: int, reason: str) -> None:
        super().__init__(f"match {match_id} in channel {channel_id} cannot be read: {reason}")
        self.match_id = match_id
        self.channel_id = channel_id
        self.reason = reason
        self.shell: Any = None  # a MatchRow of what could be read, set by the store
