"""Luck: hand computations with a stub evaluator's equities, and a smoke test with bgsage."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import pytest

from bot.computer import (
    BgsageEvaluator,
    CubeContext,
    CubeEquities,
    RankedResult,
    WinChances,
    computer_available,
)
from bot.computer.luck import (
    ALL_ROLLS,
    OPENING_ROLLS,
    LuckEvaluations,
    match_luck,
    opening_luck,
    roll_luck,
)
from bot.core.dice import ScriptedRoller
from bot.core.records import EventRecord
from bot.core.session import Player, SessionService
from bot.engine import Dice, Game, MatchOptions, Position
from bot.storage import Store


def chances(win: float) -> WinChances:
    return WinChances(win, 0.0, 0.0, 0.0, 0.0)


class TableEvaluator:
    """Hand-set equities: the best play with a roll is worth ``table[roll]`` (default 0).

    A result listed in ``penalties`` (by Position ID, as the mover sees it) is worth that
    much less; ``shift`` adds an amount per (player's away, opponent's away) score. The
    mover's chance of winning is 0.5 + equity / 4.
    """

    def __init__(
        self,
        table: dict[Dice, float],
        penalties: dict[str, float] | None = None,
        shift: dict[tuple[int, int], float] | None = None,
    ) -> None:
        self.table = table
        self.penalties = penalties or {}
        self.shift = shift or {}
        self.calls: list[tuple[str, Dice]] = []

    def rank_plays(
        self,
        position: Position,
        dice: Dice,
        results: Sequence[Position],
        context: CubeContext,
        *,
        force: Collection[Position] = (),
    ) -> list[RankedResult]:
        self.calls.append((position.position_id(), dice))
        best = self.table.get((max(dice), min(dice)), 0.0) + self.shift.get(context.away, 0.0)
        ranked = []
        for result in results:
            equity = best - self.penalties.get(result.position_id(), 0.0)
            ranked.append(RankedResult(result, equity, chances(0.5 + equity / 4)))
        return sorted(ranked, key=lambda item: -item.equity)

    def cube_equities(self, position: Position, context: CubeContext) -> CubeEquities:
        return CubeEquities(0.0, 0.0, -1.0, chances(0.5))


def test_the_rolls() -> None:
    assert len(ALL_ROLLS) == 21
    assert sum(weight for _, weight in ALL_ROLLS) == 36
    assert len(OPENING_ROLLS) == 15


def after_opening() -> Game:
    """Player 1 to roll, after player 0 opened 3-1 with 8/5 6/5."""
    game = Game.new().opening_roll(3, 1).move("8/5 6/5")
    assert game.on_roll == 1
    return game


def test_one_lucky_double() -> None:
    # Only 6-6 is worth anything: the average is 0.36 / 36 = 0.01.
    stub = TableEvaluator({(6, 6): 0.36})
    game = after_opening()
    assert roll_luck(game, (6, 6), stub) == pytest.approx(0.35)
    assert roll_luck(game, (3, 1), stub) == pytest.approx(-0.01)
    assert roll_luck(game, (1, 3), stub) == pytest.approx(-0.01)


def test_equity_by_pips_rolled() -> None:
    # Best play worth pips / 100: the average is (49/6) / 100 (see tests/test_dicestats.py).
    table = {(a, b): (4 * a if a == b else a + b) / 100 for (a, b), _ in ALL_ROLLS}
    cache = LuckEvaluations(TableEvaluator(table))
    game = after_opening()
    assert roll_luck(game, (6, 6), cache) == pytest.approx(0.24 - 294 / 3600)
    assert roll_luck(game, (2, 1), cache) == pytest.approx(0.03 - 294 / 3600)
    assert roll_luck(game, (5, 5), cache) == pytest.approx(0.20 - 294 / 3600)
    # Each (position, roll) is evaluated once however many rolls are asked about.
    assert cache.calls == 21
    # Weighted by how often each roll comes, luck averages zero.
    average = sum(w * roll_luck(game, dice, cache) for dice, w in ALL_ROLLS) / 36
    assert average == pytest.approx(0.0, abs=1e-12)


class BatchTableEvaluator(TableEvaluator):
    """The table evaluator that also values many rolls of a position in one call."""

    def __init__(self, table: dict[Dice, float]) -> None:
        super().__init__(table)
        self.batches: list[list[Dice]] = []

    def best_equities(
        self, position: Position, rolls: Sequence[Dice], context: CubeContext
    ) -> list[float]:
        self.batches.append(list(rolls))
        return [self.table.get((max(d), min(d)), 0.0) for d in rolls]


def test_an_average_asks_a_rolls_evaluator_once() -> None:
    table = {(a, b): (4 * a if a == b else a + b) / 100 for (a, b), _ in ALL_ROLLS}
    batched = BatchTableEvaluator(table)
    cache = LuckEvaluations(batched)
    game = after_opening()
    plain = LuckEvaluations(TableEvaluator(table))
    for dice in ((6, 6), (2, 1), (5, 5)):
        assert roll_luck(game, dice, cache) == pytest.approx(roll_luck(game, dice, plain))
    # One call for the 21 rolls of the average; the rolls asked about are among them.
    assert batched.batches == [[dice for dice, _ in ALL_ROLLS]]
    assert batched.calls == []


def test_opening_luck_in_a_money_game_is_the_rolls_own_equity() -> None:
    stub = TableEvaluator({(3, 1): 0.2, (6, 5): 0.15, (2, 1): -0.05})
    game = Game.new()
    # Both sides' averages are the same in a money game, so they cancel.
    assert opening_luck(game, (3, 1), stub) == (0, pytest.approx(0.2))
    assert opening_luck(game, (5, 6), stub) == (1, pytest.approx(0.15))
    assert opening_luck(game, (1, 2), stub) == (1, pytest.approx(-0.05))
    with pytest.raises(ValueError):
        opening_luck(game, (4, 4), stub)


def test_opening_luck_at_an_uneven_score() -> None:
    # Player 0 leads 3-1 in a 5-point match: 2-away against 4-away. The stub adds 0.3 to
    # every play of the leader and 0.1 to the trailer's. Over the 30 outcomes the leader's
    # average is (15 * (0.3 + e) - 15 * (0.1 + e)) / 30 = 0.1 (e: the roll's table value,
    # the same both ways), so a 3-1 worth 0.2 + 0.3 to the leader is 0.4 of luck.
    stub = TableEvaluator({(3, 1): 0.2}, shift={(2, 4): 0.3, (4, 2): 0.1})
    game = Game(options=MatchOptions(length=5), score=(3, 1))
    assert opening_luck(game, (3, 1), stub) == (0, pytest.approx(0.5 - 0.1))
    # The trailer's average is -0.1: 3-1 gives them 0.2 + 0.1 - (-0.1).
    assert opening_luck(game, (1, 3), stub) == (1, pytest.approx(0.4))
    # A roll worth nothing to the leader still shows the trailer's edge in the average.
    assert opening_luck(game, (6, 2), stub) == (0, pytest.approx(0.3 - 0.1))


ALICE = Player(1, "alice")
BOB = Player(2, "bob")


async def scripted_game(store: Store) -> tuple[MatchOptions, list[EventRecord]]:
    """Bob opens 2-1, Alice hits with 4-2, Bob dances with 6-6, Alice 3-1, Bob enters 5-3."""
    roller = ScriptedRoller()
    service = SessionService(store, roller=roller)
    channel = 66
    await service.challenge(10, channel, ALICE, BOB)
    roller.extend([1, 2])
    await service.accept(channel, BOB)
    await service.move(channel, BOB, "24/21")
    roller.extend([4, 2])
    await service.roll(channel, ALICE)
    await service.move(channel, ALICE, "8/4* 6/4")
    roller.extend([6, 6])
    await service.roll(channel, BOB)
    roller.extend([3, 1])
    await service.roll(channel, ALICE)
    await service.move(channel, ALICE, "8/5 6/5")
    roller.extend([5, 3])
    await service.roll(channel, BOB)
    await service.move(channel, BOB, "bar/22 13/8")
    row, events = await service.history(channel)
    return row.options, events


def made_by(events: list[EventRecord], notation: str) -> str:
    """The Position ID a logged play reached, as the player who made it saw it."""
    (event,) = [e for e in events if e.notation == notation]
    return Position.from_id(event.position_id).flip().position_id()


async def test_luck_and_chart_points_of_a_scripted_game(store: Store) -> None:
    options, events = await scripted_game(store)
    # 6-6 and 2-1 are the only rolls worth anything: the average is (0.36 + 2 * 0.09) / 36.
    average = 0.54 / 36
    hit = made_by(events, "8/4* 6/4")
    stub = TableEvaluator({(6, 6): 0.36, (2, 1): 0.09}, penalties={hit: 0.12})
    result = match_luck(options, events, stub)
    (game,) = result.games
    assert game.game_number == 1

    rolls = [(r.player, r.dice, r.opening, r.play) for r in game.rolls]
    assert rolls == [
        (1, (2, 1), True, 1),  # Bob wins the opening with 2-1
        (0, (4, 2), False, 2),
        (1, (6, 6), False, 3),
        (0, (3, 1), False, 4),
        (1, (5, 3), False, 5),
    ]
    lucks = [r.luck for r in game.rolls]
    # The opening's average is zero in a money game; the others subtract the average.
    assert lucks == pytest.approx([0.09, -average, 0.36 - average, -average, -average])
    players = result.players
    assert players[0].rolls == 2 and players[0].total == pytest.approx(-2 * average)
    assert players[1].rolls == 3 and players[1].total == pytest.approx(0.09 + 0.36 - 2 * average)
    assert players[1].rate == pytest.approx(1000 * (0.45 - 2 * average) / 3)
    assert game.luckiest is game.rolls[2]
    assert game.unluckiest is game.rolls[1]

    points = game.points
    assert [(p.index, p.player, p.dice, p.notation) for p in points] == [
        (1, 1, (2, 1), "24/21"),
        (2, 0, (4, 2), "8/4* 6/4"),
        (3, 1, (6, 6), "(no move)"),
        (4, 0, (3, 1), "8/5 6/5"),
        (5, 1, (5, 3), "bar/22 13/8"),
    ]
    # Alice's hit was 0.12 worse than the best 4-2: a blunder; the rest lost nothing.
    assert [p.equity_lost for p in points] == pytest.approx([0, 0.12, 0, 0, 0])
    assert [p.blunder for p in points] == [False, True, False, False, False]
    assert points[2].choices == 0
    # Player 0's (Alice's) chance after each play: the mover's is 0.5 + equity / 4.
    assert [p.win for p in points] == pytest.approx(
        [1 - (0.5 + 0.09 / 4), 0.5 - 0.12 / 4, 1 - (0.5 + 0.36 / 4), 0.5, 0.5]
    )
    assert [p.luck for p in points] == pytest.approx(lucks)

    only = match_luck(options, events, stub, games=[2])
    assert only.games == []


@pytest.mark.skipif(not computer_available(), reason="bgsage is not installed here")
async def test_real_evaluator_luck_matches_a_hand_average(store: Store) -> None:
    evaluator = BgsageEvaluator.shared(1)
    game = after_opening()
    context = CubeContext.for_game(game)

    def best(dice: Dice) -> float:
        from bot.engine import legal_plays

        results = legal_plays(game.position, dice).results()
        return max(r.equity for r in evaluator.rank_plays(game.position, dice, results, context))

    equities = {dice: best(dice) for dice, _ in ALL_ROLLS}
    average = sum(w * equities[dice] for dice, w in ALL_ROLLS) / 36
    cache = LuckEvaluations(evaluator)
    assert roll_luck(game, (6, 6), cache) == pytest.approx(equities[(6, 6)] - average)
    assert roll_luck(game, (2, 1), cache) == pytest.approx(equities[(2, 1)] - average)
    assert roll_luck(game, (6, 6), cache) > 0 > roll_luck(game, (2, 1), cache)

    options, events = await scripted_game(store)
    result = match_luck(options, events, cache)
    (played,) = result.games
    assert len(played.rolls) == 5 and len(played.points) == 5
    assert all(0.0 <= p.win <= 1.0 for p in played.points)
    assert all(-3.0 < r.luck < 3.0 for r in played.rolls)
    # Dancing with 6-6 against a 4-point board is bad luck; 3-1 making Alice's 5-point is good.
    assert played.rolls[2].luck < 0 < played.rolls[3].luck


def luck_positions() -> list[tuple[Position, CubeContext]]:
    """Positions of random money games under every cube state, of a match's scores, a
    dance (two on the bar against a closed board) and a race, each with the context to
    value it in."""
    import random

    from bot.engine import Phase

    rng = random.Random(30)
    cases: list[tuple[Position, CubeContext]] = []
    owners = (("centered", 1), ("player", 2), ("opponent", 4))
    while len(cases) < 12:
        game = Game.new(MatchOptions(jacoby=rng.random() < 0.5, beavers=rng.random() < 0.5))
        game = game.opening_roll(*rng.sample(range(1, 7), 2))
        while game.phase is not Phase.OVER and len(cases) < 12:
            if game.phase is Phase.MOVE:
                game = game.play(rng.choice(list(game.legal_plays())))
                continue
            if rng.random() < 0.2:
                owner, cube = rng.choice(owners)
                money = CubeContext(
                    cube=cube,
                    owner=owner,  # type: ignore[arg-type]
                    jacoby=game.options.jacoby,
                    beavers=game.options.beavers,
                )
                cases.append((game.position, money))
                away = (rng.randint(1, 9), rng.randint(1, 9))
                cases.append((game.position, CubeContext(away=away, crawford=1 in away)))
            game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
    board = [0] * 26
    board[25], board[6] = 2, 13
    for point in range(19, 25):
        board[point] = -2
    board[18] = -3
    cases.append((Position.from_board(board), CubeContext()))
    # A race whose network gives backgammons without gammons (bgsage reports them clamped).
    cases.append((Position.from_id("27YHAQBtuwcAAA"), CubeContext(away=(25, 25))))
    return cases


@pytest.mark.skipif(not computer_available(), reason="bgsage is not installed here")
def test_batched_rolls_are_exactly_the_ranked_best() -> None:
    from bot.engine import legal_plays

    evaluator = BgsageEvaluator.shared(1)
    rolls = [dice for dice, _ in ALL_ROLLS]
    for number, (position, context) in enumerate(luck_positions()):
        ranked = [
            evaluator.rank_plays(
                position, dice, legal_plays(position, dice).results() or [position], context
            )[0].equity
            for dice in rolls
        ]
        assert evaluator.best_equities(position, rolls, context) == ranked, (
            position.position_id(),
            context,
        )
        # The cube off, money and match: to float precision (bgsage sums in single).
        off_contexts = (CubeContext(live=False), CubeContext(live=False, away=(3, 5)))
        for off in off_contexts if number % 4 == 0 else ():
            cubeless = [
                evaluator.rank_plays(
                    position, dice, legal_plays(position, dice).results() or [position], off
                )[0].equity
                for dice in rolls
            ]
            batch = evaluator.best_equities(position, rolls, off)
            assert batch == pytest.approx(cubeless, abs=1e-6), (position.position_id(), off)


@pytest.mark.skipif(not computer_available(), reason="bgsage is not installed here")
def test_the_quick_one_ply_cube_is_exactly_bgsages_cube_action() -> None:
    evaluator = BgsageEvaluator.shared(1)
    positions = luck_positions()
    contexts = [(position, CubeContext(live=False, away=c.away)) for position, c in positions]
    for position, context in positions + contexts:
        quick = evaluator.cube_equities(position, context)
        assert quick == evaluator._cube_action(position, context), (
            position.position_id(),
            context,
        )
