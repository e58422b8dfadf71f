"""The Swiss system: a few rounds, each pairing players with equal scores, never twice.

A :class:`Swiss` is the seeds, the rounds drawn so far and their results; the standings
are derived (:mod:`bot.features.tournaments.rules.standings`). Each round is paired from the
standings after the last complete round:

- the number of rounds defaults to ``ceil(log2 n) + 1`` (never more than a round robin);
- with an odd field the bye (one point, unrated) goes to the lowest-ranked player who has
  not had one; only when every such choice would force a rematch (or everybody has had
  one) does it go to the lowest with the fewest;
- players are paired within score groups, the top half of a group against its bottom half
  (1 v 5, 2 v 6 ... in a group of eight, as the Dutch system does), a player left over
  floats down to the next group;
- nobody meets the same opponent twice: the pairing backtracks (over the bye, then over
  each player's candidates in order of preference) until it finds a pairing without a
  rematch; when none exists the event ends early, as on lichess.

Players who withdraw are not paired again; their results stand and keep counting for
their opponents' tie-breaks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.features.tournaments.rules.model import (
    CompetitionError,
    Game,
    Pairing,
    PlayerId,
    Result,
    ResultConflict,
    ResultError,
    RoundKey,
    UnknownMatch,
    match_length,
)
from bot.features.tournaments.rules.standings import SWISS_TIE_BREAKS, Standing, TieBreak, standings


class RoundIncomplete(CompetitionError):
    """The next round cannot be paired before every result of this one is in."""


def default_rounds(players: int) -> int:
    """``ceil(log2 n) + 1``, capped at a round robin's rounds (n - 1, or n when odd).

    >>> [default_rounds(n) for n in (2, 3, 4, 7, 8, 9, 64)]
    [1, 3, 3, 4, 4, 5, 7]
    """
    if players < 2:
        raise ValueError(f"a Swiss needs two players, not {players}")
    cap = players - 1 if players % 2 == 0 else players
    return min(cap, math.ceil(math.log2(players)) + 1)


def pair_round(
    ranking: Sequence[PlayerId],
    points: Mapping[PlayerId, float],
    met: frozenset[frozenset[PlayerId]],
    byes: Mapping[PlayerId, int],
) -> tuple[tuple[Pairing, ...], PlayerId | None] | None:
    """Pairings for ``ranking`` (best first) without a rematch, and who gets the bye; None
    when no such pairing exists."""
    candidates: list[PlayerId | None] = [None]
    if len(ranking) % 2:
        position = {p: i for i, p in enumerate(ranking)}
        candidates = [*sorted(ranking, key=lambda p: (byes.get(p, 0), -position[p]))]
    for bye in candidates:
        rest = [p for p in ranking if p != bye]
        pairs = _match(rest, points, met)
        if pairs is not None:
            return tuple(Pairing(a, b) for a, b in pairs), bye
    return None


def _match(
    players: Sequence[PlayerId],
    points: Mapping[PlayerId, float],
    met: frozenset[frozenset[PlayerId]],
) -> list[tuple[PlayerId, PlayerId]] | None:
    """A perfect matching of ``players`` (best first) avoiding ``met``, in preference order;
    None if there is none. Failed sets of remaining players are remembered, so each is
    searched once."""
    failed: set[int] = set()

    def preference(remaining: Sequence[int]) -> list[int]:
        top = remaining[0]
        score = points.get(players[top], 0.0)
        group = [i for i in remaining if points.get(players[i], 0.0) == score]
        half = len(group) // 2
        preferred = group[half:] + group[1:half][::-1]
        others = [i for i in remaining[1:] if i not in group]
        return preferred + others

    def solve(remaining: tuple[int, ...]) -> list[tuple[int, int]] | None:
        if not remaining:
            return []
        mask = sum(1 << i for i in remaining)
        if mask in failed:
            return None
        top = remaining[0]
        for other in preference(remaining):
            if other == top or frozenset((players[top], players[other])) in met:
                continue
            below = solve(tuple(i for i in remaining if i not in (top, other)))
            if below is not None:
                return [(top, other), *below]
        failed.add(mask)
        return None

    found = solve(tuple(range(len(players))))
    if found is None:
        return None
    return [(players[a], players[b]) for a, b in found]


@dataclass(frozen=True)
class Swiss:
    """A Swiss event: ``seeds`` in seed order, ``rounds`` planned, the rounds drawn so far
    (``pairings``), the recorded ``results`` (byes are recorded at the pairing)."""

    seeds: tuple[PlayerId, ...]
    rounds: int
    lengths: tuple[int, ...] = (5,)
    ratings: Mapping[PlayerId, float | None] = field(default_factory=dict)
    tie_breaks: tuple[TieBreak, ...] = SWISS_TIE_BREAKS
    buchholz_cut: int = 0
    pairings: tuple[tuple[Pairing, ...], ...] = ()
    results: dict[RoundKey, Result] = field(default_factory=dict)
    withdrawn: frozenset[PlayerId] = frozenset()

    @classmethod
    def start(
        cls,
        seeds: Sequence[PlayerId],
        *,
        rounds: int | None = None,
        lengths: tuple[int, ...] = (5,),
        ratings: Mapping[PlayerId, float | None] | None = None,
        buchholz_cut: int = 0,
    ) -> Swiss:
        """A new event with its first round paired."""
        if len(set(seeds)) != len(seeds):
            raise ValueError("a player is seeded twice")
        planned = default_rounds(len(seeds)) if rounds is None else rounds
        if planned < 1:
            raise ValueError(f"at least one round, not {planned}")
        match_length(lengths, 1, 1)
        event = cls(tuple(seeds), planned, lengths, dict(ratings or {}), buchholz_cut=buchholz_cut)
        return event.pair_next()

    # --- reading --------------------------------------------------------------------------

    @property
    def current_round(self) -> int:
        """The last round paired (0 before the first)."""
        return len(self.pairings)

    def round_complete(self, number: int) -> bool:
        return all(
            RoundKey(number, i) in self.results for i in range(len(self.pairings[number - 1]))
        )

    @property
    def rounds_completed(self) -> int:
        done = 0
        while done < self.current_round and self.round_complete(done + 1):
            done += 1
        return done

    @property
    def finished(self) -> bool:
        return self.rounds_completed == self.rounds

    def length(self, round_number: int) -> int:
        return match_length(self.lengths, round_number, self.rounds)

    def games(self) -> tuple[Game, ...]:
        return tuple(
            Game(key.round, self.pairing(key), result, self.length(key.round))
            for key, result in sorted(self.results.items())
        )

    def pairing(self, key: RoundKey) -> Pairing:
        try:
            return self.pairings[key.round - 1][key.index]
        except IndexError:
            raise UnknownMatch(f"no match {key}") from None

    def open_matches(self) -> tuple[tuple[RoundKey, Pairing], ...]:
        """The current round's matches still to be decided."""
        number = self.current_round
        if number == 0:
            return ()
        return tuple(
            (RoundKey(number, i), p)
            for i, p in enumerate(self.pairings[number - 1])
            if RoundKey(number, i) not in self.results
        )

    def standings(self) -> tuple[Standing, ...]:
        return standings(
            self.seeds,
            self.games(),
            rounds_completed=self.rounds_completed,
            tie_breaks=self.tie_breaks,
            ratings=self.ratings,
            buchholz_cut=self.buchholz_cut,
        )

    def met(self) -> frozenset[frozenset[PlayerId]]:
        """Every pair that has already been drawn together."""
        return frozenset(
            frozenset(p.players) for round_ in self.pairings for p in round_ if p.b is not None
        )

    # --- changes --------------------------------------------------------------------------

    def record(self, key: RoundKey, result: Result) -> Swiss:
        """The event with ``result`` for the match at ``key``; the same result again changes
        nothing, another one raises :class:`ResultConflict`."""
        pairing = self.pairing(key)
        existing = self.results.get(key)
        if existing is not None:
            if existing.same_as(result):
                return self
            raise ResultConflict(f"{key} already has {existing}")
        pairing.check(result)
        return replace(self, results={**self.results, key: result})

    def withdraw(self, player: PlayerId) -> Swiss:
        """The player is not paired again; their results stand."""
        if player not in self.seeds:
            raise ResultError(f"{player} is not in this event")
        return replace(self, withdrawn=self.withdrawn | {player})

    def rejoin(self, player: PlayerId) -> Swiss:
        """A withdrawn player is paired again from the next round (lichess lets them)."""
        return replace(self, withdrawn=self.withdrawn - {player})

    def pair_next(self) -> Swiss:
        """The event with the next round paired (its bye recorded); when every planned round
        is played, or no pairing without a rematch exists, the event is over instead: the
        planned rounds are cut to those played and the value is returned finished."""
        if self.current_round and not self.round_complete(self.current_round):
            raise RoundIncomplete(f"round {self.current_round} is still being played")
        if self.current_round >= self.rounds:
            return self
        table = self.standings() if self.current_round else ()
        order = [s.player for s in table] or list(self.seeds)
        active = [p for p in order if p not in self.withdrawn]
        points = {s.player: s.points for s in table}
        byes = {s.player: s.byes for s in table}
        found = pair_round(active, points, self.met(), byes) if len(active) >= 2 else None
        if found is None:
            return replace(self, rounds=self.current_round)
        pairs, bye = found
        if bye is not None:
            pairs = (*pairs, Pairing(bye, None))
        number = self.current_round + 1
        results = dict(self.results)
        if bye is not None:
            results[RoundKey(number, len(pairs) - 1)] = Result.bye(bye)
        return replace(self, pairings=(*self.pairings, pairs), results=results)
