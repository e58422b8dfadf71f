"""A table option: the bot makes a roll's only legal play for the player."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from bot.core.dice import ScriptedRoller
from bot.core.records import Change, Status
from bot.core.replay import replay
from bot.core.session import Player, SessionService
from bot.engine import Phase, Position
from bot.storage import Store
from tests.telling import told

ALICE, BOB = Player(1, "alice"), Player(2, "bob")

# Bob on roll: two checkers on the bar, thirteen on his 1- to 3-points. Alice holds his 20- to
# 24-points and his 13-point, so 6-6 enters both checkers on the 19-point and nothing else moves.
ONLY_ONE_PLAY = [0] * 26
ONLY_ONE_PLAY[25] = 2
ONLY_ONE_PLAY[1], ONLY_ONE_PLAY[2], ONLY_ONE_PLAY[3] = 5, 4, 4
for point in (20, 21, 22, 23, 24, 13):
    ONLY_ONE_PLAY[point] = -2
ONLY_ONE_PLAY[14] = -3


async def start(tmp_path: Path, auto_play: bool) -> tuple[SessionService, Store, ScriptedRoller]:
    store = await Store.open(tmp_path / "auto.db")
    roller = ScriptedRoller([3, 1, 6, 6])
    service = SessionService(store, roller=roller)
    await service.challenge(1, 10, ALICE, BOB, auto_play=auto_play)
    await service.accept(10, BOB)
    await service.move(10, ALICE, "8/5 6/5")
    row = await store.live_match(10)
    assert row is not None and row.game is not None and row.game.on_roll == 1
    staged = dataclasses.replace(row.game, position=Position.from_board(ONLY_ONE_PLAY))
    await store.apply(Change(row.id, row.version, Status.PLAYING, staged, service.clock()))
    return service, store, roller


async def test_the_only_legal_play_is_made_when_the_table_asks(tmp_path: Path) -> None:
    service, store, _ = await start(tmp_path, auto_play=True)
    report = await service.roll(10, BOB)
    assert "bob rolls 6-6 and plays bar/19(2) (the only legal play)." in told(report)
    game = report.match.game
    assert game is not None and game.on_roll == 0 and game.phase is Phase.ROLL
    events = await store.events(report.match.id)
    assert [(e.action, e.actor_id, e.notation) for e in events[-2:]] == [
        ("roll", BOB.id, None),
        ("move", None, "bar/19(2)"),
    ]
    await store.close()


async def test_without_the_option_the_player_moves_themselves(tmp_path: Path) -> None:
    service, store, _ = await start(tmp_path, auto_play=False)
    report = await service.roll(10, BOB)
    game = report.match.game
    assert game is not None and game.phase is Phase.MOVE and game.on_roll == 1
    assert await service.legal_play_texts(10, BOB.id) == ["bar/19(2)"]
    await store.close()


async def test_an_automatic_play_replays_from_the_log(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "replay.db")
    # Opening 3-1; then bob rolls 6-6 from the opening position: many plays, none automatic.
    service = SessionService(store, roller=ScriptedRoller([3, 1, 6, 6]))
    await service.challenge(1, 10, ALICE, BOB, auto_play=True)
    await service.accept(10, BOB)
    await service.move(10, ALICE, "8/5 6/5")
    report = await service.roll(10, BOB)
    assert "only legal play" not in told(report)
    row = report.match
    assert replay(row.options, await store.events(row.id)) == row.game
    await store.close()
