"""A chouette's page on the web board: the board with every member's cube, for spectators.

``/c/<key>`` is the table as Discord's board shows it (the picture, drawn in the workers as
the bot draws it), then every seat's row in words (role, name, cube, what it waits for) and
the session table; the page reloads itself every few seconds, so it follows the table
without a socket. ``/c/<key>/board.png`` is the picture alone.

The key is the session's own 128 random bits (``chouettes.web_key``), never its number, and
posted only in the table's messages; it opens as a match's page does
(:meth:`bot.web.access.WebAccess.chouette`: a player at the table, a member who can see its
channel, or anyone with the link when every member may see that channel and the server lets
links open), else a sign-in page or a refusal. Nothing here changes a session. A picture is
drawn once per session version and language, however many are watching.

May import aiohttp, :mod:`bot` services and records, :mod:`bot.present`, renderers.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from aiohttp import web

from bot import present
from bot.features.chouette.rules import Chouette, Status
from bot.present.chouette_story import signed
from bot.present.chouette_table import panel
from bot.present.web import web_words
from bot.storage.chouette import ChouetteRow
from bot.web.access import Verdict
from bot.web.cache import TimedCache
from bot.web.pages import chouette_page
from bot.web.spectate import KEY
from renderers.chouette import render_chouette, render_table

if TYPE_CHECKING:
    from bot.web.app import WebServer

REFRESH_SECONDS = 5


class ChouettePages:
    """The routes of a chouette's page over the server's helpers."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.pictures = TimedCache(ttl=600.0, kept=64)  # per (session, version, language)

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get(f"/c/{KEY}", self.page),
            web.get(f"/c/{KEY}/board.png", self.picture),
        ]

    async def _open(
        self, request: web.Request, *, page: bool
    ) -> tuple[ChouetteRow, Chouette] | web.Response:
        """The session behind the address, or the answer to give instead."""
        server = self.server
        found = await server.services.chouette.by_web_key(request.match_info["key"])
        if found is None:
            if page:
                return server.notice(request, None)
            raise web.HTTPNotFound(text="no such chouette")
        row, state = found
        players = tuple(seat.id for seat in state.seats if not seat.computer)
        verdict = await server.access.chouette(row, players, server.visitor(request))
        if verdict is Verdict.OPEN:
            return found
        if page:
            return server.notice(request, verdict)
        if verdict is Verdict.UNAVAILABLE:
            raise web.HTTPServiceUnavailable(text="Discord did not answer, try again")
        if verdict is Verdict.FORBIDDEN:
            raise web.HTTPForbidden(text="you cannot see this chouette in Discord")
        raise web.HTTPUnauthorized(text="sign in with Discord to see this chouette")

    async def page(self, request: web.Request) -> web.Response:
        opened = await self._open(request, page=True)
        if isinstance(opened, web.Response):
            return opened
        row, s = opened
        language = self.server.language(request)
        words = web_words(language)
        shown = panel(s, language)
        table = sorted(s.table.items(), key=lambda item: -item[1])
        body = chouette_page(
            title=words["chouette_title"].format(number=row.id),
            language=language,
            picture=f"c/{request.match_info['key']}/board.png?v={row.version}",
            heading=shown.title,
            seats=[(line.role, line.name, line.cube, line.note) for line in shown.lines],
            footer=shown.footer,
            table_title=words["chouette_table"],
            table=[(s.name(player), signed(points)) for player, points in table if s.records],
            note=words["chouette_follows"] if s.status is not Status.ENDED else "",
            refresh=REFRESH_SECONDS if s.status is not Status.ENDED else 0,
            base=self.server.config.base,
        )
        return web.Response(text=body, content_type="text/html")

    async def picture(self, request: web.Request) -> web.Response:
        opened = await self._open(request, page=False)
        assert not isinstance(opened, web.Response)
        row, s = opened
        language = self.server.language(request)
        png = await self.pictures.get(
            (row.id, row.version, language), lambda: self._draw(s, language)
        )
        return web.Response(body=png, content_type="image/png")

    async def _draw(self, s: Chouette, language: str) -> bytes:
        """The table's picture, drawn in the workers as the bot draws it."""
        shown = panel(s, language)
        g = s.game
        if g is not None and s.status is Status.PLAYING and not g.over:
            names = (s.name(g.box), s.name(g.acting))
            job = functools.partial(
                render_chouette,
                g.board,
                shown,
                names=names,
                words=present.board_words(language),
            )
        else:
            job = functools.partial(render_table, shown)
        png: bytes = await self.server.services.workers.call(job)
        return png


__all__ = ["ChouettePages"]
