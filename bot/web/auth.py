"""The sign-in routes: ``/auth/login``, ``/auth/callback`` and ``/auth/logout``.

The flow and the cookies are :mod:`bot.web.signin`'s; here they meet HTTP. The callback
is the only route that calls Discord for a visitor (the code exchange, then
``/users/@me``), so it goes through the same login gate as the Activity's login: made-up
codes cannot make Discord rate-limit the bot.

May import aiohttp and :mod:`bot.web`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web

from bot.present.web import web_words
from bot.web.discord_api import DiscordOAuth, DiscordRefused
from bot.web.signin import (
    SESSION_COOKIE,
    SESSION_LIFETIME,
    STATE_COOKIE,
    STATE_LIFETIME,
    Signer,
    authorize_url,
    safe_next,
)

if TYPE_CHECKING:
    from bot.web.app import WebServer

log = logging.getLogger(__name__)


class SignInRoutes:
    def __init__(self, server: WebServer) -> None:
        self.server = server

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/auth/login", self.login),
            web.get("/auth/callback", self.callback),
            web.post("/auth/logout", self.logout),
        ]

    def _ready(self) -> tuple[DiscordOAuth, Signer]:
        server = self.server
        if server.oauth is None or server.signer is None:
            raise web.HTTPNotFound(text="Sign in with Discord is not set up on this bot")
        return server.oauth, server.signer

    def _cookie(self, response: web.StreamResponse, name: str, value: str, age: float) -> None:
        config = self.server.config
        response.set_cookie(
            name,
            value,
            max_age=int(age),
            path=config.base,
            secure=config.secure,
            httponly=True,
            samesite="Lax",
        )

    async def login(self, request: web.Request) -> web.StreamResponse:
        """To Discord's consent page, remembering (signed, in this browser) where to return."""
        oauth, signer = self._ready()
        base = self.server.config.base
        next_path = safe_next(request.query.get("next"), base)
        state, cookie = signer.login_state(next_path)
        response = _redirect(
            302,
            authorize_url(
                client_id=oauth.client_id,
                redirect_uri=self.server.config.redirect_uri,
                state=state,
            ),
        )
        self._cookie(response, STATE_COOKIE, cookie, STATE_LIFETIME)
        return response

    async def callback(self, request: web.Request) -> web.StreamResponse:
        """Discord's answer: the code for the state this browser started with, or nothing."""
        oauth, signer = self._ready()
        server = self.server
        code, state = request.query.get("code", ""), request.query.get("state", "")
        next_path = signer.finish_login(request.cookies.get(STATE_COOKIE), state[:100])
        if not code or len(code) > 200 or next_path is None:
            return self._failed(request, 400)
        if not server.gate.admit(server.client(request)):
            raise web.HTTPTooManyRequests(text="too many logins, try again in a minute")
        try:
            token = await oauth.exchange(code, redirect_uri=server.config.redirect_uri)
            user = await oauth.user(token)
        except DiscordRefused as refused:
            if refused.status == 429:
                server.gate.pause()  # Discord is rate-limiting the bot: stop asking a while
            return self._failed(request, 401)
        except (aiohttp.ClientError, TimeoutError):
            log.warning("Discord did not answer a sign-in")
            return self._failed(request, 502)
        response = _redirect(302, safe_next(next_path, server.config.base))
        self._cookie(response, SESSION_COOKIE, signer.session(user.id, user.name), SESSION_LIFETIME)
        response.del_cookie(STATE_COOKIE, path=server.config.base)
        return response

    def _failed(self, request: web.Request, status: int) -> web.Response:
        words = web_words(self.server.language(request))
        return self.server.notice(request, None, message=words["sign_in_failed"], status=status)

    async def logout(self, request: web.Request) -> web.StreamResponse:
        response = _redirect(303, self.server.config.base)
        response.del_cookie(SESSION_COOKIE, path=self.server.config.base)
        return response


def _redirect(status: int, location: str) -> web.Response:
    return web.Response(status=status, headers={"Location": location})


__all__ = ["SignInRoutes"]
