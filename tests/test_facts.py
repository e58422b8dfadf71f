"""The facts a stored change publishes: typed values subscribers can act on, in order."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.dice import ScriptedRoller
from bot.core.facts import (
    ActionTaken,
    CubeTurned,
    Fact,
    FactBus,
    GameOver,
    MatchOver,
    MatchStarted,
    ToAct,
)
from bot.core.records import Action, EndReason, Status
from bot.core.session import Player
from bot.engine import MatchOptions, ResultKind
from bot.services import Services

GUILD = 1
ALICE = Player(1, "alice")
BOB = Player(2, "bob")


def heard(bus: FactBus) -> list[Fact]:
    got: list[Fact] = []

    async def listen(facts: Sequence[Fact]) -> None:
        got.extend(facts)

    bus.subscribe(listen)
    return got


async def test_a_match_publishes_start_cube_game_and_match_over(
    services: Services, roller: ScriptedRoller
) -> None:
    got = heard(services.facts)
    session = services.session
    await session.challenge(GUILD, 10, ALICE, BOB, MatchOptions(length=3))
    assert [type(f) for f in got] == [] or all(isinstance(f, ActionTaken) for f in got)
    got.clear()
    roller.extend((3, 1))  # Alice opens
    await session.accept(10, BOB)
    kinds = [type(f) for f in got]
    assert kinds[:2] == [ActionTaken, MatchStarted] and kinds[-1] is ToAct
    assert isinstance(got[-1], ToAct) and got[-1].user_id == ALICE.id
    await session.move(10, ALICE, "8/5 6/5")
    got.clear()
    await session.double(10, BOB)
    assert [type(f) for f in got] == [ActionTaken, ToAct]
    got.clear()
    await session.take(10, ALICE)
    cube = [f for f in got if isinstance(f, CubeTurned)]
    assert len(cube) == 1 and cube[0].value == 2 and cube[0].owner == 0
    got.clear()
    await session.resign(10, BOB)
    roller.extend((4, 2))  # the next game's opening roll
    await session.answer_resignation(10, ALICE, accept=True)
    over = [f for f in got if isinstance(f, GameOver)]
    assert len(over) == 1 and over[0].result.winner == 0
    assert over[0].result.kind is ResultKind.SINGLE and over[0].result.points == 2
    assert not any(isinstance(f, MatchOver) for f in got)  # 2 of 3 points: on to game 2


async def test_match_over_names_the_winner_and_a_failing_listener_loses_nothing(
    services: Services, roller: ScriptedRoller
) -> None:
    async def broken(facts: Sequence[Fact]) -> None:
        raise RuntimeError("a subscriber's bug")

    services.facts.subscribe(broken)
    got = heard(services.facts)
    session = services.session
    await session.challenge(GUILD, 11, ALICE, BOB, MatchOptions(length=1))
    roller.extend((1, 2))  # Bob opens
    await session.accept(11, BOB)
    await session.resign(11, BOB)
    report = await session.answer_resignation(11, ALICE, accept=True)
    assert report.match.status == Status.FINISHED  # stored despite the broken listener
    over = [f for f in got if isinstance(f, MatchOver)]
    assert len(over) == 1 and over[0].winner == 0 and over[0].winner_id == ALICE.id
    assert over[0].final_score == (1, 0)
    # The reason is typed, on the fact and on the stored row alike (issue 36).
    assert over[0].reason is EndReason.RESIGNED and report.match.end_reason is EndReason.RESIGNED
    stored = await session.match(report.match.id)
    assert stored is not None and stored.end_reason is EndReason.RESIGNED
    assert not any(isinstance(f, ToAct) for f in got[got.index(over[0]) :])


async def test_a_cancelled_match_is_over_with_no_result(
    services: Services, roller: ScriptedRoller
) -> None:
    got = heard(services.facts)
    session = services.session
    await session.challenge(GUILD, 12, ALICE, BOB)
    roller.extend((3, 1))
    await session.accept(12, BOB)
    got.clear()
    await session.cancel(12, Player(50, "mod"))
    taken = [f for f in got if isinstance(f, ActionTaken)]
    assert taken and taken[0].action == Action.CANCEL
    over = [f for f in got if isinstance(f, MatchOver)]
    assert len(over) == 1 and over[0].winner is None
    assert over[0].reason is EndReason.CANCELLED


async def test_unsubscribed_listeners_hear_nothing_more(
    services: Services, roller: ScriptedRoller
) -> None:
    got: list[Fact] = []

    async def listen(facts: Sequence[Fact]) -> None:
        got.extend(facts)

    stop = services.facts.subscribe(listen)
    await services.session.challenge(GUILD, 13, ALICE, BOB)
    stop()
    before = len(got)
    roller.extend((3, 1))
    await services.session.accept(13, BOB)
    assert len(got) == before


async def test_subscribers_hear_in_order_and_empty_batches_are_not_sent(
    services: Services,
) -> None:
    order: list[str] = []

    async def first(facts: Sequence[Fact]) -> None:
        order.append("first")

    async def second(facts: Sequence[Fact]) -> None:
        order.append("second")

    services.facts.subscribe(first)
    services.facts.subscribe(second)
    await services.facts.publish([])
    assert order == []
    await services.session.challenge(GUILD, 14, ALICE, BOB)
    assert order == ["first", "second"]
