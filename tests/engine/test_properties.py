"""Property tests: random games and random positions keep the engine's invariants."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import LegalPlays, Play, Position, legal_plays, parse_play
from bot.engine.moves import step
from bot.engine.position import BAR, OFF

# Random games last about 90 turns (both players counted) and hardly ever 250; one still
# going after this many has a bug that keeps it going.
MAX_TURNS = 1000

PROPERTY_SETTINGS = settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def checkers_on_board(position: Position) -> tuple[int, int]:
    """Checkers on the points and the bar for (the player on roll, the opponent)."""
    b = position.board
    mine = b[BAR] + sum(n for n in b[1:BAR] if n > 0)
    theirs = b[0] + sum(-n for n in b[1:BAR] if n < 0)
    return mine, theirs


def check_play(position: Position, dice: tuple[int, int], plays: LegalPlays, play: Play) -> None:
    """Invariants of one legal play, each computed independently of the generator."""
    result = position.apply(play)
    assert result in plays
    assert play in plays
    assert play.dice_used() == plays.max_dice
    # Every move is one die: the exact number, or a larger one when bearing off.
    distances = sorted(m.source - m.target for m in play.moves)
    d1, d2 = dice
    if d1 == d2:
        assert all(
            d == d1 or (d < d1 and m.target == OFF)
            for d, m in zip(
                distances, sorted(play.moves, key=lambda m: m.source - m.target), strict=True
            )
        )
    elif len(play.moves) == 2 and not any(m.target == OFF for m in play.moves):
        assert distances == sorted(dice)
    # Pips: the mover's count drops by exactly the pips moved; the opponent's rises by the
    # distance each hit checker had already travelled (so not at all without a hit).
    mine_before, theirs_before = position.pips()
    mine_after, theirs_after = result.pips()
    assert mine_before - mine_after == sum(distances)
    assert theirs_after - theirs_before == sum(m.target for m in play.moves if m.hit)
    assert result.opponent_bar - position.opponent_bar == sum(m.hit for m in play.moves)


@PROPERTY_SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant_and_end(seed: int) -> None:
    # A seeded generator rather than st.randoms(): Hypothesis would shrink its draws towards
    # always 1-1 and always the first play, and such a game may rightly never end.
    rng = random.Random(seed)
    position = Position.start()
    borne_off = [0, 0]  # counted from the moves: [player on roll, opponent]
    for _turn in range(MAX_TURNS):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        results = plays.results()
        result = rng.choice(results)  # a uniformly random legal play
        play = plays.play_for(result)
        assert play is not None
        if plays.max_dice == 0:
            assert results == [position]
            assert play.moves == ()
        check_play(position, dice, plays, play)
        assert parse_play(position, dice, str(play), plays) == play

        borne_off[0] += sum(1 for m in play.moves if m.target == OFF)
        mine, theirs = checkers_on_board(result)
        assert (mine + borne_off[0], theirs + borne_off[1]) == (15, 15)
        assert result.borne_off() == tuple(borne_off)
        assert Position.from_id(result.position_id()) == result
        if borne_off[0] == 15:
            assert result.is_over()
            return
        assert not result.is_over()

        position = result.flip()
        borne_off.reverse()
        assert position.flip() == result
        assert position.pips() == tuple(reversed(result.pips()))
        assert Position.from_id(position.position_id()) == position
    raise AssertionError(f"the game did not end within {MAX_TURNS} turns")


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any position: each side's 15 checkers spread over points, bar and off.

    Half the time the player on roll has all but at most two checkers home or borne off,
    and the opponent likewise, so that bear-offs (with and without contact, and right after
    the last checker comes home) come up as often as middle games.
    """
    board = [0] * 26
    if draw(st.booleans()):
        spots = draw(st.lists(st.integers(0, 6), min_size=15, max_size=15))
        stragglers = draw(st.lists(st.integers(7, 12), max_size=2))
        spots[: len(stragglers)] = stragglers
    else:
        spots = draw(st.lists(st.integers(0, BAR), min_size=15, max_size=15))
    for spot in spots:
        if spot != OFF:  # 0 means borne off here
            board[spot] += 1
    home = draw(st.booleans())
    free = [p for p in range(1, BAR) if board[p] == 0 and (p >= 19 or not home)]
    theirs: st.SearchStrategy[str | int] = (
        st.sampled_from(["off", "bar", *free]) if free else st.just("off")
    )
    for their in draw(st.lists(theirs, min_size=15, max_size=15)):
        if their == "bar":
            board[0] += 1
        elif isinstance(their, int):  # a free point; "off" adds nothing
            board[their] -= 1
    return Position.from_board(board)


dice_rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


def naive_results(position: Position, dice: tuple[int, int]) -> tuple[set[tuple[int, ...]], int]:
    """A slow, obvious reference: try every order of the dice from every point.

    Keep the plays using the most dice; when only one of two different dice can be used,
    keep the plays of the larger one if there are any.
    """
    d1, d2 = dice
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    ends: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def walk(board: list[int], remaining: tuple[int, ...], used: tuple[int, ...]) -> None:
        moved = False
        if remaining:
            for source in range(BAR, 0, -1):
                after = list(board)
                if step(after, source, remaining[0]) is not None:
                    moved = True
                    walk(after, remaining[1:], (*used, remaining[0]))
        if not moved:
            ends.append((tuple(board), used))

    for order in orders:
        walk(list(position.board), order, ())
    most = max(len(used) for _, used in ends)
    kept = [(board, used) for board, used in ends if len(used) == most]
    if most == 1 and d1 != d2 and any(used == (max(dice),) for _, used in kept):
        kept = [(board, used) for board, used in kept if used == (max(dice),)]
    return {board for board, _ in kept}, most


@settings(PROPERTY_SETTINGS, max_examples=300)
@given(position=positions(), dice=dice_rolls)
def test_random_positions_match_a_naive_generator(
    position: Position, dice: tuple[int, int]
) -> None:
    plays = legal_plays(position, dice)
    expected, most = naive_results(position, dice)
    assert {result.board for result in plays.results()} == expected
    assert plays.max_dice == most


@PROPERTY_SETTINGS
@given(position=positions(), dice=dice_rolls)
def test_random_positions_round_trip_ids_plays_and_notation(
    position: Position, dice: tuple[int, int]
) -> None:
    assert Position.from_id(position.position_id()) == position
    assert position.flip().flip() == position
    assert position.flip().pips() == tuple(reversed(position.pips()))
    assert position.flip().borne_off() == tuple(reversed(position.borne_off()))
    plays = legal_plays(position, dice)
    for index, (result, play) in enumerate(plays.items()):
        if index == 40:
            break  # enough for one example; doublets can have a thousand plays
        check_play(position, dice, plays, play)
        assert Position.from_id(result.position_id()) == result
        assert position.apply(parse_play(position, dice, str(play), plays)) == result
        assert position.apply(parse_play(position, dice[::-1], str(play))) == result
