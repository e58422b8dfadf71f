"""The action core: what each game action does to a :class:`~bot.core.turn.Turn`, in one table.

One function per action, pure of the database and of locks: each checks the actor, applies
the engine's rule to ``turn.game`` and logs the event (the report tells it later, in
``bot/present``). :data:`RULES` maps every :class:`~bot.core.records.Action` a player can take to
its function: the session runs them under the channel's lock
(:meth:`bot.core.session.SessionService.act`), and every front end (commands, buttons, the tap
picker, offline play) and the computer opponent (:mod:`bot.core.opponent`) name an action and
go through that one table. May import the engine, the records, the errors and the turn;
never storage, never ``bot/present``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from bot.core.errors import NotYourTurnError, Refusal, UserError
from bot.core.records import Action, MatchRow, Status
from bot.core.reports import Player
from bot.core.turn import Turn, require_challenge
from bot.engine import Game, Phase, Play, ResultKind


class MoveCheck(StrEnum):
    """Whether someone may build a checker play now (:func:`may_move`)."""

    YES = "yes"
    NO_TURN = "no-turn"  # no play is awaited: not started, over, a roll or a cube answer due
    NOT_YOURS = "not-yours"  # a play is awaited, from the other player (or the computer)


def may_move(row: MatchRow, user_id: int) -> MoveCheck:
    """The one "may this user move now" check of every front end that builds a play step by
    step (the tap picker, the Activity) before it hands the play to :data:`RULES`: a live
    game in its move phase, dice out, no resignation waiting, and ``user_id`` the player
    on roll (never the computer's seat)."""
    game = row.game
    if (
        row.status != Status.PLAYING
        or game is None
        or game.phase is not Phase.MOVE
        or game.resignation is not None
        or game.dice is None
    ):
        return MoveCheck.NO_TURN
    mover = game.on_roll
    if row.player_index(user_id) != mover or (row.computer_level is not None and mover == 1):
        return MoveCheck.NOT_YOURS
    return MoveCheck.YES


def accept(
    turn: Turn, user: Player, public: str | None = None, start: Game | None = None
) -> Action:
    """The challenged player accepts: the game begins with the opening roll, or, given a
    ``start`` (a game against the computer played on from a position), from that state,
    logged with its XGID so the log alone still rebuilds the match."""
    row = turn.row
    require_challenge(row)
    if user.id != row.player_ids[1]:
        if user.id == row.player_ids[0]:
            raise NotYourTurnError(Refusal.WAITING_ACCEPT, player=turn.who(1))
        raise NotYourTurnError(Refusal.CHALLENGE_FOR, player=turn.who(1))
    turn.status = Status.PLAYING
    turn.game = Game.new(row.options) if start is None else start
    if row.dice is not None:
        # Fixed only now, after the commitment was posted: nobody could choose the
        # secret to suit it. Without one from the front end, a fresh random value.
        turn.public = public or secrets.token_hex(8)
    if start is None:
        turn.log(Action.START, user.id, 1)
        turn.opening()
    else:
        turn.log(Action.START, user.id, 1, notation=start.xgid())
        if start.phase is Phase.MOVE:
            turn.after_roll()  # a roll with no legal play passes at once
    return Action.ACCEPT


def decline(turn: Turn, user: Player) -> Action:
    """The challenged player declines, or the challenger withdraws."""
    row = turn.row
    require_challenge(row)
    if user.id == row.player_ids[1]:
        turn.status = Status.DECLINED
        return Action.DECLINE
    if user.id == row.player_ids[0]:
        turn.status = Status.WITHDRAWN
        return Action.WITHDRAW
    raise NotYourTurnError(Refusal.CHALLENGE_FOR, player=turn.who(1))


def roll(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.ROLL)
    # A dry run with dummy dice raises the engine's explanation when rolling is not
    # allowed now, before a real die is taken from the roller.
    game.roll((1, 1))
    dice = (turn.die(), turn.die())
    turn.game = game.roll(dice)
    turn.log(Action.ROLL, user.id, me, dice=dice)
    turn.after_roll()
    return Action.ROLL


def move(turn: Turn, user: Player, play: Play | str) -> Action:
    """A checker play: the engine's :class:`~bot.engine.Play` (the computer's), or text in
    standard notation (a person's), parsed against the legal plays."""
    me, game = turn.my_turn(user, Action.MOVE)
    dice = game.dice
    turn.game = game.play(play) if isinstance(play, Play) else game.move(play)
    made = turn.game.last_play
    assert made is not None and dice is not None
    turn.log(Action.MOVE, user.id, me, notation=str(made), dice=dice)
    turn.after_play()
    return Action.MOVE


def double(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.DOUBLE)
    turn.game = game.double()
    turn.log(Action.DOUBLE, user.id, me)
    return Action.DOUBLE


def take(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.TAKE)
    turn.game = game.take()
    turn.log(Action.TAKE, user.id, me)
    return Action.TAKE


def beaver(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.TAKE)
    turn.game = game.beaver()
    turn.log(Action.BEAVER, user.id, me)
    return Action.BEAVER


def drop(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.DROP)
    turn.game = game.drop()
    turn.log(Action.DROP, user.id, me)
    turn.after_game_end()
    return Action.DROP


def resign(turn: Turn, user: Player, kind: ResultKind = ResultKind.SINGLE) -> Action:
    """Offer to resign ``kind``; the opponent accepts or rejects."""
    me, game = turn.participant(user)
    if game.phase is Phase.DOUBLED:
        raise UserError(Refusal.ANSWER_DOUBLE_FIRST)
    turn.game = game.offer_resignation(me, ResultKind(kind))
    turn.log(Action.RESIGN, user.id, me, notation=ResultKind(kind).name.lower())
    return Action.RESIGN


def answer_resignation(turn: Turn, user: Player, accept: bool) -> Action:
    me, game = turn.participant(user)
    offer = game.resignation
    if offer is None:
        raise UserError(Refusal.NO_RESIGNATION_OFFER)
    if offer.player == me:
        raise NotYourTurnError(Refusal.OPPONENT_MUST_ANSWER, opponent=turn.who(1 - me))
    if accept:
        turn.game = game.accept_resignation()
        turn.log(Action.RESIGN_ACCEPT, user.id, me)
        turn.after_game_end()
        return Action.RESIGN_ACCEPT
    turn.game = game.reject_resignation()
    turn.log(Action.RESIGN_REJECT, user.id, me)
    return Action.RESIGN_REJECT


def accept_resignation(turn: Turn, user: Player) -> Action:
    return answer_resignation(turn, user, True)


def reject_resignation(turn: Turn, user: Player) -> Action:
    return answer_resignation(turn, user, False)


Rule = Callable[..., Action]  # (turn, user, **params) -> the action done

# Every action a player takes on a live challenge or game, and what it does to the turn.
# CLAIM and CANCEL need what only the session knows (the server's claim rule, the time
# limit; the moderator's right, checked by the front end): the session supplies them.
RULES: dict[Action, Rule] = {
    Action.ACCEPT: accept,
    Action.DECLINE: decline,
    Action.ROLL: roll,
    Action.MOVE: move,
    Action.DOUBLE: double,
    Action.TAKE: take,
    Action.BEAVER: beaver,
    Action.DROP: drop,
    Action.RESIGN: resign,
    Action.RESIGN_ACCEPT: accept_resignation,
    Action.RESIGN_REJECT: reject_resignation,
}

# The actions that act on a challenge still waiting for its answer.
ON_CHALLENGE = frozenset({Action.ACCEPT, Action.DECLINE, Action.CANCEL})


def apply(turn: Turn, action: Action, user: Player, **params: Any) -> Action:
    """Run ``action`` for ``user`` on ``turn`` through :data:`RULES`."""
    return RULES[action](turn, user, **params)


__all__ = [
    "ON_CHALLENGE",
    "RULES",
    "accept",
    "answer_resignation",
    "apply",
    "beaver",
    "decline",
    "double",
    "drop",
    "move",
    "resign",
    "roll",
    "take",
]
