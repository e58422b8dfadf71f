"""The board picture: a :class:`~bot.engine.Game` in, PNG bytes out.

This module owns the scene: what goes where for a game (checkers on the points and the bar,
borne-off checkers in the trays, the dice, the cube, the last play's arrows, ghosts, rings
and hit badges), the entry points :func:`render_board`, :func:`compose`, :func:`encode` and
:func:`warm_up`, and each theme's fixed palette, learnt from pictures it composes. Where
things are is the :class:`~renderers.theme.Layout`'s; how they look is
:mod:`renderers.sprites`'; the words around the board are :mod:`renderers.panels`'.

Pure and synchronous: no I/O but reading the shipped fonts once, no randomness, no state but
caches. A picture is a :class:`~renderers.regions.Canvas` of drawing operations, painted by
regions onto the empty board already mapped onto the palette (:func:`renderers.regions.paint`),
and written by :func:`renderers.png.write_png`. The result is the same, pixel for pixel, as
composing the whole picture in RGB and mapping it all (what :func:`compose` and
:func:`encode` still do; a test compares both with the renderer before, kept in
benchmarks/_render_before.py).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image

import renderers.sprites as sprites
from bot.engine import Game, Move, Phase, Play
from renderers.examples import EXAMPLES
from renderers.panels import ENGLISH, BoardWords, draw_banner, draw_footer, draw_panels
from renderers.png import write_png
from renderers.regions import Canvas, kept, paint
from renderers.text import clean, runs
from renderers.theme import (
    CLASSIC,
    DEFAULT_WIDTH,
    HOMES,
    RGB,
    THEMES,
    Home,
    Layout,
    Side,
    Theme,
)

BAR = 25
OFF = 0


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
    home: Home = "right",
    words: BoardWords = ENGLISH,
) -> bytes:
    """Draw ``game`` as seen by player ``perspective`` (0 or 1) and return a PNG.

    ``names`` are player 0's and player 1's display names (any Unicode). ``last_play`` is
    marked with arrows; by default it is ``game.last_play``; pass None or False to hide it,
    or another :class:`~bot.engine.Play`, written from the side of ``game.last_player``
    (or of the player not on roll when the game has none). ``home`` is the side where
    ``perspective``'s home board is drawn: "right" (the usual picture) or "left" (the
    board's geometry mirrored: points, bar, trays, checkers, arrows, cube and dice; text
    still reads left to right). ``words``: every word drawn (the panels' status, pip and
    score labels, the footer, the banner), English unless the caller passes translated ones.

    >>> from bot.engine import Game
    >>> png = render_board(Game.new().opening_roll(3, 1), perspective=0)
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    th = _theme(theme)
    layout = Layout.for_width(width, home=home)
    canvas = _draw(game, perspective, names, last_play, th, layout, words)
    out = paint(canvas, *_bases(th, layout), _palette(th), kept(th, layout))
    return write_png(out.tobytes(), layout.width, layout.height, _palette_bytes(th))


def compose(
    game: Game,
    *,
    perspective: int,
    names: tuple[str, str] = ("alice", "bob"),
    last_play: Play | bool | _Default | None = GAME_LAST_PLAY,
    theme: Theme | str = CLASSIC,
    width: int = DEFAULT_WIDTH,
    home: Home = "right",
    words: BoardWords = ENGLISH,
) -> Image.Image:
    """The picture :func:`render_board` encodes, as a full-colour RGB image."""
    th = _theme(theme)
    layout = Layout.for_width(width, home=home)
    canvas = _draw(game, perspective, names, last_play, th, layout, words)
    image = sprites.empty_board(th, layout).copy()
    for _, op in canvas.ops:
        op(image, 0, 0)
    return image


def encode(image: Image.Image, theme: Theme | str = CLASSIC) -> bytes:
    """PNG bytes of a composed picture, on the theme's fixed palette."""
    th = _theme(theme)
    indexed = image.convert("RGB").quantize(palette=_palette(th), dither=Image.Dither.NONE)
    rows = Image.new("P", (image.width + 1, image.height), 0)
    rows.paste(indexed, (1, 0))
    return write_png(rows.tobytes(), image.width, image.height, _palette_bytes(th))


def _draw(
    game: Game,
    perspective: int,
    names: Iterable[object],
    last_play: Play | bool | _Default | None,
    theme: Theme,
    layout: Layout,
    words: BoardWords = ENGLISH,
) -> Canvas:
    if perspective not in (0, 1):
        raise ValueError(f"perspective is player 0 or 1, not {perspective!r}")
    canvas = Canvas(layout.width, layout.height)
    scene = _Scene(game, perspective, theme, layout, canvas)
    scene.draw(_names(names, words.player), _play_to_show(game, last_play), words)
    return canvas


def warm_up(
    *,
    themes: Iterable[Theme | str] = THEMES,
    width: int = DEFAULT_WIDTH,
    homes: Iterable[Home] = HOMES,
) -> None:
    """Build the caches (fonts, sprites, palettes, empty boards) now rather than on the
    first picture, which otherwise takes about half a second longer per theme (and 50 ms
    more per home board side)."""
    for theme in themes:
        for home in homes:
            render_board(Game.new(), perspective=0, theme=theme, width=width, home=home)


# --- inputs -----------------------------------------------------------------------------


def _theme(theme: Theme | str) -> Theme:
    if isinstance(theme, Theme):
        return theme
    try:
        return THEMES[theme]
    except KeyError:
        raise ValueError(f"no theme {theme!r}; choose one of {', '.join(THEMES)}") from None


def _names(names: Iterable[object], player: str = ENGLISH.player) -> tuple[str, str]:
    given = [*list(names)[:2], "", ""][:2]
    out = [
        _name(str(name) if name is not None else "", index, player)
        for index, name in enumerate(given)
    ]
    return out[0], out[1]


@lru_cache(maxsize=1024)
def _name(name: str, index: int, player: str = ENGLISH.player) -> str:
    """A player's name as drawn (a game's pictures all show the same two); ``player`` names
    one with no drawable character ("Player {n}")."""
    text = clean(name)
    return text if runs(text) else player.format(n=index + 1)


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


# --- the palette --------------------------------------------------------------------------


PALETTE_WIDTH = 480  # the palette is learnt from small pictures: same colours, less work


@cache
def _palette_bytes(theme: Theme) -> bytes:
    return bytes((_palette(theme).getpalette() or [])[: 256 * 3])


@cache
def _bases(theme: Theme, layout: Layout) -> tuple[Image.Image, Image.Image]:
    """The empty board in full colour, and on the palette with a zero column in front of
    every row: the PNG's filter byte, so the finished picture's bytes are the PNG rows."""
    rgb = sprites.empty_board(theme, layout)
    indexed = rgb.quantize(palette=_palette(theme), dither=Image.Dither.NONE)
    rows = Image.new("P", (layout.width + 1, layout.height), 0)
    rows.paste(indexed, (1, 0))
    return rgb, rows


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
    out = []
    for name in ("hit", "doubled", "bearoff", "game-over"):
        game, perspective = EXAMPLES[name]()
        out += [(game, perspective), (game, 1 - perspective)]
    return out


# --- the scene --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Arrow:
    start: tuple[int, int]
    end: tuple[int, int]
    via: tuple[int, int] | None = None  # a Bezier control point: bend round the track


class _Scene:
    """One picture being drawn: the game, who it is drawn for, and where things go."""

    def __init__(
        self, game: Game, perspective: int, theme: Theme, layout: Layout, canvas: Canvas
    ) -> None:
        self.game = game
        self.me = perspective
        self.theme = theme
        self.layout = layout
        self.canvas = canvas
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

    def paste(
        self, sprite: Image.Image, centre: tuple[float, float], key: Hashable | None = None
    ) -> None:
        self.canvas.centre(sprite, centre, key)

    # --- the whole picture -----------------------------------------------------------------

    def draw(
        self, names: tuple[str, str], shown: tuple[Play, int] | None, words: BoardWords = ENGLISH
    ) -> None:
        self.draw_checkers()
        self.draw_trays()
        self.draw_cube()
        self.draw_dice()
        if shown is not None:
            self.draw_last_play(*shown)
        game, theme, layout = self.game, self.theme, self.layout
        draw_panels(self.canvas, game, self.me, theme, layout, names, words)
        draw_footer(self.canvas, game, theme, layout, words)
        if game.phase is Phase.OVER and game.result is not None:
            draw_banner(self.canvas, game, theme, layout, names, words)

    # --- checkers ------------------------------------------------------------------------

    def draw_checkers(self) -> None:
        layout, theme = self.layout, self.theme
        discs = (sprites.checker(theme, layout.radius, 0), sprites.checker(theme, layout.radius, 1))
        for point in range(1, 25):
            n = self.board[point]
            if not n:
                continue
            side: Side = "near" if n > 0 else "far"
            player = self.player_of(side)
            sprite = discs[player]
            shown = min(abs(n), layout.stack)
            for slot in range(shown):
                self.paste(sprite, layout.checker_centre(point, slot), ("checker", player))
            if abs(n) > layout.stack:
                self.label_checker(layout.checker_centre(point, shown - 1), abs(n), player)
        for side in ("near", "far"):
            n = self.count(side, BAR)
            player = self.player_of(side)
            sprite = discs[player]
            shown = min(n, layout.bar_stack)
            for slot in range(shown):
                self.paste(sprite, layout.bar_centre(side, slot), ("checker", player))
            if n > layout.bar_stack:
                self.label_checker(layout.bar_centre(side, shown - 1), n, player)

    def label_checker(self, centre: tuple[int, int], count: int, player: int) -> None:
        size = self.layout.px(30)
        label, key = sprites.keyed_text(
            str(count), size, self.theme.checker_text[player], bold=True
        )
        self.paste(label, centre, key)

    def draw_trays(self) -> None:
        layout, theme = self.layout, self.theme
        off = self.game.position_for(self.me).borne_off()
        sides: tuple[Side, Side] = ("near", "far")
        for side, n in zip(sides, off, strict=True):
            player = self.player_of(side)
            slab = sprites.slab(theme, layout, player)
            for index in range(min(n, 15)):
                x0, y0, _, _ = layout.slab_rect(side, index)
                self.canvas.paste(slab, (x0, y0), ("slab", player))
            if n:
                label, key = sprites.keyed_text(str(n), layout.px(26), theme.numbers, bold=True)
                self.paste(label, layout.tray_label_centre(side), key)

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
            sprite = sprites.die(self.theme, self.layout.die_size, owner, value)
            self.paste(sprite, centre, ("die", owner, value))

    def draw_cube(self) -> None:
        game, layout = self.game, self.layout
        if game.crawford:
            label = sprites.vertical_label(self.theme, layout, "CRAWFORD")
            self.paste(label, layout.cube_centre("middle"))
            return
        if not game.cube_in_play:
            return
        if game.phase is Phase.DOUBLED:
            taker = 1 - game.on_roll
            sprite = sprites.cube(self.theme, layout.cube_size, game.cube * 2, offered=True)
            self.paste(sprite, layout.cube_centre(self.side_of(taker)), ("offered", game.cube))
            return
        value = 64 if game.cube == 1 and game.cube_owner is None else game.cube
        where = "middle" if game.cube_owner is None else self.side_of(game.cube_owner)
        sprite = sprites.cube(self.theme, layout.cube_size, value)
        self.paste(sprite, layout.cube_centre(where), ("cube", value))

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
            self.paste(sprites.ghost(theme, layout.radius, mover), centre)
        for centre in rings:
            self.paste(sprites.ring(theme, layout.radius), centre)
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
        track (between the 12 and 13 points), so its arrow bends that way: the left end
        with the home board on the right, the right end with it on the left."""
        layout = self.layout
        if source in (BAR, OFF) or target in (BAR, OFF):
            return None
        if layout.is_top(source) == layout.is_top(target):
            return None
        (x0, y0), (x1, y1) = layout.checker_centre(source, 0), layout.checker_centre(target, 0)
        turn_x, turn_y = layout.turn_x, layout.mid_y
        # Halfway between the straight line's middle and the turn: a gentle curve.
        return round(((x0 + x1) / 2 + turn_x) / 2), round(((y0 + y1) / 2 + turn_y) / 2)

    def draw_arrow(self, arrow: _Arrow) -> None:
        layout = self.layout
        path = sprites.bezier(arrow.start, arrow.via, arrow.end)
        trim = layout.radius * 0.45
        if sprites.path_length(path) > 3 * trim:
            path = sprites.trim(path, trim)
        origin, tiles = sprites.arrow_tiles(tuple(path), layout)
        for (x0, y0, x1, y1), outline, body in tiles:
            box = (origin[0] + x0, origin[1] + y0, origin[0] + x1, origin[1] + y1)
            self.canvas.fill(((self.theme.accent_dark, outline), (self.theme.accent, body)), box)

    def draw_hit(self, point: int, side: Side) -> None:
        layout = self.layout
        x, y = layout.checker_centre(point, 0)
        r = layout.radius
        toward_middle = 1 if layout.is_top(point) else -1
        outward = -1 if layout.home == "left" else 1  # toward the home board's side
        badge = sprites.hit_badge(self.theme, layout.radius)
        self.paste(badge, (x + outward * r * 0.62, y + toward_middle * r * 0.62))


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
