"""A whole game played only with taps, through the real discord.py and the fake Discord."""

from __future__ import annotations

from cogs.picker import PLAYS_LISTED
from tests.e2e.conftest import Harness
from tests.e2e.picker_support import (
    choose,
    confirm,
    custom_id,
    groups_of,
    open_picker,
    options,
    play_by_taps,
    press,
    tapped,
)
from tests.e2e.tap_game import FEATURES, covering_seed, script


async def start_game(h: Harness, opening: tuple[int, int]):
    h.roller.extend(opening)
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    return await press(h, h.bob, challenge, "accept")


async def test_an_opening_play_by_taps(harness: Harness) -> None:
    h = harness
    board = await start_game(h, (3, 1))
    assert "Play" in [b.label for b in board.buttons]
    picker = await open_picker(h, h.alice, board)
    assert sorted(options(picker, "s")) == [
        "13-point (5 checkers)",
        "24-point (2 checkers)",
        "6-point (5 checkers)",
        "8-point (3 checkers)",
    ]
    after = await play_by_taps(h, h.alice, board, ["8/5", "6/5"])
    assert "alice rolls 3-1 and plays 8/5 6/5." in after.content
    h.fake.assert_clean()


async def test_a_whole_game_played_only_with_taps(harness: Harness) -> None:
    """Every play of a whole game built by taps: a 6-6 in full, hits and entering from the
    bar, a roll with only the larger die playable, a forced pass, a 1-1 bear-off; some plays
    one checker at a time, some with combined moves, some from the list of whole plays,
    some after an Undo or a Reset."""
    h = harness
    plan = script(covering_seed())
    assert plan.seen >= FEATURES
    players = {0: h.alice, 1: h.bob}
    board = await start_game(h, plan.opening)
    for number, turn in enumerate(plan.turns):
        who = players[turn.player]
        name = who.user.username
        if number:  # the opening roll came with the accept
            h.roller.extend(turn.dice)
            board = await press(h, who, board, "roll")
        if turn.play is None:
            assert f"{name} cannot move with {turn.dice[0]}-{turn.dice[1]}" in board.content
            assert not [c for c in board.custom_ids if c.startswith("bgpk:")]  # no Play
            continue
        played = str(turn.play)
        picker = await open_picker(h, who, board)
        labels = groups_of(turn.play, combine=number % 2 == 0)
        if turn.only_larger:
            # One die only: every destination offered, from every checker, uses the larger.
            larger = max(turn.dice)
            for source in options(picker, "s").values():
                picker = await tapped(h, who, picker, "s", source)
                menu = picker.component(custom_id(picker, "d")).options
                assert all(o["description"].endswith(f"with {larger}") for o in menu), menu
        if number % 4 == 1 and turn.plays <= PLAYS_LISTED:
            whole = options(picker, "a")
            assert len(whole) == turn.plays
            picker = await tapped(h, who, picker, "a", whole[played])
        else:
            if number % 5 == 3:  # a step taken back, then everything reset
                picker = await choose(h, who, picker, labels[0])
                picker = await tapped(h, who, picker, "u")
                picker = await choose(h, who, picker, labels[0])
                picker = await tapped(h, who, picker, "r")
                assert "choose a checker" in picker.content
            for label in labels:
                assert "bgpk:c:" in custom_id(picker, "c")
                assert picker.component(custom_id(picker, "c")).disabled
                picker = await choose(h, who, picker, label)
        assert f"{played}. Press Confirm" in picker.content, (picker.content, played)
        board = await confirm(h, who, picker)
        assert f"{name} rolls {turn.dice[0]}-{turn.dice[1]} and plays {played}" in board.content
    assert await h.live() is None  # the game is over, and so the money game
    winner = players[plan.winner or 0].user.username
    assert f"{winner} wins" in board.content, board.content
    h.fake.assert_clean()
