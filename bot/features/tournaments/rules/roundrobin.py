"""Round robin groups: everyone in a group plays everyone else, once or twice.

Groups hold at most six players (club nights and league divisions of 4-6); a larger field
is dealt into the fewest groups that fit, snake-wise by seed so the groups are even. Each
group's schedule comes from the circle method (Berger tables): with an odd group a dummy
makes the numbers even and whoever meets it sits the round out (no point: in a round
robin everyone sits out once). A second cycle repeats the first.

A player who quits (the design notes' rule F3): with fewer than half their matches played,
all their matches are voided, as if they had never entered; otherwise their results stand
and their remaining matches are walkovers to the opponents.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from bot.features.tournaments.rules.model import (
    Game,
    Pairing,
    PlayerId,
    Result,
    ResultConflict,
    ResultError,
    UnknownMatch,
    match_length,
)
from bot.features.tournaments.rules.seeding import snake_groups
from bot.features.tournaments.rules.standings import (
    ROUND_ROBIN_TIE_BREAKS,
    Standing,
    TieBreak,
    standings,
)

MAX_GROUP = 6


def berger_rounds(players: Sequence[PlayerId]) -> tuple[tuple[Pairing, ...], ...]:
    """The circle method: n - 1 rounds (n when odd) in which everyone meets everyone once.

    >>> [[p.players for p in r] for r in berger_rounds([1, 2, 3, 4])]
    [[(1, 4), (2, 3)], [(1, 3), (4, 2)], [(1, 2), (3, 4)]]
    """
    circle: list[PlayerId | None] = list(players)
    if len(circle) < 2:
        raise ValueError("a round robin needs two players")
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds = []
    for _ in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = circle[i], circle[n - 1 - i]
            if a is not None and b is not None:
                pairs.append(Pairing(a, b))
        rounds.append(tuple(pairs))
        circle = [circle[0], circle[-1], *circle[1:-1]]  # turn everyone but the first
    return tuple(rounds)


@dataclass(frozen=True, slots=True, order=True)
class GroupKey:
    """A match of a round robin: group (0-based), round (1-based), table (0-based).
    Prints as ``0:2:1`` and parses back."""

    group: int
    round: int
    index: int

    def __str__(self) -> str:
        return f"{self.group}:{self.round}:{self.index}"

    @classmethod
    def parse(cls, text: str) -> GroupKey:
        try:
            group, round_text, index = (int(part) for part in text.split(":"))
            return cls(group, round_text, index)
        except ValueError:
            raise UnknownMatch(f"not a match key: {text!r}") from None


@dataclass(frozen=True, slots=True)
class GroupMatch:
    key: GroupKey
    pairing: Pairing
    length: int
    result: Result | None  # recorded, or a walkover for a player who quit
    recorded: bool


@dataclass(frozen=True)
class RoundRobin:
    """Groups of a round robin, the results recorded and the players who quit."""

    groups: tuple[tuple[PlayerId, ...], ...]
    cycles: int = 1
    lengths: tuple[int, ...] = (5,)
    ratings: Mapping[PlayerId, float | None] = field(default_factory=dict)
    tie_breaks: tuple[TieBreak, ...] = ROUND_ROBIN_TIE_BREAKS
    results: dict[GroupKey, Result] = field(default_factory=dict)
    voided: frozenset[PlayerId] = frozenset()  # quit early: their matches do not count
    forfeited: frozenset[PlayerId] = frozenset()  # quit late: the rest are walkovers

    def __post_init__(self) -> None:
        players = [p for g in self.groups for p in g]
        if len(set(players)) != len(players):
            raise ValueError("a player is in two groups")
        if any(not 2 <= len(g) <= MAX_GROUP for g in self.groups):
            raise ValueError(f"groups have 2-{MAX_GROUP} players")
        if self.cycles not in (1, 2):
            raise ValueError("one or two cycles")

    @classmethod
    def draw(
        cls,
        seeds: Sequence[PlayerId],
        *,
        group_size: int = MAX_GROUP,
        cycles: int = 1,
        lengths: tuple[int, ...] = (5,),
        ratings: Mapping[PlayerId, float | None] | None = None,
    ) -> RoundRobin:
        """Deal ``seeds`` into the fewest groups of at most ``group_size``."""
        if not 2 <= group_size <= MAX_GROUP:
            raise ValueError(f"a group has 2-{MAX_GROUP} players, not {group_size}")
        if len(seeds) < 2:
            raise ValueError("a round robin needs two players")
        count = math.ceil(len(seeds) / group_size)
        match_length(lengths, 1, 1)
        return cls(snake_groups(seeds, count), cycles, lengths, dict(ratings or {}))

    # --- the schedule ---------------------------------------------------------------------

    def schedule(self, group: int) -> tuple[tuple[Pairing, ...], ...]:
        """The group's rounds; the second cycle swaps who is named first."""
        first = berger_rounds(self.groups[group])
        if self.cycles == 1:
            return first
        return first + tuple(tuple(Pairing(p.b, p.a) for p in r if p.b is not None) for r in first)

    def matches(self, group: int | None = None) -> tuple[GroupMatch, ...]:
        """Every match (of one group), with automatic walkovers against players who quit;
        the voided players' matches are left out."""
        out = []
        groups = range(len(self.groups)) if group is None else (group,)
        for g in groups:
            rounds = self.schedule(g)
            for number, pairs in enumerate(rounds, start=1):
                for index, pairing in enumerate(pairs):
                    if self.voided & set(pairing.players):
                        continue
                    key = GroupKey(g, number, index)
                    recorded = self.results.get(key)
                    length = match_length(self.lengths, number, len(rounds))
                    result = recorded or self._automatic(pairing)
                    out.append(GroupMatch(key, pairing, length, result, recorded is not None))
        return tuple(out)

    def _automatic(self, pairing: Pairing) -> Result | None:
        gone = [p for p in pairing.players if p in self.forfeited]
        if len(gone) == 2:
            return Result.double_forfeit()
        if gone:
            other = pairing.b if gone[0] == pairing.a else pairing.a
            assert other is not None
            return Result.walkover(other, gone[0])
        return None

    def match(self, key: GroupKey) -> GroupMatch:
        for match in self.matches(key.group if 0 <= key.group < len(self.groups) else None):
            if match.key == key:
                return match
        raise UnknownMatch(f"no match {key}")

    def open_matches(self) -> tuple[GroupMatch, ...]:
        return tuple(m for m in self.matches() if m.result is None)

    @property
    def finished(self) -> bool:
        return not self.open_matches()

    def standings(self, group: int) -> tuple[Standing, ...]:
        """The group's table over every result so far (the voided players are not in it)."""
        players = [p for p in self.groups[group] if p not in self.voided]
        games = [
            Game(m.key.round, m.pairing, m.result, m.length)
            for m in self.matches(group)
            if m.result is not None
        ]
        return standings(
            players,
            games,
            rounds_completed=len(self.schedule(group)),
            tie_breaks=self.tie_breaks,
            ratings=self.ratings,
        )

    # --- changes --------------------------------------------------------------------------

    def record(self, key: GroupKey, result: Result) -> RoundRobin:
        """Idempotent like every format: the same result again changes nothing."""
        match = self.match(key)
        existing = self.results.get(key)
        if existing is not None:
            if existing.same_as(result):
                return self
            raise ResultConflict(f"{key} already has {existing}")
        if match.result is not None:
            raise ResultError(f"{key} is already decided: {match.result}")
        match.pairing.check(result)
        return replace(self, results={**self.results, key: result})

    def withdraw(self, player: PlayerId) -> RoundRobin:
        """The player quits: voided with fewer than half their matches decided, otherwise
        the rest of their matches become walkovers."""
        group = next((g for g, members in enumerate(self.groups) if player in members), None)
        if group is None:
            raise ResultError(f"{player} is not in this event")
        if player in self.voided | self.forfeited:
            return self
        theirs = [m for m in self.matches(group) if player in m.pairing.players]
        decided = sum(m.result is not None for m in theirs)
        if 2 * decided < len(theirs):
            return replace(self, voided=self.voided | {player})
        return replace(self, forfeited=self.forfeited | {player})
