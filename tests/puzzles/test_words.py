"""The words of puzzles in English and French: the question, the grade, the reveal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.features.puzzles.rules import (
    Candidate,
    CubeAnswer,
    CubeOwner,
    Glicko,
    Grade,
    PuzzleKind,
    SolverStanding,
    Streak,
    grade,
    select_puzzles,
)
from bot.features.puzzles.rules.model import ranked
from bot.i18n import say
from bot.present.puzzles import (
    GRADE_WORDS,
    grade_line,
    puzzle_leaderboard_lines,
    puzzle_prompt,
    rating_change_line,
    situation_line,
    streak_line,
    verdict_text,
)
from tests.puzzles.support import ALICE, BOB, decision, puzzle, situation, source


def checker_puzzle():
    equities = {"p1": 0.30, "p2": 0.20, "p3": 0.19, "p4": 0.05}
    notations = {"p1": "8/5 6/5", "p2": "13/10 6/5", "p3": "24/23 13/10", "p4": "24/20"}
    found = puzzle()
    candidates = ranked([Candidate(a, notations[a], e) for a, e in equities.items()])
    return replace(found, candidates=candidates, made="p4")


def test_the_reveal_in_english() -> None:
    text = verdict_text(grade(checker_puzzle(), "p2"))
    assert text.splitlines() == [
        "Wrong: 13/10 6/5 loses 0.100 against 8/5 6/5.",
        "Best answers:",
        "1. 8/5 6/5 — +0.300",
        "2. 13/10 6/5 — +0.200 (-0.100)",
        "3. 24/23 13/10 — +0.190 (-0.110)",
        "Played in the game: 24/20 (0.250 lost).",
        "Position ID 4HPwATDgc/ABMA · Match ID cAkAAAAAAAAA",
    ]


def test_the_reveal_in_french() -> None:
    text = verdict_text(grade(checker_puzzle(), "p1", solver_id=ALICE), language="fr")
    assert text.splitlines()[0] == "Juste : 8/5 6/5 est la meilleure réponse."
    assert "2. 13/10 6/5 — +0,200 (-0,100)" in text
    assert "Vous avez joué 24/20 dans l'un de vos propres matchs ici : 0,250 perdu." in text


def test_only_the_player_who_made_the_mistake_is_told_so() -> None:
    assert "your own match" in verdict_text(grade(checker_puzzle(), "p1", solver_id=ALICE))
    assert "your own match" not in verdict_text(grade(checker_puzzle(), "p1", solver_id=BOB))


@pytest.mark.parametrize(
    ("equity", "words"),
    [
        (0.28, "Right: 13/10 6/5 loses only 0.020 against 8/5 6/5."),
        (0.24, "Doubtful: 13/10 6/5 loses 0.060 against 8/5 6/5."),
        (0.30, "Right: 13/10 6/5 is the best answer."),
    ],
)
def test_each_grade_has_its_line(equity: float, words: str) -> None:
    found = checker_puzzle()
    candidates = ranked(
        [c if c.answer != "p2" else replace(c, equity=equity) for c in found.candidates]
    )
    verdict = grade(replace(found, candidates=candidates), "p2")
    assert str(grade_line(verdict)) == words


def test_grade_words_in_both_languages() -> None:
    assert [say(GRADE_WORDS[g], "fr") for g in Grade] == ["Juste", "Douteux", "Faux"]


def test_a_cube_puzzle_asks_with_cube_words() -> None:
    equities: dict[str, float] = {CubeAnswer.TAKE: -1.2, CubeAnswer.PASS: -1.0}
    [found] = select_puzzles(
        source(),
        [decision(equities, CubeAnswer.TAKE, kind=PuzzleKind.TAKE, score=(2, 4), cube=2,
                  cube_owner=CubeOwner.OPPONENT)],
    )  # fmt: skip
    assert str(puzzle_prompt(found)) == (
        "7-point match: you have 2, your opponent 4; your opponent owns the cube at 2\n"
        "Your opponent doubles. Take or pass?"
    )
    assert say(puzzle_prompt(found), "fr").endswith("Accepter ou refuser ?")
    reveal = verdict_text(grade(found, CubeAnswer.TAKE), language="fr")
    assert reveal.splitlines()[0] == "Faux : Accepter perd 0,200 par rapport à Refuser."


def test_the_situation_names_nobody() -> None:
    line = str(situation_line(situation(score=(5, 6), crawford=True)))
    assert line == (
        "7-point match: you have 5, your opponent 6; Crawford game; the cube is in the middle at 1"
    )
    money = replace(situation(length=0), cube=2, cube_owner=CubeOwner.ACTOR)
    assert str(situation_line(money)) == "Money game; you own the cube at 2"


def test_a_checker_puzzle_gives_the_dice_high_first() -> None:
    found = select_puzzles(source(), [decision({"a": 0.3, "b": 0.0}, "b", dice=(1, 3))])[0]
    assert "You rolled 3-1." in str(puzzle_prompt(found))


def test_streaks_and_rating_lines() -> None:
    line = streak_line(Streak(1, 4), Streak(2, 2))
    assert str(line) == (
        "1 right answer in a row (best 4). 2 days in a row with a puzzle (best 2)."
    )
    assert say(line, "fr") == (
        "1 bonne réponse d'affilée (record 4). 2 jours d'affilée avec un problème (record 2)."
    )
    assert str(rating_change_line(1500.0, 1512.4)) == "Puzzle rating: 1500 → 1512 (+12)."


def test_the_puzzle_leaderboard() -> None:
    rows = [SolverStanding(ALICE, Glicko(1612.4, 80), 12, 20),
            SolverStanding(BOB, Glicko(1500, 80), 1, 3)]  # fmt: skip
    names = {ALICE: "alice", BOB: "bob"}
    assert puzzle_leaderboard_lines(rows, name=names.__getitem__) == [
        "1. alice — 1612 (12 puzzles solved)",
        "2. bob — 1500 (1 puzzle solved)",
    ]
    french = puzzle_leaderboard_lines(rows, name=names.__getitem__, language="fr")
    assert french[1] == "2. bob — 1500 (1 problème résolu)"
