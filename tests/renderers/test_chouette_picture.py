"""The chouette's picture: the board with the table under it, one palette PNG in the
board's own colours (written as the board's are: small, and quick to compress), every seat's
row drawn."""

from __future__ import annotations

import io

from PIL import Image

from bot.engine import Game, MatchOptions
from renderers.board import render_board
from renderers.chouette import ChouettePanel, SeatLine, Tone, panel_image, render_chouette

PANEL = ChouettePanel(
    "Game 1",
    (
        SeatLine("Box", "alice", "", ""),
        SeatLine("Captain", "bob", "2", "owns", Tone.TO_ACT),
        SeatLine("Member", "carol", "1", "doubles to 2", offered=True),
        SeatLine("Member", "dave", "1", "out: −1", Tone.OUT),
    ),
    "Jacoby",
)


def test_the_board_and_the_table_are_one_palette_png_in_the_board_s_colours() -> None:
    game = Game.new(MatchOptions(cube=False)).opening_roll(3, 1)
    png = render_chouette(game, PANEL, names=("alice", "bob"))
    picture = Image.open(io.BytesIO(png))
    board = Image.open(io.BytesIO(render_board(game, perspective=1, names=("alice", "bob"))))
    table = panel_image(PANEL, width=board.width)
    assert picture.mode == "P" and picture.getpalette() == board.getpalette()
    assert picture.size == (board.width, board.height + table.height)
    assert len(png) < 120 * 1024
    # The board's part is the board's own picture, pixel for pixel.
    top = picture.crop((0, 0, board.width, board.height))
    assert top.tobytes() == board.convert("P").tobytes()
    # The table keeps its colours: the row waiting on its seat stays lit, apart from the next.
    rgb = picture.convert("RGB")
    row = board.height + 52 + 58 + 29  # the captain's row (title 52, rows of 58)
    assert rgb.getpixel((150, row)) != rgb.getpixel((150, row + 58))
