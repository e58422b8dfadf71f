"""Fault injection: a test says which requests fail and how (``fail_requests``), and the
request gate answers them with Discord's error, with no effect.

Why apart from the log: an injected failure tests the bot's recovery, so it is never counted
against the bot (``assert_clean``); it is recorded in ``fake.injected`` and on its rule.
Imports only the wire format and the recorded values.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord.recorded import RequestRecord
from tests.e2e.fake_discord.wire import dumps


@dataclass(eq=False)
class FaultRule:
    """An injected failure: the next ``count`` matching requests get ``status``."""

    method: str
    path_pattern: str
    status: int
    count: int = 1
    code: int = 0
    message: str = ""
    retry_after: float | None = None
    hits: int = 0
    records: list[RequestRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._regex = re.compile(self.path_pattern)

    @property
    def remaining(self) -> int:
        return max(self.count - self.hits, 0)

    def cancel(self) -> None:
        """Stop injecting (``hits`` keeps what was already answered)."""
        self.count = self.hits

    def matches(self, method: str, path: str) -> bool:
        return (
            self.remaining > 0
            and self.method in ("*", method.upper())
            and self._regex.search(path) is not None
        )

    def response(self) -> web.Response:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        headers = {"Content-Type": "application/json"}
        if self.status == 429:
            retry = 1.0 if self.retry_after is None else self.retry_after
            body.update(retry_after=retry, **{"global": False})
            # discord.py treats a 429 without ``Via`` as a Cloudflare ban and never retries it;
            # Discord's own answers carry it.
            headers.update(
                {
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, int(retry + 0.999))),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                    "X-RateLimit-Reset-After": f"{retry:.3f}",
                    "X-RateLimit-Bucket": "fake-injected-bucket",
                    "X-RateLimit-Scope": "user",
                }
            )
        return web.Response(body=dumps(body).encode(), status=self.status, headers=headers)

    def __repr__(self) -> str:
        return (
            f"<FaultRule {self.method} /{self.path_pattern}/ -> {self.status} "
            f"hits={self.hits}/{self.count}>"
        )


class Faults:
    """The rules in the order they were added; the first that matches a request answers it."""

    def __init__(self) -> None:
        self.rules: list[FaultRule] = []

    def fail_requests(
        self,
        method: str,
        path_pattern: str,
        status: int,
        *,
        count: int = 1,
        code: int = 0,
        message: str = "",
        retry_after: float | None = None,
    ) -> FaultRule:
        """Answer the next ``count`` matching requests with ``status`` and do nothing else.

        ``method`` is an HTTP method or ``"*"``; ``path_pattern`` a regex searched in the request
        path (e.g. ``r"/webhooks/\\d+/[^/]+$"``: interaction followups). Rules are tried in the
        order they were added; each answer is recorded in ``fake.injected`` and ``rule.hits``.
        """
        if status < 400:
            raise ValueError(f"an injected failure needs an error status, not {status}")
        default = {
            429: "You are being rate limited.",
            500: "500: Internal Server Error",
            502: "502: Bad Gateway",
            503: "503: Service Unavailable",
            504: "504: Gateway Timeout",
        }.get(status, f"{status}: injected failure")
        rule = FaultRule(
            method.upper() if method != "*" else "*",
            path_pattern,
            status,
            count=count,
            code=code,
            message=message or default,
            retry_after=retry_after,
        )
        self.rules.append(rule)
        return rule

    def clear_faults(self) -> None:
        """Cancel every fault rule (their ``hits`` stay readable)."""
        for rule in self.rules:
            rule.cancel()
        self.rules.clear()

    def matching(self, method: str, path: str) -> FaultRule | None:
        """The rule that answers this request, if any."""
        return next((r for r in self.rules if r.matches(method, path)), None)
