"""Errors the rules engine raises: precise for developers, with a code for players.

The families answer different questions a player asks after a refusal: "did I type it
wrong?" (:class:`InvalidNotationError`), "why is that move illegal?"
(:class:`IllegalPlayError`) and "why can't I do that now?" (:class:`NotAllowedNowError`);
:class:`InvalidPositionError` is a board, Position ID or Match ID that is not real, and its
subclass :class:`InvalidIdError` is text a player pasted (an XGID, a Position ID, a Match ID)
that cannot be read as a state to analyse.

Every error carries a :class:`EngineErrorCode` and the facts it names as attributes (and in
``params``): its message is English for logs and tests, naming the input and the context,
as python-chess does. The words a player reads come from the presentation layer, which
maps each code to a translated sentence (:func:`bot.present.engine_error`).
"""

from __future__ import annotations

from enum import StrEnum


class EngineErrorCode(StrEnum):
    """What went wrong, one value per distinct refusal the engine can make."""

    # --- a board, Position ID or Match ID that is not real -------------------------------
    BOARD_SIZE = "board_size"  # size
    NEGATIVE_BAR = "negative_bar"
    TOO_MANY_CHECKERS = "too_many_checkers"  # mine, theirs
    POSITION_ID_LENGTH = "position_id_length"  # text
    POSITION_ID_INVALID = "position_id_invalid"  # text
    POSITION_ID_SHARED_POINT = "position_id_shared_point"  # text
    CUBE_NOT_POWER_OF_TWO = "cube_not_power_of_two"  # cube
    MATCH_ID_FIELD = "match_id_field"  # field, value
    MATCH_ID_LENGTH = "match_id_length"  # text
    MATCH_ID_INVALID = "match_id_invalid"  # text
    # --- text pasted as a position (an XGID, GNU IDs) that cannot be read -----------------
    ID_NOT_RECOGNISED = "id_not_recognised"  # text
    XGID_FIELD_COUNT = "xgid_field_count"  # count
    XGID_BOARD = "xgid_board"  # board
    XGID_FIELD = "xgid_field"  # number (1-10, as XG counts them), value
    DICE_INVALID = "dice_invalid"  # dice
    CUBE_TOO_HIGH = "cube_too_high"  # cube, most
    SCORE_INVALID = "score_invalid"  # score, length
    CRAWFORD_SCORE = "crawford_score"
    RACCOONS_OFF = "raccoons_off"
    # --- notation: not a play at all ------------------------------------------------------
    NO_SUCH_POINT = "no_such_point"  # text, point
    TOO_LONG = "too_long"
    EMPTY_PLAY = "empty_play"
    NOT_A_MOVE = "not_a_move"  # token
    BAD_REPEAT = "bad_repeat"  # token
    TO_THE_BAR = "to_the_bar"  # token
    FROM_OFF = "from_off"  # token
    WRONG_DIRECTION = "wrong_direction"  # token
    TOO_MANY_MOVES = "too_many_moves"
    # --- a well-formed play the rules refuse with this roll -------------------------------
    NOT_LEGAL = "not_legal"  # play, dice, legal, more
    NO_LEGAL_MOVE = "no_legal_move"  # dice
    MUST_MOVE = "must_move"  # dice, legal, more
    ENTER_FIRST = "enter_first"
    AMBIGUOUS = "ambiguous"  # play, options
    USE_BOTH_DICE = "use_both_dice"  # moves, die
    PLAY_MORE_DICE = "play_more_dice"  # play, dice, count, die, played, legal, more
    PLAY_LARGER_DIE = "play_larger_die"  # play, dice, die, legal, more
    IMPOSSIBLE_MOVE = "impossible_move"  # move
    # why a written play cannot be made (play, dice, legal, more, and the fact's own params)
    NO_CHECKER = "no_checker"  # point
    NO_CHECKER_ON_BAR = "no_checker_on_bar"
    MUST_ENTER_FIRST = "must_enter_first"
    POINT_BLOCKED = "point_blocked"  # point
    BEAR_OFF_NOT_HOME = "bear_off_not_home"
    BEAR_OFF_HIGHER_POINT = "bear_off_higher_point"  # die, point
    NEEDS_MORE_DICE = "needs_more_dice"
    DOES_NOT_FIT = "does_not_fit"  # move
    # --- the phase, cube or options do not allow it ---------------------------------------
    MATCH_LENGTH = "match_length"  # length, most
    MONEY_OPTIONS = "money_options"
    AUTO_DOUBLES = "auto_doubles"
    GAME_NOT_OVER = "game_not_over"
    MATCH_OVER = "match_over"
    NO_DICE = "no_dice"
    OPENING_DONE = "opening_done"
    NOT_STARTED = "not_started"
    ROLL_FIRST = "roll_first"
    ALREADY_ROLLED = "already_rolled"
    DOUBLE_PENDING = "double_pending"
    GAME_OVER = "game_over"
    MUST_PLAY = "must_play"
    NO_DOUBLE_TO_TAKE = "no_double_to_take"
    NO_DOUBLE_TO_BEAVER = "no_double_to_beaver"
    NO_DOUBLE_TO_DROP = "no_double_to_drop"
    NO_DOUBLE_TO_ANSWER = "no_double_to_answer"
    BEAVERS_OFF = "beavers_off"
    BEAVER_PENDING = "beaver_pending"
    BEAVER_TOO_HIGH = "beaver_too_high"  # most
    RESIGN_BEFORE_OPENING = "resign_before_opening"
    RESIGNATION_PENDING = "resignation_pending"
    NO_RESIGNATION = "no_resignation"
    ANSWER_RESIGNATION = "answer_resignation"
    NO_CUBE_DECISION = "no_cube_decision"
    # why the player on roll may not double now
    DOUBLE_IN_OPENING = "double_in_opening"
    DOUBLE_ALREADY_OFFERED = "double_already_offered"
    DOUBLE_AFTER_ROLL = "double_after_roll"
    CUBE_OFF = "cube_off"
    CUBE_DEAD = "cube_dead"
    CRAWFORD = "crawford"
    OPPONENT_OWNS_CUBE = "opponent_owns_cube"
    CUBE_GAINS_NOTHING = "cube_gains_nothing"
    CUBE_AT_MAXIMUM = "cube_at_maximum"  # cube


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input.

    ``message`` is for developers; ``code`` and the keyword ``params`` (also set as
    attributes, ``error.point``) are what a presentation layer turns into words.
    """

    def __init__(self, message: str, code: EngineErrorCode, **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, object] = params
        for name, value in params.items():
            setattr(self, name, value)

    def __reduce__(self) -> tuple[object, ...]:
        # Errors cross from the worker processes pickled: keep the code and the facts.
        return (_rebuild, (type(self), str(self), self.code, self.params))


def _rebuild(
    cls: type[EngineError], message: str, code: EngineErrorCode, params: dict[str, object]
) -> EngineError:
    return cls(message, code, **params)


class InvalidPositionError(EngineError):
    """A board, Position ID or Match ID that does not describe a real position."""


class InvalidIdError(InvalidPositionError):
    """Text that is not an XGID or GNU Backgammon IDs, or that describes a state no game
    can be in (more than 15 checkers, a score past the match length, impossible dice...).

    Every reader of pasted IDs raises only this, whatever the text, so a front end can catch
    one class and show the player the sentence for its ``code``.
    """


class InvalidNotationError(EngineError):
    """Text that is not backgammon move notation at all (bad syntax)."""


class IllegalPlayError(EngineError):
    """Well-formed notation for a play that the rules do not allow with this roll."""


class NotAllowedNowError(EngineError):
    """An action the game's current phase, cube or options do not allow."""
