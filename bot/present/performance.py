"""PR in words: a player's Performance Rating with its parts and band, the luck beside it,
the PR ladder and a player's PR record (``/backgammon analyze``, the post-game reviews,
``/backgammon leaderboard sort:pr`` and ``/backgammon stats``).

PR is eXtreme Gammon's (:mod:`bot.computer.pr`: 500 times the equity lost per counted
decision, lower is better); GNU Backgammon's error rate in millipoints stays beside it as
a detail. Luck-adjusted results are in points in a money game, in match-winning chances in
a match.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.computer.pr import LuckAdjustedResult, PerformanceRating, PRBand
from bot.i18n import N_, Text, _, join, say

__all__ = [
    "BAND_WORDS",
    "PR_LADDER_EMPTY",
    "PR_LADDER_FOOTER",
    "PR_LADDER_TITLE",
    "ladder_lines",
    "luck_adjusted_words",
    "performance_words",
    "pr_figure",
    "record_lines",
]

BAND_WORDS: dict[PRBand, Text] = {
    PRBand.WORLD_CHAMPION: _("World champion"),
    PRBand.WORLD_CLASS: _("World class"),
    PRBand.EXPERT: _("Expert"),
    PRBand.ADVANCED: _("Advanced"),
    PRBand.INTERMEDIATE: _("Intermediate"),
    PRBand.CASUAL: _("Casual player"),
    PRBand.BEGINNER: _("Beginner"),
    PRBand.BELOW_BEGINNER: _("Below beginner"),
}


def pr_figure(value: float | None) -> Text | str:
    """A PR as players write it (one decimal, the reader's separator), or a dash."""
    return "—" if value is None else Text("{value:.1f}", {"value": float(value)})


def performance_words(performance: PerformanceRating) -> Text:
    """``PR 6.2 (Expert) over 123 decisions: checker 5.8, cube 9.1``."""
    if performance.pr is None or performance.band is None:
        return _("PR — (no decision that counts)")
    decisions = performance.decisions
    return _(
        "PR {pr} ({band}) over {decisions}: checker {checker}, cube {cube}",
        pr=pr_figure(performance.pr),
        band=BAND_WORDS[performance.band],
        decisions=N_("{n} decision", "{n} decisions", decisions, n=decisions),
        checker=pr_figure(performance.checker_pr),
        cube=pr_figure(performance.cube_pr),
    )


def luck_adjusted_words(result: LuckAdjustedResult, money: bool) -> Text:
    """The luck-adjusted result beside the actual one: points in a money game, match-winning
    chances in a match."""
    if money:
        return _(
            "luck-adjusted {adjusted} points (actual {actual})",
            adjusted=Text("{value:+.2f}", {"value": result.adjusted}),
            actual=Text("{value:+.2f}", {"value": result.actual}),
        )
    return _(
        "luck-adjusted {adjusted} match-winning chances (actual {actual})",
        adjusted=Text("{value:+.1%}", {"value": result.adjusted}),
        actual=Text("{value:+.1%}", {"value": result.actual}),
    )


# --- the PR ladder ---------------------------------------------------------------------------

PR_LADDER_TITLE = _("PR ladder")
PR_LADDER_FOOTER = _(
    "PR: eXtreme Gammon's Performance Rating, 500 times the equity lost per decision (lower "
    "is better), over every rated match played in full here (no forfeits). Ranked from "
    "{decisions} decisions."
)
PR_LADDER_EMPTY = _(
    "Nobody has {decisions} decisions in recorded rated matches yet: every rated match "
    "played to its end counts once it has been analysed."
)


def ladder_lines(
    entries: Sequence[Any],
    *,
    display: Callable[[str], str] = str,
    language: str | None = None,
) -> list[str]:
    """One line per player of the PR ladder, best first."""
    lines = []
    for rank, entry in enumerate(entries, start=1):
        performance = entry.performance
        band = performance.band
        lines.append(
            say(
                _(
                    "{rank}. {name} — PR {pr} ({band}) over {matches}, {decisions}",
                    rank=rank,
                    name=display(entry.name),
                    pr=pr_figure(performance.pr),
                    band=BAND_WORDS[band] if band is not None else "—",
                    matches=N_("{n} match", "{n} matches", entry.matches, n=entry.matches),
                    decisions=N_(
                        "{n} decision",
                        "{n} decisions",
                        performance.decisions,
                        n=performance.decisions,
                    ),
                ),
                language,
            )
        )
    return lines


# --- a player's PR record (/backgammon stats) --------------------------------------------------


def record_lines(record: Any, *, language: str | None = None) -> str:
    """A player's PR over their recorded rated matches, and their luck there; empty when
    no match of theirs is recorded yet."""
    if not record.matches:
        return ""
    count = len(record.matches)
    lines: list[Text] = [
        _(
            "{matches} played in full: {performance}",
            performance=performance_words(record.performance),
            matches=N_("{n} rated match", "{n} rated matches", count, n=count),
        )
    ]
    rolls, rate = record.luck()
    if rolls:
        lines.append(
            _(
                "Luck: {rate} millipoints a roll over {rolls}",
                rate=Text("{value:+.1f}", {"value": rate}),
                rolls=N_("{n} roll", "{n} rolls", rolls, n=rolls),
            )
        )
    matches, actual, adjusted = record.results(money=False)
    if matches:
        lines.append(
            _(
                "Luck-adjusted: {adjusted} of the matches won (actually won: {actual})",
                adjusted=Text("{value:.0%}", {"value": 0.5 + adjusted}),
                actual=Text("{value:.0%}", {"value": 0.5 + actual}),
            )
        )
    games, actual, adjusted = record.results(money=True)
    if games:
        lines.append(
            _(
                "Luck-adjusted: {adjusted} points a money game (actually {actual})",
                adjusted=Text("{value:+.2f}", {"value": adjusted}),
                actual=Text("{value:+.2f}", {"value": actual}),
            )
        )
    return say(join(lines, "\n"), language)
