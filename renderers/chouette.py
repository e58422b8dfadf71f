"""A chouette's picture: the board, and under it the table at a glance (who is the box, the
captain, the line, and every member's cube against the box), readable on a phone.

Pure: a :class:`~bot.engine.Game` and a :class:`ChouettePanel` of finished words in, PNG
bytes out. The words and what they mean (which role, which cube, who must act) are decided
by the caller (:mod:`bot.present.chouette`); this module only draws them, one row per seat,
the cube of each member as the board draws its cube, the seats waiting on a decision marked
with the theme's accent. The board is the game's own picture (:mod:`renderers.board`).

>>> from bot.engine import Game
>>> panel = ChouettePanel("Game 1", (SeatLine("Box", "alice", "", ""),))
>>> render_chouette(Game.new().opening_roll(3, 1), panel, names=("alice", "bob"))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from enum import StrEnum

from PIL import Image, ImageDraw

import renderers.sprites as sprites
from bot.engine import Game
from renderers.board import render_board
from renderers.panels import ENGLISH, BoardWords
from renderers.png import write_png
from renderers.text import text_image
from renderers.theme import CLASSIC, DEFAULT_WIDTH, THEMES, Theme

__all__ = ["ChouettePanel", "SeatLine", "Tone", "panel_image", "render_chouette", "render_table"]

ROW = 58  # a seat's row: text of 26 px reads on a phone at Discord's width
TITLE = 52
MARGIN = 24
CUBE = 40


class Tone(StrEnum):
    """How a seat's row is drawn."""

    PLAIN = "plain"
    TO_ACT = "to-act"  # the table waits on this seat: the accent bar
    OUT = "out"  # out of this game (cube settled) or waiting for the next: muted


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat: its role, the player's name, the cube's value (empty: no cube, the box),
    a note (who owns the cube, an offer, a settled result), and its tone; ``offered``: the
    cube is offered now (drawn glowing, as the board draws an offered cube)."""

    role: str
    name: str
    cube: str
    note: str
    tone: Tone = Tone.PLAIN
    offered: bool = False


@dataclass(frozen=True, slots=True)
class ChouettePanel:
    title: str
    lines: tuple[SeatLine, ...]
    footer: str = ""


def _theme(theme: Theme | str) -> Theme:
    return theme if isinstance(theme, Theme) else THEMES.get(theme, CLASSIC)


def panel_image(
    panel: ChouettePanel, *, theme: Theme | str = CLASSIC, width: int = DEFAULT_WIDTH
) -> Image.Image:
    """The table at a glance as an RGB image ``width`` wide."""
    th = _theme(theme)
    height = TITLE + ROW * len(panel.lines) + (ROW if panel.footer else 0) + MARGIN // 2
    image = Image.new("RGB", (width, height), th.background)
    draw = ImageDraw.Draw(image)
    _paste(
        image,
        text_image(panel.title, 28, th.text, bold=True, max_width=width - 2 * MARGIN),
        MARGIN,
        12,
    )
    role_w, cube_x = 190, width - MARGIN - CUBE
    for index, line in enumerate(panel.lines):
        top = TITLE + index * ROW
        fill = th.panel_active if line.tone is Tone.TO_ACT else th.panel
        draw.rounded_rectangle(
            (MARGIN // 2, top + 3, width - MARGIN // 2, top + ROW - 3), 10, fill=fill
        )
        if line.tone is Tone.TO_ACT:
            draw.rounded_rectangle(
                (MARGIN // 2, top + 3, MARGIN // 2 + 8, top + ROW - 3), 4, fill=th.accent
            )
        colour = th.muted if line.tone is Tone.OUT else th.text
        baseline = top + (ROW - 32) // 2
        _paste(
            image,
            text_image(line.role, 24, th.muted, max_width=role_w - 10),
            MARGIN + 6,
            baseline + 2,
        )
        note_w = 260
        name_w = cube_x - (MARGIN + role_w) - note_w - 16
        _paste(
            image,
            text_image(line.name, 26, colour, bold=True, max_width=name_w),
            MARGIN + role_w,
            baseline,
        )
        _paste(
            image,
            text_image(
                line.note,
                22,
                th.muted if line.tone is not Tone.TO_ACT else th.text,
                max_width=note_w,
            ),
            cube_x - note_w - 8,
            baseline + 4,
        )
        if line.cube:
            value = int(line.cube) if line.cube.isdigit() else 1
            cube = sprites.cube(th, CUBE, value, offered=line.offered)
            _paste(image, cube, cube_x, top + (ROW - cube.height) // 2)
    if panel.footer:
        top = TITLE + ROW * len(panel.lines)
        footer = text_image(panel.footer, 22, th.muted, max_width=width - 2 * MARGIN)
        _paste(image, footer, MARGIN, top + 14)
    return image


def _paste(image: Image.Image, part: Image.Image, x: int, y: int) -> None:
    if part.mode == "RGBA":
        image.paste(part, (x, y), part)
    else:
        image.paste(part, (x, y))


def render_chouette(
    game: Game,
    panel: ChouettePanel,
    *,
    names: tuple[str, str],
    perspective: int = 1,
    theme: Theme | str = CLASSIC,
    home: str = "right",
    words: BoardWords = ENGLISH,
) -> bytes:
    """The board (the box is player 0, the team player 1, seen from ``perspective``) with
    the table under it, as one PNG."""
    board_png = render_board(
        game,
        perspective=perspective,
        names=names,
        theme=theme,
        home="left" if home == "left" else "right",
        words=words,
    )
    # The board comes on the theme's fixed palette; the table is drawn in the same colours
    # and mapped onto that palette, so the two stack into one palette PNG written as the
    # board's are (an RGB PNG of the two took 35 ms to compress, this a few).
    board = Image.open(io.BytesIO(board_png))
    board.load()
    table = panel_image(panel, theme=theme, width=board.width).quantize(
        palette=board, dither=Image.Dither.NONE
    )
    height = board.height + table.height
    rows = Image.new("P", (board.width + 1, height), 0)  # a zero filter byte before each row
    rows.paste(board, (1, 0))
    rows.paste(table, (1, board.height))
    palette = bytes((board.getpalette() or [])[: 256 * 3])
    return write_png(rows.tobytes(), board.width, height, palette)


def render_table(panel: ChouettePanel, *, theme: Theme | str = CLASSIC) -> bytes:
    """The table alone (an open table has no board yet), as a PNG."""
    image = panel_image(panel, theme=theme)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()
