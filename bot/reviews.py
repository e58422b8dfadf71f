"""What the computer and the records say about play: hints, analysis, luck, dice.

Part of :class:`bot.session.SessionService` (a mixin): reads only, never changes a game.
Every evaluation runs in the worker processes; the dice figures in a worker thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.computer import DEFAULT_LEVEL, CubeHint, PlayHint
from bot.dicestats import DiceReport, dice_report, rolls_from_events
from bot.errors import NoGameError, NotYourTurnError, UserError
from bot.fairdice import VerifyResult, verify_events
from bot.i18n import _
from bot.records import MatchRow, Status
from bot.reports import Player, Review, SessionSettings
from bot.storage import Storage
from bot.workers import Workers


class Reviews:
    """Hints, analysis with luck, dice verification and dice statistics."""

    store: Storage
    workers: Workers
    settings: SessionSettings

    async def hint(
        self, channel_id: int, user: Player
    ) -> tuple[MatchRow, list[PlayHint] | CubeHint]:
        """The computer's advice for the player who must act: best plays or the cube."""
        row = await self.current(channel_id)
        if row is None or row.game is None or row.status != Status.PLAYING:
            raise NoGameError(_("There is no game in this channel."))
        me = row.player_index(user.id)
        if me is None:
            raise NotYourTurnError(_("Hints are for the players of this game."))
        if row.rated:
            raise UserError(_("Hints are off in rated games."))
        if row.computer_level is None and not self.settings.hints_in_casual:
            raise UserError(_("This server has turned hints off."))
        game = row.game
        if game.actor != me or game.resignation is not None:
            raise UserError(_("Hints are for your own turn."))
        advice = await self.workers.computer(DEFAULT_LEVEL, "hints", game, 3)
        return row, advice

    async def analysis(self, channel_id: int) -> Review:
        """Error rates, blunders, biggest mistakes and luck of the humans in the last match."""
        row = await self.latest(channel_id)
        if row is None or row.game is None:
            raise NoGameError(_("No game has been played in this channel yet."))
        return await self.review(row)

    async def review(self, row: MatchRow, game_number: int | None = None) -> Review:
        """Skill and luck of a match (or of one of its games), from its event log.

        Replaying the log and every evaluation run in a worker, off the event loop.
        """
        events = await self.store.events(row.id)
        humans = tuple(i for i in (0, 1) if not (row.computer_level and i == 1))
        analyses, luck = await self.workers.review_log(
            row.options, events, level=DEFAULT_LEVEL, players=humans, game_number=game_number
        )
        return Review(row, analyses, luck)

    async def verify_dice(
        self,
        secret: str,
        public: str,
        *,
        guild_id: int | None = None,
        visible: Callable[[MatchRow], Awaitable[bool]] | None = None,
    ) -> tuple[MatchRow, VerifyResult]:
        """Check a match's recorded rolls against its revealed secret.

        With ``guild_id`` (and ``visible``: may the person asking see the match) a match of
        another server, or one they cannot see, answers as an unknown public value.
        """
        row = await self.store.match_by_dice_public(public.strip())
        if (
            row is None
            or row.dice is None
            or (guild_id is not None and row.guild_id != guild_id)
            or (visible is not None and not await visible(row))
        ):
            raise UserError(
                _(
                    "No match here used the public value {public}. Copy it from the message "
                    "that ended the match.",
                    public=public.strip()[:40],
                )
            )
        events = await self.store.events(row.id)
        result = verify_events(
            secret.strip(), row.dice.public or public, events, commitment_hex=row.dice.commitment
        )
        return row, result

    async def dice_report(self, guild_id: int) -> DiceReport:
        """Statistics of every roll actually played on a server, per player and in all."""
        matches = await self.store.roll_events(guild_id)

        def work() -> DiceReport:
            records = [
                record
                for players, events in matches
                for record in rolls_from_events(events, players)
            ]
            return dice_report(records)

        return await asyncio.to_thread(work)

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]:
        return await self.store.rating_history(guild_id, user_id)


__all__ = ["Reviews"]
