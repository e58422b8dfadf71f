"""What the fake saw, and waiting for it: every request with its answer, the answers that
judge the bot (unknown routes, 4xx errors, the fake's own crashes), the ones that do not
(injected faults, 429s), every gateway packet; and ``wait_for``, which wakes whenever
anything is recorded.

Why together: a wait that times out explains itself with the recent error answers, and every
record is a change a waiter must re-check. Imports only the recorded values.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from tests.e2e.fake_discord.recorded import RequestRecord

T = TypeVar("T")


class FakeDiscordTimeout(AssertionError):
    """Raised when a test waits for something the bot never did (AssertionError for pytest)."""


class _Describes(Protocol):
    """What a timeout message tells of the interaction waited on (``InteractionResult``)."""

    def describe(self) -> str: ...


class Traffic:
    """The fake's logs, in order, and the change notification every waiter sleeps on."""

    def __init__(self) -> None:
        self.requests: list[RequestRecord] = []
        self.unknown_routes: list[RequestRecord] = []
        self.errors: list[RequestRecord] = []
        self.server_errors: list[RequestRecord] = []
        self.gateway_log: list[tuple[str, Any]] = []
        self.injected: list[RequestRecord] = []
        self.rate_limited: list[RequestRecord] = []
        self._changed_event: asyncio.Event | None = None

    def changed(self) -> None:
        """Wake every waiter; each re-checks its predicate (no polling sleeps)."""
        ev = self._changed_event
        self._changed_event = None
        if ev is not None:
            ev.set()

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 5.0,
        what: str = "condition",
        result: _Describes | None = None,
        *,
        recheck: float = 0.1,
    ) -> T:
        """Wait until ``predicate()`` is truthy and return it; FakeDiscordTimeout otherwise.

        Re-evaluated whenever the fake records anything (request, gateway event), so waits end
        as soon as the bot acts. Predicates over state the fake cannot see (``bot.is_ready()``)
        are additionally re-checked every ``recheck`` seconds as a safety net.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise FakeDiscordTimeout(self._timeout_message(what, timeout, result))
            if self._changed_event is None:
                self._changed_event = asyncio.Event()
            ev = self._changed_event
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ev.wait(), min(remaining, recheck))

    def _timeout_message(self, what: str, timeout: float, result: _Describes | None) -> str:
        parts = [f"timed out after {timeout}s waiting for {what}"]
        if result is not None:
            parts.append(result.describe())
        if self.errors:
            parts.append("recent error answers:\n  " + "\n  ".join(map(str, self.errors[-5:])))
        if self.unknown_routes:
            parts.append("unknown routes:\n  " + "\n  ".join(map(str, self.unknown_routes[-5:])))
        if self.server_errors:
            parts.append("FAKE SERVER ERRORS:\n  " + "\n  ".join(map(str, self.server_errors)))
        return "\n".join(parts)
