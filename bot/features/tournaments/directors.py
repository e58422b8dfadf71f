"""The tournament director's tools: decide, extend, pause, remove, replace, cancel.

:class:`DirectorTools` is composed into :class:`bot.features.tournaments.service.TournamentService`
(its ``directors``) and works through the service's public face: the event as stored, settling
a match, advancing the event. Whoever calls these has been checked as a director by the
front end; the rules here are the event's own: a director never rules on their own match,
a decision says why, bad input is refused (a typed refusal) and changes nothing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.core.errors import CompetitionRefusal, UserError
from bot.core.reports import Player, Report
from bot.features.tournaments.news import EventCancelled
from bot.features.tournaments.rules import Phase, Result
from bot.features.tournaments.rules.lifecycle import OVER
from bot.storage.competition_rows import EntrantRow, PairingRow, TournamentRow

if TYPE_CHECKING:
    from bot.features.tournaments.service import TournamentService

log = logging.getLogger(__name__)
Why = CompetitionRefusal
MAX_NAME = 60


class DirectorTools:
    """What a tournament director may do to a running (or open) event."""

    def __init__(self, events: TournamentService) -> None:
        self.events = events

    async def _running(self, tournament_id: int, guild_id: int) -> TournamentRow:
        row = await self.events.event(tournament_id, guild_id)
        if row.phase is not Phase.RUNNING:
            raise UserError(Why.NOT_RUNNING)
        return row

    async def _open_pairing(self, row: TournamentRow, player: int) -> PairingRow:
        for pairing in await self.events.store.pairings(row.id):
            if pairing.result is None and player in pairing.players and pairing.b is not None:
                return pairing
        raise UserError(Why.NO_MATCH_TO_DECIDE)

    async def decide(
        self,
        tournament_id: int,
        guild_id: int,
        director: Player,
        winner: int,
        reason: str,
    ) -> Report | None:
        """The director gives ``winner``'s current match to them (a walkover: unrated)."""
        row = await self._running(tournament_id, guild_id)
        reason = " ".join(reason.split())[:200]
        if not reason:
            raise UserError(Why.SAY_WHY)
        pairing = await self._open_pairing(row, winner)
        if director.id in pairing.players:
            raise UserError(Why.OWN_MATCH)
        loser = pairing.b if winner == pairing.a else pairing.a
        assert loser is not None
        return await self.events.settle_match(
            row, pairing, Result.walkover(winner, loser), director, reason
        )

    async def extend(
        self, tournament_id: int, guild_id: int, director: Player, hours: float, player: int | None
    ) -> int:
        """Push back the deadlines of the open matches (of one player's, when named)."""
        row = await self._running(tournament_id, guild_id)
        if not 0 < hours <= 24 * 30:
            raise UserError(Why.EXTEND_RANGE)
        count = 0
        for pairing in await self.events.store.pairings(row.id):
            if pairing.result is not None or pairing.deadline is None:
                continue
            if player is not None and player not in pairing.players:
                continue
            if director.id in pairing.players:
                continue  # never their own match
            base = max(pairing.deadline, self.events.clock())
            kept = tuple(t for t in pairing.reminders if t != pairing.deadline)
            await self.events.store.update_pairing(
                row.id, pairing.key, deadline=base + hours * 3600, reminders=kept
            )
            count += 1
        if not count:
            raise UserError(Why.NOTHING_TO_EXTEND)
        return count

    async def pause(self, tournament_id: int, guild_id: int, director: Player) -> TournamentRow:
        """Pause (no deadline runs, no match opens) or resume; resuming pushes the open
        deadlines back by the time paused."""
        row = await self._running(tournament_id, guild_id)
        now = self.events.clock()
        if row.paused_at is None:
            return await self.events.update(row, paused_at=now)
        gap = now - row.paused_at
        for pairing in await self.events.store.pairings(row.id):
            if pairing.result is None and pairing.deadline is not None:
                await self.events.store.update_pairing(
                    row.id, pairing.key, deadline=pairing.deadline + gap
                )
        row = await self.events.update(row, paused_at=None)
        self.events.in_background(self.events.advance(row.id))
        return row

    async def remove(
        self, tournament_id: int, guild_id: int, director: Player, player: int, reason: str
    ) -> TournamentRow:
        """Withdraw a player: their open match goes to the opponent by walkover, and the
        format treats them as gone (no more pairings; a knockout's next match a walkover)."""
        row = await self.events.event(tournament_id, guild_id)
        if row.phase in (Phase.REGISTRATION, Phase.CHECK_IN):
            if not await self.events.store.remove_entrant(row.id, player):
                raise UserError(Why.NOT_JOINED)
            return row
        if row.phase is not Phase.RUNNING:
            raise UserError(Why.NOT_RUNNING)
        if player not in await self.events.names(row.id):
            raise UserError(Why.NOT_IN_EVENT)
        for pairing in await self.events.store.pairings(row.id):
            if pairing.result is None and player in pairing.players and pairing.b is not None:
                if director.id in pairing.players:
                    raise UserError(Why.OWN_MATCH)
                other = pairing.b if player == pairing.a else pairing.a
                assert other is not None
                await self.events.settle_match(
                    row, pairing, Result.walkover(other, player), director, reason
                )
        await self.events.store.update_entrant(row.id, player, withdrawn=True)
        self.events.in_background(self.events.advance(row.id))
        return row

    async def replace(
        self,
        tournament_id: int,
        guild_id: int,
        director: Player,
        old: int,
        new: Player,
        rating: float | None,
    ) -> TournamentRow:
        """``new`` takes the place of ``old``, who has no result yet (a no-show before their
        first match): their seed and their match, which opens again for the newcomer."""
        row = await self.events.event(tournament_id, guild_id)
        if row.phase in OVER:
            raise UserError(Why.ALREADY_OVER)
        entrants = {e.user_id: e for e in await self.events.store.entrants(row.id)}
        if old not in entrants:
            raise UserError(Why.NOT_IN_EVENT)
        if new.id in entrants:
            raise UserError(Why.NEW_PLAYER_IN)
        pairings = await self.events.store.pairings(row.id)
        if any(p.result is not None and old in p.players and p.b is not None for p in pairings):
            raise UserError(Why.ONLY_UNDECIDED)
        for pairing in pairings:
            if (
                pairing.result is None
                and old in pairing.players
                and director.id
                in (
                    *pairing.players,
                    new.id,
                )
            ):
                raise UserError(Why.OWN_MATCH)
        for pairing in pairings:  # the old player's match being played ends, unrecorded
            if pairing.result is None and old in pairing.players and pairing.match_id:
                match = await self.events.session.match(pairing.match_id)
                if match is not None and match.live and pairing.channel_id is not None:
                    await self.events.store.update_pairing(row.id, pairing.key, match_id=None)
                    try:
                        await self.events.session.cancel(pairing.channel_id, director)
                    except UserError:
                        log.warning("tournament %s: could not end match %s", row.id, match.id)
        entry = EntrantRow(
            new.id, new.name[:MAX_NAME], rating, self.events.clock(), checked_in=True
        )
        if not await self.events.store.replace_entrant(row.id, old, entry, entrants[old].seed):
            raise UserError(Why.NEW_PLAYER_IN)
        if row.phase is Phase.RUNNING:
            self.events.in_background(self.events.advance(row.id))
        return row

    async def cancel(self, tournament_id: int, guild_id: int, director: Player) -> TournamentRow:
        row = await self.events.event(tournament_id, guild_id)
        if row.phase in OVER:
            raise UserError(Why.ALREADY_OVER)
        row = await self.events.update(row, phase=Phase.CANCELLED)
        await self.events.ended(row)
        for pairing in await self.events.store.pairings(row.id):
            if pairing.result is None and pairing.match_id and pairing.channel_id:
                match = await self.events.session.match(pairing.match_id)
                if match is not None and match.live:
                    try:
                        await self.events.session.cancel(pairing.channel_id, director)
                    except UserError:
                        log.warning("tournament %s: could not end match %s", row.id, match.id)
        await self.events.host.tell(EventCancelled(row, director))
        return row
