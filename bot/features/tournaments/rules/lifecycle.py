"""A competition's life: draft -> registration -> (check-in) -> running -> finished.

Two values: :class:`Phase` with the table of allowed :class:`Step` s between phases, and
:class:`Registration`, the list of entrants while sign-up is open. Both are immutable:
each step returns a new value or raises a
:class:`~bot.features.tournaments.rules.model.CompetitionError`
subclass and changes nothing. The draw happens at the start, never during registration
(pokemon-showdown PR #2240: it ended "annoying enter/leave nonsense").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from bot.features.tournaments.rules.model import CompetitionError, Entrant, PlayerId


class Phase(StrEnum):
    DRAFT = "draft"  # the TD is still setting it up; nobody sees it
    REGISTRATION = "registration"  # announced, players join and leave
    CHECK_IN = "check_in"  # entrants confirm they are here; the others are dropped at start
    RUNNING = "running"  # drawn and being played
    FINISHED = "finished"
    CANCELLED = "cancelled"


class Step(StrEnum):
    OPEN = "open"  # draft -> registration
    CHECK_IN = "check_in"  # registration -> check-in
    START = "start"  # registration or check-in -> running (the draw)
    FINISH = "finish"  # running -> finished
    CANCEL = "cancel"  # any phase not over -> cancelled


TRANSITIONS: dict[tuple[Phase, Step], Phase] = {
    (Phase.DRAFT, Step.OPEN): Phase.REGISTRATION,
    (Phase.DRAFT, Step.CANCEL): Phase.CANCELLED,
    (Phase.REGISTRATION, Step.CHECK_IN): Phase.CHECK_IN,
    (Phase.REGISTRATION, Step.START): Phase.RUNNING,
    (Phase.REGISTRATION, Step.CANCEL): Phase.CANCELLED,
    (Phase.CHECK_IN, Step.START): Phase.RUNNING,
    (Phase.CHECK_IN, Step.CANCEL): Phase.CANCELLED,
    (Phase.RUNNING, Step.FINISH): Phase.FINISHED,
    (Phase.RUNNING, Step.CANCEL): Phase.CANCELLED,
}
OVER = frozenset({Phase.FINISHED, Phase.CANCELLED})


class IllegalTransition(CompetitionError):
    """The step is not allowed in the competition's phase."""

    def __init__(self, phase: Phase, step: Step) -> None:
        super().__init__(f"cannot {step} a competition in phase {phase}")
        self.phase = phase
        self.step = step


class RegistrationClosed(CompetitionError):
    """Joining or leaving outside registration (or check-in, for leaving)."""


class EventFull(CompetitionError):
    """The competition already has its maximum number of entrants."""


class AlreadyEntered(CompetitionError):
    """The player is already an entrant (or already checked in)."""


class NotEntered(CompetitionError):
    """The player is not an entrant."""


class TooFewPlayers(CompetitionError):
    """Starting needs at least :data:`MIN_PLAYERS` entrants (checked in, with check-in)."""


MIN_PLAYERS = 2


def advance(phase: Phase, step: Step) -> Phase:
    """The phase after ``step``, or :class:`IllegalTransition`.

    >>> advance(Phase.DRAFT, Step.OPEN)
    <Phase.REGISTRATION: 'registration'>
    """
    try:
        return TRANSITIONS[(phase, step)]
    except KeyError:
        raise IllegalTransition(phase, step) from None


def allowed_steps(phase: Phase) -> tuple[Step, ...]:
    """The steps a TD may take in ``phase`` (for the buttons a front end shows)."""
    return tuple(step for (source, step) in TRANSITIONS if source is phase)


@dataclass(frozen=True, slots=True)
class Registration:
    """Who has joined, in order of joining, and who has checked in.

    ``max_players`` None means no limit. Late entries after the start are each format's
    own rule (see the format modules), not this value's.
    """

    phase: Phase = Phase.DRAFT
    entrants: tuple[Entrant, ...] = ()
    checked_in: frozenset[PlayerId] = frozenset()
    max_players: int | None = None

    def step(self, step: Step) -> Registration:
        """Take a lifecycle step; starting checks there are enough players."""
        phase = advance(self.phase, step)
        if step is Step.START and len(self.field()) < MIN_PLAYERS:
            raise TooFewPlayers(f"{len(self.field())} players, at least {MIN_PLAYERS} needed")
        if step is Step.START:  # those who did not check in are removed now
            return replace(self, phase=phase, entrants=self.field())
        return replace(self, phase=phase)

    def _find(self, player: PlayerId) -> Entrant | None:
        return next((e for e in self.entrants if e.player == player), None)

    def join(self, entrant: Entrant) -> Registration:
        if self.phase is not Phase.REGISTRATION:
            raise RegistrationClosed(f"joining is closed in phase {self.phase}")
        if self._find(entrant.player) is not None:
            raise AlreadyEntered(f"{entrant.player} has already joined")
        if self.max_players is not None and len(self.entrants) >= self.max_players:
            raise EventFull(f"the limit is {self.max_players} players")
        return replace(self, entrants=(*self.entrants, entrant))

    def leave(self, player: PlayerId) -> Registration:
        """Leave before the start (during registration or check-in)."""
        if self.phase not in (Phase.REGISTRATION, Phase.CHECK_IN):
            raise RegistrationClosed(f"leaving is closed in phase {self.phase}")
        if self._find(player) is None:
            raise NotEntered(f"{player} has not joined")
        return replace(
            self,
            entrants=tuple(e for e in self.entrants if e.player != player),
            checked_in=self.checked_in - {player},
        )

    def check_in(self, player: PlayerId) -> Registration:
        if self.phase is not Phase.CHECK_IN:
            raise RegistrationClosed(f"check-in is closed in phase {self.phase}")
        if self._find(player) is None:
            raise NotEntered(f"{player} has not joined")
        if player in self.checked_in:
            raise AlreadyEntered(f"{player} has already checked in")
        return replace(self, checked_in=self.checked_in | {player})

    def drop(self, players: frozenset[PlayerId]) -> Registration:
        """Remove entrants found gone before the draw (left the server): no error for a
        player who is not there, since the check may run twice."""
        return replace(
            self,
            entrants=tuple(e for e in self.entrants if e.player not in players),
            checked_in=self.checked_in - players,
        )

    def field(self) -> tuple[Entrant, ...]:
        """Who plays if the competition starts now: with a check-in, only those who checked
        in (the others are removed at the start, as Tourney Bot and Clutch do)."""
        if self.phase is Phase.CHECK_IN:
            return tuple(e for e in self.entrants if e.player in self.checked_in)
        return self.entrants
