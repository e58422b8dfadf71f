"""Pictures of a competition: a knockout bracket, and a standings table with medals.

Pure: a :class:`BracketPicture` or :class:`TablePicture` in, PNG bytes out, drawn with the
board's themes (light ``classic`` or ``dark``) and shipped fonts, so any name in any script
is drawn or cut with an ellipsis (:mod:`renderers.text`). Every word is passed in finished
(the caller, :mod:`bot.present.competitions`, says them in the reader's language); the
renderer never translates and never reads the competition's own types, only these plain
records, so it knows nothing of the rules.

Readable on a phone: pictures are 1000 px wide by default (Discord shows them at about a
phone's width) with text of 26-30 px, and grow downwards rather than sideways; the caller
passes at most a few bracket rounds at a time (the current round and the next ones).

>>> table = TablePicture(
...     title="Club Swiss", subtitle="after round 2", name_header="Player",
...     columns=("Pts",), rows=(TableRow(1, "alice", ("2",), medal=1),),
... )
>>> render_table(table)[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderers.text import text_image
from renderers.theme import CLASSIC, MAX_WIDTH, MIN_WIDTH, RGB, THEMES, Theme

__all__ = [
    "BracketMatch",
    "BracketPicture",
    "BracketSide",
    "TablePicture",
    "TableRow",
    "bracket_size",
    "render_bracket",
    "render_table",
    "table_size",
]

DEFAULT_WIDTH = 1000
# Medal colours, the same on both themes: gold, silver, bronze, with a darker rim.
MEDALS: dict[int, tuple[RGB, RGB]] = {
    1: ((233, 185, 38), (140, 100, 0)),
    2: ((196, 202, 210), (104, 110, 120)),
    3: ((211, 133, 68), (120, 66, 20)),
}
MEDAL_TEXT: RGB = (40, 30, 10)


@dataclass(frozen=True, slots=True)
class TableRow:
    """One line of a table: ``cells`` are already formatted, one per column header."""

    rank: int
    name: str
    cells: tuple[str, ...]
    medal: int | None = None  # 1, 2 or 3 for the podium
    muted: bool = False  # withdrawn, voided: drawn in the secondary colour


@dataclass(frozen=True, slots=True)
class TablePicture:
    title: str
    subtitle: str
    name_header: str
    columns: tuple[str, ...]
    rows: tuple[TableRow, ...]


@dataclass(frozen=True, slots=True)
class BracketSide:
    """One side of a match box: an empty ``name`` is an empty place (a bye), ``pending`` a
    place whose player is not known yet (drawn as a dash)."""

    name: str = ""
    seed: int | None = None
    score: str = ""  # "7", "W/O", ...: the caller's words
    won: bool = False
    pending: bool = False
    muted: bool = False  # a word in place of a name ("bye"), or a player who withdrew


@dataclass(frozen=True, slots=True)
class BracketMatch:
    top: BracketSide
    bottom: BracketSide


@dataclass(frozen=True, slots=True)
class BracketPicture:
    """Rounds left to right, each with half the matches of the one before; ``champion``
    (with a gold medal) in a last column once known; ``podium`` as (place, name) lines."""

    title: str
    subtitle: str
    round_titles: tuple[str, ...]
    rounds: tuple[tuple[BracketMatch, ...], ...]
    champion: str | None = None
    champion_title: str = ""
    podium: tuple[tuple[int, str], ...] = ()


# --- geometry (designed at 1000 px, scaled) ----------------------------------------------


@dataclass(frozen=True, slots=True)
class _Scale:
    width: int

    def __call__(self, value: float) -> int:
        return max(1, round(value * self.width / DEFAULT_WIDTH))


HEAD_H, SUB_H, PAD = 64, 40, 24
ROW_H, HEADER_H = 54, 46
SIDE_H, MATCH_GAP, ROUND_HEAD = 42, 18, 44
PODIUM_H = 52


def table_size(rows: int, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    """The picture's size for a table of ``rows`` lines."""
    s = _Scale(width)
    return width, s(HEAD_H + SUB_H + HEADER_H + PAD) + rows * s(ROW_H) + s(PAD)


def bracket_size(picture: BracketPicture, width: int = DEFAULT_WIDTH) -> tuple[int, int]:
    s = _Scale(width)
    first = len(picture.rounds[0]) if picture.rounds else 1
    body = first * (2 * s(SIDE_H) + s(MATCH_GAP))
    podium = s(PODIUM_H) * len(picture.podium) + (s(PAD) if picture.podium else 0)
    return width, s(HEAD_H + SUB_H + ROUND_HEAD) + body + podium + s(PAD)


# --- drawing helpers ---------------------------------------------------------------------


def _theme(theme: Theme | str) -> Theme:
    return THEMES[theme] if isinstance(theme, str) else theme


def _check_width(width: int) -> None:
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width must be {MIN_WIDTH}-{MAX_WIDTH} pixels, not {width}")


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


class _Painter:
    def __init__(self, size: tuple[int, int], theme: Theme) -> None:
        self.image = Image.new("RGB", size, theme.background)
        self.draw = ImageDraw.Draw(self.image)
        self.theme = theme
        self.s = _Scale(size[0])

    def text(
        self,
        text: str,
        at: tuple[int, int],
        size: int,
        colour: RGB,
        *,
        bold: bool = False,
        max_width: int = 10_000,
        anchor: str = "lm",
    ) -> None:
        """``text`` with its left (``l``), centre (``m``) or right (``r``) at ``at``'s x and
        its middle at ``at``'s y."""
        if not text or max_width <= 0:
            return
        image = text_image(text, self.s(size), colour, bold=bold, max_width=max_width)
        x, y = at
        if anchor[0] == "m":
            x -= image.width // 2
        elif anchor[0] == "r":
            x -= image.width
        self.image.paste(image, (x, y - image.height // 2), image)

    def medal(self, place: int, centre: tuple[int, int], radius: int) -> None:
        disc = _medal(place, radius)
        self.image.paste(disc, (centre[0] - disc.width // 2, centre[1] - disc.height // 2), disc)

    def header(self, title: str, subtitle: str) -> int:
        """The title band in the board's wood, then the subtitle; returns the y below."""
        s, theme = self.s, self.theme
        self.draw.rectangle((0, 0, self.image.width, s(HEAD_H)), fill=theme.frame)
        width = self.image.width - 2 * s(PAD)
        self.text(title, (s(PAD), s(HEAD_H) // 2), 36, theme.numbers, bold=True, max_width=width)
        self.text(subtitle, (s(PAD), s(HEAD_H) + s(SUB_H) // 2), 26, theme.muted, max_width=width)
        return s(HEAD_H + SUB_H)

    def podium(self, lines: Sequence[tuple[int, str]], top: int) -> None:
        s, theme = self.s, self.theme
        y = top + s(PAD)
        for place, name in lines:
            centre = (s(PAD) + s(18), y + s(PODIUM_H) // 2)
            self.medal(place, centre, s(18))
            width = self.image.width - 3 * s(PAD) - s(40)
            self.text(
                name, (s(PAD) + s(48), centre[1]), 28, theme.text, bold=place == 1, max_width=width
            )
            y += s(PODIUM_H)

    def finish(self) -> bytes:
        buffer = io.BytesIO()
        # Flat colours and text: a small adaptive palette loses nothing visible and keeps
        # the PNG small and quick to write.
        self.image.quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(
            buffer, "PNG", compress_level=1
        )
        return buffer.getvalue()


@functools.cache
def _medal(place: int, radius: int) -> Image.Image:
    """A medal disc with its place number, drawn large and scaled down (smooth edges)."""
    fill, rim = MEDALS.get(place, MEDALS[3])
    big = 4 * radius
    disc = Image.new("RGBA", (2 * big + 4, 2 * big + 4), (0, 0, 0, 0))
    draw = ImageDraw.Draw(disc)
    draw.ellipse((2, 2, 2 * big + 2, 2 * big + 2), fill=(*rim, 255))
    inset = max(2, big // 7)
    draw.ellipse(
        (2 + inset, 2 + inset, 2 * big + 2 - inset, 2 * big + 2 - inset), fill=(*fill, 255)
    )
    disc = disc.resize((2 * radius + 1, 2 * radius + 1), Image.Resampling.LANCZOS)
    number = text_image(str(place), max(8, round(radius * 1.25)), MEDAL_TEXT, bold=True)
    disc.alpha_composite(
        number, ((disc.width - number.width) // 2, (disc.height - number.height) // 2)
    )
    return disc


# --- the table ---------------------------------------------------------------------------


def render_table(
    picture: TablePicture, *, width: int = DEFAULT_WIDTH, theme: Theme | str = CLASSIC
) -> bytes:
    """The standings table as PNG: rank (a medal for the podium), name, then the columns."""
    _check_width(width)
    th = _theme(theme)
    size = table_size(len(picture.rows), width)
    p = _Painter(size, th)
    s = p.s
    y = p.header(picture.title, picture.subtitle) + s(PAD) // 2
    rank_w, cell_w = s(76), s(104)
    cells_left = width - s(PAD) - cell_w * len(picture.columns)
    name_left = s(PAD) + rank_w
    name_w = cells_left - name_left - s(12)

    # The header row: muted words on the panel colour.
    p.draw.rectangle((s(PAD) // 2, y, width - s(PAD) // 2, y + s(HEADER_H)), fill=th.panel)
    middle = y + s(HEADER_H) // 2
    p.text(picture.name_header, (name_left, middle), 24, th.muted, bold=True, max_width=name_w)
    for index, column in enumerate(picture.columns):
        x = cells_left + index * cell_w + cell_w // 2
        p.text(column, (x, middle), 24, th.muted, bold=True, max_width=cell_w - s(6), anchor="m")
    y += s(HEADER_H)

    stripe = _mix(th.background, th.panel, 0.55)
    for number, row in enumerate(picture.rows):
        top, bottom = y, y + s(ROW_H)
        if row.medal == 1:
            p.draw.rectangle((s(PAD) // 2, top, width - s(PAD) // 2, bottom), fill=th.panel_active)
        elif number % 2:
            p.draw.rectangle((s(PAD) // 2, top, width - s(PAD) // 2, bottom), fill=stripe)
        middle = (top + bottom) // 2
        colour = th.muted if row.muted else th.text
        if row.medal in MEDALS:
            p.medal(row.medal, (s(PAD) + rank_w // 2 - s(6), middle), s(19))
        else:
            p.text(str(row.rank), (s(PAD) + rank_w // 2 - s(6), middle), 26, th.muted, anchor="m")
        p.text(row.name, (name_left, middle), 28, colour, bold=row.medal == 1, max_width=name_w)
        for index, cell in enumerate(row.cells):
            x = cells_left + index * cell_w + cell_w // 2
            p.text(
                cell, (x, middle), 26, colour, bold=index == 0, max_width=cell_w - s(6), anchor="m"
            )
        y = bottom
    return p.finish()


# --- the bracket -------------------------------------------------------------------------


def render_bracket(
    picture: BracketPicture, *, width: int = DEFAULT_WIDTH, theme: Theme | str = CLASSIC
) -> bytes:
    """The bracket as PNG: one column per round, lines joining each match to the next."""
    _check_width(width)
    th = _theme(theme)
    size = bracket_size(picture, width)
    p = _Painter(size, th)
    s = p.s
    top = p.header(picture.title, picture.subtitle)
    columns = len(picture.rounds) + (1 if picture.champion is not None else 0)
    gutter = s(34)
    usable = width - 2 * s(PAD) - gutter * max(0, columns - 1)
    column_w = usable // max(1, columns)
    body_top = top + s(ROUND_HEAD)
    box_h = 2 * s(SIDE_H)
    slot = box_h + s(MATCH_GAP)

    centres: list[list[int]] = []
    for r, matches in enumerate(picture.rounds):
        if r == 0:
            ys = [body_top + i * slot + slot // 2 for i in range(len(matches))]
        else:
            previous = centres[-1]
            ys = [
                (previous[2 * i] + previous[min(2 * i + 1, len(previous) - 1)]) // 2
                for i in range(len(matches))
            ]
        centres.append(ys)

    line = _mix(th.muted, th.background, 0.35)
    for r, matches in enumerate(picture.rounds):
        left = s(PAD) + r * (column_w + gutter)
        title = picture.round_titles[r] if r < len(picture.round_titles) else ""
        p.text(title, (left + column_w // 2, top + s(ROUND_HEAD) // 2), 24, th.muted,
               bold=True, max_width=column_w, anchor="m")  # fmt: skip
        for i, match in enumerate(matches):
            cy = centres[r][i]
            box = (left, cy - box_h // 2, left + column_w, cy + box_h // 2)
            _draw_match(p, match, box)
            if r + 1 < len(picture.rounds) or picture.champion is not None:
                right, mid_x = box[2], box[2] + gutter // 2
                target = centres[r + 1][i // 2] if r + 1 < len(picture.rounds) else cy
                p.draw.line((right, cy, mid_x, cy), fill=line, width=s(3))
                p.draw.line((mid_x, cy, mid_x, target), fill=line, width=s(3))
                p.draw.line((mid_x, target, right + gutter, target), fill=line, width=s(3))

    if picture.champion is not None:
        left = s(PAD) + len(picture.rounds) * (column_w + gutter)
        cy = centres[-1][0] if centres else body_top + slot // 2
        p.text(picture.champion_title, (left + column_w // 2, top + s(ROUND_HEAD) // 2), 24,
               th.muted, bold=True, max_width=column_w, anchor="m")  # fmt: skip
        box = (left, cy - s(SIDE_H) // 2 - s(6), left + column_w, cy + s(SIDE_H) // 2 + s(6))
        p.draw.rounded_rectangle(box, radius=s(8), fill=th.panel_active, outline=th.accent_dark,
                                 width=s(2))  # fmt: skip
        p.medal(1, (left + s(24), cy), s(16))
        p.text(picture.champion, (left + s(46), cy), 26, th.text, bold=True,
               max_width=column_w - s(54))  # fmt: skip

    if picture.podium:
        body_bottom = body_top + (len(picture.rounds[0]) if picture.rounds else 1) * slot
        p.podium(picture.podium, body_bottom)
    return p.finish()


def _draw_match(p: _Painter, match: BracketMatch, box: tuple[int, int, int, int]) -> None:
    s, th = p.s, p.theme
    left, top, right, bottom = box
    p.draw.rounded_rectangle(box, radius=s(8), fill=th.panel, outline=th.frame_edge, width=s(2))
    middle = (top + bottom) // 2
    p.draw.line((left + s(4), middle, right - s(4), middle), fill=_mix(th.panel, th.muted, 0.35))
    for side, (y0, y1) in ((match.top, (top, middle)), (match.bottom, (middle, bottom))):
        cy = (y0 + y1) // 2
        if side.won:
            p.draw.rectangle((left + s(3), y0 + s(3), left + s(8), y1 - s(3)), fill=th.accent)
        seed_w = s(40)
        if side.seed is not None:
            p.text(str(side.seed), (left + s(12) + seed_w // 2, cy), 20, th.muted, anchor="m")
        score_w = s(64) if side.score else 0
        if side.pending:
            name, colour = "–", th.muted
        elif side.muted or not side.name:
            name, colour = side.name, th.muted
        else:
            name, colour = side.name, th.text if side.won or not side.score else th.muted
        p.text(name, (left + s(12) + seed_w, cy), 24, colour, bold=side.won,
               max_width=right - left - seed_w - score_w - s(18))  # fmt: skip
        p.text(side.score, (right - s(10), cy), 24, th.text if side.won else th.muted,
               bold=side.won, max_width=score_w, anchor="r")  # fmt: skip
