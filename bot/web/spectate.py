"""The spectators' pages: a match's live board and replay, a shared replay, a leaderboard.

Each address carries a key (a match's, a server's, or a share token), never a row id: an
unknown key is a 404 whatever it looks like, and a known one opens only as
:mod:`bot.web.access` decides (a sign-in page, or 403, otherwise). What costs (a long
match's frames, a chart, an analysis) is worked out once per match version for every
visitor, the frames and the chart in the analysis lane, never in the bot's event loop.

May import aiohttp, :mod:`bot` services and records, :mod:`bot.present`, renderers.
"""

from __future__ import annotations

import asyncio
import functools
import gzip
import json
import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NoReturn

from aiohttp import web

from bot import present
from bot.core.records import MatchRow
from bot.present.web import web_words
from bot.web.access import Verdict
from bot.web.directory import DirectoryUnavailable
from bot.web.pages import leaderboard_page
from bot.web.replay import analysis_json, frames_body, game_frames_body
from bot.web.state import match_json
from renderers.charts import win_chance_chart

if TYPE_CHECKING:
    from bot.web.app import WebServer

log = logging.getLogger(__name__)

KEY = r"{key:[A-Za-z0-9_-]{16,64}}"
GAME = r"{game:\d{1,4}}"
MAX_GAME = 999


@dataclass(frozen=True, slots=True)
class Encoded:
    """An answer kept for every visitor, as it is and compressed (a long match's frames
    are megabytes of JSON that gzip takes to a twentieth, once)."""

    raw: bytes
    gzipped: bytes

    @classmethod
    def of(cls, body: bytes) -> Encoded:
        return cls(body, gzip.compress(body, compresslevel=5))

    def response(self, request: web.Request, content_type: str) -> web.Response:
        if "gzip" in request.headers.get("Accept-Encoding", "")[:200]:
            response = web.Response(body=self.gzipped, content_type=content_type)
            response.headers["Content-Encoding"] = "gzip"
            response.headers["Vary"] = "Accept-Encoding"
            return response
        return web.Response(body=self.raw, content_type=content_type)


class Door(StrEnum):
    """How a match's address was reached: its own key (live board or replay: who may see
    it decides), or a share token (a finished match published on purpose)."""

    MATCH = "r"
    SHARED = "s"


@dataclass(frozen=True, slots=True)
class Opened:
    row: MatchRow
    door: Door
    key: str


class Spectate:
    """The routes of the spectators' pages over the server's helpers."""

    def __init__(self, server: WebServer) -> None:
        self.server = server

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get(f"/m/{KEY}", self.live_page),
            web.get(f"/m/{KEY}/ws", self.live_socket),
            web.get(f"/api/m/{KEY}", self.match_state),
            web.get(f"/api/m/{KEY}/moves", self.game_moves),
            *(
                route
                for door in Door
                for route in (
                    web.get(f"/{door}/{KEY}", functools.partial(self.replay_page, door)),
                    web.get(f"/api/{door}/{KEY}", functools.partial(self.replay_frames, door)),
                    web.get(
                        f"/api/{door}/{KEY}/analysis",
                        functools.partial(self.replay_analysis, door),
                    ),
                    web.get(
                        f"/{door}/{KEY}/chart/{GAME}.png",
                        functools.partial(self.replay_chart, door),
                    ),
                )
            ),
            web.get(f"/g/{KEY}", self.leaderboard),
        ]

    # --- finding the match, and whether it opens ------------------------------------------

    async def _find(self, door: Door, key: str) -> MatchRow | None:
        club = self.server.services.club
        if door is Door.SHARED:
            return await club.shared_match(key)
        return await club.match_by_key(key)

    async def _verdict(self, door: Door, row: MatchRow, request: web.Request) -> Verdict:
        if door is Door.SHARED:
            return Verdict.OPEN  # published on purpose by a player or a moderator
        return await self.server.access.match(row, self.server.visitor(request))

    async def _open(self, request: web.Request, door: Door, *, page: bool) -> Opened | web.Response:
        """The match behind the address, or the answer to give instead (a page for a
        browser's page, plain text for the API)."""
        key = request.match_info["key"]
        row = await self._find(door, key)
        if row is None:
            if page:
                return self.server.notice(request, None)
            raise web.HTTPNotFound(text="no such match")
        verdict = await self._verdict(door, row, request)
        if verdict is Verdict.OPEN:
            return Opened(row, door, key)
        if page:
            return self.server.notice(request, verdict)
        _refused(verdict)

    # --- the live board --------------------------------------------------------------------

    async def live_page(self, request: web.Request) -> web.Response:
        opened = await self._open(request, Door.MATCH, page=True)
        if isinstance(opened, web.Response):
            return opened
        row, key = opened.row, opened.key
        words = web_words(self.server.language(request))
        name = await _server_name(self.server, row.guild_id)
        data = {
            "state": match_json(row),
            "server": name,
            "paths": {"socket": f"m/{key}/ws", "moves": f"api/m/{key}/moves", "replay": f"r/{key}"},
        }
        return self.server.page(request, "live", data, _titled(words, "live", row, name))

    async def match_state(self, request: web.Request) -> web.Response:
        opened = await self._open(request, Door.MATCH, page=False)
        assert not isinstance(opened, web.Response)
        return web.json_response(match_json(opened.row))

    async def game_moves(self, request: web.Request) -> web.Response:
        """The live board's move list: the current game's frames, worked out once per match
        version for every watcher (each watcher asks again when the board changes)."""
        opened = await self._open(request, Door.MATCH, page=False)
        assert not isinstance(opened, web.Response)
        row, server = opened.row, self.server

        async def work() -> Encoded:
            events = await server.services.session.events(row.id)
            body = await server.services.workers.lane_call(game_frames_body, row, events)
            return await asyncio.to_thread(Encoded.of, body)

        encoded = await server.moves.get((row.id, row.version), work)
        return encoded.response(request, "application/json")

    async def live_socket(self, request: web.Request) -> web.StreamResponse:
        opened = await self._open(request, Door.MATCH, page=False)
        assert not isinstance(opened, web.Response)
        row, server = opened.row, self.server
        visitor = server.visitor(request)

        async def check() -> Verdict:
            return await server.access.match(row, visitor)

        async def first() -> MatchRow | None:
            return await server.services.session.match(row.id) or row

        return await server.serve_socket(
            request, lambda: server.hub.watch_match(row.id), first, check=check
        )

    # --- the replay ------------------------------------------------------------------------

    async def replay_page(self, door: Door, request: web.Request) -> web.Response:
        opened = await self._open(request, door, page=True)
        if isinstance(opened, web.Response):
            return opened
        row = opened.row
        words = web_words(self.server.language(request))
        base = f"{door}/{opened.key}"
        # A replay shared on purpose is public: it does not name its server.
        name = None if door is Door.SHARED else await _server_name(self.server, row.guild_id)
        data = {
            "state": match_json(row),
            "server": name,
            "paths": {
                "frames": f"api/{base}",
                "analysis": f"api/{base}/analysis",
                "chart": f"{base}/chart/",
            },
        }
        return self.server.page(request, "replay", data, _titled(words, "replay", row, name))

    async def replay_frames(self, door: Door, request: web.Request) -> web.Response:
        opened = await self._open(request, door, page=False)
        assert not isinstance(opened, web.Response)
        row, server = opened.row, self.server

        async def work() -> Encoded:
            events = await server.services.session.events(row.id)
            body = await server.services.workers.lane_call(frames_body, row, events)
            return await asyncio.to_thread(Encoded.of, body)

        encoded = await server.frames.get((row.id, row.version), work)
        return encoded.response(request, "application/json")

    async def replay_analysis(self, door: Door, request: web.Request) -> web.Response:
        """The reviews of the match's finished games (none for a game still being played).

        Reviews are kept once worked out (the bot reviews each game as it ends), so this is
        usually a read; one not yet worked out is, one at a time for all visitors, so that
        anonymous pages cannot fill the analysis lane."""
        opened = await self._open(request, door, page=False)
        assert not isinstance(opened, web.Response)
        row, server = opened.row, self.server
        if row.live:
            return web.json_response({"games": {}, "live": True})

        async def work() -> Encoded:
            async with server.analysing:
                review = await server.services.reviews.review(row)
            analysis = analysis_json(review.luck, review.analyses)
            return Encoded.of(json.dumps(analysis).encode())

        try:
            encoded = await server.analyses.get((row.id, row.version), work)
        except Exception:
            log.exception("no analysis for match %s", row.id)
            return web.json_response({"games": {}, "error": True})
        return encoded.response(request, "application/json")

    async def replay_chart(self, door: Door, request: web.Request) -> web.Response:
        opened = await self._open(request, door, page=False)
        assert not isinstance(opened, web.Response)
        row, server = opened.row, self.server
        if row.live:
            raise web.HTTPNotFound(text="the match is still being played")
        number = int(request.match_info["game"])
        if not 1 <= number <= MAX_GAME:
            raise web.HTTPNotFound(text="no such game in this match")
        results = await server.services.session.game_results(row.id)
        played = {result.game_number for result in results}
        if number not in played:
            raise web.HTTPNotFound(text="no such game in this match")
        language = server.language(request)

        async def work() -> bytes | None:
            async with server.analysing:
                review = await server.services.reviews.review(row, number)
            if not review.luck.games:
                return None
            return await server.services.workers.lane_call(
                functools.partial(
                    win_chance_chart,
                    **review.luck.games[-1].chart_inputs(),
                    names=row.player_names,
                    labels=present.chart_labels(language),
                )
            )

        png = await server.charts.get((row.id, row.version, number, language), work)
        if png is None:
            raise web.HTTPNotFound(text="no chart for this game")
        return web.Response(body=png, content_type="image/png")

    # --- the leaderboard -------------------------------------------------------------------

    async def leaderboard(self, request: web.Request) -> web.Response:
        server = self.server
        guild = await server.services.club.guild_by_key(request.match_info["key"])
        if guild is None:
            return server.notice(request, None)
        verdict = await server.access.leaderboard(guild, server.visitor(request))
        language = server.language(request)
        words = web_words(language)
        if verdict is not Verdict.OPEN:
            private = words["leaderboard_private"] if verdict is Verdict.SIGN_IN else None
            return server.notice(request, verdict, message=private)
        rows = await server.services.session.leaderboard(
            guild, min_rated_matches=server.config.leaderboard_min_matches, limit=50
        )
        name = await _server_name(server, guild)
        title = words["leaderboard_of"].format(server=name) if name else words["leaderboard"]
        body = leaderboard_page(
            title=title, language=language, words=words, rows=rows, base=server.config.base
        )
        return web.Response(text=body, content_type="text/html")


async def _server_name(server: WebServer, guild_id: int) -> str | None:
    """The server's name as Discord says (for the page's title), if Discord can be asked;
    none for a match that belongs to no server (a DM or group DM game)."""
    readers = server.readers
    if readers is None or not guild_id:
        return None
    try:
        return await readers.server_name(guild_id)
    except DirectoryUnavailable:  # a title is not worth an error page
        log.info("no name for server %s", guild_id)
        return None


def _titled(words: dict[str, str], page: str, row: MatchRow, server: str | None) -> str:
    """A match page's title: the players, the page, and the server when it is known."""
    title = f"{row.player_names[0]} – {row.player_names[1]} · {words[page]}"
    return f"{title} · {server}" if server else title


def _refused(verdict: Verdict) -> NoReturn:
    if verdict is Verdict.UNAVAILABLE:
        raise web.HTTPServiceUnavailable(text="Discord did not answer, try again")
    if verdict is Verdict.FORBIDDEN:
        raise web.HTTPForbidden(text="you cannot see this match in Discord")
    raise web.HTTPUnauthorized(text="sign in with Discord to see this match")


__all__ = ["KEY", "Door", "Spectate"]
