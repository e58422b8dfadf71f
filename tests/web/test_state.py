"""The board's JSON offers Beaver exactly when the engine would take one: a money game
played with beavers, a double waiting for its first answer, the cube not past its top. It
asks what the board picture says the player to act is asked, with the engine's pip counts,
the score after the game, the cube and its owner, and the points the last play hit."""

from __future__ import annotations

import pytest

from bot.engine import Game, MatchOptions
from bot.engine.errors import NotAllowedNowError
from bot.web.state import Asked, game_json
from renderers.panels import ENGLISH, status


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


def games_along_a_match() -> list[Game]:
    """A game at each thing it can wait for: the opening, a move, a roll with and without
    the cube, a double, a resignation, the end."""
    opening = Game.new(MatchOptions(length=5))
    moved = opening.opening_roll(3, 1)
    rolled = moved.move("8/5 6/5")
    doubled = rolled.double()
    taken = doubled.take()  # bob owns the cube: alice may not double
    resigning = taken.roll((6, 4)).offer_resignation(1)
    over = resigning.accept_resignation()
    return [opening, moved, rolled, doubled, taken, resigning, over]


@pytest.mark.parametrize("game", games_along_a_match())
def test_what_the_board_asks_is_what_the_picture_says(game: Game) -> None:
    words = {
        Asked.OPENING: ENGLISH.opening_roll,
        Asked.ROLL: ENGLISH.to_roll,
        Asked.ROLL_OR_DOUBLE: ENGLISH.to_roll_or_double,
        Asked.MOVE: ENGLISH.to_move,
        Asked.TAKE_OR_DROP: ENGLISH.to_take_or_drop,
        Asked.ACCEPT_OR_REJECT: ENGLISH.to_accept_or_reject,
    }
    board = game_json(game)
    if game.actor is None:
        assert board["asks"] is None
        return
    said, _acting = status(game, game.actor)
    assert words[Asked(board["asks"])] == said
    # The engine's pip counts, the score after the game, and the cube with its owner.
    assert board["pips"] == list(game.pips())
    assert board["final_score"] == list(game.final_score)
    assert (board["cube"], board["cube_owner"]) == (game.cube, game.cube_owner)


def test_the_last_play_names_the_points_it_hit() -> None:
    game = Game.new().opening_roll(6, 4).move("24/18 13/9").roll((6, 1)).move("13/7* 8/7")
    last = game_json(game)["last"]
    # Player 1's 13/7* is 12/18 from player 0's side, where player 0's checker was hit.
    assert last["moves"] == [[12, 18], [17, 18]] and last["hits"] == [18]
    assert last["text"] == "13/7* 8/7"
