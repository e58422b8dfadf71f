"""The values of the puzzle core: an analysed decision, a puzzle, a verdict on an answer.

Plain frozen values, stdlib only, so the selection, the grading and the ratings can be
tested on hand-built data and the values cross a process boundary (the workers) as they
are. Everything is told from the side of the player who acts in the puzzle: the score is
(theirs, their opponent's), the cube owner is theirs or their opponent's, and a higher
equity is better for them.

An answer is identified by a short string, :attr:`Candidate.answer`: for a checker play,
the Position ID of the board after the play (two plays that leave the same board are the
same answer, as GNU Backgammon counts them); for a cube decision, a :class:`CubeAnswer`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "AnalysedDecision",
    "Candidate",
    "CubeAnswer",
    "CubeOwner",
    "Grade",
    "Puzzle",
    "PuzzleKey",
    "PuzzleKind",
    "Situation",
    "Verdict",
]


class PuzzleKind(StrEnum):
    """What the puzzle asks: a checker play, or one of the two cube decisions."""

    CHECKER_PLAY = "checker_play"
    DOUBLE = "double"  # double or no double, before the roll
    TAKE = "take"  # take or pass (or beaver), facing a double

    @property
    def cube(self) -> bool:
        return self is not PuzzleKind.CHECKER_PLAY


class CubeAnswer(StrEnum):
    """The answers to a cube puzzle; each is the :attr:`Candidate.answer` of its candidate."""

    NO_DOUBLE = "no_double"
    DOUBLE = "double"
    TAKE = "take"
    PASS = "pass"
    BEAVER = "beaver"


# The answers each cube puzzle may offer (a beaver only where beavers are played).
CUBE_ANSWERS: dict[PuzzleKind, frozenset[CubeAnswer]] = {
    PuzzleKind.DOUBLE: frozenset({CubeAnswer.NO_DOUBLE, CubeAnswer.DOUBLE}),
    PuzzleKind.TAKE: frozenset({CubeAnswer.TAKE, CubeAnswer.PASS, CubeAnswer.BEAVER}),
}


class CubeOwner(StrEnum):
    """Who owns the cube, seen from the player who acts."""

    CENTRE = "centre"
    ACTOR = "actor"
    OPPONENT = "opponent"


class Grade(StrEnum):
    """How good an answer was, by the equity it loses against the best (GNU's words)."""

    RIGHT = "right"  # at most 0.04 lost
    DOUBTFUL = "doubtful"  # at most 0.08
    WRONG = "wrong"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal answer and the equity it leaves the player who acts (higher is better)."""

    answer: str  # the board after a checker play (a Position ID), or a CubeAnswer
    notation: str  # as players write it: "13/7 8/7", or the CubeAnswer again
    equity: float


@dataclass(frozen=True, slots=True)
class Situation:
    """The moment of the decision: what the puzzle shows, and what makes it unique.

    ``position_id`` is GNU Backgammon's, from the side of the player on roll (for a take,
    the doubler); ``match_id`` is GNU's Match ID of the moment, shown with the answer.
    ``dice`` is the roll to play (None for a cube decision, made before the roll).
    """

    position_id: str
    match_id: str
    dice: tuple[int, int] | None
    score: tuple[int, int]  # (the actor's, the opponent's)
    length: int  # 0: a money game
    cube: int = 1
    cube_owner: CubeOwner = CubeOwner.CENTRE
    crawford: bool = False
    # The game's rules that change equities (a money game's extras; a cube that is off).
    cube_live: bool = True
    jacoby: bool = False
    beavers: bool = False

    def __post_init__(self) -> None:
        if self.dice is not None and not all(1 <= die <= 6 for die in self.dice):
            raise ValueError(f"dice {self.dice} are not two numbers from 1 to 6")
        if self.length < 0 or min(self.score) < 0:
            raise ValueError(f"score {self.score} of a {self.length}-point match")
        if self.length and max(self.score) >= self.length:
            raise ValueError(f"score {self.score} is over in a {self.length}-point match")
        if self.cube < 1 or self.cube & (self.cube - 1):
            raise ValueError(f"cube {self.cube} is not a power of two")
        if self.length and (self.jacoby or self.beavers):
            raise ValueError("Jacoby and beavers are money-game rules")
        if self.crawford and not self.length:
            raise ValueError("a money game has no Crawford game")

    @property
    def is_money(self) -> bool:
        return self.length == 0


@dataclass(frozen=True, slots=True)
class PuzzleKey:
    """What makes two puzzles the same: one puzzle per position, dice, score and cube.

    The cube's state includes the rules that change its equities (a dead cube, Jacoby,
    beavers). Seen from the actor, so the same position met from either seat is one puzzle. The kind
    is part of it: a double and the take that answers it share a position but not a puzzle.
    """

    kind: PuzzleKind
    position_id: str
    dice: tuple[int, int] | None  # high die first
    score: tuple[int, int]
    length: int
    cube: int
    cube_owner: CubeOwner
    crawford: bool
    cube_live: bool = True
    jacoby: bool = False
    beavers: bool = False

    @classmethod
    def of(cls, kind: PuzzleKind, situation: Situation) -> PuzzleKey:
        dice = situation.dice
        return cls(
            kind=kind,
            position_id=situation.position_id,
            dice=None if dice is None else (max(dice), min(dice)),
            score=situation.score,
            length=situation.length,
            cube=situation.cube,
            cube_owner=situation.cube_owner,
            crawford=situation.crawford,
            cube_live=situation.cube_live,
            jacoby=situation.jacoby,
            beavers=situation.beavers,
        )


def ranked(candidates: tuple[Candidate, ...] | list[Candidate]) -> tuple[Candidate, ...]:
    """Best first; equal equities in a stable order (by answer), so the ranking is a value."""
    return tuple(sorted(candidates, key=lambda item: (-item.equity, item.answer)))


def _check_candidates(kind: PuzzleKind, made: str, candidates: tuple[Candidate, ...]) -> None:
    answers = [item.answer for item in candidates]
    if not answers:
        raise ValueError("a decision needs at least one legal answer")
    if len(set(answers)) != len(answers):
        raise ValueError(f"answers repeat among {answers}")
    if made not in answers:
        raise ValueError(f"the answer made, {made!r}, is not among {answers}")
    if kind.cube:
        strange = set(answers) - CUBE_ANSWERS[kind]
        if strange:
            raise ValueError(f"{sorted(strange)} do not answer a {kind} decision")


@dataclass(frozen=True, slots=True)
class AnalysedDecision:
    """One decision of a finished game, as the analysis saw it: every answer with its equity.

    ``player`` is the seat (0 or 1) that decided; ``made`` the answer given in the game;
    ``candidates`` every legal answer (a forced play has one), in any order.
    """

    kind: PuzzleKind
    situation: Situation
    player: int
    made: str
    candidates: tuple[Candidate, ...]
    game_number: int = 1
    level: str = ""  # the level the equities come from

    def __post_init__(self) -> None:
        if self.player not in (0, 1):
            raise ValueError(f"player {self.player} is not a seat (0 or 1)")
        if (self.kind is PuzzleKind.CHECKER_PLAY) != (self.situation.dice is not None):
            raise ValueError(f"a {self.kind} decision with dice {self.situation.dice}")
        _check_candidates(self.kind, self.made, self.candidates)


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A decision worth solving: a clear best answer, and a real mistake made in the game.

    ``candidates`` are best first. ``owner_id`` is the user who made the mistake (None: the
    computer); it is never shown by default (see docs/puzzles.md, "Privacy"), only used
    to offer players their own mistakes first and to tell them so. ``confirmed_level`` is
    the level whose equities these are once :func:`bot.features.puzzles.rules.confirm` has checked
    them at the strongest level; None until then, and an unconfirmed puzzle is never published.
    """

    kind: PuzzleKind
    situation: Situation
    candidates: tuple[Candidate, ...]
    made: str
    match_id: int
    game_number: int
    owner_id: int | None
    level: str = ""
    confirmed_level: str | None = None

    def __post_init__(self) -> None:
        _check_candidates(self.kind, self.made, self.candidates)
        if len(self.candidates) < 2:
            raise ValueError("a puzzle needs a choice: at least two answers")
        if ranked(self.candidates) != self.candidates:
            raise ValueError("a puzzle's candidates go best first")

    @property
    def key(self) -> PuzzleKey:
        return PuzzleKey.of(self.kind, self.situation)

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    @property
    def margin(self) -> float:
        """How far the best answer is ahead of the second best."""
        return self.candidates[0].equity - self.candidates[1].equity

    @property
    def in_game(self) -> Candidate:
        """The answer made in the game."""
        return self.candidate(self.made)

    @property
    def equity_lost(self) -> float:
        """What the answer made in the game lost against the best."""
        return self.best.equity - self.in_game.equity

    @property
    def confirmed(self) -> bool:
        return self.confirmed_level is not None

    def candidate(self, answer: str) -> Candidate:
        for item in self.candidates:
            if item.answer == answer:
                return item
        raise KeyError(answer)

    def top(self, count: int = 3) -> tuple[Candidate, ...]:
        return self.candidates[:count]


@dataclass(frozen=True, slots=True)
class Verdict:
    """A graded answer and what to reveal with it, privately.

    ``top`` are the best three answers with their equities; ``in_game`` what was played in
    the game; ``own_mistake`` whether the solver made that mistake themselves.
    """

    puzzle: Puzzle
    answer: Candidate
    grade: Grade
    equity_lost: float
    top: tuple[Candidate, ...]
    in_game: Candidate
    own_mistake: bool = False

    @property
    def best(self) -> bool:
        """Whether the answer was the best one (or as good)."""
        return self.equity_lost <= 0.0
