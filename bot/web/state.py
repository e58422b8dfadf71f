"""A match as the browser sees it: plain JSON values, the board from player 0's side.

The engine keeps the board from the side of the player on roll; a browser wants one fixed
numbering so that a board does not turn over between two moves. Every point here is
numbered from player 0's side (point 1 is player 0's ace point, player 1's 24-point), a
positive count is player 0's checkers and a negative count player 1's. The client turns the
board for a viewer who plays player 1.

Pure: the engine and the records, nothing else.
"""

from __future__ import annotations

from typing import Any

from bot.core.records import MatchRow
from bot.engine import Game, Position
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


def game_json(game: Game) -> Json:
    """What a board shows: checkers, dice, cube, score, whose turn and what is asked."""
    result = game.result
    last = None
    if game.last_play is not None and game.last_player is not None:
        last = {
            "player": game.last_player,
            "moves": [
                [to_absolute(m.source, game.last_player), to_absolute(m.target, game.last_player)]
                for m in game.last_play.moves
            ],
            "text": str(game.last_play),
        }
    return {
        **board_json(game.position, game.on_roll),
        "on_roll": game.on_roll,
        "actor": game.actor,
        "phase": game.phase.value,
        "dice": list(game.dice) if game.dice is not None else None,
        "cube": game.cube,
        "cube_owner": game.cube_owner,
        "can_double": game.phase.value == "roll" and game.can_double(),
        # Beaver offered beside Take and Drop: money games played with beavers, first answer.
        "can_beaver": game.phase.value == "doubled"
        and game.options.is_money
        and game.options.beavers
        and not game.beaver_pending
        and game.cube * 4 <= MAX_CUBE,
        "score": list(game.score),
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
        "game": None if row.game is None else game_json(row.game),
    }
    if with_ids:
        # Snowflakes as text: a JavaScript number cannot hold them exactly.
        out["player_ids"] = [str(user) for user in row.player_ids]
    return out


__all__ = ["Json", "absolute", "board_json", "game_json", "match_json", "to_absolute"]
