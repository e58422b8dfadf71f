"""A player may have their home board drawn on the left: the board mirrored, the text not."""

from __future__ import annotations

import io
from functools import cache

import pytest
from PIL import Image, ImageChops

from renderers import (
    CLASSIC,
    DARK,
    GAME_LAST_PLAY,
    THEMES,
    Layout,
    Theme,
    compose,
    encode,
    render_board,
    warm_up,
)
from renderers.examples import EXAMPLES, NAMES
from renderers.theme import Home
from tests.renderers.support import colour_at, decode, distance, is_colour

RIGHT = Layout.for_width(1000)
LEFT = Layout.for_width(1000, home="left")


@cache
def picture(
    name: str, perspective: int, home: Home, theme: Theme = CLASSIC, marks: bool = True
) -> Image.Image:
    game, _ = EXAMPLES[name]()
    last_play = GAME_LAST_PLAY if marks else None
    return decode(
        render_board(game, perspective=perspective, theme=theme, home=home, last_play=last_play)
    )


def indices(png: bytes) -> bytes:
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P"
    return image.tobytes()


# --- the layout -------------------------------------------------------------------------


@pytest.mark.parametrize("point", range(1, 25))
def test_the_left_layout_is_the_right_one_in_a_mirror(point):
    x0, y0, x1, y1 = RIGHT.point_rect(point)
    assert LEFT.point_rect(point) == (1000 - x1, y0, 1000 - x0, y1)
    (rx, ry), (lx, ly) = RIGHT.checker_centre(point, 2), LEFT.checker_centre(point, 2)
    assert (lx, ly) == (1000 - rx, ry)
    nx, ny = RIGHT.number_centre(point)
    assert LEFT.number_centre(point) == (1000 - nx, ny)


@pytest.mark.parametrize("side", ["near", "far"])
def test_the_trays_cube_and_dice_change_sides(side):
    rx0, ry0, rx1, ry1 = RIGHT.tray_rect(side)
    assert LEFT.tray_rect(side) == (1000 - rx1, ry0, 1000 - rx0, ry1)
    assert LEFT.tray_rect(side)[2] <= LEFT.field_left  # in the left rail
    assert LEFT.cube_centre(side)[0] > LEFT.field_right  # in the right rail
    assert LEFT.bar_centre(side, 1) == RIGHT.bar_centre(side, 1)
    right_dice = sorted(1000 - x for x, _ in RIGHT.dice_centres(side))
    assert sorted(x for x, _ in LEFT.dice_centres(side)) == right_dice
    assert LEFT.turn_x == RIGHT.field_right and RIGHT.turn_x == RIGHT.field_left


@pytest.mark.parametrize("width", [300, 333, 640, 1001, 3000])
def test_any_width_mirrors_within_a_pixel(width):
    right, left = Layout.for_width(width), Layout.for_width(width, home="left")
    assert (left.width, left.height) == (right.width, right.height)
    for point in (1, 6, 7, 12, 13, 18, 19, 24):
        (rx, ry), (lx, ly) = right.checker_centre(point, 0), left.checker_centre(point, 0)
        assert abs(lx - (width - rx)) <= 1 and ly == ry
    assert left.field_left >= 0 and left.field_right <= width


def test_a_home_that_is_neither_side_is_refused() -> None:
    with pytest.raises(ValueError, match="home is 'right' or 'left', not 'up'"):
        # The wrong value on purpose: the check at run time is what is tested.
        render_board(EXAMPLES["opening"]()[0], perspective=0, home="up")  # type: ignore[arg-type]


# --- the picture ------------------------------------------------------------------------


def test_right_is_the_default_picture():
    game, perspective = EXAMPLES["hit"]()
    assert render_board(game, perspective=perspective, home="right") == render_board(
        game, perspective=perspective
    )


@pytest.mark.parametrize("theme", [CLASSIC, DARK], ids=lambda t: t.name)
@pytest.mark.parametrize("perspective", [0, 1])
def test_the_home_board_is_on_the_left(perspective, theme):
    """The opening position: five of the viewer's checkers on their 6-point, in the left half."""
    image = picture("opening", perspective, "left", theme, marks=False)
    mine, theirs = theme.checkers[perspective], theme.checkers[1 - perspective]
    for slot in range(5):
        x, y = LEFT.checker_centre(6, slot)
        assert x < LEFT.bar_left
        assert is_colour(image, (x, y), mine), (slot, colour_at(image, (x, y)))
        assert not is_colour(image, RIGHT.checker_centre(1, slot), mine)  # not where 1 was
    board = EXAMPLES["opening"]()[0].position_for(perspective).board
    for point in range(1, 25):
        if board[point]:
            colour = mine if board[point] > 0 else theirs
            assert is_colour(image, LEFT.checker_centre(point, 0), colour), point
    # The near home board (1-6) lies bottom left, the far one (19-24) top left.
    assert LEFT.checker_centre(1, 0)[0] < LEFT.checker_centre(6, 0)[0] < 500
    assert LEFT.checker_centre(24, 0)[0] < 500 < LEFT.checker_centre(13, 0)[0]


def test_borne_off_checkers_fill_the_left_trays():
    game, perspective = EXAMPLES["bearoff"]()
    image = picture("bearoff", perspective, "left", marks=False)
    mine, theirs = game.position_for(perspective).borne_off()
    for side, count, player in (("near", mine, perspective), ("far", theirs, 1 - perspective)):
        for index in range(15):
            x0, y0, x1, y1 = LEFT.slab_rect(side, index)
            assert x1 < LEFT.field_left
            seen = colour_at(image, ((x0 + x1) // 2, y0 + (y1 - y0) * 2 // 5), spread=1)
            expected = CLASSIC.checkers[player] if index < count else CLASSIC.tray
            assert distance(seen, expected) < 20, (side, index, seen)


def test_the_cube_is_in_the_right_rail():
    image = picture("early", 0, "left")  # a centred cube at 64 in a 5-point match
    x, y = LEFT.cube_centre("middle")
    assert x > LEFT.field_right
    assert is_colour(image, (x, y - round(LEFT.cube_size * 0.38)), CLASSIC.cube)
    right = picture("early", 0, "right")
    assert not is_colour(right, (x, y - round(LEFT.cube_size * 0.38)), CLASSIC.cube)


def crop(image: Image.Image, centre: tuple[int, int], half: tuple[int, int]) -> Image.Image:
    x, y = centre
    return image.crop((x - half[0], y - half[1], x + half[0], y + half[1]))


@pytest.mark.parametrize("point", [1, 9, 13, 24])
def test_point_numbers_read_the_same_way(point):
    """The number of a point is the same picture in both orientations, not its mirror."""
    left, right = picture("opening", 0, "left"), picture("opening", 0, "right")
    a = crop(left, LEFT.number_centre(point), (28, 12))
    b = crop(right, RIGHT.number_centre(point), (28, 12))
    assert ImageChops.difference(a, b).getbbox() is None
    assert ImageChops.difference(a, a.transpose(Image.Transpose.FLIP_LEFT_RIGHT)).getbbox()


@pytest.mark.parametrize("name", ["hit", "doubled", "game-over"])
def test_panels_and_footer_are_not_mirrored(name):
    _, perspective = EXAMPLES[name]()
    left = picture(name, perspective, "left")
    right = picture(name, perspective, "right")
    for box in (LEFT.panel_rect("far"), LEFT.panel_rect("near"), LEFT.footer_rect()):
        assert ImageChops.difference(left.crop(box), right.crop(box)).getbbox() is None, box


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_draws_on_the_left(name, theme):
    game, perspective = EXAMPLES[name]()
    for side in (perspective, 1 - perspective):
        for width in (1000, 400):
            png = render_board(
                game, perspective=side, names=NAMES, theme=theme, width=width, home="left"
            )
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) < 80 * 1024
            assert decode(png).size == (width, Layout.for_width(width).height)
        # The fast path (regions on the palette) draws what composing it all draws.
        image = compose(game, perspective=side, names=NAMES, theme=theme, home="left")
        png = render_board(game, perspective=side, names=NAMES, theme=theme, home="left")
        assert indices(encode(image, theme)) == indices(png)


def test_warm_up_draws_both_sides_by_default():
    from renderers import sprites

    warm_up(themes=["dark"], width=333)
    for home in ("right", "left"):
        before = sprites.empty_board.cache_info().misses
        render_board(EXAMPLES["opening"]()[0], perspective=0, theme="dark", width=333, home=home)
        assert sprites.empty_board.cache_info().misses == before, home
