"""The computer opponent's turns, played inside the action that hands it the turn.

After a human action the computer answers in the same :class:`~bot.turn.Turn`, so its
whole reply is stored in the same transaction as the move that handed it the turn: a crash
can never leave its turn half-done. Its thinking runs in the worker processes. If thinking
fails, what was decided is stored and the turn is tried again a few seconds later, at
start-up (:meth:`ComputerTurns.resume_computer_turns`) or before the channel's next action.
A turn that keeps failing is retried less and less often (5 s, 15 s, 45 s, 135 s); after
:data:`COMPUTER_ATTEMPTS` failures the timers stop and the channel is told, once, that a
moderator can cancel the game (``on_computer_stuck``). A later action in the channel still
tries once more first, so a computer that recovers simply plays on.

Part of :class:`bot.session.SessionService` (a mixin: it uses the session's store, lock,
workers and the actions' own rules).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.engine import Phase
from bot.records import Action, MatchRow, Status
from bot.reports import Player, Report
from bot.turn import Turn

log = logging.getLogger(__name__)

COMPUTER_ATTEMPTS = 5  # failed tries of one computer turn before a moderator is asked to step in
RETRY_BACKOFF = 3.0  # each wait before another try is this many times the one before


class ComputerRetries:
    """Failed tries of the computer's turn per match, and the notices under way."""

    def __init__(self) -> None:
        self.failures: dict[int, int] = {}
        self.notices: set[asyncio.Task[None]] = set()


class ComputerTurns:
    """The computer's side of :class:`~bot.session.SessionService`."""

    _retries: dict[int, asyncio.Task[None]]
    computer_retries: ComputerRetries
    on_background_report: Callable[[Report], Awaitable[None]] | None
    # Called once when a computer turn has failed COMPUTER_ATTEMPTS times: the front end
    # tells the channel that a moderator can cancel the game.
    on_computer_stuck: Callable[[MatchRow], Awaitable[None]] | None

    async def _computer_plays(self, turn: Turn) -> None:
        """Let the computer act while the game waits on it, inside the caller's turn.

        Evaluations run in a worker thread; the channel stays locked meanwhile. If an
        evaluation fails, what was decided so far is still stored and the computer's turn
        is left for :meth:`resume_computer_turns` to finish.
        """
        row = turn.row
        assert row.computer_level is not None
        try:
            await self._computer_steps(turn)
        except Exception:
            log.exception("match %s: the computer could not act; will resume later", row.id)
            self._computer_failed(row)
            return
        self.computer_retries.failures.pop(row.id, None)

    async def _computer_steps(self, turn: Turn) -> None:
        row = turn.row
        assert row.computer_level is not None
        me = Player(row.player_ids[1], row.player_names[1], is_bot=True)
        for _ in range(100):  # a turn is a handful of actions; this only guards a bug
            game = turn.game
            if turn.status != Status.PLAYING or game is None or game.actor != 1:
                return
            level = row.computer_level
            think = self.workers.computer
            if game.resignation is not None:
                accept = await think(level, "accepts_resignation", game)
                self._do_answer_resignation(turn, me, accept)
            elif game.phase is Phase.ROLL:
                doubling = await think(level, "should_double", game)
                (self._do_double if doubling else self._do_roll)(turn, me)
            elif game.phase is Phase.MOVE:
                play = await think(level, "choose_play", game)
                self._do_move(turn, me, str(play))
            elif game.phase is Phase.DOUBLED:
                answer = str(await think(level, "cube_response", game))
                step = {
                    "beaver": self._do_beaver,
                    "take": self._do_take,
                }.get(  # CubeDecision values
                    answer, self._do_drop
                )
                step(turn, me)
            else:
                return

    def _computer_failed(self, row: MatchRow) -> None:
        """Count a failed try: another after a longer wait, or, at the bound, stop trying
        by timer and ask the channel's moderators to step in (once)."""
        book = self.computer_retries
        attempts = book.failures[row.id] = book.failures.get(row.id, 0) + 1
        if attempts < COMPUTER_ATTEMPTS:
            self._retry_later(
                row.channel_id, self.settings.computer_retry * RETRY_BACKOFF ** (attempts - 1)
            )
            return
        if attempts == COMPUTER_ATTEMPTS:
            log.error(
                "match %s: the computer failed %d times; leaving it to a moderator",
                row.id,
                attempts,
            )
            if self.on_computer_stuck is not None:
                task = asyncio.get_running_loop().create_task(self._tell_stuck(row))
                book.notices.add(task)
                task.add_done_callback(book.notices.discard)

    async def _tell_stuck(self, row: MatchRow) -> None:
        assert self.on_computer_stuck is not None
        try:
            await self.on_computer_stuck(row)
        except Exception:
            log.exception("channel %s: could not say the computer is stuck", row.channel_id)

    @staticmethod
    def _computer_to_act(row: MatchRow | None) -> bool:
        return (
            row is not None
            and row.computer_level is not None
            and row.status == Status.PLAYING
            and row.game is not None
            and row.game.actor == 1
        )

    def _retry_later(self, channel_id: int, delay: float) -> None:
        """Try a failed computer turn again in ``delay`` seconds, with nobody having to
        type."""
        if channel_id in self._retries:
            return

        async def retry() -> None:
            await asyncio.sleep(delay)
            del self._retries[channel_id]
            try:
                async with self._lock(channel_id):
                    row = await self._load(channel_id)
                    report = await self._resume_row(row) if self._computer_to_act(row) else None
                if report is not None and self.on_background_report is not None:
                    await self.on_background_report(report)
            except Exception:
                log.exception("channel %s: retrying the computer's turn failed", channel_id)

        self._retries[channel_id] = asyncio.get_running_loop().create_task(retry())

    async def _resume_row(self, row: MatchRow) -> Report | None:
        """Let the computer finish its open turn in ``row`` (the channel's lock is held)."""
        turn = Turn(row, self.clock(), self.display, self.roller)
        await self._computer_plays(turn)
        if not turn.events:
            return None  # it still cannot act; the log says why
        return await self._commit(turn, Action.COMPUTER)

    async def resume_computer_turns(self) -> list[Report]:
        """Finish every computer turn left open (a crash before this version, a failure).

        Called at start-up; each finished turn's report is returned for the front end to
        post. A channel that fails is logged and left for its next action.
        """
        reports = []
        given_up = self.computer_retries.failures
        for row in await self.store.live_matches():
            if not self._computer_to_act(row):
                continue
            try:
                async with self._lock(row.channel_id):
                    fresh = await self._load(row.channel_id)
                    report = None
                    # One left to a moderator is not tried again on a reconnect's ready
                    # (a new start, with nothing remembered, tries it once more).
                    if self._computer_to_act(fresh) and given_up.get(row.id, 0) < COMPUTER_ATTEMPTS:
                        report = await self._resume_row(fresh)
            except Exception:
                log.exception("channel %s: could not resume the computer's turn", row.channel_id)
                continue
            if report is not None:
                reports.append(report)
        return reports


__all__ = ["COMPUTER_ATTEMPTS", "ComputerRetries", "ComputerTurns"]
