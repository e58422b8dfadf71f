"""Discord's rate limits, as the fake Discord applies them to the bot's requests.

Why: a bot that bursts must be seen *waiting* (discord.py reads the bucket headers and sleeps,
or retries a 429 after ``retry_after``), never failing. So every REST answer carries Discord's
bucket headers, and a request over a limit gets Discord's 429: ``Retry-After``, the
``X-RateLimit-*`` headers (``Limit``, ``Remaining``, ``Reset``, ``Reset-After``, ``Bucket``,
``Scope``; ``Global`` for the global limit), ``Via`` (without which discord.py takes a 429 for
a Cloudflare ban) and the JSON body ``{"message", "retry_after", "global"}``.

Two limits, as Discord documents them:

- per route: a bucket per route (method and path template) and major parameter (channel,
  guild, webhook id and token), ``route_limit`` requests per ``route_window`` seconds;
- global: ``global_limit`` requests per second across all routes, which interaction endpoints
  (the callback, and the interaction token's webhook routes) are not bound by. An interaction
  callback has no route bucket either: one per interaction.

The defaults are Discord's global 50/s and a route bucket more generous than Discord's tightest
(5 per 5 s for a channel's messages) so the rest of the suite is not slowed; a test lowers them
on ``fake.rate_limits``. Windows are fixed (they start at a bucket's first request), as
Discord's are. This module knows nothing of the fake's state but the clock it is given.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.e2e.discord_contract import find_operation

_MAJOR = ("channel_id", "guild_id", "webhook_id", "webhook_token")
_CALLBACK = re.compile(r"^/api/v\d+/interactions/\d+/[^/]+/callback$")
_INTERACTION_WEBHOOK = re.compile(r"^/api/v\d+/webhooks/\d+/[^/]+(/messages/[^/]+)?$")


@dataclass(slots=True)
class _Window:
    limit: int
    window: float
    count: int = 0
    reset_at: float = 0.0

    def take(self, now: float) -> bool:
        if now >= self.reset_at:
            self.count, self.reset_at = 0, now + self.window
        if self.count >= self.limit:
            return False
        self.count += 1
        return True


@dataclass(frozen=True, slots=True)
class Verdict:
    """The rate limit's answer to one request: its headers, and whether it is refused."""

    headers: dict[str, str]
    refused: bool = False
    retry_after: float = 0.0
    is_global: bool = False

    def body(self) -> dict[str, object]:
        return {
            "message": "You are being rate limited.",
            "retry_after": self.retry_after,
            "global": self.is_global,
        }


@dataclass
class RateLimits:
    """The fake's rate limits; change the numbers (or ``enabled``) on ``fake.rate_limits``."""

    route_limit: int = 10
    route_window: float = 1.0
    global_limit: int = 50
    enabled: bool = True
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    _routes: dict[str, _Window] = field(default_factory=dict, repr=False)
    _global: _Window | None = field(default=None, repr=False)

    def reset(self) -> None:
        """Forget every bucket (a new limit applies from the next request)."""
        self._routes.clear()
        self._global = None

    def check(self, method: str, path: str) -> Verdict | None:
        """Count one request; None for requests rate limits do not concern (not ``/api/``)."""
        if not self.enabled or not path.startswith("/api/"):
            return None
        now = self.clock()
        if _CALLBACK.match(path):
            return Verdict({})  # interaction callbacks: neither global nor route limits
        key, bucket_hash = _bucket(method, path)
        if not _INTERACTION_WEBHOOK.match(path):
            if self._global is None or self._global.limit != self.global_limit:
                self._global = _Window(self.global_limit, 1.0)
            if not self._global.take(now):
                after = max(self._global.reset_at - now, 0.001)
                headers = {
                    "Retry-After": str(math.ceil(after)),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                    "Via": "1.1 google",
                }
                return Verdict(headers, refused=True, retry_after=round(after, 3), is_global=True)
        window = self._routes.get(key)
        if window is None or (window.limit, window.window) != (
            self.route_limit,
            self.route_window,
        ):
            window = self._routes[key] = _Window(self.route_limit, self.route_window)
        allowed = window.take(now)
        after = max(window.reset_at - now, 0.001)
        headers = {
            "X-RateLimit-Limit": str(window.limit),
            "X-RateLimit-Remaining": str(window.limit - window.count),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": bucket_hash,
        }
        if allowed:
            return Verdict(headers)
        headers.update(
            {"Retry-After": str(math.ceil(after)), "X-RateLimit-Scope": "user", "Via": "1.1 google"}
        )
        return Verdict(headers, refused=True, retry_after=round(after, 3))


def _bucket(method: str, path: str) -> tuple[str, str]:
    """(this request's bucket: route and major parameters, the route's bucket hash)."""
    op = find_operation(method, path)
    if op is None:
        route = f"{method} {path}"
        return route, hashlib.sha1(route.encode()).hexdigest()[:16]
    template = op.template
    values = dict(
        zip(re.findall(r"\{([^}]+)\}", template), _params(op.pattern, path), strict=False)
    )
    major = ",".join(f"{k}={values[k]}" for k in _MAJOR if k in values)
    route = f"{method} {template}"
    return f"{route}|{major}", hashlib.sha1(route.encode()).hexdigest()[:16]


def _params(pattern: re.Pattern[str], path: str) -> list[str]:
    """The path's parameter values, in the template's order."""
    bare = re.sub(r"^/api/v\d+", "", path).rstrip("/")
    regex = pattern.pattern.replace("[^/]+", "([^/]+)")
    found = re.fullmatch(regex, bare)
    return list(found.groups()) if found else []
