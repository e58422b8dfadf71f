"""The computer's turns hand the session typed answers: a Play and a CubeDecision, never text.

A stand-in computer (run in threads, as offline play and the e2e tests run theirs) plays the
first legal play and answers doubles as the test says; the session applies its answers to
the game as they are.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.computer import CubeDecision
from bot.core.dice import ScriptedRoller
from bot.core.records import Action, Status
from bot.core.session import Player
from bot.engine import Game, MatchOptions, Phase, Play
from bot.services import Services, build_services
from bot.storage import Store

HUMAN, COMPUTER = Player(1, "alice"), Player(99, "GammonBot", is_bot=True)
CHANNEL = 7


@dataclass
class StandIn:
    """Plays the first legal play, never doubles, answers a double with ``answer``."""

    answer: CubeDecision = CubeDecision.TAKE

    def choose_play(self, game: Game) -> Play:
        plays = game.legal_plays()
        return Play(()) if plays.is_forced_pass else sorted(plays, key=str)[0]

    def should_double(self, game: Game) -> bool:
        return False

    def cube_response(self, game: Game) -> CubeDecision:
        return self.answer

    def accepts_resignation(self, game: Game) -> bool:
        return True


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "computer.db")
    yield opened
    await opened.close()


def services_with(store: Store, computer: StandIn, dice: list[int]) -> Services:
    return build_services(store, roller=ScriptedRoller(dice), computer=lambda level: computer)


async def test_the_computers_play_is_applied_as_a_play_never_parsed_from_text(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_text(game: Game, text: str) -> Game:
        raise AssertionError(f"the computer's play went through text: {text!r}")

    monkeypatch.setattr(Game, "move", no_text)
    session = services_with(store, StandIn(), [1, 6]).session  # 6 beats 1: the computer opens
    report = await session.play_computer(1, CHANNEL, HUMAN, COMPUTER, level="beginner")
    row = report.match
    assert row.status is Status.PLAYING and row.game is not None
    assert row.game.actor == 0 and row.game.phase is Phase.ROLL  # its turn is done, stored
    events = await store.events(row.id)
    moves = [e for e in events if e.action is Action.MOVE]
    assert [(m.player, m.notation) for m in moves] == [(1, "13/6")]  # 6-1's first by text


@pytest.mark.parametrize(
    ("answer", "phase", "cube", "status"),
    [
        (CubeDecision.TAKE, Phase.ROLL, 2, Status.PLAYING),
        (CubeDecision.BEAVER, Phase.DOUBLED, 2, Status.PLAYING),  # alice answers the beaver
        (CubeDecision.DROP, None, 1, Status.FINISHED),
    ],
)
async def test_the_computers_cube_decision_is_the_action_it_takes(
    store: Store, answer: CubeDecision, phase: Phase | None, cube: int, status: Status
) -> None:
    # alice opens with 6-1 and points on her 7; the computer plays 4-2; alice doubles.
    services = services_with(store, StandIn(answer), [6, 1, 4, 2])
    session = services.session
    await session.play_computer(
        1, CHANNEL, HUMAN, COMPUTER, MatchOptions(beavers=True), level="beginner"
    )
    await session.move(CHANNEL, HUMAN, "13/7 8/7")
    report = await session.double(CHANNEL, HUMAN)
    row = report.match
    assert row.status is status
    if phase is not None:
        assert row.game is not None and row.game.phase is phase and row.game.cube == cube
        # after a take alice rolls; after a beaver she answers it
        assert row.game.actor == 0
    events = await store.events(row.id)
    assert (
        events[-1].action
        is {
            CubeDecision.TAKE: Action.TAKE,
            CubeDecision.BEAVER: Action.BEAVER,
            CubeDecision.DROP: Action.DROP,
        }[answer]
    )
