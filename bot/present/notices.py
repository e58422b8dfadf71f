"""The front ends' own lines: the Discord publisher's notices, the buttons' labels, and what
the terminal says around a game. Words only; the front end decides when to say them."""

from __future__ import annotations

from bot.core.records import Action
from bot.engine import EngineErrorCode, Game, MatchOptions, Phase
from bot.i18n import N_, Text, _, join
from bot.present.club import versus_names
from bot.present.refusals import ENGINE_SENTENCES
from bot.present.web import WEB_WORDS
from bot.present.words import dice_words, level_words, match_words

# --- the Discord publisher ------------------------------------------------------------------

THREADS_MISSING = _(
    "This server wants a thread per game, but I can't open one here: give me the Create "
    "Public Threads and Send Messages in Threads permissions. The game stays in this channel."
)
COMPUTER_STUCK = _(
    "The computer cannot play this game: it failed several times in a row. A moderator can "
    "end the game with /backgammon cancel."
)
MATCH_OVER = ENGINE_SENTENCES[EngineErrorCode.MATCH_OVER]  # the same words, said once


def game_on_line(thread: str) -> Text:
    """Where an accepted game went: its thread (a mention)."""
    return _("The game is on in {thread}.", thread=thread)


def thread_name(first: str, second: str) -> Text:
    return versus_names(first, second)


def played_in(thread: str | None) -> Text:
    """Where a match announced in its home channel was played (its thread's mention)."""
    if thread is None:
        return _("Played in its thread.")
    return _("Played in {thread}.", thread=thread)


def shared_line(number: int, players: Text | str, url: str) -> Text:
    return _(
        "Match #{number}, {players}: anyone with this link can watch its replay: {url}\n"
        "`/backgammon share stop:on` withdraws it.",
        number=number,
        players=players,
        url=url,
    )


def unshared_line(number: int) -> Text:
    return _("Match #{number}'s replay link is withdrawn: it opens for nobody now.", number=number)


def analysis_progress(number: int, done: int, total: int) -> Text:
    return N_(
        "Analysing match #{number}: {done} of {total} game done…",
        "Analysing match #{number}: {done} of {total} games done…",
        total,
        number=number,
        done=done,
        total=total,
    )


def analysis_done(number: int, total: int, seconds: int) -> Text:
    return N_(
        "Match #{number} analysed: {total} game in {seconds} s.",
        "Match #{number} analysed: {total} games in {seconds} s.",
        total,
        number=number,
        total=total,
        seconds=seconds,
    )


def export_caption(number: int, players: Text | str) -> Text:
    return _(
        "Match #{number}, {players}: open it in GNU Backgammon or eXtreme Gammon.",
        number=number,
        players=players,
    )


def record_title(name: str) -> Text:
    return _("{name}'s backgammon", name=name)


def review_title(number: int) -> Text:
    return _("**Game {number}: skill and luck**", number=number)


# --- answering an interaction that failed ---------------------------------------------------

SORRY_TEXT = _("Something went wrong; the game is unchanged.")
SAVED_TEXT = _(
    "Your action was saved, but posting the result failed. "
    "/backgammon board shows the game as it is now."
)
NO_DMS = _("Backgammon is played in a server's channels, not in direct messages.")
NOT_HERE = _("You can't use this command here.")
RESTARTING = _("The bot is restarting; try again in a moment.")


def invalid_option(value: str) -> Text:
    return _("{value} is not a valid value for this option.", value=value)


# --- the slash commands' own answers -------------------------------------------------------

MODERATORS_CANCEL = _("Only members with Manage Messages can cancel a game.")
# Where the app was installed by a player, not by the server (cogs/where.py).
SERVER_ONLY = _(
    "This works only on a server that added the bot (its leaderboard, dice, settings and "
    "moderators live there). Here you can play: /backgammon challenge, /backgammon play and "
    "the game's buttons."
)
EXTERNAL_APPS_DENIED = _(
    "This server's moderators don't let members' own apps post in public here (the \"Use "
    'External Apps" permission), so nobody else would see the game. Play in a DM or group '
    "DM with your friend instead, or ask the moderators to add the bot to the server."
)
MODERATORS_THREADS = _("Only members with Manage Messages can change threads.")
MODERATORS_LANGUAGE = _("Only members with Manage Messages can change the server's language.")
MODERATORS_CLAIM = _("Only members with Manage Messages can change what a claim wins.")
MODERATORS_WEB = _("Only members with Manage Messages can change who sees the web board.")
LEADERBOARD_TITLE = _("Backgammon leaderboard")
LEADERBOARD_EMPTY = _("No rated matches have been finished yet.")
LEADERBOARD_FOOTER = _("FIBS ratings from rated matches · start at 1500")
DICE_TITLE = _("Dice check")
DICE_FOOTER = _("Only rolls actually played here count · fair dice: 1/6 a face")
GAMES_TITLE = _("Your games")
HELP_TITLE = _("Backgammon")


def verify_line(number: int, players: Text | str, result: Text | str) -> Text:
    """A dice check's answer: which match, and its verdict."""
    return _("Match #{number} ({players}): {result}", number=number, players=players, result=result)


def never_rolled(who: str) -> Text:
    return _("{who} has not rolled in a game on this server yet.", who=who)


# --- buttons --------------------------------------------------------------------------------

BUTTON_LABELS: dict[Action, Text] = {
    Action.ACCEPT: _("Accept"),
    Action.DECLINE: _("Decline"),
    Action.ROLL: _("Roll"),
    Action.DOUBLE: _("Double"),
    Action.TAKE: _("Take"),
    Action.DROP: _("Drop"),
    Action.BEAVER: _("Beaver"),
    Action.RESIGN_ACCEPT: _("Accept resignation"),
    Action.RESIGN_REJECT: _("Reject"),
    Action.REMATCH: _("Rematch"),
    # Where the bot is not in the channel (a DM game), for the player without commands.
    Action.RESIGN: _("Resign"),
    Action.CLAIM: _("Claim the win"),
    Action.BOARD: _("Board"),
}
# A ladder challenge's answers, and a tournament announcement's entry buttons.
LADDER_LABELS: dict[str, Text] = {"accept": BUTTON_LABELS[Action.ACCEPT], "refuse": _("Refuse")}
ENTRY_LABELS: dict[str, Text] = {"join": _("Join"), "leave": _("Leave"), "checkin": _("Check in")}
# The web board's buttons on a board message, and the Activity's launch.
WATCH_LIVE = _("Watch live")
REPLAY = WEB_WORDS["replay"]
OPEN_BOARD = _("Open the board")
NO_ACTIVITY = _("The board you can touch is not set up on this bot.")
NOT_LOADED = _("The game commands are not loaded right now; try again shortly.")

# --- the terminal (offline play) ------------------------------------------------------------


def watch_in_browser(url: str) -> Text:
    return _("Watch it in your browser too: {url}", url=url)


COMMANDS = _(
    "Commands: roll, move <play> (or just type the play, e.g. 13/7 8/7), double, take, drop,\n"
    "resign [single|gammon|backgammon], accept, reject, board, history, hint, help, quit"
)
GAME_SAVED = _("Game saved: run the same command again to continue.")
NO_GAME_RUNNING = _("No game is running.")
TERMINAL_BOARD = _(
    "This is the board of the game played in the terminal (python -m bot play): it follows "
    "every move as it is typed."
)
RESUMING = _("Resuming your saved game (start afresh with --new).")
GAME_OVER = _("Game over. Thanks for playing!")
RESIGN_HOW = _("Resign with single, gammon or backgammon.")
DICE_RAN_OUT = _("The scripted dice (--dice) ran out. Game saved.")


def sides_line(x: str, o: str) -> Text:
    """Who is X and who is O on the terminal's text board."""
    return _("(X = {x}, O = {o})", x=x, o=o)


def board_image_line(path: object) -> Text:
    return _("[board image: {path}]", path=path)


def unknown_command(command: str) -> Text:
    return _("Unknown command '{command}'. {commands}", command=command, commands=COMMANDS)


def status_line(game: Game, names: tuple[str, str]) -> Text:
    """The line under the terminal's board: both pip counts, the cube and its owner, the
    score and match length (or a money game), and the dice once rolled. Players in seat
    order, so the line reads the same whoever is on roll."""
    first, second = names
    pips = game.pips()
    parts = [_("Pips: {first} {a}, {second} {b}", first=first, a=pips[0], second=second, b=pips[1])]
    if not game.options.cube:
        parts.append(_("No cube"))
    elif game.cube_owner is None:
        parts.append(_("Cube: {value}, in the middle", value=game.cube))
    else:
        owner = names[game.cube_owner]
        parts.append(_("Cube: {value}, owned by {owner}", value=game.cube, owner=owner))
    a, b = game.score
    length = game.options.length
    if game.options.is_money:
        parts.append(_("Money game"))
    elif game.crawford:
        parts.append(
            _(
                "Score: {first} {a}, {second} {b}, match to {length}, Crawford game",
                first=first,
                a=a,
                second=second,
                b=b,
                length=length,
            )
        )
    else:
        parts.append(
            _(
                "Score: {first} {a}, {second} {b}, match to {length}",
                first=first,
                a=a,
                second=second,
                b=b,
                length=length,
            )
        )
    if game.phase is Phase.MOVE and game.dice is not None:
        parts.append(_("Dice: {dice}", dice=dice_words(game.dice)))
    return join(parts, " · ")


def saved_game_question(names: tuple[str, str], options: MatchOptions, level: str | None) -> Text:
    """Before resuming a saved game other than the one the command asks for: what it is, and
    what each answer does."""
    players = versus_names(*names)
    if level is not None:
        players = _("{players} ({level})", players=players, level=level_words(level))
    what = match_words(options.length)
    if not options.cube:
        what = _("{what} without the cube", what=what)
    return _(
        "Your saved game is {players}, {what}, not the game this command asks for.\n"
        "y: resume the saved game; n: abandon it (no result) and start the new one. (y/n)",
        players=players,
        what=what,
    )


ANSWER_YES_OR_NO = _("Answer y or n.")
SAVED_GAME_ABANDONED = _("The saved game is abandoned, with no result.")
