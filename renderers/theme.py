"""Colours, geometry and fonts of the board picture.

A :class:`Theme` is only colours; a :class:`Layout` is only geometry: where every point,
checker slot, tray, die and the cube go for an image of a given width. Both are plain
values, so tests can compute where a pixel must be and what colour it must have.

The layout is drawn from the side of one player (the *perspective*): their home board is at
the bottom right, their points numbered 1-6 right to left along the bottom, 7-12 on to the
left, 13-18 left to right along the top and 19-24 on to the top right. Their opponent is
drawn at the top. "near" below means the perspective player's side, "far" the other. A
layout with ``home="left"`` mirrors all of that left to right (the home board at the bottom
left, the trays in the left rail, the cube in the right one); only the places change, so
text drawn there still reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from PIL import ImageFont, features

RGB = tuple[int, int, int]
Side = Literal["near", "far"]
Home = Literal["right", "left"]  # where the perspective player's home board is drawn
HOMES: tuple[Home, ...] = ("right", "left")

FONT_DIR = Path(__file__).with_name("fonts")
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
# Tried in order for characters DejaVu Sans lacks (see renderers/text.py).
FALLBACK_FONTS = (FONT_DIR / "DroidSansFallback.ttf", FONT_DIR / "Symbola.ttf")

DEFAULT_WIDTH = 1000
MIN_WIDTH = 300
MAX_WIDTH = 3000


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of one look of the board.

    ``checkers[0]`` is player 0's colour and ``checkers[1]`` player 1's, whatever the
    perspective: a player keeps their colour in every picture of a match.
    """

    name: str
    background: RGB  # around the board, behind the player panels
    frame: RGB  # the wooden rim, rails and bar
    frame_edge: RGB  # a thin line where the frame meets the field
    field: RGB  # the playing surface
    points: tuple[RGB, RGB]  # alternating point colours (odd points, even points)
    numbers: RGB  # point numbers on the frame
    tray: RGB  # the bear-off trays' floor: both checker colours must show on it
    checkers: tuple[RGB, RGB]  # player 0, player 1
    checker_rims: tuple[RGB, RGB]  # the edge line of each player's checkers
    checker_text: tuple[RGB, RGB]  # counts written on each player's checkers
    die_pips: tuple[RGB, RGB]  # pips on each player's dice
    cube: RGB
    cube_text: RGB
    text: RGB  # names and figures in the panels
    muted: RGB  # secondary text: labels, IDs
    panel: RGB  # a player's panel
    panel_active: RGB  # the panel of the player who must act
    accent: RGB  # turn marker, last-play arrows, the offered cube's glow
    accent_dark: RGB  # outline of the accent shapes, so they read on light and dark
    hit: RGB  # the badge on a point where a checker was hit
    banner: RGB  # the game-over banner
    banner_text: RGB


CLASSIC = Theme(
    name="classic",
    background=(236, 229, 214),
    frame=(92, 58, 33),
    frame_edge=(58, 35, 19),
    field=(48, 112, 78),
    points=((178, 49, 43), (233, 218, 182)),
    numbers=(246, 233, 205),
    tray=(48, 112, 78),
    checkers=((246, 240, 226), (40, 36, 34)),
    checker_rims=((120, 108, 92), (8, 8, 8)),
    checker_text=((30, 30, 30), (250, 246, 236)),
    die_pips=((25, 25, 25), (250, 246, 236)),
    cube=(252, 250, 244),
    cube_text=(25, 25, 25),
    text=(34, 30, 26),
    muted=(104, 94, 82),
    panel=(250, 246, 238),
    panel_active=(255, 236, 179),
    accent=(255, 176, 0),
    accent_dark=(82, 52, 0),
    hit=(214, 36, 66),
    banner=(28, 24, 20),
    banner_text=(255, 246, 226),
)

DARK = Theme(
    name="dark",
    background=(20, 22, 27),
    frame=(42, 46, 55),
    frame_edge=(14, 15, 18),
    field=(29, 33, 40),
    points=((70, 88, 118), (118, 104, 86)),
    numbers=(200, 206, 216),
    tray=(29, 33, 40),
    checkers=((240, 240, 236), (234, 132, 36)),
    checker_rims=((150, 150, 146), (120, 58, 6)),
    checker_text=((25, 25, 25), (25, 18, 10)),
    die_pips=((25, 25, 25), (25, 18, 10)),
    cube=(236, 238, 242),
    cube_text=(20, 22, 27),
    text=(236, 238, 242),
    muted=(150, 158, 170),
    panel=(34, 38, 46),
    panel_active=(58, 66, 96),
    accent=(92, 200, 255),
    accent_dark=(6, 40, 66),
    hit=(255, 72, 104),
    banner=(8, 9, 11),
    banner_text=(240, 242, 246),
)

THEMES: dict[str, Theme] = {theme.name: theme for theme in (CLASSIC, DARK)}


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes in an image ``width`` pixels wide (height follows).

    Geometry is designed at 1000 px and scaled; all coordinates are whole pixels.

    >>> layout = Layout.for_width(1000)
    >>> layout.width, layout.height
    (1000, 896)
    >>> layout.checker_centre(1, 0)  # the near player's ace point, the checker on the edge
    (884, 736)
    >>> Layout.for_width(1000, home="left").checker_centre(1, 0)  # mirrored
    (116, 736)
    """

    width: int
    height: int
    scale: float
    panel_h: int  # each player's panel (far at the top, near at the bottom)
    strip_h: int  # the frame strips above and below the field that carry point numbers
    footer_h: int  # the line of IDs and match terms at the bottom
    rail_w: int  # the rails beside the field: the cube's and the trays' (home side)
    point_w: int
    bar_w: int
    radius: int  # checker radius
    point_h: int  # height of a point's triangle
    field_top: int
    field_bottom: int
    field_left: int
    field_right: int
    stack: int = 5  # checkers drawn on a point; a taller stack shows its count
    bar_stack: int = 4  # checkers drawn on the bar per side
    home: Home = "right"  # the side of the perspective player's home board and the trays

    @classmethod
    @cache
    def for_width(cls, width: int = DEFAULT_WIDTH, home: Home = "right") -> Layout:
        if not MIN_WIDTH <= width <= MAX_WIDTH:
            raise ValueError(f"width must be {MIN_WIDTH}-{MAX_WIDTH} pixels, not {width}")
        if home not in HOMES:
            raise ValueError(f"home is {' or '.join(map(repr, HOMES))}, not {home!r}")
        s = width / DEFAULT_WIDTH

        def px(value: float) -> int:
            return round(value * s)

        point_w = px(64)
        bar_w = px(64)
        rail_w = (width - 12 * point_w - bar_w) // 2
        radius = point_w * 15 // 32  # 30 at 64: a hair of felt between neighbours
        panel_h, strip_h, footer_h = px(68), px(34), px(28)
        half = 5 * 2 * radius
        middle = px(64)
        field_top = panel_h + strip_h
        field_bottom = field_top + 2 * half + middle
        height = field_bottom + strip_h + panel_h + footer_h
        field_left, field_right = rail_w, rail_w + 12 * point_w + bar_w
        if home == "left":  # the same field seen in a mirror
            field_left, field_right = width - field_right, width - field_left
        return cls(
            width=width,
            height=height,
            scale=s,
            panel_h=panel_h,
            strip_h=strip_h,
            footer_h=footer_h,
            rail_w=rail_w,
            point_w=point_w,
            bar_w=bar_w,
            radius=radius,
            point_h=round(half * 0.93),
            field_top=field_top,
            field_bottom=field_bottom,
            field_left=field_left,
            field_right=field_right,
            home=home,
        )

    def px(self, value: float) -> int:
        """A length designed at 1000 px, scaled to this layout."""
        return max(1, round(value * self.scale))

    # --- the field ------------------------------------------------------------------------

    @property
    def mid_y(self) -> int:
        return (self.field_top + self.field_bottom) // 2

    @property
    def bar_left(self) -> int:
        return self.field_left + 6 * self.point_w

    @property
    def bar_right(self) -> int:
        return self.bar_left + self.bar_w

    @property
    def turn_x(self) -> int:
        """The end of the field where the track turns from the 12 point to the 13."""
        return self.field_right if self.home == "left" else self.field_left

    def is_top(self, point: int) -> bool:
        """Whether ``point`` (1-24, perspective numbering) is on the top row."""
        return point >= 13

    def point_x(self, point: int) -> int:
        """The left edge of ``point`` (1-24, numbered from the perspective player's side)."""
        if not 1 <= point <= 24:
            raise ValueError(f"points are 1-24, not {point}")
        column = 12 - point if point <= 12 else point - 13  # 0 = leftmost
        if self.home == "left":
            column = 11 - column
        x = self.field_left + column * self.point_w
        return x + self.bar_w if column >= 6 else x

    def point_rect(self, point: int) -> tuple[int, int, int, int]:
        """The column of ``point``'s triangle: (left, top, right, bottom)."""
        x = self.point_x(point)
        if self.is_top(point):
            return x, self.field_top, x + self.point_w, self.field_top + self.point_h
        return x, self.field_bottom - self.point_h, x + self.point_w, self.field_bottom

    def checker_centre(self, point: int, slot: int) -> tuple[int, int]:
        """Centre of the ``slot``-th checker (0 = at the edge) on ``point``."""
        x = self.point_x(point) + self.point_w // 2
        offset = self.radius + slot * 2 * self.radius
        y = self.field_top + offset if self.is_top(point) else self.field_bottom - offset
        return x, y

    def bar_centre(self, side: Side, slot: int) -> tuple[int, int]:
        """Centre of a checker on the bar: the near player's below the middle, the far above."""
        x = (self.bar_left + self.bar_right) // 2
        offset = self.px(40) + self.radius + slot * 2 * self.radius
        return x, self.mid_y + offset if side == "near" else self.mid_y - offset

    def number_centre(self, point: int) -> tuple[int, int]:
        """Where ``point``'s number is written on the frame."""
        x = self.point_x(point) + self.point_w // 2
        if self.is_top(point):
            return x, self.field_top - self.strip_h // 2
        return x, self.field_bottom + self.strip_h // 2

    # --- trays, dice and cube -----------------------------------------------------------

    def tray_rect(self, side: Side) -> tuple[int, int, int, int]:
        """The bear-off tray of ``side``: in the home side's rail, level with that side's home."""
        inset = self.px(12)
        if self.home == "left":
            left, right = inset, self.field_left - inset
        else:
            left, right = self.field_right + inset, self.width - inset
        height = 5 * 2 * self.radius
        if side == "near":
            return left, self.field_bottom - height, right, self.field_bottom
        return left, self.field_top, right, self.field_top + height

    @property
    def slab_h(self) -> int:
        """Thickness of one borne-off checker seen edge on in a tray."""
        return self.px(16)

    def slab_rect(self, side: Side, index: int) -> tuple[int, int, int, int]:
        """The ``index``-th (0-14) borne-off checker, stacked from the tray's outer end."""
        left, top, right, bottom = self.tray_rect(side)
        pad = self.px(4)
        if side == "near":
            y1 = bottom - pad - index * self.slab_h
            return left + pad, y1 - self.slab_h, right - pad, y1
        y0 = top + pad + index * self.slab_h
        return left + pad, y0, right - pad, y0 + self.slab_h

    def tray_label_centre(self, side: Side) -> tuple[int, int]:
        """Where a tray's count is written: in the space the 15 slabs leave free."""
        left, top, right, bottom = self.tray_rect(side)
        free = (bottom - top) - 15 * self.slab_h - self.px(8)
        x = (left + right) // 2
        return (x, top + free // 2) if side == "near" else (x, bottom - free // 2)

    @property
    def die_size(self) -> int:
        return self.px(56)

    def dice_centres(self, side: Side) -> tuple[tuple[int, int], tuple[int, int]]:
        """Two dice in the middle of a half of the field: the near player's home half (right,
        or left when mirrored), the far player's the other; the first die on the left."""
        if (side == "near") == (self.home == "right"):
            cx = (self.bar_right + self.field_right) // 2
        else:
            cx = (self.field_left + self.bar_left) // 2
        gap = self.die_size // 2 + self.px(8)
        return (cx - gap, self.mid_y), (cx + gap, self.mid_y)

    @property
    def cube_size(self) -> int:
        return self.px(56)

    def cube_centre(self, where: Literal["near", "far", "middle"]) -> tuple[int, int]:
        """The cube in the rail away from the trays: in the middle when centred, else at its
        owner's end."""
        x = self.field_left // 2 if self.home == "right" else (self.field_right + self.width) // 2
        if where == "middle":
            return x, self.mid_y
        offset = self.px(14) + self.cube_size // 2
        if where == "near":
            return x, self.field_bottom - offset
        return x, self.field_top + offset

    # --- around the board ---------------------------------------------------------------

    def panel_rect(self, side: Side) -> tuple[int, int, int, int]:
        if side == "far":
            return 0, 0, self.width, self.panel_h
        top = self.field_bottom + self.strip_h
        return 0, top, self.width, top + self.panel_h

    def footer_rect(self) -> tuple[int, int, int, int]:
        return 0, self.height - self.footer_h, self.width, self.height

    def board_rect(self) -> tuple[int, int, int, int]:
        """The wooden frame: rails, strips and bar around the field."""
        return 0, self.panel_h, self.width, self.field_bottom + self.strip_h


# --- fonts -------------------------------------------------------------------------------

LAYOUT_ENGINE = ImageFont.Layout.RAQM if features.check_feature("raqm") else ImageFont.Layout.BASIC


@cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold) at ``size`` pixels, loaded once from the package."""
    path = FONT_BOLD if bold else FONT_REGULAR
    return ImageFont.truetype(str(path), size, layout_engine=LAYOUT_ENGINE)


@cache
def fallback_fonts(size: int) -> tuple[ImageFont.FreeTypeFont, ...]:
    return tuple(
        ImageFont.truetype(str(path), size, layout_engine=LAYOUT_ENGINE) for path in FALLBACK_FONTS
    )
