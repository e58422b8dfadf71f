"""Any position analysed, for whoever asks: a service of its own (:class:`PositionService`).

``/backgammon position`` (an XGID, or GNU Backgammon's IDs, read into a
:class:`~bot.engine.PositionRecord`) and the "Analyse this position" message command (a board
the bot posted) come here: the advice at the analysis depth (:meth:`PositionService.advice`)
and, when asked, deeper (:meth:`PositionService.deeper`: truncated rollouts, one call of the
analysis lane each, with a progress callback between them). Both run in the workers'
analysis lane, never in front of a board.

Hints stay off in rated games: a position on the board of a rated game being played on the
server (either side to play) is refused, whoever asks, and a board of a channel whose rated
game is being played is refused too (the message command names its channel). The starting
position is exempt: its best plays are in every book. A deeper analysis costs seconds of
CPU: each member may ask for one per ``analysis_cooldown`` seconds.

Reads only; returns values and typed refusals, never words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.computer.analysis import PlayHint
from bot.computer.positions import (
    CUBE_BATCHES,
    CUBE_DEEP,
    DEEP,
    PLAYS_SHOWN,
    DeepAdvice,
    DeepPlay,
    PositionAdvice,
    deep_candidates,
    deep_cube,
    deep_kind,
)
from bot.computer.reviews import GameReader, ReviewCache
from bot.computer.rollouts import RolloutSettings
from bot.core.errors import Refusal, UserError
from bot.core.records import MatchRow, Status
from bot.core.reports import SessionSettings
from bot.engine import EngineError, Game, Position, PositionRecord, parse_dice
from bot.workers import Workers

__all__ = ["DeepPlan", "PositionService", "Progress"]

Progress = Callable[[int, int], Awaitable[None]]
"""Told ``(done, total)`` rollouts as a deeper analysis goes (first with none done)."""

_START = (Position.start().board, Position.start().flip().board)


@dataclass(frozen=True, slots=True)
class DeepPlan:
    """A deeper analysis allowed and charged: the position and what it rolls out."""

    record: PositionRecord
    game: Game
    kind: str  # "plays" or "cube" (bot.computer.positions.deep_kind)

    @property
    def settings(self) -> RolloutSettings:
        """Each rollout's: a play's, or a batch of the cube decision's."""
        return CUBE_DEEP if self.kind == "cube" else DEEP


async def _quiet(done: int, total: int) -> None:
    return None


class PositionService:
    """The advice for a position, and the deeper analysis, from the analysis lane."""

    def __init__(
        self,
        workers: Workers,
        games: GameReader,
        *,
        settings: SessionSettings,
        clock: Callable[[], float],
    ) -> None:
        self.workers = workers
        self.games = games
        self.settings = settings
        self.clock = clock
        self.cooldowns = ReviewCache(size=1)  # only its per-member clock is used

    @staticmethod
    def read(text: str, dice: str | None = None) -> PositionRecord:
        """The position a player pasted (an XGID, or GNU Backgammon's Position ID and an
        optional Match ID), with ``dice`` rolled when given; a typed refusal naming what
        is wrong with it otherwise."""
        try:
            record = PositionRecord.parse(text)
            if dice is None or not dice.strip():
                return record
            if record.offer is not None:
                raise UserError(Refusal.DICE_WITH_DOUBLE)
            return record.with_dice(parse_dice(dice))
        except EngineError as exc:
            raise UserError.of_engine(exc) from exc

    async def advice(
        self, guild_id: int, record: PositionRecord, *, channel_id: int | None = None
    ) -> PositionAdvice:
        """The best plays of ``record``, or its cube decision, at the analysis depth.

        ``channel_id``: where the position was shown (a board message), refused while that
        channel's rated game is played.
        """
        await self._hints_allowed(guild_id, record, channel_id)
        game = record.to_game()
        try:
            advice = await self.workers.position_hints(game, PLAYS_SHOWN)
        except EngineError as exc:  # a beaver waiting: no decision the hints advise on
            raise UserError.of_engine(exc) from exc
        return PositionAdvice(record, game, advice)

    async def plan_deeper(
        self,
        guild_id: int,
        record: PositionRecord,
        user_id: int,
        *,
        channel_id: int | None = None,
    ) -> DeepPlan:
        """What :meth:`deeper` would roll out, or the refusal, at once (a few reads): the
        front end refuses privately before it shows that seconds of work have begun."""
        await self._hints_allowed(guild_id, record, channel_id)
        game = record.to_game()
        kind = deep_kind(game)
        if kind is None:
            raise UserError(Refusal.NOTHING_DEEPER)
        self.cooldowns.charge(user_id, self.clock(), self.settings.analysis_cooldown)
        return DeepPlan(record, game, kind)

    async def deeper(self, plan: DeepPlan, progress: Progress = _quiet) -> DeepAdvice:
        """A planned position's close plays, or its cube decision, rolled out (see
        :mod:`bot.computer.positions`); ``progress`` hears each rollout done."""
        record, game, kind = plan.record, plan.game, plan.kind
        done = 0

        async def counted(work: Awaitable[object], total: int) -> None:
            nonlocal done
            await work
            done += 1
            await progress(done, total)

        if kind == "cube":
            await progress(0, CUBE_BATCHES)
            batches = [
                asyncio.ensure_future(self.workers.rollout_cube(game, seed))
                for seed in range(1, CUBE_BATCHES + 1)
            ]
            await asyncio.gather(*(counted(task, len(batches)) for task in batches))
            cube, errors = deep_cube(game, [task.result() for task in batches])
            return DeepAdvice(
                record, game, CUBE_DEEP, cube=cube, cube_errors=errors, rollouts=len(batches)
            )
        hints = await self.workers.position_hints(game, PLAYS_SHOWN)
        assert isinstance(hints, list)
        chosen: list[PlayHint] = deep_candidates(hints)
        await progress(0, len(chosen))
        rollouts = [
            asyncio.ensure_future(
                self.workers.rollout_play(game, game.position.apply(hint.play), seed)
            )
            for seed, hint in enumerate(chosen, start=1)
        ]
        await asyncio.gather(*(counted(task, len(rollouts)) for task in rollouts))
        plays = [
            DeepPlay(hint.play, task.result().equity, task.result().error, hint.equity)
            for hint, task in zip(chosen, rollouts, strict=True)
        ]
        plays.sort(key=lambda play: -play.equity)
        return DeepAdvice(record, game, DEEP, plays=tuple(plays), rollouts=len(rollouts))

    async def _hints_allowed(
        self, guild_id: int, record: PositionRecord, channel_id: int | None
    ) -> None:
        """Refuse a position of a rated game being played (see the module's docstring)."""
        if channel_id is not None and _rated_and_playing(await self.games.current(channel_id)):
            raise UserError(Refusal.HINTS_OFF_RATED)
        boards = {record.position.board, record.position.flip().board}
        if boards & set(_START):
            return
        for row in await self.games.live_in(guild_id):
            game = row.game
            if _rated_and_playing(row) and game is not None and game.position.board in boards:
                raise UserError(Refusal.POSITION_IN_RATED_GAME)


def _rated_and_playing(row: MatchRow | None) -> bool:
    return row is not None and row.rated and row.status == Status.PLAYING
