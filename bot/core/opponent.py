"""The computer opponent's turns, played inside the action that hands it the turn.

After a human action the computer answers in the same :class:`~bot.core.turn.Turn`, so its
whole reply is stored in the same transaction as the move that handed it the turn: a crash
can never leave its turn half-done. Its thinking runs in the worker processes. If thinking
fails, what was decided is stored and the turn is tried again a few seconds later, at
start-up (:meth:`bot.core.session.SessionService.resume_computer_turns`) or before the channel's
next action.
A turn that keeps failing is retried less and less often (5 s, 15 s, 45 s, 135 s); after
:data:`COMPUTER_ATTEMPTS` failures the timers stop and the channel is told, once, that a
moderator can cancel the game (a :class:`~bot.core.facts.ComputerStuck` fact on the session's
bus). A later action in the channel still tries once more first, so a computer that
recovers simply plays on.

A collaborator the session owns (:class:`ComputerOpponent`): it plays through the action
table (:data:`bot.core.actions.RULES`), the same rules as a person's actions, and is handed the two
things it needs of the session (finishing a channel's turn under its lock, telling a channel it is
stuck) as callables. It never touches the store or the lock itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeGuard

from bot.computer import CubeDecision
from bot.core import actions
from bot.core.records import Action, MatchRow, Status
from bot.core.reports import Player
from bot.core.turn import Turn
from bot.engine import Phase
from bot.workers import Workers

log = logging.getLogger(__name__)

COMPUTER_ATTEMPTS = 5  # failed tries of one computer turn before a moderator is asked to step in
RETRY_BACKOFF = 3.0  # each wait before another try is this many times the one before

# The computer's answer to a double, as the action it takes (any other answer drops).
CUBE_ANSWERS: dict[CubeDecision, Action] = {
    CubeDecision.TAKE: Action.TAKE,
    CubeDecision.BEAVER: Action.BEAVER,
    CubeDecision.DROP: Action.DROP,
}


class ComputerRetries:
    """Failed tries of the computer's turn per match, and the notices under way."""

    def __init__(self) -> None:
        self.failures: dict[int, int] = {}
        self.notices: set[asyncio.Task[None]] = set()


class ComputerOpponent:
    """The computer's turns, owned by :class:`~bot.core.session.SessionService`.

    Its interface is :meth:`play` (inside a turn the session holds open), :meth:`to_act` and
    :meth:`given_up`. What it needs of the session is handed in, never reached for:
    ``retry_after()`` is the first wait before another try (the session's settings),
    ``resume(channel_id)`` finishes a channel's open computer turn under its lock (a retry's
    timer calls it), ``stuck(row)`` tells the channel a moderator can cancel the game.
    """

    def __init__(
        self,
        workers: Workers,
        *,
        retry_after: Callable[[], float],
        resume: Callable[[int], Awaitable[None]],
        stuck: Callable[[MatchRow], Awaitable[None]],
    ) -> None:
        self.workers = workers
        self._retry_after = retry_after
        self._resume = resume
        self._stuck = stuck
        self.retries = ComputerRetries()  # failed computer turns, with backoff
        self._timers: dict[int, asyncio.Task[None]] = {}

    async def play(self, turn: Turn) -> None:
        """Let the computer act while the game waits on it, inside the caller's turn.

        Evaluations run in a worker; the channel stays locked meanwhile. If an evaluation
        fails, what was decided so far is still stored (the caller commits the turn) and the
        computer's turn is tried again later.
        """
        row = turn.row
        assert row.computer_level is not None
        try:
            await self._steps(turn)
        except Exception:
            log.exception("match %s: the computer could not act; will resume later", row.id)
            self._failed(row)
            return
        self.retries.failures.pop(row.id, None)

    def given_up(self, match_id: int) -> bool:
        """Whether the timers stopped trying this match (a moderator was asked instead)."""
        return self.retries.failures.get(match_id, 0) >= COMPUTER_ATTEMPTS

    @staticmethod
    def to_act(row: MatchRow | None) -> TypeGuard[MatchRow]:
        """Whether ``row`` is a live game waiting on the computer."""
        return (
            row is not None
            and row.computer_level is not None
            and row.status == Status.PLAYING
            and row.game is not None
            and row.game.actor == 1
        )

    async def _steps(self, turn: Turn) -> None:
        row = turn.row
        assert row.computer_level is not None
        me = Player(row.player_ids[1], row.player_names[1], is_bot=True)
        for _ in range(100):  # a turn is a handful of actions; this only guards a bug
            game = turn.game
            if turn.status != Status.PLAYING or game is None or game.actor != 1:
                return
            level, workers = row.computer_level, self.workers
            if game.resignation is not None:
                accept = await workers.accepts_resignation(level, game)
                actions.apply(turn, Action.RESIGN_ACCEPT if accept else Action.RESIGN_REJECT, me)
            elif game.phase is Phase.ROLL:
                doubling = await workers.should_double(level, game)
                actions.apply(turn, Action.DOUBLE if doubling else Action.ROLL, me)
            elif game.phase is Phase.MOVE:
                play = await workers.choose_play(level, game)
                actions.apply(turn, Action.MOVE, me, play=play)
            elif game.phase is Phase.DOUBLED:
                answer = await workers.cube_response(level, game)
                actions.apply(turn, CUBE_ANSWERS.get(answer, Action.DROP), me)
            else:
                return

    def _failed(self, row: MatchRow) -> None:
        """Count a failed try: another after a longer wait, or, at the bound, stop trying
        by timer and ask the channel's moderators to step in (once)."""
        book = self.retries
        attempts = book.failures[row.id] = book.failures.get(row.id, 0) + 1
        if attempts < COMPUTER_ATTEMPTS:
            self._retry_later(row.channel_id, self._retry_after() * RETRY_BACKOFF ** (attempts - 1))
            return
        if attempts == COMPUTER_ATTEMPTS:
            log.error(
                "match %s: the computer failed %d times; leaving it to a moderator",
                row.id,
                attempts,
            )
            task = asyncio.get_running_loop().create_task(self._tell_stuck(row))
            book.notices.add(task)
            task.add_done_callback(book.notices.discard)

    async def _tell_stuck(self, row: MatchRow) -> None:
        try:
            await self._stuck(row)
        except Exception:
            log.exception("channel %s: could not say the computer is stuck", row.channel_id)

    def _retry_later(self, channel_id: int, delay: float) -> None:
        """Try a failed computer turn again in ``delay`` seconds, with nobody having to
        type."""
        if channel_id in self._timers:
            return

        async def retry() -> None:
            await asyncio.sleep(delay)
            del self._timers[channel_id]
            try:
                await self._resume(channel_id)
            except Exception:
                log.exception("channel %s: retrying the computer's turn failed", channel_id)

        self._timers[channel_id] = asyncio.get_running_loop().create_task(retry())


__all__ = ["COMPUTER_ATTEMPTS", "ComputerOpponent", "ComputerRetries"]
