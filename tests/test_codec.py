"""Game <-> JSON: every state a game passes through survives the trip to the database."""

from __future__ import annotations

import random

import pytest

from bot.core import codec
from bot.engine import (
    EndReason,
    Game,
    MatchOptions,
    Phase,
    Position,
    ResultKind,
)


def round_trip(game: Game) -> Game:
    return codec.game_from_dict(codec.loads(codec.dumps(codec.game_to_dict(game))))


def random_states(seed: int, options: MatchOptions) -> list[Game]:
    """Every state of a random match: rolls, plays, passes, cube actions, resignations."""
    rng = random.Random(seed)
    game = Game.new(options)
    states = [game]
    while True:
        if game.phase is Phase.OPENING:
            game = game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif game.resignation is not None:
            game = game.accept_resignation() if rng.random() < 0.5 else game.reject_resignation()
        elif game.phase is Phase.ROLL:
            if rng.random() < 0.02:
                game = game.offer_resignation(rng.randint(0, 1), ResultKind(rng.randint(1, 3)))
            elif game.can_double() and rng.random() < 0.15:
                game = game.double()
            else:
                game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif game.phase is Phase.DOUBLED:
            choice = rng.random()
            if options.beavers and not game.beaver_pending and choice < 0.3:
                game = game.beaver()
            else:
                game = game.take() if choice < 0.8 else game.drop()
        elif game.phase is Phase.MOVE:
            plays = game.legal_plays()
            game = game.pass_turn() if plays.is_forced_pass else game.play(rng.choice(list(plays)))
        elif game.match_over:
            states.append(game)
            return states
        else:
            game = game.next_game()
        states.append(game)


@pytest.mark.parametrize(
    "seed, options",
    [
        (1, MatchOptions()),
        (2, MatchOptions(length=5)),
        (3, MatchOptions(length=7)),
        (4, MatchOptions(jacoby=True, beavers=True, auto_doubles=2)),
        (5, MatchOptions(length=3, cube=False)),
    ],
)
def test_every_state_of_a_random_match_round_trips(seed: int, options: MatchOptions) -> None:
    states = random_states(seed, options)
    assert states[-1].match_over
    for game in states:
        assert round_trip(game) == game
        assert round_trip(game).match_id() == game.match_id()


@pytest.mark.parametrize(
    "options",
    [
        MatchOptions(),
        MatchOptions(length=25, cube=False),
        MatchOptions(jacoby=True, beavers=True, auto_doubles=3),
    ],
)
def test_options_round_trip(options: MatchOptions) -> None:
    assert codec.options_from_dict(codec.loads(codec.dumps(codec.options_to_dict(options)))) == (
        options
    )


def test_a_finished_game_keeps_its_result_and_last_play() -> None:
    game = Game.new(MatchOptions(length=3)).opening_roll(6, 1).move("13/7 8/7")
    game = game.offer_resignation(0, ResultKind.GAMMON).accept_resignation()
    assert game.result is not None and game.result.reason is EndReason.RESIGNED
    copy = round_trip(game)
    assert copy == game
    assert copy.result == game.result and copy.last_play == game.last_play
    assert copy.last_position == Position.start()


def test_dumps_is_compact_and_stable() -> None:
    game = Game.new().opening_roll(3, 1)
    text = codec.dumps(codec.game_to_dict(game))
    assert " " not in text
    assert text == codec.dumps(codec.game_to_dict(round_trip(game)))


def test_old_rows_load_with_defaults_and_unknown_keys_are_ignored() -> None:
    board = list(Position.start().board)
    game = codec.game_from_dict({"board": board, "someday": "a new field"})
    assert game == Game(position=Position.start())
    assert codec.options_from_dict({}) == MatchOptions()
