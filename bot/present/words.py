"""The vocabulary: each word for players written once (results, points, dice, cube...)."""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import Game, ResultKind
from bot.i18n import N_, Text, _

MESSAGE_LIMIT = 2000


# --- the vocabulary: each word for players written once -------------------------------------

RESULT_WORDS: dict[ResultKind, Text] = {
    ResultKind.SINGLE: _("a single game"),
    ResultKind.GAMMON: _("a gammon"),
    ResultKind.BACKGAMMON: _("a backgammon"),
}


def points_words(points: int) -> Text:
    """``1 point``, ``2 points`` (French ``0 point``, ``1 point``, ``2 points``)."""
    return N_("{n} point", "{n} points", points, n=points)


def minutes_words(minutes: int) -> Text:
    return N_("{n} minute", "{n} minutes", minutes, n=minutes)


def rolls_words(rolls: int) -> Text:
    return N_("{n} roll", "{n} rolls", rolls, n=rolls)


def dice_words(dice: tuple[int, int] | None) -> str:
    """A roll as players write it, in every language: ``6-5``."""
    return f"{dice[0]}-{dice[1]}" if dice else ""


def match_words(length: int, *, money: Text | None = None) -> Text:
    """``a 5-point match``, or (length 0) ``a money game`` unless ``money`` says otherwise."""
    if length:
        return _("a {length}-point match", length=length)
    return money if money is not None else _("a money game")


LEVEL_WORDS: dict[str, Text] = {
    "beginner": _("beginner"),
    "intermediate": _("intermediate"),
    "advanced": _("advanced"),
    "expert": _("expert"),
    "world-class": _("world-class"),
}


def level_words(level: str) -> Text | str:
    return LEVEL_WORDS.get(level, level)


Mention = Callable[[int, str], str]


def plain(_: int, name: str) -> str:
    return name


def perspective(game: Game) -> int:
    """Whose side to draw the board from: the player who must act, or the winner."""
    if game.actor is not None:
        return game.actor
    if game.result is not None:
        return game.result.winner
    return game.on_roll


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Trim text to a message limit, keeping the end (the newest news) when it must cut."""
    if len(text) <= limit:
        return text
    return "…" + text[-(limit - 1) :]


# --- the cube -------------------------------------------------------------------------------

CUBE_ACTION_WORDS: dict[str, Text] = {
    "No double, take": _("No double, take"),
    "No double, beaver": _("No double, beaver"),
    "Double, take": _("Double, take"),
    "Double, beaver": _("Double, beaver"),
    "Double, pass": _("Double, pass"),
    "Too good to double, take": _("Too good to double, take"),
    "Too good to double, pass": _("Too good to double, pass"),
    "No double": _("No double"),
    "No redouble, take": _("No redouble, take"),
    "No redouble, beaver": _("No redouble, beaver"),
    "Redouble, take": _("Redouble, take"),
    "Redouble, beaver": _("Redouble, beaver"),
    "Redouble, pass": _("Redouble, pass"),
    "Too good to redouble, take": _("Too good to redouble, take"),
    "Too good to redouble, pass": _("Too good to redouble, pass"),
    "No redouble": _("No redouble"),
}


def cube_action_words(text: str) -> Text | str:
    """A proper cube action as GNU Backgammon writes it (``Double, take``), translated."""
    return CUBE_ACTION_WORDS.get(text, text)
