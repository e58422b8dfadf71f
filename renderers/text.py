"""Text that never fails: any Unicode name, drawn with the shipped fonts, cut to fit.

Discord display names can hold anything: emoji, CJK, right-to-left scripts, combining marks,
control characters. Each character is drawn with the first shipped font that has a glyph for
it (DejaVu Sans, then the fallbacks in :data:`renderers.theme.FALLBACK_FONTS`); a character
none of them has is left out. Right-to-left text is ordered by Raqm when Pillow has it.
"""

from __future__ import annotations

import itertools
import struct
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from operator import itemgetter
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont
from PIL.ImageFont import Layout

from renderers.theme import (
    FALLBACK_FONTS,
    FONT_BOLD,
    FONT_REGULAR,
    LAYOUT_ENGINE,
    RGB,
    fallback_fonts,
    font,
)

ELLIPSIS = "…"
MAX_CHARS = 200  # a Discord display name is at most 32; anything longer is cut first

# Invisible characters that steer emoji or bidi rendering; none of our fonts draws them and
# they only confuse the per-character font choice.
_STRIP = {0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x20E3}
_STRIP_RANGES = ((0xFE00, 0xFE0F), (0x1F3FB, 0x1F3FF), (0xE0000, 0xE007F), (0xE0100, 0xE01EF))


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive characters drawn with the same font."""

    text: str
    font_index: int  # 0 = DejaVu Sans (regular or bold), then the fallbacks in order


def clean(text: str) -> str:
    """The drawable part of ``text``: NFC, no control or invisible characters, one line."""
    text = str(text)[:MAX_CHARS]
    if text.isascii() and text.isprintable():  # pips, IDs, labels: nothing to take out
        return " ".join(text.split())
    text = unicodedata.normalize("NFC", text)
    out = []
    for ch in text:
        code = ord(ch)
        category = unicodedata.category(ch)
        if ch in "\t\n\r\v\f\u2028\u2029":
            out.append(" ")
        elif (
            category in ("Cc", "Cf", "Cs", "Co", "Cn")
            or code in _STRIP
            or any(lo <= code <= hi for lo, hi in _STRIP_RANGES)
        ):
            continue
        else:
            out.append(ch)
    return " ".join("".join(out).split())


@cache
def _fonts(size: int, bold: bool) -> tuple[ImageFont.FreeTypeFont, ...]:
    return (font(size, bold=bold), *fallback_fonts(size))


def _paths(bold: bool) -> tuple[Path, ...]:
    return (FONT_BOLD if bold else FONT_REGULAR, *FALLBACK_FONTS)


@cache
def covered(path: Path) -> frozenset[int]:
    """The code points a TrueType font maps to a glyph, read from its ``cmap`` table.

    Pillow cannot tell whether a font has a glyph, so the table is read here: the Unicode
    subtable of format 12 (all planes) when there is one, else format 4 (the BMP).
    """
    data = path.read_bytes()
    (count,) = struct.unpack_from(">H", data, 4)
    tables = {}
    for index in range(count):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * index)
        tables[tag] = offset
    base = tables[b"cmap"]
    (subtables,) = struct.unpack_from(">H", data, base + 2)
    found: dict[int, int] = {}
    for index in range(subtables):
        platform, encoding, offset = struct.unpack_from(">HHI", data, base + 4 + 8 * index)
        if (platform, encoding) in ((3, 10), (0, 4), (3, 1), (0, 3)):
            (fmt,) = struct.unpack_from(">H", data, base + offset)
            found.setdefault(fmt, base + offset)
    if 12 in found:
        return _format_12(data, found[12])
    if 4 in found:
        return _format_4(data, found[4])
    return frozenset()


def _format_12(data: bytes, at: int) -> frozenset[int]:
    (groups,) = struct.unpack_from(">I", data, at + 12)
    codes: set[int] = set()
    for index in range(groups):
        start, end, glyph = struct.unpack_from(">III", data, at + 16 + 12 * index)
        codes.update(range(start + (1 if glyph == 0 else 0), end + 1))
    return frozenset(codes)


def _format_4(data: bytes, at: int) -> frozenset[int]:
    (seg_x2,) = struct.unpack_from(">H", data, at + 6)
    segs = seg_x2 // 2
    ends = struct.unpack_from(f">{segs}H", data, at + 14)
    starts = struct.unpack_from(f">{segs}H", data, at + 16 + seg_x2)
    deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 2 * seg_x2)
    range_at = at + 16 + 3 * seg_x2
    offsets = struct.unpack_from(f">{segs}H", data, range_at)
    codes: set[int] = set()
    for i in range(segs):
        for code in range(starts[i], ends[i] + 1):
            if code == 0xFFFF:
                continue
            if offsets[i] == 0:
                glyph = (code + deltas[i]) & 0xFFFF
            else:
                where = range_at + 2 * i + offsets[i] + 2 * (code - starts[i])
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                codes.add(code)
    return frozenset(codes)


def _has_glyph(font_index: int, bold: bool, ch: str) -> bool:
    return ord(ch) in covered(_paths(bold)[font_index])


def font_index_for(ch: str, *, bold: bool = False) -> int | None:
    """Which shipped font draws ``ch`` (0 = DejaVu Sans), or None when none has it."""
    if ch.isspace():
        return 0
    for index, path in enumerate(_paths(bold)):
        if ord(ch) in covered(path):
            return index
    return None


def runs(text: str, *, bold: bool = False) -> tuple[Run, ...]:
    """Split cleaned ``text`` into runs by font; characters no font has are dropped.

    >>> [(r.text, r.font_index) for r in runs("ab 山田 x")]
    [('ab ', 0), ('山田', 1), (' x', 0)]
    """
    if text.isascii() and text.isprintable() and _ascii_covered(bold):
        stripped = text.strip()
        return (Run(stripped, 0),) if stripped else ()
    out: list[Run] = []
    base_dropped = True
    for ch in text:
        if unicodedata.category(ch).startswith("M"):
            # A mark stays with its letter's font, or goes: without its letter it would
            # float over a neighbour, and in another font it would not attach.
            if base_dropped or not _has_glyph(out[-1].font_index, bold, ch):
                continue
            index: int | None = out[-1].font_index
        else:
            index = font_index_for(ch, bold=bold)
            base_dropped = index is None
        if index is None:
            continue
        if out and out[-1].font_index == index:
            out[-1] = Run(out[-1].text + ch, index)
        else:
            out.append(Run(ch, index))
    return _strip_runs(out)


@cache
def _ascii_covered(bold: bool) -> bool:
    """Whether DejaVu Sans has every printable ASCII character (it does): then such text is
    one run in it, found without looking at each character."""
    return all(_has_glyph(0, bold, chr(code)) for code in range(0x21, 0x7F))


def _strip_runs(parts: list[Run]) -> tuple[Run, ...]:
    """Drop spaces left at either end once undrawable characters are gone."""
    while parts and not parts[0].text.lstrip():
        parts.pop(0)
    while parts and not parts[-1].text.rstrip():
        parts.pop()
    if parts:
        parts[0] = Run(parts[0].text.lstrip(), parts[0].font_index)
        parts[-1] = Run(parts[-1].text.rstrip(), parts[-1].font_index)
    return tuple(parts)


def _lengths(parts: tuple[Run, ...], size: int, bold: bool) -> list[float]:
    fonts = _fonts(size, bold)
    return [fonts[r.font_index].getlength(r.text) for r in parts]


def _width(parts: tuple[Run, ...], size: int, bold: bool) -> float:
    return sum(_lengths(parts, size, bold))


def text_width(text: str, size: int, *, bold: bool = False) -> float:
    """How wide ``text`` is drawn whole (cleaned, with its fallback fonts), in pixels."""
    return _width(runs(clean(text), bold=bold), size, bold)


def fit(text: str, size: int, max_width: int, *, bold: bool = False) -> tuple[Run, ...]:
    """The runs of ``text`` cut at the end with an ellipsis so they fit in ``max_width``."""
    return _fit_measured(text, size, max_width, bold)[0]


def _fit_measured(
    text: str, size: int, max_width: int, bold: bool
) -> tuple[tuple[Run, ...], list[float]]:
    """:func:`fit`'s runs and the length of each: measuring (shaping, with Raqm) cost as
    much as drawing, and the picture's one new text per board, its IDs, was measured
    three times."""
    parts = runs(clean(text), bold=bold)
    lengths = _lengths(parts, size, bold)
    if sum(lengths) <= max_width:
        return parts, lengths
    chars = [(ch, r.font_index) for r in parts for ch in r.text]
    ellipsis_w = _fonts(size, bold)[0].getlength(ELLIPSIS)
    lo, hi = 0, len(chars)
    while lo < hi:  # the longest prefix that fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        if _width(_group(chars[:mid]), size, bold) + ellipsis_w <= max_width:
            lo = mid
        else:
            hi = mid - 1
    keep = chars[:lo]
    while keep and (unicodedata.category(keep[-1][0]).startswith("M") or keep[-1][0].isspace()):
        keep.pop()  # do not end on a space or on a mark cut from its letter
    cut = _group([*keep, (ELLIPSIS, 0)])
    return cut, _lengths(cut, size, bold)


def _group(chars: list[tuple[str, int]]) -> tuple[Run, ...]:
    """Consecutive characters of one font as one run: one Run made per run, not one per
    character (the cut's binary search groups a dozen prefixes of each long name)."""
    return tuple(
        Run("".join(ch for ch, _ in group), index)
        for index, group in itertools.groupby(chars, key=itemgetter(1))
    )


@lru_cache(maxsize=512)
def text_image(
    text: str, size: int, colour: RGB, *, bold: bool = False, max_width: int = 10_000
) -> Image.Image:
    """``text`` drawn in ``colour`` on a transparent image, cut to ``max_width``.

    The image is as tall as the primary font's line, with the baseline at the font's
    ascent, so images of one size line up whatever fallbacks they use.
    """
    parts, lengths = _fit_measured(text, size, max_width, bold)
    fonts = _fonts(size, bold)
    ascent, descent = fonts[0].getmetrics()
    total = sum(lengths)
    width = max(1, min(max_width, round(total) + 2))
    image = Image.new("RGBA", (width, ascent + descent), (*colour, 0))
    draw = ImageDraw.Draw(image)
    rtl = is_rtl("".join(part.text for part in parts))
    # Only Raqm knows a direction; the basic layout refuses one.
    direction = ("rtl" if rtl else "ltr") if LAYOUT_ENGINE == Layout.RAQM else None
    # Runs follow the name's base direction; Raqm orders the characters inside each run.
    x = total + 1 if rtl else 1.0
    for part, length in zip(parts, lengths, strict=True):
        face = fonts[part.font_index]
        if rtl:
            x -= length
        draw.text(
            (x, ascent), part.text, font=face, fill=(*colour, 255), anchor="ls", direction=direction
        )
        if not rtl:
            x += length
    return image


def is_rtl(text: str) -> bool:
    """Whether ``text``'s first strongly directional character is right-to-left."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False
