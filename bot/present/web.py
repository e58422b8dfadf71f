"""The words of the web pages and the Activity, in the reader's language.

The browser gets them once, with the page, as a flat mapping from a key to finished text;
the client never translates. Its keys are the client's (``web/src``).
"""

from __future__ import annotations

from bot.i18n import Text, _, say

WEB_WORDS: dict[str, Text] = {
    "live": _("Live board"),
    "replay": _("Replay"),
    "leaderboard": _("Leaderboard"),
    "connecting": _("Connecting…"),
    "reconnecting": _("Connection lost, reconnecting…"),
    "waiting_discord": _("Waiting for Discord…"),
    "no_game": _("No game in this channel. Start one with /backgammon challenge."),
    "challenge": _("Waiting for the challenge to be accepted."),
    "spectator": _("You are watching."),
    "your_turn": _("Your turn."),
    "their_turn": _("{name} to play."),
    "roll": _("Roll"),
    "double": _("Double"),
    "take": _("Take"),
    "beaver": _("Beaver"),
    "drop": _("Drop"),
    "accept": _("Accept"),
    "reject": _("Reject"),
    "resigns": _("{name} offers to resign."),
    "undo": _("Undo"),
    "confirm": _("Play {play}"),
    "tap_checker": _("Tap a checker to move."),
    "tap_target": _("Tap where it goes."),
    "game": _("Game {number}"),
    "score": _("Score"),
    "match_to": _("match to {length}"),
    "money": _("money game"),
    "cube": _("Cube {value}"),
    "winner": _("{name} wins."),
    "over": _("This match is over."),
    "first": _("Start"),
    "back": _("Back"),
    "forward": _("Forward"),
    "last": _("End"),
    "error_lost": _("Equity lost: {value}"),
    "win_chance": _("Win chances"),
    "no_analysis": _("The analysis is not available."),
    "analysing": _("Analysing…"),
    "player": _("Player"),
    "rating": _("Rating"),
    "matches": _("Matches"),
    "wins": _("Wins"),
    "not_found": _("No such match."),
    "refused": _("Discord did not confirm who you are here."),
    # Who may see what (issue 41): the pages a visitor gets instead of a match.
    "sign_in": _("Sign in with Discord"),
    "sign_out": _("Sign out"),
    "signed_in_as": _("Signed in as {name}"),
    "private_title": _("Only for who can see it in Discord"),
    "private_sign_in": _(
        "This is from a channel not every member of its server can see. Sign in with Discord:"
        " if you can see that channel, it opens."
    ),
    "private_no_sign_in": _(
        "This is from a channel not every member of its server can see, and this bot's web"
        " board has no Discord sign-in set up."
    ),
    "forbidden": _(
        "You cannot see this in Discord, so you cannot see it here either. Signed in as"
        " the wrong account? Sign out and in again."
    ),
    "unavailable": _("Discord did not answer, so nobody can be let in right now. Try again."),
    "not_found_page": _("Nothing here: the link is wrong, or it was withdrawn."),
    "leaderboard_private": _(
        "This server's leaderboard is for its members: sign in with Discord to see it."
    ),
    "sign_in_failed": _("Signing in did not work. Try again from the page you were on."),
    "leaderboard_of": _("Leaderboard of {server}"),
}


def web_words(language: str) -> dict[str, str]:
    """Every word of the pages in ``language`` (placeholders such as ``{name}`` are kept
    for the client to fill)."""
    return {key: say(text, language) for key, text in WEB_WORDS.items()}


__all__ = ["WEB_WORDS", "web_words"]
