"""The Activity's routes: its page, its login, its socket, its taps and its actions.

Only a session made from Discord's own answers may act (:mod:`bot.web.discord_api`): the
token from the SDK's one-time code names the user, the activity instance (asked with the
bot token) names the channel; every action goes through the session service as its slash
command does (:mod:`bot.web.activity`), marked as made elsewhere, so the session tells the
chat a :class:`~bot.core.facts.PlayedElsewhere` fact and the Discord publisher posts it to the
channel, in a task of its own: the browser never waits for Discord.

May import aiohttp, :mod:`bot` services and records, :mod:`bot.present`.
"""

from __future__ import annotations

import logging
import secrets
from typing import TYPE_CHECKING, Any

import aiohttp
from aiohttp import web

from bot import present
from bot.core.errors import UserError
from bot.core.records import Action
from bot.core.reports import Player
from bot.i18n import say
from bot.present.web import web_words
from bot.web.activity import VERBS, Seat, act, game_for, taps
from bot.web.discord_api import DiscordOAuth, DiscordRefused
from bot.web.guard import RateLimiter, read_json, small_int
from bot.web.state import match_json

if TYPE_CHECKING:
    from bot.web.app import WebServer

log = logging.getLogger(__name__)

SEAT_LIFETIME = 12 * 3600.0  # an Activity session is good for a long evening
SEATS_KEPT = 10_000
MAX_STEPS = 100  # the picker's text of a whole play is far shorter
# What Discord adds to the Activity's URL when it opens it (the SDK needs them: its
# constructor throws without frame_id and instance_id); a browser at / has none.
LAUNCHED_BY_DISCORD = frozenset({"frame_id", "instance_id"})


class ActivityRoutes:
    def __init__(self, server: WebServer) -> None:
        self.server = server
        self._seats: dict[str, tuple[Seat, float]] = {}
        # A player taps fast (a drag is two taps), but never this fast: a leaked or looping
        # session cannot keep the session service busy for the others.
        self.per_seat = server.tap_limiter or RateLimiter(rate=20.0, burst=120.0)

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/", self.activity_page),
            web.post("/api/token", self.token),
            web.post("/api/activity/session", self.seat),
            web.get("/api/activity/ws", self.activity_socket),
            web.post("/api/activity/taps", self.taps),
            web.post("/api/activity/act", self.act),
        ]

    async def activity_page(self, request: web.Request) -> web.Response:
        """The Activity when Discord opens it, else (a browser at ``/``) the landing page."""
        if not LAUNCHED_BY_DISCORD & request.query.keys():
            return self.server.landing(request)
        oauth = self.server.oauth if self.server.activity_on else None
        client_id = oauth.client_id if oauth is not None else None
        words = web_words(self.server.language(request))
        data = {"client_id": str(client_id or "")}
        return self.server.page(request, "activity", data, words["live"])

    def _oauth(self) -> DiscordOAuth:
        if self.server.oauth is None or not self.server.activity_on:
            raise web.HTTPNotFound(text="the Activity is not set up on this bot")
        return self.server.oauth

    def _admit(self, request: web.Request) -> None:
        if not self.server.gate.admit(self.server.client(request)):
            raise web.HTTPTooManyRequests(text="too many logins, try again in a minute")

    async def token(self, request: web.Request) -> web.Response:
        """The SDK's one-time code for an access token (the client secret stays here)."""
        oauth = self._oauth()
        self._admit(request)
        code = (await read_json(request)).get("code")
        if not isinstance(code, str) or not 0 < len(code) <= 200:
            raise web.HTTPBadRequest(text="expected a code")
        try:
            token = await oauth.exchange(code)
        except DiscordRefused as refused:
            if refused.status == 429:
                self.server.gate.pause()  # Discord is rate-limiting the bot: stop asking
            raise web.HTTPUnauthorized(text="Discord refused the code") from None
        except (aiohttp.ClientError, TimeoutError):
            log.warning("Discord did not answer a code exchange")
            raise web.HTTPBadGateway(text="Discord did not answer, try again") from None
        return web.json_response({"access_token": token})

    async def seat(self, request: web.Request) -> web.Response:
        """A session for the token's user in the instance's channel, both as Discord says."""
        oauth = self._oauth()
        self._admit(request)
        body = await read_json(request)
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
                self.server.gate.pause()
            raise web.HTTPForbidden(text="Discord did not confirm the user or instance") from None
        except (aiohttp.ClientError, TimeoutError):
            log.warning("Discord did not answer an Activity login")
            raise web.HTTPBadGateway(text="Discord did not answer, try again") from None
        if user.id not in instance.users:
            raise web.HTTPForbidden(text="the user is not in this activity instance")
        seat = Seat(Player(user.id, user.name), instance.guild_id, instance.channel_id)
        key = self.open_seat(seat)
        placed = await game_for(self.server.services.session, seat)
        row = placed.row
        return web.json_response(
            {
                "session": key,
                "user": str(user.id),
                "channel": str(placed.channel_id),
                "state": None if row is None else match_json(row, with_ids=True),
                "notice": None
                if placed.why is None
                else say(present.refusal(UserError(placed.why)), self.server.language(request)),
            }
        )

    def open_seat(self, seat: Seat) -> str:
        """A session key for a player Discord proved (the oldest go past SEATS_KEPT)."""
        key = secrets.token_urlsafe(32)
        now = self.server.clock()
        if len(self._seats) >= SEATS_KEPT:
            for old in [k for k, (_s, until) in self._seats.items() if until < now]:
                del self._seats[old]
            if len(self._seats) >= SEATS_KEPT:
                self._seats.pop(next(iter(self._seats)))
        self._seats[key] = (seat, now + SEAT_LIFETIME)
        return key

    def _seat(self, key: object) -> Seat:
        found = self._seats.get(key) if isinstance(key, str) else None
        if found is None or found[1] < self.server.clock():
            raise web.HTTPUnauthorized(text="no such session: open the Activity again")
        assert isinstance(key, str)
        if not self.per_seat.admit(key):
            raise web.HTTPTooManyRequests(text="too many taps, slow down")
        return found[0]

    def _seat_of(self, request: web.Request) -> Seat:
        header = request.headers.get("Authorization", "")
        return self._seat(header.removeprefix("Bearer ").strip())

    async def activity_socket(self, request: web.Request) -> web.StreamResponse:
        seat = self._seat(request.query.get("session"))
        server = self.server
        session = server.services.session

        async def first() -> Any:
            return (await game_for(session, seat)).row

        # The Activity's channel: the hub also hands it the games that moved to a thread.
        return await server.serve_socket(
            request, lambda: server.hub.watch_channel(seat.channel_id), first, with_ids=True
        )

    def _refusal(self, request: web.Request, error: UserError) -> web.Response:
        text = say(present.refusal(error), self.server.language(request))
        return web.json_response({"error": text}, status=409)

    async def taps(self, request: web.Request) -> web.Response:
        seat = self._seat_of(request)
        body = await read_json(request)
        steps, source = body.get("steps", ""), body.get("source")
        if not isinstance(steps, str) or len(steps) > MAX_STEPS:
            raise web.HTTPBadRequest(text="expected steps and a source point")
        point = None if source is None else small_int(source, high=25)
        if source is not None and point is None:
            raise web.HTTPBadRequest(text="expected steps and a source point")
        row = (await game_for(self.server.services.session, seat)).row
        if row is None:
            raise web.HTTPConflict(text="no game")
        try:
            return web.json_response(taps(row, seat.user.id, steps, point))
        except UserError as error:
            return self._refusal(request, error)

    async def act(self, request: web.Request) -> web.Response:
        seat = self._seat_of(request)
        body = await read_json(request)
        try:
            action = Action(str(body.get("verb")))
        except ValueError:
            raise web.HTTPBadRequest(text="expected verb, match and version") from None
        if action not in VERBS:
            raise web.HTTPBadRequest(text="expected verb, match and version")
        match, version = body.get("match"), small_int(body.get("version"))
        if not isinstance(match, str) or not 0 < len(match) <= 64 or version is None:
            raise web.HTTPBadRequest(text="expected verb, match and version")
        steps = body.get("steps", "")
        if not isinstance(steps, str) or len(steps) > MAX_STEPS:
            raise web.HTTPBadRequest(text="steps must be text")
        session = self.server.services.session
        try:
            report = await act(session, seat, action, match_key=match, version=version, steps=steps)
        except UserError as error:
            return self._refusal(request, error)
        return web.json_response({"ok": True, "state": match_json(report.match, with_ids=True)})


__all__ = ["ActivityRoutes"]
