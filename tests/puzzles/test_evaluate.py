"""Real games valued by a stub evaluator: from a match's decisions to puzzles, and back."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Any

import pytest

from bot.computer import (
    CubeContext,
    CubeDecision,
    CubeEquities,
    Decision,
    RankedResult,
    computer_available,
)
from bot.engine import (
    Dice,
    Game,
    IllegalPlayError,
    MatchOptions,
    Move,
    Phase,
    Play,
    Position,
    parse_play,
)
from bot.features.puzzles.rules import (
    CubeAnswer,
    CubeOwner,
    PuzzleKind,
    Rejection,
    confirm_all,
    grade,
    rejection,
    select_puzzles,
)
from bot.features.puzzles.rules.evaluate import (
    analyse,
    analyse_all,
    game_of,
    play_answer,
    reevaluator,
    situation_of,
)
from tests.engine.support import pos
from tests.puzzles.support import ALICE, source


class StubEvaluator:
    """Hand-set equities: every play is worth ``base`` less its penalty (by Position ID after
    the play); the cube equities are fixed. Records the cube contexts it was asked about."""

    def __init__(
        self,
        penalties: dict[str, float] | None = None,
        cube: CubeEquities | None = None,
        base: float = 0.3,
    ) -> None:
        self.penalties = penalties or {}
        self.cube = cube or CubeEquities(0.5, 0.9, 1.0)
        self.base = base
        self.contexts: list[CubeContext] = []

    def rank_plays(
        self,
        position: Position,
        dice: Dice,
        results: Sequence[Position],
        context: CubeContext,
        *,
        force: Collection[Position] = (),
    ) -> list[RankedResult]:
        self.contexts.append(context)
        ranked = [
            RankedResult(result, self.base - self.penalties.get(result.position_id(), 0.0))
            for result in results
        ]
        return sorted(ranked, key=lambda item: -item.equity)

    def cube_equities(self, position: Position, context: CubeContext) -> CubeEquities:
        self.contexts.append(context)
        return self.cube


def opening() -> Game:
    return Game(options=MatchOptions(length=7)).opening_roll(3, 1)


def answer(game: Game, text: str) -> str:
    assert game.dice is not None
    return play_answer(game, parse_play(game.position, game.dice, text))


def one_best(game: Game, best: str, made: str) -> StubEvaluator:
    """Every play 0.1 worse than ``best``, and ``made`` a further 0.1 worse."""
    stub = StubEvaluator({result.position_id(): 0.1 for result in game.legal_plays().results()})
    stub.penalties[answer(game, best)] = 0.0
    stub.penalties[answer(game, made)] = 0.2
    return stub


def test_a_bad_opening_play_becomes_a_puzzle() -> None:
    game = opening()
    bad = parse_play(game.position, (3, 1), "24/21 24/23")
    stub = one_best(game, "8/5 6/5", "24/21 24/23")
    [analysed] = analyse_all(stub, [(game, bad)], level="expert")
    assert analysed.kind is PuzzleKind.CHECKER_PLAY
    assert len(analysed.candidates) == len(game.legal_plays()) == 16
    assert analysed.made == answer(game, "24/21 24/23")
    assert analysed.situation.dice == (3, 1) and analysed.situation.length == 7
    [found] = select_puzzles(source(), [analysed])
    assert found.best.notation == "8/5 6/5"
    assert found.in_game.notation == "24/23 24/21"  # as the engine writes it
    assert found.equity_lost == pytest.approx(0.2)
    assert found.owner_id == ALICE
    # A solver's answer, written as on the board, is graded.
    assert grade(found, answer(game, "6/5 8/5")).best  # the same play in another order
    assert grade(found, answer(game, "13/10 6/5")).equity_lost == pytest.approx(0.1)


def test_an_illegal_answer_is_the_engines_error() -> None:
    game = opening()
    with pytest.raises(IllegalPlayError):
        play_answer(game, Play((Move(13, 7, False),)))  # a 6 with 3-1


def test_a_forced_play_has_one_candidate() -> None:
    # The player on roll has one checker left, on their 6-point, against a closed board:
    # with 6-5 the only play is 6/off.
    position = pos({6: 1, 19: -3, 20: -3, 21: -3, 22: -3, 23: -3})
    game = Game(position=position, phase=Phase.MOVE, dice=(6, 5))
    [only] = list(game.legal_plays())
    analysed = analyse(StubEvaluator(), game, only)
    assert analysed is not None and len(analysed.candidates) == 1
    assert rejection(analysed) is Rejection.FORCED
    assert select_puzzles(source(), [analysed]) == []


def roll_phase(**fields: Any) -> Game:
    """Player 1 to roll (or double) in the middle of a game."""
    game = Game(options=MatchOptions(length=7)).opening_roll(3, 1).move("8/5 6/5")
    return replace(game, **fields)


def test_a_missed_double_from_a_real_game() -> None:
    game = roll_phase(score=(2, 4))
    assert game.phase is Phase.ROLL and game.can_double()
    # No double 0.5; doubled, the taker's best answer (take, 0.9) leaves the doubler 0.9.
    stub = StubEvaluator(cube=CubeEquities(0.5, 0.9, 1.0))
    analysed = analyse(stub, game, CubeDecision.NO_DOUBLE)
    assert analysed is not None and analysed.kind is PuzzleKind.DOUBLE
    assert {c.answer: c.equity for c in analysed.candidates} == {
        CubeAnswer.NO_DOUBLE: 0.5,
        CubeAnswer.DOUBLE: 0.9,
    }
    # Told from the side of player 1, who acts: their score first, 4 to 2.
    assert analysed.player == 1 and analysed.situation.score == (4, 2)
    assert stub.contexts[-1].away == (3, 5)
    [found] = select_puzzles(source(), [analysed])
    assert found.best.answer == CubeAnswer.DOUBLE and found.equity_lost == pytest.approx(0.4)


def test_a_wrong_take_from_a_real_game() -> None:
    game = roll_phase(cube=2, cube_owner=1).double()
    assert game.phase is Phase.DOUBLED and game.actor == 0
    # The doubler's equities: a take leaves them 1.3, a pass 1.0; the receiver's opposite.
    stub = StubEvaluator(cube=CubeEquities(0.8, 1.3, 1.0))
    analysed = analyse(stub, game, CubeDecision.TAKE)
    assert analysed is not None and analysed.kind is PuzzleKind.TAKE
    assert {c.answer: c.equity for c in analysed.candidates} == {
        CubeAnswer.TAKE: -1.3,
        CubeAnswer.PASS: -1.0,
    }
    assert analysed.situation.cube == 2
    assert analysed.situation.cube_owner is CubeOwner.OPPONENT
    [found] = select_puzzles(source(), [analysed])
    assert found.best.answer == CubeAnswer.PASS and found.owner_id == ALICE


def test_a_beaver_is_an_answer_where_beavers_are_played() -> None:
    game = Game(options=MatchOptions(beavers=True)).opening_roll(3, 1).move("8/5 6/5").double()
    stub = StubEvaluator(cube=CubeEquities(0.0, -0.3, 1.0))
    analysed = analyse(stub, game, CubeDecision.TAKE)
    assert analysed is not None
    equities = {c.answer: c.equity for c in analysed.candidates}
    assert equities == {CubeAnswer.TAKE: 0.3, CubeAnswer.PASS: -1.0, CubeAnswer.BEAVER: 0.6}
    [found] = select_puzzles(source(), [analysed])
    assert found.best.answer == CubeAnswer.BEAVER


def test_the_crawford_game_has_no_cube_decision() -> None:
    game = roll_phase(score=(6, 3), crawford=True)
    assert not game.can_double()
    analysed = analyse(
        StubEvaluator(cube=CubeEquities(0.2, 0.9, 1.0)), game, CubeDecision.NO_DOUBLE
    )
    assert analysed is not None and len(analysed.candidates) == 1
    assert rejection(analysed) is Rejection.FORCED


def test_the_doublers_answer_to_a_beaver_is_no_puzzle() -> None:
    game = Game(options=MatchOptions(beavers=True)).opening_roll(3, 1).move("8/5 6/5")
    beavered = game.double().beaver()
    assert beavered.beaver_pending
    assert analyse(StubEvaluator(), beavered, CubeDecision.TAKE) is None


def test_only_the_players_asked_for_are_analysed() -> None:
    game = opening()
    play = next(iter(game.legal_plays()))
    assert analyse_all(StubEvaluator(), [(game, play)], players=(1,)) == []


@pytest.mark.parametrize("kind", ["checker", "double", "take"])
def test_a_puzzles_game_is_rebuilt_for_the_strongest_level(kind: str) -> None:
    decision: Decision
    if kind == "checker":
        game = replace(opening(), score=(1, 3))
        decision = parse_play(game.position, (3, 1), "24/21 24/23")
        stub = one_best(game, "8/5 6/5", "24/21 24/23")
    elif kind == "double":
        game, decision = roll_phase(score=(2, 4)), CubeDecision.NO_DOUBLE
        stub = StubEvaluator(cube=CubeEquities(0.5, 0.9, 1.0))
    else:
        game, decision = roll_phase(cube=2, cube_owner=1, score=(1, 2)).double(), CubeDecision.TAKE
        stub = StubEvaluator(cube=CubeEquities(0.8, 1.3, 1.0))
    analysed = analyse(stub, game, decision)
    assert analysed is not None
    context = stub.contexts[-1]
    [found] = select_puzzles(source(), [analysed])
    rebuilt = game_of(found)
    assert rebuilt.actor == 0
    # The same moment, now with the actor in seat 0 (so only the Match ID differs).
    assert replace(situation_of(rebuilt), match_id="") == replace(found.situation, match_id="")
    [confirmed] = confirm_all([found], reevaluator(stub), level="world-class")
    assert stub.contexts[-1] == context  # the same cube, score and rules as in the game
    assert confirmed.candidates == found.candidates
    assert confirmed.confirmed_level == "world-class"


@pytest.mark.skipif(not computer_available(), reason="bgsage is not installed here")
def test_with_bgsage_a_real_blunder_is_found() -> None:
    from bot.computer import BgsageEvaluator

    game = opening()
    blunder = parse_play(game.position, (3, 1), "24/20")
    evaluator = BgsageEvaluator(plies=1)
    [analysed] = analyse_all(evaluator, [(game, blunder)], level="beginner")
    [found] = select_puzzles(source(), [analysed])
    assert found.best.notation == "8/5 6/5"
    assert found.equity_lost > 0.08


def test_the_strongest_level_values_the_play_made_at_full_strength() -> None:
    """A staged search prunes the bad plays, valuing them shallower than the best: the
    re-evaluation forces the play made (and the answers the reveal shows), as the match
    analysis forces the play made, so its loss is deep equity against deep equity."""
    game = opening()
    bad = parse_play(game.position, (3, 1), "24/21 24/23")

    class Recording(StubEvaluator):
        forced: tuple[str, ...] = ()

        def rank_plays(self, position, dice, results, context, *, force=()):
            self.forced = tuple(sorted(result.position_id() for result in force))
            return super().rank_plays(position, dice, results, context, force=force)

    stub = Recording({result.position_id(): 0.1 for result in game.legal_plays().results()})
    stub.penalties[answer(game, "8/5 6/5")] = 0.0
    stub.penalties[answer(game, "24/21 24/23")] = 0.2
    [found] = select_puzzles(source(), analyse_all(stub, [(game, bad)]))
    reevaluator(stub)(found)
    assert answer(game, "24/21 24/23") in stub.forced
    assert answer(game, "8/5 6/5") in stub.forced
    assert set(stub.forced) == {found.made, *(item.answer for item in found.top(3))}
