"""Dice statistics from the rolls actually played: are the dice behaving like fair dice?

Pure and stdlib only. The input is a list of :class:`RollRecord` (build them from a match's
event log with :func:`rolls_from_events`); :func:`dice_report` gives, per player and for all
records together, each figure beside what fair dice would give and the sample size:

* the doubles rate (fair: 1/6), over the two-dice rolls;
* how often each face shows (fair: 1/6 of the dice), over every die a player threw,
  opening dice included, with a chi-square goodness-of-fit test of the six faces and its
  p-value;
* the average pips per roll (fair: 49/6 = 8.17, doubles counting four times);
* from the bar, how often at least one checker entered, against the chance the actual
  positions gave (1 - (closed/6)^2 for each roll, averaged).

No finished English here: :func:`describe_p_value` sorts a p-value into a
:class:`Surprise` category the presentation layer puts into words.

>>> records = [RollRecord(1, (3, 1)), RollRecord(1, (6, 6))]
>>> stats = dice_stats(records)
>>> stats.doubles.observed, stats.pips.observed
(0.5, 14.0)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol

from bot.core.records import Action
from bot.engine import Position

__all__ = [
    "EXPECTED_PIPS",
    "PIPS_VARIANCE",
    "ChiSquare",
    "DiceReport",
    "DiceStats",
    "Figure",
    "RollRecord",
    "Surprise",
    "chi2_sf",
    "chi_square_faces",
    "describe_p_value",
    "dice_report",
    "dice_stats",
    "entry_chance",
    "open_entry_points",
    "rolls_from_events",
]

FACES = range(1, 7)


def _roll_pips(a: int, b: int) -> int:
    return 4 * a if a == b else a + b


# Pips a fair roll moves: the mean (49/6) and the variance over the 36 equally likely rolls.
EXPECTED_PIPS = sum(_roll_pips(a, b) for a in FACES for b in FACES) / 36
PIPS_VARIANCE = sum((_roll_pips(a, b) - EXPECTED_PIPS) ** 2 for a in FACES for b in FACES) / 36
# Below this many dice the chi-square test says little (fewer than 5 expected per face).
MIN_DICE_FOR_TEST = 30
# Below this many rolls a single figure's normal approximation says little.
MIN_SAMPLE_FOR_FIGURE = 30


@dataclass(frozen=True, slots=True)
class RollRecord:
    """One throw of the dice in a real game.

    ``dice`` holds two dice for a roll, one die for a player's half of an opening roll.
    When the roller had checkers on the bar, ``bar`` counts them and ``open_points`` is how
    many of the six entry points (the opponent's home board) were open; ``entered`` says
    whether at least one checker came in.
    """

    player_id: int
    dice: tuple[int, ...]
    bar: int = 0
    open_points: int = 6
    entered: bool | None = None
    game_number: int = 0

    @property
    def opening(self) -> bool:
        return len(self.dice) == 1

    @property
    def on_bar(self) -> bool:
        return self.bar > 0


@dataclass(frozen=True, slots=True)
class Figure:
    """A measured figure beside what fair dice give: ``observed`` over ``sample`` items.

    ``sd`` is the standard deviation of ``observed`` if the dice are fair, so
    ``z = (observed - expected) / sd`` says how many of those it lies away.
    """

    observed: float
    expected: float
    sample: int
    sd: float

    @property
    def z(self) -> float:
        return (self.observed - self.expected) / self.sd if self.sd > 0 else 0.0

    @property
    def difference(self) -> float:
        return self.observed - self.expected

    @property
    def p_value(self) -> float:
        """Two-sided: how often fair dice land at least this far from the expected value.

        A normal approximation, good once the sample is a few dozen.
        """
        return math.erfc(abs(self.z) / math.sqrt(2.0)) if self.sd > 0 else 1.0

    @property
    def surprise(self) -> Surprise:
        if self.sample < MIN_SAMPLE_FOR_FIGURE:
            return Surprise.TOO_FEW
        return describe_p_value(self.p_value)


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """A chi-square goodness-of-fit test of the face counts against fair dice."""

    statistic: float
    df: int
    p_value: float
    sample: int  # dice counted

    @property
    def surprise(self) -> Surprise:
        if self.sample < MIN_DICE_FOR_TEST:
            return Surprise.TOO_FEW
        return describe_p_value(self.p_value)


class Surprise(StrEnum):
    """How surprising a result would be from fair dice, in categories a player grasps."""

    TOO_FEW = "too_few"  # not enough rolls to tell anything
    ORDINARY = "ordinary"  # p >= 0.05: what fair dice do all the time
    UNUSUAL = "unusual"  # 0.01 <= p < 0.05: happens to fair dice now and then
    RARE = "rare"  # 0.001 <= p < 0.01: fair dice do this about 1 time in 100 or fewer
    EXTREME = "extreme"  # p < 0.001: fair dice almost never do this


def describe_p_value(p: float) -> Surprise:
    """The :class:`Surprise` category of a p-value.

    >>> describe_p_value(0.5), describe_p_value(0.02), describe_p_value(0.0001)
    (<Surprise.ORDINARY: 'ordinary'>, <Surprise.UNUSUAL: 'unusual'>, <Surprise.EXTREME: 'extreme'>)
    """
    if p >= 0.05:
        return Surprise.ORDINARY
    if p >= 0.01:
        return Surprise.UNUSUAL
    if p >= 0.001:
        return Surprise.RARE
    return Surprise.EXTREME


@dataclass(frozen=True, slots=True)
class DiceStats:
    """Every figure for one player (or everyone): see the module docstring."""

    rolls: int  # two-dice rolls
    dice: int  # every die, opening dice included
    face_counts: tuple[int, int, int, int, int, int]
    faces: tuple[Figure, ...]  # frequency of face 1..6 among all dice
    doubles: Figure
    doubles_count: int
    pips: Figure  # average pips per roll
    pips_total: int
    entry: Figure | None  # rolls from the bar that entered a checker; None: never on the bar
    entry_rolls: int
    entered: int
    chi_square: ChiSquare


@dataclass(frozen=True, slots=True)
class DiceReport:
    """Figures for everyone together (``server``) and for each player by id."""

    server: DiceStats
    players: dict[int, DiceStats] = field(default_factory=dict)


# --- the chi-square distribution -----------------------------------------------------------


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (the p-value).

    Integer degrees of freedom have a closed form (a finite sum), so no incomplete gamma
    function is needed: even ``df`` is a Poisson tail, odd ``df`` the normal tail plus a sum.

    >>> round(chi2_sf(11.0705, 5), 4)
    0.05
    """
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, not {df}")
    if x <= 0:
        return 1.0
    half = x / 2.0
    if df % 2 == 0:
        # e^(-x/2) * sum_{j < df/2} (x/2)^j / j!
        term = total = 1.0
        for j in range(1, df // 2):
            term *= half / j
            total += term
        return min(1.0, math.exp(-half) * total)
    # erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2) * sum_{j < (df-1)/2} x^j / (3 * 5 * ... * (2j+1))
    term = total = 0.0 if df == 1 else 1.0
    for j in range(1, (df - 1) // 2):
        term *= x / (2 * j + 1)
        total += term
    tail = math.sqrt(2.0 * x / math.pi) * math.exp(-half) * total
    return min(1.0, math.erfc(math.sqrt(half)) + tail)


def chi_square_faces(counts: Sequence[int]) -> ChiSquare:
    """Pearson's chi-square test that six face counts come from a fair die."""
    if len(counts) != 6:
        raise ValueError(f"a die has six faces, not {len(counts)} counts")
    total = sum(counts)
    if total == 0:
        return ChiSquare(0.0, 5, 1.0, 0)
    expected = total / 6
    statistic = sum((count - expected) ** 2 / expected for count in counts)
    return ChiSquare(statistic, 5, chi2_sf(statistic, 5), total)


# --- the figures ---------------------------------------------------------------------------


def entry_chance(open_points: int) -> float:
    """The chance that at least one of two dice enters with ``open_points`` of six open."""
    if not 0 <= open_points <= 6:
        raise ValueError(f"a home board has 0-6 open points, not {open_points}")
    closed = 6 - open_points
    return 1.0 - (closed / 6) ** 2


def _proportion(hits: int, n: int, p: float) -> Figure:
    observed = hits / n if n else 0.0
    sd = math.sqrt(p * (1 - p) / n) if n else 0.0
    return Figure(observed, p, n, sd)


def dice_stats(records: Iterable[RollRecord]) -> DiceStats:
    """The figures over ``records`` (one player's, or everyone's)."""
    counts: Counter[int] = Counter()
    rolls = doubles = pips = 0
    entry_rolls = entered = 0
    entry_expected = entry_variance = 0.0
    for record in records:
        for die in record.dice:
            if die not in FACES:
                raise ValueError(f"a die shows 1-6, not {die}")
            counts[die] += 1
        if record.opening:
            continue
        if len(record.dice) != 2:
            raise ValueError(f"a roll is two dice, not {record.dice!r}")
        a, b = record.dice
        rolls += 1
        doubles += a == b
        pips += _roll_pips(a, b)
        if record.on_bar:
            chance = entry_chance(record.open_points)
            entry_rolls += 1
            entered += bool(record.entered)
            entry_expected += chance
            entry_variance += chance * (1 - chance)
    dice = sum(counts.values())
    face_counts = tuple(counts[face] for face in FACES)
    entry = None
    if entry_rolls:
        entry = Figure(
            entered / entry_rolls,
            entry_expected / entry_rolls,
            entry_rolls,
            math.sqrt(entry_variance) / entry_rolls,
        )
    return DiceStats(
        rolls=rolls,
        dice=dice,
        face_counts=face_counts,  # type: ignore[arg-type]
        faces=tuple(_proportion(count, dice, 1 / 6) for count in face_counts),
        doubles=_proportion(doubles, rolls, 1 / 6),
        doubles_count=doubles,
        pips=Figure(
            pips / rolls if rolls else 0.0,
            EXPECTED_PIPS,
            rolls,
            math.sqrt(PIPS_VARIANCE / rolls) if rolls else 0.0,
        ),
        pips_total=pips,
        entry=entry,
        entry_rolls=entry_rolls,
        entered=entered,
        chi_square=chi_square_faces(face_counts),
    )


def dice_report(records: Iterable[RollRecord]) -> DiceReport:
    """Figures for all ``records`` together and for each player in them."""
    records = list(records)
    by_player: dict[int, list[RollRecord]] = {}
    for record in records:
        by_player.setdefault(record.player_id, []).append(record)
    return DiceReport(
        server=dice_stats(records),
        players={player: dice_stats(mine) for player, mine in by_player.items()},
    )


# --- from the event log --------------------------------------------------------------------


class _Event(Protocol):
    """What we read of a logged event (:class:`bot.core.records.EventRecord` has these fields)."""

    @property
    def game_number(self) -> int: ...
    @property
    def player(self) -> int | None: ...
    @property
    def action(self) -> str: ...
    @property
    def dice(self) -> tuple[int, int] | None: ...
    @property
    def position_id(self) -> str: ...


def open_entry_points(board: Sequence[int]) -> tuple[bool, ...]:
    """For dice 1-6, whether a checker on the bar of the player on roll could enter.

    ``board`` is the 26-integer layout of :class:`bot.engine.Position`: a die ``d`` enters
    on point ``25 - d``, open unless the opponent holds two or more checkers there.
    """
    return tuple(board[25 - die] >= -1 for die in FACES)


def rolls_from_events(events: Iterable[_Event], player_ids: Sequence[int]) -> list[RollRecord]:
    """The rolls of one match's event log, with the bar situation of each.

    ``player_ids`` are the match's two players in seat order (``MatchRow.player_ids``).
    An ``opening`` event gives one die to each player; a ``roll`` event two dice to the
    player who rolled. A roll event's Position ID is the board the roller saw (rolling moves
    no checker), which tells whether they were on the bar and which entry points were open.
    If any die's entry point is open a checker must enter, so ``entered`` follows from the
    board and the dice alone.
    """
    records: list[RollRecord] = []
    for event in events:
        if event.action == Action.OPENING:
            assert event.dice is not None
            for seat, die in enumerate(event.dice):
                records.append(RollRecord(player_ids[seat], (die,), game_number=event.game_number))
        elif event.action == Action.ROLL:
            assert event.dice is not None and event.player is not None
            board = Position.from_id(event.position_id).board
            bar = board[25]
            record = RollRecord(
                player_ids[event.player], tuple(event.dice), game_number=event.game_number
            )
            if bar:
                open_points = open_entry_points(board)
                record = RollRecord(
                    record.player_id,
                    record.dice,
                    bar=bar,
                    open_points=sum(open_points),
                    entered=any(open_points[die - 1] for die in event.dice),
                    game_number=event.game_number,
                )
            records.append(record)
    return records
