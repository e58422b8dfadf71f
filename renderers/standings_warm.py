"""Warming the competition pictures' caches at start-up, as :func:`renderers.warm_up` does
for the board.

The first standings table drawn by a fresh process paid for everything at once: the fonts
and the fallback fonts (CJK, emoji) opened and their coverage read, the palettes and their
shades, the medals, the figures' character tiles and the characters' widths used to cut
long names. Drawing one sample table and one sample bracket per theme here, with the
characters a club's names and figures are made of, leaves only the new names themselves to
draw on the first real picture.

>>> warm_up(themes=("classic",))
"""

from __future__ import annotations

import string
from collections.abc import Iterable

from renderers.standings import NUMERIC as _NUMERIC
from renderers.standings import (
    BracketMatch,
    BracketPicture,
    BracketSide,
    TablePicture,
    TableRow,
    render_bracket,
    render_table,
)
from renderers.theme import THEMES, Theme

__all__ = ["warm_up"]

# Names that use every ASCII letter and digit, some accents, CJK, an emoji, and one long
# enough to be cut: each script's font is opened and every character's width measured.
_NAMES = (
    string.ascii_lowercase,
    string.ascii_uppercase,
    string.digits + string.punctuation,
    "Ŵéàüñçøß Łódź Ærø",
    "山田 太郎 한국 ひらがな",
    "🎲 dice 🏆 ♟",
    "Wolfeschlegelsteinhausenbergerdorff-" * 4,  # cut short
)
_FIGURES = "".join(sorted(_NUMERIC))


def _table() -> TablePicture:
    rows = tuple(
        TableRow(
            rank=i + 1,
            name=_NAMES[i % len(_NAMES)],
            cells=(_FIGURES, f"{i}.5", f"{i}-{i + 1}", "W/O"),
            medal=i + 1 if i < 3 else None,
            muted=i == len(_NAMES),
        )
        for i in range(len(_NAMES) + 1)
    )
    return TablePicture("Warm-up", "round 1", "Player", ("Pts", "Buch", "W-L", "+/-"), rows)


def _bracket() -> BracketPicture:
    sides = [
        BracketSide(name, seed=i + 1, score=str(i), won=i % 2 == 0, muted=i == 3)
        for i, name in enumerate(_NAMES)
    ]
    first = tuple(
        BracketMatch(sides[i], sides[(i + 1) % len(sides)]) for i in range(0, len(sides), 2)
    )
    second = (BracketMatch(BracketSide(pending=True), BracketSide("", muted=True)),) * 2
    return BracketPicture(
        "Warm-up", "round 1", ("Round 1", "Round 2"), (first[:4], second),
        champion=_NAMES[0], champion_title="Champion", podium=((1, _NAMES[0]), (2, _NAMES[1])),
    )  # fmt: skip


def warm_up(*, themes: Iterable[Theme | str] = THEMES) -> None:
    """Draw a sample table and bracket in each theme: fonts, palettes, medals, figure tiles
    and character widths cached before the first real picture."""
    table, bracket = _table(), _bracket()
    for theme in themes:
        render_table(table, theme=theme)
        render_bracket(bracket, theme=theme)
