"""Every word of a chouette: refusals, the story of each change, the seats and cubes at a
glance, the session table, the all-time table and the session log, in the reader's language.

Built from the chouette's facts (:mod:`bot.features.chouette.rules`: its events, its session
value, its records) and nothing else; names are given already formatted by the caller's
``display`` (escaped for Discord, plain in a file).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.errors import ChouetteRefusal
from bot.i18n import Text, _, join

Why = ChouetteRefusal

CHOUETTE_REFUSALS: dict[ChouetteRefusal, Text] = {
    Why.FULL: _("The table is full: a chouette seats {most} players."),
    Why.ALREADY_SEATED: _("You are already at this chouette's table."),
    Why.NOT_SEATED: _("You are not at this chouette's table: press Take a seat first."),
    Why.ALREADY_BEGUN: _("This chouette has already begun."),
    Why.TOO_FEW: _("A chouette needs at least {most} players: wait for more to join."),
    Why.SESSION_OVER: _("This chouette is over."),
    Why.NO_GAME: _("No game is being played in this chouette right now."),
    Why.NOT_IN_TEAM: _("Only the team's members can do that."),
    Why.NOT_THE_BOX: _("Only the box can do that now."),
    Why.NOT_THE_CAPTAIN: _("It is {captain}'s decision: they play for the team now."),
    Why.NOT_NOW: _("That is not possible at this point of the game."),
    Why.COMPUTER_DECIDES: _("The computer decides this one."),
    Why.CUBE_OUT: _("Your cube is out of this game: you dropped, or the box did."),
    Why.BOX_OWNS_CUBE: _("The box owns your cube: only the box can redouble it."),
    Why.MEMBER_OWNS_CUBE: _("{member} owns that cube: only they can redouble it."),
    Why.ALREADY_DOUBLED: _("You have already doubled: the box answers when the captain rolls."),
    Why.CUBE_AT_MAXIMUM: _("That cube is at its highest value."),
    Why.NOTHING_TO_ANSWER: _("There is no double for you to answer."),
    Why.ANSWER_EVERY_DOUBLE: _("Answer every double at once: take or drop each member's cube."),
    Why.PICK_MEMBERS: _("Pick the members whose cube you double."),
    Why.BEAVERS_OFF: _("Beavers are not played in this chouette."),
    Why.TAKE_CAPTAIN: _(
        "House rule: taking any double, the box must take the captain's ({captain})."
    ),
    Why.TAKE_HALF: _("House rule: take at least {most} of these doubles, or drop them all."),
    Why.WAIT_LINE: _("House rule: answers go from the end of the line: {member} answers first."),
    Why.CAPTAIN_LAST: _("House rule: the captain answers after the other members."),
    Why.MUST_BEAVER: _("House rule: the captain taking alone must beaver: press Beaver or Drop."),
    Why.NOT_LEGAL: _("That play is not legal now."),
    Why.NO_ADVICE: _("This chouette's consultation rule does not let you advise the captain now."),
    Why.ADVICE_TEXT: _("Write your suggestion in 1 to {most} characters."),
    Why.NO_CHOUETTE: _("There is no chouette in this channel: /chouette start begins one."),
    Why.CHOUETTE_HERE: _("A chouette is already being played here."),
    Why.GAME_HERE: _("A game is being played in this channel: start the chouette elsewhere."),
    Why.OLD_BUTTON: _(
        "That button is from an earlier moment of the chouette: use the latest board."
    ),
    Why.ENDS_BY_STARTER: _("Only the player who started the chouette, or a moderator, can end it."),
    Why.CAPTAIN_READS: _("Only the captain reads the team's suggestions."),
}


# --- buttons and short notices ------------------------------------------------------------

BUTTON_LABELS: dict[str, Text] = {
    "join": _("Take a seat"),
    "leave": _("Leave the table"),
    "begin": _("Begin"),
    "double": _("Double"),
    "pass": _("No double"),
    "roll": _("Roll"),
    "take": _("Take"),
    "drop": _("Drop"),
    "beaver": _("Beaver"),
    "takeall": _("Take all"),
    "dropall": _("Drop all"),
    "dblall": _("Double all"),
    "play": _("Play"),
    "suggest": _("Suggest"),
    "advice": _("Suggestions"),
}
CHOOSE_ANSWERS = _("The doubles you take (the others are dropped)")
CHOOSE_DOUBLES = _("The members you double")


def take_option(member: str, value: int) -> Text:
    return _("Take {member}'s double: cube at {value}", member=member, value=value)


def beaver_option(member: str, value: int) -> Text:
    return _("Beaver {member}'s double: cube at {value}", member=member, value=value)


def double_option(member: str, value: int) -> Text:
    return _("Double {member}: cube to {value}", member=member, value=value)


SUGGEST_TITLE = _("A suggestion to the captain")
SUGGEST_LABEL = _("Your suggestion (only the captain reads it)")
SUGGEST_PLACEHOLDER = _("13/7 8/7, or: double")
ADVICE_SENT = _("Sent: only the captain reads it.")


def ended_by(player: str) -> Text:
    return _("{player} ended the chouette.", player=player)


THREADS_MISSING = _("(The chouette stays in this channel: the bot may not open a thread here.)")


def thread_name(starter: str) -> Text:
    return _("Chouette at {player}'s table", player=starter)


def opened_in(place: str) -> Text:
    return _("A chouette table is open in {place}: join it there.", place=place)


def advice_lines(advice: Sequence[tuple[str, str]]) -> Text:
    """The team's suggestions, for the captain's eyes."""
    if not advice:
        return NO_SUGGESTIONS_YET
    return join([_("{player}: {text}", player=n, text=t) for n, t in advice], "\n")


NO_SUGGESTIONS_YET = _("No suggestions yet.")
