"""Dice statistics: hand-worked figures, the chi-square p-value against reference values."""

from __future__ import annotations

import doctest
import math

import pytest

import bot.core.dicestats as dicestats
from bot.core.dice import ScriptedRoller
from bot.core.dicestats import (
    EXPECTED_PIPS,
    PIPS_VARIANCE,
    RollRecord,
    Surprise,
    chi2_sf,
    chi_square_faces,
    describe_p_value,
    dice_report,
    dice_stats,
    entry_chance,
    open_entry_points,
    rolls_from_events,
)
from bot.core.session import Player, SessionService
from bot.engine import Position
from bot.storage import Store


def test_doctests() -> None:
    assert doctest.testmod(dicestats).failed == 0


def test_fair_roll_constants() -> None:
    # 30 non-doubles sum to 210 pips, the 6 doubles to 4 * 21 = 84: 294 / 36 = 49/6.
    assert pytest.approx(49 / 6) == EXPECTED_PIPS
    # Sum of squares: non-doubles 1974 - 364 = 1610, doubles 16 * 91 = 1456; 3066 / 36.
    assert pytest.approx(3066 / 36 - (49 / 6) ** 2) == PIPS_VARIANCE


# Reference values: scipy.stats.chi2.isf(p, df), i.e. chi2_sf(x, df) must give back p.
@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (11.070497693516351, 5, 0.05),
        (15.086272469388987, 5, 0.01),
        (20.515005652432873, 5, 0.001),
        (4.351460191095526, 5, 0.5),
        (1.1454762260617692, 5, 0.95),
        (3.841458820694124, 1, 0.05),
        (5.991464547107979, 2, 0.05),
        (18.307038053275146, 10, 0.05),
    ],
)
def test_chi_square_survival_matches_reference_values(x: float, df: int, p: float) -> None:
    assert chi2_sf(x, df) == pytest.approx(p, rel=1e-9)


@pytest.mark.parametrize("x", [0.01, 0.5, 1.0, 2.9, 3.5, 4.0, 6.0, 9.99, 25.0, 60.0, 200.0])
def test_chi_square_survival_equals_closed_forms(x: float) -> None:
    """Odd and even degrees of freedom have closed forms; both sides of the series split."""
    root = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    five = math.erfc(math.sqrt(x / 2)) + root * (1 + x / 3)
    assert chi2_sf(x, 5) == pytest.approx(five, rel=1e-12, abs=1e-300)
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12, abs=1e-300)
    assert chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-12, abs=1e-300)


def test_chi_square_survival_edges() -> None:
    assert chi2_sf(0.0, 5) == 1.0
    assert chi2_sf(-1.0, 5) == 1.0
    assert chi2_sf(1e-12, 1) == pytest.approx(1.0)
    assert chi2_sf(2000.0, 5) == 0.0
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


@pytest.mark.parametrize("df", [1, 3, 5, 7, 2, 6])
def test_chi_square_survival_falls_from_one_to_zero(df: int) -> None:
    xs = [0.001 * 1.5**k for k in range(40)]
    values = [chi2_sf(x, df) for x in xs]
    assert all(0.0 <= v <= 1.0 for v in values)
    assert values == sorted(values, reverse=True)
    assert values[0] > 0.97 and values[-1] < 1e-10


def test_chi_square_of_face_counts() -> None:
    # Expected 10 per face: (4 + 1 + 0 + 1 + 16 + 4) / 10 = 2.6.
    test = chi_square_faces([12, 9, 10, 11, 6, 12])
    assert test.statistic == pytest.approx(2.6)
    assert test.df == 5 and test.sample == 60
    assert test.p_value == pytest.approx(chi2_sf(2.6, 5))
    assert test.surprise is Surprise.ORDINARY
    loaded = chi_square_faces([100, 0, 0, 0, 0, 0])  # statistic 500
    assert loaded.statistic == pytest.approx(500.0)
    assert loaded.surprise is Surprise.EXTREME
    assert chi_square_faces([1, 1, 1, 1, 1, 1]).surprise is Surprise.TOO_FEW
    assert chi_square_faces([0] * 6).p_value == 1.0


@pytest.mark.parametrize(
    ("p", "surprise"),
    [
        (1.0, Surprise.ORDINARY),
        (0.05, Surprise.ORDINARY),
        (0.0499, Surprise.UNUSUAL),
        (0.01, Surprise.UNUSUAL),
        (0.0099, Surprise.RARE),
        (0.001, Surprise.RARE),
        (0.00099, Surprise.EXTREME),
    ],
)
def test_describe_p_value(p: float, surprise: Surprise) -> None:
    assert describe_p_value(p) is surprise


A, B = 101, 202
HAND_RECORDS = [
    RollRecord(B, (4,)),  # B's half of an opening roll: one die, a face but not a roll
    RollRecord(A, (3, 1)),
    RollRecord(A, (6, 6)),
    RollRecord(B, (5, 3)),
    RollRecord(A, (2, 5)),
    RollRecord(A, (4, 4)),
    RollRecord(B, (2, 2)),
    RollRecord(A, (1, 2)),
    RollRecord(A, (6, 5)),
]


def test_figures_worked_by_hand() -> None:
    report = dice_report(HAND_RECORDS)
    a = report.players[A]
    # A: 6 rolls, 2 doubles; pips 4 + 24 + 7 + 16 + 3 + 11 = 65.
    assert (a.rolls, a.dice, a.doubles_count, a.pips_total) == (6, 12, 2, 65)
    assert a.doubles.observed == pytest.approx(1 / 3)
    assert a.doubles.expected == pytest.approx(1 / 6)
    assert a.doubles.sample == 6
    assert a.doubles.sd == pytest.approx(math.sqrt((1 / 6) * (5 / 6) / 6))
    assert a.pips.observed == pytest.approx(65 / 6)
    assert a.pips.expected == pytest.approx(49 / 6)
    assert a.pips.sd == pytest.approx(math.sqrt(PIPS_VARIANCE / 6))
    # Faces 3,1 6,6 2,5 4,4 1,2 6,5: ones 2, twos 2, threes 1, fours 2, fives 2, sixes 3.
    assert a.face_counts == (2, 2, 1, 2, 2, 3)
    assert [f.observed for f in a.faces] == pytest.approx(
        [2 / 12, 2 / 12, 1 / 12, 2 / 12, 2 / 12, 3 / 12]
    )
    assert all(f.sample == 12 and f.expected == pytest.approx(1 / 6) for f in a.faces)
    # Expected 2 per face: (0 + 0 + 1 + 0 + 0 + 1) / 2 = 1.0.
    assert a.chi_square.statistic == pytest.approx(1.0)
    assert a.chi_square.p_value == pytest.approx(0.962565773247, rel=1e-9)
    assert a.chi_square.surprise is Surprise.TOO_FEW
    assert a.entry is None

    b = report.players[B]
    # B: the opening 4, then 5-3 and 2-2 (8 + 8 = 16 pips).
    assert (b.rolls, b.dice, b.doubles_count, b.pips_total) == (2, 5, 1, 16)
    assert b.face_counts == (0, 2, 1, 1, 1, 0)
    assert b.pips.observed == pytest.approx(8.0)

    server = report.server
    assert (server.rolls, server.dice, server.doubles_count, server.pips_total) == (8, 17, 3, 81)
    assert server.doubles.observed == pytest.approx(3 / 8)
    assert server.pips.observed == pytest.approx(81 / 8)
    assert server.face_counts == (2, 4, 2, 3, 3, 3)


def test_how_surprising_a_figure_is() -> None:
    # 100 rolls with 30 doubles: expected 16.7, sd 3.73 rolls, so z = 3.58 (p about 0.0003).
    records = [RollRecord(A, (3, 3))] * 30 + [RollRecord(A, (3, 1))] * 70
    doubles = dice_stats(records).doubles
    assert doubles.z == pytest.approx((0.3 - 1 / 6) / math.sqrt((1 / 6) * (5 / 6) / 100))
    assert doubles.p_value == pytest.approx(math.erfc(doubles.z / math.sqrt(2)))
    assert doubles.p_value == pytest.approx(0.00034, rel=0.05)
    assert doubles.surprise is Surprise.EXTREME
    # 18 doubles in 100 rolls is ordinary; 3 of 6 is too few to say.
    ordinary = [RollRecord(A, (3, 3))] * 18 + [RollRecord(A, (3, 1))] * 82
    assert dice_stats(ordinary).doubles.surprise is Surprise.ORDINARY
    assert dice_stats(records[27:33]).doubles.surprise is Surprise.TOO_FEW


def test_entering_from_the_bar_against_the_positions_chances() -> None:
    assert entry_chance(6) == 1.0
    assert entry_chance(0) == 0.0
    assert entry_chance(4) == pytest.approx(1 - (2 / 6) ** 2)  # 32/36
    assert entry_chance(1) == pytest.approx(11 / 36)
    records = [
        RollRecord(A, (6, 6), bar=1, open_points=4, entered=False),
        RollRecord(A, (5, 3), bar=2, open_points=5, entered=True),
        RollRecord(A, (2, 1), bar=1, open_points=0, entered=False),
        RollRecord(A, (2, 1)),  # not on the bar: not an entry attempt
    ]
    stats = dice_stats(records)
    assert stats.entry_rolls == 3 and stats.entered == 1
    assert stats.entry is not None
    assert stats.entry.observed == pytest.approx(1 / 3)
    assert stats.entry.expected == pytest.approx((32 / 36 + 35 / 36 + 0) / 3)
    variance = (32 / 36) * (4 / 36) + (35 / 36) * (1 / 36)
    assert stats.entry.sd == pytest.approx(math.sqrt(variance) / 3)


def test_empty_and_bad_input() -> None:
    empty = dice_stats([])
    assert (empty.rolls, empty.dice) == (0, 0)
    assert empty.doubles.z == 0.0 and empty.pips.observed == 0.0
    assert empty.chi_square.surprise is Surprise.TOO_FEW
    with pytest.raises(ValueError):
        dice_stats([RollRecord(A, (7, 1))])
    with pytest.raises(ValueError):
        dice_stats([RollRecord(A, (1, 2, 3))])


def test_open_entry_points_reads_the_opponents_home_board() -> None:
    # From the start the opponent holds its 6-point (our 19) only: a 6 cannot enter.
    assert open_entry_points(Position.start().board) == (True, True, True, True, True, False)


ALICE = Player(1, "alice")
BOB = Player(2, "bob")


async def test_rolls_from_a_scripted_game(store: Store) -> None:
    roller = ScriptedRoller()
    service = SessionService(store, roller=roller)
    channel = 55
    await service.challenge(10, channel, ALICE, BOB)
    roller.extend([1, 2])  # opening: alice 1, bob 2; bob moves first with 2-1
    await service.accept(channel, BOB)
    await service.move(channel, BOB, "24/21")
    roller.extend([4, 2])
    await service.roll(channel, ALICE)
    await service.move(channel, ALICE, "8/4* 6/4")
    roller.extend([6, 6])  # bob on the bar against alice's 6- and 4-points: dances
    await service.roll(channel, BOB)
    roller.extend([3, 1])
    await service.roll(channel, ALICE)
    await service.move(channel, ALICE, "8/5 6/5")
    roller.extend([5, 3])  # now her 6-, 5- and 4-points are closed: the 3 enters
    await service.roll(channel, BOB)
    await service.move(channel, BOB, "bar/22 13/8")
    row, events = await service.history(channel)

    records = rolls_from_events(events, row.player_ids)
    assert records == [
        RollRecord(ALICE.id, (1,), game_number=1),
        RollRecord(BOB.id, (2,), game_number=1),
        RollRecord(ALICE.id, (4, 2), game_number=1),
        RollRecord(BOB.id, (6, 6), bar=1, open_points=4, entered=False, game_number=1),
        RollRecord(ALICE.id, (3, 1), game_number=1),
        RollRecord(BOB.id, (5, 3), bar=1, open_points=3, entered=True, game_number=1),
    ]
    bob = dice_report(records).players[BOB.id]
    assert (bob.rolls, bob.dice, bob.doubles_count, bob.pips_total) == (2, 5, 1, 32)
    assert bob.entry is not None and bob.entry.observed == pytest.approx(0.5)
    assert bob.entry.expected == pytest.approx((32 / 36 + 27 / 36) / 2)
