"""Answers kept a while, computed once: what the web board asks often and pays for once.

:class:`TimedCache` keeps each key's answer for ``ttl`` seconds and at most ``kept``
answers (the oldest go first), and while one caller computes a key's answer the others
asking for it wait for that one instead of computing it again: a hundred visitors of one
replay, or a page and its socket asking Discord the same question, cost one computation.

Pure: asyncio and the standard library.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


class TimedCache:
    """Answers by key for ``ttl`` seconds, at most ``kept`` of them, one fetch per key."""

    def __init__(
        self, *, ttl: float, kept: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl = ttl
        self.kept = kept
        self.clock = clock
        self._answers: dict[Any, tuple[float, Any]] = {}
        self._pending: dict[Any, asyncio.Future[Any]] = {}

    async def get(self, key: Any, fetch: Callable[[], Awaitable[T]]) -> T:
        found = self._answers.get(key)
        if found is not None and found[0] > self.clock():
            value: T = found[1]
            return value
        pending = self._pending.get(key)
        while pending is not None:
            try:
                result: T = await asyncio.shield(pending)
                return result
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not pending.cancelled() or (task is not None and task.cancelling()):
                    raise  # this asker was cancelled itself
            pending = self._pending.get(key)  # the one asking was cancelled: ask anew
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            value = await fetch()
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # marked retrieved: nobody else may be waiting
            raise
        except BaseException:
            future.cancel()  # the asker was cancelled: those waiting with it ask again
            raise
        finally:
            self._pending.pop(key, None)
        future.set_result(value)
        self._answers.pop(key, None)
        self._answers[key] = (self.clock() + self.ttl, value)
        while len(self._answers) > self.kept:
            self._answers.pop(next(iter(self._answers)))
        return value

    def forget(self) -> None:
        self._answers.clear()


__all__ = ["TimedCache"]
