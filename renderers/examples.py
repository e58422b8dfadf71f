"""Named example states: the pictures in docs/, the benchmark's positions, the palette's samples.

Every state is reached by playing legal moves (or, for a bear-off race, from a set position),
so the pictures show what a real game shows. Imports only the engine: the renderer learns
its palettes from these states, and docs/make_images.py draws the docs images from them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from bot.engine import Game, MatchOptions, Phase, Position

NAMES = ("alice", "bob")


def opening() -> tuple[Game, int]:
    """The opening roll: alice won it with 3-1 and is to move."""
    return Game.new(MatchOptions(length=5)).opening_roll(3, 1), 0


def early() -> tuple[Game, int]:
    """A few moves in; bob ran a back checker, alice has rolled 6-2."""
    game = (
        Game.new(MatchOptions(length=5))
        .opening_roll(3, 1)
        .move("8/5 6/5")
        .roll((6, 4))
        .move("24/14")
        .roll((6, 2))
    )
    return game, 0


def hit() -> tuple[Game, int]:
    """A middle game: alice has just hit with 6-6; bob has a checker on the bar, to roll."""
    game = (
        Game.new(MatchOptions(length=7))
        .opening_roll(6, 2)
        .move("24/18 13/11")
        .roll((4, 2))
        .move("8/4 6/4")
        .roll((5, 3))
        .move("13/8 11/8")
        .roll((6, 5))
        .move("24/13")
        .roll((4, 1))
        .move("13/9 6/5")
        .roll((5, 4))
        .move("13/8 13/9")
        .roll((6, 3))
        .move("24/18 18/15")
        .roll((6, 4))
        .move("9/3 8/4")
        .roll((6, 6))
        .move("13/7(2) 7/1*(2)")
    )
    return dataclasses.replace(game, score=(2, 3)), 1


def bearoff() -> tuple[Game, int]:
    """Both bearing off in a money game: bob bore off two more (4 off), alice (5 off) rolled."""
    race = Position.from_board(
        [0, 3, 2, 3, 2, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1, -2, -2, -2, -2, -1, 0]
    )
    start = dataclasses.replace(
        Game.new(MatchOptions(length=0)),
        position=race,
        on_roll=1,
        phase=Phase.MOVE,
        dice=(6, 4),
        cube=2,
        cube_owner=1,
    )
    return start.move("6/off 4/off").roll((5, 3)), 0


def doubled() -> tuple[Game, int]:
    """Bob doubles to 4 at 3-4 in a 7-point match (he owned the cube at 2); alice decides."""
    game = (
        Game.new(MatchOptions(length=7))
        .opening_roll(4, 5)
        .move("13/8 13/9")
        .roll((3, 1))
        .move("8/5 6/5")
        .roll((6, 4))
        .move("24/14")
        .roll((5, 2))
        .move("13/8 13/11")
    )
    game = dataclasses.replace(game, score=(3, 4), cube=2, cube_owner=1).double()
    return game, 0


def crawford() -> tuple[Game, int]:
    """The Crawford game of a 3-point match (no cube), with tall stacks."""
    game = dataclasses.replace(
        Game.new(MatchOptions(length=3)),
        position=Position.from_board(
            [0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, -8, 0, 0, 0, 0, -7, 0, 0, 0, 0, 0, 0, 6, 0]
        ),
        phase=Phase.ROLL,
        score=(2, 1),
        crawford=True,
    )
    return game, 0


def game_over() -> tuple[Game, int]:
    """Alice bears off her last checkers and wins a gammon, and the match."""
    race = Position.from_board(
        [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -2, -3, -3, -3, -2, -2, 0, 0]
    )
    start = dataclasses.replace(
        Game.new(MatchOptions(length=5)),
        position=race,
        phase=Phase.MOVE,
        dice=(5, 1),
        score=(3, 2),
    )
    return start.move("1/off(2)"), 1


EXAMPLES: dict[str, Callable[[], tuple[Game, int]]] = {
    "opening": opening,
    "early": early,
    "hit": hit,
    "bearoff": bearoff,
    "doubled": doubled,
    "crawford": crawford,
    "game-over": game_over,
}
