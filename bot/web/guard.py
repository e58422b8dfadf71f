"""What keeps one visitor from hurting the others: who a request is from, how often it may
ask, how many sockets it may hold, which pages may open a socket, and bodies read safely.

- :func:`client_address`: the peer, or, when the peer is a proxy the operator named
  (``WEB_TRUSTED_PROXIES``), the last address in ``X-Forwarded-For`` that is not one of
  theirs: a header anyone can write is believed only from a proxy that wrote it.
- :class:`RateLimiter`: a token bucket per client (requests a second, with a burst), and
  the clients it remembers bounded.
- :class:`SocketQuota`: live sockets per client and in all.
- :func:`origin_allowed`: a browser opening a socket says which page asks (``Origin``); only
  the board's own pages (``WEB_URL``) and Discord's Activity proxy may, so another site
  cannot open a socket with a visitor's cookies (cross-site WebSocket hijacking).
- :func:`read_json`: a request body as a JSON object, or a 400/413: never a traceback for
  a body too big, too deep, not JSON, or with numbers such as ``1e999``.

May import aiohttp and the standard library.
"""

from __future__ import annotations

import ipaddress
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web

from bot.config import Network


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _trusted(address: str, proxies: Iterable[Network]) -> bool:
    found = _address(address)
    return found is not None and any(found in network for network in proxies)


def client_address(request: web.Request, proxies: tuple[Network, ...] = ()) -> str:
    """Who is asking (see the module)."""
    peer = request.remote or "?"
    if not proxies or not _trusted(peer, proxies):
        return peer
    hops = [hop.strip() for hop in request.headers.get("X-Forwarded-For", "").split(",")]
    for hop in reversed([h for h in hops if h][-20:]):
        if not _trusted(hop, proxies):
            return hop[:64] if _address(hop) is not None else peer
    return peer


@dataclass
class _Bucket:
    tokens: float
    at: float


@dataclass
class RateLimiter:
    """``rate`` requests a second per client, ``burst`` at once."""

    rate: float = 10.0
    burst: float = 40.0
    clients: int = 10_000
    clock: Callable[[], float] = time.monotonic
    _buckets: OrderedDict[str, _Bucket] = field(default_factory=OrderedDict)

    def admit(self, client: str) -> bool:
        now = self.clock()
        bucket = self._buckets.pop(client, None)
        if bucket is None:
            bucket = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        admitted = bucket.tokens >= 1.0
        if admitted:
            bucket.tokens -= 1.0
        self._buckets[client] = bucket  # the most recent at the end
        while len(self._buckets) > self.clients:
            self._buckets.popitem(last=False)
        return admitted

    def retry_after(self, client: str) -> int:
        bucket = self._buckets.get(client)
        missing = 1.0 if bucket is None else max(0.0, 1.0 - bucket.tokens)
        return max(1, int(missing / self.rate + 0.999))


@dataclass
class SocketQuota:
    """At most ``per_client`` sockets from one client and ``total`` in all."""

    per_client: int = 8
    total: int = 1000
    _held: dict[str, int] = field(default_factory=dict)

    @property
    def open(self) -> int:
        return sum(self._held.values())

    def take(self, client: str) -> bool:
        if self._held.get(client, 0) >= self.per_client or self.open >= self.total:
            return False
        self._held[client] = self._held.get(client, 0) + 1
        return True

    def give_back(self, client: str) -> None:
        left = self._held.get(client, 0) - 1
        if left > 0:
            self._held[client] = left
        else:
            self._held.pop(client, None)


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, as browsers write ``Origin``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def activity_origin(client_id: int) -> str:
    """Where Discord serves an app's Activity from (its proxy, ``discordsays.com``)."""
    return f"https://{client_id}.discordsays.com"


def origin_allowed(request: web.Request, allowed: Iterable[str]) -> bool:
    """Whether the page opening this socket is one of ours (no Origin: not a browser, which
    holds nobody's cookies, and still passes the same authorization)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin.strip().lower().rstrip("/") in set(allowed)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number here")


async def read_json(request: web.Request) -> dict[str, Any]:
    """The body as a JSON object (400 otherwise; 413 past the app's ``client_max_size``)."""
    try:
        text = await request.text()
        body = json.loads(text, parse_constant=_no_constant)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise web.HTTPBadRequest(text="expected a JSON object") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="expected a JSON object")
    return body


def small_int(value: object, *, low: int = 0, high: int = 2**31 - 1) -> int | None:
    """A whole number within ``low..high`` (a JSON integer, or digits in text), else None:
    never ``True``, ``1.5``, ``1e999`` or five thousand digits."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit()) or len(value) > 18:
            return None
        value = int(value)
    if not isinstance(value, int) or not low <= value <= high:
        return None
    return value


__all__ = [
    "Network",
    "RateLimiter",
    "SocketQuota",
    "activity_origin",
    "client_address",
    "origin_allowed",
    "origin_of",
    "read_json",
    "small_int",
]
