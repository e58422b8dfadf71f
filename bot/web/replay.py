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
from collections.abc import Sequence

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


def analysis_json(luck: MatchLuck) -> Json:
    """Per game, each play's win chance (player 0's) and equity lost, keyed by play index."""
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
    return {"games": games}


__all__ = ["analysis_json", "frames", "frames_body", "game_frames_body"]
