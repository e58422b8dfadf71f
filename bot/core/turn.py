"""One action's working state and the rules that follow from it by themselves.

A :class:`Turn` holds the game as an action changes it and everything the change will write
(events, finished games, the outcome) and show (its steps, the boards worth drawing): values,
never words (``bot.present.story`` tells them). After a player's action the
rules take over: the opening roll, a forced pass, a forced play when the table asks, the end
of a game and the start of the next. All of it happens in memory; the session stores it as
one change.
"""

from __future__ import annotations

from bot.core.dice import Roller, SystemRoller
from bot.core.errors import Name, NotYourTurnError, Refusal, StaleButtonError, UserError
from bot.core.facts import Step
from bot.core.fairdice import FairRoller
from bot.core.records import (
    Action,
    ClaimRule,
    FinishedGame,
    MatchOutcome,
    MatchRow,
    NewEvent,
    Status,
)
from bot.core.records import (
    EndReason as MatchEnd,
)
from bot.core.reports import ActionContext, Player
from bot.engine import Game, GameResult, Phase


def check_button(row: MatchRow, ctx: ActionContext) -> None:
    """Refuse a button pressed on a board of another state than the live one.

    Called under the channel's lock with the live row, whose id already matches the
    button's match. The version moves on with every stored action, so a board's buttons act
    only on the state the board showed: never on a later turn or a later game of the match.
    A button without a version was posted before buttons carried one: the match alone is
    exact for a pending challenge (it changes only when answered), not for a running game.
    """
    if ctx.match_id is None:
        return
    if ctx.version is None:
        if row.status == Status.CHALLENGE:
            return
        raise StaleButtonError(Refusal.OLD_BOARD)
    if row.version == ctx.version:
        return
    game = row.game
    if game is not None and ctx.game_number and game.game_number != ctx.game_number:
        raise StaleButtonError(Refusal.OTHER_GAME, old=ctx.game_number, current=game.game_number)
    raise StaleButtonError(Refusal.EARLIER_TURN)


def require_challenge(row: MatchRow) -> None:
    if row.status != Status.CHALLENGE:
        raise UserError(Refusal.ALREADY_STARTED)


class Turn:
    """The working state of one action: the game as it evolves, and what to write.

    Every change to ``game`` is logged (:meth:`log`) as a :class:`~bot.core.facts.Step`, the
    event with the game before and after it: the report tells the story from those steps.
    """

    def __init__(self, row: MatchRow, now: float, roller: Roller | None = None) -> None:
        self.row = row
        self.now = now
        self.public: str | None = None  # the dice's public value, fixed by this action
        self._default_roller = roller or SystemRoller()
        self._fair: FairRoller | None = None
        self.game: Game | None = row.game
        self._logged: Game | None = row.game  # the game as the last step left it
        self.events: list[NewEvent] = []
        self.steps: list[Step] = []
        self.boards: list[Game] = []
        self.finished: list[FinishedGame] = []
        self.outcome: MatchOutcome | None = None
        self.status = row.status
        self.last_result: GameResult | None = None

    def who(self, player: int) -> Name:
        """A player's name as a refusal's parameter (the front end formats it)."""
        return Name(self.row.player_names[player])

    def die(self) -> int:
        """The next die: from the match's committed secret, or the service's roller.

        A committed match draws from its secret and public value, counting on from the
        dice already stored, so a retried or resumed action rolls exactly the same dice.
        """
        seal = self.row.dice
        if seal is None:
            return self._default_roller.die()
        if self._fair is None:
            public = self.public or seal.public
            if public is None:
                raise AssertionError(f"match {self.row.id}: dice drawn before the match began")
            self._fair = FairRoller(bytes.fromhex(seal.secret), public, drawn=seal.drawn)
        return self._fair.die()

    @property
    def dice_drawn(self) -> int | None:
        return self._fair.drawn if self._fair is not None else None

    def log(
        self,
        action: Action,
        actor_id: int | None,
        player: int | None,
        notation: str | None = None,
        dice: tuple[int, int] | None = None,
    ) -> None:
        """Log an event of the game as it now stands (``game``), after the last step's."""
        assert self.game is not None
        event = NewEvent(
            game_number=self.game.game_number,
            actor_id=actor_id,
            player=player,
            action=action,
            position_id=self.game.position_id(),
            gnu_match_id=self.game.match_id(),
            notation=notation,
            dice=dice,
        )
        self.events.append(event)
        self.steps.append(Step(event, self._logged, self.game))
        self._logged = self.game

    def participant(self, user: Player) -> tuple[int, Game]:
        """The acting player's seat and the running game; refuses outsiders."""
        me = self.row.player_index(user.id)
        if me is None:
            raise NotYourTurnError(Refusal.NOT_A_PLAYER, first=self.who(0), second=self.who(1))
        if self.game is None or self.status != Status.PLAYING:
            raise UserError(Refusal.NOT_STARTED)
        return me, self.game

    def my_turn(self, user: Player, verb: Action) -> tuple[int, Game]:
        """The acting player's seat and game when it is their turn to ``verb``."""
        me, game = self.participant(user)
        if game.resignation is not None:
            offerer = game.resignation.player
            if offerer == me:
                raise UserError(Refusal.WAIT_RESIGNATION_ANSWER, opponent=self.who(1 - me))
            raise UserError(Refusal.ANSWER_RESIGNATION_FIRST)
        actor = game.actor
        if actor != me:
            assert actor is not None
            if game.phase is Phase.DOUBLED:
                raise NotYourTurnError(Refusal.WAITING_TAKE_DROP, player=self.who(actor))
            if verb in (Action.TAKE, Action.DROP):
                raise UserError(Refusal.NO_DOUBLE_TO_ANSWER)
            raise NotYourTurnError(Refusal.NOT_YOUR_TURN, player=self.who(actor))
        return me, game

    def claim(self, user: Player, limit: float, rule: ClaimRule) -> Action:
        """Win by the opponent's time-out, once they have been idle ``limit`` seconds.

        What it wins follows the server's :class:`~bot.core.records.ClaimRule`: the match, at
        the score reached (the game in progress is left as it stands and the idle player
        keeps their points), or the game in progress. A match decided by a claim is a
        forfeit: recorded, never rated (see :func:`bot.storage.stats.rates`).
        """
        me, game = self.participant(user)
        if game.actor == me:
            raise UserError(Refusal.CLAIM_ON_OWN_TURN)
        idle = self.now - self.row.last_action_at
        if idle < limit:
            left = max(1, round((limit - idle) / 60))
            raise UserError(Refusal.CLAIM_TOO_EARLY, opponent=self.who(1 - me), minutes=left)
        if rule is ClaimRule.MATCH and game.options.length > 1:
            self.log(Action.CLAIM, user.id, me, notation=ClaimRule.MATCH)
            self.boards.append(game)
            self.status = Status.FINISHED
            self.outcome = MatchOutcome(me, game.score, MatchEnd.FORFEIT)
        else:
            self.game = game.forfeit(me, whole_match=False)
            self.log(Action.CLAIM, user.id, me, notation=ClaimRule.GAME)
            self.after_game_end()
        return Action.CLAIM

    # --- follow-on events: what the rules do by themselves after an action ----------------

    def opening(self) -> None:
        """Roll one die each until they differ; the higher die moves both numbers."""
        assert self.game is not None
        game = self.game
        while game.phase is Phase.OPENING:
            dice = (self.die(), self.die())
            game = game.opening_roll(*dice)
            self.game = game
            self.log(Action.OPENING, None, None, dice=dice)
        self.after_roll()

    def after_roll(self) -> None:
        """Pass the turn when no checker can move; make a forced play if the table asks."""
        game = self.game
        assert game is not None and game.dice is not None
        plays = game.legal_plays()
        mover = game.on_roll
        if plays.is_forced_pass:
            self.game = game.pass_turn()
            self.log(Action.PASS, None, mover, dice=game.dice)
        elif self.row.auto_play and len(plays) == 1:
            (play,) = plays
            self.game = game.play(play)
            self.log(Action.MOVE, None, mover, notation=str(play), dice=game.dice)
            self.after_play()

    def after_play(self) -> None:
        if self.game is not None and self.game.phase is Phase.OVER:
            self.after_game_end()

    def after_game_end(self) -> None:
        game = self.game
        assert game is not None and game.result is not None
        result = game.result
        self.last_result = result
        self.finished.append(FinishedGame(game.game_number, result))
        self.boards.append(game)
        if game.match_over:
            winner = game.match_winner
            assert winner is not None
            self.status = Status.FINISHED
            self.outcome = MatchOutcome(winner, game.final_score, MatchEnd.of_game(result.reason))
            return
        following = game.next_game()
        self.game = following
        self.log(Action.NEXT_GAME, None, None)
        self.opening()


__all__ = ["Turn", "check_button", "require_challenge"]
