"""Charts: PNGs of the stated size whose plotted points are the figures the text reports."""

from __future__ import annotations

import doctest

import pytest

import renderers.charts as charts
from bot.computer.luck import match_luck
from bot.storage import Store
from renderers.charts import (
    ChartLabels,
    draw_chart,
    rating_chart,
    rating_scene,
    win_chance_chart,
    win_chance_scene,
)
from renderers.theme import CLASSIC, DARK, Theme
from tests.renderers.support import decode, distance, is_colour, pixel
from tests.test_luck import TableEvaluator, made_by, scripted_game

NAMES = ("alice", "bob")
CHANCES = [0.52, 0.48, 0.41, 0.45, 0.55, 0.62, 0.58, 0.7, 0.66, 0.8, 0.75, 0.9, 0.93, 1.0]


def test_doctests() -> None:
    assert doctest.testmod(charts).failed == 0


@pytest.mark.parametrize("width", [300, 640, 1000, 1600])
def test_pictures_have_the_stated_size(width: int) -> None:
    image = decode(win_chance_chart(CHANCES, names=NAMES, width=width))
    assert image.size == (width, round(width * 0.6))
    image = decode(rating_chart([(0.0, 1500.0), (86400.0, 1510.0)], name="alice", width=width))
    assert image.size == (width, round(width * 0.6))


def test_sizes_and_values_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="width"):
        win_chance_chart(CHANCES, names=NAMES, width=200)
    with pytest.raises(ValueError, match="0-1"):
        win_chance_chart([0.5, 1.2], names=NAMES)


def line_colour_at(png: bytes, xy: tuple[float, float], colour: tuple[int, int, int]) -> bool:
    image = decode(png)
    return is_colour(image, (round(xy[0]), round(xy[1])), colour, tolerance=40)


@pytest.mark.parametrize("theme", [CLASSIC, DARK])
def test_the_line_passes_through_every_point(theme: Theme) -> None:
    scene = win_chance_scene(CHANCES, names=NAMES, theme=theme)
    assert scene.values == ((0.0, 0.5), *((i + 1.0, c) for i, c in enumerate(CHANCES)))
    left, top, right, bottom = scene.plot
    # 0% at the bottom of the felt, 100% at the top; play 0 on the left, the last on the right.
    assert scene.to_pixel(0, 0.0) == (left, bottom)
    assert scene.to_pixel(len(CHANCES), 1.0) == (right, top)
    png = draw_chart(scene)
    image = decode(png)
    for x, y in scene.pixels:
        assert is_colour(image, (round(x), round(y)), scene.theme.accent, tolerance=40), (x, y)


async def test_chart_of_a_scripted_game_shows_the_reported_figures(store: Store) -> None:
    options, events = await scripted_game(store)
    hit = made_by(events, "8/4* 6/4")
    stub = TableEvaluator({(6, 6): 0.36, (2, 1): 0.09}, penalties={hit: 0.12})
    (game,) = match_luck(options, events, stub).games
    inputs = game.chart_inputs()
    assert inputs["points"] == [point.win for point in game.points]
    assert inputs["blunders"] == [2] and inputs["errors"] == [2]
    assert inputs["luckiest"] == 3 and inputs["unluckiest"] == 2

    scene = win_chance_scene(**inputs, names=NAMES)
    # The chart's points are the chances the analysis reports, after an even start.
    assert [y for _, y in scene.values] == [0.5, *(point.win for point in game.points)]
    assert [x for x, _ in scene.values] == [0, 1, 2, 3, 4, 5]
    markers = {(m.kind, m.index) for m in scene.markers}
    assert markers == {("blunder", 2), ("luckiest", 3), ("unluckiest", 2)}
    (blunder,) = scene.marker("blunder")
    assert blunder.pixel == scene.pixels[2]
    assert [kind for kind, _ in scene.legend] == ["blunder", "luckiest", "unluckiest"]
    assert scene.title == "alice's chance of winning · game 1"  # whose chance the line is

    png = win_chance_chart(**inputs, names=NAMES)
    image = decode(png)
    assert image.size == (1000, 600)
    # The blunder is a red dot on Alice's play; the other plays are on the line.
    bx, by = blunder.pixel
    assert is_colour(image, (round(bx), round(by)), CLASSIC.hit, tolerance=40)
    for index in (1, 4):
        x, y = scene.pixels[index]
        assert is_colour(image, (round(x), round(y)), CLASSIC.accent, tolerance=40)


def test_an_empty_game_still_draws() -> None:
    scene = win_chance_scene([], names=NAMES)
    assert scene.values == ((0.0, 0.5),)
    assert scene.empty_text == "nothing to show yet"
    assert decode(draw_chart(scene)).size == (1000, 600)


def test_labels_can_be_translated() -> None:
    labels = ChartLabels(win_title="Gewinnchance", wins="{name} gewinnt", game="Spiel {number}")
    scene = win_chance_scene(CHANCES, names=NAMES, labels=labels, game_number=3)
    assert scene.title == "Gewinnchance · Spiel 3"
    assert scene.top_label == ("alice gewinnt", 0)
    assert scene.bottom_label == ("bob gewinnt", 1)


def test_rating_chart_points_are_the_ratings() -> None:
    day = 86400.0
    start = 1_700_000_000.0
    history = [(start + 3 * day, 1512.5), (start, 1500.0), (start + 10 * day, 1490.25)]
    scene = rating_scene(history, name="alice")
    assert scene.values == tuple(sorted(history))  # in time order
    assert scene.end_label == "1490.2"
    assert scene.title == "alice's rating"
    low, high = scene.y_range
    assert low <= 1490.25 and high >= 1512.5
    assert scene.reference == 1500.0  # where everyone starts, as a guide
    # Round tick values, all inside the range.
    assert all(low <= value <= high for value, _ in scene.y_ticks)
    assert len(scene.x_ticks) == 5
    (last,) = scene.marker("last")
    assert last.pixel == scene.pixels[-1]
    image = decode(draw_chart(scene))
    x, y = scene.pixels[1]
    assert distance(pixel(image, (round(x), round(y))), CLASSIC.accent) < 60


def test_rating_chart_with_one_or_no_games() -> None:
    one = rating_scene([(1_700_000_000.0, 1507.0)], name="bob")
    assert one.values == ((1_700_000_000.0, 1507.0),)
    left, _, right, _ = one.plot
    assert one.pixels[0][0] == pytest.approx((left + right) / 2)
    assert decode(draw_chart(one)).size == (1000, 600)
    none = rating_scene([], name="bob")
    assert none.values == () and none.empty_text
    assert decode(draw_chart(none)).size == (1000, 600)
