"""Charts in the board's look: a game's chances of winning, and a player's rating over time.

Pure: figures in, PNG bytes out, drawn with the board's theme colours and shipped fonts. The
plot sits on the board's felt inside its wooden frame, with thick lines and large type so
that it still reads when Discord shrinks it to a phone's width.

Each chart is computed first as a :class:`ChartScene`: the values plotted, their pixel
positions and the markers. Tests compare the scene with the figures the text reports and
look for the line at those pixels; :func:`draw_chart` turns a scene into the PNG.

>>> scene = win_chance_scene([0.55, 0.4, 1.0], names=("alice", "bob"))
>>> [round(y, 2) for _, y in scene.values]
[0.5, 0.55, 0.4, 1.0]
>>> draw_chart(scene)[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from PIL import Image, ImageDraw

from renderers.text import text_image
from renderers.theme import CLASSIC, MAX_WIDTH, MIN_WIDTH, RGB, THEMES, Theme

__all__ = [
    "ChartLabels",
    "ChartScene",
    "Marker",
    "draw_chart",
    "pr_chart",
    "pr_scene",
    "rating_chart",
    "rating_scene",
    "win_chance_chart",
    "win_chance_scene",
]

# Drawn this many times larger, then scaled down: Pillow's lines have no anti-aliasing.
SUPERSAMPLE = 2
ASPECT = 0.6  # height / width
# Margins inside the felt (designed px at 1000): the win chart keeps a band above 100% and
# below 0% for the players' labels, which the line can never cross.
WIN_SIDE, WIN_BAND = 18, 54
RATING_SIDE, RATING_BAND = 18, 20

MarkerKind = Literal["error", "blunder", "luckiest", "unluckiest", "last"]


@dataclass(frozen=True, slots=True)
class ChartLabels:
    """Every word a chart writes; the presentation layer may pass translated ones."""

    win_title: str = "{name}'s chance of winning"  # player 0's: the line is their chance
    game: str = "game {number}"
    wins: str = "{name} wins"
    play: str = "play"
    error: str = "error"
    blunder: str = "blunder"
    luckiest: str = "luckiest roll"
    unluckiest: str = "unluckiest roll"
    rating_title: str = "{name}'s rating"
    pr_title: str = "{name}'s PR (lower is better)"
    no_data: str = "nothing to show yet"
    # Month abbreviations for the rating chart's dates (never the C library's locale).
    months: tuple[str, ...] = (
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Marker:
    """A marked point: ``index`` into :attr:`ChartScene.values`, drawn at ``pixel``."""

    kind: MarkerKind
    index: int
    pixel: tuple[float, float]


@dataclass(frozen=True, slots=True)
class ChartScene:
    """Everything a chart shows, in data and in final-image pixels.

    ``values`` are the (x, y) data points in order; ``pixels`` where each is drawn.
    ``plot`` is the rectangle (left, top, right, bottom) of the felt that the data maps
    into; the felt reaches a little further, so no line runs along the frame.
    """

    kind: Literal["win", "rating", "pr"]
    width: int
    height: int
    plot: tuple[int, int, int, int]
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    values: tuple[tuple[float, float], ...]
    pixels: tuple[tuple[float, float], ...]
    markers: tuple[Marker, ...] = ()
    title: str = ""
    subtitle: str = ""
    y_ticks: tuple[tuple[float, str], ...] = ()
    x_ticks: tuple[tuple[float, str], ...] = ()
    top_label: tuple[str, int] | None = None  # (text, player whose checker colour marks it)
    bottom_label: tuple[str, int] | None = None
    legend: tuple[tuple[MarkerKind, str], ...] = ()
    reference: float | None = None  # a y value drawn as a guide line (50%, 1500)
    end_label: str | None = None  # written beside the last point
    theme: Theme = CLASSIC
    empty_text: str = ""

    def to_pixel(self, x: float, y: float) -> tuple[float, float]:
        left, top, right, bottom = self.plot
        x0, x1 = self.x_range
        y0, y1 = self.y_range
        px = left + (x - x0) / (x1 - x0) * (right - left) if x1 != x0 else (left + right) / 2
        py = bottom - (y - y0) / (y1 - y0) * (bottom - top) if y1 != y0 else (top + bottom) / 2
        return px, py

    def marker(self, kind: MarkerKind) -> list[Marker]:
        return [m for m in self.markers if m.kind == kind]


# --- geometry ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Frame:
    width: int
    height: int
    scale: float
    felt: tuple[int, int, int, int]
    wood: tuple[int, int, int, int]

    def plot(self, side: float, band: float) -> tuple[int, int, int, int]:
        """The data's rectangle: the felt less ``side`` and ``band`` (designed px) margins."""
        left, top, right, bottom = self.felt
        dx, dy = self.px(side), self.px(band)
        return left + dx, top + dy, right - dx, bottom - dy

    def px(self, value: float) -> int:
        return max(1, round(value * self.scale))


def _frame(width: int) -> _Frame:
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width must be {MIN_WIDTH}-{MAX_WIDTH} pixels, not {width}")
    s = width / 1000
    height = round(width * ASPECT)

    def px(value: float) -> int:
        return round(value * s)

    wood = (px(118), px(96), width - px(22), height - px(84))
    inset = px(16)
    felt = (wood[0] + inset, wood[1] + inset, wood[2] - inset, wood[3] - inset)
    return _Frame(width, height, s, felt, wood)


def _theme(theme: Theme | str) -> Theme:
    return THEMES[theme] if isinstance(theme, str) else theme


# --- the win chance chart ---------------------------------------------------------------------


def win_chance_scene(
    points: Sequence[float],
    *,
    errors: Iterable[int] = (),
    blunders: Iterable[int] = (),
    luckiest: int | None = None,
    unluckiest: int | None = None,
    names: Sequence[str] = ("Player 1", "Player 2"),
    game_number: int | None = None,
    width: int = 1000,
    theme: Theme | str = CLASSIC,
    labels: ChartLabels | None = None,
) -> ChartScene:
    """The chart of one game: player 0's chance of winning after each play.

    ``points[i]`` is the chance (0-1) after play ``i + 1``; the chart starts at play 0 with
    an even chance. ``errors``, ``blunders``, ``luckiest`` and ``unluckiest`` are play
    numbers (1-based, like :attr:`bot.computer.luck.PlayPoint.index`); a blunder listed in both is
    drawn once, as a blunder.
    """
    labels = labels or ChartLabels()
    frame = _frame(width)
    for value in points:
        if not 0.0 <= value <= 1.0 or math.isnan(value):
            raise ValueError(f"a chance of winning is 0-1, not {value}")
    values = ((0.0, 0.5), *((float(i + 1), float(v)) for i, v in enumerate(points)))
    last = max(1.0, float(len(points)))
    scene = ChartScene(
        kind="win",
        width=frame.width,
        height=frame.height,
        plot=frame.plot(WIN_SIDE, WIN_BAND),
        x_range=(0.0, last),
        y_range=(0.0, 1.0),
        values=values,
        pixels=(),
        theme=_theme(theme),
    )
    pixels = tuple(scene.to_pixel(x, y) for x, y in values)
    marked: list[Marker] = []
    blunder_set = set(blunders)

    def add(kind: MarkerKind, play: int | None) -> None:
        if play is not None and 1 <= play <= len(points):
            marked.append(Marker(kind, play, pixels[play]))

    for play in sorted(set(errors) - blunder_set):
        add("error", play)
    for play in sorted(blunder_set):
        add("blunder", play)
    add("luckiest", luckiest)
    add("unluckiest", unluckiest)
    title = labels.win_title.replace("{name}", names[0])  # whose chance the line is
    if game_number is not None:
        title = f"{title} · {labels.game.format(number=game_number)}"
    kinds_shown = {m.kind for m in marked}
    legend_words = {
        "error": labels.error,
        "blunder": labels.blunder,
        "luckiest": labels.luckiest,
        "unluckiest": labels.unluckiest,
    }
    legend = tuple((kind, word) for kind, word in legend_words.items() if kind in kinds_shown)
    step = _nice_step(last, 8)
    x_ticks = tuple((float(x), str(x)) for x in range(0, int(last) + 1, max(1, int(step))))
    return ChartScene(
        kind="win",
        width=frame.width,
        height=frame.height,
        plot=frame.plot(WIN_SIDE, WIN_BAND),
        x_range=scene.x_range,
        y_range=scene.y_range,
        values=values,
        pixels=pixels,
        markers=tuple(marked),
        title=title,
        subtitle=labels.play,
        y_ticks=tuple((v / 4, f"{25 * v}%") for v in range(5)),
        x_ticks=x_ticks,
        top_label=(labels.wins.format(name=names[0]), 0),
        bottom_label=(labels.wins.format(name=names[1]), 1),
        legend=legend,
        reference=0.5,
        theme=scene.theme,
        empty_text=labels.no_data if not points else "",
    )


def win_chance_chart(
    points: Sequence[float],
    *,
    errors: Iterable[int] = (),
    blunders: Iterable[int] = (),
    luckiest: int | None = None,
    unluckiest: int | None = None,
    names: Sequence[str] = ("Player 1", "Player 2"),
    game_number: int | None = None,
    width: int = 1000,
    theme: Theme | str = CLASSIC,
    labels: ChartLabels | None = None,
) -> bytes:
    """PNG of :func:`win_chance_scene` (``width`` x ``0.6 * width`` pixels)."""
    return draw_chart(
        win_chance_scene(
            points,
            errors=errors,
            blunders=blunders,
            luckiest=luckiest,
            unluckiest=unluckiest,
            names=names,
            game_number=game_number,
            width=width,
            theme=theme,
            labels=labels,
        )
    )


# --- the rating chart -------------------------------------------------------------------------


def _nice_step(span: float, count: int) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about ``count`` ticks."""
    if span <= 0:
        return 1.0
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    for multiple in (1, 2, 2.5, 5, 10):
        if multiple * power >= raw:
            return multiple * power
    return 10 * power


def _date_ticks(
    start: float, end: float, months: tuple[str, ...] = ChartLabels().months
) -> tuple[tuple[float, str], ...]:
    """About five dated ticks between two Unix times (UTC), written to suit the span."""

    def strftime(fmt: str, when: float) -> str:
        moment = time.gmtime(when)
        return time.strftime(fmt.replace("%b", months[moment.tm_mon - 1]), moment)

    span = end - start
    if span <= 0:
        return ((start, strftime("%d %b %Y", start)),)
    day = 86400.0
    if span < 2 * day:
        fmt = "%H:%M"
    elif span < 200 * day:
        fmt = "%d %b"
    else:
        fmt = "%b %Y"
    ticks = []
    for i in range(5):
        t = start + span * i / 4
        ticks.append((t, strftime(fmt, t).lstrip("0")))
    return tuple(ticks)


def rating_scene(
    points: Sequence[tuple[float, float]],
    *,
    name: str,
    width: int = 1000,
    theme: Theme | str = CLASSIC,
    labels: ChartLabels | None = None,
    start_rating: float | None = 1500.0,
) -> ChartScene:
    """A player's rating (y) over time (x, Unix seconds), in the order given.

    ``start_rating`` draws the rating everyone starts from as a guide when it is in view.
    """
    labels = labels or ChartLabels()
    frame = _frame(width)
    values = tuple(sorted((float(t), float(r)) for t, r in points))
    if values:
        times = [t for t, _ in values]
        ratings = [r for _, r in values]
        low, high = min(ratings), max(ratings)
        if start_rating is not None and low - 40 <= start_rating <= high + 40:
            low, high = min(low, start_rating), max(high, start_rating)
        pad = max(5.0, (high - low) * 0.12)
        step = _nice_step(high - low + 2 * pad, 5)
        y0 = math.floor((low - pad) / step) * step
        y1 = math.ceil((high + pad) / step) * step
        x0, x1 = times[0], times[-1]
        if x1 == x0:
            x0, x1 = x0 - 43200, x1 + 43200  # a single day's games: centre them
    else:
        step, y0, y1, x0, x1 = 25.0, 1450.0, 1550.0, 0.0, 1.0
    scene = ChartScene(
        kind="rating",
        width=frame.width,
        height=frame.height,
        plot=frame.plot(RATING_SIDE, RATING_BAND),
        x_range=(x0, x1),
        y_range=(y0, y1),
        values=values,
        pixels=(),
        theme=_theme(theme),
    )
    pixels = tuple(scene.to_pixel(x, y) for x, y in values)
    y_ticks = []
    tick = y0
    while tick <= y1 + 1e-9:
        y_ticks.append((tick, f"{tick:g}"))
        tick += step
    reference = start_rating if start_rating is not None and y0 <= start_rating <= y1 else None
    markers = (Marker("last", len(values) - 1, pixels[-1]),) if values else ()
    return ChartScene(
        kind="rating",
        width=frame.width,
        height=frame.height,
        plot=frame.plot(RATING_SIDE, RATING_BAND),
        x_range=(x0, x1),
        y_range=(y0, y1),
        values=values,
        pixels=pixels,
        markers=markers,
        title=labels.rating_title.format(name=name),
        y_ticks=tuple(y_ticks),
        x_ticks=_date_ticks(x0, x1, labels.months) if values else (),
        reference=reference,
        end_label=f"{values[-1][1]:.1f}" if values else None,
        theme=scene.theme,
        empty_text=labels.no_data if not values else "",
    )


def rating_chart(
    points: Sequence[tuple[float, float]],
    *,
    name: str,
    width: int = 1000,
    theme: Theme | str = CLASSIC,
    labels: ChartLabels | None = None,
) -> bytes:
    """PNG of :func:`rating_scene` (``width`` x ``0.6 * width`` pixels)."""
    return draw_chart(rating_scene(points, name=name, width=width, theme=theme, labels=labels))


def pr_scene(
    points: Sequence[tuple[float, float]],
    *,
    name: str,
    width: int = 1000,
    theme: Theme | str = CLASSIC,
    labels: ChartLabels | None = None,
) -> ChartScene:
    """A player's PR in each recorded match (y, from 0: lower is better) over time (x, Unix
    seconds), with XG's world-class bound (5) as the guide when it is in view."""
    labels = labels or ChartLabels()
    scene = rating_scene(
        points, name=name, width=width, theme=theme, labels=labels, start_rating=None
    )
    if not scene.values:
        return replace(scene, kind="pr", title=labels.pr_title.format(name=name))
    high = max(y for _, y in scene.values)
    step = _nice_step(max(high, 5.0) * 1.15, 5)
    y1 = math.ceil(max(high, 5.0) * 1.15 / step) * step
    scene = replace(scene, y_range=(0.0, y1))
    pixels = tuple(scene.to_pixel(x, y) for x, y in scene.values)
    ticks = []
    tick = 0.0
    while tick <= y1 + 1e-9:
        ticks.append((tick, f"{tick:g}"))
        tick += step
    return replace(
        scene,
        kind="pr",
        pixels=pixels,
        markers=(Marker("last", len(pixels) - 1, pixels[-1]),),
        y_ticks=tuple(ticks),
        reference=5.0,
        title=labels.pr_title.format(name=name),
    )


def pr_chart(
    points: Sequence[tuple[float, float]],
    *,
    name: str,
    width: int = 1000,
    theme: Theme | str = CLASSIC,
    labels: ChartLabels | None = None,
) -> bytes:
    """PNG of :func:`pr_scene` (``width`` x ``0.6 * width`` pixels)."""
    return draw_chart(pr_scene(points, name=name, width=width, theme=theme, labels=labels))


# --- drawing ----------------------------------------------------------------------------------


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


# Marker colours beyond the theme's own: lucky gold-green, unlucky sky blue, readable on both
# felts; the shapes differ too (ring, dot, up and down triangles) so colour is never needed.
_EXTRA = {
    "classic": {"lucky": (255, 214, 10), "unlucky": (120, 200, 255)},
    "dark": {"lucky": (255, 214, 10), "unlucky": (200, 140, 255)},
}


def _extra(theme: Theme, key: str) -> RGB:
    return _EXTRA.get(theme.name, _EXTRA["classic"])[key]


class _Painter:
    """Draws on a canvas ``SUPERSAMPLE`` times the final size, in final-size coordinates."""

    def __init__(self, scene: ChartScene) -> None:
        self.scene = scene
        self.theme = scene.theme
        self.frame = _frame(scene.width)
        k = SUPERSAMPLE
        self.image = Image.new("RGB", (scene.width * k, scene.height * k), scene.theme.background)
        self.draw = ImageDraw.Draw(self.image)

    def s(self, value: float) -> float:
        return value * SUPERSAMPLE

    def box(self, rect: tuple[float, float, float, float]) -> tuple[float, ...]:
        return tuple(self.s(v) for v in rect)

    def width(self, value: float) -> int:
        return max(1, round(self.frame.px(value) * SUPERSAMPLE))

    def text(
        self,
        text: str,
        xy: tuple[float, float],
        size: float,
        colour: RGB,
        *,
        bold: bool = False,
        anchor: str = "lm",
        max_width: float | None = None,
    ) -> None:
        """``text`` placed by ``anchor``: l/m/r horizontally, t/m/b vertically."""
        if not text:
            return
        px = self.frame.px(size) * SUPERSAMPLE
        limit = round((max_width or self.scene.width) * SUPERSAMPLE)
        image = text_image(text, px, colour, bold=bold, max_width=limit)
        x, y = self.s(xy[0]), self.s(xy[1])
        w, h = image.size
        x -= {"l": 0, "m": w / 2, "r": w}[anchor[0]]
        y -= {"t": 0, "m": h / 2, "b": h}[anchor[1]]
        x = min(max(x, 0), self.image.width - w)  # a label at the edge stays whole
        self.image.paste(image, (round(x), round(y)), image)

    def dot(self, centre: tuple[float, float], radius: float, colour: RGB) -> None:
        x, y = centre
        r = radius * self.frame.scale
        self.draw.ellipse(self.box((x - r, y - r, x + r, y + r)), fill=colour)

    def checker(self, centre: tuple[float, float], radius: float, player: int) -> None:
        x, y = centre
        r = self.frame.px(radius)
        rect = (x - r, y - r, x + r, y + r)
        self.draw.ellipse(
            self.box(rect),
            fill=self.theme.checkers[player],
            outline=self.theme.checker_rims[player],
            width=self.width(2),
        )

    def triangle(
        self, tip: tuple[float, float], size: float, up: bool, fill: RGB, outline: RGB
    ) -> None:
        """A triangle pointing at ``tip``: up from below it, or down from above it."""
        x, y = tip
        r = self.frame.px(size)
        base = y + 1.7 * r if up else y - 1.7 * r
        shape = [(x, y), (x + r, base), (x - r, base)]
        points = [(self.s(a), self.s(b)) for a, b in shape]
        self.draw.polygon(points, fill=fill, outline=outline, width=self.width(3))

    def marker_shape(
        self, kind: MarkerKind, centre: tuple[float, float], size: float, *, legend: bool = False
    ) -> None:
        """A marker at a point; luck triangles point at it from off the line (or, in the
        legend, sit centred on ``centre``)."""
        theme = self.theme
        x, y = centre
        r = self.frame.px(size)
        rect = self.box((x - r, y - r, x + r, y + r))
        if kind == "error":
            self.draw.ellipse(rect, fill=theme.field, outline=theme.hit, width=self.width(5))
        elif kind == "blunder":
            self.draw.ellipse(rect, fill=theme.hit, outline=theme.banner, width=self.width(2))
        elif kind in ("luckiest", "unluckiest"):
            up = kind == "luckiest"
            tip_y = y - 0.85 * r if legend and up else y + 0.85 * r if legend else y
            if not legend:  # clear of an error ring at the same play
                tip_y += r * 0.9 if up else -r * 0.9
            colour = _extra(theme, "lucky" if up else "unlucky")
            self.triangle((x, tip_y), size * 1.3, up, colour, theme.banner)
        else:  # the last point of a line
            self.draw.ellipse(
                rect, fill=theme.accent, outline=theme.accent_dark, width=self.width(3)
            )

    def finish(self) -> bytes:
        image = self.image.resize((self.scene.width, self.scene.height), Image.Resampling.LANCZOS)
        buffer = io.BytesIO()
        image.save(buffer, "PNG", compress_level=6)
        return buffer.getvalue()


def draw_chart(scene: ChartScene) -> bytes:
    """The PNG of a scene: the board's wood and felt, the guides, the line and its markers."""
    p = _Painter(scene)
    theme, frame = scene.theme, p.frame
    left, top, right, bottom = scene.plot
    felt_left, felt_top, felt_right, felt_bottom = frame.felt

    # Title, and the wooden frame with the felt inside, as on the board.
    p.text(scene.title, (frame.px(24), frame.px(48)), 40, theme.text, bold=True, anchor="lm")
    p.draw.rectangle(
        p.box(frame.wood), fill=theme.frame, outline=theme.frame_edge, width=p.width(3)
    )
    p.draw.rectangle(
        p.box(frame.felt), fill=theme.field, outline=theme.frame_edge, width=p.width(2)
    )

    # Guides: light lines across the felt at each y tick, the reference a little stronger.
    guide = _mix(theme.field, theme.numbers, 0.22)
    strong = _mix(theme.field, theme.numbers, 0.55)
    for value, label in scene.y_ticks:
        _, y = scene.to_pixel(scene.x_range[0], value)
        if value != scene.reference:
            p.draw.line(p.box((felt_left, y, felt_right, y)), fill=guide, width=p.width(2))
        p.text(label, (frame.wood[0] - frame.px(10), y), 28, theme.text, anchor="rm")
    if scene.reference is not None:
        _, y = scene.to_pixel(scene.x_range[0], scene.reference)
        p.draw.line(p.box((felt_left, y, felt_right, y)), fill=strong, width=p.width(3))
    for value, label in scene.x_ticks:
        x, _ = scene.to_pixel(value, scene.y_range[0])
        p.text(label, (x, frame.wood[3] + frame.px(6)), 28, theme.text, anchor="mt")
    # The x axis's name sits under the y labels, level with the x labels.
    p.text(
        scene.subtitle,
        (frame.wood[0] - frame.px(10), frame.wood[3] + frame.px(6)),
        28,
        theme.muted,
        anchor="rt",
    )

    # Who is up and who is down: a checker of each colour with "X wins" on the felt.
    for spec, y, anchor in (
        (scene.top_label, (felt_top + top) / 2, "lm"),
        (scene.bottom_label, (felt_bottom + bottom) / 2, "lm"),
    ):
        if spec is None:
            continue
        words, player = spec
        centre = (left + frame.px(30), y)
        p.checker(centre, 17, player)
        p.text(
            words,
            (left + frame.px(56), y),
            28,
            theme.numbers,
            bold=True,
            anchor=anchor,
            max_width=(right - left) * 0.6,
        )

    # The line: a dark casing under the accent colour, thick enough for a phone.
    if len(scene.pixels) >= 2:
        line = [(p.s(x), p.s(y)) for x, y in scene.pixels]
        p.draw.line(line, fill=theme.accent_dark, width=p.width(11), joint="curve")
        p.draw.line(line, fill=theme.accent, width=p.width(6), joint="curve")
        for end in (scene.pixels[0], scene.pixels[-1]):  # round caps, as the joints are
            p.dot(end, 5.5, theme.accent_dark)
            p.dot(end, 3, theme.accent)
    elif len(scene.pixels) == 1:
        p.marker_shape("last", scene.pixels[0], 9)
    if scene.empty_text:
        p.text(
            scene.empty_text,
            ((left + right) / 2, (top + bottom) / 2),
            30,
            theme.numbers,
            anchor="mm",
        )

    for marker in scene.markers:
        p.marker_shape(marker.kind, marker.pixel, 12)
    if scene.end_label and scene.pixels:
        x, y = scene.pixels[-1]
        anchor = "rb" if x > (left + right) / 2 else "lb"
        dx = -frame.px(14) if anchor[0] == "r" else frame.px(14)
        dy = -frame.px(14) if y > top + frame.px(60) else frame.px(50)
        p.text(scene.end_label, (x + dx, y + dy), 30, theme.numbers, bold=True, anchor=anchor)

    # The legend along the bottom: each marker shape with its word.
    x = frame.wood[0]
    y = scene.height - frame.px(26)
    for kind, word in scene.legend:
        p.marker_shape(kind, (x + frame.px(12), y), 11, legend=True)
        p.text(word, (x + frame.px(30), y), 28, theme.text, anchor="lm")
        x += frame.px(30) + _text_width(word, frame.px(28)) + frame.px(34)
    return p.finish()


def _text_width(text: str, size: int) -> int:
    return text_image(text, size, (0, 0, 0)).size[0]
