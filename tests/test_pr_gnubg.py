"""PR checked against GNU Backgammon on the same matches.

Matches between two computer levels (seeded, through the real session: a 7-point match and
a money session of four games) are exported as ``.mat`` and analysed by the real gnubg.

- In the default suite, gnubg analyses them at 0-ply (seconds), and the bot's own analysis
  (:func:`bot.computer.analysis.analyze_decisions`, from the event log, as
  ``/backgammon analyze`` runs it) is given GNU's equities (``GnuEquities``): it must count
  exactly the decisions, and sum exactly the errors, that :func:`tests.gnubg_pr.gnu_performance`
  finds in GNU's analysis under :mod:`bot.computer.pr`'s definition. That holds the whole path
  (which decisions each sees, the counting rules, match play's EMG through GNU's own
  ``mwc2eq``) to GNU Backgammon, whatever the engines think.
- With ``GAMMON_PR_GNUBG=1``, the bot's real analysis (3-ply) against gnubg's 2-ply on
  longer matches and money sessions (each sample at least 100 decisions per player): every
  player's two PRs within 1.0. It takes minutes (``benchmarks/pr_gnubg.py`` prints the same
  comparison with its timings), so it is not in the default suite.

Without gnubg these tests skip, except on CI, where they fail; without bgsage they skip (its
levels play the matches).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bot.computer import computer_available
from bot.computer.analysis import analyze_decisions
from bot.core.replay import decisions_from_events
from tests.gnubg_pr import (
    GnuEquities,
    GnuMatch,
    Sample,
    analyse_with_gnubg,
    bot_performance,
    by_sample,
    export_samples,
    gnu_performance,
    gnu_unforced_checker_error,
    play_samples,
    total,
)
from tests.gnubg_support import require_gnubg

pytestmark = pytest.mark.skipif(not computer_available(), reason="bgsage plays the matches")

LEVELS = ("intermediate", "advanced")


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Sample], list[GnuMatch]]:
    require_gnubg()
    folder = tmp_path_factory.mktemp("pr-gnubg")
    samples = asyncio.run(
        play_samples(folder, LEVELS, 200, lengths=(7,), sessions=1, money_games=4)
    )
    analysed = analyse_with_gnubg(export_samples(samples, folder), folder / "gnubg", plies=0)
    return samples, analysed


def test_gnus_analysis_is_read_right(fast: tuple[list[Sample], list[GnuMatch]]) -> None:
    """Each player's checker error recomputed from the decisions read back is GNU's own
    statistic (so the candidates and the plays made were read right)."""
    _samples, analysed = fast
    for match in analysed:
        for player in (0, 1):
            own = match.gnu_checker_error[player]
            assert own is not None
            assert gnu_unforced_checker_error(match, player) == pytest.approx(own, abs=1e-4)


def test_the_bots_analysis_on_gnus_equities_is_gnus_pr(
    fast: tuple[list[Sample], list[GnuMatch]],
) -> None:
    samples, analysed = fast
    groups = by_sample(samples, analysed)
    kinds = {decision.kind for match in analysed for decision in match.decisions}
    assert {"checker", "no_double", "double", "take"} <= kinds  # the cube was used
    assert {match.length for match in analysed} == {0, 7}  # money and match play
    for sample, matches in zip(samples, groups, strict=True):
        ours = []
        for played, gnu in zip(sample.played, matches, strict=True):
            decisions = decisions_from_events(played.row.options, played.events)
            found = analyze_decisions(GnuEquities(gnu), decisions)
            ours.append({player: analysis.performance for player, analysis in found.items()})
        mine, theirs = total(ours), total(gnu_performance(gnu) for gnu in matches)
        for player in (0, 1):
            a, b = mine[player], theirs[player]
            assert (a.checker.decisions, a.cube.decisions) == (
                b.checker.decisions,
                b.cube.decisions,
            ), sample.name
            assert a.checker.error == pytest.approx(b.checker.error, abs=1e-6)
            assert a.cube.error == pytest.approx(b.cube.error, abs=1e-6)
            assert a.pr is not None and b.pr is not None and a.pr == pytest.approx(b.pr)
        # Enough to mean something: real decisions, real errors on both sides.
        assert sum(mine[p].decisions for p in (0, 1)) >= 100, sample.name
        assert all(mine[p].error > 0 for p in (0, 1)), sample.name


@pytest.mark.skipif(
    os.environ.get("GAMMON_PR_GNUBG") != "1",
    reason="minutes of analysis: set GAMMON_PR_GNUBG=1 (or run benchmarks/pr_gnubg.py)",
)
def test_the_bots_pr_is_within_one_of_gnubg_2ply(tmp_path: Path) -> None:
    require_gnubg()
    samples = asyncio.run(
        play_samples(tmp_path, LEVELS, 100, lengths=(7, 11, 15), sessions=2, money_games=8)
    )
    analysed = analyse_with_gnubg(export_samples(samples, tmp_path), tmp_path / "gnubg", plies=2)
    for sample, matches in zip(samples, by_sample(samples, analysed), strict=True):
        ours = bot_performance(sample)
        theirs = total(gnu_performance(gnu) for gnu in matches)
        for player in (0, 1):
            a, b = ours[player], theirs[player]
            assert a.decisions >= 90 and b.decisions >= 90, sample.name
            assert a.pr is not None and b.pr is not None
            assert abs(a.pr - b.pr) <= 1.0, (sample.name, player, a.pr, b.pr)
