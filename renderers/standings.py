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
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderers.png import fast_zlib
from renderers.text import ELLIPSIS, clean, text_image, text_width
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
# A table has few columns: narrower, it is shown larger on a phone (Discord fits the width).
TABLE_WIDTH = 800
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
    design: int = DEFAULT_WIDTH  # the width the sizes below are designed at

    def __call__(self, value: float) -> int:
        return max(1, round(value * self.width / self.design))


HEAD_H, SUB_H, PAD = 64, 40, 24
ROW_H, HEADER_H = 54, 46
SIDE_H, MATCH_GAP, ROUND_HEAD = 42, 18, 44
PODIUM_H = 52


def table_size(rows: int, width: int = TABLE_WIDTH) -> tuple[int, int]:
    """The picture's size for a table of ``rows`` lines."""
    s = _Scale(width, TABLE_WIDTH)
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


# Anti-aliased text is drawn with this many shades between a colour and its background.
SHADES = 8


@dataclass(frozen=True, slots=True)
class _Palette:
    """Every colour the pictures of one theme use, in a fixed palette.

    The pictures are drawn straight onto palette indices and written with
    :func:`renderers.png.write_png`, never mapped from full colour afterwards: mapping a
    64-player table (3.6 million pixels) onto a palette took 110 ms, more than all the
    drawing. Text is one colour on a known background, so its anti-aliased edges are
    shades between the two, all in the palette.
    """

    theme: Theme
    colours: tuple[RGB, ...]
    index: _Index
    image: Image.Image  # a "P" image carrying the palette, for quantizing the medals

    def __getitem__(self, colour: RGB) -> int:
        return self.index[colour]

    def shades(self, colour: RGB, background: RGB) -> bytes:
        """The palette index for each alpha 0-255 of ``colour`` over ``background``, as a
        table for :meth:`bytes.translate`."""
        return _shades(self.index, colour, background)


@functools.lru_cache(maxsize=256)
def _shades(index: _Index, colour: RGB, background: RGB) -> bytes:
    steps = [index[_mix(background, colour, k / (SHADES - 1))] for k in range(SHADES)]
    return bytes(steps[round(a * (SHADES - 1) / 255)] for a in range(256))


class _Index(dict[RGB, int]):
    """A palette's colour -> index map, hashed by identity (one per cached palette)."""

    __hash__ = object.__hash__  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return self is other


def _surfaces(theme: Theme) -> dict[str, RGB]:
    """The backgrounds text is drawn on, and the few colours derived from the theme."""
    return {
        "background": theme.background,
        "stripe": _mix(theme.background, theme.panel, 0.55),
        "panel": theme.panel,
        "active": theme.panel_active,
        "frame": theme.frame,
    }


@functools.cache
def _palette(theme: Theme) -> _Palette:
    surfaces = list(_surfaces(theme).values())
    inks = [theme.text, theme.muted, theme.numbers]
    colours: list[RGB] = []
    for colour in [
        *surfaces,
        *inks,
        theme.frame_edge,
        theme.accent,
        theme.accent_dark,
        _line(theme),
        _divider(theme),
        MEDAL_TEXT,
        *(c for pair in MEDALS.values() for c in pair),
    ]:
        if colour not in colours:
            colours.append(colour)
    for ink in inks:
        for surface in surfaces:
            for k in range(1, SHADES - 1):
                shade = _mix(surface, ink, k / (SHADES - 1))
                if shade not in colours:
                    colours.append(shade)
    assert len(colours) <= 256
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    palette = _Palette(theme, tuple(colours), _Index((c, i) for i, c in enumerate(colours)), image)
    _PALETTES[id(palette)] = palette
    return palette


def _line(theme: Theme) -> RGB:
    return _mix(theme.muted, theme.background, 0.35)


def _divider(theme: Theme) -> RGB:
    return _mix(theme.panel, theme.muted, 0.35)


# Palettes by id, for the tile cache's key: hashing a Theme on every text costs more than
# drawing the text once it is cached. _palette keeps each one alive, so ids stay unique.
_PALETTES: dict[int, _Palette] = {}


@functools.lru_cache(maxsize=4096)
def _text_tile(
    text: str, size: int, ink: RGB, background: RGB, bold: bool, max_width: int, palette: int
) -> Image.Image:
    """``text`` as palette indices on its background (a "P" image pasted without a mask)."""
    if _numeric(text) and sum(_char_width(ch, size, bold) for ch in text) <= max_width:
        return _composed(text, size, ink, background, bold, palette)
    image = text_image(_precut(text, size, bold, max_width), size, ink, bold=bold,
                       max_width=max_width)  # fmt: skip
    shades = _PALETTES[palette].shades(ink, background)
    indices = image.getchannel("A").tobytes().translate(shades)
    return Image.frombuffer("P", image.size, indices, "raw", "P", 0, 1)


# Figures (points, tie-breaks, records, ranks) are composed from one tile per character,
# made once per process like the fonts: a 64-player table has 150 different figures, and
# drawing each whole took a third of the time of a table drawn from cold. DejaVu Sans
# does not kern digits, so the figures look the same either way.
NUMERIC = frozenset("0123456789,.+-–/")


def _numeric(text: str) -> bool:
    return bool(text) and all(ch in NUMERIC for ch in text)


@functools.lru_cache(maxsize=1024)
def _glyph(
    ch: str, size: int, ink: RGB, background: RGB, bold: bool, palette: int
) -> tuple[Image.Image, Image.Image]:
    """One character's tile on its background, and the mask of its inked pixels."""
    image = text_image(ch, size, ink, bold=bold)
    alpha = image.getchannel("A")
    indices = alpha.tobytes().translate(_PALETTES[palette].shades(ink, background))
    tile = Image.frombuffer("P", image.size, indices, "raw", "P", 0, 1)
    return tile, alpha.point(lambda a: 255 if a else 0)


def _composed(
    text: str, size: int, ink: RGB, background: RGB, bold: bool, palette: int
) -> Image.Image:
    """A figure laid out from character tiles at their advances, as text_image would."""
    total = sum(_char_width(ch, size, bold) for ch in text)
    glyphs = [_glyph(ch, size, ink, background, bold, palette) for ch in text]
    canvas = Image.new(
        "P", (max(1, round(total) + 2), glyphs[0][0].height), _PALETTES[palette][background]
    )
    x = 0.0
    for ch, (tile, mask) in zip(text, glyphs, strict=True):
        canvas.paste(tile, (round(x), 0), mask)
        x += _char_width(ch, size, bold)
    return canvas


@functools.lru_cache(maxsize=8192)
def _char_width(ch: str, size: int, bold: bool) -> float:
    if ch.isspace():  # a lone space is cleaned away (width 0): measure it between letters
        return text_width(f"x{ch}x", size, bold=bold) - text_width("xx", size, bold=bold)
    return text_width(ch, size, bold=bold)


def _precut(text: str, size: int, bold: bool, max_width: int) -> str:
    """``text``, or for one clearly too long, its start and an ellipsis, cut by the widths
    of its characters (cached: a club's names share an alphabet).

    :func:`renderers.text.text_image` cuts a long text exactly, by a binary search that
    shapes a dozen prefixes: most of the time of a 64-player table drawn from cold. Cut
    here with a little room to spare, the text fits at once; should the estimate be short
    of room (shaping is not the sum of the characters), ``text_image`` still cuts it.
    """
    cleaned = clean(text)
    widths = [_char_width(ch, size, bold) for ch in cleaned]
    if sum(widths) <= max_width * 0.97:  # fits with room to spare
        return text
    if sum(widths) <= max_width * 1.03 and text_width(cleaned, size, bold=bold) <= max_width:
        return text  # nearly: one exact measure says it fits (no search for the cut)
    budget = max_width * 0.97 - _char_width(ELLIPSIS, size, bold)
    total, keep = 0.0, 0
    for keep, width in enumerate(widths):  # noqa: B007 - keep is read after the loop
        if total + width > budget:
            break
        total += width
    return cleaned[:keep].rstrip() + ELLIPSIS


@functools.cache
def _medal(place: int, radius: int, background: RGB, theme: Theme) -> Image.Image:
    """A medal disc with its place number on ``background``, drawn large and scaled down
    (smooth edges), then put on the palette."""
    fill, rim = MEDALS.get(place, MEDALS[3])
    big = 4 * radius
    disc = Image.new("RGBA", (2 * big + 4, 2 * big + 4), (*background, 255))
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
    return disc.convert("RGB").quantize(palette=_palette(theme).image, dither=Image.Dither.NONE)


class _Painter:
    """Draws on palette indices: rectangles and lines in the theme's colours, text and
    medals as tiles made for the background they sit on (``on``: a key of
    :func:`_surfaces`)."""

    def __init__(self, size: tuple[int, int], theme: Theme, design: int = DEFAULT_WIDTH) -> None:
        self.palette = _palette(theme)
        self.surfaces = _surfaces(theme)
        # One column more than the picture: see finish().
        self.width = size[0]
        self.image = Image.new("P", (size[0] + 1, size[1]), self.palette[theme.background])
        self.draw = ImageDraw.Draw(self.image)
        self.theme = theme
        self.s = _Scale(size[0], design)

    def rect(self, box: tuple[int, int, int, int], colour: RGB) -> None:
        self.draw.rectangle(box, fill=self.palette[colour])

    def box(self, box: tuple[int, int, int, int], fill: RGB, outline: RGB, width: int) -> None:
        self.draw.rounded_rectangle(
            box,
            radius=self.s(8),
            fill=self.palette[fill],
            outline=self.palette[outline],
            width=width,
        )

    def line(self, points: tuple[int, int, int, int], colour: RGB, width: int = 1) -> None:
        self.draw.line(points, fill=self.palette[colour], width=width)

    def text(
        self,
        text: str,
        at: tuple[int, int],
        size: int,
        colour: RGB,
        *,
        on: str = "background",
        bold: bool = False,
        max_width: int = 10_000,
        anchor: str = "lm",
    ) -> None:
        """``text`` with its left (``l``), centre (``m``) or right (``r``) at ``at``'s x and
        its middle at ``at``'s y, on the surface ``on``."""
        if not text or max_width <= 0:
            return
        tile = _text_tile(
            text, self.s(size), colour, self.surfaces[on], bold, max_width, id(self.palette)
        )
        x, y = at
        if anchor[0] == "m":
            x -= tile.width // 2
        elif anchor[0] == "r":
            x -= tile.width
        self.image.paste(tile, (x, y - tile.height // 2))

    def medal(self, place: int, centre: tuple[int, int], radius: int, on: str) -> None:
        disc = _medal(place, radius, self.surfaces[on], self.theme)
        self.image.paste(disc, (centre[0] - disc.width // 2, centre[1] - disc.height // 2))

    def header(self, title: str, subtitle: str) -> int:
        """The title band in the board's wood, then the subtitle; returns the y below."""
        s, theme = self.s, self.theme
        self.rect((0, 0, self.width, s(HEAD_H)), theme.frame)
        width = self.width - 2 * s(PAD)
        self.text(
            title, (s(PAD), s(HEAD_H) // 2), 36, theme.numbers, on="frame", bold=True,
            max_width=width,
        )  # fmt: skip
        self.text(subtitle, (s(PAD), s(HEAD_H) + s(SUB_H) // 2), 26, theme.muted, max_width=width)
        return s(HEAD_H + SUB_H)

    def podium(self, lines: Sequence[tuple[int, str]], top: int) -> None:
        s, theme = self.s, self.theme
        y = top + s(PAD)
        for place, name in lines:
            centre = (s(PAD) + s(18), y + s(PODIUM_H) // 2)
            self.medal(place, centre, s(18), "background")
            width = self.width - 3 * s(PAD) - s(40)
            self.text(
                name, (s(PAD) + s(48), centre[1]), 28, theme.text, bold=place == 1, max_width=width
            )
            y += s(PODIUM_H)

    def finish(self) -> bytes:
        """The PNG. Each PNG row starts with its filter type (0, none): the canvas has one
        column more than the picture, set to 0, and the bytes are shifted by one, so that
        column becomes the next row's filter byte (no copy of the picture into new rows)."""
        width, height = self.width, self.image.height
        self.draw.line((width, 0, width, height), fill=0)
        rows = b"\0" + self.image.tobytes()[:-1]
        palette = bytes(channel for colour in self.palette.colours for channel in colour)
        return _write_png(rows, width, height, palette)


def _write_png(rows: bytes, width: int, height: int, palette: bytes) -> bytes:
    """A palette PNG, deflated at the fastest level (ISA-L when installed).

    Not :func:`renderers.png.write_png`: its size budget (a board under 80 KB) makes it
    compress again at zlib's level 6, 80 ms for a 64-player table that is rightly larger.
    """
    data = fast_zlib.compress(rows, 1) if fast_zlib is not None else zlib.compress(rows, 1)

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(body, zlib.crc32(kind))
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette indices
    return b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", header),
            chunk(b"PLTE", palette),
            chunk(b"IDAT", data),
            chunk(b"IEND", b""),
        )
    )


# --- the table ---------------------------------------------------------------------------


def render_table(
    picture: TablePicture, *, width: int = TABLE_WIDTH, theme: Theme | str = CLASSIC
) -> bytes:
    """The standings table as PNG: rank (a medal for the podium), name, then the columns."""
    _check_width(width)
    th = _theme(theme)
    size = table_size(len(picture.rows), width)
    p = _Painter(size, th, TABLE_WIDTH)
    s = p.s
    y = p.header(picture.title, picture.subtitle) + s(PAD) // 2
    rank_w, cell_w = s(72), s(92)
    cells_left = width - s(PAD) - cell_w * len(picture.columns)
    name_left = s(PAD) + rank_w
    name_w = cells_left - name_left - s(12)
    rank_x = s(PAD) + rank_w // 2 - s(6)

    # The header row: muted words on the panel colour.
    p.rect((s(PAD) // 2, y, width - s(PAD) // 2, y + s(HEADER_H)), th.panel)
    middle = y + s(HEADER_H) // 2
    p.text(picture.name_header, (name_left, middle), 24, th.muted, on="panel", bold=True,
           max_width=name_w)  # fmt: skip
    for index, column in enumerate(picture.columns):
        x = cells_left + index * cell_w + cell_w // 2
        p.text(column, (x, middle), 24, th.muted, on="panel", bold=True,
               max_width=cell_w - s(6), anchor="m")  # fmt: skip
    y += s(HEADER_H)

    for number, row in enumerate(picture.rows):
        top, bottom = y, y + s(ROW_H)
        on = "active" if row.medal == 1 else "stripe" if number % 2 else "background"
        if on != "background":
            p.rect((s(PAD) // 2, top, width - s(PAD) // 2, bottom), p.surfaces[on])
        middle = (top + bottom) // 2
        colour = th.muted if row.muted else th.text
        if row.medal in MEDALS:
            p.medal(row.medal, (rank_x, middle), s(19), on)
        else:
            p.text(str(row.rank), (rank_x, middle), 26, th.muted, on=on, anchor="m")
        p.text(row.name, (name_left, middle), 28, colour, on=on, bold=row.medal == 1,
               max_width=name_w)  # fmt: skip
        for index, cell in enumerate(row.cells):
            x = cells_left + index * cell_w + cell_w // 2
            p.text(cell, (x, middle), 26, colour, on=on, bold=index == 0,
                   max_width=cell_w - s(6), anchor="m")  # fmt: skip
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
            if len(previous) >= 2 * len(matches):  # two matches feed each: between them
                ys = [
                    (previous[2 * i] + previous[min(2 * i + 1, len(previous) - 1)]) // 2
                    for i in range(len(matches))
                ]
            else:  # a consolation's feed round: one match each, beside it
                ys = [previous[min(i, len(previous) - 1)] for i in range(len(matches))]
        centres.append(ys)

    line = _line(th)
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
                if r + 1 < len(picture.rounds):
                    following = centres[r + 1]
                    target = following[min(i * len(following) // len(matches), len(following) - 1)]
                else:
                    target = cy
                p.line((right, cy, mid_x, cy), line, s(3))
                p.line((mid_x, cy, mid_x, target), line, s(3))
                p.line((mid_x, target, right + gutter, target), line, s(3))

    if picture.champion is not None:
        left = s(PAD) + len(picture.rounds) * (column_w + gutter)
        cy = centres[-1][0] if centres else body_top + slot // 2
        p.text(picture.champion_title, (left + column_w // 2, top + s(ROUND_HEAD) // 2), 24,
               th.muted, bold=True, max_width=column_w, anchor="m")  # fmt: skip
        box = (left, cy - s(SIDE_H) // 2 - s(6), left + column_w, cy + s(SIDE_H) // 2 + s(6))
        p.box(box, th.panel_active, th.accent_dark, s(2))
        p.medal(1, (left + s(24), cy), s(16), "active")
        p.text(picture.champion, (left + s(46), cy), 26, th.text, on="active", bold=True,
               max_width=column_w - s(54))  # fmt: skip

    if picture.podium:
        body_bottom = body_top + (len(picture.rounds[0]) if picture.rounds else 1) * slot
        p.podium(picture.podium, body_bottom)
    return p.finish()


def _draw_match(p: _Painter, match: BracketMatch, box: tuple[int, int, int, int]) -> None:
    s, th = p.s, p.theme
    left, top, right, bottom = box
    p.box(box, th.panel, th.frame_edge, s(2))
    middle = (top + bottom) // 2
    p.line((left + s(4), middle, right - s(4), middle), _divider(th))
    for side, (y0, y1) in ((match.top, (top, middle)), (match.bottom, (middle, bottom))):
        cy = (y0 + y1) // 2
        if side.won:
            p.rect((left + s(3), y0 + s(3), left + s(8), y1 - s(3)), th.accent)
        seed_w = s(40)
        if side.seed is not None:
            p.text(str(side.seed), (left + s(12) + seed_w // 2, cy), 20, th.muted, on="panel",
                   anchor="m")  # fmt: skip
        score_w = s(64) if side.score else 0
        if side.pending:
            name, colour = "–", th.muted
        elif side.muted or not side.name:
            name, colour = side.name, th.muted
        else:
            name, colour = side.name, th.text if side.won or not side.score else th.muted
        p.text(name, (left + s(12) + seed_w, cy), 24, colour, on="panel", bold=side.won,
               max_width=right - left - seed_w - score_w - s(18))  # fmt: skip
        p.text(side.score, (right - s(10), cy), 24, th.text if side.won else th.muted,
               on="panel", bold=side.won, max_width=score_w, anchor="r")  # fmt: skip
