"""Grading an answer to a puzzle by the equity it loses, GNU Backgammon's way.

Any legal answer is graded, not only the best: at most :data:`RIGHT_LIMIT` (0.04) behind
the best is right, at most :data:`DOUBTFUL_LIMIT` (0.08) doubtful (GNU's "doubtful"),
anything worse wrong. The verdict carries what the reveal shows privately: the best three
answers with their equities, the answer made in the game, and whether the solver made that
mistake themselves. Pure.
"""

from __future__ import annotations

from bot.features.puzzles.rules.model import Grade, Puzzle, Verdict
from bot.features.puzzles.rules.selection import TOLERANCE

__all__ = ["DOUBTFUL_LIMIT", "RIGHT_LIMIT", "UnknownAnswerError", "grade", "grade_for_loss"]

RIGHT_LIMIT = 0.04  # GNU Backgammon calls a smaller loss no error at all
DOUBTFUL_LIMIT = 0.08  # and up to this, "doubtful"; beyond, "bad"


class UnknownAnswerError(ValueError):
    """The answer is not a legal answer to the puzzle (the caller checks legality first)."""

    def __init__(self, answer: str, puzzle: Puzzle) -> None:
        super().__init__(f"{answer!r} does not answer the puzzle at {puzzle.situation}")
        self.answer = answer


def grade_for_loss(lost: float) -> Grade:
    """The grade of an answer that loses ``lost`` equity against the best (0 or more)."""
    if lost <= RIGHT_LIMIT + TOLERANCE:
        return Grade.RIGHT
    if lost <= DOUBTFUL_LIMIT + TOLERANCE:
        return Grade.DOUBTFUL
    return Grade.WRONG


def grade(puzzle: Puzzle, answer: str, *, solver_id: int | None = None) -> Verdict:
    """The verdict on ``answer`` (a :attr:`~bot.features.puzzles.rules.model.Candidate.answer`).

    ``solver_id`` is who answered: when they made the mistake in the game, the verdict
    says so (``own_mistake``), for the front end to tell them privately.
    """
    try:
        chosen = puzzle.candidate(answer)
    except KeyError:
        raise UnknownAnswerError(answer, puzzle) from None
    lost = max(0.0, puzzle.best.equity - chosen.equity)
    return Verdict(
        puzzle=puzzle,
        answer=chosen,
        grade=grade_for_loss(lost),
        equity_lost=lost,
        top=puzzle.top(3),
        in_game=puzzle.in_game,
        own_mistake=solver_id is not None and solver_id == puzzle.owner_id,
    )
