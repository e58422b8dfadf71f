"""Sign in with Discord on the web pages: who is asking, proven by Discord.

A match of a channel not every member can see opens only for a visitor who can see that
channel, so the pages must know who the visitor is, and only Discord may say. This is
OAuth2's authorization code flow with the ``identify`` scope, as Discord documents it
(``topics/oauth2``): ``/auth/login`` sends the browser to Discord's consent page with a
``state`` bound to this browser (a signed cookie: a login started elsewhere cannot be
finished here); Discord sends it back to ``/auth/callback`` with a one-time code, which the
server exchanges with the app's secret (never in the browser), and ``/users/@me`` with that
token names the user. What the browser then keeps is a signed cookie, ``HttpOnly`` and
``SameSite=Lax``: the user's id and name and when it ends (30 days). The key that signs it is
derived from the app's client secret, so every process of the bot (and a restart) reads
the same cookies, and changing the secret signs everyone out. The cookie only says who the
visitor is: what they may see is asked of Discord each time (:mod:`bot.web.access`).

May import aiohttp and the standard library; never discord.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

AUTHORIZE_URL = "https://discord.com/oauth2/authorize"
SESSION_COOKIE = "gammon_session"
STATE_COOKIE = "gammon_login"
SESSION_LIFETIME = 30 * 24 * 3600.0
STATE_LIFETIME = 600.0  # as long as Discord's authorization codes live
MAX_COOKIE = 1024


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A visitor Discord named."""

    user_id: int
    name: str
    until: float


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Signer:
    """Values the browser keeps but cannot change: JSON, then an HMAC-SHA-256 of it."""

    def __init__(self, client_secret: str, *, clock: Callable[[], float] = time.time) -> None:
        self._key = hmac.new(
            client_secret.encode(), b"gammon-bot web sign-in", hashlib.sha256
        ).digest()
        self.clock = clock

    def sign(self, purpose: str, value: dict[str, object], lifetime: float) -> str:
        body = _b64(json.dumps({**value, "p": purpose, "e": self.clock() + lifetime}).encode())
        mac = hmac.new(self._key, body.encode(), hashlib.sha256).digest()
        return f"{body}.{_b64(mac)}"

    def read(self, purpose: str, text: str | None) -> dict[str, object] | None:
        """The value signed for ``purpose``, or None (absent, forged, expired, malformed)."""
        if not text or len(text) > MAX_COOKIE or text.count(".") != 1:
            return None
        body, mac = text.split(".")
        expected = _b64(hmac.new(self._key, body.encode(), hashlib.sha256).digest())
        if not hmac.compare_digest(mac, expected):
            return None
        try:
            value = json.loads(_unb64(body))
        except ValueError:
            return None
        if not isinstance(value, dict) or value.get("p") != purpose:
            return None
        until = value.get("e")
        if not isinstance(until, int | float) or until < self.clock():
            return None
        return value

    def session(self, user_id: int, name: str) -> str:
        return self.sign("session", {"u": str(user_id), "n": name[:100]}, SESSION_LIFETIME)

    def signed_in(self, text: str | None) -> SignedIn | None:
        value = self.read("session", text)
        if value is None:
            return None
        user, name, until = value.get("u"), value.get("n"), value.get("e")
        if not isinstance(user, str) or not user.isdigit() or len(user) > 20:
            return None
        assert isinstance(until, int | float)
        return SignedIn(int(user), str(name), float(until))

    def login_state(self, next_path: str) -> tuple[str, str]:
        """A fresh ``state`` for Discord and the cookie that binds it to this browser."""
        state = secrets.token_urlsafe(24)
        return state, self.sign("login", {"s": state, "n": next_path}, STATE_LIFETIME)

    def finish_login(self, cookie: str | None, state: str) -> str | None:
        """Where to go after signing in, if ``state`` is the one this browser started with."""
        value = self.read("login", cookie)
        if value is None or not isinstance(value.get("s"), str):
            return None
        if not hmac.compare_digest(str(value["s"]), state):
            return None
        next_path = value.get("n")
        return next_path if isinstance(next_path, str) else None


def safe_next(path: str | None, base: str) -> str:
    """Where a login may send the browser back to: a path of this site, never elsewhere
    (``//host`` or ``https://host`` would make the login an open redirect)."""
    if not path or len(path) > 300 or not path.startswith(base) or path.startswith("//"):
        return base
    if "\\" in path or any(ord(c) < 0x21 for c in path):
        return base
    return path


def authorize_url(
    *, client_id: int, redirect_uri: str, state: str, base: str = AUTHORIZE_URL
) -> str:
    """Discord's consent page for the ``identify`` scope."""
    query = urlencode(
        {
            "response_type": "code",
            "client_id": str(client_id),
            "scope": "identify",
            "redirect_uri": redirect_uri,
            "state": state,
            "prompt": "none",
        }
    )
    return f"{base}?{query}"


__all__ = [
    "AUTHORIZE_URL",
    "SESSION_COOKIE",
    "STATE_COOKIE",
    "SignedIn",
    "Signer",
    "authorize_url",
    "safe_next",
]
