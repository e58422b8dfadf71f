"""A challenge ladder: a standing order that changes one challenge at a time.

The rules (the design notes' F4, from the RAC ladder, Gamecolony and the Discord ladder
bots), each a field of :class:`LadderRules`:

- a player may challenge someone up to ``reach`` places above (default 3);
- one outgoing challenge at a time, at most ``max_incoming`` (3) waiting on a player;
- the challenged player accepts within ``accept_within``, or the challenger takes the
  place (a walkover: unrated); refusing is the same as letting the time run out;
- the challenger wins -> takes the defender's place and the defender drops one (everyone
  between moves down one); the challenger loses -> drops one place and the defender
  rises one (``loser_drops``, ``defender_rises``); a double forfeit changes nothing;
- an accepted match unfinished at its deadline is decided by
  :func:`bot.features.tournaments.rules.deadlines.decide_at_deadline` and recorded like any result;
- new players start at the bottom; a player who leaves is removed, everyone below moves
  up one, and their challenges are cancelled.

Times are inputs (aware datetimes); nothing here reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum

from bot.features.tournaments.rules.model import (
    CompetitionError,
    OutcomeKind,
    Pairing,
    PlayerId,
    Result,
    ResultConflict,
    ResultError,
)


class NotOnLadder(CompetitionError):
    """The player is not on the ladder (or is already on it, for joining)."""


class OutOfReach(CompetitionError):
    """The defender is not within reach above the challenger."""


class ChallengeLimit(CompetitionError):
    """The challenger already has a challenge out, or the defender has too many waiting."""


class ChallengeClosed(CompetitionError):
    """The challenge is not in a state that allows this (or its time has passed)."""


class NotYourChallenge(CompetitionError):
    """Only the challenged player may accept or refuse; only the challenger may withdraw."""


class ChallengeState(StrEnum):
    PENDING = "pending"  # waiting for the defender to accept
    ACCEPTED = "accepted"  # the match is on
    DONE = "done"  # decided (``result``)
    CANCELLED = "cancelled"  # withdrawn, or a player left the ladder


@dataclass(frozen=True, slots=True)
class LadderRules:
    reach: int = 3
    max_incoming: int = 3
    accept_within: timedelta = timedelta(days=7)
    play_within: timedelta = timedelta(days=7)
    loser_drops: bool = True
    defender_rises: bool = True

    def __post_init__(self) -> None:
        if self.reach < 1 or self.max_incoming < 1:
            raise ValueError("reach and max_incoming are at least 1")


@dataclass(frozen=True, slots=True)
class Challenge:
    id: int
    challenger: PlayerId
    defender: PlayerId
    issued_at: datetime
    accept_by: datetime
    state: ChallengeState = ChallengeState.PENDING
    play_by: datetime | None = None
    result: Result | None = None

    @property
    def open(self) -> bool:
        return self.state in (ChallengeState.PENDING, ChallengeState.ACCEPTED)

    @property
    def pairing(self) -> Pairing:
        return Pairing(self.challenger, self.defender)


@dataclass(frozen=True, slots=True)
class Ladder:
    """The ranking (first = top) and every challenge ever issued."""

    rules: LadderRules = LadderRules()
    ranking: tuple[PlayerId, ...] = ()
    challenges: tuple[Challenge, ...] = ()

    # --- reading --------------------------------------------------------------------------

    def place(self, player: PlayerId) -> int:
        """1-based place on the ladder."""
        try:
            return self.ranking.index(player) + 1
        except ValueError:
            raise NotOnLadder(f"{player} is not on the ladder") from None

    def challenge(self, challenge_id: int) -> Challenge:
        for challenge in self.challenges:
            if challenge.id == challenge_id:
                return challenge
        raise ChallengeClosed(f"no challenge {challenge_id}")

    def open_challenges(self) -> tuple[Challenge, ...]:
        return tuple(c for c in self.challenges if c.open)

    def outgoing(self, player: PlayerId) -> Challenge | None:
        return next((c for c in self.open_challenges() if c.challenger == player), None)

    def incoming(self, player: PlayerId) -> tuple[Challenge, ...]:
        return tuple(c for c in self.open_challenges() if c.defender == player)

    def can_challenge(self, challenger: PlayerId) -> tuple[PlayerId, ...]:
        """Whom ``challenger`` may challenge now (for a menu), best first."""
        if challenger not in self.ranking or self.outgoing(challenger) is not None:
            return ()
        index = self.ranking.index(challenger)
        reachable = self.ranking[max(0, index - self.rules.reach) : index]
        return tuple(d for d in reachable if len(self.incoming(d)) < self.rules.max_incoming)

    # --- membership -----------------------------------------------------------------------

    def join(self, player: PlayerId) -> Ladder:
        """A new player starts at the bottom."""
        if player in self.ranking:
            raise NotOnLadder(f"{player} is already on the ladder")
        return replace(self, ranking=(*self.ranking, player))

    def leave(self, player: PlayerId) -> Ladder:
        """Removed; everyone below moves up one; their open challenges are cancelled."""
        self.place(player)
        challenges = tuple(
            replace(c, state=ChallengeState.CANCELLED)
            if c.open and player in (c.challenger, c.defender)
            else c
            for c in self.challenges
        )
        ranking = tuple(p for p in self.ranking if p != player)
        return replace(self, ranking=ranking, challenges=challenges)

    # --- challenges -----------------------------------------------------------------------

    def issue(
        self, challenger: PlayerId, defender: PlayerId, now: datetime
    ) -> tuple[Ladder, Challenge]:
        """A new challenge, waiting for the defender until ``now + accept_within``."""
        below, above = self.place(challenger), self.place(defender)
        if not 1 <= below - above <= self.rules.reach:
            raise OutOfReach(
                f"{defender} (place {above}) is not within {self.rules.reach} above {below}"
            )
        if self.outgoing(challenger) is not None:
            raise ChallengeLimit(f"{challenger} already has a challenge out")
        if len(self.incoming(defender)) >= self.rules.max_incoming:
            raise ChallengeLimit(f"{defender} already has {self.rules.max_incoming} waiting")
        challenge = Challenge(
            id=1 + max((c.id for c in self.challenges), default=0),
            challenger=challenger,
            defender=defender,
            issued_at=now,
            accept_by=now + self.rules.accept_within,
        )
        return replace(self, challenges=(*self.challenges, challenge)), challenge

    def _update(self, updated: Challenge) -> Ladder:
        return replace(
            self,
            challenges=tuple(updated if c.id == updated.id else c for c in self.challenges),
        )

    def accept(self, challenge_id: int, player: PlayerId, now: datetime) -> Ladder:
        challenge = self.challenge(challenge_id)
        if player != challenge.defender:
            raise NotYourChallenge(f"{player} is not the challenged player")
        if challenge.state is ChallengeState.ACCEPTED:
            return self  # a second click
        if challenge.state is not ChallengeState.PENDING or now > challenge.accept_by:
            raise ChallengeClosed(f"challenge {challenge_id} can no longer be accepted")
        return self._update(
            replace(
                challenge,
                state=ChallengeState.ACCEPTED,
                play_by=now + self.rules.play_within,
            )
        )

    def refuse(self, challenge_id: int, player: PlayerId) -> Ladder:
        """Refusing is letting the time run out: the challenger takes the place."""
        challenge = self.challenge(challenge_id)
        if player != challenge.defender:
            raise NotYourChallenge(f"{player} is not the challenged player")
        if challenge.state is not ChallengeState.PENDING:
            raise ChallengeClosed(f"challenge {challenge_id} is {challenge.state}")
        return self.record(challenge_id, Result.walkover(challenge.challenger, challenge.defender))

    def withdraw(self, challenge_id: int, player: PlayerId) -> Ladder:
        """The challenger takes the challenge back before it is accepted."""
        challenge = self.challenge(challenge_id)
        if player != challenge.challenger:
            raise NotYourChallenge(f"{player} did not issue challenge {challenge_id}")
        if challenge.state is not ChallengeState.PENDING:
            raise ChallengeClosed(f"challenge {challenge_id} is {challenge.state}")
        return self._update(replace(challenge, state=ChallengeState.CANCELLED))

    def expire(self, now: datetime) -> Ladder:
        """Every challenge not accepted by its time: the challenger takes the place."""
        ladder = self
        for challenge in self.challenges:
            if challenge.state is ChallengeState.PENDING and now > challenge.accept_by:
                walkover = Result.walkover(challenge.challenger, challenge.defender)
                ladder = ladder.record(challenge.id, walkover)
        return ladder

    def overdue(self, now: datetime) -> tuple[Challenge, ...]:
        """Accepted matches past their time, to be decided by the deadline rule."""
        return tuple(
            c
            for c in self.challenges
            if c.state is ChallengeState.ACCEPTED and c.play_by is not None and now > c.play_by
        )

    def record(self, challenge_id: int, result: Result) -> Ladder:
        """Apply a challenge's result to the ranking. Idempotent: the same result again
        changes nothing; a different one raises :class:`ResultConflict`."""
        challenge = self.challenge(challenge_id)
        if challenge.state is ChallengeState.DONE:
            assert challenge.result is not None
            if challenge.result.same_as(result):
                return self
            raise ResultConflict(f"challenge {challenge_id} already has {challenge.result}")
        if challenge.state is ChallengeState.CANCELLED:
            raise ChallengeClosed(f"challenge {challenge_id} was cancelled")
        if challenge.state is ChallengeState.PENDING and result.kind is not OutcomeKind.WALKOVER:
            raise ResultError(f"challenge {challenge_id} was not accepted: no match was played")
        challenge.pairing.check(result)
        ladder = self._update(replace(challenge, state=ChallengeState.DONE, result=result))
        return replace(ladder, ranking=self._moved(challenge, result))

    def _moved(self, challenge: Challenge, result: Result) -> tuple[PlayerId, ...]:
        ranking = list(self.ranking)
        c, d = challenge.challenger, challenge.defender
        if c not in ranking or d not in ranking or result.winner is None:
            return self.ranking
        if result.winner == c:
            if ranking.index(c) > ranking.index(d):  # not already above by other results
                ranking.remove(c)
                ranking.insert(ranking.index(d), c)
            return tuple(ranking)
        if self.rules.defender_rises and ranking.index(d) > 0:
            i = ranking.index(d)
            ranking[i - 1], ranking[i] = ranking[i], ranking[i - 1]
        if self.rules.loser_drops and ranking.index(c) < len(ranking) - 1:
            i = ranking.index(c)
            ranking[i], ranking[i + 1] = ranking[i + 1], ranking[i]
        return tuple(ranking)
