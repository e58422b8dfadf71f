"""How each player of a chouette played its finished games: the checker plays of whoever
moved (the captain, or the member moving for a dropped captain, and the box) and every cube
decision of every member and of the box, judged as ``/backgammon analyze`` judges a match.

The decisions come from the one walk of the session log
(:func:`~bot.features.chouette.rules.replay.decisions`); each is the engine's view of the
box against one member's cube, so the game's analysis
(:func:`bot.computer.analysis.analyze_decisions`) judges it unchanged, in the workers'
analysis lane, never in front of a board. A player is the box in some games and in the
team in others: their two sides' analyses are combined into one
(:func:`bot.computer.analysis.combined`). The computer's seats are not analysed, nor a
proxy's answer for someone away (the walk leaves those out).

Reads only; pure of Discord and of words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from bot.computer import DEFAULT_LEVEL, CubeDecision, PlayerAnalysis
from bot.computer.analysis import combined
from bot.computer.cube import Decision
from bot.engine import Game, Play
from bot.features.chouette.rules import Chouette, Event
from bot.features.chouette.rules.replay import decisions
from bot.workers import Workers

# The engine's two sides in every view: the box is player 0, the member player 1.
SIDES = (0, 1)


@dataclass(frozen=True, slots=True)
class ChouetteAnalysis:
    """The analysis of a session's finished ``games``: each human player's, by player id
    (their checker plays and cube decisions over those games), in seat order."""

    session: int
    games: tuple[int, ...]
    players: Mapping[int, PlayerAnalysis]


def finished_games(s: Chouette) -> tuple[int, ...]:
    """The games of the session that were played to a result (a voided game has none)."""
    return tuple(r.number for r in s.records if not r.voided)


def decisions_by_player(
    events: Iterable[Event], s: Chouette, games: Collection[int]
) -> dict[int, list[tuple[Game, Decision]]]:
    """Each human player's decisions in ``games``, in order, as the analysis takes them:
    the game just before, and the play or the cube call."""
    out: dict[int, list[tuple[Game, Decision]]] = {
        seat.id: [] for seat in s.seats if not seat.computer
    }
    for d in decisions(events, s.options):
        if d.game in games and d.player in out:
            made = d.decision if isinstance(d.decision, Play) else CubeDecision(d.decision.value)
            out[d.player].append((d.view, made))
    return out


async def analyse(
    workers: Workers,
    session: int,
    events: Iterable[Event],
    s: Chouette,
    games: Collection[int],
    *,
    level: str = DEFAULT_LEVEL,
) -> ChouetteAnalysis:
    """The analysis of ``games`` of a session (its id, its log, its state): one lane call
    per player, the players side by side over the lane's workers."""
    wanted = tuple(sorted(games))
    mine = {p: ds for p, ds in decisions_by_player(events, s, wanted).items() if ds}

    async def one(player: int, ds: list[tuple[Game, Decision]]) -> PlayerAnalysis:
        sides = await workers.analyze(ds, level=level, players=SIDES)
        return combined(player, sides.values())

    results = await asyncio.gather(*(one(p, ds) for p, ds in mine.items()))
    return ChouetteAnalysis(session, wanted, dict(zip(mine, results, strict=True)))


__all__ = ["ChouetteAnalysis", "analyse", "decisions_by_player", "finished_games"]
