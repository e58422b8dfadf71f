"""The board's JSON offers Beaver exactly when the engine would take one: a money game
played with beavers, a double waiting for its first answer, the cube not past its top."""

from __future__ import annotations

import pytest

from bot.engine import Game, MatchOptions
from bot.engine.errors import NotAllowedNowError
from bot.web.state import game_json


def doubled(options: MatchOptions) -> Game:
    return Game.new(options).opening_roll(3, 1).move("8/5 6/5").double()


@pytest.mark.parametrize(
    ("options", "offered"),
    [
        (MatchOptions(beavers=True), True),
        (MatchOptions(), False),
        (MatchOptions(length=5), False),
    ],
)
def test_beaver_is_offered_only_where_the_engine_takes_one(
    options: MatchOptions, offered: bool
) -> None:
    game = doubled(options)
    assert game_json(game)["can_beaver"] is offered
    if offered:
        assert game_json(game.beaver())["can_beaver"] is False  # a beaver is taken or dropped
    else:
        with pytest.raises(NotAllowedNowError):
            game.beaver()  # the engine agrees: no beaver here
    assert game_json(game.take())["can_beaver"] is False
