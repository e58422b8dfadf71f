"""Small reference pictures, compared with a tolerance (font hinting may shift a pixel).

To regenerate them after an intended change of the picture, run

    GAMMON_UPDATE_GOLDENS=1 .venv/bin/python -m pytest tests/renderers/test_golden.py

then look at every file in tests/renderers/golden/ before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import ImageChops, ImageStat

from renderers import render_board
from renderers.examples import EXAMPLES, NAMES
from tests.renderers.support import decode

GOLDEN = Path(__file__).with_name("golden")
WIDTH = 400
UPDATE = os.environ.get("GAMMON_UPDATE_GOLDENS") == "1"

CASES = {
    "opening-classic.png": ("opening", "classic", None),
    "hit-dark.png": ("hit", "dark", None),
    "double-classic.png": ("doubled", "classic", None),
    "game-over-dark.png": ("game-over", "dark", 0),
}


@pytest.mark.parametrize("filename", sorted(CASES))
def test_picture_matches_its_golden(filename):
    name, theme, perspective = CASES[filename]
    game, default = EXAMPLES[name]()
    side = default if perspective is None else perspective
    png = render_board(game, perspective=side, names=NAMES, theme=theme, width=WIDTH)
    path = GOLDEN / filename
    if UPDATE:
        path.write_bytes(png)
    assert path.exists(), f"no golden {path.name}: see this module's docstring"
    expected, actual = decode(path.read_bytes()), decode(png)
    assert actual.size == expected.size
    diff = ImageChops.difference(actual, expected)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    far = sum(1 for pixel in diff.convert("L").tobytes() if pixel > 64)
    assert mean < 1.5, f"{filename}: mean difference {mean:.2f}"
    assert far < 0.005 * actual.width * actual.height, f"{filename}: {far} pixels differ"
