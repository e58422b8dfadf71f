"""Themes stay readable: checker colours apart for colour-blind players, counts legible."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from renderers import THEMES, Layout, Theme
from renderers.theme import RGB

# Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
CVD = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def to_linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def simulate(colour: RGB, matrix: Sequence[Sequence[float]]) -> tuple[float, float, float]:
    """``colour`` as a viewer with that colour vision deficiency sees it (linear RGB)."""
    lin = [to_linear(c) for c in colour]
    r, g, b = (
        min(max(sum(m * v for m, v in zip(row, lin, strict=True)), 0.0), 1.0) for row in matrix
    )
    return r, g, b


def lab(linear: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: RGB, b: RGB, matrix) -> float:
    """CIE76 colour difference of ``a`` and ``b`` as seen through ``matrix``."""
    la, lb = lab(simulate(a, matrix)), lab(simulate(b, matrix))
    return sum((x - y) ** 2 for x, y in zip(la, lb, strict=True)) ** 0.5


def luminance(colour: RGB) -> float:
    r, g, b = (to_linear(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_there_are_a_classic_and_a_dark_theme():
    assert {"classic", "dark"} <= set(THEMES)


@pytest.mark.parametrize("vision", sorted(CVD))
@pytest.mark.parametrize("theme", THEMES.values(), ids=lambda t: t.name)
def test_checker_colours_stay_far_apart_for_colour_blind_players(theme: Theme, vision: str):
    matrix = CVD[vision]
    assert delta_e(theme.checkers[0], theme.checkers[1], matrix) >= 40
    # The dice are checker-coloured too; and each checker stands out from the felt.
    for colour in theme.checkers:
        assert delta_e(colour, theme.field, matrix) >= 25


def test_the_simulation_is_a_real_filter():
    """Red and green that differ plainly in normal vision merge for a deuteranope."""
    red, green = (200, 80, 40), (110, 140, 40)
    assert delta_e(red, green, CVD["normal"]) > 40
    assert delta_e(red, green, CVD["deuteranopia"]) < 15


@pytest.mark.parametrize("theme", THEMES.values(), ids=lambda t: t.name)
def test_text_is_legible(theme: Theme):
    for player in (0, 1):
        assert contrast(theme.checkers[player], theme.checker_text[player]) >= 4.5
        assert contrast(theme.checkers[player], theme.die_pips[player]) >= 4.5
    assert contrast(theme.cube, theme.cube_text) >= 7
    assert contrast(theme.panel, theme.text) >= 7
    assert contrast(theme.panel_active, theme.text) >= 7
    assert contrast(theme.frame, theme.numbers) >= 4.5
    assert contrast(theme.banner, theme.banner_text) >= 7
    assert contrast(theme.background, theme.muted) >= 3


def test_the_layout_fits_a_phone():
    """At the default width, a phone (about 400 px wide) still shows 12 px checkers."""
    layout = Layout.for_width(1000)
    assert layout.radius * 2 * 400 / layout.width >= 24
    assert layout.width == 1000 and layout.height < layout.width
