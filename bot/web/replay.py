"""A finished match for the replay page: the board after every logged event, and the
analysis beside it (each play's win chance and equity lost, the game's chart).

The frames come from the event log alone (:func:`bot.core.replay.replay_event`), the analysis
from the review service, the same reviews the bot posts after each game (kept in the
database, so a replay of a reviewed match costs no evaluation). A play's analysis is found
by its place in its game: the n-th move or forced pass of game g is the chart's point n.

Pure of Discord and of aiohttp.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from bot.computer import PlayerAnalysis
from bot.computer.luck import MatchLuck
from bot.core.records import Action, EventRecord, MatchRow
from bot.core.replay import replay_event
from bot.engine import Game
from bot.web.state import Json, game_json, match_json

PLAYS = frozenset({Action.MOVE, Action.PASS})


def frames(
    row: MatchRow, events: Sequence[EventRecord], *, game_number: int | None = None
) -> list[Json]:
    """The board after each event, with what the event was and its place among the plays;
    only game ``game_number``'s when it is given (the earlier games are still replayed:
    a game starts from the one before)."""
    out: list[Json] = []
    game: Game | None = None
    plays_in_game: dict[int, int] = {}
    for event in events:
        try:
            game = replay_event(row.options, game, event)
        except ValueError:
            break  # a log that disagrees with itself: show what is sound
        play = None
        if event.action in PLAYS:
            play = plays_in_game[event.game_number] = plays_in_game.get(event.game_number, 0) + 1
        if game_number is not None and event.game_number != game_number:
            continue
        out.append(
            {
                "seq": event.seq,
                "action": event.action.value,
                "player": event.player,
                "notation": event.notation,
                "dice": list(event.dice) if event.dice else None,
                "game_number": event.game_number,
                "play": play,
                "game": game_json(game),
            }
        )
    return out


def frames_body(row: MatchRow, events: Sequence[EventRecord]) -> bytes:
    """The replay API's answer, encoded: the match and every frame. Run in the analysis lane
    (a long match is thousands of replayed events) and kept per match version by the web
    server, so no visitor makes the bot's own process replay a match, let alone again."""
    body = {"state": match_json(row), "frames": frames(row, events)}
    return json.dumps(body, separators=(",", ":")).encode()


def game_frames_body(row: MatchRow, events: Sequence[EventRecord]) -> bytes:
    """The live board's move list: the frames of the game being played (or of the last
    one), encoded; run in the analysis lane like :func:`frames_body`."""
    number = row.game.game_number if row.game is not None else None
    body = {"version": row.version, "frames": frames(row, events, game_number=number)}
    return json.dumps(body, separators=(",", ":")).encode()


def analysis_json(luck: MatchLuck, analyses: Mapping[int, PlayerAnalysis] | None = None) -> Json:
    """Per game, each play's win chance (player 0's) and equity lost, keyed by play index;
    and per analysed player (``players``, keyed "0"/"1"), over the games reviewed: the PR
    (eXtreme Gammon's Performance Rating: ``pr``, ``checker_pr``, ``cube_pr``, None where
    no decision counted), its ``band`` (:class:`bot.computer.PRBand`'s value), the counted
    ``decisions``, GNU Backgammon's ``error_rate`` (millipoints a decision), the luck
    (``luck`` per roll in millipoints, ``rolls``) and the luck-adjusted result
    (``luck_adjusted`` and ``actual``: points in a money game, match-winning chances in a
    match; None when unknown)."""
    games: dict[str, Json] = {}
    for game in luck.games:
        games[str(game.game_number)] = {
            "plays": {
                str(point.index): {
                    "win": round(point.win, 4),
                    "lost": round(point.equity_lost, 4),
                    "error": point.error,
                    "blunder": point.blunder,
                    "notation": point.notation,
                }
                for point in game.points
            },
        }
    players: dict[str, Json] = {}
    for player, analysis in sorted((analyses or {}).items()):
        performance = analysis.performance
        band = performance.band
        adjusted = luck.luck_adjusted(player)
        rolls = luck.players.get(player)
        players[str(player)] = {
            "pr": _rounded(performance.pr, 2),
            "checker_pr": _rounded(performance.checker_pr, 2),
            "cube_pr": _rounded(performance.cube_pr, 2),
            "band": band.value if band is not None else None,
            "decisions": performance.decisions,
            "error_rate": round(analysis.error_rate, 2),
            "luck": round(rolls.rate, 2) if rolls is not None else None,
            "rolls": rolls.rolls if rolls is not None else 0,
            "luck_adjusted": _rounded(adjusted.adjusted if adjusted else None, 4),
            "actual": _rounded(adjusted.actual if adjusted else None, 4),
        }
    return {"games": games, "players": players}


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


__all__ = ["analysis_json", "frames", "frames_body", "game_frames_body"]
