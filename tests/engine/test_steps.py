"""The tap picker's steps: the plays it can build are exactly the engine's legal plays.

Every test walks :class:`~bot.engine.steps.PartialPlay` the way a player taps: a source
from :meth:`sources`, a destination from :meth:`destinations`, and so on until the play is
complete, over every branch. The set of whole plays reached must equal
:func:`~bot.engine.legal_plays`, on GNU Backgammon's conformance cases and on random
positions and rolls; and nothing offered may ever lead nowhere.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from bot.engine import Position, legal_plays
from bot.engine.steps import (
    PartialPlay,
    Step,
    StepError,
    decode_steps,
    encode_steps,
)
from tests.engine.support import case_id, conformance_cases, pos
from tests.engine.test_properties import PROPERTY_SETTINGS, dice_rolls, positions


def buildable(start: PartialPlay) -> set[tuple[int, ...]]:
    """Every whole play reachable by taps, as result boards; checks each state on the way.

    States reached twice (the same board with the same dice left) are walked once.
    """
    reached: set[tuple[int, ...]] = set()
    seen: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()

    def walk(partial: PartialPlay) -> None:
        key = (partial.board.board, tuple(sorted(partial.remaining)))
        if key in seen:
            return
        seen.add(key)
        sources = partial.sources()
        if partial.complete:
            assert sources == []  # nothing more is ever offered once the dice are used
            reached.add(partial.board.board)
            assert partial.play() in partial.plays
            return
        assert sources, f"a dead end after {partial.moves}"  # never a choice leading nowhere
        for source in sources:
            destinations = partial.destinations(source.point)
            assert destinations, f"{source} offered with nowhere to go"
            assert len({d.target for d in destinations if len(d.group) == 1}) == len(
                [d for d in destinations if len(d.group) == 1]
            )
            for destination in destinations:
                walk(partial.then(destination.group))

    walk(start)
    return reached


def check_exact(position: Position, dice: tuple[int, int]) -> None:
    plays = legal_plays(position, dice)
    start = PartialPlay(position, dice)
    if plays.is_forced_pass:
        assert start.complete and start.sources() == []
        assert not start.play()
        return
    assert buildable(start) == {p.board for p in plays.results()}


@pytest.mark.parametrize("case", conformance_cases(), ids=case_id)
def test_buildable_plays_are_gnu_legal_plays(case: dict) -> None:
    position = Position.from_board(case["board"])
    dice = tuple(case["dice"])
    start = PartialPlay(position, dice)
    if case["max_dice"] == 0:
        assert start.complete and start.sources() == []
        return
    assert buildable(start) == {tuple(r) for r in case["results"]}


@PROPERTY_SETTINGS
@given(position=positions(), dice=dice_rolls)
def test_buildable_plays_are_legal_plays_for_random_positions(
    position: Position, dice: tuple[int, int]
) -> None:
    check_exact(position, dice)


@PROPERTY_SETTINGS
@given(position=positions(), dice=dice_rolls, data=st.data())
def test_any_legal_play_taken_whole_round_trips_through_the_text(
    position: Position, dice: tuple[int, int], data: st.DataObject
) -> None:
    plays = legal_plays(position, dice)
    play = data.draw(st.sampled_from(list(plays)))
    whole = PartialPlay(position, dice).with_play(play)
    assert whole.complete and whole.play() == plays.play_for(position.apply(play))
    again = PartialPlay(position, dice, decode_steps(encode_steps(whole.groups)))
    assert again.board == whole.board and again.complete
    assert len(encode_steps(whole.groups)) <= 11


@PROPERTY_SETTINGS
@given(position=positions(), dice=dice_rolls, data=st.data())
def test_a_whole_play_chosen_at_once_is_one_group_and_one_undo(
    position: Position, dice: tuple[int, int], data: st.DataObject
) -> None:
    """A whole play picked from a list is one choice: one group, taken back by one Undo."""
    plays = legal_plays(position, dice)
    assume(plays.max_dice > 0)  # no move at all: there is nothing to choose
    play = data.draw(st.sampled_from(list(plays)))
    start = PartialPlay(position, dice)
    chosen = start.then(start.whole(play))
    assert len(chosen.groups) == 1
    assert chosen.complete and chosen.play() == plays.play_for(position.apply(play))
    assert chosen.undo().board == start.board and chosen.undo().groups == ()
    text = encode_steps(chosen.groups)
    assert len(text) <= 11 and PartialPlay(position, dice, decode_steps(text)).complete


def test_only_the_larger_die_when_only_one_can_be_played() -> None:
    # 6-5: the lone checker on 20 can play the 6 (20/14) or the 5 (20/15), never both
    # (9 is blocked): the 6 it must be, and the 5 is never offered.
    position = pos({20: 1, 9: -2})
    start = PartialPlay(position, (6, 5))
    assert legal_plays(position, (6, 5)).max_dice == 1
    assert [s.point for s in start.sources()] == [20]
    assert [(d.target, d.dice) for d in start.destinations(20)] == [(14, (6,))]
    with pytest.raises(StepError):
        start.then((Step(20, 5),))
    check_exact(position, (6, 5))


def test_both_dice_when_both_can_be_played() -> None:
    # 2-1 with one checker on 24 and 21 blocked: 24/22 alone would leave the 1 unplayable
    # (22/21), so the only play is 24/23/21... no, 24/23 then 23/21: the picker never
    # offers a first step after which the second die cannot be played.
    position = pos({24: 1, 21: -2, 1: 14})
    plays = legal_plays(position, (2, 1))
    start = PartialPlay(position, (2, 1))
    for source in start.sources():
        for destination in start.destinations(source.point):
            after = start.then(destination.group)
            assert after.complete or after.sources()
    assert buildable(start) == {p.board for p in plays.results()}


def test_a_double_six_uses_all_four() -> None:
    start = PartialPlay(Position.start(), (6, 6))
    assert [(d.target, d.dice) for d in start.destinations(24)] == [(18, (6,))]  # 12 blocked
    two = start.then((Step(24, 6),)).then((Step(24, 6),))
    assert not two.complete and two.remaining == (6, 6)
    play = two.then((Step(13, 6),)).then((Step(13, 6),))
    assert play.complete and play.sources() == []
    assert str(play.play()) == "24/18(2) 13/7(2)"


def test_a_double_offers_one_checker_moving_several_times() -> None:
    start = PartialPlay(Position.start(), (1, 1))
    assert [(d.target, d.dice) for d in start.destinations(8)] == [
        (7, (1,)),
        (6, (1, 1)),
        (5, (1, 1, 1)),
        (4, (1, 1, 1, 1)),
    ]
    (four,) = [d for d in start.destinations(8) if d.target == 4]
    assert str(start.then(four.group).play()) == "8/4"


def test_hits_are_marked() -> None:
    position = pos({13: 2, 10: -1, 6: 2, 24: -2})
    start = PartialPlay(position, (3, 1))
    (hit,) = [d for d in start.destinations(13) if d.target == 10]
    assert hit.hits == (10,)


def test_undo_and_reset() -> None:
    start = PartialPlay(Position.start(), (3, 1))
    one = start.then((Step(8, 3),))
    two = one.then((Step(6, 1),))
    assert two.complete and str(two.play()) == "8/5 6/5"
    assert two.undo().board == one.board and two.reset().board == start.board


@pytest.mark.parametrize(
    "groups",
    [
        ((Step(6, 6),),),  # 6/off is not legal at the start
        ((Step(8, 3),), (Step(8, 3),)),  # the 3 used twice
        ((Step(13, 2),),),  # no 2 in the roll
        (((Step(24, 3), Step(21, 1)), (Step(6, 1),))),  # three dice with 3-1
        ((),),
    ],
)
def test_illegal_steps_are_refused(groups: tuple) -> None:
    with pytest.raises(StepError):
        PartialPlay(Position.start(), (3, 1), groups)


@pytest.mark.parametrize("text", ["a1", "y7", "y", "y6.", ".y6", "Y6", "y6y6y6y6y6y6y6y6y6"])
def test_malformed_step_text_is_refused(text: str) -> None:
    with pytest.raises(StepError):
        decode_steps(text)


def test_a_bear_off_with_one_one_builds_every_play() -> None:
    position = pos({6: 2, 5: 3, 4: 2, 3: 3, 2: 2, 1: 3, 19: -15})
    check_exact(position, (1, 1))


def test_a_bear_off_either_die_could_make_is_named_by_the_larger() -> None:
    # 3-2 with one checker left on the 2-point: 2/off is the play, and the rules say the 3.
    start = PartialPlay(pos({2: 1, 20: -3}), (3, 2))
    (only,) = start.destinations(2)
    assert (only.target, only.dice) == (0, (3,))
