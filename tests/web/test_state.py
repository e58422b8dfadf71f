"""The board's JSON offers Beaver exactly when the engine would take one: a money game
played with beavers, a double waiting for its first answer, the cube not past its top. It
asks what the board picture says the player to act is asked, with the engine's pip counts,
the score after the game, the cube and its owner, and the points the last play hit. It
says whether the game has a cube at all (not with the cube off, in a 1-point match or in
the Crawford game) and, while a double waits for its answer, the value offered and whose
end of the rail it stands at: what the board picture draws (renderers/board.py)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Game, MatchOptions, ResultKind
from bot.engine.errors import NotAllowedNowError
from bot.web.state import Asked, game_json
from renderers.board import _draw
from renderers.panels import ENGLISH, status
from renderers.theme import CLASSIC, Layout


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


def crawford_game(length: int = 3) -> Game:
    """The Crawford game of a ``length``-point match: bob resigned a gammon in game 1."""
    first = Game.new(MatchOptions(length=length)).opening_roll(3, 1).move("8/5 6/5")
    over = first.roll((6, 4)).offer_resignation(1, ResultKind.GAMMON).accept_resignation()
    return over.next_game()


def after_crawford() -> Game:
    """Game 3 of the same match: alice resigned the Crawford game (2-1); the cube is back."""
    crawford = crawford_game().opening_roll(3, 1)
    return crawford.offer_resignation(0).accept_resignation().next_game()


def rolling(options: MatchOptions) -> Game:
    return Game.new(options).opening_roll(3, 1).move("8/5 6/5")


CUBE_GAMES = {
    "money": (rolling(MatchOptions()), True),
    "money, cube off": (rolling(MatchOptions(cube=False)), False),
    "5-point match": (rolling(MatchOptions(length=5)), True),
    "1-point match": (rolling(MatchOptions(length=1)), False),
    "Crawford game": (crawford_game().opening_roll(3, 1), False),
    "after the Crawford game": (after_crawford().opening_roll(3, 1), True),
    "bob owns it": (rolling(MatchOptions(length=5)).double().take(), True),
}


def drawn_cube(game: Game) -> dict[str, Any] | None:
    """The cube as the board picture (seen by player 0) draws it: its value, the player at
    whose end of the rail it stands (None: centred), and whether it is an offer; None for
    no cube. Read from the picture's keyed drawing operations: ``(("cube", value), x, y)``,
    or ``(("offered", cube before the double), x, y)`` for a glowing offer."""
    layout = Layout.for_width(1000)
    canvas = _draw(game, 0, ("alice", "bob"), None, CLASSIC, layout)
    ends: dict[int | None, int] = {
        0: layout.cube_centre("near")[1],
        1: layout.cube_centre("far")[1],
        None: layout.cube_centre("middle")[1],
    }
    keys: list[Any] = canvas.keys
    for (_x0, y0, _x1, y1), key in zip((box for box, _ in canvas.ops), keys, strict=True):
        if key is None or key[0][0] not in ("cube", "offered"):
            continue
        (kind, value), _x, _y = key
        player = min(ends, key=lambda end: abs(ends[end] - (y0 + y1) // 2))
        offered = kind == "offered"
        return {"value": value * 2 if offered else value, "player": player, "offered": offered}
    return None


@pytest.mark.parametrize(("game", "in_play"), CUBE_GAMES.values(), ids=CUBE_GAMES.keys())
def test_the_cube_is_in_play_where_the_picture_draws_one(game: Game, in_play: bool) -> None:
    board = game_json(game)
    assert board["cube_in_play"] is in_play
    assert board["cube_offered"] is None  # no double pending
    drawn = drawn_cube(game)
    assert (drawn is not None) is in_play
    if drawn is not None:
        owner = board["cube_owner"]
        assert (drawn["player"], drawn["offered"]) == (owner, False)
        assert drawn["value"] == (64 if board["cube"] == 1 and owner is None else board["cube"])


@pytest.mark.parametrize(
    ("game", "value", "taker"),
    [
        (rolling(MatchOptions(length=5)).double(), 2, 0),  # bob doubles alice
        (rolling(MatchOptions(length=5)).roll((6, 4)).move("24/14").double(), 2, 1),
        (rolling(MatchOptions(length=5)).double().take().roll((6, 4)).move("24/14").double(), 4, 1),
        (rolling(MatchOptions(beavers=True)).double().beaver(), 4, 0),  # bob's beaver
    ],
    ids=["to alice", "to bob", "redouble", "beaver"],
)
def test_a_pending_double_is_the_value_offered_at_the_taker_s_end(
    game: Game, value: int, taker: int
) -> None:
    board = game_json(game)
    assert board["cube_in_play"] is True
    assert board["cube_offered"] == {"value": value, "player": taker}
    assert drawn_cube(game) == {"value": value, "player": taker, "offered": True}
    # The stake and its owner stay what they are until the answer.
    assert (board["cube"], board["cube_owner"]) == (game.cube, game.cube_owner)
    answered = game_json(game.take())
    assert answered["cube_offered"] is None
    assert drawn_cube(game.take()) == {
        "value": answered["cube"],
        "player": answered["cube_owner"],
        "offered": False,
    }
