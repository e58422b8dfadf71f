"""A whole game played only with taps, through the real discord.py and the fake Discord."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from bot.core.errors import StaleButtonError
from bot.engine import Position
from bot.engine.steps import PartialPlay, Step, decode_steps, encode_steps
from cogs.picker import PLAYS_LISTED, PickerButton, PickerSelect, Tap, TapVerb, advance
from renderers import render_board
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import FakeDiscord, _ApiError, _validate_components
from tests.e2e.picker_support import (
    choose,
    confirm,
    custom_id,
    groups_of,
    open_picker,
    options,
    play_button_gone,
    play_by_taps,
    press,
    tap,
    tapped,
)
from tests.e2e.tap_game import FEATURES, covering_seed, script
from tests.e2e.test_trust import ScriptedComputer


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


async def test_the_whole_play_menu_leaves_once_a_checker_is_chosen_or_moved(
    harness: Harness,
) -> None:
    """One way to build at a time: the whole plays are offered before any checker is chosen;
    a chosen checker's destinations replace them (no menu repeats another's label, 24/13 with
    6-5), Undo takes the choice back and brings them again, and once a checker has moved no
    whole play is listed, so none can contradict or silently replace the moves built."""
    h = harness
    board = await start_game(h, (6, 5))
    picker = await open_picker(h, h.alice, board)
    whole = options(picker, "a")
    assert "24/13" in whole and len(whole) > 1
    picker = await tapped(h, h.alice, picker, "s", "24")
    assert sorted(options(picker, "d")) == ["24/13", "24/18"]
    assert not [c for c in picker.custom_ids if c.startswith("bgpk:a:")]
    assert not picker.component(custom_id(picker, "u")).disabled
    picker = await tapped(h, h.alice, picker, "u")  # the choice of checker taken back
    assert "choose a checker to move" in picker.content
    assert options(picker, "a") == whole
    assert picker.component(custom_id(picker, "u")).disabled  # nothing left to take back
    picker = await choose(h, h.alice, picker, "24/18")
    assert "24/18 so far" in picker.content
    assert not [c for c in picker.custom_ids if c.startswith("bgpk:a:")]
    picker = await choose(h, h.alice, picker, "13/8")
    assert not [c for c in picker.custom_ids if c.startswith("bgpk:a:")]
    after = await confirm(h, h.alice, picker)
    assert "alice rolls 6-5 and plays 24/18 13/8." in after.content
    h.fake.assert_clean()


async def test_undo_after_a_whole_play_takes_back_the_whole_play(harness: Harness) -> None:
    """ "Undo takes back your last choice": a whole play picked from the list is one choice,
    so one Undo leaves nothing built and the list is offered again."""
    h = harness
    board = await start_game(h, (3, 1))
    picker = await open_picker(h, h.alice, board)
    whole = options(picker, "a")
    picker = await tapped(h, h.alice, picker, "a", whole["8/5 6/5"])
    assert "8/5 6/5. Press Confirm" in picker.content
    picker = await tapped(h, h.alice, picker, "u")
    assert "choose a checker to move" in picker.content, picker.content
    assert options(picker, "a") == whole
    assert picker.component(custom_id(picker, "c")).disabled
    assert picker.component(custom_id(picker, "u")).disabled
    picker = await tapped(h, h.alice, picker, "a", whole["24/23 13/10"])
    after = await confirm(h, h.alice, picker)
    assert "alice rolls 3-1 and plays 24/23 13/10." in after.content
    h.fake.assert_clean()


def test_a_whole_play_tap_never_replaces_moves_already_built() -> None:
    """A whole-play tap carrying moves already built (a forged or stale id: the menu is gone
    by then) is refused, not a silent swap of the moves for the tapped play."""
    start = PartialPlay(Position.start(), (3, 1))
    built = start.then((Step(8, 3),))
    whole = encode_steps(((Step(13, 3), Step(24, 1)),))
    assert start.then(decode_steps(whole)[0]).complete  # the same tap from nothing is fine
    with pytest.raises(StaleButtonError):
        advance(built, Tap(TapVerb.WHOLE, 1, 1, encode_steps(built.groups)), [whole])


async def refused(h: Harness, result) -> str:
    """The private refusal a tap got (a new private message; the picker is left alone)."""
    callback = await result.response()
    assert callback.type == 4 and callback.ephemeral, callback
    return callback.content or ""


async def test_a_stranger_pressing_play_is_refused_privately(harness: Harness) -> None:
    h = harness
    board = await start_game(h, (3, 1))
    before = await h.live()
    for who in (h.carol, h.bob):
        text = await refused(h, await h.fake.click(who, board, custom_id(board, "o")))
        assert "Only alice can move now" in text
    after = await h.live()
    assert after is not None and before is not None and after.version == before.version
    h.fake.assert_clean()


async def test_a_stale_picker_changes_nothing_even_with_the_same_roll_again(
    harness: Harness,
) -> None:
    """alice builds 8/5 6/5 but plays another way by typing; bob plays; alice rolls 3-1
    again. Her old picker's Confirm would be a legal play now: it must still be refused."""
    h = harness
    board = await start_game(h, (3, 1))
    picker = await open_picker(h, h.alice, board)
    for move in ("8/5", "6/5"):
        picker = await choose(h, h.alice, picker, move)
    assert "Press Confirm" in picker.content
    typed = await h.board_after(await h.slash(h.alice, "move", play="13/10 24/23"))
    h.roller.extend([2, 1])
    rolled = await press(h, h.bob, typed, "roll")
    bob = await h.board_after(await h.slash(h.bob, "move", play="13/11 6/5"))
    # A tap on the picker now: the turn it was built for is over.
    text = await refused(h, await tap(h, h.alice, picker, "u"))
    assert "That turn is over" in text
    h.roller.extend([3, 1])
    again = await press(h, h.alice, bob, "roll")
    before = await h.live()
    text = await refused(h, await tap(h, h.alice, picker, "c"))
    assert "That turn is over" in text
    after = await h.live()
    assert after is not None and before is not None
    assert (after.version, after.game) == (before.version, before.game)
    assert h.fake.message(picker.id).content == picker.content  # the picker is left alone
    # The fresh board's picker works.
    moved = await play_by_taps(h, h.alice, again, ["8/5", "6/5"])
    assert "alice rolls 3-1 and plays 8/5 6/5" in moved.content
    assert rolled.id != moved.id
    h.fake.assert_clean()


async def test_a_picker_survives_a_restart_and_a_stale_one_is_refused_after_it(
    harness: Harness,
) -> None:
    h = harness
    board = await start_game(h, (3, 1))
    picker = await open_picker(h, h.alice, board)
    picker = await choose(h, h.alice, picker, "8/5")
    await h.restart()
    picker = await choose(h, h.alice, picker, "6/5")  # nothing was in memory
    moved = await confirm(h, h.alice, picker)
    assert "alice rolls 3-1 and plays 8/5 6/5" in moved.content
    # bob opens a picker, plays by typing instead, and the bot restarts: the picker is stale.
    h.roller.extend([6, 5])
    rolled = await press(h, h.bob, moved, "roll")
    stale = await open_picker(h, h.bob, rolled)
    await h.board_after(await h.slash(h.bob, "move", play="24/13"))
    await h.restart()
    before = await h.live()
    for result in (
        await tap(h, h.bob, stale, "s", "24"),
        await h.fake.click(h.bob, rolled, custom_id(rolled, "o")),
    ):
        assert "That turn is over" in await refused(h, result)
    after = await h.live()
    assert after is not None and before is not None and after.version == before.version
    h.fake.assert_clean()


async def test_resigning_from_the_picker_offers_it_on_the_board(harness: Harness) -> None:
    h = harness
    board = await start_game(h, (3, 1))
    picker = await open_picker(h, h.alice, board)
    picker = await tapped(h, h.alice, picker, "g")
    kinds = options(picker, "k")
    assert list(kinds) == ["A single game", "A gammon", "A backgammon"]
    back = await tapped(h, h.alice, picker, "b")
    assert "bgpk:s:" in str(back.custom_ids)
    picker = await tapped(h, h.alice, back, "g")
    result = await tap(h, h.alice, picker, "k", kinds["A gammon"])
    offer = await result.answer()
    assert not offer.ephemeral and "alice offers to resign" in offer.content, offer.content
    assert sorted(b.label or "" for b in offer.buttons) == ["Accept resignation", "Reject"]
    after = h.fake.message(picker.id)
    assert after.components == [] and "resignation" in after.content
    await play_button_gone(h, board)
    h.fake.assert_clean()


async def test_the_picker_speaks_the_players_language(harness: Harness) -> None:
    h = harness
    board = await start_game(h, (3, 1))
    result = await h.fake.click(h.alice, board, custom_id(board, "o"), locale="fr")
    callback = await result.response()
    assert callback.ephemeral and callback.message is not None
    picker = h.fake.message(callback.message.id)
    assert picker.content.startswith("Votre 3-1 : choisissez une dame à jouer")
    assert [b.label for b in picker.buttons] == ["Annuler", "Recommencer", "Valider", "Abandonner"]
    assert "case 13 (5 dames)" in options(picker, "s")
    chosen = await h.fake.click(h.alice, picker, custom_id(picker, "s"), values=["8"], locale="fr")
    await chosen.response()
    menu = h.fake.message(picker.id).component(custom_id(h.fake.message(picker.id), "d"))
    assert {(o["label"], o["description"]) for o in menu.options} >= {("8/5", "avec 3")}
    h.fake.assert_clean()


@pytest.mark.parametrize(
    "option",
    [
        {"label": "x" * 101, "value": "v"},
        {"label": "", "value": "v"},
        {"label": "l", "value": "v" * 101},
        {"label": "l", "value": "v", "description": "d" * 101},
    ],
)
def test_the_fake_refuses_select_options_discord_refuses(option: dict) -> None:
    select = {"type": 3, "custom_id": "menu", "options": [option]}
    with pytest.raises(_ApiError):
        _validate_components([{"type": 1, "components": [select]}], v2=False)
    twice = {"type": 3, "custom_id": "menu", "options": [{"label": "a", "value": "v"}] * 2}
    with pytest.raises(_ApiError):
        _validate_components([{"type": 1, "components": [twice]}], v2=False)


async def test_taps_against_the_computer_get_its_reply_in_the_same_board(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    computer = ScriptedComputer()
    h = Harness(fake, tmp_path / "gammon.db", computer=lambda level: computer)
    await h.start()
    try:
        h.roller.extend([6, 1, 3, 1, 5, 2])  # alice opens 6-1; the computer rolls 3-1
        started = await h.board_after(await h.slash(h.alice, "play", level="beginner"))
        moved = await play_by_taps(h, h.alice, started, ["13/7", "8/7"])
        assert "alice rolls 6-1 and plays 13/7 8/7." in moved.content
        assert "GammonBot rolls 3-1 and plays" in moved.content
        assert not [c for c in moved.custom_ids if c.startswith("bgpk:")]  # alice to roll
        rolled = await press(h, h.alice, moved, "roll")
        assert custom_id(rolled, "o")  # her Play button; never one for the computer
        fake.assert_clean()
    finally:
        await h.stop()


async def test_a_slow_picture_is_deferred_then_shown_in_the_picker(harness: Harness) -> None:
    """A picture that takes past the 2 s watchdog: the tap is acknowledged in time (type 6)
    and the picker is then opened or replaced all the same, privately."""
    h = harness
    board = await start_game(h, (3, 1))
    cog = h.cog

    def slow(game, **options):  # runs in a thread: the event loop stays free
        time.sleep(2.3)
        return render_board(game, **options)

    cog._renderer = slow
    opened = await h.fake.click(h.alice, board, custom_id(board, "o"))
    assert (await opened.response()).type == 6
    await opened.wait_for(lambda r: r.followups, 10, "the picker")
    picker = h.fake.message(opened.followups[0].id)
    assert picker.ephemeral and picker.attachments
    chosen = await tap(h, h.alice, picker, "s", "8")
    # Deferred (6) when the watchdog fires first; on a loaded machine the watchdog can run
    # after the picture is ready, and then the picture itself is the answer (7), in time.
    assert (await chosen.response()).type in (6, 7)
    await h.fake.wait_for(
        lambda: any(c.startswith("bgpk:d:") for c in h.fake.message(picker.id).custom_ids),
        10,
        "the destinations",
    )
    assert h.fake.message(picker.id).ephemeral
    assert not [r for r in (opened, chosen) if r.late]
    h.fake.assert_clean()


async def test_a_picker_of_a_claimed_game_says_the_game_is_over(harness: Harness) -> None:
    h = harness
    board = await start_game(h, (3, 1))
    picker = await open_picker(h, h.alice, board)
    h.clock.advance(2 * 3600)  # alice sat on her turn past the limit: bob claims
    claimed = await h.board_after(await h.slash(h.bob, "claim"))
    assert "bob" in claimed.content and await h.live() is None
    for result in (
        await tap(h, h.alice, picker, "s", "8"),
        await h.fake.click(h.alice, board, custom_id(board, "o")),
    ):
        assert "That game is over" in await refused(h, result)
    h.fake.assert_clean()


@pytest.mark.parametrize(
    "tap, item",
    [
        (Tap(TapVerb.DESTINATION, 2**63 - 1, 10**12 - 1, "y1x1.w1v1", 25), PickerSelect),
        (
            Tap(TapVerb.UNDO, 2**63 - 1, 10**12 - 1, "y1.x1.w1", 25),
            PickerButton,
        ),  # a chosen checker
        (
            Tap(TapVerb.WHOLE, 2**63 - 1, 10**12 - 1, "y1x1w1v1"),
            PickerSelect,
        ),  # a whole play, one tap
    ],
)
def test_the_longest_custom_id_fits_discords_limit_and_parses_back(
    tap: Tap, item: type[PickerSelect | PickerButton]
) -> None:
    text = tap.custom_id()
    assert len(text) <= 100
    match = re.fullmatch(item.__discord_ui_compiled_template__, text)
    assert match is not None and Tap.parse(match) == tap
