"""The fast path draws the same picture as the renderer before issue #17, pixel for pixel.

The old renderer (compose the whole picture in RGB, map all of it onto the palette, let
Pillow write the PNG) is kept frozen in benchmarks/_render_before.py for the benchmark;
here every example state and random states are drawn both ways and decoded.
"""

from __future__ import annotations

import importlib.util
import io
import random
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.engine import Game, Phase
from renderers import CLASSIC, THEMES, Layout, board, compose, encode, png, regions, render_board
from renderers.examples import EXAMPLES, NAMES
from renderers.panels import banner_lines
from renderers.text import text_width
from tests.renderers.test_random import random_states

BEFORE = Path(__file__).resolve().parents[2] / "benchmarks" / "_render_before.py"


def _load_before():
    name = "benchmarks_render_before"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BEFORE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


before = _load_before()


def indices(png: bytes) -> tuple[tuple[int, int], bytes, bytes]:
    """Size, palette indices and RGB pixels of a palette PNG."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.mode == "P"
    return image.size, image.tobytes(), image.convert("RGB").tobytes()


def assert_same(game: Game, perspective: int, names, theme: str, width: int) -> None:
    new = render_board(game, perspective=perspective, names=names, theme=theme, width=width)
    old = before.render_board(game, perspective=perspective, names=names, theme=theme, width=width)
    assert indices(new) == indices(old)


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("width", [1000, 400])
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_are_the_same_picture(name, width, theme):
    game, perspective = EXAMPLES[name]()
    for side in (perspective, 1 - perspective):
        assert_same(game, side, NAMES, theme, width)


def test_random_states_are_the_same_picture():
    rng = random.Random(17)
    compared = 0
    for index, (game, names) in enumerate(random_states(rng, 50)):
        theme = sorted(THEMES)[index % 2]
        width = (1000, 640, 333)[index % 3]
        if _banner_shortens_names(game, names, width):
            continue  # on purpose since #15: the old renderer cut the banner's words instead
        assert_same(game, index // 2 % 2, names, theme, width)
        compared += 1
    assert compared >= 40


def _banner_shortens_names(game: Game, names, width: int) -> bool:
    """Whether the game-over banner must shorten the names to keep its words whole."""
    if game.phase is not Phase.OVER or game.result is None:
        return False
    layout = Layout.for_width(width)
    room = layout.field_right - layout.field_left - layout.px(88)
    head, sub = banner_lines(game, board._names(names))
    return (
        text_width(head, layout.px(38), bold=True) > room or text_width(sub, layout.px(22)) > room
    )


def test_compose_and_encode_are_the_old_ones():
    game, perspective = EXAMPLES["hit"]()
    image = compose(game, perspective=perspective, names=NAMES)
    old = before.compose(game, perspective=perspective, names=NAMES)
    assert image.tobytes() == old.tobytes()
    assert indices(encode(image)) == indices(before.encode(old))


def test_regions_from_the_cache_are_the_same_picture():
    regions.kept.cache_clear()
    states = [make()[0] for make in EXAMPLES.values()]
    first = [render_board(game, perspective=0, names=NAMES, width=500) for game in states]
    assert len(regions.kept(CLASSIC, Layout.for_width(500))[0]._items) > 0
    again = [render_board(game, perspective=0, names=NAMES, width=500) for game in states]
    assert [indices(png) for png in again] == [indices(png) for png in first]
    old = [before.render_board(g, perspective=0, names=NAMES, width=500) for g in states]
    assert [indices(png) for png in again] == [indices(png) for png in old]


def test_either_deflate_gives_the_same_picture(monkeypatch):
    game, perspective = EXAMPLES["hit"]()
    first = render_board(game, perspective=perspective, names=NAMES)
    monkeypatch.setattr(png, "fast_zlib", None)  # stdlib zlib, as without isal
    second = render_board(game, perspective=perspective, names=NAMES)
    assert indices(first) == indices(second)
    assert len(second) < 80 * 1024
