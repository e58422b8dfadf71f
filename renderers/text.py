"""Text that never fails: any Unicode name, drawn with the shipped fonts, cut to fit.

Discord display names can hold anything: emoji, CJK, right-to-left scripts, combining marks,
control characters. Each character is drawn with the first shipped font that has a glyph for
it (DejaVu Sans, then the fallbacks in :data:`renderers.theme.FALLBACK_FONTS`); a character
none of them has is left out. Right-to-left text is ordered by Raqm when Pillow has it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont
from PIL.ImageFont import Layout

from renderers.theme import LAYOUT_ENGINE, RGB, fallback_fonts, font

ELLIPSIS = "…"
MAX_CHARS = 200  # a Discord display name is at most 32; anything longer is cut first
_MISSING_PROBE = "\U0010fffd"  # a private-use code point no font here maps
_PROBE_SIZE = 24

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
    text = unicodedata.normalize("NFC", str(text)[:MAX_CHARS])
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


def _signature(face: ImageFont.FreeTypeFont, ch: str) -> tuple[object, ...]:
    mask = face.getmask(ch)
    return face.getlength(ch), mask.size, bytes(mask)


@lru_cache(maxsize=8192)
def _has_glyph(font_index: int, bold: bool, ch: str) -> bool:
    # Pillow has no cmap lookup: a character whose drawing and advance equal those of a
    # code point no font maps is drawn with the font's "missing glyph" box.
    face = _fonts(_PROBE_SIZE, bold)[font_index]
    return _signature(face, ch) != _missing_signature(font_index, bold)


@cache
def _missing_signature(font_index: int, bold: bool) -> tuple[object, ...]:
    return _signature(_fonts(_PROBE_SIZE, bold)[font_index], _MISSING_PROBE)


def font_index_for(ch: str, *, bold: bool = False) -> int | None:
    """Which shipped font draws ``ch`` (0 = DejaVu Sans), or None when none has it."""
    if ch.isspace():
        return 0
    count = len(_fonts(_PROBE_SIZE, bold))
    for index in range(count):
        if _has_glyph(index, bold, ch):
            return index
    return None


def runs(text: str, *, bold: bool = False) -> tuple[Run, ...]:
    """Split cleaned ``text`` into runs by font; characters no font has are dropped.

    >>> [(r.text, r.font_index) for r in runs("ab 山田 x")]
    [('ab ', 0), ('山田', 1), (' x', 0)]
    """
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


def _width(parts: tuple[Run, ...], size: int, bold: bool) -> float:
    fonts = _fonts(size, bold)
    return sum(fonts[r.font_index].getlength(r.text) for r in parts)


def fit(text: str, size: int, max_width: int, *, bold: bool = False) -> tuple[Run, ...]:
    """The runs of ``text`` cut at the end with an ellipsis so they fit in ``max_width``."""
    parts = runs(clean(text), bold=bold)
    if _width(parts, size, bold) <= max_width:
        return parts
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
    return _group([*keep, (ELLIPSIS, 0)])


def _group(chars: list[tuple[str, int]]) -> tuple[Run, ...]:
    out: list[Run] = []
    for ch, index in chars:
        if out and out[-1].font_index == index:
            out[-1] = Run(out[-1].text + ch, index)
        else:
            out.append(Run(ch, index))
    return tuple(out)


@lru_cache(maxsize=512)
def text_image(
    text: str, size: int, colour: RGB, *, bold: bool = False, max_width: int = 10_000
) -> Image.Image:
    """``text`` drawn in ``colour`` on a transparent image, cut to ``max_width``.

    The image is as tall as the primary font's line, with the baseline at the font's
    ascent, so images of one size line up whatever fallbacks they use.
    """
    parts = fit(text, size, max_width, bold=bold)
    fonts = _fonts(size, bold)
    ascent, descent = fonts[0].getmetrics()
    total = _width(parts, size, bold)
    width = max(1, min(max_width, round(total) + 2))
    image = Image.new("RGBA", (width, ascent + descent), (*colour, 0))
    draw = ImageDraw.Draw(image)
    rtl = is_rtl("".join(part.text for part in parts))
    options = {"direction": "rtl" if rtl else "ltr"} if LAYOUT_ENGINE == Layout.RAQM else {}
    # Runs follow the name's base direction; Raqm orders the characters inside each run.
    x = total + 1 if rtl else 1.0
    for part in parts:
        face = fonts[part.font_index]
        length = face.getlength(part.text)
        if rtl:
            x -= length
        draw.text((x, ascent), part.text, font=face, fill=(*colour, 255), anchor="ls", **options)
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
