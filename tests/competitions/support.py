"""Helpers the competition tests share: playing events out with chosen or random winners."""

from __future__ import annotations

import random

from bot.features.tournaments.rules import Knockout, Result, Status, Swiss


def played(winner: int, loser: int, length: int = 5) -> Result:
    return Result.played(winner, loser, (length, 1))


def play_knockout(event: Knockout, rng: random.Random, *, walkovers: float = 0.0) -> Knockout:
    """Play every ready match until the event ends: random winners, some walkovers."""
    guard = 0
    while not event.finished:
        ready = event.ready()
        assert ready, "an unfinished knockout always has a match to play"
        for match in ready:
            a, b = match.players
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            if rng.random() < walkovers:
                result = Result.walkover(winner, loser)
            else:
                result = played(winner, loser, match.length)
            event = event.record(match.key, result)
        guard += 1
        assert guard < 100
    assert all(m.status in (Status.DONE, Status.VOID) for m in event.matches())
    return event


def play_swiss(event: Swiss, rng: random.Random) -> Swiss:
    """Play every round with random winners, pairing the next until the event is over."""
    while not event.finished:
        for key, pairing in event.open_matches():
            a, b = pairing.players
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            event = event.record(key, played(winner, loser))
        event = event.pair_next()
    return event
