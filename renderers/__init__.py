"""Pictures of the game: pure functions from engine state to PNG bytes.

The package owns every picture the bot posts: the board (:mod:`renderers.board`, the scene,
with :mod:`renderers.sprites`, :mod:`renderers.panels`, :mod:`renderers.regions` and
:mod:`renderers.png`), the charts (:mod:`renderers.charts`), colours, geometry and fonts
(:mod:`renderers.theme`) and text in any script (:mod:`renderers.text`). It may import
Pillow and :mod:`bot.engine` only: never discord, the database or the session. State in,
PNG out.

>>> from bot.engine import Game
>>> from renderers import render_board
>>> render_board(Game.new(), perspective=0)[:4]
b'\\x89PNG'
>>> render_board(Game.new(), perspective=0, home="left")[:4]
b'\\x89PNG'
"""

from renderers.board import GAME_LAST_PLAY, compose, encode, render_board, warm_up
from renderers.panels import BoardWords
from renderers.theme import CLASSIC, DARK, THEMES, Layout, Theme

__all__ = [
    "CLASSIC",
    "DARK",
    "GAME_LAST_PLAY",
    "THEMES",
    "BoardWords",
    "Layout",
    "Theme",
    "compose",
    "encode",
    "render_board",
    "warm_up",
]
