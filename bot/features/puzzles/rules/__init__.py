"""Puzzles from the server's own mistakes (issue 29): the pure core the commands stand on.

A finished, analysed match of this server gives puzzles where a player (or the computer)
lost at least 0.08 equity and one answer was clearly best; a solver's answer is graded by
the equity it loses; solvers and puzzles are rated with Glicko-2; streaks, a leaderboard
and the choice of the next puzzle follow. The Discord commands, the storage and the daily
post come later, on top of this.

The modules, each importing only those above it (the standard library, :mod:`bot.engine`
and :mod:`bot.core.records`' :class:`~bot.core.records.Status`;
:mod:`~bot.features.puzzles.rules.evaluate` alone also :mod:`bot.computer`'s evaluator-free parts):

- :mod:`~bot.features.puzzles.rules.model`: the values (:class:`PuzzleKind`, :class:`Grade`,
  :class:`Candidate`, :class:`Situation`, :class:`AnalysedDecision`, :class:`Puzzle`,
  :class:`PuzzleKey`, :class:`Verdict`);
- :mod:`~bot.features.puzzles.rules.selection`: which decisions become puzzles
(:func:`select_puzzles`)
  and the strongest level's check (:func:`confirm`, :func:`confirm_all`);
- :mod:`~bot.features.puzzles.rules.grading`: :func:`grade`;
- :mod:`~bot.features.puzzles.rules.glicko`: Glicko-2 (:func:`rate`, :func:`rate_attempt`);
- :mod:`~bot.features.puzzles.rules.progress`: streaks, the leaderboard, :func:`next_puzzle`;
- :mod:`~bot.features.puzzles.rules.evaluate`: a match's (game, decision) pairs valued by an
  :class:`~bot.computer.Evaluator` into analysed decisions, and a puzzle's game rebuilt
  for the re-evaluation. CPU work: call it in a worker process.

Words for players live in :mod:`bot.present.puzzles`, never here.
"""

from __future__ import annotations

from bot.features.puzzles.rules.glicko import GRADE_SCORES, Glicko, Outcome, rate, rate_attempt
from bot.features.puzzles.rules.grading import (
    DOUBTFUL_LIMIT,
    RIGHT_LIMIT,
    UnknownAnswerError,
    grade,
    grade_for_loss,
)
from bot.features.puzzles.rules.model import (
    AnalysedDecision,
    Candidate,
    CubeAnswer,
    CubeOwner,
    Grade,
    Puzzle,
    PuzzleKey,
    PuzzleKind,
    Situation,
    Verdict,
)
from bot.features.puzzles.rules.progress import (
    PROVISIONAL_DEVIATION,
    PoolEntry,
    SolverStanding,
    Streak,
    day_streak,
    leaderboard,
    next_puzzle,
    solve_streak,
)
from bot.features.puzzles.rules.selection import (
    BAD_ERROR,
    CLEAR_MARGIN,
    Exclusion,
    Reevaluate,
    Rejection,
    Seat,
    SourceGame,
    TournamentStage,
    confirm,
    confirm_all,
    exclusion,
    rejection,
    select_puzzles,
)

__all__ = [
    "BAD_ERROR",
    "CLEAR_MARGIN",
    "DOUBTFUL_LIMIT",
    "GRADE_SCORES",
    "PROVISIONAL_DEVIATION",
    "RIGHT_LIMIT",
    "AnalysedDecision",
    "Candidate",
    "CubeAnswer",
    "CubeOwner",
    "Exclusion",
    "Glicko",
    "Grade",
    "Outcome",
    "PoolEntry",
    "Puzzle",
    "PuzzleKey",
    "PuzzleKind",
    "Reevaluate",
    "Rejection",
    "Seat",
    "Situation",
    "SolverStanding",
    "SourceGame",
    "Streak",
    "TournamentStage",
    "UnknownAnswerError",
    "Verdict",
    "confirm",
    "confirm_all",
    "day_streak",
    "exclusion",
    "grade",
    "grade_for_loss",
    "leaderboard",
    "next_puzzle",
    "rate",
    "rate_attempt",
    "rejection",
    "select_puzzles",
    "solve_streak",
]
