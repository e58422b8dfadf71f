"""The web server inside the bot's process: pages, the live socket, the Activity's API.

Routes (all under ``WEB_URL``'s path):

- ``GET /m/{match}``: the live board of a match, following every action over
  ``GET /m/{match}/ws`` (a WebSocket fed by the :class:`~bot.web.hub.LiveHub`);
  ``GET /api/m/{match}``: its state as JSON.
- ``GET /r/{match}``: the replay of a match move by move; ``GET /api/r/{match}`` its frames,
  ``GET /api/r/{match}/analysis`` each play's win chance and error (the bot's reviews),
  ``GET /r/{match}/chart/{game}.png`` the game's win-chance chart.
- ``GET /g/{guild}``: the server's leaderboard.
- ``GET /``: the Activity (the page Discord opens); ``POST /api/token`` exchanges its code,
  ``POST /api/activity/session`` proves the player and their channel with Discord and
  gives a session, used by ``/api/activity/ws``, ``/api/activity/taps`` and
  ``/api/activity/act``.

Spectators only read. Only a session made from Discord's own answers may act, and only as
the player Discord named, in the channel Discord named; every action goes through the
session service as its slash command does, and its report is posted to the channel by the
session's background-report hook (the Discord publisher).

May import: aiohttp, :mod:`bot` services and records, :mod:`bot.present`, renderers. Never
discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from aiohttp import WSMsgType, web

from bot import present
from bot.errors import UserError
from bot.facts import PlayedElsewhere
from bot.i18n import LANGUAGES, say
from bot.present.web import web_words
from bot.records import MatchRow
from bot.relay import Changed, FactListener
from bot.reports import Player, Report
from bot.services import Services
from bot.storage import Storage
from bot.web.activity import Seat, Verb, act, game_for, taps
from bot.web.discord_api import DiscordOAuth, DiscordRefused, LoginGate
from bot.web.hub import LiveHub, Watcher
from bot.web.pages import leaderboard_page, shell, theme_json
from bot.web.replay import analysis_json, frames
from bot.web.state import match_json
from renderers.charts import win_chance_chart

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
SEAT_LIFETIME = 12 * 3600.0  # an Activity session is good for a long evening
SEATS_KEPT = 10_000


@dataclass(frozen=True, slots=True)
class WebConfig:
    """What the server needs from the settings."""

    url: str
    host: str = "127.0.0.1"
    port: int = 8080
    leaderboard_min_matches: int = 1

    @property
    def base(self) -> str:
        path = urlsplit(self.url).path.rstrip("/")
        return f"{path}/"


def client_address(request: web.Request) -> str:
    """Who is asking, for the login limit: behind a proxy (Discord's, a TLS proxy) the first
    X-Forwarded-For address, else the peer. A forged header only moves a caller to another
    per-address bucket; the overall limit still holds."""
    forwarded = request.headers.get("X-Forwarded-For", "").split(",")[0].strip()
    return forwarded[:64] or request.remote or "?"


class WebServer:
    """The aiohttp application over the services, and its lifecycle (start, stop)."""

    def __init__(
        self,
        services: Services,
        config: WebConfig,
        *,
        oauth: DiscordOAuth | None = None,
        gate: LoginGate | None = None,
        clock: Any = time.time,
        listen_url: str | None = None,
        origin: str = "",
    ) -> None:
        self.services = services
        self.config = config
        self.oauth = oauth
        self.gate = gate or LoginGate()
        self.clock = clock
        self.hub = LiveHub()
        # On PostgreSQL: other processes' changes, heard with LISTEN (see bot.relay).
        self.listener = (
            None
            if listen_url is None
            else FactListener(listen_url, origin, self._changed_elsewhere, self._resync)
        )
        self._seats: dict[str, tuple[Seat, float]] = {}
        self._runner: web.AppRunner | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._analysing = asyncio.Semaphore(1)  # reviews worked out for the pages
        self.port: int | None = None
        self.app = self._make_app()

    # --- lifecycle -------------------------------------------------------------------------

    def _make_app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024)
        app.add_routes(
            [
                web.get("/", self.activity_page),
                web.get("/m/{match:\\d+}", self.live_page),
                web.get("/m/{match:\\d+}/ws", self.live_socket),
                web.get("/api/m/{match:\\d+}", self.match_state),
                web.get("/r/{match:\\d+}", self.replay_page),
                web.get("/api/r/{match:\\d+}", self.replay_frames),
                web.get("/api/r/{match:\\d+}/analysis", self.replay_analysis),
                web.get("/r/{match:\\d+}/chart/{game:\\d+}.png", self.replay_chart),
                web.get("/g/{guild:\\d+}", self.leaderboard),
                web.post("/api/token", self.token),
                web.post("/api/activity/session", self.seat),
                web.get("/api/activity/ws", self.activity_socket),
                web.post("/api/activity/taps", self.taps),
                web.post("/api/activity/act", self.act),
                web.static("/static", STATIC),
            ]
        )
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
        for socket in list(self._sockets):
            with contextlib.suppress(Exception):
                await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.oauth is not None:
            await self.oauth.close()

    async def _changed_elsewhere(self, changed: Changed) -> None:
        """Another process stored a change: its row as stored now, to whoever watches it."""
        if not self.hub.follows(changed.match_id, (changed.channel_id, changed.home_channel_id)):
            return
        row = await self._store.get_match(changed.match_id)
        if row is not None and row.version >= changed.version:
            self.hub.show(row)

    async def _resync(self) -> None:
        """After the listener was away: everything watched, read again."""
        matches, channels = self.hub.watched()
        for match_id in matches:
            row = await self._store.get_match(match_id)
            if row is not None:
                self.hub.show(row)
        for channel_id in channels:
            found = await self.services.session.current(channel_id)
            if found is not None:
                self.hub.show(found)

    # --- helpers ---------------------------------------------------------------------------

    def language(self, request: web.Request) -> str:
        """``?lang=`` when given, else the browser's first language we speak."""
        asked = request.query.get("lang", "")
        if asked in LANGUAGES:
            return asked
        for part in request.headers.get("Accept-Language", "").split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in LANGUAGES:
                return code
        return "en"

    def _page(
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

    @property
    def _store(self) -> Storage:
        return self.services.session.store

    async def _row(self, request: web.Request) -> MatchRow:
        row = await self.services.session.store.get_match(int(request.match_info["match"]))
        if row is None:
            raise web.HTTPNotFound(text="no such match")
        return row

    # --- spectators ------------------------------------------------------------------------

    async def live_page(self, request: web.Request) -> web.Response:
        row = await self._row(request)
        words = web_words(self.language(request))
        return self._page(request, "live", {"state": match_json(row)}, words["live"])

    async def match_state(self, request: web.Request) -> web.Response:
        return web.json_response(match_json(await self._row(request)))

    async def live_socket(self, request: web.Request) -> web.WebSocketResponse:
        row = await self._row(request)
        watcher = self.hub.watch_match(row.id)
        # The state read after subscribing: a change stored in between is not missed.
        first = await self.services.session.store.get_match(row.id) or row
        return await self._serve_socket(request, watcher, first)

    async def _serve_socket(
        self, request: web.Request, watcher: Watcher, first: MatchRow | None
    ) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=30.0)
        await socket.prepare(request)
        self._sockets.add(socket)
        try:
            state = None if first is None else match_json(first)
            await socket.send_str(json.dumps({"type": "state", "state": state}))
            sender = asyncio.create_task(self._pump(watcher, socket))
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
            self._sockets.discard(socket)
        return socket

    async def _pump(self, watcher: Watcher, socket: web.WebSocketResponse) -> None:
        while not socket.closed:
            text = await watcher.get()
            await socket.send_str(text)

    async def replay_page(self, request: web.Request) -> web.Response:
        row = await self._row(request)
        words = web_words(self.language(request))
        return self._page(request, "replay", {"state": match_json(row)}, words["replay"])

    async def replay_frames(self, request: web.Request) -> web.Response:
        row = await self._row(request)
        events = await self.services.session.store.events(row.id)
        return web.json_response({"state": match_json(row), "frames": frames(row, events)})

    async def replay_analysis(self, request: web.Request) -> web.Response:
        """The reviews of the match's finished games (none for a game still being played).

        Reviews are kept once worked out (the bot reviews each game as it ends), so this is
        usually a read; one not yet worked out is, one at a time for all visitors, so that
        anonymous pages cannot fill the analysis lane."""
        row = await self._row(request)
        if row.live:
            return web.json_response({"games": {}, "live": True})
        try:
            async with self._analysing:
                review = await self.services.reviews.review(row)
        except Exception:
            log.exception("no analysis for match %s", row.id)
            return web.json_response({"games": {}, "error": True})
        return web.json_response(analysis_json(review.luck))

    async def replay_chart(self, request: web.Request) -> web.Response:
        row = await self._row(request)
        if row.live:
            raise web.HTTPNotFound(text="the match is still being played")
        number = int(request.match_info["game"])
        played = {result.game_number for result in await self._store.game_results(row.id)}
        if number not in played:
            raise web.HTTPNotFound(text="no such game in this match")
        async with self._analysing:
            review = await self.services.reviews.review(row, number)
        if not review.luck.games:
            raise web.HTTPNotFound(text="no chart for this game")
        language = self.language(request)
        png = await self.services.workers.lane_call(
            functools.partial(
                win_chance_chart,
                **review.luck.games[-1].chart_inputs(),
                names=row.player_names,
                labels=present.chart_labels(language),
            )
        )
        return web.Response(body=png, content_type="image/png")

    async def leaderboard(self, request: web.Request) -> web.Response:
        guild = int(request.match_info["guild"])
        rows = await self.services.session.leaderboard(
            guild, min_rated_matches=self.config.leaderboard_min_matches, limit=50
        )
        language = self.language(request)
        words = web_words(language)
        body = leaderboard_page(
            title=words["leaderboard"],
            language=language,
            words=words,
            rows=rows,
            base=self.config.base,
        )
        return web.Response(text=body, content_type="text/html")

    # --- the Activity ----------------------------------------------------------------------

    async def activity_page(self, request: web.Request) -> web.Response:
        client_id = self.oauth.client_id if self.oauth is not None else None
        words = web_words(self.language(request))
        return self._page(request, "activity", {"client_id": str(client_id or "")}, words["live"])

    def _oauth(self) -> DiscordOAuth:
        if self.oauth is None:
            raise web.HTTPNotFound(text="the Activity is not set up on this bot")
        return self.oauth

    async def _body(self, request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise web.HTTPBadRequest(text="expected a JSON object") from None
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text="expected a JSON object")
        return body

    async def token(self, request: web.Request) -> web.Response:
        """The SDK's one-time code for an access token (the client secret stays here)."""
        oauth = self._oauth()
        if not self.gate.admit(client_address(request)):
            raise web.HTTPTooManyRequests(text="too many logins, try again in a minute")
        code = (await self._body(request)).get("code")
        if not isinstance(code, str) or not 0 < len(code) <= 200:
            raise web.HTTPBadRequest(text="expected a code")
        try:
            token = await oauth.exchange(code)
        except DiscordRefused as refused:
            if refused.status == 429:
                self.gate.pause()  # Discord is rate-limiting the bot: stop asking for a while
            raise web.HTTPUnauthorized(text="Discord refused the code") from None
        except (aiohttp.ClientError, TimeoutError):
            log.warning("Discord did not answer a code exchange")
            raise web.HTTPBadGateway(text="Discord did not answer, try again") from None
        return web.json_response({"access_token": token})

    async def seat(self, request: web.Request) -> web.Response:
        """A session for the token's user in the instance's channel, both as Discord says."""
        oauth = self._oauth()
        if not self.gate.admit(client_address(request)):
            raise web.HTTPTooManyRequests(text="too many logins, try again in a minute")
        body = await self._body(request)
        token, instance_id = body.get("access_token"), body.get("instance_id")
        if not isinstance(token, str) or not isinstance(instance_id, str):
            raise web.HTTPBadRequest(text="expected access_token and instance_id")
        if not 0 < len(instance_id) <= 100 or not 0 < len(token) <= 500:
            raise web.HTTPBadRequest(text="bad access_token or instance_id")
        try:
            user = await oauth.user(token)
            instance = await oauth.instance(instance_id)
        except DiscordRefused as refused:
            if refused.status == 429:
                self.gate.pause()
            raise web.HTTPForbidden(text="Discord did not confirm the user or instance") from None
        except (aiohttp.ClientError, TimeoutError):
            log.warning("Discord did not answer an Activity login")
            raise web.HTTPBadGateway(text="Discord did not answer, try again") from None
        if user.id not in instance.users:
            raise web.HTTPForbidden(text="the user is not in this activity instance")
        seat = Seat(Player(user.id, user.name), instance.guild_id, instance.channel_id)
        key = secrets.token_urlsafe(32)
        now = self.clock()
        if len(self._seats) >= SEATS_KEPT:
            for old in [k for k, (_s, until) in self._seats.items() if until < now]:
                del self._seats[old]
            if len(self._seats) >= SEATS_KEPT:
                self._seats.pop(next(iter(self._seats)))
        self._seats[key] = (seat, now + SEAT_LIFETIME)
        placed = await game_for(self.services.session, seat)
        row = placed.row
        return web.json_response(
            {
                "session": key,
                "user": str(user.id),
                "channel": str(placed.channel_id),
                "state": None if row is None else match_json(row),
                "notice": None
                if placed.why is None
                else say(present.refusal(UserError(placed.why)), self.language(request)),
            }
        )

    def _seat(self, key: object) -> Seat:
        found = self._seats.get(key) if isinstance(key, str) else None
        if found is None or found[1] < self.clock():
            raise web.HTTPUnauthorized(text="no such session: open the Activity again")
        return found[0]

    def _seat_of(self, request: web.Request) -> Seat:
        header = request.headers.get("Authorization", "")
        return self._seat(header.removeprefix("Bearer ").strip())

    async def activity_socket(self, request: web.Request) -> web.WebSocketResponse:
        seat = self._seat(request.query.get("session"))
        # The Activity's channel: the hub also hands it the games that moved to a thread.
        watcher = self.hub.watch_channel(seat.channel_id)
        placed = await game_for(self.services.session, seat)
        return await self._serve_socket(request, watcher, placed.row)

    def _refusal(self, request: web.Request, error: UserError) -> web.Response:
        text = say(present.refusal(error), self.language(request))
        return web.json_response({"error": text}, status=409)

    async def taps(self, request: web.Request) -> web.Response:
        seat = self._seat_of(request)
        body = await self._body(request)
        steps, source = body.get("steps", ""), body.get("source")
        if not isinstance(steps, str) or not (source is None or isinstance(source, int)):
            raise web.HTTPBadRequest(text="expected steps and a source point")
        row = (await game_for(self.services.session, seat)).row
        if row is None:
            raise web.HTTPConflict(text="no game")
        try:
            return web.json_response(taps(row, seat.user.id, steps, source))
        except UserError as error:
            return self._refusal(request, error)

    async def act(self, request: web.Request) -> web.Response:
        seat = self._seat_of(request)
        body = await self._body(request)
        try:
            verb = Verb(str(body.get("verb")))
            match_id, version = int(body["match"]), int(body["version"])
        except (ValueError, KeyError, TypeError):
            raise web.HTTPBadRequest(text="expected verb, match and version") from None
        steps = body.get("steps", "")
        if not isinstance(steps, str):
            raise web.HTTPBadRequest(text="steps must be text")
        session = self.services.session
        try:
            report = await act(session, seat, verb, match_id=match_id, version=version, steps=steps)
        except UserError as error:
            return self._refusal(request, error)
        await self._post(report)
        return web.json_response({"ok": True, "state": match_json(report.match)})

    async def _post(self, report: Report) -> None:
        """Tell the channel: the chat front end posts a :class:`PlayedElsewhere` as it posts
        the computer's background turns (the bus logs a failing subscriber)."""
        await self.services.facts.publish([PlayedElsewhere(report)])


__all__ = ["WebConfig", "WebServer"]
