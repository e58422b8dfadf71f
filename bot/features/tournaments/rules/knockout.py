"""Single elimination, with an optional progressive consolation bracket.

A :class:`Knockout` is the draw (the seeds), its options and the results recorded so far;
everything else (who plays whom, who advanced, the byes, the consolation's entrants, the
placings) is *derived* from those by one walk of the bracket. So advancing cannot happen
twice: recording a result that is already there returns the same value, a different one
raises :class:`~bot.features.tournaments.rules.model.ResultConflict`, and two matches finishing
together that feed the same slot each add their own result and nothing else. The storage layer
keeps the results (one row per match key, written once) and rebuilds the value.

**The main bracket.** Its size is the next power of two; seeds are placed in the
standard order (1 v 16, 8 v 9, ... see
:func:`~bot.features.tournaments.rules.seeding.bracket_order`),
so the missing seeds, the byes, fall to the top seeds (with a random seeding they are
random, as at Cambridge). A side with no opponent wins by a bye (unrated); a player who
withdrew loses their next match by walkover; a double forfeit sends nobody on, and the
next opponent wins by a bye.

**The progressive consolation** (Colorado's "Main with Progressive Consolation", Prime
Time's weekly, NextGammon's glossary): the losers of the first main round play each other;
a loser of main round ``k`` (up to ``feed_rounds``, default 2) enters later, meeting a
consolation winner (the "bye into a later consolation round" that makes it progressive);
the consolation then halves to one winner. Only players beaten over the board enter: a
player who lost by walkover or withdrew leaves an empty place (their opponent there
advances by a bye). Second place is decided as at PDX: the main finalist meets the
consolation winner in a playoff; its loser is third.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from bot.features.tournaments.rules.model import (
    CompetitionError,
    NotReady,
    OutcomeKind,
    Pairing,
    PlayerId,
    Result,
    ResultConflict,
    ResultError,
    UnknownMatch,
    match_length,
)
from bot.features.tournaments.rules.seeding import bracket_order


class LateEntryClosed(CompetitionError):
    """No first-round bye is left to take, or its player has already played on."""


class Section(StrEnum):
    MAIN = "main"
    CONSOLATION = "consolation"
    PLAYOFF = "playoff"  # main finalist v consolation winner, for second place


@dataclass(frozen=True, slots=True, order=True)
class MatchKey:
    """Where a match sits: its section, round (1-based) and index in the round (0-based).

    Prints as ``main:2:1`` for storage and buttons, and parses back.
    """

    section: Section
    round: int
    index: int

    def __str__(self) -> str:
        return f"{self.section}:{self.round}:{self.index}"

    @classmethod
    def parse(cls, text: str) -> MatchKey:
        try:
            section, round_text, index_text = text.split(":")
            return cls(Section(section), int(round_text), int(index_text))
        except ValueError:
            raise UnknownMatch(f"not a match key: {text!r}") from None


@dataclass(frozen=True, slots=True)
class Slot:
    """One side of a match: a player, empty (``decided`` and no player: a bye), or not
    known yet (not ``decided``)."""

    player: PlayerId | None
    decided: bool = True

    @property
    def vacant(self) -> bool:
        return self.decided and self.player is None


WAITING = Slot(None, decided=False)
VACANT = Slot(None)


class Status(StrEnum):
    WAITING = "waiting"  # a side is not known yet
    READY = "ready"  # two players, to be played
    DONE = "done"  # decided (played, walkover, bye or double forfeit)
    VOID = "void"  # two empty sides: nothing to play, nobody goes on


@dataclass(frozen=True, slots=True)
class KnockoutMatch:
    """A match as the walk of the bracket sees it; ``result`` includes automatic ones
    (byes, walkovers for withdrawn players), ``recorded`` says whether it was recorded."""

    key: MatchKey
    top: Slot
    bottom: Slot
    length: int
    result: Result | None
    recorded: bool

    @property
    def status(self) -> Status:
        if self.result is not None:
            return Status.DONE
        if self.top.vacant and self.bottom.vacant:
            return Status.VOID
        if self.top.decided and self.bottom.decided:
            return Status.READY
        return Status.WAITING

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(s.player for s in (self.top, self.bottom) if s.player is not None)


def bracket_size(players: int) -> int:
    """The next power of two at or above ``players`` (at least 2).

    >>> [bracket_size(n) for n in (2, 3, 8, 9)]
    [2, 4, 8, 16]
    """
    if players < 2:
        raise ValueError(f"a knockout needs two players, not {players}")
    return 1 << (players - 1).bit_length()


@dataclass(frozen=True)
class Knockout:
    """The draw, the options and the recorded results of a single elimination event.

    ``lengths`` is the main bracket's match lengths read back from the final (see
    :func:`~bot.features.tournaments.rules.model.match_length`), ``consolation_lengths`` the
    consolation's (the playoff for second place uses its last entry).
    """

    seeds: tuple[PlayerId, ...]
    consolation: bool = False
    feed_rounds: int = 2
    lengths: tuple[int, ...] = (5,)
    consolation_lengths: tuple[int, ...] = (3,)
    results: dict[MatchKey, Result] = field(default_factory=dict)
    withdrawn: frozenset[PlayerId] = frozenset()

    def __post_init__(self) -> None:
        bracket_size(len(self.seeds))
        if len(set(self.seeds)) != len(self.seeds):
            raise ValueError("a player is seeded twice")
        if self.feed_rounds < 1:
            raise ValueError("the consolation takes the losers of at least one round")
        match_length(self.lengths, 1, 1)
        match_length(self.consolation_lengths, 1, 1)

    # --- the shape ------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return bracket_size(len(self.seeds))

    @property
    def rounds(self) -> int:
        """Rounds of the main bracket (the last is the final)."""
        return self.size.bit_length() - 1

    @property
    def has_consolation(self) -> bool:
        """A consolation needs at least two first-round losers' places (4 in the bracket)."""
        return self.consolation and self.size >= 4

    # --- changes --------------------------------------------------------------------------

    def record(self, key: MatchKey, result: Result) -> Knockout:
        """The event with ``result`` for the match at ``key``.

        Idempotent: the same result again returns this value unchanged. Refuses a match
        that does not exist, is not ready (a side unknown), has nothing to play (a bye),
        or already has another result, and a result about other players.
        """
        match = self.match(key)
        existing = self.results.get(key)
        if existing is not None:
            if existing.same_as(result):
                return self
            raise ResultConflict(f"{key} already has {existing}")
        if match.status is not Status.READY:
            if match.status is Status.WAITING:
                raise NotReady(f"{key} waits for a player")
            raise ResultError(f"{key} has nothing to play ({match.status})")
        top, bottom = match.top.player, match.bottom.player
        assert top is not None and bottom is not None
        Pairing(top, bottom).check(result)
        return replace(self, results={**self.results, key: result})

    def late_entry(self, player: PlayerId) -> Knockout:
        """A late entrant takes the next seed, and so a first-round bye slot (the design
        notes' W4, as Smogon allows), while the bracket keeps its size and the player
        who had that bye has no second-round result yet. Results stand: no match key
        changes."""
        if player in self.seeds:
            raise ResultError(f"{player} is already in this event")
        if len(self.seeds) >= self.size:
            raise LateEntryClosed("the bracket has no bye left")
        seed = len(self.seeds) + 1
        slot = bracket_order(self.size).index(seed)
        if self.rounds >= 2 and MatchKey(Section.MAIN, 2, slot // 4) in self.results:
            raise LateEntryClosed(f"the bye of seed {seed}'s opponent has been played on")
        return replace(self, seeds=(*self.seeds, player))

    def withdraw(self, player: PlayerId) -> Knockout:
        """The player leaves: their next match is a walkover to the opponent (when the
        opponent is known), and they never enter the consolation. Results stand."""
        if player not in self.seeds:
            raise UnknownMatch(f"{player} is not in this event")
        if player in self.withdrawn:
            return self
        return replace(self, withdrawn=self.withdrawn | {player})

    # --- the walk -------------------------------------------------------------------------

    @functools.cached_property
    def _walk(self) -> tuple[dict[MatchKey, KnockoutMatch], Slot, Slot, Slot]:
        """Every match in order, and the main final's winner, its loser and the playoff's
        winner (VACANT without a consolation)."""
        matches: dict[MatchKey, KnockoutMatch] = {}
        order = bracket_order(self.size)
        n = len(self.seeds)
        level = [Slot(self.seeds[s - 1]) if s <= n else VACANT for s in order]
        main_losers: list[list[Slot]] = []
        for round_number in range(1, self.rounds + 1):
            length = match_length(self.lengths, round_number, self.rounds)
            key = functools.partial(MatchKey, Section.MAIN, round_number)
            level, losers = self._play(matches, key, length, _adjacent(level))
            main_losers.append(losers)
        champion = level[0]
        final_loser = main_losers[-1][0]
        second = VACANT
        if self.has_consolation:
            winner = self._consolation(matches, main_losers)
            # The finalist plays on only if beaten over the board (_play left VACANT else).
            runner_up = final_loser
            playoff_length = self.consolation_lengths[-1]
            key = functools.partial(MatchKey, Section.PLAYOFF, 1)
            level, _ = self._play(matches, key, playoff_length, [(runner_up, winner)])
            second = level[0]
        return matches, champion, final_loser, second

    def _consolation(
        self, matches: dict[MatchKey, KnockoutMatch], main_losers: list[list[Slot]]
    ) -> Slot:
        feed = min(self.feed_rounds, self.rounds - 1)
        plan: list[str] = ["first"]
        for k in range(2, feed + 1):
            if k >= 3:
                plan.append("halve")
            plan.append(f"feed{k}")
        level = main_losers[0]
        remaining = len(level) // 2
        for k in range(2, feed + 1):
            remaining //= 2 if k >= 3 else 1
        while remaining > 1:
            plan.append("halve")
            remaining //= 2
        total = len(plan)
        for number, kind in enumerate(plan, start=1):
            length = match_length(self.consolation_lengths, number, total)
            key = functools.partial(MatchKey, Section.CONSOLATION, number)
            if kind.startswith("feed"):
                incoming = main_losers[int(kind[4:]) - 1][::-1]  # reversed: no quick rematch
                pairs = list(zip(level, incoming, strict=True))
            else:
                pairs = _adjacent(level)
            level, _ = self._play(matches, key, length, pairs)
        return level[0]

    def _play(
        self,
        matches: dict[MatchKey, KnockoutMatch],
        key: functools.partial[MatchKey],
        length: int,
        pairs: Sequence[tuple[Slot, Slot]],
    ) -> tuple[list[Slot], list[Slot]]:
        """Add one round's matches; return its winners and its consolation entrants."""
        winners, losers = [], []
        for index, (top, bottom) in enumerate(pairs):
            match_key = key(index)
            recorded = self.results.get(match_key)
            result = recorded or self._automatic(top, bottom)
            match = KnockoutMatch(match_key, top, bottom, length, result, recorded is not None)
            matches[match_key] = match
            if match.status is Status.VOID:
                winners.append(VACANT)
                losers.append(VACANT)
            elif result is None:
                winners.append(WAITING)
                losers.append(WAITING)
            else:
                winners.append(VACANT if result.winner is None else Slot(result.winner))
                eligible = _entered_over_board(match) and result.loser not in self.withdrawn
                losers.append(Slot(result.loser) if eligible else VACANT)
        return winners, losers

    def _automatic(self, top: Slot, bottom: Slot) -> Result | None:
        """The result nobody needs to play: a bye, or a walkover for a withdrawn player."""
        if not (top.decided and bottom.decided):
            return None
        if top.player is None or bottom.player is None:
            present = top.player if top.player is not None else bottom.player
            return None if present is None else Result.bye(present)
        gone = [p for p in (top.player, bottom.player) if p in self.withdrawn]
        if len(gone) == 2:
            return Result.double_forfeit()
        if gone:
            winner = bottom.player if gone[0] == top.player else top.player
            return Result.walkover(winner, gone[0])
        return None

    # --- reading --------------------------------------------------------------------------

    def matches(self) -> tuple[KnockoutMatch, ...]:
        """Every match: main rounds, then the consolation's, then the playoff."""
        return tuple(self._walk[0].values())

    def match(self, key: MatchKey) -> KnockoutMatch:
        try:
            return self._walk[0][key]
        except KeyError:
            raise UnknownMatch(f"no match {key}") from None

    def section(self, section: Section) -> tuple[tuple[KnockoutMatch, ...], ...]:
        """The matches of one section, round by round."""
        rounds: dict[int, list[KnockoutMatch]] = {}
        for match in self.matches():
            if match.key.section is section:
                rounds.setdefault(match.key.round, []).append(match)
        return tuple(tuple(rounds[r]) for r in sorted(rounds))

    def ready(self) -> tuple[KnockoutMatch, ...]:
        """The matches to be played now (both players known, no result)."""
        return tuple(m for m in self.matches() if m.status is Status.READY)

    @property
    def finished(self) -> bool:
        return all(m.status in (Status.DONE, Status.VOID) for m in self.matches())

    @property
    def champion(self) -> PlayerId | None:
        """The winner of the main final, once it is decided."""
        return self._walk[1].player

    def placings(self) -> tuple[tuple[int, PlayerId], ...]:
        """(place, player) for the podium as far as it is decided: first, second, and third
        (the playoff's loser with a consolation; both beaten semi-finalists without one)."""
        _, champion, _final_loser, second = self._walk
        out: list[tuple[int, PlayerId]] = []
        if champion.player is not None:
            out.append((1, champion.player))
        if self.has_consolation:
            playoff = self.match(MatchKey(Section.PLAYOFF, 1, 0))
            if second.player is not None:
                out.append((2, second.player))
            if playoff.result is not None and playoff.result.loser is not None:
                out.append((3, playoff.result.loser))
            return tuple(out)
        final = self.match(MatchKey(Section.MAIN, self.rounds, 0))
        if final.result is not None and final.result.loser is not None:
            out.append((2, final.result.loser))
        if self.rounds >= 2:
            for match in self.section(Section.MAIN)[-2]:
                if match.result is not None and match.result.loser is not None:
                    out.append((3, match.result.loser))
        return tuple(out)


def _adjacent(level: Sequence[Slot]) -> list[tuple[Slot, Slot]]:
    return [(level[i], level[i + 1]) for i in range(0, len(level), 2)]


def _entered_over_board(match: KnockoutMatch) -> bool:
    """Whether the match's loser was beaten over the board (and so may play on)."""
    result = match.result
    return result is not None and result.kind in (OutcomeKind.PLAYED, OutcomeKind.TIMEOUT)
