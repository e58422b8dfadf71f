"""The words of the web pages and the Activity, in the reader's language.

The browser gets them once, with the page, as a flat mapping from a key to finished text;
the client never translates. Its keys are the client's (``web/src``).
"""

from __future__ import annotations

from bot.i18n import N_, Text, _, say

WEB_WORDS: dict[str, Text] = {
    "live": _("Live board"),
    "replay": _("Replay"),
    "leaderboard": _("Leaderboard"),
    "chouette_title": _("Chouette #{number}"),
    "chouette_table": _("Session table"),
    "chouette_follows": _("This page follows the table: it reloads every five seconds."),
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
    # The board's panels, as the board picture has them (bot.present.labels.board_words).
    "pips": _("PIPS"),
    "score_label": _("SCORE"),
    "asks_opening": _("opening roll"),
    "asks_roll": _("to roll"),
    "asks_roll_or_double": _("to roll or double"),
    "asks_move": _("to move"),
    "asks_take_or_drop": _("to take or drop"),
    "asks_accept_or_reject": _("to accept or reject"),
    "doubles_to": _("doubles to {cube}"),
    "resigns_kind": _("resigns {kind}"),
    "wins_points": _("wins {points}"),
    # A count of points: the client picks the form (in both languages, 1 is singular).
    "point": N_("{n} point", "{n} points", 1, n="{n}"),
    "points": N_("{n} point", "{n} points", 2, n="{n}"),
    "kind_name_1": _("a single game"),
    "kind_name_2": _("a gammon"),
    "kind_name_3": _("a backgammon"),
    "match_terms": _("{length}-point match"),
    "crawford": _("Crawford game"),
    "money_terms": _("Money game · stake {cube}"),
    "played": _("{name} played {play}."),
    "waiting": _("Waiting for {name} · {time}"),
    "seconds": _("{n} s"),
    "minutes": _("{n} min"),
    "hours": _("{h} h {m} min"),
    "days": _("{d} d {h} h"),
    # The move list: one line per play or cube action (bot.present.story.history_lines).
    "moves": _("Moves"),
    "no_moves": _("No moves yet."),
    "step_opening": _("Opening: {first} {a}, {second} {b}"),
    "step_move": _("{who} {dice}: {play}"),
    "step_pass": _("{who} {dice}: cannot move"),
    "step_double": _("{who} doubles"),
    "step_take": _("{who} takes"),
    "step_beaver": _("{who} beavers"),
    "step_drop": _("{who} drops"),
    "step_resign": _("{who} offers to resign ({what})"),
    "kind_1": _("single"),
    "kind_2": _("gammon"),
    "kind_3": _("backgammon"),
    "step_resign_accept": _("{who} accepts the resignation"),
    "step_resign_reject": _("{who} rejects the resignation"),
    "step_claim_match": _("{who} claims the match by forfeit (opponent idle)"),
    "step_claim_game": _("{who} claims the game (opponent idle)"),
    "game_won": _("{winner} wins {points}"),
    "match_won": _("{winner} wins the match {a}–{b}."),
    "viewing": _("An earlier position: Live follows the game again."),
    "back_live": _("Live"),
    # The replay.
    "move_of": _("Move {n} of {total}"),
    "game_start": _("Game {number}: start"),
    "next_game": _("Next game"),
    "next_blunder": _("Next blunder"),
    "no_blunder": _("No blunder after this position."),
    "copy_link": _("Copy link"),
    "copied": _("Link copied."),
    "blunder": _("blunder"),
    "chances": _("Chance of winning: {a} {pa}% · {b} {pb}%"),
    "chart_of": _("{name}'s chance of winning, game {number}"),
    # / opened in a browser: what this is.
    "landing_title": _("Backgammon in Discord: the web board"),
    "landing_what": _(
        "This is the web board of a backgammon bot for Discord: the live board and the replay"
        " of games played in Discord servers, and each server's leaderboard."
    ),
    "landing_links": _(
        "Games open from the links the bot posts in Discord: Watch live on a board, Replay"
        " once a match is over. Each opens only for someone who can see it in Discord."
    ),
    "landing_activity": _(
        "Inside Discord the same board also opens as an Activity (Open the board), where the"
        " players play by tapping their checkers."
    ),
    "landing_sign_in": _(
        "Games of channels that not every member can see open once you sign in with Discord."
    ),
}


def web_words(language: str) -> dict[str, str]:
    """Every word of the pages in ``language`` (placeholders such as ``{name}`` are kept
    for the client to fill)."""
    return {key: say(text, language) for key, text in WEB_WORDS.items()}


__all__ = ["WEB_WORDS", "web_words"]
