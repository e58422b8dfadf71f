"""From a match's decisions to analysed decisions, and back from a puzzle to a game.

The bridge between the project's record of a match and the puzzle core: the match log
gives (the game just before a decision, the decision) pairs
(:func:`bot.core.replay.decisions_from_events`), the same input as
:func:`bot.computer.analyze`; here each becomes an
:class:`~bot.features.puzzles.rules.model.AnalysedDecision` holding *every* legal answer with its
equity, which the match analysis does not keep (it totals the loss and keeps the three biggest).
Cube decisions are valued through :mod:`bot.computer.cube`, the rules the computer and the
analysis already decide by, so a puzzle never disagrees with a hint.

It also rebuilds a puzzle's :class:`~bot.engine.Game` (:func:`game_of`) so that
:func:`reevaluator` can value it again at the strongest level for
:func:`bot.features.puzzles.rules.confirm_all`, and turns a solver's play into the answer
:func:`bot.features.puzzles.rules.grade` reads (:func:`play_answer`).

This is the one module of :mod:`bot.features.puzzles.rules` that touches :mod:`bot.computer`, and
only its public, evaluator-free parts and the :class:`~bot.computer.Evaluator` protocol: the
evaluator is passed in. Every call evaluates: synchronous CPU work for a worker process.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from bot.computer import CubeContext, CubeDecision, Decision, Evaluator
from bot.computer.cube import beaver_value, beavers_allowed, responses
from bot.engine import Game, MatchOptions, Phase, Play, Position
from bot.features.puzzles.rules.model import (
    AnalysedDecision,
    Candidate,
    CubeAnswer,
    CubeOwner,
    Puzzle,
    PuzzleKind,
    Situation,
)
from bot.features.puzzles.rules.selection import Reevaluate

__all__ = [
    "analyse",
    "analyse_all",
    "game_of",
    "play_answer",
    "reevaluator",
    "situation_of",
]

_CUBE_ANSWERS = {
    CubeDecision.NO_DOUBLE: CubeAnswer.NO_DOUBLE,
    CubeDecision.DOUBLE: CubeAnswer.DOUBLE,
    CubeDecision.TAKE: CubeAnswer.TAKE,
    CubeDecision.DROP: CubeAnswer.PASS,
    CubeDecision.BEAVER: CubeAnswer.BEAVER,
}


def situation_of(game: Game) -> Situation:
    """The moment of ``game`` seen from the player who must act."""
    actor = game.actor
    if actor is None:
        raise ValueError(f"nobody acts in {game!r}")
    if game.cube_owner is None:
        owner = CubeOwner.CENTRE
    else:
        owner = CubeOwner.ACTOR if game.cube_owner == actor else CubeOwner.OPPONENT
    options = game.options
    return Situation(
        position_id=game.position_id(),
        match_id=game.match_id(),
        dice=game.dice if game.phase is Phase.MOVE else None,
        score=(game.score[actor], game.score[1 - actor]),
        length=options.length,
        cube=game.cube,
        cube_owner=owner,
        crawford=game.crawford,
        cube_live=options.cube,
        jacoby=options.jacoby,
        beavers=options.beavers,
    )


def _kind(game: Game) -> PuzzleKind | None:
    if game.resignation is not None:
        return None
    if game.phase is Phase.MOVE:
        return PuzzleKind.CHECKER_PLAY
    if game.phase is Phase.ROLL:
        return PuzzleKind.DOUBLE
    if game.phase is Phase.DOUBLED and not game.beaver_pending:
        return PuzzleKind.TAKE
    return None  # the opening roll, a game over, the doubler's answer to a beaver


def candidates_for(
    evaluator: Evaluator, game: Game, *, force: Collection[str] = ()
) -> tuple[Candidate, ...]:
    """Every legal answer of the decision in front of ``game``'s actor, with its equity.

    A checker play's answer is the Position ID of the board it leaves (seen by the mover);
    a cube decision's, a :class:`CubeAnswer`. Equities are the actor's. A roll on which
    the cube cannot be turned has one answer (no double), like a forced play. ``force``:
    checker answers valued at the evaluator's full strength even where its search would
    prune them (the play made in the game, as the match analysis forces it), so the loss
    is never a deep equity against a shallow one.
    """
    kind = _kind(game)
    if kind is PuzzleKind.CHECKER_PLAY:
        assert game.dice is not None
        plays = game.legal_plays()
        results = plays.results()
        forced = [result for result in results if result.position_id() in force]
        ranked = evaluator.rank_plays(
            game.position, game.dice, results, CubeContext.for_game(game), force=forced
        )
        found: list[Candidate] = []
        for item in ranked:
            play = plays.play_for(item.result)
            if play is not None:
                found.append(Candidate(item.result.position_id(), str(play), item.equity))
        return tuple(found)
    if kind is PuzzleKind.DOUBLE:
        context = CubeContext.for_game(game)
        equities = evaluator.cube_equities(game.position, context)
        no_double = Candidate(CubeAnswer.NO_DOUBLE, CubeAnswer.NO_DOUBLE, equities.no_double)
        if not game.can_double():
            return (no_double,)
        doubled = min(responses(equities, context.beavers).values())  # the taker minimizes
        return (no_double, Candidate(CubeAnswer.DOUBLE, CubeAnswer.DOUBLE, doubled))
    if kind is PuzzleKind.TAKE:
        equities = evaluator.cube_equities(game.position, CubeContext.for_game(game))
        found = [
            Candidate(CubeAnswer.TAKE, CubeAnswer.TAKE, -equities.double_take),
            Candidate(CubeAnswer.PASS, CubeAnswer.PASS, -equities.double_pass),
        ]
        if beavers_allowed(game):
            value = -beaver_value(equities.double_take)
            found.append(Candidate(CubeAnswer.BEAVER, CubeAnswer.BEAVER, value))
        return tuple(found)
    raise ValueError(f"there is no decision to value in {game!r}")


def analyse(
    evaluator: Evaluator, game: Game, decision: Decision, *, level: str = ""
) -> AnalysedDecision | None:
    """The decision made in ``game`` with every answer valued, or None if it was none.

    None for what no puzzle can come from: the doubler's answer to a beaver, a decision
    while a resignation is offered. ``level`` names the evaluator's strength.
    """
    kind = _kind(game)
    if kind is None:
        return None
    actor = game.actor
    assert actor is not None
    if isinstance(decision, Play):
        if kind is not PuzzleKind.CHECKER_PLAY:
            raise ValueError(f"a checker play in {game!r}")
        made = play_answer(game, decision)
    else:
        made = _CUBE_ANSWERS[CubeDecision(decision)]
    candidates = candidates_for(evaluator, game)
    return AnalysedDecision(
        kind=kind,
        situation=situation_of(game),
        player=actor,
        made=made,
        candidates=candidates,
        game_number=game.game_number,
        level=level,
    )


def analyse_all(
    evaluator: Evaluator,
    decisions: Iterable[tuple[Game, Decision]],
    *,
    level: str = "",
    players: Collection[int] = (0, 1),
) -> list[AnalysedDecision]:
    """Every decision of ``players`` valued, in order (see :func:`analyse`).

    A forced play is kept, with its single answer: the selection refuses it by rule, and
    says so, instead of it vanishing here unseen.
    """
    found: list[AnalysedDecision] = []
    for game, decision in decisions:
        if game.actor not in players:
            continue
        analysed = analyse(evaluator, game, decision, level=level)
        if analysed is not None:
            found.append(analysed)
    return found


def play_answer(game: Game, play: Play) -> str:
    """The answer ``play`` gives in ``game``: the Position ID of the board it leaves.

    Raises the engine's own :class:`~bot.engine.IllegalPlayError` when the play is not
    legal with the dice, so the front end says why as it does for ``/backgammon move``.
    """
    game.play(play)  # the engine's check, with its error for the player
    return game.position.apply(play).position_id()


def game_of(puzzle: Puzzle) -> Game:
    """The game a puzzle shows, rebuilt from its situation (seat 0 is the actor).

    For a take puzzle seat 1 is the doubler, on roll with the double pending.
    """
    situation = puzzle.situation
    options = MatchOptions(
        length=situation.length,
        cube=situation.cube_live,
        jacoby=situation.jacoby,
        beavers=situation.beavers,
    )
    take = puzzle.kind is PuzzleKind.TAKE
    on_roll = 1 if take else 0
    owner = {CubeOwner.CENTRE: None, CubeOwner.ACTOR: 0, CubeOwner.OPPONENT: 1}
    length = situation.length
    score = situation.score
    phase = {
        PuzzleKind.CHECKER_PLAY: Phase.MOVE,
        PuzzleKind.DOUBLE: Phase.ROLL,
        PuzzleKind.TAKE: Phase.DOUBLED,
    }[puzzle.kind]
    return Game(
        options=options,
        position=Position.from_id(situation.position_id),
        on_roll=on_roll,
        phase=phase,
        dice=situation.dice,
        cube=situation.cube,
        cube_owner=owner[situation.cube_owner],
        score=score,
        crawford=situation.crawford,
        # After the Crawford game, a player one point away may be doubled again.
        post_crawford=bool(length) and not situation.crawford and length - 1 in score,
    )


def reevaluator(evaluator: Evaluator) -> Reevaluate:
    """The ``reevaluate`` callback of :func:`bot.features.puzzles.rules.confirm_all` for
    ``evaluator``.

    Give it the strongest level's evaluator, in a worker process.
    """

    def reevaluate(puzzle: Puzzle) -> tuple[Candidate, ...]:
        # The play made and the answers the reveal shows, each at full strength.
        shown = {puzzle.made, *(item.answer for item in puzzle.top(3))}
        return candidates_for(evaluator, game_of(puzzle), force=shown)

    return reevaluate
