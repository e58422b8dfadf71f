"""The computer opponent plays complete matches through the session layer and database."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.core.replay import decisions_from_events, replay
from bot.core.session import Player, SessionService
from bot.engine import Phase, Play, Position
from bot.storage import Store

pytest.importorskip("bgsage")

HUMAN, COMPUTER = Player(1, "alice"), Player(99, "GammonBot", is_bot=True)


class SeededRoller:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def die(self) -> int:
        return self.random.randint(1, 6)


@pytest.mark.parametrize("seed", [1, 2])
async def test_computer_finishes_a_match_with_only_legal_plays(tmp_path: Path, seed: int) -> None:
    store = await Store.open(tmp_path / "computer.db")
    service = SessionService(store, roller=SeededRoller(seed))
    rng = random.Random(seed)
    report = await service.play_computer(1, 7, HUMAN, COMPUTER, level="beginner")
    for _ in range(600):
        row = report.match
        if row.status != "playing":
            break
        game = row.game
        assert game is not None and game.actor == 0  # the computer never leaves its turn open
        if game.phase is Phase.ROLL:
            report = await service.roll(7, HUMAN)
        elif game.phase is Phase.DOUBLED:
            report = await service.take(7, HUMAN)
        else:
            choices = await service.legal_play_texts(7, HUMAN.id)
            report = await service.move(7, HUMAN, rng.choice(choices))
    row = report.match
    assert row.status == "finished"
    events = await store.events(row.id)
    assert replay(row.options, events) == row.game
    # Every play the computer made is one of the engine's legal plays for its roll.
    computer_moves = 0
    for before, decision in decisions_from_events(row.options, events):
        if before.on_roll == 1 and before.phase is Phase.MOVE:
            computer_moves += 1
            assert isinstance(decision, Play)  # a move, never a cube decision
            assert before.position.apply(decision) in before.legal_plays().results()
            assert isinstance(before.position, Position)
    assert computer_moves > 3
    results = await store.computer_results(1, HUMAN.id)
    assert [(r.level, r.games, r.matches) for r in results] == [("beginner", 1, 1)]
    assert await store.leaderboard(1) == []
    await store.close()
