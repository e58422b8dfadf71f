"""The picture shows what the game says: pixels probed where the layout puts things."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Literal

import pytest
from PIL import Image

from bot.engine import Game, MatchOptions, Phase, Position
from renderers import CLASSIC, DARK, GAME_LAST_PLAY, Layout, Theme, render_board, warm_up
from renderers.examples import EXAMPLES
from renderers.theme import RGB, Side
from tests.renderers.support import colour_at, count_near, decode, distance, is_colour

LAYOUT = Layout.for_width(1000)
THEMES = [CLASSIC, DARK]


@cache
def picture(
    name: str, perspective: int | None = None, theme: Theme = CLASSIC, marks: bool = True
) -> Image.Image:
    game, default = EXAMPLES[name]()
    side = default if perspective is None else perspective
    last_play = GAME_LAST_PLAY if marks else None
    return decode(render_board(game, perspective=side, theme=theme, last_play=last_play))


def checker_colour(theme: Theme, player: int):
    return theme.checkers[player]


# --- checkers ------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", THEMES, ids=lambda t: t.name)
@pytest.mark.parametrize("name", ["opening", "hit", "bearoff", "crawford"])
@pytest.mark.parametrize("perspective", [0, 1])
def test_every_checker_is_where_the_position_says(name, perspective, theme):
    game, _ = EXAMPLES[name]()
    image = picture(name, perspective, theme, marks=False)
    board = game.position_for(perspective).board
    me, them = theme.checkers[perspective], theme.checkers[1 - perspective]
    for point in range(1, 25):
        n = board[point]
        colour = me if n > 0 else them
        for slot in range(min(abs(n), LAYOUT.stack) - (1 if abs(n) > LAYOUT.stack else 0)):
            centre = LAYOUT.checker_centre(point, slot)
            assert is_colour(image, centre, colour), (point, slot, colour_at(image, centre))
        if abs(n) < LAYOUT.stack:  # the next slot is empty: neither checker colour there
            centre = LAYOUT.checker_centre(point, abs(n))
            seen = colour_at(image, centre)
            assert distance(seen, me) > 40 and distance(seen, them) > 40, (point, seen)
    for side, n, colour in (("near", board[25], me), ("far", board[0], them)):
        for slot in range(min(n, LAYOUT.bar_stack)):
            assert is_colour(image, LAYOUT.bar_centre(side, slot), colour)


def test_perspective_flips_the_board():
    """Player 0's 24-point is player 1's 1-point: the same checker, drawn in two places."""
    game, _ = EXAMPLES["early"]()
    near = decode(render_board(game, perspective=0, last_play=None))
    far = decode(render_board(game, perspective=1, last_play=None))
    for point in range(1, 25):
        if game.position_for(0).board[point] == 0:
            continue
        a = colour_at(near, LAYOUT.checker_centre(point, 0))
        b = colour_at(far, LAYOUT.checker_centre(25 - point, 0))
        assert distance(a, b) < 10, point
    # Each player sees their own home board at the bottom right.
    assert is_colour(near, LAYOUT.checker_centre(6, 0), CLASSIC.checkers[0])
    assert is_colour(far, LAYOUT.checker_centre(6, 0), CLASSIC.checkers[1])


@pytest.mark.parametrize("theme", THEMES, ids=lambda t: t.name)
def test_tall_stacks_show_their_count(theme):
    game, perspective = EXAMPLES["crawford"]()  # 9 on the 6-point, 8 on bob's 13, 7, 6
    image = picture("crawford", perspective, theme)
    board = game.position_for(perspective).board
    r = LAYOUT.radius // 2
    for point in range(1, 25):
        n = abs(board[point])
        if not n:
            continue
        player = perspective if board[point] > 0 else 1 - perspective
        x, y = LAYOUT.checker_centre(point, min(n, LAYOUT.stack) - 1)
        ink = count_near(image, (x - r, y - r, x + r, y + r), theme.checker_text[player], 40)
        if n > LAYOUT.stack:
            assert ink > 20, (point, n, ink)
        else:
            assert ink == 0, (point, n, ink)


def test_borne_off_checkers_fill_the_trays():
    game, perspective = EXAMPLES["bearoff"]()
    image = picture("bearoff", perspective)
    mine, theirs = game.position_for(perspective).borne_off()
    assert (mine, theirs) == (5, 4)
    for side, count, player in (("near", mine, perspective), ("far", theirs, 1 - perspective)):
        for index in range(15):
            x0, y0, x1, y1 = LAYOUT.slab_rect(side, index)
            centre = ((x0 + x1) // 2, y0 + (y1 - y0) * 2 // 5)
            seen = colour_at(image, centre, spread=1)
            if index < count:
                assert distance(seen, CLASSIC.checkers[player]) < 20, (side, index, seen)
            else:
                assert distance(seen, CLASSIC.tray) < 20, (side, index, seen)


# --- cube and dice -----------------------------------------------------------------------


def cube_face(where: Literal["near", "far", "middle"]) -> tuple[int, int]:
    x, y = LAYOUT.cube_centre(where)
    return x, y - round(LAYOUT.cube_size * 0.38)


@pytest.mark.parametrize(
    ("owner", "perspective", "where"),
    [(None, 0, "middle"), (0, 0, "near"), (1, 0, "far"), (0, 1, "far"), (1, 1, "near")],
)
def test_the_cube_sits_in_the_middle_or_on_its_owners_side(owner, perspective, where):
    base, _ = EXAMPLES["early"]()
    game = dataclasses.replace(base, cube=1 if owner is None else 2, cube_owner=owner)
    image = decode(render_board(game, perspective=perspective))
    for spot in ("near", "far", "middle"):
        assert is_colour(image, cube_face(spot), CLASSIC.cube) == (spot == where), spot


def test_an_offered_double_glows_at_the_takers_end():
    game, perspective = EXAMPLES["doubled"]()  # bob doubles, alice (perspective) decides
    assert game.phase is Phase.DOUBLED and game.on_roll != perspective
    image = picture("doubled", perspective)
    assert is_colour(image, cube_face("near"), CLASSIC.cube)
    assert not is_colour(image, cube_face("far"), CLASSIC.cube)
    x, y = LAYOUT.cube_centre("near")
    half = LAYOUT.cube_size
    assert count_near(image, (x - half, y - half, x + half, y + half), CLASSIC.accent) > 100
    plain = dataclasses.replace(game, phase=Phase.ROLL)
    calm = decode(render_board(plain, perspective=perspective))
    assert count_near(calm, (x - half, y - half, x + half, y + half), CLASSIC.accent) == 0


def test_no_cube_in_the_crawford_game():
    image = picture("crawford")
    for spot in ("near", "far", "middle"):
        assert not is_colour(image, cube_face(spot), CLASSIC.cube)


def die_face(centre: tuple[int, int]) -> tuple[int, int]:
    # The middle of the top row of a face is never a pip, whatever the number.
    return centre[0], centre[1] - LAYOUT.die_size // 4


@pytest.mark.parametrize("perspective", [0, 1])
def test_dice_show_after_the_roll_and_not_before(perspective):
    game, _ = EXAMPLES["early"]()  # alice (player 0) has rolled 6-2
    side = "near" if perspective == 0 else "far"
    other = "far" if side == "near" else "near"
    image = decode(render_board(game, perspective=perspective))
    for centre in LAYOUT.dice_centres(side):
        assert is_colour(image, die_face(centre), CLASSIC.checkers[0])
    for centre in LAYOUT.dice_centres(other):
        assert is_colour(image, die_face(centre), CLASSIC.field)
    before = decode(
        render_board(
            dataclasses.replace(game, phase=Phase.ROLL, dice=None), perspective=perspective
        )
    )
    for centre in (*LAYOUT.dice_centres("near"), *LAYOUT.dice_centres("far")):
        assert is_colour(before, die_face(centre), CLASSIC.field)


def test_the_opening_roll_shows_one_die_of_each_colour():
    _, perspective = EXAMPLES["opening"]()
    image = picture("opening", perspective)
    first, second = LAYOUT.dice_centres("near")
    assert is_colour(image, die_face(first), CLASSIC.checkers[0])
    assert is_colour(image, die_face(second), CLASSIC.checkers[1])
    waiting = decode(render_board(Game.new(MatchOptions(length=5)), perspective=0))
    for centre in (*LAYOUT.dice_centres("near"), *LAYOUT.dice_centres("far")):
        assert is_colour(waiting, die_face(centre), CLASSIC.field)


# --- the last play -----------------------------------------------------------------------


def around(point: int, slot: int) -> tuple[int, int, int, int]:
    x, y = LAYOUT.checker_centre(point, slot)
    r = LAYOUT.radius + LAYOUT.px(8)
    return x - r, y - r, x + r, y + r


@pytest.mark.parametrize("perspective", [0, 1])
def test_the_last_play_is_marked_from_either_side(perspective):
    """alice (player 0) played 13/1*(2): seen by her on her 13 and 1 points, by bob on his
    12 and 24 points."""
    game, _ = EXAMPLES["hit"]()
    assert str(game.last_play) == "13/1*(2)" and game.last_player == 0
    source, target = (13, 1) if perspective == 0 else (12, 24)
    marked = picture("hit", perspective)
    plain = picture("hit", perspective, marks=False)
    for slot in (0, 1):  # the two checkers that arrived, ringed
        assert count_near(marked, around(target, slot), CLASSIC.accent) > 60
        assert count_near(plain, around(target, slot), CLASSIC.accent) == 0
    # Where they left from: two ghosts beyond the checkers still on the point.
    left = abs(game.position_for(perspective).board[source])
    for slot in (left, left + 1):
        assert count_near(marked, around(source, slot), CLASSIC.accent) > 30
    assert count_near(marked, around(target, 0), CLASSIC.hit) > 40
    assert count_near(plain, around(target, 0), CLASSIC.hit) == 0


def test_last_play_can_be_hidden_or_given():
    game, perspective = EXAMPLES["hit"]()
    shown = render_board(game, perspective=perspective)
    assert render_board(game, perspective=perspective, last_play=game.last_play) == shown
    hidden = render_board(game, perspective=perspective, last_play=None)
    assert render_board(game, perspective=perspective, last_play=False) == hidden
    assert hidden != shown


def test_a_bear_off_arrow_ends_in_the_tray():
    _, perspective = EXAMPLES["bearoff"]()  # bob bore off 6/off 4/off
    image = picture("bearoff", perspective)
    x0, y0, x1, y1 = LAYOUT.tray_rect("far")
    assert count_near(image, (x0 - 20, y0, x1, y1), CLASSIC.accent) > 100


# --- around the board --------------------------------------------------------------------


def panel_fill(image: Image.Image, side: Side) -> RGB:
    x0, y0, x1, _ = LAYOUT.panel_rect(side)
    return colour_at(image, ((x0 + x1) // 2, y0 + LAYOUT.px(14)), spread=1)


@pytest.mark.parametrize("theme", THEMES, ids=lambda t: t.name)
@pytest.mark.parametrize("perspective", [0, 1])
def test_the_player_to_act_is_highlighted(perspective, theme):
    game, _ = EXAMPLES["early"]()  # alice (0) to move
    image = decode(render_board(game, perspective=perspective, theme=theme))
    active = "near" if perspective == 0 else "far"
    idle = "far" if active == "near" else "near"
    assert distance(panel_fill(image, active), theme.panel_active) < 12
    assert distance(panel_fill(image, idle), theme.panel) < 12


def test_game_over_shows_a_banner():
    image = picture("game-over", None, DARK)
    x = LAYOUT.field_left + LAYOUT.px(60)
    assert distance(colour_at(image, (x, LAYOUT.mid_y)), DARK.banner) < 30
    game, perspective = EXAMPLES["game-over"]()
    running = dataclasses.replace(game, phase=Phase.MOVE, result=None, dice=(2, 1))
    calm = decode(render_board(running, perspective=perspective, theme=DARK))
    assert distance(colour_at(calm, (x, LAYOUT.mid_y)), DARK.banner) > 30


@pytest.mark.parametrize("theme", THEMES, ids=lambda t: t.name)
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_pictures_are_small_palette_pngs(name, theme):
    game, perspective = EXAMPLES[name]()
    png = render_board(game, perspective=perspective, theme=theme)
    assert len(png) < 100_000
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(png)) as image:
        assert image.mode == "P" and image.size == (LAYOUT.width, LAYOUT.height)


def test_rendering_is_pure():
    game, perspective = EXAMPLES["hit"]()
    before = dataclasses.replace(game)
    first = render_board(game, perspective=perspective, names=("a", "b"))
    assert render_board(game, perspective=perspective, names=("a", "b")) == first
    assert game == before


@pytest.mark.parametrize("width", [300, 640, 1600])
def test_other_widths_scale_the_layout(width):
    game = dataclasses.replace(Game.new(), position=Position.start(), phase=Phase.ROLL)
    image = decode(render_board(game, perspective=0, width=width))
    layout = Layout.for_width(width)
    assert image.size == (layout.width, layout.height)
    assert is_colour(image, layout.checker_centre(6, 0), CLASSIC.checkers[0], tolerance=30)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"perspective": 2}, "perspective"),
        ({"perspective": 0, "theme": "neon"}, "theme"),
        ({"perspective": 0, "width": 50}, "width"),
    ],
)
def test_bad_options_are_refused_clearly(kwargs, message):
    with pytest.raises(ValueError, match=message):
        render_board(Game.new(), **kwargs)


def test_warm_up_builds_the_caches_without_a_game():
    warm_up(themes=["classic", DARK], width=400)
