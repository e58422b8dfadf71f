"""The action core: what each game action does to a :class:`~bot.turn.Turn`.

One function per action, pure of the database and of locks: each checks the actor, applies
the engine's rule to ``turn.game``, logs the event and says what happened. The session runs
them under the channel's lock (:class:`bot.session.SessionService`); the computer opponent
(:mod:`bot.opponent`) runs the same functions for its own turns, inside the same transaction.
May import the engine, the records, the turn and ``bot/present``'s words; never storage.
"""

from __future__ import annotations

import secrets

from bot.engine import Game, Play
from bot.errors import NotYourTurnError, Refusal, UserError
from bot.i18n import _
from bot.present import dice_words, points_words
from bot.records import Action, Status
from bot.reports import Player
from bot.turn import Turn, commitment_line, require_challenge


def accept(turn: Turn, user: Player, public: str | None = None) -> Action:
    row = turn.row
    require_challenge(row)
    if user.id != row.player_ids[1]:
        if user.id == row.player_ids[0]:
            raise NotYourTurnError(Refusal.WAITING_ACCEPT, player=turn.who(1))
        raise NotYourTurnError(Refusal.CHALLENGE_FOR, player=turn.who(1))
    turn.status = Status.PLAYING
    turn.game = Game.new(row.options)
    turn.lines.append(_("{player} accepts.", player=turn.name(1)))
    if row.dice is not None:
        # Fixed only now, after the commitment was posted: nobody could choose the
        # secret to suit it. Without one from the front end, a fresh random value.
        turn.public = public or secrets.token_hex(8)
        turn.lines.append(commitment_line(row.dice, turn.public))
    turn.log(Action.START, user.id, 1)
    turn.opening()
    return Action.ACCEPT


def roll(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.ROLL)
    # A dry run with dummy dice raises the engine's explanation when rolling is not
    # allowed now, before a real die is taken from the roller.
    game.roll((1, 1))
    dice = (turn.die(), turn.die())
    turn.game = game.roll(dice)
    turn.log(Action.ROLL, user.id, me, dice=dice)
    turn.lines.append(_("{player} rolls {dice}.", player=turn.name(me), dice=dice_words(dice)))
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
    rolled = _("{player} rolls {dice}.", player=turn.name(me), dice=dice_words(dice))
    if turn.lines and turn.lines[-1] == rolled:
        turn.lines.pop()  # the roll and the play in one line when both happen here
    turn.lines.append(
        _(
            "{player} rolls {dice} and plays {play}.",
            player=turn.name(me),
            dice=dice_words(dice),
            play=str(made),
        )
    )
    turn.after_play()
    return Action.MOVE


def double(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.DOUBLE)
    turn.game = game.double()
    turn.log(Action.DOUBLE, user.id, me)
    turn.lines.append(
        _(
            "{player} doubles to {cube}. {opponent}: take or drop.",
            player=turn.name(me),
            cube=game.cube * 2,
            opponent=turn.name(1 - me),
        )
    )
    return Action.DOUBLE


def take(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.TAKE)
    turn.game = game.take()
    turn.log(Action.TAKE, user.id, me)
    # After a beaver the doubler is the one taking, and the beaverer keeps the cube.
    taken = turn.game
    owner = taken.cube_owner if taken.cube_owner is not None else me
    turn.lines.append(
        _(
            "{player} takes: the cube is at {cube} and {owner} owns it. {roller} to roll.",
            player=turn.name(me),
            cube=taken.cube,
            owner=turn.name(owner),
            roller=turn.name(taken.on_roll),
        )
    )
    return Action.TAKE


def beaver(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.TAKE)
    turn.game = game.beaver()
    turn.log(Action.BEAVER, user.id, me)
    # The beaver is a take and a redouble: the doubler must now answer it.
    cube = turn.game.cube
    turn.lines.append(
        _(
            "{player} beavers: the cube is at {cube} and {player} owns it. {opponent}: "
            "take the beaver (cube to {next}) or drop it ({points}).",
            player=turn.name(me),
            cube=cube,
            opponent=turn.name(1 - me),
            next=cube * 2,
            points=points_words(cube),
        )
    )
    return Action.BEAVER


def drop(turn: Turn, user: Player) -> Action:
    me, game = turn.my_turn(user, Action.DROP)
    turn.game = game.drop()
    turn.log(Action.DROP, user.id, me)
    turn.lines.append(_("{player} drops.", player=turn.name(me)))
    turn.after_game_end()
    return Action.DROP


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
        turn.lines.append(_("{player} accepts the resignation.", player=turn.name(me)))
        turn.after_game_end()
        return Action.RESIGN_ACCEPT
    turn.game = game.reject_resignation()
    turn.log(Action.RESIGN_REJECT, user.id, me)
    turn.lines.append(_("{player} rejects the resignation. Play on.", player=turn.name(me)))
    return Action.RESIGN_REJECT


__all__ = ["accept", "answer_resignation", "beaver", "double", "drop", "move", "roll", "take"]
