"""JSON-ready dictionaries for engine values, so the store can keep a game in one column.

The engine stays free of persistence concerns; this module is the one place that knows how
a :class:`~bot.engine.Game` looks on disk. Unknown keys are ignored and missing ones take
their defaults, so older rows still load after a field is added.
"""

from __future__ import annotations

import json
from typing import Any

from bot.engine import (
    EndReason,
    Game,
    GameResult,
    MatchOptions,
    Move,
    Phase,
    Play,
    Position,
    Resignation,
    ResultKind,
)


def options_to_dict(options: MatchOptions) -> dict[str, Any]:
    return {
        "length": options.length,
        "cube": options.cube,
        "jacoby": options.jacoby,
        "beavers": options.beavers,
        "auto_doubles": options.auto_doubles,
    }


def options_from_dict(data: dict[str, Any]) -> MatchOptions:
    return MatchOptions(
        length=int(data.get("length", 0)),
        cube=bool(data.get("cube", True)),
        jacoby=bool(data.get("jacoby", False)),
        beavers=bool(data.get("beavers", False)),
        auto_doubles=int(data.get("auto_doubles", 0)),
    )


def _play_to_list(play: Play | None) -> list[list[int]] | None:
    if play is None:
        return None
    return [[m.source, m.target, int(m.hit)] for m in play.moves]


def _play_from_list(data: list[list[int]] | None) -> Play | None:
    if data is None:
        return None
    return Play(tuple(Move(s, t, bool(h)) for s, t, h in data))


def game_to_dict(game: Game) -> dict[str, Any]:
    result = game.result
    return {
        "options": options_to_dict(game.options),
        "board": list(game.position.board),
        "on_roll": game.on_roll,
        "phase": game.phase.value,
        "dice": list(game.dice) if game.dice else None,
        "cube": game.cube,
        "cube_owner": game.cube_owner,
        "score": list(game.score),
        "game_number": game.game_number,
        "crawford": game.crawford,
        "post_crawford": game.post_crawford,
        "auto_doubles_done": game.auto_doubles_done,
        "resignation": (
            [game.resignation.player, int(game.resignation.kind)] if game.resignation else None
        ),
        "result": (
            [result.winner, int(result.kind), result.cube, result.points, result.reason.value]
            if result
            else None
        ),
        "last_play": _play_to_list(game.last_play),
        "last_player": game.last_player,
        "last_board": list(game.last_position.board) if game.last_position else None,
    }


def game_from_dict(data: dict[str, Any]) -> Game:
    resignation = data.get("resignation")
    result = data.get("result")
    dice = data.get("dice")
    last_board = data.get("last_board")
    return Game(
        options=options_from_dict(data.get("options", {})),
        position=Position.from_board(data["board"]),
        on_roll=int(data.get("on_roll", 0)),
        phase=Phase(data.get("phase", Phase.OPENING.value)),
        dice=(int(dice[0]), int(dice[1])) if dice else None,
        cube=int(data.get("cube", 1)),
        cube_owner=data.get("cube_owner"),
        score=(int(data["score"][0]), int(data["score"][1])) if "score" in data else (0, 0),
        game_number=int(data.get("game_number", 1)),
        crawford=bool(data.get("crawford", False)),
        post_crawford=bool(data.get("post_crawford", False)),
        auto_doubles_done=int(data.get("auto_doubles_done", 0)),
        resignation=(
            Resignation(int(resignation[0]), ResultKind(resignation[1])) if resignation else None
        ),
        result=(
            GameResult(
                int(result[0]),
                ResultKind(result[1]),
                int(result[2]),
                int(result[3]),
                EndReason(result[4]),
            )
            if result
            else None
        ),
        last_play=_play_from_list(data.get("last_play")),
        last_player=data.get("last_player"),
        last_position=Position.from_board(last_board) if last_board else None,
    )


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def loads(text: str) -> Any:
    return json.loads(text)
