"""One finished game's review (each human's analysis and the game's luck) as JSON and back.

The analysis of a finished game never changes, so the review worked out when the game ended
is stored with it (``game_reviews``): an ``/analyze`` after a restart reads it instead of
evaluating the whole match again. Plain values only, as :mod:`bot.core.codec` stores games:
nothing here can run code when it is read back.

>>> from bot.computer.luck import GameLuck, MatchLuck
>>> review = ({0: PlayerAnalysis(player=0, checker_decisions=3)}, MatchLuck([GameLuck(1)]))
>>> review_from_text(review_to_text(review)) == review
True
"""

from __future__ import annotations

from typing import Any

from bot.computer import CubeDecision, Mistake, PerformanceRating, PlayerAnalysis, PRPart
from bot.computer.luck import GameLuck, MatchLuck, PlayPoint, RollLuck
from bot.core.codec import dumps, game_from_dict, game_to_dict, loads
from bot.engine import Move, Play

GameReview = tuple[dict[int, PlayerAnalysis], MatchLuck]
# Bumped when the shape changes: an old text is then simply worked out again. 2: each
# player's PR (its counted decisions) and each roll's and game's luck at its stake.
FORMAT = 2


def _decision_to_data(decision: Play | CubeDecision) -> dict[str, Any]:
    if isinstance(decision, Play):
        return {"play": [[m.source, m.target, int(m.hit)] for m in decision.moves]}
    return {"cube": CubeDecision(decision).value}


def _decision_from_data(data: dict[str, Any]) -> Play | CubeDecision:
    if "play" in data:
        return Play(tuple(Move(s, t, bool(h)) for s, t, h in data["play"]))
    return CubeDecision(data["cube"])


def _mistake_to_data(mistake: Mistake) -> dict[str, Any]:
    return {
        "player": mistake.player,
        "game": game_to_dict(mistake.game),
        "decision": _decision_to_data(mistake.decision),
        "made": mistake.made,
        "best": mistake.best,
        "equity_lost": mistake.equity_lost,
        "kind": mistake.kind,
        "position_id": mistake.position_id,
    }


def _mistake_from_data(data: dict[str, Any]) -> Mistake:
    return Mistake(
        player=data["player"],
        game=game_from_dict(data["game"]),
        decision=_decision_from_data(data["decision"]),
        made=data["made"],
        best=data["best"],
        equity_lost=data["equity_lost"],
        kind=data["kind"],
        position_id=data["position_id"],
    )


def _analysis_to_data(analysis: PlayerAnalysis) -> dict[str, Any]:
    return {
        "player": analysis.player,
        "checker_decisions": analysis.checker_decisions,
        "checker_error": analysis.checker_error,
        "cube_decisions": analysis.cube_decisions,
        "cube_error": analysis.cube_error,
        "blunders": analysis.blunders,
        "mistakes": [_mistake_to_data(m) for m in analysis.mistakes],
        "pr": _performance_to_data(analysis.performance),
    }


def _performance_to_data(performance: PerformanceRating) -> list[Any]:
    checker, cube = performance.checker, performance.cube
    return [checker.decisions, checker.error, cube.decisions, cube.error]


def _performance_from_data(data: list[Any]) -> PerformanceRating:
    checker_decisions, checker_error, cube_decisions, cube_error = data
    return PerformanceRating(
        PRPart(checker_decisions, checker_error), PRPart(cube_decisions, cube_error)
    )


def _analysis_from_data(data: dict[str, Any]) -> PlayerAnalysis:
    return PlayerAnalysis(
        player=data["player"],
        checker_decisions=data["checker_decisions"],
        checker_error=data["checker_error"],
        cube_decisions=data["cube_decisions"],
        cube_error=data["cube_error"],
        blunders=data["blunders"],
        mistakes=tuple(_mistake_from_data(m) for m in data["mistakes"]),
        performance=_performance_from_data(data["pr"]),
    )


def _roll_to_data(roll: RollLuck) -> list[Any]:
    return [
        roll.game_number,
        roll.player,
        list(roll.dice),
        roll.luck,
        roll.equity,
        roll.average,
        roll.opening,
        roll.play,
        roll.result_luck,
    ]


def _roll_from_data(data: list[Any]) -> RollLuck:
    number, player, dice, luck, equity, average, opening, play, result_luck = data
    return RollLuck(
        number, player, (dice[0], dice[1]), luck, equity, average, opening, play, result_luck
    )


def _point_to_data(point: PlayPoint) -> list[Any]:
    return [
        point.game_number,
        point.index,
        point.player,
        list(point.dice),
        point.notation,
        point.win,
        point.equity_lost,
        point.choices,
        point.luck,
    ]


def _point_from_data(data: list[Any]) -> PlayPoint:
    number, index, player, dice, notation, win, lost, choices, luck = data
    return PlayPoint(number, index, player, (dice[0], dice[1]), notation, win, lost, choices, luck)


def _game_luck_to_data(game: GameLuck) -> dict[str, Any]:
    return {
        "game_number": game.game_number,
        "rolls": [_roll_to_data(r) for r in game.rolls],
        "points": [_point_to_data(p) for p in game.points],
        "winner": game.winner,
        "winnings": game.winnings,
    }


def _game_luck_from_data(data: dict[str, Any]) -> GameLuck:
    return GameLuck(
        data["game_number"],
        [_roll_from_data(r) for r in data["rolls"]],
        [_point_from_data(p) for p in data["points"]],
        data["winner"],
        data["winnings"],
    )


def review_to_text(review: GameReview) -> str:
    analyses, luck = review
    return dumps(
        {
            "format": FORMAT,
            "analyses": [_analysis_to_data(a) for _, a in sorted(analyses.items())],
            "luck": [_game_luck_to_data(game) for game in luck.games],
        }
    )


def review_from_text(text: str) -> GameReview | None:
    """The review, or None when it was stored in another format (work it out again)."""
    data = loads(text)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    analyses = {a["player"]: _analysis_from_data(a) for a in data["analyses"]}
    return analyses, MatchLuck([_game_luck_from_data(g) for g in data["luck"]])


__all__ = ["GameReview", "review_from_text", "review_to_text"]
