"""The words of puzzles: the question, the grade, the private reveal, streaks and ratings.

Built from :mod:`bot.features.puzzles.rules`' values (a
:class:`~bot.features.puzzles.rules.Puzzle`, a
:class:`~bot.features.puzzles.rules.Verdict`, a :class:`~bot.features.puzzles.rules.Streak`), never
from the session.
Lines are :class:`~bot.i18n.Text` (the ``*_line`` functions); the reveal is a whole page
(:func:`verdict_text`) in the reader's language. The move notation, Position IDs and Match
IDs stay as players write them.

Privacy: nothing here names the player who made the mistake. A puzzle is told from the
side of the player to act ("you", "your opponent"); only the solver who made the mistake
hears so, in their private reveal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.features.puzzles.rules import (
    Candidate,
    CubeAnswer,
    CubeOwner,
    Grade,
    Puzzle,
    PuzzleKind,
    Situation,
    SolverStanding,
    Streak,
    Verdict,
)
from bot.i18n import N_, Text, _, join, say

__all__ = [
    "CUBE_ANSWER_WORDS",
    "GRADE_WORDS",
    "answer_words",
    "grade_line",
    "puzzle_leaderboard_lines",
    "puzzle_prompt",
    "question_line",
    "rating_change_line",
    "situation_line",
    "streak_line",
    "verdict_text",
]

GRADE_WORDS: dict[Grade, Text] = {
    Grade.RIGHT: _("Right"),
    Grade.DOUBTFUL: _("Doubtful"),
    Grade.WRONG: _("Wrong"),
}

CUBE_ANSWER_WORDS: dict[CubeAnswer, Text] = {
    CubeAnswer.NO_DOUBLE: _("No double"),
    CubeAnswer.DOUBLE: _("Double"),
    CubeAnswer.TAKE: _("Take"),
    CubeAnswer.PASS: _("Pass"),
    CubeAnswer.BEAVER: _("Beaver"),
}


def answer_words(candidate: Candidate) -> Text | str:
    """An answer as players say it: the play's notation, or the cube action's words."""
    try:
        return CUBE_ANSWER_WORDS[CubeAnswer(candidate.answer)]
    except ValueError:
        return candidate.notation


def _cube_words(situation: Situation) -> Text:
    owner = situation.cube_owner
    if owner is CubeOwner.ACTOR:
        return _("you own the cube at {cube}", cube=situation.cube)
    if owner is CubeOwner.OPPONENT:
        return _("your opponent owns the cube at {cube}", cube=situation.cube)
    return _("the cube is in the middle at {cube}", cube=situation.cube)


def situation_line(situation: Situation) -> Text:
    """The score and the cube, from the side of the player to act."""
    parts: list[Text | str] = []
    if situation.is_money:
        parts.append(_("Money game"))
    else:
        mine, theirs = situation.score
        parts.append(
            _(
                "{length}-point match: you have {mine}, your opponent {theirs}",
                length=situation.length,
                mine=mine,
                theirs=theirs,
            )
        )
        if situation.crawford:
            parts.append(_("Crawford game"))
    if situation.cube_live:
        parts.append(_cube_words(situation))
    return join(parts, "; ")


def question_line(puzzle: Puzzle) -> Text:
    """What the puzzle asks, and how to answer."""
    situation = puzzle.situation
    if puzzle.kind is PuzzleKind.CHECKER_PLAY:
        assert situation.dice is not None
        high, low = max(situation.dice), min(situation.dice)
        return _(
            "You rolled {dice}. What is your best play? Answer with a play, as in "
            "/backgammon move.",
            dice=f"{high}-{low}",
        )
    if puzzle.kind is PuzzleKind.DOUBLE:
        if situation.cube_owner is CubeOwner.ACTOR:
            return _("You are on roll. Redouble or not?")
        return _("You are on roll. Double or not?")
    if any(item.answer == CubeAnswer.BEAVER for item in puzzle.candidates):
        return _("Your opponent doubles. Take, pass or beaver?")
    return _("Your opponent doubles. Take or pass?")


def puzzle_prompt(puzzle: Puzzle) -> Text:
    """The words under the board of a puzzle: the situation, then the question."""
    return join([situation_line(puzzle.situation), question_line(puzzle)], "\n")


def grade_line(verdict: Verdict) -> Text:
    """The grade of an answer, with what it lost against the best."""
    answer = answer_words(verdict.answer)
    if verdict.best:
        return _("Right: {answer} is the best answer.", answer=answer)
    lost = verdict.equity_lost
    best = answer_words(verdict.puzzle.best)
    if verdict.grade is Grade.RIGHT:
        return _(
            "Right: {answer} loses only {lost:.3f} against {best}.",
            answer=answer,
            lost=lost,
            best=best,
        )
    if verdict.grade is Grade.DOUBTFUL:
        return _(
            "Doubtful: {answer} loses {lost:.3f} against {best}.",
            answer=answer,
            lost=lost,
            best=best,
        )
    return _(
        "Wrong: {answer} loses {lost:.3f} against {best}.", answer=answer, lost=lost, best=best
    )


def verdict_text(verdict: Verdict, *, language: str | None = None) -> str:
    """The private reveal: the grade, the best three, the game's answer, the IDs."""
    lines: list[Text | str] = [grade_line(verdict), _("Best answers:")]
    best = verdict.puzzle.best.equity
    for number, item in enumerate(verdict.top, start=1):
        template = "{number}. {answer} — {equity:+.3f}"
        if number > 1:
            template += " ({behind:+.3f})"
        lines.append(
            Text(
                template,
                {
                    "number": number,
                    "answer": answer_words(item),
                    "equity": item.equity,
                    "behind": item.equity - best,
                },
            )
        )
    in_game = verdict.in_game
    if verdict.own_mistake:
        lines.append(
            _(
                "You played {answer} in your own match here: {lost:.3f} lost.",
                answer=answer_words(in_game),
                lost=best - in_game.equity,
            )
        )
    else:
        lines.append(
            _(
                "Played in the game: {answer} ({lost:.3f} lost).",
                answer=answer_words(in_game),
                lost=best - in_game.equity,
            )
        )
    situation = verdict.puzzle.situation
    lines.append(
        _(
            "Position ID {position} · Match ID {match}",
            position=situation.position_id,
            match=situation.match_id,
        )
    )
    return say(join(lines, "\n"), language)


def streak_line(solved: Streak, days: Streak) -> Text:
    """A solver's two streaks: right answers in a row, days in a row."""
    return join(
        [
            N_(
                "{n} right answer in a row (best {best}).",
                "{n} right answers in a row (best {best}).",
                solved.current,
                n=solved.current,
                best=solved.best,
            ),
            N_(
                "{n} day in a row with a puzzle (best {best}).",
                "{n} days in a row with a puzzle (best {best}).",
                days.current,
                n=days.current,
                best=days.best,
            ),
        ]
    )


def rating_change_line(before: float, after: float) -> Text:
    """How a rated attempt moved the solver's puzzle rating."""
    return _(
        "Puzzle rating: {before:.0f} → {after:.0f} ({change:+.0f}).",
        before=before,
        after=after,
        change=after - before,
    )


def puzzle_leaderboard_lines(
    rows: Sequence[SolverStanding],
    *,
    name: Callable[[int], str],
    language: str | None = None,
) -> list[str]:
    """The puzzle leaderboard, one line per solver; ``name`` shows a user (escaped)."""
    return [
        say(
            N_(
                "{rank}. {name} — {rating:.0f} ({n} puzzle solved)",
                "{rank}. {name} — {rating:.0f} ({n} puzzles solved)",
                row.solved,
                rank=rank,
                name=name(row.user_id),
                rating=row.rating.rating,
                n=row.solved,
            ),
            language,
        )
        for rank, row in enumerate(rows, start=1)
    ]
