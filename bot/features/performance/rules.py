"""Which matches the PR ladder counts, and what it keeps of each: pure values and rules.

Only an honest record counts (the objection players raise to PR lists is cherry-picking,
and a walkover's absurd PR): a **rated** match between two people, **finished with a
winner**, every game of it played to its end over the board (borne off, a double dropped, a
resignation accepted). A match or game won by a claim for inactivity (a forfeit) never
counts, nor does a cancelled one; a tournament's walkover is no match at all. Its players'
PR is the whole match's (every game's decisions pooled, as XG pools them): the bot records
every rated match that its analysis reaches, so the list is complete by construction.

A player is ranked once their recorded matches hold :data:`MIN_DECISIONS` counted
decisions: a single short match says little (a player's PR over 100 decisions still moves by
a point or two with a few errors).

Pure: the records and :mod:`bot.computer.pr`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.computer.pr import LuckAdjustedResult, PerformanceRating
from bot.core.records import EndReason, FinishedGame, MatchRow, Status
from bot.engine import EndReason as GameEndReason

__all__ = [
    "MIN_DECISIONS",
    "LadderEntry",
    "MatchPerformance",
    "PlayerPerformance",
    "counts",
    "ranked",
]

MIN_DECISIONS = 100
"""Counted decisions a player needs over their recorded matches to be ranked by PR."""

# A game, and a match by its last game, ended over the board.
_GAME_PLAYED = frozenset({GameEndReason.BORNE_OFF, GameEndReason.DROPPED, GameEndReason.RESIGNED})
_MATCH_PLAYED = frozenset({EndReason.BORNE_OFF, EndReason.DROPPED, EndReason.RESIGNED})


def counts(match: MatchRow, games: Sequence[FinishedGame]) -> bool:
    """Whether ``match`` (with its finished ``games``) goes on the PR ladder: rated,
    between two people, won, every game of it played out (see the module's docstring)."""
    return (
        match.rated
        and match.computer_level is None
        and match.status == Status.FINISHED
        and match.winner is not None
        and match.end_reason in _MATCH_PLAYED
        and bool(games)
        and all(game.result.reason in _GAME_PLAYED for game in games)
    )


@dataclass(frozen=True, slots=True)
class MatchPerformance:
    """One player's PR in one recorded match, with their luck there (None: the engine
    could not value the stakes). ``money``: a money game (its results are points; a
    match's are match-winning chances)."""

    match_id: int
    guild_id: int
    user_id: int
    name: str
    played_at: float
    money: bool
    performance: PerformanceRating
    luck: LuckAdjustedResult | None


@dataclass(frozen=True, slots=True)
class LadderEntry:
    """A player on the PR ladder: their PR over every recorded match of theirs."""

    user_id: int
    name: str
    performance: PerformanceRating
    matches: int


@dataclass(frozen=True, slots=True)
class PlayerPerformance:
    """A player's recorded matches on a server, oldest first, and what they add up to."""

    user_id: int
    matches: tuple[MatchPerformance, ...]

    @property
    def performance(self) -> PerformanceRating:
        """The PR over every decision of every recorded match (pooled, as XG pools them)."""
        return PerformanceRating.total(match.performance for match in self.matches)

    @property
    def history(self) -> list[tuple[float, float]]:
        """Each recorded match's PR at the time it was played (matches without a counted
        decision left out): the points of the PR chart."""
        return [
            (match.played_at, pr)
            for match in self.matches
            if (pr := match.performance.pr) is not None
        ]

    @property
    def ranked(self) -> bool:
        return self.performance.decisions >= MIN_DECISIONS

    def luck(self) -> tuple[int, float]:
        """Rolls, and the luck rate over them (millipoints of normalized luck a roll)."""
        known = [match.luck for match in self.matches if match.luck is not None]
        rolls = sum(luck.rolls for luck in known)
        total = sum(luck.normalized_luck for luck in known)
        return rolls, (1000.0 * total / rolls if rolls else 0.0)

    def results(self, money: bool) -> tuple[int, float, float]:
        """Over the recorded money games (``money``) or matches: how many, and the average
        actual and luck-adjusted results (points a game; match-winning chances a match,
        0.5 being a win and -0.5 a loss)."""
        known = [
            match.luck for match in self.matches if match.money == money and match.luck is not None
        ]
        if not known:
            return 0, 0.0, 0.0
        count = len(known)
        actual = sum(luck.actual for luck in known) / count
        adjusted = sum(luck.adjusted for luck in known) / count
        return count, actual, adjusted


def ranked(
    entries: Iterable[LadderEntry], *, min_decisions: int = MIN_DECISIONS
) -> list[LadderEntry]:
    """The ladder: players with at least ``min_decisions`` counted decisions, best (lowest)
    PR first, the one with more decisions first on a tie."""
    kept = [entry for entry in entries if entry.performance.decisions >= min_decisions]
    return sorted(
        kept, key=lambda entry: (entry.performance.pr or 0.0, -entry.performance.decisions)
    )
