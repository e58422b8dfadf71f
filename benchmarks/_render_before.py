"""A frozen copy of renderers/board.py before issue #17 (compose in RGB, quantize the whole
picture, PNG-encode with Pillow): benchmarks/render.py times it beside the current renderer in
the same run, and tests compare the two pictures. Not used by the bot."""

# ruff: noqa

from __future__ import annotations

import enum
import io
import itertools
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFilter

from bot.engine import Game, MatchOptions, Move, Phase, Play, ResultKind
from bot.engine.game import EndReason
from renderers.text import clean, runs, text_image
from renderers.theme import (
    CLASSIC,
    DEFAULT_WIDTH,
    RGB,
    THEMES,
    Layout,
    Side,
    Theme,
)

BAR = 25
OFF = 0
SUPERSAMPLE = 4  # sprites are drawn this many times larger, then scaled down: smooth edges


class _Default(enum.Enum):
    GAME = "the game's last play"


GAME_LAST_PLAY = _Default.GAME


def render_board(
    game: Game,
    *,
    perspective: int,
    names: tuple[str, str] = ("alice", "bob"),
    last_play: Play | bool | _Default | None = GAME_LAST_PLAY,
    theme: Theme | str = CLASSIC,
    width: int = DEFAULT_WIDTH,
) -> bytes:
    """Draw ``game`` as seen by player ``perspective`` (0 or 1) and return a PNG.

    ``names`` are player 0's and player 1's display names (any Unicode). ``last_play`` is
    marked with arrows; by default it is ``game.last_play``; pass None or False to hide it,
    or another :class:`~bot.engine.Play`, written from the side of ``game.last_player``
    (or of the player not on roll when the game has none).

    >>> from bot.engine import Game
    >>> png = render_board(Game.new().opening_roll(3, 1), perspective=0)
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    return encode(
        compose(
            game,
            perspective=perspective,
            names=names,
            last_play=last_play,
            theme=theme,
            width=width,
        ),
        _theme(theme),
    )


def compose(
    game: Game,
    *,
    perspective: int,
    names: tuple[str, str] = ("alice", "bob"),
    last_play: Play | bool | _Default | None = GAME_LAST_PLAY,
    theme: Theme | str = CLASSIC,
    width: int = DEFAULT_WIDTH,
) -> Image.Image:
    """The picture :func:`render_board` encodes, as a full-colour RGB image."""
    if perspective not in (0, 1):
        raise ValueError(f"perspective is player 0 or 1, not {perspective!r}")
    th = _theme(theme)
    layout = Layout.for_width(width)
    image = _empty_board(th, layout).copy()
    scene = _Scene(game, perspective, th, layout, image)
    scene.draw(_names(names), _play_to_show(game, last_play))
    return image


def encode(image: Image.Image, theme: Theme | str = CLASSIC) -> bytes:
    """PNG bytes of a composed picture, on the theme's fixed palette."""
    indexed = image.quantize(palette=_palette(_theme(theme)), dither=Image.Dither.NONE)
    out = io.BytesIO()
    indexed.save(out, "PNG", compress_level=3)
    return out.getvalue()


def warm_up(*, themes: Iterable[Theme | str] = THEMES, width: int = DEFAULT_WIDTH) -> None:
    """Build the caches (fonts, sprites, palettes) now rather than on the first picture,
    which otherwise takes about half a second longer per theme."""
    for theme in themes:
        render_board(Game.new(), perspective=0, theme=theme, width=width)


# --- inputs -----------------------------------------------------------------------------


def _theme(theme: Theme | str) -> Theme:
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        raise ValueError(f"no theme {theme!r}; choose one of {', '.join(THEMES)}") from None


def _names(names: Iterable[object]) -> tuple[str, str]:
    given = [*list(names)[:2], "", ""][:2]
    out = []
    for index, name in enumerate(given):
        text = clean(str(name) if name is not None else "")
        out.append(text if runs(text) else f"Player {index + 1}")
    return out[0], out[1]


def _play_to_show(game: Game, last_play: Play | bool | _Default | None) -> tuple[Play, int] | None:
    """The play to mark and the player who made it, or None."""
    if last_play is GAME_LAST_PLAY:
        if game.last_play is None or game.last_player is None:
            return None
        return game.last_play, game.last_player
    if not isinstance(last_play, Play):
        return None  # None, False (and True, which has no play to show)
    mover = game.last_player if game.last_player is not None else 1 - game.on_roll
    return last_play, mover


# --- the scene --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Arrow:
    start: tuple[int, int]
    end: tuple[int, int]
    via: tuple[int, int] | None = None  # a Bezier control point: bend round the track


class _Scene:
    """One picture being drawn: the game, who it is drawn for, and where things go."""

    def __init__(
        self, game: Game, perspective: int, theme: Theme, layout: Layout, image: Image.Image
    ) -> None:
        self.game = game
        self.me = perspective
        self.theme = theme
        self.layout = layout
        self.image = image
        self.board = game.position_for(perspective).board

    def side_of(self, player: int) -> Side:
        return "near" if player == self.me else "far"

    def player_of(self, side: Side) -> int:
        return self.me if side == "near" else 1 - self.me

    def count(self, side: Side, point: int) -> int:
        """Checkers ``side`` has on ``point`` (1-24 in perspective numbering, 25 = bar)."""
        if point == BAR:
            return self.board[25] if side == "near" else self.board[0]
        n = self.board[point]
        return max(n, 0) if side == "near" else max(-n, 0)

    def paste(self, sprite: Image.Image, centre: tuple[float, float]) -> None:
        x = round(centre[0] - sprite.width / 2)
        y = round(centre[1] - sprite.height / 2)
        self.image.paste(sprite, (x, y), sprite)

    def paste_at(self, sprite: Image.Image, xy: tuple[int, int]) -> None:
        self.image.paste(sprite, xy, sprite)

    # --- the whole picture -----------------------------------------------------------------

    def draw(self, names: tuple[str, str], shown: tuple[Play, int] | None) -> None:
        self.draw_checkers()
        self.draw_trays()
        self.draw_cube()
        self.draw_dice()
        if shown is not None:
            self.draw_last_play(*shown)
        self.draw_panels(names)
        self.draw_footer()
        if self.game.phase is Phase.OVER and self.game.result is not None:
            self.draw_banner(names)

    # --- checkers ------------------------------------------------------------------------

    def draw_checkers(self) -> None:
        layout, theme = self.layout, self.theme
        for point in range(1, 25):
            n = self.board[point]
            if not n:
                continue
            side: Side = "near" if n > 0 else "far"
            player = self.player_of(side)
            sprite = _checker(theme, layout.radius, player)
            shown = min(abs(n), layout.stack)
            for slot in range(shown):
                self.paste(sprite, layout.checker_centre(point, slot))
            if abs(n) > layout.stack:
                self.label_checker(layout.checker_centre(point, shown - 1), abs(n), player)
        for side in ("near", "far"):
            n = self.count(side, BAR)
            player = self.player_of(side)
            sprite = _checker(theme, layout.radius, player)
            shown = min(n, layout.bar_stack)
            for slot in range(shown):
                self.paste(sprite, layout.bar_centre(side, slot))
            if n > layout.bar_stack:
                self.label_checker(layout.bar_centre(side, shown - 1), n, player)

    def label_checker(self, centre: tuple[int, int], count: int, player: int) -> None:
        size = self.layout.px(30)
        label = text_image(str(count), size, self.theme.checker_text[player], bold=True)
        self.paste(label, centre)

    def draw_trays(self) -> None:
        layout, theme = self.layout, self.theme
        off = self.game.position_for(self.me).borne_off()
        sides: tuple[Side, Side] = ("near", "far")
        for side, n in zip(sides, off, strict=True):
            player = self.player_of(side)
            slab = _slab(theme, layout, player)
            for index in range(min(n, 15)):
                x0, y0, _, _ = layout.slab_rect(side, index)
                self.paste_at(slab, (x0, y0))
            if n:
                label = text_image(str(n), layout.px(26), theme.numbers, bold=True)
                self.paste(label, layout.tray_label_centre(side))

    # --- dice and cube -------------------------------------------------------------------

    def draw_dice(self) -> None:
        game = self.game
        if game.phase is not Phase.MOVE or not game.dice:
            return
        roller = game.on_roll
        # The opening roll is one die each: the second belongs to the player who lost it.
        opening = game.last_play is None and game.last_player is None
        owners = (roller, 1 - roller) if opening else (roller, roller)
        centres = self.layout.dice_centres(self.side_of(roller))
        for value, owner, centre in zip(game.dice, owners, centres, strict=True):
            self.paste(_die(self.theme, self.layout.die_size, owner, value), centre)

    def draw_cube(self) -> None:
        game, layout = self.game, self.layout
        options: MatchOptions = game.options
        if game.crawford:
            label = _vertical_label(self.theme, layout, "CRAWFORD")
            self.paste(label, layout.cube_centre("middle"))
            return
        if not options.cube or options.length == 1:
            return
        if game.phase is Phase.DOUBLED:
            taker = 1 - game.on_roll
            sprite = _cube(self.theme, layout.cube_size, game.cube * 2, offered=True)
            self.paste(sprite, layout.cube_centre(self.side_of(taker)))
            return
        value = 64 if game.cube == 1 and game.cube_owner is None else game.cube
        where = "middle" if game.cube_owner is None else self.side_of(game.cube_owner)
        self.paste(_cube(self.theme, layout.cube_size, value), layout.cube_centre(where))

    # --- the last play -------------------------------------------------------------------

    def draw_last_play(self, play: Play, mover: int) -> None:
        layout, theme = self.layout, self.theme
        side = self.side_of(mover)

        def here(point: int) -> int:
            if point in (BAR, OFF):
                return point
            return point if mover == self.me else 25 - point

        chains = _chains(play.moves)
        departures: Counter[int] = Counter()
        arrivals = Counter(here(chain[-1].target) for chain in chains)
        placed: Counter[int] = Counter()
        ghosts: list[tuple[int, int]] = []
        rings: list[tuple[int, int]] = []
        arrows: list[_Arrow] = []
        hits: set[int] = set()
        off_total = self.game.position_for(self.me).borne_off()[0 if side == "near" else 1]
        for chain in chains:
            source, target = here(chain[0].source), here(chain[-1].target)
            hits.update(here(m.target) for m in chain if m.hit and m.target != OFF)
            slot = self.count(side, source) + departures[source]
            departures[source] += 1
            start = self.slot_centre(side, source, slot)
            if slot < (layout.bar_stack if source == BAR else layout.stack):
                ghosts.append(start)
            if target == OFF:
                index = max(off_total - arrivals[OFF] + placed[OFF], 0)
                x0, y0, x1, y1 = layout.slab_rect(side, min(index, 14))
                end = ((x0 + x1) // 2, (y0 + y1) // 2)
            else:
                slot = self.count(side, target) - arrivals[target] + placed[target]
                end = self.slot_centre(side, target, max(slot, 0))
                rings.append(end)
            placed[target] += 1
            arrows.append(_Arrow(start, end, self.bend(source, target)))
        for centre in ghosts:
            self.paste(_ghost(theme, layout.radius, mover), centre)
        for centre in rings:
            self.paste(_ring(theme, layout.radius), centre)
        for arrow in arrows:
            self.draw_arrow(arrow)
        for point in sorted(hits):
            self.draw_hit(point, side)

    def slot_centre(self, side: Side, point: int, slot: int) -> tuple[int, int]:
        if point == BAR:
            return self.layout.bar_centre(side, min(slot, self.layout.bar_stack - 1))
        return self.layout.checker_centre(point, min(slot, self.layout.stack - 1))

    def bend(self, source: int, target: int) -> tuple[int, int] | None:
        """A checker crossing from one row to the other goes round the left end of the
        track (between the 12 and 13 points), so its arrow bends that way."""
        layout = self.layout
        if source in (BAR, OFF) or target in (BAR, OFF):
            return None
        if layout.is_top(source) == layout.is_top(target):
            return None
        (x0, y0), (x1, y1) = layout.checker_centre(source, 0), layout.checker_centre(target, 0)
        turn_x, turn_y = layout.field_left, layout.mid_y
        # Halfway between the straight line's middle and the turn: a gentle curve.
        return round(((x0 + x1) / 2 + turn_x) / 2), round(((y0 + y1) / 2 + turn_y) / 2)

    def draw_arrow(self, arrow: _Arrow) -> None:
        layout = self.layout
        path = _bezier(arrow.start, arrow.via, arrow.end)
        trim = layout.radius * 0.45
        if _length(path) > 3 * trim:
            path = _trim(path, trim)
        _draw_arrow(self.image, path, layout, self.theme)

    def draw_hit(self, point: int, side: Side) -> None:
        layout = self.layout
        x, y = layout.checker_centre(point, 0)
        r = layout.radius
        toward_middle = 1 if layout.is_top(point) else -1
        badge = _hit_badge(self.theme, layout.radius)
        self.paste(badge, (x + r * 0.62, y + toward_middle * r * 0.62))

    # --- around the board ----------------------------------------------------------------

    def draw_panels(self, names: tuple[str, str]) -> None:
        game, layout, theme = self.game, self.layout, self.theme
        pips = game.pips()
        for side in ("far", "near"):
            player = self.player_of(side)
            x0, y0, x1, y1 = layout.panel_rect(side)
            status, active = self.status(player, names)
            draw = ImageDraw.Draw(self.image)
            pad = layout.px(8)
            box = (x0 + pad, y0 + pad, x1 - pad, y1 - pad)
            draw.rounded_rectangle(
                box,
                radius=layout.px(12),
                fill=theme.panel_active if active else theme.panel,
                outline=theme.accent if active else None,
                width=layout.px(3),
            )
            cy = (y0 + y1) // 2
            disc_r = layout.px(19)
            self.paste(_checker(theme, disc_r, player), (box[0] + layout.px(12) + disc_r, cy))
            x = box[0] + layout.px(24) + 2 * disc_r
            right = self.draw_figures(side, player, pips[player], box)
            name_size = layout.px(30)
            status_size = layout.px(24)
            room = right - x - layout.px(16)
            status_img = (
                text_image(
                    status,
                    status_size,
                    theme.text if active else theme.muted,
                    bold=active,
                    max_width=max(room // 2, 1),
                )
                if status
                else None
            )
            name_room = room - (status_img.width + layout.px(14) if status_img else 0)
            name_img = text_image(
                names[player],
                name_size,
                theme.text,
                bold=True,
                max_width=max(name_room, layout.px(40)),
            )
            self.paste_at(name_img, (x, cy - name_img.height // 2))
            if status_img is not None:
                sx = x + name_img.width + layout.px(14)
                # Share the name's baseline: both images put it at their font's ascent.
                name_ascent = _ascent(name_size, bold=True)
                status_ascent = _ascent(status_size, bold=active)
                sy = cy - name_img.height // 2 + name_ascent - status_ascent
                self.paste_at(status_img, (sx, sy))

    def draw_figures(
        self, side: Side, player: int, pips: int, box: tuple[int, int, int, int]
    ) -> int:
        """Pip count and match score at the panel's right end; returns where they begin."""
        layout, theme, game = self.layout, self.theme, self.game
        columns: list[tuple[str, str]] = [("PIPS", str(pips))]
        if game.options.length:
            columns.append(("SCORE", str(game.final_score[player])))
        x = box[2] - layout.px(16)
        label_size, value_size = layout.px(15), layout.px(28)
        cy = (box[1] + box[3]) // 2
        for label, value in reversed(columns):
            value_img = text_image(value, value_size, theme.text, bold=True)
            label_img = text_image(label, label_size, theme.muted, bold=True)
            w = max(value_img.width, label_img.width, layout.px(56))
            centre = x - w // 2
            self.paste(label_img, (centre, cy - layout.px(15)))
            self.paste(value_img, (centre, cy + layout.px(10)))
            x -= w + layout.px(18)
        return x

    def status(self, player: int, names: tuple[str, str]) -> tuple[str, bool]:
        """What ``player``'s panel says, and whether it is their turn to act."""
        game = self.game
        actor = game.actor
        if game.phase is Phase.OVER:
            result = game.result
            if result is not None and result.winner == player:
                return f"wins {_points(result.points)}", False
            return "", False
        if game.resignation is not None:
            if game.resignation.player == player:
                return f"resigns {_kind_name(game.resignation.kind)}", False
            return "to accept or reject", True
        if game.phase is Phase.OPENING:
            return "opening roll", False
        if game.phase is Phase.DOUBLED:
            if player == game.on_roll:
                return f"doubles to {game.cube * 2}", False
            return "to take or drop", True
        if player != actor:
            return "", False
        if game.phase is Phase.ROLL:
            return ("to roll or double" if game.can_double() else "to roll"), True
        return "to move", True

    def draw_footer(self) -> None:
        game, layout, theme = self.game, self.layout, self.theme
        x0, y0, x1, y1 = layout.footer_rect()
        cy = (y0 + y1) // 2
        if game.options.length:
            terms = f"{game.options.length}-point match"
            if game.crawford:
                terms += " · Crawford game"
        else:
            terms = f"Money game · stake {game.cube}"
        pad = layout.px(14)
        size = layout.px(18)
        left = text_image(terms, size, theme.muted, bold=True)
        self.paste_at(left, (x0 + pad, cy - left.height // 2))
        ids = f"Position ID {game.position_id()}   Match ID {game.match_id()}"
        right = text_image(ids, layout.px(13), theme.muted)
        self.paste_at(right, (x1 - pad - right.width, cy - right.height // 2))

    def draw_banner(self, names: tuple[str, str]) -> None:
        game, layout, theme = self.game, self.layout, self.theme
        result = game.result
        assert result is not None
        winner, loser = names[result.winner], names[1 - result.winner]
        headline = f"{winner} wins {_points(result.points)}"
        details = {
            EndReason.DROPPED: f"{loser} dropped the double",
            EndReason.RESIGNED: f"{loser} resigned {_kind_name(result.kind)}",
            EndReason.FORFEIT: f"{loser} forfeited",
        }.get(result.reason, _kind_phrase(result.kind))
        if game.match_over and game.options.length:
            a, b = game.final_score[result.winner], game.final_score[1 - result.winner]
            details += f" · wins the match {a}–{b}"
        elif game.options.length:
            a, b = game.final_score
            if a == b:
                details += f" · tied {a}–{b}"
            else:
                leader = names[0] if a > b else names[1]
                details += f" · {leader} leads {max(a, b)}–{min(a, b)}"
        left, right = layout.field_left + layout.px(24), layout.field_right - layout.px(24)
        height = layout.px(112)
        top = layout.mid_y - height // 2
        box = (left, top, right, top + height)
        overlay = Image.new("RGBA", (right - left, height), (0, 0, 0, 0))
        ImageDraw.Draw(overlay).rounded_rectangle(
            (0, 0, right - left - 1, height - 1),
            radius=layout.px(16),
            fill=(*theme.banner, 232),
            outline=(*theme.accent, 255),
            width=layout.px(4),
        )
        self.paste_at(overlay, box[:2])
        width = right - left - layout.px(40)
        head = text_image(headline, layout.px(38), theme.banner_text, bold=True, max_width=width)
        sub = text_image(details, layout.px(22), theme.banner_text, max_width=width)
        cx = (left + right) // 2
        self.paste(head, (cx, top + height * 0.38))
        self.paste(sub, (cx, top + height * 0.76))


# --- helpers for the scene ----------------------------------------------------------------


def _chains(moves: Iterable[Move]) -> list[list[Move]]:
    """Join single-die moves into checker paths (24/18, 18/13 -> one path 24/13)."""
    ordered = sorted(moves, key=lambda m: (m.source, m.target), reverse=True)
    chains: list[list[Move]] = []
    for move in ordered:
        for chain in chains:
            end = chain[-1].target
            if end == move.source and end != OFF:
                chain.append(move)
                break
        else:
            chains.append([move])
    return chains


def _points(points: int) -> str:
    return f"{points} point" if points == 1 else f"{points} points"


def _kind_name(kind: ResultKind) -> str:
    return {
        ResultKind.SINGLE: "a single game",
        ResultKind.GAMMON: "a gammon",
        ResultKind.BACKGAMMON: "a backgammon",
    }[ResultKind(kind)]


def _kind_phrase(kind: ResultKind) -> str:
    return {
        ResultKind.SINGLE: "single game",
        ResultKind.GAMMON: "gammon",
        ResultKind.BACKGAMMON: "backgammon",
    }[ResultKind(kind)]


@cache
def _ascent(size: int, *, bold: bool) -> int:
    from renderers.theme import font

    return font(size, bold=bold).getmetrics()[0]


def _bezier(
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


def _length(path: list[tuple[float, float]]) -> float:
    return sum(math.dist(p, q) for p, q in itertools.pairwise(path))


def _trim(path: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
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


def _draw_arrow(
    image: Image.Image, path: list[tuple[float, float]], layout: Layout, theme: Theme
) -> None:
    """An arrow along ``path`` with a dark outline: two masks drawn twice as large, reduced,
    then filled with the accent colours."""
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
    hl = min(head_len * k, _length(points) * 0.6)
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
        masks.append(mask.reduce(k))
    box = (left, top, right, bottom)
    image.paste(theme.accent_dark, box, masks[0])
    image.paste(theme.accent, box, masks[1])


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


# --- cached drawings ----------------------------------------------------------------------


def _shade(colour: RGB, amount: float) -> RGB:
    """``colour`` lightened (amount > 0) or darkened (amount < 0) by a fraction."""
    if amount >= 0:
        r, g, b = (round(c + (255 - c) * amount) for c in colour)
    else:
        r, g, b = (round(c * (1 + amount)) for c in colour)
    return r, g, b


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    r, g, b_ = (round(x + (y - x) * t) for x, y in zip(a, b, strict=True))
    return r, g, b_


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
def _checker(theme: Theme, radius: int, player: int) -> Image.Image:
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
def _ghost(theme: Theme, radius: int, player: int) -> Image.Image:
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
def _ring(theme: Theme, radius: int) -> Image.Image:
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
def _hit_badge(theme: Theme, radius: int) -> Image.Image:
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
def _die(theme: Theme, size: int, player: int, value: int) -> Image.Image:
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
def _cube(theme: Theme, size: int, value: int, *, offered: bool = False) -> Image.Image:
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
def _slab(theme: Theme, layout: Layout, player: int) -> Image.Image:
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
def _vertical_label(theme: Theme, layout: Layout, text: str) -> Image.Image:
    label = text_image(text, layout.px(20), theme.numbers, bold=True)
    return label.rotate(90, expand=True)


@cache
def _empty_board(theme: Theme, layout: Layout) -> Image.Image:
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


# --- the palette --------------------------------------------------------------------------


PALETTE_WIDTH = 480  # the palette is learnt from small pictures: same colours, less work


@cache
def _palette(theme: Theme) -> Image.Image:
    """A fixed 256-colour palette for the theme, learnt from pictures of every element.

    The theme's own colours go in exactly, so flat areas keep their colour; the rest are
    the median-cut colours of a few sample pictures (edges, shadows, text, arrows). The
    same colours appear at every width, so one palette serves them all.
    """
    layout = Layout.for_width(PALETTE_WIDTH)
    samples = [
        compose(
            game, perspective=p, names=("alice 山田 🎲", "Bob"), theme=theme, width=layout.width
        )
        for game, p in _sample_games()
    ]
    strip = Image.new("RGB", (layout.width, layout.height * len(samples)))
    for index, sample in enumerate(samples):
        strip.paste(sample, (0, layout.height * index))
    exact: list[RGB] = []
    for value in _theme_colours(theme):
        if value not in exact:
            exact.append(value)
    learnt = strip.quantize(colors=256 - len(exact), method=Image.Quantize.MEDIANCUT)
    flat = learnt.getpalette() or []
    colours = [*exact, *(tuple(flat[i : i + 3]) for i in range(0, (256 - len(exact)) * 3, 3))]
    palette = Image.new("P", (1, 1))
    palette.putpalette([c for colour in colours for c in colour])
    return palette


def _theme_colours(theme: Theme) -> list[RGB]:
    out: list[RGB] = []
    for value in (getattr(theme, name) for name in theme.__slots__):
        if isinstance(value, tuple) and value and isinstance(value[0], tuple):
            out.extend(value)
        elif isinstance(value, tuple):
            out.append(value)
    return out


def _sample_games() -> list[tuple[Game, int]]:
    """A few states that between them show every element of the picture."""
    from renderers.examples import EXAMPLES

    out = []
    for name in ("hit", "doubled", "bearoff", "game-over"):
        game, perspective = EXAMPLES[name]()
        out += [(game, perspective), (game, 1 - perspective)]
    return out
