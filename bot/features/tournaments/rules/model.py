"""The values every competition format shares: players, formats, phases, results, errors.

Pure and stdlib only, like :mod:`bot.engine`: no discord, no database, no clock. A player is
an opaque ``int`` (a Discord user id in the bot, anything in tests); the storage layer
keeps names and ratings beside it. Times, when a rule needs them, are passed in.

A :class:`Result` says *how* a match ended, not only who won: a walkover (a no-show, a
player who left) is never written as a score and is never rated, as clubs and players ask
(pokemon-showdown #5684, lila #544, the MSO rules), and a double forfeit has no winner.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

PlayerId = int


class Format(StrEnum):
    """The kinds of competition the bot runs."""

    KNOCKOUT = "knockout"
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    LADDER = "ladder"


class OutcomeKind(StrEnum):
    """How a match was decided."""

    PLAYED = "played"  # played to the end (or resigned, dropped: a real result)
    TIMEOUT = "timeout"  # unfinished at the deadline, the stalled player lost keeping points
    WALKOVER = "walkover"  # one side never played (no-show, withdrawal): no score, unrated
    BYE = "bye"  # no opponent at all: a free win, unrated
    DOUBLE_FORFEIT = "double_forfeit"  # neither side played: nobody wins


# Results that were played over the board (whole or in part) and go into ratings.
RATED_KINDS = frozenset({OutcomeKind.PLAYED, OutcomeKind.TIMEOUT})
# Results where at least one side did not play: tie-breaks treat them apart (FIDE 2009).
UNPLAYED_KINDS = frozenset({OutcomeKind.WALKOVER, OutcomeKind.BYE, OutcomeKind.DOUBLE_FORFEIT})


class CompetitionError(ValueError):
    """A rule of the competition refuses the request; nothing was changed.

    Messages are for developers and logs; players read a sentence chosen from the error's
    class by :mod:`bot.present.competitions`.
    """


class ResultError(CompetitionError):
    """A result that does not fit the match (wrong players, impossible scores)."""


class ResultConflict(CompetitionError):
    """A match already has a different result: results are written once (see
    :meth:`Result.same_as`); recording the same result again is allowed and changes
    nothing, which is what makes advancing idempotent."""


class NotReady(CompetitionError):
    """The match cannot be decided yet: a player is still unknown."""


class UnknownMatch(CompetitionError):
    """No match with that key in this competition."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player: ``rating`` is the server's FIBS rating, None when unrated."""

    player: PlayerId
    rating: float | None = None


@dataclass(frozen=True, slots=True)
class Result:
    """How one match ended.

    ``winner`` and ``loser`` are None only for a double forfeit (and ``loser`` for a bye).
    ``score`` is (winner's points, loser's points) for played and timed-out matches and
    None otherwise: a walkover is never written as a score. Build with the class methods.
    """

    kind: OutcomeKind
    winner: PlayerId | None
    loser: PlayerId | None
    score: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        kind = self.kind
        if kind is OutcomeKind.DOUBLE_FORFEIT:
            if self.winner is not None or self.score is not None:
                raise ResultError("a double forfeit has no winner and no score")
            return
        if self.winner is None:
            raise ResultError(f"a {kind} result needs a winner")
        if kind is OutcomeKind.BYE:
            if self.loser is not None or self.score is not None:
                raise ResultError("a bye has no opponent and no score")
            return
        if self.loser is None or self.loser == self.winner:
            raise ResultError(f"a {kind} result needs two different players")
        if kind is OutcomeKind.WALKOVER:
            if self.score is not None:
                raise ResultError("a walkover is never written as a score")
            return
        if self.score is None:
            raise ResultError(f"a {kind} result needs the score")
        won, lost = self.score
        if lost < 0 or (kind is OutcomeKind.PLAYED and won <= lost):
            raise ResultError(f"the winner's score must be higher: {self.score}")

    @classmethod
    def played(cls, winner: PlayerId, loser: PlayerId, score: tuple[int, int]) -> Result:
        return cls(OutcomeKind.PLAYED, winner, loser, score)

    @classmethod
    def timeout(cls, winner: PlayerId, loser: PlayerId, score: tuple[int, int]) -> Result:
        return cls(OutcomeKind.TIMEOUT, winner, loser, score)

    @classmethod
    def walkover(cls, winner: PlayerId, loser: PlayerId) -> Result:
        return cls(OutcomeKind.WALKOVER, winner, loser)

    @classmethod
    def bye(cls, winner: PlayerId) -> Result:
        return cls(OutcomeKind.BYE, winner, None)

    @classmethod
    def double_forfeit(cls) -> Result:
        return cls(OutcomeKind.DOUBLE_FORFEIT, None, None)

    @property
    def rated(self) -> bool:
        """Whether the match counts for ratings: only games played over the board."""
        return self.kind in RATED_KINDS

    @property
    def played_over_board(self) -> bool:
        return self.kind not in UNPLAYED_KINDS

    def points_for(self, player: PlayerId) -> float:
        """The competition point this result gives ``player``: 1 for a win of any kind."""
        return 1.0 if player == self.winner else 0.0

    def same_as(self, other: Result) -> bool:
        """Whether ``other`` records the same outcome (so recording it again is a no-op)."""
        return self == other


@dataclass(frozen=True, slots=True)
class Pairing:
    """Two players meeting in a round; ``b`` is None for a bye."""

    a: PlayerId
    b: PlayerId | None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.a,) if self.b is None else (self.a, self.b)

    def check(self, result: Result) -> None:
        """Raise :class:`ResultError` unless ``result`` is about these two players."""
        if self.b is None:
            if result.kind is not OutcomeKind.BYE or result.winner != self.a:
                raise ResultError(f"a bye for {self.a} can only be a bye, not {result}")
            return
        if result.kind is OutcomeKind.BYE:
            raise ResultError(f"{self.a} and {self.b} have an opponent: no bye")
        if result.kind is OutcomeKind.DOUBLE_FORFEIT:
            return
        if {result.winner, result.loser} != {self.a, self.b}:
            raise ResultError(f"{result} is not about {self.a} and {self.b}")


def match_length(schedule: tuple[int, ...], round_number: int, rounds: int) -> int:
    """The match length of round ``round_number`` (1-based) of ``rounds``.

    The schedule is read back from the final: its last entry is the last round's length,
    the one before it the round before, and rounds before the schedule's start take its
    first entry. So (5, 5, 7, 9) gives 5, 5, 7, 9 over four rounds, 5, 5, 5, 7, 9 over
    five and 7, 9 over two; a one-entry schedule is that length throughout.

    >>> [match_length((5, 5, 7, 9), r, 5) for r in range(1, 6)]
    [5, 5, 5, 7, 9]
    >>> [match_length((5, 5, 7, 9), r, 2) for r in (1, 2)]
    [7, 9]
    """
    if not schedule or any(length < 1 for length in schedule):
        raise ValueError(f"a schedule is one or more positive lengths, not {schedule}")
    if not 1 <= round_number <= rounds:
        raise ValueError(f"round {round_number} is not in 1-{rounds}")
    from_end = rounds - round_number  # 0 = the last round
    index = len(schedule) - 1 - from_end
    return schedule[max(0, index)]


@dataclass(frozen=True, slots=True, order=True)
class RoundKey:
    """A match of a round-based event (Swiss, round robin): its round (1-based) and its
    table in the round (0-based). Prints as ``2:3`` and parses back."""

    round: int
    index: int

    def __str__(self) -> str:
        return f"{self.round}:{self.index}"

    @classmethod
    def parse(cls, text: str) -> RoundKey:
        try:
            round_text, index_text = text.split(":")
            return cls(int(round_text), int(index_text))
        except ValueError:
            raise UnknownMatch(f"not a match key: {text!r}") from None


@dataclass(frozen=True, slots=True)
class Game:
    """A decided match of a round-based event, as the standings read it."""

    round: int
    pairing: Pairing
    result: Result
    length: int
