"""A match as the browser sees it: plain JSON values, the board from player 0's side.

The engine keeps the board from the side of the player on roll; a browser wants one fixed
numbering so that a board does not turn over between two moves. Every point here is
numbered from player 0's side (point 1 is player 0's ace point, player 1's 24-point), a
positive count is player 0's checkers and a negative count player 1's. The client turns the
board for a viewer who plays player 1.

Pure: the engine and the records, nothing else.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from bot.core.records import MatchRow
from bot.engine import Game, Phase, Position
from bot.engine.game import MAX_CUBE
from bot.engine.position import CHECKERS

Json = dict[str, Any]


def absolute(position: Position, on_roll: int) -> tuple[list[int], tuple[int, int]]:
    """Points 1..24 from player 0's side (index 0 is point 1) and both bars (player 0's,
    player 1's), from a position seen by the player ``on_roll``."""
    board = position.board
    if on_roll == 0:
        return [board[i] for i in range(1, 25)], (board[25], board[0])
    return [-board[25 - i] for i in range(1, 25)], (board[0], board[25])


def to_absolute(point: int, player: int) -> int:
    """A point numbered from ``player``'s side (25 the bar, 0 off) in player 0's numbering;
    the bar and off keep their numbers (whose they are follows from the player)."""
    if point in (0, 25) or player == 0:
        return point
    return 25 - point


def board_json(position: Position, on_roll: int) -> Json:
    points, bars = absolute(position, on_roll)
    on_board = (sum(n for n in points if n > 0), -sum(n for n in points if n < 0))
    off = (CHECKERS - on_board[0] - bars[0], CHECKERS - on_board[1] - bars[1])
    return {"points": points, "bar": list(bars), "off": list(off)}


class Asked(StrEnum):
    """What the player to act is asked, as the board picture's panel says it
    (:func:`renderers.panels.status`); the page says it in its own words."""

    OPENING = "opening"
    ROLL = "roll"
    ROLL_OR_DOUBLE = "roll_or_double"
    MOVE = "move"
    TAKE_OR_DROP = "take_or_drop"
    ACCEPT_OR_REJECT = "accept_or_reject"


def asked(game: Game) -> Asked | None:
    """What the game waits for (None once it is over)."""
    if game.phase is Phase.OVER:
        return None
    if game.resignation is not None:
        return Asked.ACCEPT_OR_REJECT
    if game.phase is Phase.OPENING:
        return Asked.OPENING
    if game.phase is Phase.DOUBLED:
        return Asked.TAKE_OR_DROP
    if game.phase is Phase.ROLL:
        return Asked.ROLL_OR_DOUBLE if game.can_double() else Asked.ROLL
    return Asked.MOVE


def cube_in_play(game: Game) -> bool:
    """Whether the game has a doubling cube at all (:attr:`bot.engine.Game.cube_in_play`),
    as the board picture draws it (:meth:`renderers.board._Scene.draw_cube`)."""
    return game.cube_in_play


def cube_offered(game: Game) -> Json | None:
    """While a double waits for its answer, the cube as the board picture draws it: the
    value offered, at the end of the player doubled (after a beaver, the beaverer's, with
    the beaver's value); None otherwise. ``cube`` and ``cube_owner`` stay the stake until
    the answer."""
    if game.phase is not Phase.DOUBLED:
        return None
    return {"value": game.cube * 2, "player": 1 - game.on_roll}


def game_json(game: Game) -> Json:
    """What a board shows: checkers, pip counts, dice, cube (whether there is one, and an
    offer pending), score, whose turn and what is asked, and the last play (its moves and
    the points it hit, from player 0's side)."""
    result = game.result
    last = None
    if game.last_play is not None and game.last_player is not None:
        mover = game.last_player
        last = {
            "player": mover,
            "moves": [
                [to_absolute(m.source, mover), to_absolute(m.target, mover)]
                for m in game.last_play.moves
            ],
            "hits": [to_absolute(m.target, mover) for m in game.last_play.moves if m.hit],
            "text": str(game.last_play),
        }
    return {
        **board_json(game.position, game.on_roll),
        "pips": list(game.pips()),
        "on_roll": game.on_roll,
        "actor": game.actor,
        "phase": game.phase.value,
        "asks": asked(game),
        "dice": list(game.dice) if game.dice is not None else None,
        "cube": game.cube,
        "cube_owner": game.cube_owner,
        "cube_in_play": cube_in_play(game),
        "cube_offered": cube_offered(game),
        "can_double": game.phase is Phase.ROLL and game.can_double(),
        # Beaver offered beside Take and Drop: money games played with beavers, first answer.
        "can_beaver": game.phase is Phase.DOUBLED
        and game.options.is_money
        and game.options.beavers
        and not game.beaver_pending
        and game.cube * 4 <= MAX_CUBE,
        "score": list(game.score),  # before this game
        "final_score": list(game.final_score),  # after it (the same while it is played)
        "length": game.options.length,
        "game_number": game.game_number,
        "crawford": game.crawford,
        "resignation": None
        if game.resignation is None
        else {"player": game.resignation.player, "kind": int(game.resignation.kind)},
        "result": None
        if result is None
        else {"winner": result.winner, "points": result.points, "kind": int(result.kind)},
        "last": last,
    }


def match_json(row: MatchRow, *, with_ids: bool = False) -> Json:
    """The match and its current game (None before it started). ``match`` is its web key,
    never the row id (which a loop could count); the players' Discord ids only
    ``with_ids``, for the Activity, whose players are told apart by them (a spectator's page
    needs no one's id)."""
    out: Json = {
        "match": row.web_key or "",
        "version": row.version,
        "status": row.status.value,
        "live": row.live,
        "names": list(row.player_names),
        "computer": row.computer_level is not None,
        "winner": row.winner,
        "final_score": list(row.final_score) if row.final_score else None,
        "last_action_at": row.last_action_at,  # since when the player to act is awaited
        "game": None if row.game is None else game_json(row.game),
    }
    if with_ids:
        # Snowflakes as text: a JavaScript number cannot hold them exactly.
        out["player_ids"] = [str(user) for user in row.player_ids]
    return out


__all__ = [
    "Asked",
    "Json",
    "absolute",
    "asked",
    "board_json",
    "cube_in_play",
    "cube_offered",
    "game_json",
    "match_json",
    "to_absolute",
]
