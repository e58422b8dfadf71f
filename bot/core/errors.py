"""Errors the session layer raises for the player: typed refusals, never sentences.

A refusal is a :class:`Refusal` (or an engine's :class:`~bot.engine.EngineErrorCode`, a
tournament's or the ladder's :class:`CompetitionRefusal`, a chouette's
:class:`ChouetteRefusal`) with its parameters, the facts it names:
``UserError(Refusal.NOT_YOUR_TURN, player=Name("bob"))``. The words are chosen by the front
end that shows it, in its reader's language (:func:`bot.present.refusal`), with names
formatted its way (a :class:`Name` parameter is a person's name: escaped for Discord, plain
in a terminal). A front end's own refusals (a failed permission check, a stale picker) may
still carry finished words in ``text``.

The command layer shows the refusal privately (ephemerally) and changes nothing; any other
exception is a bug, logged and answered with a generic apology. ``str(error)`` is a terse
diagnostic for logs, naming the refusal and its parameters.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from bot.engine import EngineError, EngineErrorCode
from bot.i18n import Text


class Refusal(StrEnum):
    """Every refusal of the session layer and of the puzzle and Activity services, by name
    (``bot.present.refusals`` words each)."""

    # challenges and starting
    SELF_CHALLENGE = "self-challenge"
    BOT_OPPONENT = "bot-opponent"
    BOT_DM_CHALLENGE = "bot-dm-challenge"  # a challenge in the bot's DM, which nobody else sees
    PICK_LEVEL = "pick-level"  # levels
    COMPUTER_UNAVAILABLE = "computer-unavailable"
    ALREADY_STARTED = "already-started"
    WAITING_ACCEPT = "waiting-accept"  # player: the challenged
    CHALLENGE_FOR = "challenge-for"  # player: the challenged
    STARTS_ON_ACCEPT = "starts-on-accept"  # player: the challenged
    # finding the game
    NO_GAME = "no-game"
    NO_HISTORY = "no-history"
    QUARANTINED = "quarantined"  # number
    GAME_OVER_BUTTON = "game-over-button"
    OLD_BOARD = "old-board"
    OTHER_GAME = "other-game"  # old, current
    EARLIER_TURN = "earlier-turn"
    # whose turn
    NOT_A_PLAYER = "not-a-player"  # first, second
    NOT_STARTED = "not-started"
    WAIT_RESIGNATION_ANSWER = "wait-resignation-answer"  # opponent
    ANSWER_RESIGNATION_FIRST = "answer-resignation-first"
    WAITING_TAKE_DROP = "waiting-take-drop"  # player
    NO_DOUBLE_TO_ANSWER = "no-double-to-answer"
    NOT_YOUR_TURN = "not-your-turn"  # player
    ANSWER_DOUBLE_FIRST = "answer-double-first"
    NO_RESIGNATION_OFFER = "no-resignation-offer"
    OPPONENT_MUST_ANSWER = "opponent-must-answer"  # opponent
    CLAIM_ON_OWN_TURN = "claim-on-own-turn"
    CLAIM_TOO_EARLY = "claim-too-early"  # opponent, minutes (an int)
    # club life: rematches, settings, match files
    REMATCH_NOT_OVER = "rematch-not-over"
    REMATCH_PLAYERS = "rematch-players"  # first, second
    COMPUTER_AWAY = "computer-away"
    PICK_NOTICE = "pick-notice"  # choices
    PICK_MINUTES = "pick-minutes"
    PICK_BOARD_SIDE = "pick-board-side"
    PICK_THEME = "pick-theme"  # choices
    NO_MATCH_YET = "no-match-yet"
    NO_SUCH_MATCH = "no-such-match"  # number
    # the web board: sharing a replay on purpose
    SHARE_FINISHED_ONLY = "share-finished-only"
    SHARE_PLAYERS_ONLY = "share-players-only"
    NOTHING_SHARED = "nothing-shared"  # number
    NO_WEB_BOARD = "no-web-board"
    # reviews: hints, analyses, dice checks
    NO_GAME_HERE = "no-game-here"
    HINTS_FOR_PLAYERS = "hints-for-players"
    HINTS_OFF_RATED = "hints-off-rated"
    HINTS_OFF_SERVER = "hints-off-server"
    HINTS_OWN_TURN = "hints-own-turn"
    ANALYSIS_COOLDOWN = "analysis-cooldown"  # seconds
    ANALYSIS_FINISHED_ONLY = "analysis-finished-only"
    NO_SUCH_PUBLIC = "no-such-public"  # public
    # any position analysed
    POSITION_IN_RATED_GAME = "position-in-rated-game"
    NOTHING_DEEPER = "nothing-deeper"
    NOT_A_BOARD = "not-a-board"
    BOARD_WITHOUT_POSITION = "board-without-position"
    DICE_WITH_DOUBLE = "dice-with-double"
    EXPORT_FROM_POSITION = "export-from-position"  # xgid
    # puzzles
    PUZZLE_GONE = "puzzle-gone"
    NO_PUZZLES_YET = "no-puzzles-yet"
    SEEN_EVERY_PUZZLE = "seen-every-puzzle"
    NO_PUZZLE_TO_ANSWER = "no-puzzle-to-answer"
    ANSWER_WITH_BUTTONS = "answer-with-buttons"
    PICK_DAILY_TIME = "pick-daily-time"
    DAILY_TIME_FORMAT = "daily-time-format"
    DAILY_CHANNEL = "daily-channel"
    DAILY_PUZZLE_OVER = "daily-puzzle-over"
    # the Activity
    NOT_YOUR_MOVE = "not-your-move"
    BOARD_CHANGED = "board-changed"
    GAMES_IN_THREADS = "games-in-threads"  # the Activity of a channel whose games moved
    MOVE_NOT_LEGAL_NOW = "move-not-legal-now"
    # the store
    CHANNEL_BUSY = "channel-busy"
    CONFLICT = "conflict"
    STORE_DOWN = "store-down"
    STORE_IN_DOUBT = "store-in-doubt"


class CompetitionRefusal(StrEnum):
    """Every refusal of the tournaments, the ladder and their directors' tools, the
    competition core's rules among them (:mod:`bot.features.tournaments.refusals` names the core's
    errors; ``bot.present.refusals`` words each)."""

    # the competition core's rules
    CANNOT_NOW = "cannot-now"
    REGISTRATION_CLOSED = "registration-closed"
    EVENT_FULL = "event-full"
    ALREADY_IN = "already-in"
    NOT_ENTERED = "not-entered"
    TOO_FEW_PLAYERS = "too-few-players"
    ROUND_INCOMPLETE = "round-incomplete"
    LATE_ENTRY_CLOSED = "late-entry-closed"
    MATCH_NOT_READY = "match-not-ready"
    RESULT_CONFLICT = "result-conflict"
    RESULT_MISFIT = "result-misfit"
    UNKNOWN_MATCH = "unknown-match"
    NOT_ON_LADDER = "not-on-ladder"
    OUT_OF_REACH = "out-of-reach"
    CHALLENGE_LIMIT = "challenge-limit"
    CHALLENGE_CLOSED = "challenge-closed"
    NOT_YOUR_CHALLENGE = "not-your-challenge"
    # the tournament service
    NO_TOURNAMENT = "no-tournament"  # number
    NAME_NEEDED = "name-needed"
    LADDER_NOT_TOURNAMENT = "ladder-not-tournament"
    ALREADY_JOINED = "already-joined"
    EVENT_CHANGED = "event-changed"
    EVENT_STARTED = "event-started"
    ALREADY_DECIDED = "already-decided"
    # the directors' tools
    NOT_RUNNING = "not-running"
    NO_MATCH_TO_DECIDE = "no-match-to-decide"
    SAY_WHY = "say-why"
    OWN_MATCH = "own-match"
    EXTEND_RANGE = "extend-range"
    NOTHING_TO_EXTEND = "nothing-to-extend"
    NOT_JOINED = "not-joined"
    NOT_IN_EVENT = "not-in-event"
    ALREADY_OVER = "already-over"
    NEW_PLAYER_IN = "new-player-in"
    ONLY_UNDECIDED = "only-undecided"
    # the ladder service
    LEFT_LADDER = "left-ladder"
    NO_LADDER_MATCH = "no-ladder-match"


class ChouetteRefusal(StrEnum):
    """Every refusal of a chouette session: the rules' own (the values of
    :class:`bot.features.chouette.rules.Code`, one for one) and the chouette service's
    (``bot.present.chouette`` words each)."""

    # the rules
    FULL = "full"  # most
    ALREADY_SEATED = "already-seated"
    NOT_SEATED = "not-seated"
    ALREADY_BEGUN = "already-begun"
    TOO_FEW = "too-few"  # most
    SESSION_OVER = "session-over"
    NO_GAME = "no-game"
    NOT_IN_TEAM = "not-in-team"
    NOT_THE_BOX = "not-the-box"
    NOT_THE_CAPTAIN = "not-the-captain"  # captain
    NOT_NOW = "not-now"
    COMPUTER_DECIDES = "computer-decides"
    CUBE_OUT = "cube-out"
    BOX_OWNS_CUBE = "box-owns-cube"
    MEMBER_OWNS_CUBE = "member-owns-cube"
    ALREADY_DOUBLED = "already-doubled"
    CUBE_AT_MAXIMUM = "cube-at-maximum"
    NOTHING_TO_ANSWER = "nothing-to-answer"
    ANSWER_EVERY_DOUBLE = "answer-every-double"
    PICK_MEMBERS = "pick-members"
    BEAVERS_OFF = "beavers-off"
    TAKE_CAPTAIN = "take-captain"  # captain
    TAKE_HALF = "take-half"  # most
    WAIT_LINE = "wait-line"  # member
    CAPTAIN_LAST = "captain-last"
    MUST_BEAVER = "must-beaver"
    NOT_LEGAL = "not-legal"
    NO_ADVICE = "no-advice"
    ADVICE_TEXT = "advice-text"  # most
    # the service
    NO_CHOUETTE = "no-chouette"
    CHOUETTE_HERE = "chouette-here"
    GAME_HERE = "game-here"
    OLD_BUTTON = "old-button"
    ENDS_BY_STARTER = "ends-by-starter"
    CAPTAIN_READS = "captain-reads"


class Name(str):
    """A person's name among a refusal's parameters: the front end formats it its way."""

    __slots__ = ()


Reason = Refusal | CompetitionRefusal | ChouetteRefusal | EngineErrorCode


class UserError(Exception):
    """Something the player asked for cannot be done; the refusal says what to do instead.

    ``reason`` and ``params``: the typed refusal (None when a front end gave its own
    ``text``). Raised with a :class:`Refusal` and its parameters, or with a front end's
    finished words.
    """

    default: Refusal | None = None  # what a subclass refuses when given nothing

    def __init__(self, reason: Reason | Text | str | None = None, /, **params: Any) -> None:
        self.reason: Reason | None = None
        self.text: Text | str | None = None
        self.params: dict[str, Any] = dict(params)
        if reason is None:
            reason = self.default
        if isinstance(reason, Refusal | CompetitionRefusal | ChouetteRefusal | EngineErrorCode):
            self.reason = reason
        else:
            self.text = reason
        super().__init__(self._diagnostic())

    @classmethod
    def of_engine(cls, error: EngineError) -> UserError:
        """The engine's refusal (its code and parameters) as the player's error."""
        return cls(error.code, **dict(error.params))

    def _diagnostic(self) -> str:
        if self.reason is None:
            return str(self.text)
        details = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        return f"{self.reason}: {details}" if details else str(self.reason)

    def __reduce__(self) -> tuple[object, ...]:
        # Raised in a worker process and pickled back: keep the refusal (and any attributes
        # a subclass set), whatever the subclass's own constructor takes.
        return (_rebuild, (type(self), str(self)), dict(self.__dict__))


def _rebuild(cls: type[UserError], message: str) -> UserError:
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    return error


class NoGameError(UserError):
    """There is no live game or challenge in this channel."""


class NotYourTurnError(UserError):
    """The player may not act now (out of turn, or not in this game at all)."""


class ChannelBusyError(UserError):
    """The channel already holds a live game or a pending challenge."""

    default = Refusal.CHANNEL_BUSY


class ConflictError(UserError):
    """Another action changed the game first; the player should look again and retry."""

    default = Refusal.CONFLICT


class StoreUnavailableError(UserError):
    """The database cannot be reached (stopped, restarting, out of disk or connections) and
    nothing was written: the player may simply try again once it is back."""

    default = Refusal.STORE_DOWN


class StoreInDoubtError(StoreUnavailableError):
    """The database went away after a write was sent and before it answered: the write may
    or may not have been committed, so the player is told to look before trying again."""

    default = Refusal.STORE_IN_DOUBT


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
