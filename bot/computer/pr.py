"""Performance Rating (PR) as eXtreme Gammon defines it: the definition, its bands, its values.

**The number.** PR = 500 x the equity a player lost / the decisions that count (lower is
better; 0 is the engine's own play). Equity is normalized to the cube of the moment (+1 = a
single game at the cube's value), and in match play it is the match-winning chances turned
into money-equivalent equity through the match equity table (EMG: GNU Backgammon's
"normalised" error, ``analysis.c``, the ``[0]`` totals of ``updateStatcontext``; the
evaluator already gives equities this way, see :mod:`bot.computer.evaluator`). In a 1-point
match the errors weigh 1.5 times, as XG counts them there. Sources: the BackgammonDB manual,
"Performance Rating" (https://backgammondb.com/manual/match-statistics/performance-rating/:
the formula, the 1.5 for 1-point matches, which decisions XG leaves out); Wikipedia's
"eXtreme Gammon" article (as mirrored at https://wikimili.com/en/EXtreme_Gammon: "PR is the
average equity lost per decision multiplied by 500. Only decisions not considered to be
obvious are counted").

**The decisions that count** (BackgammonDB's list of what XG leaves out, with the
thresholds bgsage uses to reproduce XG's own counts from XG's analysed files: bgsage 2.0,
``bgsage/xg_compare.py``, ``_is_checker_decision``, ``_is_trivial_cube``,
``_is_cube_decision`` and ``_is_trivial_take_pass``; on 290 real matches bgsage's PR so
counted equals XG's to +0.002 on average, ``XG_COMPARISON.md``):

- a checker play, when there were at least two legal plays and they were not all worth the
  same (the best and the worst within :data:`NEGLIGIBLE`): forced plays and plays whose
  choice did not matter are left out (:func:`checker_counts`);
- the roller's cube decision (no double, double), when they could double, unless it was
  obvious and they got it right (:func:`double_counts`): doubling changed nothing (no
  double and double/take within :data:`NEGLIGIBLE`), an obvious no double or a position too
  good to double (no double more than :data:`OBVIOUS_MARGIN` above double/take or above
  double/pass), or hopeless either way (no double and double/take both below
  :data:`HOPELESS`). An obvious decision got wrong (losing :data:`NEGLIGIBLE` or more)
  counts;
- the answer to a double (take, drop, beaver), unless taking and passing were worth the same
  (:func:`response_counts`).

A decision's error is the equity it lost against the best choice (never negative); a
decision that does not count adds nothing.

**Bands** (:class:`PRBand`, :func:`band`): the table of the same Wikipedia article, each band
from its lower bound (included) to the next one (excluded): 0-2.5 World Champ, 2.5-5 World
Class, 5-7.5 Expert, 7.5-12.5 Advanced, 12.5-17.5 Intermediate, 17.5-22.5 Casual Player,
22.5-30 Beginner, 30 or more a last band (the table names it "Casual Player" again,
evidently a slip; it is :attr:`PRBand.BELOW_BEGINNER` here).

**Luck** (:class:`LuckAdjustedResult`): GNU Backgammon's luck-adjusted result
(``analysis.c``, ``updateStatcontext``): the actual result minus the player's own luck plus
the opponent's, each roll's luck counted at the stake of the moment (times the cube in a
money game, in match-winning chances in a match), and the luck rate, millipoints of
normalized luck per roll. The numbers come from :mod:`bot.computer.luck`.

Pure: numbers in, frozen values out; imports nothing of the bot's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = [
    "BANDS",
    "HOPELESS",
    "NEGLIGIBLE",
    "OBVIOUS_MARGIN",
    "ONE_POINT_WEIGHT",
    "PR_SCALE",
    "LuckAdjustedResult",
    "PRBand",
    "PRPart",
    "PerformanceRating",
    "band",
    "checker_counts",
    "decision_weight",
    "double_counts",
    "response_counts",
]

PR_SCALE = 500.0
"""PR is this many times the mean equity lost per counted decision."""

ONE_POINT_WEIGHT = 1.5
"""How much more an error weighs in a 1-point match (BackgammonDB, from XG)."""

NEGLIGIBLE = 0.001
"""Equities closer than this are the same; an error this small or smaller is no error."""

OBVIOUS_MARGIN = 0.2
"""No double this far above double/take, or above double/pass, is obvious."""

HOPELESS = -0.9
"""No double and double/take both below this: hopeless whatever the cube does."""


# --- which decisions count ------------------------------------------------------------------


def checker_counts(equities: Sequence[float]) -> bool:
    """Whether a checker play with these legal plays' equities counts: at least two plays,
    not all worth the same."""
    return len(equities) >= 2 and max(equities) - min(equities) >= NEGLIGIBLE


def double_counts(no_double: float, double_take: float, double_pass: float, error: float) -> bool:
    """Whether the roller's cube decision (no double or double) counts.

    Equities are the roller's; ``error`` is what the decision made lost (0 when right).
    """
    if error >= NEGLIGIBLE:
        return True
    obvious = (
        abs(no_double - double_take) < NEGLIGIBLE
        or no_double - double_take > OBVIOUS_MARGIN
        or no_double - double_pass > OBVIOUS_MARGIN
        or (no_double < HOPELESS and double_take < HOPELESS)
    )
    return not obvious


def response_counts(take: float, drop: float) -> bool:
    """Whether an answer to a double counts: taking and dropping were not worth the same
    (``take`` and ``drop`` valued from either side, the same side for both)."""
    return abs(take - drop) >= NEGLIGIBLE


def decision_weight(match_length: int) -> float:
    """How much an error weighs in a match of ``match_length`` (0: money)."""
    return ONE_POINT_WEIGHT if match_length == 1 else 1.0


# --- the rating -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PRPart:
    """Counted decisions and the equity lost over them (weighted, see
    :func:`decision_weight`): the checker play or the cube part of a PR, or both."""

    decisions: int = 0
    error: float = 0.0

    def __add__(self, other: PRPart) -> PRPart:
        return PRPart(self.decisions + other.decisions, self.error + other.error)

    def counted(self, error: float, weight: float = 1.0) -> PRPart:
        """This part with one more counted decision that lost ``error``."""
        return PRPart(self.decisions + 1, self.error + weight * max(0.0, error))

    @property
    def pr(self) -> float | None:
        """PR over these decisions; None with none."""
        return PR_SCALE * self.error / self.decisions if self.decisions else None


@dataclass(frozen=True, slots=True)
class PerformanceRating:
    """A player's PR over some decisions, with its checker and cube parts.

    Ratings of several games or matches add up (``+``, :meth:`total`) into the PR over all
    their decisions, as XG pools them.
    """

    checker: PRPart = field(default_factory=PRPart)
    cube: PRPart = field(default_factory=PRPart)

    def __add__(self, other: PerformanceRating) -> PerformanceRating:
        return PerformanceRating(self.checker + other.checker, self.cube + other.cube)

    @classmethod
    def total(cls, ratings: Iterable[PerformanceRating]) -> PerformanceRating:
        out = cls()
        for rating in ratings:
            out = out + rating
        return out

    @property
    def overall(self) -> PRPart:
        return self.checker + self.cube

    @property
    def decisions(self) -> int:
        return self.overall.decisions

    @property
    def error(self) -> float:
        return self.overall.error

    @property
    def pr(self) -> float | None:
        """The PR; None when no decision counted."""
        return self.overall.pr

    @property
    def checker_pr(self) -> float | None:
        return self.checker.pr

    @property
    def cube_pr(self) -> float | None:
        return self.cube.pr

    @property
    def band(self) -> PRBand | None:
        pr = self.pr
        return None if pr is None else band(pr)


# --- bands ----------------------------------------------------------------------------------


class PRBand(StrEnum):
    """XG's bands of PR, best first (names for players come from :mod:`bot.present`)."""

    WORLD_CHAMPION = "world_champion"
    WORLD_CLASS = "world_class"
    EXPERT = "expert"
    ADVANCED = "advanced"
    INTERMEDIATE = "intermediate"
    CASUAL = "casual"
    BEGINNER = "beginner"
    BELOW_BEGINNER = "below_beginner"


BANDS: tuple[tuple[float, PRBand], ...] = (
    (2.5, PRBand.WORLD_CHAMPION),
    (5.0, PRBand.WORLD_CLASS),
    (7.5, PRBand.EXPERT),
    (12.5, PRBand.ADVANCED),
    (17.5, PRBand.INTERMEDIATE),
    (22.5, PRBand.CASUAL),
    (30.0, PRBand.BEGINNER),
)
"""Each band with its upper bound (excluded); beyond the last, :attr:`PRBand.BELOW_BEGINNER`."""


def band(pr: float) -> PRBand:
    """The band of a PR: the first whose upper bound is above it."""
    if pr < 0.0:
        raise ValueError(f"a PR is never negative, not {pr}")
    for upper, name in BANDS:
        if pr < upper:
            return name
    return PRBand.BELOW_BEGINNER


# --- luck -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LuckAdjustedResult:
    """One player's result with the luck taken out, GNU Backgammon's way.

    ``actual``, ``luck`` and ``opponent_luck`` are in the result's units: points in a money
    session, match-winning chances (0.5 = half the match) in a match. ``rolls`` and
    ``normalized_luck`` (cube-normalized equity, summed) give the luck rate.
    """

    actual: float
    luck: float
    opponent_luck: float
    rolls: int
    normalized_luck: float

    @property
    def adjusted(self) -> float:
        """The actual result minus the player's luck plus the opponent's."""
        return self.actual - self.luck + self.opponent_luck

    @property
    def rate(self) -> float:
        """Millipoints of normalized luck per roll (GNU Backgammon's luck rate)."""
        return 1000.0 * self.normalized_luck / self.rolls if self.rolls else 0.0
