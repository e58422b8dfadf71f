"""Whole matches between two computer levels, played through the real session and store.

The PR comparison with GNU Backgammon (``tests/test_pr_gnubg.py``, ``benchmarks/pr_gnubg.py``)
needs matches with real cube play and real mistakes: each side is a seeded
:class:`~bot.computer.ComputerPlayer` at its own level (the lower levels add noise to their
equities, so they err), the dice are seeded, and every action goes through
:class:`~bot.core.session.SessionService` into a SQLite store, so the event log is exactly what a
match on Discord would leave.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from bot.computer import ComputerPlayer, CubeDecision
from bot.core.records import EventRecord, MatchRow
from bot.core.session import Player, SessionService
from bot.engine import MatchOptions, Phase
from bot.storage import Store

ALICE, BOB = Player(1, "alice"), Player(2, "bob")
CHANNEL = 7


class SeededRoller:
    """The dice of one match, from one seed."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def die(self) -> int:
        return self.random.randint(1, 6)


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A finished match: its row and its event log."""

    row: MatchRow
    events: tuple[EventRecord, ...]


async def play_computer_match(
    folder: Path,
    options: MatchOptions,
    levels: tuple[str, str],
    seed: int,
    *,
    max_actions: int = 20_000,
) -> PlayedMatch:
    """Play a match to its end, ``levels[i]`` choosing for player ``i``, in a new store in
    ``folder``. Money sessions (``options.length == 0``) are one game."""
    store = await Store.open(folder / f"match-{seed}.db")
    try:
        service = SessionService(store, roller=SeededRoller(seed))
        computers = tuple(
            ComputerPlayer(level, seed=seed * 2 + side) for side, level in enumerate(levels)
        )
        await service.challenge(1, CHANNEL, ALICE, BOB, options, rated=False)
        await service.accept(CHANNEL, BOB)
        for _ in range(max_actions):
            row = await service.current(CHANNEL)
            if row is None or row.game is None:
                break
            game = row.game
            assert game.actor is not None
            who, computer = (ALICE, BOB)[game.actor], computers[game.actor]
            if game.phase is Phase.ROLL:
                if game.can_double() and computer.should_double(game):
                    await service.double(CHANNEL, who)
                else:
                    await service.roll(CHANNEL, who)
            elif game.phase is Phase.DOUBLED:
                answer = computer.cube_response(game)
                if answer is CubeDecision.DROP:
                    await service.drop(CHANNEL, who)
                elif answer is CubeDecision.BEAVER:
                    await service.beaver(CHANNEL, who)
                else:
                    await service.take(CHANNEL, who)
            else:
                await service.move(CHANNEL, who, str(computer.choose_play(game)))
        else:
            raise AssertionError(f"the match of seed {seed} did not end")
        last = await store.latest_match(CHANNEL)
        assert last is not None and not last.live
        return PlayedMatch(last, tuple(await store.events(last.id)))
    finally:
        await store.close()
