"""Regenerate the board pictures in docs/ from the renderer's example states.

Run from the repository root: ``python docs/make_images.py [FOLDER]`` (default: this
script's folder, docs/). Look at every picture before committing it.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script: the packages live in the repository root

from renderers import render_board  # noqa: E402
from renderers.examples import EXAMPLES, NAMES  # noqa: E402

# file name -> (example, theme)
IMAGES = {
    "board-opening.png": ("opening", "classic"),
    "board-hit.png": ("hit", "classic"),
    "board-bearoff.png": ("bearoff", "classic"),
    "board-double.png": ("doubled", "classic"),
    "board-hit-dark.png": ("hit", "dark"),
    "board-game-over-dark.png": ("game-over", "dark"),
}


def write_images(folder: Path) -> list[Path]:
    """Draw every picture in :data:`IMAGES` into ``folder``; return the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for filename, (name, theme) in IMAGES.items():
        game, perspective = EXAMPLES[name]()
        path = folder / filename
        path.write_bytes(render_board(game, perspective=perspective, names=NAMES, theme=theme))
        written.append(path)
    return written


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
    for path in write_images(folder):
        print(path)
