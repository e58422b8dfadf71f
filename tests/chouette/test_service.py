"""The chouette service on a real store: every action through the one entry under the
channel's lock, buttons judged by the decision they were posted for, races between members
(two Doubles at once, the box answering while a member leaves), a restart in the middle of a
game, the computer seated as the box, the clock's work, facts, and points kept apart from
the rated leaderboard."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.computer import CubeDecision
from bot.core.dice import ScriptedRoller
from bot.core.errors import ChouetteRefusal, StaleButtonError, UserError
from bot.core.facts import Fact
from bot.core.reports import Player
from bot.engine import Game, Play
from bot.features.chouette.facts import ChouetteChanged
from bot.features.chouette.rules import (
    Answer,
    Chouette,
    ChouetteAction,
    ChouetteOptions,
    Code,
    Kind,
    Offer,
    Stage,
    Status,
)
from bot.features.chouette.service import (
    IDLE_ANSWER_SECONDS,
    WINDOW_SECONDS,
    ChouetteContext,
    ChouetteService,
)
from bot.services import Services, build_services
from bot.storage import open_store
from bot.storage.protocol import Storage
from tests.conftest import FakeClock

GUILD, CHANNEL = 5, 50
ALICE, BOB, CAROL, DAVE = (
    Player(i, n) for i, n in ((1, "alice"), (2, "bob"), (3, "carol"), (4, "dave"))
)
ROBOT = Player(99, "robo", is_bot=True)
Act = ChouetteAction


@dataclass
class ScriptedComputer:
    """First legal play; doubles whom ``doubles`` names (by the cube's value... any cube
    when True); answers every double with ``answer``."""

    doubles: bool = False
    answer: CubeDecision = CubeDecision.TAKE
    thoughts: int = 0

    def choose_play(self, game: Game) -> Play:
        self.thoughts += 1
        return sorted(game.legal_plays(), key=str)[0]

    def should_double(self, game: Game) -> bool:
        self.thoughts += 1
        return self.doubles and game.cube == 1

    def cube_response(self, game: Game) -> CubeDecision:
        self.thoughts += 1
        return self.answer

    def accepts_resignation(self, game: Game) -> bool:
        return True


@dataclass
class World:
    store: Storage
    services: Services
    roller: ScriptedRoller
    clock: FakeClock
    heard: list[Fact]

    @property
    def chouette(self) -> ChouetteService:
        return self.services.chouette


async def world(
    database: Path | str, roller: ScriptedRoller, clock: FakeClock, computer: ScriptedComputer
) -> World:
    store = await open_store(database)
    services = build_services(store, roller=roller, clock=clock, computer=lambda level: computer)
    heard: list[Fact] = []

    async def hear(facts: Sequence[Fact]) -> None:
        heard.extend(facts)

    services.facts.subscribe(hear)
    return World(store, services, roller, clock, heard)


@pytest.fixture
def computer() -> ScriptedComputer:
    return ScriptedComputer()


@pytest.fixture
async def w(
    database: Path | str, roller: ScriptedRoller, clock: FakeClock, computer: ScriptedComputer
) -> AsyncIterator[World]:
    opened = await world(database, roller, clock, computer)
    yield opened
    await opened.store.close()


async def four(w: World, **options: object) -> int:
    """alice, bob, carol and dave at the table in that order, the team winning the opening:
    bob (the captain) to move 3-1. The session's id."""
    report = await w.chouette.start(GUILD, CHANNEL, ALICE, ChouetteOptions(**options))  # type: ignore[arg-type]
    for player in (BOB, CAROL, DAVE):
        await w.chouette.act(CHANNEL, player, Act.JOIN)
    w.roller.extend([6, 5, 4, 3, 1, 3])
    await w.chouette.act(CHANNEL, CAROL, Act.BEGIN)
    return report.row.id


async def to_window(w: World) -> None:
    """bob plays the opening 3-1, alice rolls 3-1 and plays: the team's window opens."""
    await w.chouette.act(CHANNEL, BOB, Act.MOVE, play="8/5 6/5")
    w.roller.extend([3, 1])
    await w.chouette.act(CHANNEL, ALICE, Act.ROLL)
    await w.chouette.act(CHANNEL, ALICE, Act.MOVE, play="8/5 6/5")


async def state(w: World) -> Chouette:
    found = await w.chouette.current(CHANNEL)
    assert found is not None
    return found[1]


async def test_a_session_plays_through_the_one_entry_and_is_stored(w: World) -> None:
    sid = await four(w)
    s = await state(w)
    assert s.status is Status.PLAYING and s.order == (1, 2, 3, 4)
    assert s.game is not None and s.game.to_move == BOB.id
    await to_window(w)
    log = await w.chouette.log(sid)
    kinds = [e.kind for e in log]
    assert kinds[:4] == [Kind.JOINED] * 4 and Kind.BEGAN in kinds and kinds[-1] is Kind.MOVED
    changed = [f for f in w.heard if isinstance(f, ChouetteChanged)]
    assert len(changed) == 1 + 3 + 1 + 3  # start, three joins, begin, three plays
    assert not any(f.background for f in changed)


async def test_two_members_pressing_double_at_once_both_count(w: World) -> None:
    sid = await four(w)
    await to_window(w)
    s = await state(w)
    ctx = ChouetteContext(sid, s.moment)
    await asyncio.gather(
        w.chouette.act(CHANNEL, CAROL, Act.DOUBLE, ctx),
        w.chouette.act(CHANNEL, DAVE, Act.DOUBLE, ctx),
    )
    s = await state(w)
    assert s.game is not None
    assert [c.offer for c in s.game.cubes] == [None, Offer.BY_MEMBER, Offer.BY_MEMBER]
    # A second press is a clear refusal, and so is a Double after the captain rolled.
    with pytest.raises(UserError) as twice:
        await w.chouette.act(CHANNEL, CAROL, Act.DOUBLE, ctx)
    assert twice.value.reason is ChouetteRefusal.ALREADY_DOUBLED
    await w.chouette.act(CHANNEL, BOB, Act.ROLL, ctx)
    with pytest.raises(StaleButtonError) as stale:
        await w.chouette.act(CHANNEL, BOB, Act.DOUBLE, ctx)
    assert stale.value.reason is ChouetteRefusal.OLD_BUTTON


async def test_the_box_answering_while_a_member_leaves_loses_neither(w: World) -> None:
    sid = await four(w)
    await to_window(w)
    s = await state(w)
    for member in (CAROL, DAVE):
        await w.chouette.act(CHANNEL, member, Act.DOUBLE, ChouetteContext(sid, s.moment))
    await w.chouette.act(CHANNEL, BOB, Act.ROLL)
    s = await state(w)
    answers = {CAROL.id: Answer.TAKE, DAVE.id: Answer.DROP}
    w.roller.extend([4, 2])
    await asyncio.gather(
        w.chouette.act(CHANNEL, ALICE, Act.ANSWER, ChouetteContext(sid, s.moment), answers=answers),
        w.chouette.act(CHANNEL, CAROL, Act.LEAVE),
    )
    s = await state(w)
    g = s.game
    assert g is not None and CAROL.id in g.away
    assert g.cube(CAROL.id).value == 2 and g.cube(DAVE.id).points == 1
    assert g.board.dice == (4, 2)


async def test_a_stranger_and_an_old_session_are_refused(w: World) -> None:
    sid = await four(w)
    stranger = Player(77, "mallory")
    with pytest.raises(UserError) as caught:
        await w.chouette.act(CHANNEL, stranger, Act.MOVE, play="8/5 6/5")
    assert caught.value.reason is ChouetteRefusal.NOT_SEATED
    with pytest.raises(StaleButtonError):
        await w.chouette.act(CHANNEL, BOB, Act.MOVE, ChouetteContext(sid + 1), play="8/5 6/5")
    with pytest.raises(UserError) as nothing:
        await w.chouette.act(CHANNEL + 1, BOB, Act.ROLL)
    assert nothing.value.reason is ChouetteRefusal.NO_CHOUETTE
    with pytest.raises(UserError) as illegal:
        await w.chouette.act(CHANNEL, BOB, Act.MOVE, play="24/18")
    assert illegal.value.reason is not None  # the engine's own refusal
    with pytest.raises(UserError) as not_starter:
        await w.chouette.act(CHANNEL, BOB, Act.END)
    assert not_starter.value.reason is ChouetteRefusal.ENDS_BY_STARTER
    ended = await w.chouette.act(CHANNEL, BOB, Act.END, ChouetteContext(moderator=True))
    assert ended.state.status is Status.ENDED and await w.chouette.current(CHANNEL) is None


async def test_every_rule_code_is_a_refusal() -> None:
    assert {c.value for c in Code} <= {r.value for r in ChouetteRefusal}


async def test_a_restart_mid_game_keeps_the_session_and_its_buttons(
    database: Path | str, roller: ScriptedRoller, clock: FakeClock, computer: ScriptedComputer
) -> None:
    first = await world(database, roller, clock, computer)
    try:
        sid = await four(first)
        await to_window(first)
        moment = (await state(first)).moment
        await first.chouette.act(CHANNEL, CAROL, Act.DOUBLE, ChouetteContext(sid, moment))
    finally:
        await first.store.close()
    second = await world(database, roller, clock, computer)
    try:
        # The window's buttons, posted before the restart, still hold.
        await second.chouette.act(CHANNEL, DAVE, Act.DOUBLE, ChouetteContext(sid, moment))
        await second.chouette.act(CHANNEL, BOB, Act.ROLL, ChouetteContext(sid, moment))
        s = await state(second)
        assert s.game is not None and s.game.stage is Stage.BOX_ANSWERS
    finally:
        await second.store.close()


async def test_points_go_to_the_chouette_table_never_to_the_leaderboard(w: World) -> None:
    await four(w)
    await w.chouette.act(CHANNEL, BOB, Act.MOVE, play="8/5 6/5")
    s = await state(w)
    await w.chouette.act(CHANNEL, ALICE, Act.DOUBLE, members=[BOB.id, CAROL.id, DAVE.id])
    await w.chouette.act(CHANNEL, CAROL, Act.DROP)
    await w.chouette.act(CHANNEL, DAVE, Act.DROP)
    w.roller.extend([3, 1])  # the next game's opening roll
    report = await w.chouette.act(CHANNEL, BOB, Act.DROP)
    assert report.game_over and report.state.game is not None
    assert report.state.game.number == 2 and s.moment < report.state.moment
    table = await w.chouette.standings(GUILD)
    assert [(p.user_id, p.points, p.games) for p in table] == [
        (1, 3, 1),
        (2, -1, 1),
        (3, -1, 1),
        (4, -1, 1),
    ]
    assert await w.services.session.leaderboard(GUILD) == []
    assert await w.services.session.stats(GUILD, ALICE.id) is None


async def test_the_computer_as_box_decides_in_the_same_change(
    w: World, computer: ScriptedComputer
) -> None:
    computer.doubles = True
    report = await w.chouette.start(GUILD, CHANNEL, ALICE, ChouetteOptions(), computer=ROBOT)
    await w.chouette.act(CHANNEL, BOB, Act.JOIN)
    # The computer is ordered box (6), alice captain (5), bob (4); the box wins the opening
    # 5-2, plays it, the team's window opens.
    w.roller.extend([5, 6, 4, 5, 2])
    applied = await w.chouette.act(CHANNEL, ALICE, Act.BEGIN)
    s = applied.state
    assert s.game is not None and s.game.box == ROBOT.id and s.game.stage is Stage.WINDOW
    assert any(e.kind is Kind.MOVED and e.player == ROBOT.id for e in applied.events)
    sid = report.row.id
    await w.chouette.act(CHANNEL, BOB, Act.DOUBLE, ChouetteContext(sid, s.moment))
    w.roller.extend([6, 5])
    answered = await w.chouette.act(CHANNEL, ALICE, Act.ROLL)
    g = answered.state.game
    assert g is not None and g.cube(BOB.id).value == 2  # the computer took bob's double
    assert g.to_move == ALICE.id and g.board.dice == (6, 5)


async def test_the_clock_makes_idle_members_follow_and_closes_the_computers_window(
    w: World, computer: ScriptedComputer
) -> None:
    await four(w)
    await w.chouette.act(CHANNEL, BOB, Act.MOVE, play="8/5 6/5")
    await w.chouette.act(CHANNEL, ALICE, Act.DOUBLE, members=[BOB.id, DAVE.id])
    await w.chouette.act(CHANNEL, BOB, Act.TAKE)
    assert await w.chouette.tick() == []  # dave is not idle yet
    w.clock.advance(IDLE_ANSWER_SECONDS)
    w.roller.extend([2, 1])
    (report,) = await w.chouette.tick()
    g = report.state.game
    assert g is not None and g.cube(DAVE.id).value == 2 and g.stage is Stage.MOVE
    assert isinstance(report.facts[-1], ChouetteChanged) and report.facts[-1].background
    # The computer as captain waits for the people, then rolls by the clock.
    other = 60
    await w.chouette.start(GUILD, other, ALICE, ChouetteOptions(), computer=ROBOT)
    await w.chouette.act(other, BOB, Act.JOIN)
    w.roller.extend([6, 5, 4, 2, 5])  # alice box, the computer captain; the team opens 5-2
    begun = await w.chouette.act(other, ALICE, Act.BEGIN)
    assert begun.state.game is not None and begun.state.game.stage is Stage.BOX_TURN
    w.roller.extend([3, 1])
    await w.chouette.act(other, ALICE, Act.ROLL)
    window = await w.chouette.act(other, ALICE, Act.MOVE, play="8/5 6/5")
    assert window.state.game is not None and window.state.game.stage is Stage.WINDOW
    w.clock.advance(WINDOW_SECONDS)
    w.roller.extend([6, 6])
    reports = await w.chouette.tick()
    (rolled,) = [r for r in reports if r.row.channel_id == other]
    g = rolled.state.game
    assert g is not None and g.board.on_roll == 0  # the computer rolled and played
    assert any(e.kind is Kind.ROLLED and e.player == ROBOT.id for e in rolled.events)
