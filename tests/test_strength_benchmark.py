"""The strength benchmark's luck-adjusted figure: the dice taken out, the skill left in.

``benchmarks/strength.py`` reports each pair of duplicate-dice games twice: the points, and
the points less each side's luck (GNU Backgammon's variance reduction: a roll's luck is the
best play's equity with it minus the average over the 36 rolls, so it averages to zero and
the adjusted mean estimates the same points a game). Subtracted with the wrong sign, or
credited to the wrong side, the luck would add to the spread instead of removing it; these
games are seeded (the dice and the advanced level's noise), so the check is repeatable.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def strength() -> ModuleType:
    pytest.importorskip("bgsage")
    spec = importlib.util.spec_from_file_location("strength", ROOT / "benchmarks" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("strength", module)
    spec.loader.exec_module(module)
    return module


def test_the_luck_adjusted_pairs_spread_far_less_than_the_points(strength) -> None:
    raw, adjusted = [], []
    for pair in range(8):
        outcome = strength.play_pair(strength.Job("advanced", "expert", pair, 7))
        raw.append(sum(outcome.points) / 2)
        adjusted.append(sum(outcome.adjusted) / 2)
    assert statistics.stdev(raw) > 0.3  # the dice decided these games: a real spread
    assert statistics.stdev(adjusted) < statistics.stdev(raw) / 3


def test_one_player_in_both_seats_cancels_in_points_and_in_luck(strength) -> None:
    outcome = strength.play_pair(strength.Job("expert", "expert", 3, 11))
    assert outcome.points[0] == -outcome.points[1] != 0
    assert outcome.adjusted[0] == pytest.approx(-outcome.adjusted[1], abs=1e-9)
    assert outcome.adjusted[0] != pytest.approx(outcome.points[0], abs=1e-3)


def test_a_recorded_run_reads_back_and_compares_with_itself_as_nothing(
    strength, tmp_path, capsys
) -> None:
    record = tmp_path / "run.jsonl"
    outcomes = [strength.play_pair(strength.Job("advanced", "expert", pair, 5)) for pair in (0, 1)]
    record.write_text(
        "".join(strength.record_line(o, "advanced", 5, None) + "\n" for o in outcomes)
    )
    read = strength.read_records(str(record))
    assert sorted(read) == [("expert", 5, 0), ("expert", 5, 1)]
    assert read[("expert", 5, 1)].points == outcomes[1].points
    assert read[("expert", 5, 1)].adjusted == pytest.approx(outcomes[1].adjusted)
    strength.compare(str(record), str(record))
    assert "+0.000 [+0.000, +0.000] luck-adjusted points a game over 2 pairs (2 with the same" in (
        capsys.readouterr().out
    )
