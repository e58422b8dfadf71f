"""Names: any Unicode draws, missing glyphs fall back or drop out, long names are cut."""

from __future__ import annotations

import pytest

from renderers.text import ELLIPSIS, clean, fit, font_index_for, is_rtl, runs, text_image

BLACK = (0, 0, 0)


@pytest.mark.parametrize(
    ("name", "fonts"),
    [
        ("alice", {0}),
        ("Zoë Ørsted", {0}),
        ("Дмитрий", {0}),
        ("שלום", {0}),
        ("مرحبا", {0}),
        ("山田太郎", {1}),
        ("김민준", {1}),
        ("🎲 dice", {0, 2}),
    ],
)
def test_each_script_finds_a_shipped_font(name, fonts):
    parts = runs(clean(name))
    assert {part.font_index for part in parts} == fonts
    assert "".join(part.text for part in parts) == name


@pytest.mark.parametrize(
    ("raw", "cleaned"),
    [
        ("a\nb\tc", "a b c"),
        ("  spaced   out  ", "spaced out"),
        ("ctrl\x00\x07x", "ctrlx"),
        ("👍🏽", "👍"),  # skin tone modifiers: no font here draws them
        ("❤️", "❤"),  # the emoji variation selector goes
        ("rtl\u202eoverride", "rtloverride"),
    ],
)
def test_clean_drops_what_no_font_should_draw(raw, cleaned):
    assert clean(raw) == cleaned


def test_characters_no_font_has_are_dropped_not_boxed():
    assert font_index_for("\U0010fffd") is None
    assert runs("a\U0010fffdb") == runs("ab")
    assert runs("กรุงเทพ") == ()  # Thai: no shipped font, and its marks go with their letters


def test_long_names_are_cut_with_an_ellipsis():
    parts = fit("A very long display name that will never fit " * 3, 30, 300, bold=True)
    text = "".join(part.text for part in parts)
    assert text.endswith(ELLIPSIS) and not text[:-1].endswith(" ")
    image = text_image("A very long display name " * 5, 30, BLACK, bold=True, max_width=300)
    assert image.width <= 300


def test_short_names_are_untouched():
    assert "".join(p.text for p in fit("bob", 30, 300)) == "bob"


def test_right_to_left_names_are_detected():
    assert is_rtl("שלום bob") and is_rtl("مرحبا") and not is_rtl("bob שלום")
    assert not is_rtl("123 🎲")


@pytest.mark.parametrize(
    "name",
    [
        "",
        " ",
        "\u200d",
        "🎲",
        "Z̴̡̛̺͙a̷̪̓l̵̙̈́g̸̣̾o̶̰͝",
        "\ud800",
        "x" * 10_000,
        "ｆｕｌｌ",
        "👨‍👩‍👧‍👦",
        "a\u0301\u0301\u0301",
    ],
)
def test_any_text_draws_without_error(name):
    image = text_image(name, 24, BLACK, bold=True, max_width=200)
    assert 1 <= image.width <= 200
