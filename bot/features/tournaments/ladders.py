"""A server's challenge ladder, run by the bot: join, challenge, accept or refuse, the match
opened by itself, the result read from the game, timeouts decided by the ladder's rules.

:class:`LadderService` keeps each server's ladder as one versioned JSON value
(:mod:`bot.storage.competitions`: ``ladders``) holding the competition core's
:class:`~bot.features.tournaments.rules.Ladder` (the ranking and every challenge), the players'
names and the bot's match of each accepted challenge. Every change reads the value, applies one rule
of the core, and writes it back only if nobody wrote it meanwhile (else it tries again on the
fresh value), so two processes never lose each other's changes. Results come from
:class:`~bot.core.facts.MatchOver`; a challenge not accepted in time is the challenger's by
walkover (refusing is the same), an accepted match unfinished at its time is decided by the
league rule (:func:`bot.features.tournaments.rules.decide_at_deadline`). Pure of Discord: what it
needs of a front end is a :class:`LadderHost`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from bot.core.errors import CompetitionRefusal, ConflictError, UserError
from bot.core.facts import Fact, MatchOver
from bot.core.reports import Player, Report
from bot.core.session import SessionService
from bot.engine import MatchOptions
from bot.features.tournaments.formats import activity_of, result_of_match
from bot.features.tournaments.refusals import refused
from bot.features.tournaments.rules import (
    Challenge,
    ChallengeState,
    CompetitionError,
    Ladder,
    LadderRules,
    OutcomeKind,
    Result,
    decide_at_deadline,
)
from bot.storage.competitions import CompetitionStorage

log = logging.getLogger(__name__)

LADDER_LENGTH = 7  # the RAC ladder's match length (design notes, F4)
RETRIES = 5


@dataclass(frozen=True)
class LadderState:
    """What is stored for a server's ladder: the core's value and what the bot adds."""

    channel_id: int
    ladder: Ladder
    names: dict[int, str] = field(default_factory=dict)
    matches: dict[int, tuple[int, int]] = field(default_factory=dict)  # challenge: (match, channel)
    length: int = LADDER_LENGTH

    def dumps(self) -> str:
        def stamp(at: datetime | None) -> float | None:
            return None if at is None else at.timestamp()

        def result(r: Result | None) -> list[Any] | None:
            if r is None:
                return None
            return [str(r.kind), r.winner, r.loser, list(r.score) if r.score else None]

        return json.dumps(
            {
                "length": self.length,
                "ranking": list(self.ladder.ranking),
                "names": {str(k): v for k, v in self.names.items()},
                "matches": {str(k): list(v) for k, v in self.matches.items()},
                "challenges": [
                    {
                        "id": c.id,
                        "challenger": c.challenger,
                        "defender": c.defender,
                        "issued_at": stamp(c.issued_at),
                        "accept_by": stamp(c.accept_by),
                        "state": str(c.state),
                        "play_by": stamp(c.play_by),
                        "result": result(c.result),
                    }
                    for c in self.ladder.challenges
                ],
            },
            sort_keys=True,
        )

    @classmethod
    def loads(cls, channel_id: int, text: str) -> LadderState:
        data = json.loads(text)

        def at(value: float | None) -> datetime | None:
            return None if value is None else datetime.fromtimestamp(value, UTC)

        def result(value: list[Any] | None) -> Result | None:
            if value is None:
                return None
            kind, winner, loser, score = value
            return Result(OutcomeKind(kind), winner, loser, tuple(score) if score else None)

        challenges = tuple(
            Challenge(
                id=c["id"],
                challenger=c["challenger"],
                defender=c["defender"],
                issued_at=datetime.fromtimestamp(c["issued_at"], UTC),
                accept_by=datetime.fromtimestamp(c["accept_by"], UTC),
                state=ChallengeState(c["state"]),
                play_by=at(c["play_by"]),
                result=result(c["result"]),
            )
            for c in data["challenges"]
        )
        ladder = Ladder(LadderRules(), tuple(data["ranking"]), challenges)
        return cls(
            channel_id,
            ladder,
            {int(k): v for k, v in data["names"].items()},
            {int(k): (v[0], v[1]) for k, v in data["matches"].items()},
            int(data.get("length", LADDER_LENGTH)),
        )


@dataclass(frozen=True, slots=True)
class LadderNews:
    """Something that happened on a server's ladder, for the front end to post.

    ``kind``: "challenge" (issued: Accept/Refuse buttons), "opened" (the match is on:
    ``report`` is its opening board), "result" (decided: ``result``, ``reason``; a
    director's ruling: ``reason`` "decided", ``director`` and ``why``),
    "left" (a player left the ladder).
    """

    guild_id: int
    state: LadderState
    kind: str
    challenge: Challenge | None = None
    report: Report | None = None
    result: Result | None = None
    reason: str = ""
    thread: int | None = None
    director: str | None = None  # a director's ruling ("decided"): who, and ``why``
    why: str = ""


class LadderHost(Protocol):
    async def open_thread(self, channel_id: int, title: str) -> int | None: ...

    async def tell(self, news: LadderNews) -> None: ...

    async def present(self, guild_id: int, user_id: int) -> bool: ...


class NoLadderHost:
    async def open_thread(self, channel_id: int, title: str) -> int | None:
        return None

    async def tell(self, news: LadderNews) -> None:
        return None

    async def present(self, guild_id: int, user_id: int) -> bool:
        return True


Change = Callable[[LadderState], LadderState]


class LadderService:
    """Every server's ladder."""

    def __init__(
        self,
        store: CompetitionStorage,
        session: SessionService,
        *,
        clock: Callable[[], float],
        host: LadderHost | None = None,
    ) -> None:
        self.store = store
        self.session = session
        self.clock = clock
        self.host: LadderHost = host or NoLadderHost()
        session.facts.subscribe(self.on_facts)

    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    async def state(self, guild_id: int) -> LadderState | None:
        found = await self.store.ladder_state(guild_id)
        return None if found is None else LadderState.loads(found[0], found[1])

    async def _change(self, guild_id: int, channel_id: int, change: Change) -> LadderState:
        """Apply ``change`` to the stored ladder (a new one if none) and store it, retrying
        on a concurrent write; a refused rule becomes the player's private error."""
        for _attempt in range(RETRIES):
            found = await self.store.ladder_state(guild_id)
            if found is None:
                before = LadderState(channel_id, Ladder(), length=LADDER_LENGTH)
                version = None
            else:
                before, version = LadderState.loads(found[0], found[1]), found[2]
            try:
                after = change(before)
            except CompetitionError as exc:
                raise refused(exc) from exc
            try:
                await self.store.save_ladder(guild_id, after.channel_id, after.dumps(), version)
            except ConflictError:
                continue
            return after
        raise ConflictError()

    # --- players -------------------------------------------------------------------------

    async def join(self, guild_id: int, channel_id: int, player: Player) -> LadderState:
        def change(state: LadderState) -> LadderState:
            names = {**state.names, player.id: player.name[:60]}
            return replace(state, ladder=state.ladder.join(player.id), names=names)

        return await self._change(guild_id, channel_id, change)

    async def leave(self, guild_id: int, player: int) -> LadderState:
        state = await self._change(guild_id, 0, lambda s: replace(s, ladder=s.ladder.leave(player)))
        await self.host.tell(
            LadderNews(guild_id, state, "left", reason=state.names.get(player, ""))
        )
        return state

    async def challenge(self, guild_id: int, challenger: Player, defender: int) -> LadderState:
        if not await self.host.present(guild_id, defender):
            await self.leave(guild_id, defender)
            raise UserError(CompetitionRefusal.LEFT_LADDER)
        issued: list[Challenge] = []

        def change(state: LadderState) -> LadderState:
            ladder, made = state.ladder.issue(challenger.id, defender, self._now())
            issued[:] = [made]
            return replace(state, ladder=ladder)

        state = await self._change(guild_id, 0, change)
        await self.host.tell(LadderNews(guild_id, state, "challenge", issued[0]))
        return state

    async def answer(self, guild_id: int, challenge_id: int, player: Player, accept: bool) -> None:
        """The challenged player accepts (the match opens) or refuses (a walkover)."""
        now = self._now()

        def change(state: LadderState) -> LadderState:
            if accept:
                return replace(state, ladder=state.ladder.accept(challenge_id, player.id, now))
            return replace(state, ladder=state.ladder.refuse(challenge_id, player.id))

        state = await self._change(guild_id, 0, change)
        challenge = state.ladder.challenge(challenge_id)
        if not accept:
            await self.host.tell(
                LadderNews(
                    guild_id, state, "result", challenge, result=challenge.result, reason="refused"
                )
            )
            return
        if challenge_id in state.matches:
            return  # a second click
        await self._open(guild_id, state, challenge)

    async def _open(self, guild_id: int, state: LadderState, challenge: Challenge) -> None:
        names = state.names
        first = Player(challenge.challenger, names.get(challenge.challenger, "?"))
        second = Player(challenge.defender, names.get(challenge.defender, "?"))
        title = f"{first.name} vs {second.name}"
        thread = await self.host.open_thread(state.channel_id, title)
        channel = thread or state.channel_id
        options = MatchOptions(length=state.length)
        await self.session.challenge(guild_id, channel, first, second, options, rated=True)
        report = await self.session.accept(channel, second)

        def note(s: LadderState) -> LadderState:
            return replace(s, matches={**s.matches, challenge.id: (report.match.id, channel)})

        state = await self._change(guild_id, 0, note)
        await self.host.tell(
            LadderNews(guild_id, state, "opened", challenge, report=report, thread=thread)
        )

    # --- results and time ------------------------------------------------------------------

    async def on_facts(self, facts: Sequence[Fact]) -> None:
        for fact in facts:
            if isinstance(fact, MatchOver) and fact.winner_id is not None:
                await self._match_over(fact)

    async def _match_over(self, fact: MatchOver) -> None:
        guild_id = fact.match.guild_id
        state = await self.state(guild_id)
        if state is None:
            return
        found = [c for c, (m, _ch) in state.matches.items() if m == fact.match.id]
        if not found:
            return
        challenge = state.ladder.challenge(found[0])
        if challenge.state is not ChallengeState.ACCEPTED:
            return
        from bot.storage.competition_rows import PairingRow

        pairing = PairingRow("ladder", 1, challenge.challenger, challenge.defender, state.length)
        winner = fact.winner_id
        assert winner is not None
        result = result_of_match(
            pairing, winner, fact.final_score, fact.reason, fact.match.player_ids[0]
        )
        await self._record(guild_id, challenge.id, result, "played")

    async def _record(self, guild_id: int, challenge_id: int, result: Result, reason: str) -> None:
        def change(state: LadderState) -> LadderState:
            return replace(state, ladder=state.ladder.record(challenge_id, result))

        try:
            state = await self._change(guild_id, 0, change)
        except UserError:
            return  # already decided (another process, or the clock)
        challenge = state.ladder.challenge(challenge_id)
        await self.host.tell(
            LadderNews(guild_id, state, "result", challenge, result=result, reason=reason)
        )

    async def tick(self, guild_ids: Sequence[int]) -> None:
        """Challenges not accepted in time go to the challenger; players gone from the
        server leave the ladder; overdue matches are decided by the deadline rule."""
        now = self._now()
        for guild_id in guild_ids:
            state = await self.state(guild_id)
            if state is None:
                continue
            for challenge in state.ladder.open_challenges():
                for player in (challenge.challenger, challenge.defender):
                    if not await self.host.present(guild_id, player):
                        await self.leave(guild_id, player)
                        state = await self.state(guild_id) or state
            for challenge in state.ladder.open_challenges():
                if challenge.state is ChallengeState.PENDING and now > challenge.accept_by:
                    walkover = Result.walkover(challenge.challenger, challenge.defender)
                    await self._record(guild_id, challenge.id, walkover, "timeout")
            for challenge in state.ladder.overdue(now):
                await self._overdue(guild_id, state, challenge)

    async def decide(self, guild_id: int, director: Player, winner: int, reason: str) -> None:
        """A director gives ``winner``'s accepted ladder match to them (a walkover) and ends
        its game: the ruling the deadline rule leaves to a person when both players were
        active at the play-by time (it lets them play on), or at any time for cause. The
        reason is posted with the result; a director never rules on their own match."""
        why = " ".join(reason.split())[:200]
        if not why:
            raise UserError(CompetitionRefusal.SAY_WHY)
        state = await self.state(guild_id)
        found = [
            c
            for c in (state.ladder.open_challenges() if state is not None else ())
            if c.state is ChallengeState.ACCEPTED and winner in (c.challenger, c.defender)
        ]
        if state is None or not found:
            raise UserError(CompetitionRefusal.NO_LADDER_MATCH)
        challenge = found[0]
        if director.id in (challenge.challenger, challenge.defender):
            raise UserError(CompetitionRefusal.OWN_MATCH)
        loser = challenge.defender if winner == challenge.challenger else challenge.challenger
        result = Result.walkover(winner, loser)

        def change(s: LadderState) -> LadderState:
            return replace(s, ladder=s.ladder.record(challenge.id, result))

        state = await self._change(guild_id, 0, change)
        match_id, channel = state.matches.get(challenge.id, (0, 0))
        match = await self.session.match(match_id) if match_id else None
        if match is not None and match.live:
            try:
                await self.session.cancel(channel, Player(0, "ladder"))
            except UserError:
                log.warning("ladder %s: could not end match %s", guild_id, match_id)
        await self.host.tell(
            LadderNews(
                guild_id,
                state,
                "result",
                state.ladder.challenge(challenge.id),
                result=result,
                reason="decided",
                director=director.name,
                why=why,
            )
        )

    @staticmethod
    def rules_play_within(state: LadderState) -> timedelta:
        return state.ladder.rules.play_within

    async def _overdue(self, guild_id: int, state: LadderState, challenge: Challenge) -> None:
        """An accepted match past its time: the stalled player loses (a timeout), nobody
        moved: a double forfeit; both active: the challenger's match is given more time."""
        match_id, channel = state.matches.get(challenge.id, (0, 0))
        match = await self.session.match(match_id)
        if match is None or not match.live or challenge.play_by is None:
            return
        events = await self.session.events(match.id)
        accepted_at = challenge.play_by - self.rules_play_within(state)
        first, second = activity_of(match, events, accepted_at.timestamp())
        decision = decide_at_deadline(
            first, second, length=state.length, deadline=challenge.play_by
        )
        if decision.result is None:
            return  # both active: play on
        await self._record(guild_id, challenge.id, decision.result, decision.verdict.value)
        try:
            await self.session.cancel(channel, Player(0, "ladder"))
        except UserError:
            log.warning("ladder %s: could not end match %s", guild_id, match_id)


def ranking_names(state: LadderState) -> list[tuple[int, str]]:
    return [(i + 1, state.names.get(p, str(p))) for i, p in enumerate(state.ladder.ranking)]


Present = Callable[[int, int], Awaitable[bool]]

__all__ = ["LadderHost", "LadderNews", "LadderService", "LadderState", "NoLadderHost"]
