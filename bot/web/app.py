"""The web server inside the bot's process: pages, live sockets, sign-in, the Activity's API.

Routes (all under ``WEB_URL``'s path; ``{key}`` is a match's or a server's web key, 128
random bits, never a row id):

- ``GET /m/{key}``: a match's live board, following every action over ``/m/{key}/ws``;
  ``GET /api/m/{key}``: its state as JSON, ``/api/m/{key}/moves`` its game's move list;
- ``GET /r/{key}``: its replay; ``/api/r/{key}`` the frames, ``/api/r/{key}/analysis``
  each play's win chance and error, ``/r/{key}/chart/{game}.png`` a game's chart;
- ``GET /s/{token}`` and the same three under it: a finished match's replay shared on
  purpose (``/backgammon share``);
- ``GET /g/{key}``: a server's leaderboard;
- ``GET /auth/login``, ``/auth/callback``, ``POST /auth/logout``: Sign in with Discord
  (:mod:`bot.web.auth`);
- ``GET /``: the Activity when Discord opens it (its query names the frame and the
  instance), else a small page saying what this is; the Activity's API under ``/api/token``
  and ``/api/activity/`` (:mod:`bot.web.activity_routes`). In offline play
  (:class:`~bot.web.access.TerminalAccess`) there is no Discord and no Activity: ``/``
  names the game typed in the terminal and links its live board.

Who sees what is :mod:`bot.web.access`'s (Discord's permissions, carried to the web);
this module adds what keeps one visitor from hurting the others (:mod:`bot.web.guard`): a
rate limit per client, bounded sockets, sockets only from the board's own pages, and no
answer for a malformed request but a 4xx. Spectators only read; the Activity acts through
the session service, as its slash commands do.

May import: aiohttp, :mod:`bot` services and records, :mod:`bot.present`, renderers. Never
discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from aiohttp import WSMsgType, web

from bot.core.records import MatchRow
from bot.i18n import LANGUAGES, say
from bot.present.club import versus
from bot.present.notices import NO_GAME_RUNNING, TERMINAL_BOARD, WATCH_LIVE
from bot.present.web import web_words
from bot.relay import Changed, FactListener
from bot.services import Services
from bot.web.access import TerminalAccess, Verdict, WebAccess
from bot.web.cache import TimedCache
from bot.web.directory import WebReaders
from bot.web.discord_api import DiscordOAuth, LoginGate
from bot.web.guard import (
    Network,
    RateLimiter,
    SocketQuota,
    activity_origin,
    client_address,
    origin_allowed,
    origin_of,
)
from bot.web.hub import LiveHub, Watcher
from bot.web.pages import landing_page, notice_page, shell, theme_json
from bot.web.signin import SESSION_COOKIE, SignedIn, Signer
from bot.web.state import match_json

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
RECHECK = 60.0  # a socket's visitor is asked about again this often
MAX_PATH = 300  # longer than any address of ours
HOLD_REFUSED = 1.0  # seconds a request over its client's rate waits for its 429
Check = Callable[[], Awaitable[Verdict]]


@dataclass(frozen=True, slots=True)
class WebConfig:
    """What the server needs from the settings."""

    url: str
    host: str = "127.0.0.1"
    port: int = 8080
    leaderboard_min_matches: int = 1
    trusted_proxies: tuple[Network, ...] = ()  # WEB_TRUSTED_PROXIES

    @property
    def base(self) -> str:
        path = urlsplit(self.url).path.rstrip("/")
        return f"{path}/"

    @property
    def secure(self) -> bool:
        return urlsplit(self.url).scheme == "https"

    @property
    def redirect_uri(self) -> str:
        """Where Discord sends a signed-in browser back (register it in the Developer
        Portal, OAuth2 > Redirects)."""
        return self.url.rstrip("/") + "/auth/callback"


STATUS = {
    Verdict.SIGN_IN: 401,
    Verdict.FORBIDDEN: 403,
    Verdict.UNAVAILABLE: 503,
}


class WebServer:
    """The aiohttp application over the services, and its lifecycle (start, stop)."""

    def __init__(
        self,
        services: Services,
        config: WebConfig,
        *,
        oauth: DiscordOAuth | None = None,
        readers: WebReaders | None = None,
        activity: bool = True,
        gate: LoginGate | None = None,
        limiter: RateLimiter | None = None,
        tap_limiter: RateLimiter | None = None,
        sockets: SocketQuota | None = None,
        access: WebAccess | TerminalAccess | None = None,
        clock: Any = time.time,
        listen_url: str | None = None,
        origin: str = "",
    ) -> None:
        self.services = services
        self.config = config
        self.oauth = oauth
        self.activity_on = activity and oauth is not None
        self.readers = readers
        self._access = access  # None: Discord's permissions (WebAccess)
        self.signer = Signer(oauth.client_secret, clock=clock) if oauth is not None else None
        self.gate = gate or LoginGate()
        self.limiter = limiter or RateLimiter()
        self.tap_limiter = tap_limiter  # an Activity player's (None: the routes' own)
        self.sockets = sockets or SocketQuota()
        self.clock = clock
        self.hub = LiveHub()
        # On PostgreSQL: other processes' changes, heard with LISTEN (see bot.relay).
        self.listener = (
            None
            if listen_url is None
            else FactListener(listen_url, origin, self._changed_elsewhere, self._resync)
        )
        self.origins = {origin_of(config.url)}
        if oauth is not None:
            self.origins.add(activity_origin(oauth.client_id))
        # Worked out once per match version, for every visitor (bot.web.spectate).
        self.frames = TimedCache(ttl=3600.0, kept=16)
        self.moves = TimedCache(ttl=600.0, kept=64)  # a live game's move list, per version
        self.analyses = TimedCache(ttl=3600.0, kept=64)
        self.charts = TimedCache(ttl=3600.0, kept=64)
        self.analysing = asyncio.Semaphore(1)  # reviews worked out for the pages
        self._runner: web.AppRunner | None = None
        self._open_sockets: set[web.WebSocketResponse] = set()
        self.port: int | None = None
        self.app = self._make_app()

    @functools.cached_property
    def access(self) -> WebAccess | TerminalAccess:
        if self._access is not None:
            return self._access
        return WebAccess(self.services.club, self.readers)

    # --- lifecycle -------------------------------------------------------------------------

    def _make_app(self) -> web.Application:
        # Imported here: the route groups take the server, which they type-check against.
        from bot.web.activity_routes import ActivityRoutes
        from bot.web.auth import SignInRoutes
        from bot.web.chouette_pages import ChouettePages
        from bot.web.spectate import Spectate

        app = web.Application(client_max_size=64 * 1024, middlewares=[self._guard])
        self.activity_routes = ActivityRoutes(self)
        # Offline play has no Discord, so no Activity: its / is the terminal's game.
        terminal = isinstance(self._access, TerminalAccess)
        root = [web.get("/", self.terminal_landing)] if terminal else self.activity_routes.routes()
        routes: list[web.AbstractRouteDef] = [
            *Spectate(self).routes(),
            *ChouettePages(self).routes(),
            *SignInRoutes(self).routes(),
            *root,
            web.static("/static", STATIC),
        ]
        app.add_routes(routes)
        return app

    async def start(self) -> None:
        self.hub.attach(self.services.facts)
        if self.listener is not None:
            await self.listener.start()
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.config.host, self.config.port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or ()
        self.port = sockets[0].getsockname()[1] if sockets else self.config.port
        log.info(
            "web board on %s (listening on %s:%s)", self.config.url, self.config.host, self.port
        )

    async def stop(self) -> None:
        self.hub.detach()
        if self.listener is not None:
            await self.listener.stop()
        for socket in list(self._open_sockets):
            with contextlib.suppress(Exception):
                await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.oauth is not None:
            await self.oauth.close()
        if self.readers is not None:
            await self.readers.close()

    async def _changed_elsewhere(self, changed: Changed) -> None:
        """Another process stored a change: its row as stored now, to whoever watches it."""
        if not self.hub.follows(changed.match_id, (changed.channel_id, changed.home_channel_id)):
            return
        row = await self.services.session.match(changed.match_id)
        if row is not None and row.version >= changed.version:
            self.hub.show(row)

    async def _resync(self) -> None:
        """After the listener was away: everything watched, read again."""
        matches, channels = self.hub.watched()
        for match_id in matches:
            row = await self.services.session.match(match_id)
            if row is not None:
                self.hub.show(row)
        for channel_id in channels:
            found = await self.services.session.current(channel_id)
            if found is not None:
                self.hub.show(found)

    # --- every request ---------------------------------------------------------------------

    def client(self, request: web.Request) -> str:
        return client_address(request, self.config.trusted_proxies)

    @web.middleware
    async def _guard(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """The rate limit per client (not for the static files, which a page loads once, nor
        for an Activity's play, limited per player: :mod:`bot.web.activity_routes`), and
        headers that keep addresses and private pages out of other hands."""
        base = self.config.base
        static = request.path.startswith(f"{base}static/")
        if len(request.path) > MAX_PATH or (static and len(request.path) > len(base) + 80):
            # No address of ours is this long (the static handler would try to open it).
            raise web.HTTPNotFound(text="no such page")
        limited = not static and not request.path.startswith(f"{base}api/activity/")
        if limited and not self.limiter.admit(self.client(request)):
            retry = self.limiter.retry_after(self.client(request))
            # Held before it is answered: a client looping as fast as it is answered would
            # otherwise cost the event loop a thousand refusals a second.
            await asyncio.sleep(min(float(retry), HOLD_REFUSED))
            raise web.HTTPTooManyRequests(
                text="too many requests", headers={"Retry-After": str(retry)}
            )
        try:
            response = await handler(request)
        except web.HTTPException as refused:
            response = refused
            _private(response, request.path.startswith(f"{base}static/"))
            raise
        _private(response, request.path.startswith(f"{base}static/"))
        return response

    def language(self, request: web.Request) -> str:
        """``?lang=`` when given, else the browser's first language we speak."""
        asked = request.query.get("lang", "")
        if asked in LANGUAGES:
            return asked
        for part in request.headers.get("Accept-Language", "")[:200].split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in LANGUAGES:
                return code
        return "en"

    def visitor(self, request: web.Request) -> SignedIn | None:
        """Who Discord said this browser is (the sign-in cookie), if anyone."""
        if self.signer is None:
            return None
        return self.signer.signed_in(request.cookies.get(SESSION_COOKIE))

    def page(
        self, request: web.Request, page: str, data: dict[str, Any], title: str
    ) -> web.Response:
        language = self.language(request)
        body = shell(
            title=title,
            language=language,
            page=page,
            data={**data, "words": web_words(language), "theme": theme_json(), "lang": language},
            script="board.js" if page != "activity" else "activity.js",
            base=self.config.base,
        )
        return web.Response(text=body, content_type="text/html")

    def notice(
        self,
        request: web.Request,
        verdict: Verdict | None,
        *,
        message: str | None = None,
        status: int | None = None,
    ) -> web.Response:
        """The page a visitor gets instead of what they asked for (None: nothing there);
        ``message`` and ``status`` replace the verdict's own."""
        language = self.language(request)
        words = web_words(language)
        if verdict is None:
            reason, title, said = "not_found", words["not_found"], words["not_found_page"]
        elif verdict is Verdict.UNAVAILABLE:
            reason, title, said = "unavailable", words["live"], words["unavailable"]
        elif verdict is Verdict.FORBIDDEN:
            reason, title, said = "forbidden", words["private_title"], words["forbidden"]
        else:
            reason, title = "sign_in", words["private_title"]
            said = words["private_sign_in" if self.signer is not None else "private_no_sign_in"]
        sign_in = sign_out = None
        if self.signer is not None and verdict in (Verdict.SIGN_IN, Verdict.FORBIDDEN):
            if self.visitor(request) is None:
                here = quote(request.path_qs[:300], safe="/?=&")
                sign_in = (words["sign_in"], f"auth/login?next={here}")
            else:
                sign_out = words["sign_out"]
        body = notice_page(
            title=title,
            message=message or said,
            language=language,
            reason=reason,
            base=self.config.base,
            sign_in=sign_in,
            sign_out=sign_out,
        )
        code = status or (404 if verdict is None else STATUS[verdict])
        return web.Response(text=body, content_type="text/html", status=code)

    def landing(self, request: web.Request) -> web.Response:
        """``/`` in a browser: what this is, and signing in with Discord when it is set up."""
        language = self.language(request)
        words = web_words(language)
        paragraphs = [words["landing_what"], words["landing_links"]]
        if self.activity_on:
            paragraphs.append(words["landing_activity"])
        sign_in = sign_out = None
        if self.signer is not None:
            visitor = self.visitor(request)
            if visitor is None:
                paragraphs.append(words["landing_sign_in"])
                sign_in = (words["sign_in"], "auth/login")
            else:
                paragraphs.append(words["signed_in_as"].replace("{name}", visitor.name))
                sign_out = words["sign_out"]
        body = landing_page(
            title=words["landing_title"],
            paragraphs=paragraphs,
            language=language,
            base=self.config.base,
            sign_in=sign_in,
            sign_out=sign_out,
        )
        return web.Response(text=body, content_type="text/html")

    async def terminal_landing(self, request: web.Request) -> web.Response:
        """``/`` in offline play: the game being played in the terminal (its players) and a
        link to its live board, or that no game is running; nothing about Discord."""
        terminal = self.access
        assert isinstance(terminal, TerminalAccess)
        language = self.language(request)
        row = await self.services.session.current(terminal.channel_id)
        live = None
        paragraphs = [say(TERMINAL_BOARD, language)]
        if row is not None and row.web_key and await terminal.match(row, None) is Verdict.OPEN:
            paragraphs.append(say(versus(row), language))
            live = (say(WATCH_LIVE, language), f"m/{row.web_key}")
        else:
            paragraphs.append(say(NO_GAME_RUNNING, language))
        body = landing_page(
            title=web_words(language)["live"],
            paragraphs=paragraphs,
            language=language,
            base=self.config.base,
            live=live,
        )
        return web.Response(text=body, content_type="text/html")

    # --- sockets ---------------------------------------------------------------------------

    async def serve_socket(
        self,
        request: web.Request,
        watch: Callable[[], Watcher],
        first: Callable[[], Awaitable[MatchRow | None]],
        *,
        with_ids: bool = False,
        check: Check | None = None,
    ) -> web.WebSocketResponse:
        """A socket from one of our pages that sends the state, then every change; ``check``
        asks again, every :data:`RECHECK` seconds, whether its visitor may still see it."""
        if not origin_allowed(request, self.origins):
            raise web.HTTPForbidden(text="this socket is for the board's own pages")
        client = self.client(request)
        if not self.sockets.take(client):
            raise web.HTTPTooManyRequests(text="too many live boards open")
        try:
            socket = web.WebSocketResponse(heartbeat=30.0, max_msg_size=4096)
            await socket.prepare(request)
            watcher = watch()
            self._open_sockets.add(socket)
            try:
                # The state read after subscribing: a change stored in between is not missed.
                row = await first()
                state = None if row is None else match_json(row, with_ids=with_ids)
                await socket.send_str(json.dumps({"type": "state", "state": state}))
                sender = asyncio.create_task(self._pump(watcher, socket, check))
                try:
                    async for message in socket:
                        if message.type == WSMsgType.ERROR:
                            break  # spectators only read: anything they send is ignored
                finally:
                    sender.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await sender
            finally:
                self.hub.leave(watcher)
                self._open_sockets.discard(socket)
        finally:
            self.sockets.give_back(client)
        return socket

    async def _pump(
        self, watcher: Watcher, socket: web.WebSocketResponse, check: Check | None
    ) -> None:
        checked = self.clock()
        while not socket.closed:
            text = await watcher.get()
            if check is not None and self.clock() - checked > RECHECK:
                if await check() is not Verdict.OPEN:
                    await socket.close(code=4403, message=b"no longer allowed")
                    return
                checked = self.clock()
            await socket.send_str(text)


def _private(response: web.StreamResponse, static: bool) -> None:
    """Headers that keep addresses and private pages out of other hands: a page's address
    is its key, so it is never sent on to another site (``Referrer-Policy``) nor kept by a
    cache shared between visitors."""
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    if not static:
        response.headers.setdefault("Cache-Control", "no-store")


__all__ = ["STATUS", "WebConfig", "WebServer"]
