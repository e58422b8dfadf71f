"""The tap picker's words: its buttons, menus, options and the line above its picture.

Moves stay in the standard notation in every language (``24/18*/13``, ``bar/22``,
``6/off``); what a choice *does* (which dice, a hit, bearing off) is said in words. Points
are numbered from the player's own side, as they read them on their board.

May import: :mod:`bot.engine` and :mod:`bot.i18n`; nothing of Discord.
"""

from __future__ import annotations

from bot.engine import Dice, format_moves
from bot.engine.position import BAR, OFF
from bot.engine.steps import Destination, PartialPlay, Source
from bot.i18n import N_, Text, _

PLAY = _("Play")
UNDO = _("Undo")
RESET = _("Reset")
CONFIRM = _("Confirm")
RESIGN = _("Resign")
BACK = _("Back")
CHOOSE_CHECKER = _("Choose a checker to move")
CHOOSE_PLAY = _("Or pick a whole play")
CHOOSE_KIND = _("How much do you concede?")
RESIGN_KINDS = (_("A single game"), _("A gammon"), _("A backgammon"))

GAME_OVER = _("That game is over: there is nothing left to play with this picker.")
NO_TURN = _("There is no play to make in this channel now.")
STALE = _("That turn is over: press Play on the latest board to move again.")
GONE = _("That choice is no longer possible: press Reset, or Play on the latest board.")


def not_yours(player: str) -> Text:
    """The refusal for anyone but the player to move (``player``: an escaped name)."""
    return _("Only {player} can move now; this picker is theirs.", player=player)


def where_to(source: int) -> Text:
    """The destination menu's placeholder."""
    if source == BAR:
        return _("Enter from the bar: where to?")
    return _("From the {point}-point: where to?", point=source)


def source_label(source: Source) -> Text:
    if source.point == BAR:
        return N_("Bar ({n} checker)", "Bar ({n} checkers)", source.checkers, n=source.checkers)
    return N_(
        "{point}-point ({n} checker)",
        "{point}-point ({n} checkers)",
        source.checkers,
        point=source.point,
        n=source.checkers,
    )


def destination_label(destination: Destination) -> str:
    """The move in standard notation, the same in every language: ``24/18*/13``."""
    return format_moves(destination.moves)


def destination_description(destination: Destination) -> Text:
    """Which dice the move uses, and whether it hits or bears off."""
    dice = "+".join(str(d) for d in destination.dice)
    hits = destination.hits
    if destination.target == OFF:
        return _("bears off with {dice}", dice=dice)
    if hits:
        points = ", ".join(str(p) for p in hits)
        return N_(
            "with {dice}, hits on the {points}-point",
            "with {dice}, hits on points {points}",
            len(hits),
            dice=dice,
            points=points,
        )
    return _("with {dice}", dice=dice)


def status_line(partial: PartialPlay, dice: Dice) -> Text:
    """The line above the picture: the roll, the play so far, what is left to do."""
    roll = f"{dice[0]}-{dice[1]}"
    if partial.complete:
        return _(
            "Your {roll}: {play}. Press Confirm to play it, or Undo.",
            roll=roll,
            play=str(partial.play()) or "-",
        )
    left = " ".join(str(d) for d in sorted(partial.remaining, reverse=True))
    if not partial.moves:
        return _("Your {roll}: choose a checker to move (dice left: {left}).", roll=roll, left=left)
    return _(
        "Your {roll}: {play} so far; dice left: {left}.",
        roll=roll,
        play=format_moves(partial.moves),
        left=left,
    )


def played_line(play: str) -> Text:
    """What the picker says once its play is sent."""
    return _("Played: {play}.", play=play or "-")


RESIGN_SENT = _("Your resignation offer is on the board.")
