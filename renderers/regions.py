"""Drawing a picture by regions: the canvas of operations, and the cache of drawn regions.

A picture is a list of drawing operations (a :class:`Canvas`), each with the box it may
change; the boxes that overlap are drawn together on a full-colour crop of the empty board,
mapped onto the theme's palette and pasted into a copy of the palette board. Only those
regions pay for colour mapping, and the result is the same, pixel for pixel, as composing
the whole picture in RGB and mapping it all. Regions that hold only checkers, dice or the
cube are kept already mapped and reused (a game's pictures change a few points at a time),
as are boxes of text over them. Knows nothing of backgammon: boxes, operations, keys.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from renderers.theme import RGB, Layout, Theme

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 with x1 and y1 excluded
Op = Callable[[Image.Image, int, int], None]  # draws on an image whose corner is (dx, dy)


class Canvas:
    """A picture as the list of what is drawn on the empty board, in order.

    Each operation carries the box of pixels it may change (clipped to the picture), so a
    region can be drawn on its own: the operations whose boxes meet it, in the same order,
    on a crop of the empty board give exactly the pixels of the whole picture.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.ops: list[tuple[Box, Op]] = []
        self.keys: list[Hashable | None] = []

    def add(self, box: Box, op: Op, key: Hashable | None = None) -> None:
        x0, y0 = max(box[0], 0), max(box[1], 0)
        x1, y1 = min(box[2], self.width), min(box[3], self.height)
        if x0 < x1 and y0 < y1:
            self.ops.append(((x0, y0, x1, y1), op))
            self.keys.append(key)

    def paste(self, sprite: Image.Image, xy: tuple[int, int], key: Hashable | None = None) -> None:
        """``sprite`` (RGBA) over the picture, its corner at ``xy``. ``key`` names the
        sprite for the theme and layout (see :func:`kept`); None for one that is not
        the board's furniture."""
        x, y = xy

        w, h = sprite.size
        core = sprite.im  # Image.paste's own checks cost more than pasting a checker

        def op(image: Image.Image, dx: int, dy: int) -> None:
            image.im.paste(core, (x - dx, y - dy, x - dx + w, y - dy + h), core)

        self.add((x, y, x + w, y + h), op, None if key is None else (key, x, y))

    def centre(
        self, sprite: Image.Image, centre: tuple[float, float], key: Hashable | None = None
    ) -> None:
        """``sprite`` pasted with its middle at ``centre`` (rounded to a whole pixel)."""
        x = round(centre[0] - sprite.width / 2)
        y = round(centre[1] - sprite.height / 2)
        self.paste(sprite, (x, y), key)

    def fill(self, fills: tuple[tuple[RGB, Image.Image], ...], box: Box) -> None:
        """Each colour through its mask (mode "L", the size of ``box``), in order."""
        x0, y0, x1, y1 = box
        cores = tuple((colour, mask.im) for colour, mask in fills)

        def op(image: Image.Image, dx: int, dy: int) -> None:
            target = (x0 - dx, y0 - dy, x1 - dx, y1 - dy)
            for colour, mask in cores:
                image.im.paste(colour, target, mask)

        self.add(box, op)

    def rounded_rectangle(self, box: Box, key: Hashable | None = None, **options: object) -> None:
        """ImageDraw's rounded rectangle; ``box`` includes its right and bottom edges.
        ``key`` (with the box) names what ``options`` draw, as for :meth:`paste`."""
        x0, y0, x1, y1 = box

        def op(image: Image.Image, dx: int, dy: int) -> None:
            ImageDraw.Draw(image).rounded_rectangle(
                (x0 - dx, y0 - dy, x1 - dx, y1 - dy),
                **options,  # type: ignore[arg-type]
            )

        # One pixel of slack each way: a wrong box would be a wrong picture; a larger one
        # only costs a little colour mapping.
        self.add((x0 - 1, y0 - 1, x1 + 2, y1 + 2), op, None if key is None else (key, box))


def _regions(ops: list[tuple[Box, Op]], slack: int = 0) -> list[tuple[Box, list[int]]]:
    """The operations grouped into regions whose boxes do not overlap one another, each
    region with the indices of its own operations in drawing order. Two regions whose
    boxes do not overlap are joined all the same when their joint box holds at most
    ``slack`` pixels more than the two: mapping a few pixels more costs less than handling
    one more region."""
    regions: list[tuple[int, int, int, int, list[int]]] = []
    for index, ((x0, y0, x1, y1), _) in enumerate(ops):
        members = [index]
        at = 0
        while at < len(regions):
            rx0, ry0, rx1, ry1, theirs = regions[at]
            joined = (x0 < rx1 and rx0 < x1 and y0 < ry1 and ry0 < y1) or (
                slack
                and (max(x1, rx1) - min(x0, rx0)) * (max(y1, ry1) - min(y0, ry0))
                <= (x1 - x0) * (y1 - y0) + (rx1 - rx0) * (ry1 - ry0) + slack
            )
            if joined:
                # The larger box may now meet regions already passed over.
                x0, y0, x1, y1 = min(x0, rx0), min(y0, ry0), max(x1, rx1), max(y1, ry1)
                members += theirs
                regions[at] = regions[-1]
                regions.pop()
                at = 0
            else:
                at += 1
        regions.append((x0, y0, x1, y1, members))
    return [((x0, y0, x1, y1), sorted(m)) for x0, y0, x1, y1, m in regions]


def paint(
    canvas: Canvas,
    rgb: Image.Image,
    indexed: Image.Image,
    palette: Image.Image,
    cache_pair: tuple[LRU, LRU],
) -> Image.Image:
    """The picture on ``palette``, with a zero column in front of every row (as
    ``indexed``, the empty board on the palette; ``rgb`` is it in full colour), using and
    filling the region caches ``cache_pair`` (see :func:`kept`).

    The board's furniture (checkers, dice, cube: keyed operations) comes first: its regions
    are drawn alone and kept, in colour and on the palette. Then the regions of everything
    else (arrows, rings, text, panels) are drawn on the empty board with the furniture's
    colour regions pasted in. That is the old order of drawing whenever nothing drawn
    before a piece of furniture overlaps it (a count on a tall stack, say, lies inside its
    own stack); otherwise every region is drawn whole, in the order given."""
    kept_regions, kept_text = cache_pair
    ops, keys = canvas.ops, canvas.keys
    out = indexed.copy()
    furniture = [i for i, key in enumerate(keys) if key is not None and not _is_text(key)]
    rest = [i for i, key in enumerate(keys) if key is None or _is_text(key)]
    if not _furniture_first(ops, furniture, rest):
        for box, members in _regions(ops):
            out.paste(_region(rgb, palette, ops, members, box, []), (box[0] + 1, box[1]))
        return out
    layers: list[tuple[Box, Image.Image, Hashable]] = []
    for box, members in _regions([ops[i] for i in furniture]):
        chosen = [furniture[m] for m in members]
        cache_key = (box, tuple(keys[i] for i in chosen))
        drawn = kept_regions.get(cache_key)
        if drawn is None:
            colour = rgb.crop(box)
            for i in chosen:
                ops[i][1](colour, box[0], box[1])
            drawn = colour, colour.quantize(palette=palette, dither=Image.Dither.NONE)
            kept_regions.put(cache_key, drawn)
        layers.append((box, drawn[0], cache_key))
        out.paste(drawn[1], (box[0] + 1, box[1]))
    for box, chosen in _cover(ops, rest, REST_SLACK):
        texts = tuple(keys[i] for i in chosen)
        if None in texts:  # an arrow, a ring, the banner: drawn for this picture only
            out.paste(_region(rgb, palette, ops, chosen, box, layers), (box[0] + 1, box[1]))
            continue
        # Only text, on the furniture under it (a panel, a tray): a player's name is the
        # same in every picture of a game.
        under = tuple(key for lbox, _, key in layers if _meets(box, lbox))
        text_key = ("text", box, under, texts)
        drawn = kept_text.get(text_key)
        if drawn is None:
            drawn = _region(rgb, palette, ops, chosen, box, layers)
            kept_text.put(text_key, drawn)
        out.paste(drawn, (box[0] + 1, box[1]))
    return out


def _is_text(key: Hashable) -> bool:
    """Whether an operation's key (``(sprite_key, x, y)``, see :meth:`Canvas.paste`) is a
    text's: :func:`renderers.sprites.keyed_text` keys start with ``"text"``."""
    return isinstance(key, tuple) and isinstance(key[0], tuple) and key[0][0] == "text"


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _cover(
    ops: list[tuple[Box, Op]], indices: list[int], slack: int
) -> list[tuple[Box, list[int]]]:
    """Boxes covering the operations ``indices``, each with every one of them that meets
    it, in drawing order. Boxes may overlap: each is drawn whole with all that touches it,
    so a pixel in two boxes gets the same value twice. Unlike :func:`_regions` nothing is
    joined merely for overlapping, so an arrow crossing the board does not make one
    region of the whole board; two boxes are joined when the joint box holds at most
    ``slack`` pixels more than the two."""
    boxes: list[list[int]] = []
    for index in indices:
        x0, y0, x1, y1 = ops[index][0]
        for box in boxes:
            bx0, by0, bx1, by1 = box
            ux0, uy0, ux1, uy1 = min(x0, bx0), min(y0, by0), max(x1, bx1), max(y1, by1)
            if (ux1 - ux0) * (uy1 - uy0) <= (x1 - x0) * (y1 - y0) + (bx1 - bx0) * (
                by1 - by0
            ) + slack:
                box[:] = ux0, uy0, ux1, uy1
                break
        else:
            boxes.append([x0, y0, x1, y1])
    out = []
    for bx0, by0, bx1, by1 in boxes:
        meeting = []
        for index in indices:
            x0, y0, x1, y1 = ops[index][0]
            if x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y1:
                meeting.append(index)
        out.append(((bx0, by0, bx1, by1), meeting))
    return out


def _region(
    rgb: Image.Image,
    palette: Image.Image,
    ops: list[tuple[Box, Op]],
    members: list[int],
    box: Box,
    layers: list[tuple[Box, Image.Image, Hashable]],
) -> Image.Image:
    """``box`` of the empty board, with the furniture ``layers`` that meet it, then the
    operations ``members`` drawn on it, on the palette. Each pixel maps to the palette on
    its own, so mapping a region gives the indices mapping the whole picture would."""
    x0, y0, x1, y1 = box
    region = rgb.crop(box)
    for (lx0, ly0, lx1, ly1), layer, _ in layers:
        if lx0 < x1 and x0 < lx1 and ly0 < y1 and y0 < ly1:
            ix0, iy0, ix1, iy1 = max(x0, lx0), max(y0, ly0), min(x1, lx1), min(y1, ly1)
            piece = layer.crop((ix0 - lx0, iy0 - ly0, ix1 - lx0, iy1 - ly0))
            region.paste(piece, (ix0 - x0, iy0 - y0))
    for i in members:
        ops[i][1](region, x0, y0)
    return region.quantize(palette=palette, dither=Image.Dither.NONE)


def _furniture_first(ops: list[tuple[Box, Op]], furniture: list[int], rest: list[int]) -> bool:
    """Whether drawing the furniture before everything else changes no pixel: nothing else
    drawn before a piece of furniture overlaps it."""
    if not furniture:
        return True
    last = furniture[-1]
    for other in rest:
        if other > last:
            break
        ox0, oy0, ox1, oy1 = ops[other][0]
        for index in furniture:
            if index > other:
                fx0, fy0, fx1, fy1 = ops[index][0]
                if ox0 < fx1 and fx0 < ox1 and oy0 < fy1 and fy0 < oy1:
                    return False
    return True


class LRU:
    """A small thread-safe least-recently-used cache."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            item = self._items.get(key)
            if item is not None:
                self._items.move_to_end(key)
            return item

    def put(self, key: Hashable, item: Any) -> None:
        with self._lock:
            self._items[key] = item
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)


REST_SLACK = 6_000  # about what mapping those pixels costs as much as one more region
KEPT_REGIONS = 256  # per theme and width; about 80 KB each for a stack of five at 1000 px


@cache
def kept(theme: Theme, layout: Layout) -> tuple[LRU, LRU]:
    """Regions of the board's furniture (checkers on the points and the bar, borne-off
    checkers, dice, the cube), in colour and on the palette, keyed by their box and what is
    in them: a stack of checkers is drawn once and reused by every later picture that has
    it (a game's pictures change a few points at a time); the players' panels; and boxes
    of text over them (a player's name is in every picture of a game), kept apart so that
    text, which changes more often, does not push the checkers out."""
    return LRU(KEPT_REGIONS), LRU(KEPT_REGIONS)
