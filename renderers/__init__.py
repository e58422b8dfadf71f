"""Pictures of the game: pure functions from engine state to PNG bytes.

>>> from bot.engine import Game
>>> from renderers import render_board
>>> render_board(Game.new(), perspective=0)[:4]
b'\x89PNG'
"""

from renderers.board import GAME_LAST_PLAY, compose, encode, render_board, warm_up
from renderers.theme import CLASSIC, DARK, THEMES, Layout, Theme

__all__ = [
    "CLASSIC",
    "DARK",
    "GAME_LAST_PLAY",
    "THEMES",
    "Layout",
    "Theme",
    "compose",
    "encode",
    "render_board",
    "warm_up",
]
