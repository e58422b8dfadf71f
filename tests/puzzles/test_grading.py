"""Grading any legal answer by the equity it loses, on known equities and on the lines."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.features.puzzles.rules import (
    Candidate,
    Grade,
    Puzzle,
    UnknownAnswerError,
    grade,
    grade_for_loss,
    select_puzzles,
)
from bot.features.puzzles.rules.model import ranked
from tests.puzzles.support import ALICE, BOB, decision, puzzle, source

# Known equities: the best, then answers exactly on and just past each line.
EQUITIES = {
    "best": 0.30,
    "tie": 0.30,  # as good as the best
    "small": 0.29,  # 0.01 behind
    "right_line": 0.26,  # 0.30 - 0.26 = 0.03999999999999998: on the 0.04 line
    "past_right": 0.2599,  # 0.0401 behind
    "doubtful_line": 0.22,  # 0.30 - 0.22 = 0.07999999999999999: on the 0.08 line
    "past_doubtful": 0.2199,  # 0.0801 behind
    "made": 0.05,  # what was played in the game: 0.25 behind
}


def known_puzzle() -> Puzzle:
    """Built directly: grading reads any puzzle (this one has no clear answer to select)."""
    candidates = [Candidate(answer, answer, value) for answer, value in EQUITIES.items()]
    return puzzle(candidates=ranked(candidates))


@pytest.mark.parametrize(
    ("answer", "expected", "lost"),
    [
        ("best", Grade.RIGHT, 0.0),
        ("tie", Grade.RIGHT, 0.0),
        ("small", Grade.RIGHT, 0.01),
        ("right_line", Grade.RIGHT, 0.04),
        ("past_right", Grade.DOUBTFUL, 0.0401),
        ("doubtful_line", Grade.DOUBTFUL, 0.08),
        ("past_doubtful", Grade.WRONG, 0.0801),
        ("made", Grade.WRONG, 0.25),
    ],
)
def test_answers_are_graded_by_the_equity_they_lose(
    answer: str, expected: Grade, lost: float
) -> None:
    verdict = grade(known_puzzle(), answer)
    assert verdict.grade is expected
    assert verdict.equity_lost == pytest.approx(lost)
    assert verdict.answer.answer == answer


@pytest.mark.parametrize(
    ("equity", "expected"),
    # 0.9 - 0.86 is 0.040000000000000036 and 0.9 - 0.82 is 0.08000000000000007 in floating
    # point: still on the lines, and graded as the lines say.
    [(0.86, Grade.RIGHT), (0.82, Grade.DOUBTFUL)],
)
def test_rounding_above_a_line_still_counts_as_on_it(equity: float, expected: Grade) -> None:
    candidates = ranked([Candidate("best", "best", 0.9), Candidate("made", "made", equity)])
    assert grade(puzzle(candidates=candidates), "made").grade is expected


@pytest.mark.parametrize(
    ("lost", "expected"),
    [(0.0, Grade.RIGHT), (0.04, Grade.RIGHT), (0.04001, Grade.DOUBTFUL),
     (0.08, Grade.DOUBTFUL), (0.08001, Grade.WRONG), (2.0, Grade.WRONG)],
)  # fmt: skip
def test_the_lines_are_gnu_backgammons(lost: float, expected: Grade) -> None:
    assert grade_for_loss(lost) is expected


def test_the_verdict_reveals_the_top_three_and_the_play_made_in_the_game() -> None:
    verdict = grade(known_puzzle(), "small")
    assert [item.answer for item in verdict.top] == ["best", "tie", "small"]
    assert [item.equity for item in verdict.top] == [0.30, 0.30, 0.29]
    assert verdict.in_game == Candidate("made", "made", 0.05)


def test_the_best_answer_is_marked_as_such() -> None:
    assert grade(known_puzzle(), "tie").best
    assert not grade(known_puzzle(), "small").best


def test_a_player_meeting_their_own_mistake_is_told() -> None:
    mine = puzzle()  # Alice's mistake
    assert grade(mine, "best", solver_id=ALICE).own_mistake
    assert not grade(mine, "best", solver_id=BOB).own_mistake
    assert not grade(mine, "best").own_mistake
    computers = puzzle(owner_id=None)
    assert not grade(computers, "best", solver_id=None).own_mistake


def test_an_answer_that_is_not_a_legal_answer_is_refused() -> None:
    with pytest.raises(UnknownAnswerError) as caught:
        grade(puzzle(), "13/7 8/7")
    assert caught.value.answer == "13/7 8/7"
    assert isinstance(caught.value, ValueError)


@given(
    st.lists(st.floats(-2, 2, allow_nan=False), min_size=2, max_size=10, unique=True),
)
def test_a_better_answer_never_gets_a_worse_grade(values: list[float]) -> None:
    equities = {f"p{index}": value for index, value in enumerate(values)}
    best = max(values)
    # Make "made" a real mistake with a clear answer, so the decision is a puzzle.
    equities["top"] = best + 0.1
    equities["made"] = best - 1.0
    [found] = select_puzzles(source(), [decision(equities, "made")])
    order = ["right", "doubtful", "wrong"]
    verdicts = sorted((grade(found, answer) for answer in equities), key=lambda v: -v.answer.equity)
    ranks = [order.index(verdict.grade) for verdict in verdicts]
    assert ranks == sorted(ranks)
    assert all(verdict.equity_lost >= 0 for verdict in verdicts)
