"""Refusals in the player's words: a sentence for every engine error code and for every
refusal of the session layer (:class:`bot.core.errors.Refusal`); the tournaments' and the
ladder's (:class:`bot.core.errors.CompetitionRefusal`) are worded in
:mod:`bot.present.tournaments`, a chouette's (:class:`bot.core.errors.ChouetteRefusal`) in
:mod:`bot.present.chouette`."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.core.errors import ChouetteRefusal, CompetitionRefusal, Name, Refusal, UserError
from bot.engine import EngineError, EngineErrorCode
from bot.i18n import Text, _, join
from bot.present.chouette import CHOUETTE_REFUSALS
from bot.present.tournaments import COMPETITION_REFUSALS
from bot.present.words import minutes_words

Code = EngineErrorCode


# --- the engine's refusals, in the player's words -------------------------------------------

ENGINE_SENTENCES: dict[EngineErrorCode, Text] = {
    Code.BOARD_SIZE: _("That is not a backgammon board."),
    Code.NEGATIVE_BAR: _("That is not a backgammon board."),
    Code.TOO_MANY_CHECKERS: _("A side has at most 15 checkers."),
    Code.POSITION_ID_LENGTH: _("'{text}' is not a Position ID: it has 14 characters."),
    Code.POSITION_ID_INVALID: _("'{text}' is not a valid Position ID."),
    Code.POSITION_ID_SHARED_POINT: _("'{text}' puts both sides on one point."),
    Code.CUBE_NOT_POWER_OF_TWO: _("The cube is a power of two, not {cube}."),
    Code.MATCH_ID_FIELD: _("That position does not fit a Match ID."),
    Code.MATCH_ID_LENGTH: _("'{text}' is not a Match ID: it has 12 characters."),
    Code.MATCH_ID_INVALID: _("'{text}' is not a valid Match ID."),
    Code.XGID_FIELD_COUNT: _(
        "An XGID has 10 fields separated by colons, not {count}: copy it whole."
    ),
    Code.XGID_BOARD: _("'{board}' is not an XGID board: 26 characters, each -, A-P or a-p."),
    Code.XGID_FIELD: _("Field {number} of that XGID cannot be '{value}'."),
    Code.DICE_INVALID: _("'{dice}' is not a roll: give two dice from 1 to 6, like 52."),
    Code.ID_NOT_RECOGNISED: _(
        "That is neither an XGID nor a GNU Backgammon Position ID: paste one, like "
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10 or 4HPwATDgc/ABMA:cImqAAAAAAAE."
    ),
    Code.CUBE_TOO_HIGH: _("The cube goes up to {most}, not {cube}."),
    Code.SCORE_INVALID: _("A score of {score} is not possible in a {length}-point match."),
    Code.CRAWFORD_SCORE: _(
        "The Crawford game is played only when one player is one point from winning the match."
    ),
    Code.RACCOONS_OFF: _("Raccoons are not played here: paste the position before the raccoon."),
    Code.NO_SUCH_POINT: _("There is no point {point}: use 1-24, bar or off."),
    Code.TOO_LONG: _("That is too long to be a backgammon play."),
    Code.EMPTY_PLAY: _("Write a play like 13/7 8/7 (from/to for each checker)."),
    Code.NOT_A_MOVE: _(
        "'{token}' is not a move: write from/to points, like 13/7, bar/22 or 6/off."
    ),
    Code.BAD_REPEAT: _("'{token}': a move can be repeated 1 to 4 times."),
    Code.TO_THE_BAR: _("'{token}': a checker never moves to the bar."),
    Code.FROM_OFF: _("'{token}': a borne-off checker cannot move."),
    Code.WRONG_DIRECTION: _(
        "'{token}': checkers move from higher points to lower ones, like 13/7."
    ),
    Code.TOO_MANY_MOVES: _("That is more moves than one roll allows."),
    Code.NOT_LEGAL: _("{play} is not legal with {dice}."),
    Code.NO_LEGAL_MOVE: _("You cannot move with {dice}: no checker can move. Pass."),
    Code.MUST_MOVE: _("You can move with {dice}, so you must."),
    Code.ENTER_FIRST: _("You must enter from the bar first."),
    Code.AMBIGUOUS: _("{play} could mean more than one play: {options}. Write the one you mean."),
    Code.USE_BOTH_DICE: _("Use both dice: {moves} alone leaves the {die} unplayed."),
    Code.PLAY_MORE_DICE: _(
        "{play} is not legal with {dice}: you can play {count} of your {die}s, not {played}."
    ),
    Code.PLAY_LARGER_DIE: _(
        "{play} is not legal with {dice}: only one die can be played, so you must play the {die}."
    ),
    Code.IMPOSSIBLE_MOVE: _("{move} is not possible in this position."),
    Code.NO_CHECKER: _(
        "{play} is not legal with {dice}: you have no checker on the {point}-point."
    ),
    Code.NO_CHECKER_ON_BAR: _("{play} is not legal with {dice}: you have no checker on the bar."),
    Code.MUST_ENTER_FIRST: _("{play} is not legal with {dice}: you must enter from the bar first."),
    Code.POINT_BLOCKED: _("{play} is not legal with {dice}: the {point}-point is blocked."),
    Code.BEAR_OFF_NOT_HOME: _(
        "{play} is not legal with {dice}: you can bear off only when all your checkers are home."
    ),
    Code.BEAR_OFF_HIGHER_POINT: _(
        "{play} is not legal with {dice}: a {die} bears off from the {point}-point only when no "
        "checker is on a higher point."
    ),
    Code.NEEDS_MORE_DICE: _(
        "{play} is not legal with {dice}: it needs more than the {dice} you rolled."
    ),
    Code.DOES_NOT_FIT: _("{play} is not legal with {dice}: {move} does not fit {dice}."),
    Code.MATCH_LENGTH: _("A match is 1 to {most} points (or 0 for a money game), not {length}."),
    Code.MONEY_OPTIONS: _("Jacoby, beavers and automatic doubles are money-game options."),
    Code.AUTO_DOUBLES: _("Automatic doubles are limited to 0-6."),
    Code.GAME_NOT_OVER: _("This game is not over yet."),
    Code.MATCH_OVER: _("The match is over."),
    Code.NO_DICE: _("There are no dice to play: roll first."),
    Code.OPENING_DONE: _("The opening roll has already been made."),
    Code.NOT_STARTED: _("The game has not started yet."),
    Code.ROLL_FIRST: _("Roll first."),
    Code.ALREADY_ROLLED: _("You have already rolled: make your move."),
    Code.DOUBLE_PENDING: _("A double is waiting for an answer: take or drop."),
    Code.GAME_OVER: _("The game is over."),
    Code.MUST_PLAY: _("You have a legal play, so you must move."),
    Code.NO_DOUBLE_TO_TAKE: _("There is no double to take."),
    Code.NO_DOUBLE_TO_BEAVER: _("There is no double to beaver."),
    Code.NO_DOUBLE_TO_DROP: _("There is no double to drop."),
    Code.NO_DOUBLE_TO_ANSWER: _("There is no double to answer."),
    Code.BEAVERS_OFF: _("Beavers are not allowed in this game."),
    Code.BEAVER_PENDING: _("The beaver is waiting for an answer: take or drop."),
    Code.BEAVER_TOO_HIGH: _("A beaver would take the cube past {most}: take or drop instead."),
    Code.RESIGN_BEFORE_OPENING: _("Wait for the opening roll before resigning."),
    Code.RESIGNATION_PENDING: _("A resignation offer is already waiting for an answer."),
    Code.NO_RESIGNATION: _("There is no resignation offer to answer."),
    Code.ANSWER_RESIGNATION: _("Answer the resignation offer first."),
    Code.NO_CUBE_DECISION: _("There is no cube decision to advise on now."),
    Code.DOUBLE_IN_OPENING: _("You can double only before your own roll, after the opening."),
    Code.DOUBLE_ALREADY_OFFERED: _("A double is already offered."),
    Code.DOUBLE_AFTER_ROLL: _("You can double only before you roll."),
    Code.CUBE_OFF: _("The cube is off in this game."),
    Code.CUBE_DEAD: _("The cube is dead in a 1-point match: the game is worth 1 point anyway."),
    Code.CRAWFORD: _("No doubling in the Crawford game."),
    Code.OPPONENT_OWNS_CUBE: _("Your opponent owns the cube: only the cube's owner can redouble."),
    Code.CUBE_GAINS_NOTHING: _(
        "You already win the match with the current cube: doubling gains nothing."
    ),
    Code.CUBE_AT_MAXIMUM: _("The cube is at {cube}, its highest value: play on without doubling."),
}


def engine_sentence(code: EngineErrorCode, params: Mapping[str, object]) -> Text:
    """The player's sentence for an engine refusal, and the first legal plays when known."""
    template = ENGINE_SENTENCES[code]
    sentence = Text(template.msgid, dict(params))
    legal = params.get("legal")
    if not legal:
        return sentence
    assert isinstance(legal, tuple)
    more = " …" if params.get("more") else ""
    return join([sentence, _("Legal: {plays}", plays=", ".join(legal) + more)])


def engine_error(error: EngineError) -> Text:
    """What a player reads for an engine error: :func:`engine_sentence` of its code."""
    return engine_sentence(error.code, error.params)


# --- the session's refusals -----------------------------------------------------------------

REFUSALS: dict[Refusal, Text] = {
    Refusal.SELF_CHALLENGE: _("You can't challenge yourself. Pick another player."),
    Refusal.BOT_OPPONENT: _("Bots can't play backgammon here. Challenge a person instead."),
    Refusal.BOT_DM_CHALLENGE: _(
        "Nobody else can see our DM, so here you can only play me (/backgammon play). To play "
        "a friend, use /backgammon challenge in your DM or group DM with them, or on a server."
    ),
    Refusal.PICK_LEVEL: _("Pick a level: {levels}."),
    Refusal.COMPUTER_UNAVAILABLE: _(
        "The computer opponent isn't available on this server: its engine (bgsage) runs only "
        "on Linux x86-64, macOS on Apple silicon and Windows. Challenge a person instead."
    ),
    Refusal.ALREADY_STARTED: _("The game has already started."),
    Refusal.WAITING_ACCEPT: _("Waiting for {player} to accept your challenge."),
    Refusal.CHALLENGE_FOR: _("This challenge is for {player}."),
    Refusal.STARTS_ON_ACCEPT: _("The game starts when {player} accepts the challenge."),
    Refusal.NO_GAME: _("There is no game in this channel. Start one with /backgammon challenge."),
    Refusal.NO_HISTORY: _("No game has been played in this channel yet."),
    Refusal.QUARANTINED: _(
        "Match #{number} in this channel could not be read, so it has been set aside "
        "with no result and the channel is free. Start a new game with "
        "/backgammon challenge."
    ),
    Refusal.GAME_OVER_BUTTON: _("That button belongs to a game that is over."),
    Refusal.OLD_BOARD: _(
        "That button is from an older board. Use /backgammon board for the current one."
    ),
    Refusal.OTHER_GAME: _(
        "That button belongs to game {old} of this match; game {current} is being "
        "played now. Use the buttons on the latest board."
    ),
    Refusal.EARLIER_TURN: _(
        "That button belongs to an earlier turn. Use the buttons on the latest board."
    ),
    Refusal.NOT_A_PLAYER: _("This is {first} and {second}'s game; you are not playing in it."),
    Refusal.NOT_STARTED: ENGINE_SENTENCES[Code.NOT_STARTED],
    Refusal.WAIT_RESIGNATION_ANSWER: _("Wait for {opponent} to answer your resignation offer."),
    Refusal.ANSWER_RESIGNATION_FIRST: _("Answer the resignation offer first: accept or reject it."),
    Refusal.WAITING_TAKE_DROP: _("Waiting for {player} to take or drop."),
    Refusal.NO_DOUBLE_TO_ANSWER: ENGINE_SENTENCES[Code.NO_DOUBLE_TO_ANSWER],
    Refusal.NOT_YOUR_TURN: _("It's {player}'s turn."),
    Refusal.ANSWER_DOUBLE_FIRST: _("Answer the double first: dropping it ends the game."),
    Refusal.NO_RESIGNATION_OFFER: ENGINE_SENTENCES[Code.NO_RESIGNATION],
    Refusal.OPPONENT_MUST_ANSWER: _(
        "{opponent} must answer your offer. You can play on meanwhile once they reject it."
    ),
    Refusal.CLAIM_ON_OWN_TURN: _("It's your turn: you can't claim a win while others wait on you."),
    Refusal.CLAIM_TOO_EARLY: _("{opponent} still has {minutes} to act before you can claim."),
    Refusal.REMATCH_NOT_OVER: _("That rematch button belongs to a match that is not over."),
    Refusal.REMATCH_PLAYERS: _("Only {first} and {second} can ask for a rematch."),
    Refusal.COMPUTER_AWAY: _("The computer opponent is not available right now."),
    Refusal.PICK_NOTICE: _("Pick a notice setting: {choices}."),
    Refusal.PICK_MINUTES: _("Pick between 1 and 1440 minutes."),
    Refusal.PICK_BOARD_SIDE: _("Pick where your home board goes: right or left."),
    Refusal.PICK_THEME: _("Pick a theme: {choices}."),
    Refusal.NO_MATCH_YET: _("No match has been played in this channel yet."),
    Refusal.NO_SUCH_MATCH: _("There is no match #{number} on this server."),
    Refusal.SHARE_FINISHED_ONLY: _("Only a match that is over can be shared."),
    Refusal.SHARE_PLAYERS_ONLY: _(
        "Only the match's players and members with Manage Messages can share its replay."
    ),
    Refusal.NOTHING_SHARED: _("Match #{number}'s replay is not shared."),
    Refusal.NO_WEB_BOARD: _("The web board is not set up on this bot."),
    Refusal.NO_GAME_HERE: _("There is no game in this channel."),
    Refusal.HINTS_FOR_PLAYERS: _("Hints are for the players of this game."),
    Refusal.HINTS_OFF_RATED: _("Hints are off in rated games."),
    Refusal.HINTS_OFF_SERVER: _("This server has turned hints off."),
    Refusal.HINTS_OWN_TURN: _("Hints are for your own turn."),
    Refusal.ANALYSIS_COOLDOWN: _(
        "You asked for an analysis a moment ago: try again in {seconds} s."
    ),
    Refusal.ANALYSIS_FINISHED_ONLY: _(
        "The analysis covers finished games only: ask again when this game is over."
    ),
    Refusal.NO_SUCH_PUBLIC: _(
        "No match here used the public value {public}. Copy it from the message "
        "that ended the match."
    ),
    Refusal.POSITION_IN_RATED_GAME: _(
        "That is the position of a rated game being played on this server: hints are off "
        "until it is over."
    ),
    Refusal.NOTHING_DEEPER: _(
        "There is nothing to look at more deeply here: no choice of play, and no cube "
        "decision to make."
    ),
    Refusal.NOT_A_BOARD: _("Pick a board the bot posted: only those carry a position."),
    Refusal.BOARD_WITHOUT_POSITION: _(
        "This message has no position to analyse: a finished game's last board, or a board "
        "posted before boards carried their position. Try /backgammon position with its IDs."
    ),
    Refusal.DICE_WITH_DOUBLE: _(
        "A double is waiting for an answer in that position: there are no dice to roll. "
        "Leave out the dice."
    ),
    Refusal.EXPORT_FROM_POSITION: _(
        "That game was played on from a position, and a match file always starts from the "
        "opening: it has none. Its position: {xgid}"
    ),
    Refusal.PUZZLE_GONE: _("This puzzle is gone. Ask for another with /puzzle get."),
    Refusal.NO_PUZZLES_YET: _(
        "This server has no puzzles yet: they come from finished games, "
        "once analysed. Play a match and come back."
    ),
    Refusal.SEEN_EVERY_PUZZLE: _(
        "You have seen every puzzle of this server. New ones come from new games."
    ),
    Refusal.NO_PUZZLE_TO_ANSWER: _("You have no puzzle to answer. Ask for one with /puzzle get."),
    Refusal.ANSWER_WITH_BUTTONS: _("Answer this puzzle with the buttons under its board."),
    Refusal.PICK_DAILY_TIME: _("Choose a time between 00:00 and 23:59 (UTC)."),
    Refusal.DAILY_TIME_FORMAT: _("Write the time as HH:MM, for example 18:30 (UTC)."),
    Refusal.DAILY_CHANNEL: _("Choose the channel for the daily puzzle."),
    Refusal.DAILY_PUZZLE_OVER: _(
        "This daily puzzle is over and its answer is out. Try /puzzle get."
    ),
    Refusal.NOT_YOUR_MOVE: _("It is not your turn to move."),
    Refusal.BOARD_CHANGED: _("The board has changed: look again."),
    Refusal.GAMES_IN_THREADS: _(
        "Several games of this channel were moved to threads: open the board from your game's "
        "thread."
    ),
    Refusal.MOVE_NOT_LEGAL_NOW: _("That move is not legal now."),
    Refusal.CHANNEL_BUSY: _(
        "This channel already has a game or a challenge. Finish it first, or play in another "
        "channel or thread."
    ),
    Refusal.CONFLICT: _("The game changed while you were acting; look again and retry."),
    Refusal.STORE_DOWN: _(
        "The database is unavailable right now, so nothing changed. Try again in a minute."
    ),
    Refusal.STORE_IN_DOUBT: _(
        "The database stopped answering while your action was being saved, so it may or may "
        "not have been stored. /backgammon board shows the game as it is, once the database "
        "is back."
    ),
}

# Parameters that are counts or lists, told in words (the rest are shown as they are).
_SPOKEN: dict[str, Callable[[object], Text | str]] = {
    "minutes": lambda value: minutes_words(int(value)),  # type: ignore[call-overload]
    "levels": lambda value: ", ".join(str(level) for level in value),  # type: ignore[attr-defined]
    "choices": lambda value: ", ".join(str(choice) for choice in value),  # type: ignore[attr-defined]
}


def refusal(error: UserError, display: Callable[[str], str] = str) -> Text | str:
    """What a player reads for a refused request: the refusal's sentence with its facts,
    names formatted by ``display`` (the front end's: escaped for Discord, plain offline)."""
    reason = error.reason
    if reason is None:
        return error.text or ""
    params = {
        key: display(value) if isinstance(value, Name) else value
        for key, value in error.params.items()
    }
    if isinstance(reason, EngineErrorCode):
        return engine_sentence(reason, params)
    if isinstance(reason, CompetitionRefusal):
        return Text(COMPETITION_REFUSALS[reason].msgid, params)
    if isinstance(reason, ChouetteRefusal):
        return Text(CHOUETTE_REFUSALS[reason].msgid, params)
    for key, speak in _SPOKEN.items():
        if key in params:
            params[key] = speak(params[key])
    return Text(REFUSALS[reason].msgid, params)
