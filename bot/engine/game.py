"""The game and match state machine: phases, the cube, scoring, Crawford and resignations.

A :class:`Game` is an immutable snapshot of one game inside its match (a money game is a
match with ``length`` 0 that ends after one game). Every action returns a new snapshot and
raises :class:`~bot.engine.errors.NotAllowedNowError` when the phase, the cube or the options
forbid it, so a caller can try an action and show the message to the player unchanged.

Dice are always inputs: the engine never rolls.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from bot.engine.errors import EngineErrorCode as Code
from bot.engine.errors import IllegalPlayError, NotAllowedNowError
from bot.engine.match_id import (
    GAME_DROP,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MatchIdFields,
)
from bot.engine.moves import Dice, LegalPlays, Play, check_dice, legal_plays
from bot.engine.notation import parse_play
from bot.engine.position import Position

MAX_MATCH_LENGTH = 25
# GNU Backgammon's highest cube. It keeps every state expressible as a Match ID: even a
# backgammon at this cube (12288 points) fits the ID's 15-bit score.
MAX_CUBE = 1 << 12


class Phase(StrEnum):
    """Where the game stands; each phase allows a small set of actions."""

    OPENING = "opening"  # waiting for the opening roll (one die each)
    ROLL = "roll"  # the player on roll may double or roll
    MOVE = "move"  # dice are out: the player on roll must move
    DOUBLED = "doubled"  # a double (or a beaver) is offered: the receiver takes or drops
    OVER = "over"  # the game is finished


class ResultKind(IntEnum):
    """How big a win is; the value multiplies the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


class EndReason(StrEnum):
    BORNE_OFF = "borne_off"
    DROPPED = "dropped"
    RESIGNED = "resigned"
    FORFEIT = "forfeit"  # claimed for inactivity, or conceded outside the rules


@dataclass(frozen=True, slots=True)
class MatchOptions:
    """How a game or match is played. Money-game extras are off by default.

    ``length`` 0 means a single money game; 1-25 a match to that many points.
    ``auto_doubles`` is how many times a tied opening roll may turn the cube.
    """

    length: int = 0
    cube: bool = True
    jacoby: bool = False
    beavers: bool = False
    auto_doubles: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.length <= MAX_MATCH_LENGTH:
            raise NotAllowedNowError(
                f"A match is 1 to {MAX_MATCH_LENGTH} points (or 0 for a money game), "
                f"not {self.length}.",
                Code.MATCH_LENGTH,
                length=self.length,
                most=MAX_MATCH_LENGTH,
            )
        if self.length and (self.jacoby or self.beavers or self.auto_doubles):
            raise NotAllowedNowError(
                "Jacoby, beavers and automatic doubles are money-game options.",
                Code.MONEY_OPTIONS,
            )
        if not 0 <= self.auto_doubles <= 6:
            raise NotAllowedNowError("Automatic doubles are limited to 0-6.", Code.AUTO_DOUBLES)

    @property
    def is_money(self) -> bool:
        return self.length == 0


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: int
    kind: ResultKind
    cube: int
    points: int
    reason: EndReason


@dataclass(frozen=True, slots=True)
class Resignation:
    """An offer by ``player`` to lose a game of size ``kind``."""

    player: int
    kind: ResultKind


@dataclass(frozen=True, slots=True)
class Game:
    """One game of a match, as an immutable value.

    ``position`` is seen from ``on_roll``; ``score`` is the match score before this game.

    >>> g = Game.new().opening_roll(3, 1)
    >>> g.on_roll, g.dice, g.phase
    (0, (3, 1), <Phase.MOVE: 'move'>)
    >>> g = g.move('8/5 6/5')
    >>> g.on_roll, g.phase, g.position.position_id()
    (1, <Phase.ROLL: 'roll'>, 'sGfwATDgc/ABMA')
    """

    options: MatchOptions = field(default_factory=MatchOptions)
    position: Position = field(default_factory=Position.start)
    on_roll: int = 0
    phase: Phase = Phase.OPENING
    dice: Dice | None = None
    cube: int = 1
    cube_owner: int | None = None
    score: tuple[int, int] = (0, 0)
    game_number: int = 1
    crawford: bool = False  # this is the Crawford game: no doubling
    post_crawford: bool = False  # the Crawford game has been played
    auto_doubles_done: int = 0
    resignation: Resignation | None = None
    result: GameResult | None = None
    last_play: Play | None = None  # the last checker play, seen from the player who made it
    last_player: int | None = None
    last_position: Position | None = None  # the position the last play started from

    # --- construction -------------------------------------------------------------------

    @classmethod
    def new(cls, options: MatchOptions | None = None) -> Game:
        """The first game of a match (or a money game), waiting for the opening roll."""
        return cls(options=options or MatchOptions())

    def next_game(self) -> Game:
        """The next game of the match once this one is over, with the score carried."""
        if self.result is None:
            raise NotAllowedNowError("This game is not over yet.", Code.GAME_NOT_OVER)
        if self.match_over:
            raise NotAllowedNowError("The match is over.", Code.MATCH_OVER)
        score = self.final_score
        length = self.options.length
        crawford = not self.post_crawford and not self.crawford and (length - 1 in score)
        return Game(
            options=self.options,
            score=score,
            game_number=self.game_number + 1,
            crawford=crawford,
            post_crawford=self.post_crawford or self.crawford,
        )

    # --- views ---------------------------------------------------------------------------

    @property
    def actor(self) -> int | None:
        """The player who must act now (None when the game is over)."""
        if self.phase is Phase.OVER:
            return None
        if self.resignation is not None:
            return 1 - self.resignation.player
        if self.phase is Phase.DOUBLED and not self.beaver_pending:
            return 1 - self.on_roll
        return self.on_roll

    @property
    def beaver_pending(self) -> bool:
        """Whether the doubled player has beavered and the doubler must now take or drop.

        Only a beaver leaves a double pending with the cube on the receiver's side: a double
        itself needs the cube centred or owned by the doubler.
        """
        return self.phase is Phase.DOUBLED and self.cube_owner == 1 - self.on_roll

    @property
    def final_score(self) -> tuple[int, int]:
        """The match score after this game (the same as ``score`` while it is played)."""
        if self.result is None:
            return self.score
        scores = list(self.score)
        scores[self.result.winner] += self.result.points
        return scores[0], scores[1]

    @property
    def match_over(self) -> bool:
        if self.result is None:
            return False
        if self.options.is_money:
            return True
        return max(self.final_score) >= self.options.length

    @property
    def match_winner(self) -> int | None:
        if not self.match_over or self.result is None:
            return None
        if self.options.is_money:
            return self.result.winner
        return 0 if self.final_score[0] >= self.options.length else 1

    def position_for(self, player: int) -> Position:
        """The board seen by ``player``."""
        return self.position if player == self.on_roll else self.position.flip()

    def pips(self) -> tuple[int, int]:
        """Pip counts of (player 0, player 1)."""
        mine, theirs = self.position.pips()
        return (mine, theirs) if self.on_roll == 0 else (theirs, mine)

    def borne_off(self) -> tuple[int, int]:
        mine, theirs = self.position.borne_off()
        return (mine, theirs) if self.on_roll == 0 else (theirs, mine)

    def legal_plays(self) -> LegalPlays:
        if self.phase is not Phase.MOVE or self.dice is None:
            raise NotAllowedNowError("There are no dice to play: roll first.", Code.NO_DICE)
        return legal_plays(self.position, self.dice)

    def cube_refusal(self) -> str | None:
        """Why the player on roll may not double now (for developers), or None when they may."""
        refusal = self.cube_refusal_error()
        return None if refusal is None else str(refusal)

    def cube_refusal_error(self) -> NotAllowedNowError | None:
        """The refusal a double would meet now, with its code, or None when it is allowed."""
        why = self._cube_refusal()
        if why is None:
            return None
        code, message = why
        params = {"cube": self.cube} if code is Code.CUBE_AT_MAXIMUM else {}
        return NotAllowedNowError(message, code, **params)

    def _cube_refusal(self) -> tuple[Code, str] | None:
        if self.phase is Phase.OVER:
            return Code.GAME_OVER, "The game is over."
        if self.resignation is not None:
            return Code.ANSWER_RESIGNATION, "Answer the resignation offer first."
        if self.phase is Phase.OPENING:
            return (
                Code.DOUBLE_IN_OPENING,
                "You can double only before your own roll, after the opening.",
            )
        if self.phase is Phase.DOUBLED:
            return Code.DOUBLE_ALREADY_OFFERED, "A double is already offered."
        if self.phase is Phase.MOVE:
            return Code.DOUBLE_AFTER_ROLL, "You can double only before you roll."
        if not self.options.cube:
            return Code.CUBE_OFF, "The cube is off in this game."
        if self.options.length == 1:
            return (
                Code.CUBE_DEAD,
                "The cube is dead in a 1-point match: the game is worth 1 point anyway.",
            )
        if self.crawford:
            return Code.CRAWFORD, "No doubling in the Crawford game."
        if self.cube_owner is not None and self.cube_owner != self.on_roll:
            return (
                Code.OPPONENT_OWNS_CUBE,
                "Your opponent owns the cube: only the cube's owner can redouble.",
            )
        if self.options.length and self.score[self.on_roll] + self.cube >= self.options.length:
            return (
                Code.CUBE_GAINS_NOTHING,
                "You already win the match with the current cube: doubling gains nothing.",
            )
        if self.cube * 2 > MAX_CUBE:
            return (
                Code.CUBE_AT_MAXIMUM,
                f"The cube is at {self.cube}, its highest value: play on without doubling.",
            )
        return None

    def can_double(self) -> bool:
        return self.cube_refusal() is None

    @property
    def cube_in_play(self) -> bool:
        """Whether this game has a doubling cube at all: not with the cube off, not in a
        1-point match (the cube is dead) and not in the Crawford game. Where it is in play a
        double may still be refused (the cube at its highest, owned by the other player):
        :meth:`can_double` says that."""
        options = self.options
        return options.cube and options.length != 1 and not self.crawford

    def match_id(self) -> str:
        """GNU Backgammon's Match ID for this state."""
        if self.phase is Phase.OVER and self.result is not None:
            state = {
                EndReason.DROPPED: GAME_DROP,
                EndReason.RESIGNED: GAME_RESIGNED,
            }.get(self.result.reason, GAME_OVER)
        elif self.phase is Phase.OPENING:
            state = GAME_NONE
        else:
            state = GAME_PLAYING
        actor = self.actor
        resigned = self.resignation.kind if self.resignation else 0
        if self.result is not None and self.result.reason is EndReason.RESIGNED:
            resigned = self.result.kind  # GNU Backgammon keeps what was resigned
        return MatchIdFields(
            match_length=self.options.length,
            # GNU Backgammon adds a finished game's points to the score at once.
            score=self.final_score,
            cube=self.cube,
            cube_owner=-1 if self.cube_owner is None else self.cube_owner,
            on_roll=self.on_roll,
            turn=self.on_roll if actor is None else actor,
            crawford=self.crawford,
            double_offered=self.phase is Phase.DOUBLED,
            resigned=int(resigned),
            dice=self.dice if self.phase is Phase.MOVE and self.dice else (0, 0),
            game_state=state,
            jacoby=self.options.jacoby,
        ).encode()

    def position_id(self) -> str:
        return self.position.position_id()

    def xgid(self) -> str:
        """eXtreme Gammon's XGID for this state, player 1 at the bottom (as GNU Backgammon
        reads an XGID); see :class:`~bot.engine.record.PositionRecord`.

        Raises :class:`NotAllowedNowError` before the opening roll and once the game is over:
        an XGID needs a player on roll.

        >>> Game.new(MatchOptions(length=5)).opening_roll(5, 2).xgid()
        'XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:5:10'
        """
        from bot.engine.record import PositionRecord

        return PositionRecord.from_game(self).xgid()

    # --- actions -------------------------------------------------------------------------

    def opening_roll(self, die0: int, die1: int) -> Game:
        """One die each: the higher die's player moves both numbers; a tie rolls again.

        On a tie the game stays in the opening phase, turning the cube first when the
        money-game option for automatic doubles asks for it.
        """
        self._require(Phase.OPENING, Code.OPENING_DONE)
        check_dice((die0, die1))
        if die0 == die1:
            if (
                self.options.is_money
                and self.options.cube
                and self.auto_doubles_done < self.options.auto_doubles
            ):
                return dataclasses.replace(
                    self, cube=self.cube * 2, auto_doubles_done=self.auto_doubles_done + 1
                )
            return self
        winner = 0 if die0 > die1 else 1
        dice = (die0, die1) if winner == 0 else (die1, die0)
        return dataclasses.replace(
            self, on_roll=winner, phase=Phase.MOVE, dice=dice, position=Position.start()
        )

    def roll(self, dice: Dice) -> Game:
        """The player on roll rolls: the game moves to the checker play."""
        self._require_no_resignation()
        self._require(Phase.ROLL)
        return dataclasses.replace(self, phase=Phase.MOVE, dice=check_dice(dice))

    def play(self, play: Play) -> Game:
        """Make a checker play (an empty play when no checker can move)."""
        self._require_no_resignation()
        self._require(Phase.MOVE)
        assert self.dice is not None
        plays = legal_plays(self.position, self.dice)
        try:
            result = self.position.apply(play)
        except IllegalPlayError:
            result = None
        if result is None or result not in plays:
            dice = f"{self.dice[0]}-{self.dice[1]}"
            raise IllegalPlayError(
                f"{play} is not legal with {dice}.",
                Code.NOT_LEGAL,
                play=str(play),
                dice=dice,
                legal=(),
                more=False,
            )
        canonical = plays.play_for(result) or play
        return self._after_play(canonical, result)

    def move(self, text: str) -> Game:
        """Make the checker play written in standard notation."""
        self._require_no_resignation()
        self._require(Phase.MOVE)
        assert self.dice is not None
        plays = legal_plays(self.position, self.dice)
        play = parse_play(self.position, self.dice, text, plays)
        return self._after_play(play, self.position.apply(play))

    def pass_turn(self) -> Game:
        """Forfeit the turn when the roll has no legal play (the only time that is allowed)."""
        self._require_no_resignation()
        self._require(Phase.MOVE)
        if not self.legal_plays().is_forced_pass:
            raise NotAllowedNowError("You have a legal play, so you must move.", Code.MUST_PLAY)
        return self._after_play(Play(()), self.position)

    def double(self) -> Game:
        refusal = self.cube_refusal_error()
        if refusal is not None:
            raise refusal
        return dataclasses.replace(self, phase=Phase.DOUBLED)

    def take(self) -> Game:
        """Accept the double (or the beaver): the cube doubles and goes to the receiver.

        After a beaver the beaverer already holds the cube and keeps it.
        """
        self._require_no_resignation()
        self._require(Phase.DOUBLED, Code.NO_DOUBLE_TO_TAKE)
        return dataclasses.replace(
            self, phase=Phase.ROLL, cube=self.cube * 2, cube_owner=1 - self.on_roll
        )

    def beaver(self) -> Game:
        """Take and at once redouble, keeping the cube (money games with beavers only).

        The doubler then takes or drops the beaver like any double; a drop concedes the
        value of the taken double.
        """
        self._require_no_resignation()
        self._require(Phase.DOUBLED, Code.NO_DOUBLE_TO_BEAVER)
        if not (self.options.is_money and self.options.beavers):
            raise NotAllowedNowError("Beavers are not allowed in this game.", Code.BEAVERS_OFF)
        if self.beaver_pending:
            raise NotAllowedNowError(
                "The beaver is waiting for an answer: take or drop.", Code.BEAVER_PENDING
            )
        if self.cube * 4 > MAX_CUBE:
            raise NotAllowedNowError(
                f"A beaver would take the cube past {MAX_CUBE}: take or drop instead.",
                Code.BEAVER_TOO_HIGH,
                most=MAX_CUBE,
            )
        return dataclasses.replace(self, cube=self.cube * 2, cube_owner=1 - self.on_roll)

    def drop(self) -> Game:
        """Refuse a double: the doubler wins the cube's value before the double.

        Refusing a beaver concedes the beaverer the value of the taken double.
        """
        self._require_no_resignation()
        self._require(Phase.DOUBLED, Code.NO_DOUBLE_TO_DROP)
        winner = self.actor
        assert winner is not None
        return self._finish(1 - winner, ResultKind.SINGLE, EndReason.DROPPED, jacoby=False)

    def offer_resignation(self, player: int, kind: ResultKind = ResultKind.SINGLE) -> Game:
        """``player`` offers to lose a single game, a gammon or a backgammon."""
        _check_player(player)
        if self.phase is Phase.OVER:
            raise NotAllowedNowError("The game is already over.", Code.GAME_OVER)
        if self.phase is Phase.OPENING:
            raise NotAllowedNowError(
                "Wait for the opening roll before resigning.", Code.RESIGN_BEFORE_OPENING
            )
        if self.resignation is not None:
            raise NotAllowedNowError(
                "A resignation offer is already waiting for an answer.", Code.RESIGNATION_PENDING
            )
        return dataclasses.replace(self, resignation=Resignation(player, ResultKind(kind)))

    def accept_resignation(self) -> Game:
        if self.resignation is None:
            raise NotAllowedNowError(
                "There is no resignation offer to accept.", Code.NO_RESIGNATION
            )
        loser = self.resignation.player
        return self._finish(1 - loser, self.resignation.kind, EndReason.RESIGNED)

    def reject_resignation(self) -> Game:
        if self.resignation is None:
            raise NotAllowedNowError(
                "There is no resignation offer to reject.", Code.NO_RESIGNATION
            )
        return dataclasses.replace(self, resignation=None)

    def forfeit(self, winner: int, *, whole_match: bool = True) -> Game:
        """End the game outside the rules (a claim for inactivity).

        With ``whole_match`` the winner is given enough points to win the match.
        """
        _check_player(winner)
        if self.phase is Phase.OVER:
            raise NotAllowedNowError("The game is already over.", Code.GAME_OVER)
        points_needed = (
            max(self.options.length - self.score[winner], 1)
            if whole_match and self.options.length
            else self.cube
        )
        finished = self._finish(winner, ResultKind.SINGLE, EndReason.FORFEIT, jacoby=False)
        assert finished.result is not None
        return dataclasses.replace(
            finished,
            result=dataclasses.replace(finished.result, points=max(points_needed, 1)),
        )

    # --- internals -----------------------------------------------------------------------

    def _after_play(self, play: Play, result: Position) -> Game:
        mover = self.on_roll
        if result.borne_off()[0] == 15:
            kind = _result_kind(result)
            played = dataclasses.replace(
                self,
                position=result,
                last_play=play,
                last_player=mover,
                last_position=self.position,
            )
            return played._finish(mover, kind, EndReason.BORNE_OFF)
        return dataclasses.replace(
            self,
            position=result.flip(),
            on_roll=1 - mover,
            phase=Phase.ROLL,
            dice=None,
            last_play=play,
            last_player=mover,
            last_position=self.position,
        )

    def _finish(
        self, winner: int, kind: ResultKind, reason: EndReason, *, jacoby: bool = True
    ) -> Game:
        if jacoby and self.options.is_money and self.options.jacoby and self.cube_owner is None:
            # Jacoby: gammons count only once a double has been offered and taken. The cube
            # stays centred until then, even when automatic doubles have turned it.
            kind = ResultKind.SINGLE
        points = int(kind) * self.cube
        return dataclasses.replace(
            self,
            phase=Phase.OVER,
            resignation=None,
            result=GameResult(winner, kind, self.cube, points, reason),
        )

    def _require(self, phase: Phase, code: Code | None = None) -> None:
        """Refuse unless the game is in ``phase``: ``code`` says why, else the phase does."""
        if self.phase is not phase:
            code = code or _PHASE_CODES[self.phase]
            raise NotAllowedNowError(_NOT_NOW[code], code)

    def _require_no_resignation(self) -> None:
        if self.resignation is not None:
            raise NotAllowedNowError("Answer the resignation offer first.", Code.ANSWER_RESIGNATION)


# What the game's phase says about an action it does not allow (the phase's own code).
_PHASE_CODES = {
    Phase.OPENING: Code.NOT_STARTED,
    Phase.ROLL: Code.ROLL_FIRST,
    Phase.MOVE: Code.ALREADY_ROLLED,
    Phase.DOUBLED: Code.DOUBLE_PENDING,
    Phase.OVER: Code.GAME_OVER,
}
_NOT_NOW = {
    Code.NOT_STARTED: "The game has not started yet.",
    Code.ROLL_FIRST: "Roll first.",
    Code.ALREADY_ROLLED: "You have already rolled: make your move.",
    Code.DOUBLE_PENDING: "A double is waiting for an answer: take or drop.",
    Code.GAME_OVER: "The game is over.",
    Code.OPENING_DONE: "The opening roll has already been made.",
    Code.NO_DOUBLE_TO_TAKE: "There is no double to take.",
    Code.NO_DOUBLE_TO_BEAVER: "There is no double to beaver.",
    Code.NO_DOUBLE_TO_DROP: "There is no double to drop.",
}


def _check_player(player: int) -> None:
    if player not in (0, 1):
        raise ValueError(f"a player is 0 or 1, not {player!r}")


def _result_kind(position: Position) -> ResultKind:
    """Single, gammon or backgammon, for the player on roll who has just borne off."""
    board = position.board
    if position.borne_off()[1] > 0:
        return ResultKind.SINGLE
    # A backgammon: the loser still has a checker on the bar or in the winner's home board.
    if board[0] > 0 or any(board[p] < 0 for p in range(1, 7)):
        return ResultKind.BACKGAMMON
    return ResultKind.GAMMON
