"""The competition pictures' start-up warm-up, and the cut of long names that keeps the
first table after a start fast (issue 28: the standings picture under 50 ms)."""

from __future__ import annotations

from renderers import standings
from renderers.standings_warm import warm_up
from renderers.text import text_image, text_width


def test_a_name_cut_by_its_characters_widths_fits_at_once() -> None:
    """The cut is estimated from each character's width: a space counted as nothing made
    names with spaces look shorter than drawn, so their cut did not fit and every such
    name was cut again by the slow exact search."""
    assert standings._char_width(" ", 28, False) > 5
    for width in (200, 260, 300, 330):
        for name in ("player 1 山田 of the club", "a b c d e f g h i j k l m n o p q"):
            cut = standings._precut(name, 28, False, width)
            assert text_width(cut, 28) <= width, (name, width, cut)


def test_the_warm_up_fills_the_caches_the_first_table_needs() -> None:
    """After the warm-up, the figures' character tiles, the medals and the characters'
    widths are cached: the first real table draws only its new names."""
    standings._text_tile.cache_clear()  # as in a fresh process
    text_image.cache_clear()
    standings._glyph.cache_clear()
    standings._char_width.cache_clear()
    standings._medal.cache_clear()
    warm_up(themes=("classic", "dark"))
    assert standings._glyph.cache_info().currsize >= 2 * len(standings.NUMERIC)
    assert standings._medal.cache_info().currsize >= 6  # gold, silver, bronze per theme
    assert standings._char_width.cache_info().currsize >= 26 * 2 + 10
    hits = standings._char_width.cache_info().hits
    standings._precut("Zoë and the 山田 family", 28, False, 300)
    assert standings._char_width.cache_info().hits > hits
