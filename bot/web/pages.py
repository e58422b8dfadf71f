"""The HTML shells of the pages: a title, the data the client starts from, the script.

The pages are small and server-made so that a link shows something before any script runs
(the leaderboard needs none at all). Every value put into a page is escaped: names are
chosen by players and may hold anything.

Pure: strings in, strings out.
"""

from __future__ import annotations

import functools
import html
import json
import string
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.core.records import PlayerStats
from renderers.theme import CLASSIC, Theme

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")


@functools.cache
def asset_version() -> str:
    """The built client's version, put in its URLs: Discord's proxy drops cache headers from
    pages, so an asset that changes must change its address."""
    try:
        return (STATIC / "sources.sha256").read_text(encoding="utf-8").strip()[:12]
    except OSError:
        return "0"


def theme_json(theme: Theme = CLASSIC) -> dict[str, Any]:
    """The board images' colours, as CSS colours, so the browser board looks the same."""

    def css(rgb: tuple[int, int, int]) -> str:
        return "#{:02x}{:02x}{:02x}".format(*rgb)

    out: dict[str, Any] = {}
    for name in (
        "background",
        "frame",
        "frame_edge",
        "field",
        "numbers",
        "tray",
        "cube",
        "cube_text",
        "text",
        "muted",
        "panel",
        "panel_active",
        "accent",
        "accent_dark",
        "hit",
    ):
        out[name] = css(getattr(theme, name))
    for name in ("points", "checkers", "checker_rims", "checker_text", "die_pips"):
        out[name] = [css(value) for value in getattr(theme, name)]
    return out


def _data(value: Any) -> str:
    """JSON safe inside a <script> element."""
    return (
        json.dumps(value, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )


def _template(name: str) -> string.Template:
    return string.Template((TEMPLATES / name).read_text(encoding="utf-8"))


def _sign_in_or_out(sign_in: tuple[str, str] | None, sign_out: str | None) -> str:
    """The sign-in link (its words, the login URL) or the sign-out button (its words)."""
    action = ""
    if sign_in is not None:
        words, href = sign_in
        action = _template("sign_in.html").substitute(
            href=html.escape(href), words=html.escape(words)
        )
    if sign_out is not None:
        action += _template("sign_out.html").substitute(words=html.escape(sign_out))
    return action


def shell(
    *, title: str, language: str, page: str, data: dict[str, Any], script: str, base: str = "/"
) -> str:
    """A page the client draws: ``page`` tells the script which (live, replay, activity);
    ``base`` is the path the server answers under (links and assets are relative to it)."""
    return _template("page.html").substitute(
        language=html.escape(language),
        base=html.escape(base),
        title=html.escape(title),
        page=html.escape(page),
        data=_data(data),
        script=html.escape(script),
        version=asset_version(),
    )


def notice_page(
    *,
    title: str,
    message: str,
    language: str,
    reason: str,
    base: str = "/",
    sign_in: tuple[str, str] | None = None,
    sign_out: str | None = None,
) -> str:
    """A page saying why nothing is shown: ``sign_in`` (the link's words, the login URL)
    offers to sign in with Discord; ``sign_out`` (its words) a button that signs out."""
    action = _sign_in_or_out(sign_in, sign_out)
    return _template("notice.html").substitute(
        language=html.escape(language),
        base=html.escape(base),
        title=html.escape(title),
        message=html.escape(message),
        reason=html.escape(reason),
        action=action,
        version=asset_version(),
    )


def landing_page(
    *,
    title: str,
    paragraphs: Sequence[str],
    language: str,
    base: str = "/",
    sign_in: tuple[str, str] | None = None,
    sign_out: str | None = None,
    live: tuple[str, str] | None = None,
) -> str:
    """``/`` opened in a browser (not by Discord, which opens the Activity there): what
    this is, in a few paragraphs, and the sign-in or sign-out when there is one; ``live``
    (the link's words, the live board's address) links a game's live board."""
    action = _sign_in_or_out(sign_in, sign_out)
    if live is not None:
        words, href = live
        action = (
            _template("live_link.html").substitute(href=html.escape(href), words=html.escape(words))
            + action
        )
    return _template("landing.html").substitute(
        language=html.escape(language),
        base=html.escape(base),
        title=html.escape(title),
        paragraphs="\n".join(f"<p>{html.escape(text)}</p>" for text in paragraphs),
        action=action,
        version=asset_version(),
    )


def leaderboard_page(
    *,
    title: str,
    language: str,
    words: dict[str, str],
    rows: Sequence[PlayerStats],
    base: str = "/",
) -> str:
    """The server's leaderboard as a plain table: no script needed."""
    lines = []
    for rank, stats in enumerate(rows, start=1):
        name, rating = html.escape(stats.name), f"{stats.rating:.0f}"
        cells = (rank, name, rating, stats.matches, stats.match_wins)
        lines.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    head = "".join(
        f"<th>{html.escape(words[key])}</th>" for key in ("player", "rating", "matches", "wins")
    )
    return _template("leaderboard.html").substitute(
        language=html.escape(language),
        base=html.escape(base),
        title=html.escape(title),
        head=head,
        rows="".join(lines),
        version=asset_version(),
    )


def chouette_page(
    *,
    title: str,
    language: str,
    picture: str,
    heading: str,
    seats: Sequence[tuple[str, str, str, str]],
    footer: str,
    table_title: str,
    table: Sequence[tuple[str, str]],
    note: str,
    refresh: int,
    base: str = "/",
) -> str:
    """A chouette's table as a plain page: the picture, each seat's row (role, name, cube,
    note) and the session table; ``refresh`` seconds (0: never) before it reloads itself."""
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in seat) + "</tr>"
        for seat in seats
    )
    standings = ""
    if table:
        lines = "".join(
            f"<tr><td>{html.escape(name)}</td><td>{html.escape(points)}</td></tr>"
            for name, points in table
        )
        standings = _template("chouette_table.html").substitute(
            title=html.escape(table_title), rows=lines
        )
    reload = _template("refresh.html").substitute(seconds=refresh) if refresh > 0 else ""
    return _template("chouette.html").substitute(
        language=html.escape(language),
        base=html.escape(base),
        refresh=reload,
        title=html.escape(title),
        picture=html.escape(picture),
        heading=html.escape(heading),
        seats=rows,
        footer=html.escape(footer),
        table=standings,
        note=html.escape(note),
        version=asset_version(),
    )


__all__ = [
    "chouette_page",
    "landing_page",
    "leaderboard_page",
    "notice_page",
    "shell",
    "theme_json",
]
