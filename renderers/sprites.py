"""The sprites: every piece the scene places, drawn once and cached.

Pure drawing functions of a theme and a size (or a layout): checkers, the ghost and ring of
the last play, the hit badge, dice, the doubling cube, borne-off slabs, the Crawford label,
text keyed for the region cache, last-play arrows (cached by their path), and the empty
board with its frame, points, numbers and trays. Sprites are RGBA images drawn
:data:`SUPERSAMPLE` times larger, then scaled down for smooth edges. None of them knows
where it goes: that is the scene's job (:mod:`renderers.board`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFilter

from renderers.text import text_image
from renderers.theme import RGB, Layout, Theme, font

SUPERSAMPLE = 4  # sprites are drawn this many times larger, then scaled down: smooth edges

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 with x1 and y1 excluded


def _shade(colour: RGB, amount: float) -> RGB:
    """``colour`` lightened (amount > 0) or darkened (amount < 0) by a fraction."""
    if amount >= 0:
        return tuple(round(c + (255 - c) * amount) for c in colour)  # type: ignore[return-value]
    return tuple(round(c * (1 + amount)) for c in colour)  # type: ignore[return-value]


def _supersampled(size: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    k = SUPERSAMPLE
    canvas = Image.new("RGBA", (size[0] * k, size[1] * k), (0, 0, 0, 0))
    return canvas, ImageDraw.Draw(canvas), k


def _finish(canvas: Image.Image, size: tuple[int, int]) -> Image.Image:
    return canvas.resize(size, Image.Resampling.LANCZOS)


def _drop_shadow(sprite: Image.Image, offset: tuple[int, int], blur: float) -> Image.Image:
    """``sprite`` over a soft shadow of itself."""
    alpha = sprite.getchannel("A").point(lambda a: a * 0.45)
    shadow = Image.new("RGBA", sprite.size, (0, 0, 0, 0))
    shadow.putalpha(alpha)
    moved = Image.new("RGBA", sprite.size, (0, 0, 0, 0))
    moved.paste(shadow, offset)
    moved = moved.filter(ImageFilter.GaussianBlur(blur))
    return Image.alpha_composite(moved, sprite)


@cache
def checker(theme: Theme, radius: int, player: int) -> Image.Image:
    """A checker seen from above: rim, face, an inner groove; on a soft shadow."""
    margin = max(2, radius // 6)
    size = 2 * (radius + margin)
    canvas, draw, k = _supersampled((size, size))
    colour, rim = theme.checkers[player], theme.checker_rims[player]
    c = size * k / 2
    r = radius * k

    def disc(rr: float, fill: RGB, outline: RGB | None = None, width: float = 0) -> None:
        draw.ellipse(
            (c - rr, c - rr, c + rr, c + rr), fill=fill, outline=outline, width=round(width)
        )

    light = sum(colour) > 3 * 128
    disc(r, rim)
    disc(r * 0.93, _shade(colour, -0.10 if light else 0.12))
    disc(r * 0.82, colour)
    # The groove of a turned checker: a thin ring a little darker or lighter than the face.
    disc(r * 0.64, _shade(colour, -0.16 if light else 0.18))
    disc(r * 0.60, colour)
    sprite = _finish(canvas, (size, size))
    return _drop_shadow(sprite, (max(1, radius // 15), max(1, radius // 9)), radius / 10)


@cache
def ghost(theme: Theme, radius: int, player: int) -> Image.Image:
    """Where a checker left from: a faint disc of its colour in a dashed accent ring."""
    size = 2 * radius + 4
    canvas, draw, k = _supersampled((size, size))
    c, r = size * k / 2, radius * k * 0.9
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(*theme.checkers[player], 110))
    width = max(2, radius // 10) * k
    dashes = 12
    for i in range(dashes):
        start = i * 360 / dashes
        draw.arc(
            (c - r, c - r, c + r, c + r),
            start,
            start + 360 / dashes * 0.55,
            fill=(*theme.accent_dark, 255),
            width=width + 2 * k,
        )
        draw.arc(
            (c - r + k, c - r + k, c + r - k, c + r - k),
            start + 2,
            start + 360 / dashes * 0.55 - 2,
            fill=(*theme.accent, 255),
            width=width,
        )
    return _finish(canvas, (size, size))


@cache
def ring(theme: Theme, radius: int) -> Image.Image:
    """Around a checker that has just moved."""
    size = 2 * radius + 8
    canvas, draw, k = _supersampled((size, size))
    c = size * k / 2
    width = max(3, radius // 7)
    r = (radius + width / 2) * k
    draw.ellipse(
        (c - r - k, c - r - k, c + r + k, c + r + k),
        outline=(*theme.accent_dark, 255),
        width=(width + 2) * k,
    )
    draw.ellipse((c - r, c - r, c + r, c + r), outline=(*theme.accent, 255), width=width * k)
    return _finish(canvas, (size, size))


@cache
def hit_badge(theme: Theme, radius: int) -> Image.Image:
    """A round badge with a cross: a checker was hit here (shape first, colour second)."""
    br = max(8, radius * 14 // 24)
    size = 2 * br + 4
    canvas, draw, k = _supersampled((size, size))
    c, r = size * k / 2, br * k
    draw.ellipse((c - r, c - r, c + r, c + r), fill=(255, 255, 255, 255))
    r2 = r * 0.85
    draw.ellipse((c - r2, c - r2, c + r2, c + r2), fill=(*theme.hit, 255))
    arm = r * 0.42
    width = round(r * 0.26)
    draw.line((c - arm, c - arm, c + arm, c + arm), fill=(255, 255, 255, 255), width=width)
    draw.line((c - arm, c + arm, c + arm, c - arm), fill=(255, 255, 255, 255), width=width)
    return _drop_shadow(_finish(canvas, (size, size)), (1, 2), 1.5)


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


@cache
def die(theme: Theme, size: int, player: int, value: int) -> Image.Image:
    """A die in ``player``'s colour showing ``value``."""
    margin = max(3, size // 8)
    full = size + 2 * margin
    canvas, draw, k = _supersampled((full, full))
    m, s = margin * k, size * k
    body, rim = theme.checkers[player], theme.checker_rims[player]
    draw.rounded_rectangle((m, m, m + s, m + s), radius=s * 0.2, fill=rim)
    inset = max(2, size // 28) * k
    draw.rounded_rectangle(
        (m + inset, m + inset, m + s - inset, m + s - inset), radius=s * 0.17, fill=body
    )
    pip_r = s * 0.09
    for fx, fy in _PIPS[value]:
        x, y = m + s * fx, m + s * fy
        draw.ellipse((x - pip_r, y - pip_r, x + pip_r, y + pip_r), fill=theme.die_pips[player])
    sprite = _finish(canvas, (full, full))
    return _drop_shadow(sprite, (max(1, size // 24), max(2, size // 14)), size / 18)


@cache
def cube(theme: Theme, size: int, value: int, *, offered: bool = False) -> Image.Image:
    """The doubling cube showing ``value``; glowing when it is being offered."""
    margin = max(4, size // 4) if offered else max(3, size // 8)
    full = size + 2 * margin
    canvas, draw, k = _supersampled((full, full))
    m, s = margin * k, size * k
    if offered:
        glow = margin * k * 0.8
        draw.rounded_rectangle(
            (m - glow, m - glow, m + s + glow, m + s + glow),
            radius=s * 0.3,
            fill=(*theme.accent_dark, 255),
        )
        inner = glow * 0.7
        draw.rounded_rectangle(
            (m - inner, m - inner, m + s + inner, m + s + inner),
            radius=s * 0.26,
            fill=(*theme.accent, 255),
        )
    draw.rounded_rectangle((m, m, m + s, m + s), radius=s * 0.16, fill=_shade(theme.cube, -0.45))
    inset = max(2, size // 28) * k
    draw.rounded_rectangle(
        (m + inset, m + inset, m + s - inset, m + s - inset), radius=s * 0.13, fill=theme.cube
    )
    sprite = _finish(canvas, (full, full))
    if not offered:
        sprite = _drop_shadow(sprite, (max(1, size // 24), max(2, size // 14)), size / 18)
    text = str(value)
    font_size = round(size * (0.55 if len(text) <= 2 else 0.42))
    label = text_image(text, font_size, theme.cube_text, bold=True)
    sprite.paste(label, ((full - label.width) // 2, (full - label.height) // 2), label)
    return sprite


@cache
def slab(theme: Theme, layout: Layout, player: int) -> Image.Image:
    """A borne-off checker seen edge on in a tray."""
    x0, y0, x1, y1 = layout.slab_rect("near", 0)
    w, h = x1 - x0, y1 - y0
    canvas, draw, k = _supersampled((w, h))
    colour, rim = theme.checkers[player], theme.checker_rims[player]
    gap = max(1, k * h // 10)
    draw.rounded_rectangle((0, 0, w * k - 1, h * k - 1 - gap), radius=h * k * 0.35, fill=rim)
    inset = max(1, h // 8) * k
    draw.rounded_rectangle(
        (inset, inset, w * k - 1 - inset, h * k - 1 - gap - inset), radius=h * k * 0.3, fill=colour
    )
    return _finish(canvas, (w, h))


@cache
def vertical_label(theme: Theme, layout: Layout, text: str) -> Image.Image:
    label = text_image(text, layout.px(20), theme.numbers, bold=True)
    return label.rotate(90, expand=True)


@cache
def empty_board(theme: Theme, layout: Layout) -> Image.Image:
    """Everything that does not depend on the game: frame, field, points, numbers, trays."""
    k = 2
    W, H = layout.width, layout.height
    big = Image.new("RGB", (W * k, H * k), theme.background)
    draw = ImageDraw.Draw(big)

    def box(rect: tuple[int, int, int, int], *, fill: RGB) -> None:
        x0, y0, x1, y1 = rect
        draw.rectangle((x0 * k, y0 * k, x1 * k - 1, y1 * k - 1), fill=fill)

    def rounded(
        rect: tuple[int, int, int, int],
        radius: int,
        *,
        fill: RGB,
        outline: RGB | None = None,
        width: int = 1,
    ) -> None:
        x0, y0, x1, y1 = rect
        draw.rounded_rectangle(
            (x0 * k, y0 * k, x1 * k - 1, y1 * k - 1),
            radius=radius * k,
            fill=fill,
            outline=outline,
            width=width,
        )

    bx0, by0, bx1, by1 = layout.board_rect()
    rounded(
        (bx0 + layout.px(4), by0, bx1 - layout.px(4), by1),
        layout.px(14),
        fill=theme.frame,
        outline=theme.frame_edge,
        width=layout.px(2),
    )
    edge = layout.px(3)
    for x0, x1 in ((layout.field_left, layout.bar_left), (layout.bar_right, layout.field_right)):
        box(
            (x0 - edge, layout.field_top - edge, x1 + edge, layout.field_bottom + edge),
            fill=theme.frame_edge,
        )
        box((x0, layout.field_top, x1, layout.field_bottom), fill=theme.field)
    # The bar: a slightly raised strip of frame with a hinge line down the middle.
    box(
        (
            layout.bar_left + edge,
            layout.field_top - edge,
            layout.bar_right - edge,
            layout.field_bottom + edge,
        ),
        fill=_shade(theme.frame, 0.06),
    )
    hinge = layout.px(2)
    mid = (layout.bar_left + layout.bar_right) // 2
    box(
        (
            mid - hinge // 2 - 1,
            layout.field_top - edge,
            mid + hinge // 2 + 1,
            layout.field_bottom + edge,
        ),
        fill=theme.frame_edge,
    )
    for point in range(1, 25):
        x0, y0, x1, y1 = layout.point_rect(point)
        colour = theme.points[point % 2]
        inset = layout.px(2)
        if layout.is_top(point):
            tri = [(x0 + inset, y0), (x1 - inset, y0), ((x0 + x1) / 2, y1)]
        else:
            tri = [(x0 + inset, y1), (x1 - inset, y1), ((x0 + x1) / 2, y0)]
        draw.polygon([(x * k, y * k) for x, y in tri], fill=colour)
    for side in ("near", "far"):
        x0, y0, x1, y1 = layout.tray_rect(side)
        rounded((x0 - edge, y0 - edge, x1 + edge, y1 + edge), layout.px(8), fill=theme.frame_edge)
        rounded((x0, y0, x1, y1), layout.px(6), fill=theme.tray)
    image = big.resize((W, H), Image.Resampling.LANCZOS)
    for point in range(1, 25):
        label = text_image(str(point), layout.px(21), theme.numbers, bold=True)
        cx, cy = layout.number_centre(point)
        image.paste(label, (cx - label.width // 2, cy - label.height // 2), label)
    return image


# --- text ----------------------------------------------------------------------------


def keyed_text(
    text: str, size: int, colour: RGB, *, bold: bool = False, max_width: int = 10_000
) -> tuple[Image.Image, Hashable]:
    """:func:`~renderers.text.text_image`, and a key naming it for the region cache
    (:func:`renderers.regions.kept`)."""
    image = text_image(text, size, colour, bold=bold, max_width=max_width)
    return image, ("text", text, size, colour, bold, max_width)


@cache
def ascent(size: int, *, bold: bool) -> int:
    """How far below its top a text image of this size puts the baseline."""
    return font(size, bold=bold).getmetrics()[0]


# --- last-play arrows ----------------------------------------------------------------


def bezier(
    start: tuple[float, float], via: tuple[float, float] | None, end: tuple[float, float]
) -> list[tuple[float, float]]:
    if via is None:
        return [start, end]
    steps = 24
    out = []
    for i in range(steps + 1):
        t = i / steps
        a, b, c = (1 - t) ** 2, 2 * t * (1 - t), t * t
        out.append((a * start[0] + b * via[0] + c * end[0], a * start[1] + b * via[1] + c * end[1]))
    return out


def path_length(path: list[tuple[float, float]]) -> float:
    return sum(math.dist(p, q) for p, q in itertools.pairwise(path))


def trim(path: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """``path`` shortened by ``by`` pixels at each end (off the checkers' centres)."""

    def cut_front(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        left = by
        while len(points) > 2 and math.dist(points[0], points[1]) <= left:
            left -= math.dist(points[0], points[1])
            points = points[1:]
        (x0, y0), (x1, y1) = points[0], points[1]
        d = math.dist(points[0], points[1]) or 1.0
        f = min(left / d, 0.9)
        return [(x0 + (x1 - x0) * f, y0 + (y1 - y0) * f), *points[1:]]

    return cut_front(cut_front(path)[::-1])[::-1]


ARROW_TILE = 24  # an arrow is pasted in bands this many pixels high, each cropped to the arrow

ArrowTile = tuple[Box, Image.Image, Image.Image]


@lru_cache(maxsize=512)
def arrow_tiles(
    path: tuple[tuple[float, float], ...], layout: Layout
) -> tuple[tuple[int, int], tuple[ArrowTile, ...]]:
    """An arrow along ``path`` with a dark outline: two masks drawn twice as large, then
    reduced; returned as the corner of their box and the pieces of it that hold the arrow:
    horizontal bands, each cut to the arrow's extent in it (a box relative to the corner,
    the outline's mask, the body's mask).

    A long arrow's box covers much of the board, but the arrow itself little of it: pasting
    only the pieces it touches leaves every other pixel as it was (a zero mask changes
    nothing) and keeps the regions drawn per picture small. The same plays come back often
    (an opening 3-1, a stack moved from the midpoint), so arrows are cached.
    """
    k = 2
    shaft = layout.px(8)
    edge = layout.px(2)
    head_len, head_half = layout.px(24), layout.px(14)
    margin = head_len + edge * 2
    left = math.floor(min(x for x, _ in path)) - margin
    top = math.floor(min(y for _, y in path)) - margin
    right = math.ceil(max(x for x, _ in path)) + margin
    bottom = math.ceil(max(y for _, y in path)) + margin
    size = ((right - left) * k, (bottom - top) * k)
    points = [((x - left) * k, (y - top) * k) for x, y in path]
    (px, py), (ex, ey) = points[-2], points[-1]
    last = math.hypot(ex - px, ey - py) or 1.0
    ux, uy = (ex - px) / last, (ey - py) / last
    nx, ny = -uy, ux
    hl = min(head_len * k, path_length(points) * 0.6)
    bx, by = ex - ux * hl, ey - uy * hl  # where the head's base crosses the shaft
    head = [
        (ex, ey),
        (bx + nx * head_half * k, by + ny * head_half * k),
        (bx - nx * head_half * k, by - ny * head_half * k),
    ]
    shaft_points = [*_trim_end(points, hl * 0.8), (bx, by)]
    sx, sy = points[0]
    # Masks, not RGBA: reducing an "L" image is several times cheaper.
    masks = []
    for width, grow in ((shaft + 2 * edge, edge * k * 1.6), (shaft, 0.0)):
        mask = Image.new("L", size, 0)
        draw = ImageDraw.Draw(mask)
        draw.line(shaft_points, fill=255, width=width * k, joint="curve")
        r = width / 2 * k
        draw.ellipse((sx - r, sy - r, sx + r, sy + r), fill=255)
        draw.polygon(_grow(head, grow) if grow else head, fill=255)
        masks.append(mask)
    tiles = []
    width, height = right - left, bottom - top
    for ty in range(0, height, ARROW_TILE):
        band = (0, ty * k, width * k, min(ty + ARROW_TILE, height) * k)
        # The outline is drawn wider than the body and round its head: it holds it all.
        found = [b for b in (masks[0].crop(band).getbbox(), masks[1].crop(band).getbbox()) if b]
        if not found:
            continue
        bx0, by0, bx1, by1 = found[0] if len(found) == 1 else _union(found[0], found[1])
        # Reduced on whole blocks of k x k, a piece of the mask is exactly that piece of the
        # whole mask reduced; only the arrow's extent in each band is reduced.
        box = (bx0 // k, ty + by0 // k, -(-bx1 // k), ty + -(-by1 // k))
        big = (box[0] * k, box[1] * k, box[2] * k, box[3] * k)
        tiles.append((box, masks[0].crop(big).reduce(k), masks[1].crop(big).reduce(k)))
    return (left, top), tuple(tiles)


def _trim_end(points: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """``points`` without the stretch of length ``by`` at the end (where the head goes)."""
    out = list(points)
    left = by
    while len(out) > 1 and math.dist(out[-1], out[-2]) <= left:
        left -= math.dist(out[-1], out[-2])
        out.pop()
    if len(out) > 1:
        (x0, y0), (x1, y1) = out[-2], out[-1]
        d = math.dist(out[-2], out[-1]) or 1.0
        f = left / d
        out[-1] = (x1 - (x1 - x0) * f, y1 - (y1 - y0) * f)
    return out


def _grow(triangle: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """The triangle pushed outwards from its centroid by about ``by`` pixels."""
    cx = sum(x for x, _ in triangle) / 3
    cy = sum(y for _, y in triangle) / 3
    out = []
    for x, y in triangle:
        d = math.hypot(x - cx, y - cy) or 1.0
        scale = (d + by * 2) / d
        out.append((cx + (x - cx) * scale, cy + (y - cy) * scale))
    return out


def _union(a: Box, b: Box) -> Box:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])
