"""Random matches with random dice, random legal plays and random cube and resignation actions.

Every step must keep the invariants (15 checkers a side, IDs that round-trip and agree with
the game); every game must end; the match score must add up to what the games scored.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    EndReason,
    Game,
    MatchIdFields,
    MatchOptions,
    NotAllowedNowError,
    Phase,
    Position,
    ResultKind,
)
from bot.engine.game import MAX_CUBE
from bot.engine.match_id import (
    GAME_DROP,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
)

MAX_ACTIONS_PER_GAME = 3000  # random play takes about 100 checker plays a game

money_options = st.builds(
    MatchOptions,
    length=st.just(0),
    cube=st.booleans(),
    jacoby=st.booleans(),
    beavers=st.booleans(),
    auto_doubles=st.integers(0, 3),
)
match_options = st.builds(MatchOptions, length=st.integers(1, 7), cube=st.booleans())


@dataclass
class Style:
    """How eagerly the random players use the cube and resign."""

    double: float
    take: float
    beaver: float
    resign: float
    accept: float
    notation: float


styles = st.builds(
    Style,
    double=st.sampled_from([0.0, 0.1, 0.5, 1.0]),
    take=st.sampled_from([0.5, 0.9, 1.0]),
    beaver=st.sampled_from([0.0, 0.3]),
    resign=st.sampled_from([0.0, 0.01]),
    accept=st.sampled_from([0.2, 0.8]),
    notation=st.sampled_from([0.0, 0.2]),
)


def random_dice(rng: random.Random) -> tuple[int, int]:
    return rng.randint(1, 6), rng.randint(1, 6)


def act(game: Game, rng: random.Random, style: Style) -> Game:
    """One random action by whoever must act now."""
    if game.resignation is not None:
        if rng.random() < style.accept:
            return game.accept_resignation()
        return game.reject_resignation()
    if game.phase is Phase.OPENING:
        return game.opening_roll(*random_dice(rng))
    if game.phase is Phase.ROLL:
        if rng.random() < style.resign:
            return game.offer_resignation(rng.randint(0, 1), rng.choice(list(ResultKind)))
        if game.can_double() and rng.random() < style.double:
            return game.double()
        if not game.can_double():
            assert game.cube_refusal()
            try:
                game.double()
            except NotAllowedNowError:
                pass
            else:
                raise AssertionError("a refused double went through")
        return game.roll(random_dice(rng))
    if game.phase is Phase.DOUBLED:
        can_beaver = game.options.beavers and not game.beaver_pending and game.cube * 4 <= MAX_CUBE
        if can_beaver and rng.random() < style.beaver:
            return game.beaver()
        if rng.random() < style.take:
            return game.take()
        return game.drop()
    assert game.phase is Phase.MOVE
    plays = game.legal_plays()
    if plays.is_forced_pass:
        return game.pass_turn()
    play = rng.choice(list(plays))
    after = game.play(play)
    if rng.random() < style.notation:
        assert game.move(str(play)) == after
    return after


def side_counts(position: Position) -> tuple[int, int]:
    """Checkers still on the board or the bar for (the player on roll, the opponent)."""
    b = position.board
    mine = b[25] + sum(n for n in b[1:25] if n > 0)
    theirs = b[0] + sum(-n for n in b[1:25] if n < 0)
    return mine, theirs


def expected_state(game: Game) -> int:
    if game.phase is Phase.OPENING:
        return GAME_NONE
    if game.phase is not Phase.OVER:
        return GAME_PLAYING
    assert game.result is not None
    return {EndReason.DROPPED: GAME_DROP, EndReason.RESIGNED: GAME_RESIGNED}.get(
        game.result.reason, GAME_OVER
    )


def check_step(game: Game) -> None:
    position = game.position
    # Fifteen checkers a side: on the board, on the bar or borne off.
    mine, theirs = side_counts(position)
    off = position.borne_off()
    assert (mine + off[0], theirs + off[1]) == (15, 15)
    assert 0 <= mine <= 15 and 0 <= theirs <= 15
    assert game.position_for(game.on_roll) == position
    assert game.position_for(1 - game.on_roll) == position.flip()
    if game.phase is not Phase.OVER:
        assert 15 not in off
    # The cube is a power of two, centred or owned.
    assert game.cube >= 1 and game.cube & (game.cube - 1) == 0
    assert game.cube <= MAX_CUBE
    assert game.cube_owner in (None, 0, 1)
    if game.crawford:
        assert (game.cube, game.cube_owner) == (1, None)
        assert not game.can_double()
    # The Position ID round-trips.
    assert Position.from_id(game.position_id()) == position
    # The Match ID says what the game says.
    fields = MatchIdFields.decode(game.match_id())
    assert fields.encode() == game.match_id()
    actor = game.actor
    assert fields.match_length == game.options.length
    assert fields.score == game.final_score
    assert fields.cube == game.cube
    assert fields.cube_owner == (-1 if game.cube_owner is None else game.cube_owner)
    assert fields.on_roll == game.on_roll
    assert fields.turn == (game.on_roll if actor is None else actor)
    assert fields.crawford == game.crawford
    assert fields.double_offered == (game.phase is Phase.DOUBLED)
    assert fields.game_state == expected_state(game)
    assert fields.jacoby == game.options.jacoby
    if game.phase is Phase.MOVE:
        assert game.dice is not None
        assert fields.dice == (max(game.dice), min(game.dice))
    else:
        assert fields.dice == (0, 0)
    if game.resignation is not None:
        assert fields.resigned == int(game.resignation.kind)
    elif game.phase is not Phase.OVER:
        assert fields.resigned == 0


def play_game(game: Game, rng: random.Random, style: Style) -> Game:
    borne_off = [0, 0]
    for _ in range(MAX_ACTIONS_PER_GAME):
        check_step(game)
        off = game.borne_off()
        assert off[0] >= borne_off[0] and off[1] >= borne_off[1]  # none ever come back
        borne_off = list(off)
        if game.phase is Phase.OVER:
            return game
        game = act(game, rng, style)
    raise AssertionError(f"game {game.game_number} did not end: {game!r}")


def play_match(options: MatchOptions, seed: int, style: Style) -> list[Game]:
    rng = random.Random(seed)
    game = Game.new(options)
    games = []
    while True:
        end = play_game(game, rng, style)
        games.append(end)
        if end.match_over:
            return games
        assert len(games) < 200
        game = end.next_game()


def check_match(options: MatchOptions, games: list[Game]) -> None:
    totals = [0, 0]
    for number, game in enumerate(games, start=1):
        result = game.result
        assert result is not None
        assert game.game_number == number
        assert game.score == (totals[0], totals[1])  # the score carried from the last game
        if result.reason is not EndReason.FORFEIT:
            assert result.points == result.cube * int(result.kind)
        assert result.cube == game.cube
        totals[result.winner] += result.points
        assert game.final_score == (totals[0], totals[1])
    last = games[-1]
    assert last.match_over
    assert last.result is not None
    if options.is_money:
        assert len(games) == 1
        assert last.match_winner == last.result.winner
        return
    length = options.length
    winner = last.match_winner
    assert winner is not None
    assert totals[winner] >= length > totals[1 - winner]
    assert all(not g.match_over for g in games[:-1])
    # The Crawford game is the one right after a player first reaches length - 1.
    first = next((i for i, g in enumerate(games[:-1]) if length - 1 in g.final_score), None)
    crawford = [i for i, g in enumerate(games) if g.crawford]
    if length == 1 or first is None:
        assert crawford == []
    else:
        assert crawford == [first + 1]
        assert all(g.post_crawford for g in games[first + 2 :])
        assert not any(g.post_crawford for g in games[: first + 2])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=match_options, seed=st.integers(0, 2**32 - 1), style=styles)
def test_random_matches_end_and_add_up(options: MatchOptions, seed: int, style: Style) -> None:
    check_match(options, play_match(options, seed, style))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=money_options, seed=st.integers(0, 2**32 - 1), style=styles)
def test_random_money_games_end_and_add_up(options: MatchOptions, seed: int, style: Style) -> None:
    games = play_match(options, seed, style)
    check_match(options, games)
    (game,) = games
    assert game.auto_doubles_done <= options.auto_doubles
    result = game.result
    assert result is not None
    if options.jacoby and game.cube_owner is None:
        assert result.kind is ResultKind.SINGLE


def test_a_long_match_to_25_points() -> None:
    style = Style(double=0.02, take=0.9, beaver=0.0, resign=0.0, accept=0.0, notation=0.0)
    games = play_match(MatchOptions(length=25), 7, style)
    check_match(MatchOptions(length=25), games)
    assert len(games) > 5
