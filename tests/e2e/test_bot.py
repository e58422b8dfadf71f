"""The real bot, end to end through discord.py against the local fake Discord.

Dice come from a scripted roller so every game is known in advance; the assertions check
what players see (text, PNG boards, buttons, ephemeral errors) and what the database holds.
"""

from __future__ import annotations

import asyncio

import pytest

from bot.core.records import Action
from bot.engine import Phase
from tests.e2e.conftest import Harness, png_size
from tests.e2e.fake_discord import CALLBACK_CHANNEL_MESSAGE

SUBCOMMANDS = {
    "challenge",
    "roll",
    "move",
    "double",
    "take",
    "drop",
    "position",
    "share",
    "resign",
    "board",
    "leaderboard",
    "stats",
    "history",
    "claim",
    "play",
    "hint",
    "analyze",
    "cancel",
    "help",
    "verify",
    "dice",
    "games",
    "settings",
    "export",
}


async def test_commands_are_synced_to_the_dev_guild_with_descriptions(harness: Harness) -> None:
    synced = await harness.fake.wait_for_commands(harness.fake.guild.id, names=["backgammon"])
    (group,) = [command for command in synced if command["name"] == "backgammon"]
    subs = {option["name"]: option for option in group["options"]}
    assert set(subs) == SUBCOMMANDS
    for sub in subs.values():
        assert sub["description"]
        for option in sub.get("options", []):
            assert option["description"], (sub["name"], option["name"])
    length = {o["name"]: o for o in subs["challenge"]["options"]}["length"]
    assert (length["min_value"], length["max_value"]) == (0, 25)
    assert {o["name"]: o for o in subs["move"]["options"]}["play"]["autocomplete"] is True
    kinds = {o["name"]: o for o in subs["resign"]["options"]}["kind"]
    assert [c["value"] for c in kinds["choices"]] == ["single", "gammon", "backgammon"]


async def test_money_game_with_a_take_and_a_dropped_redouble(harness: Harness) -> None:
    h = harness
    h.roller.extend([3, 1, 6, 5, 4, 2])
    result = await h.slash(h.alice, "challenge", opponent=h.bob.id)
    challenge = await result.original_message()
    assert "alice challenges" in challenge.content and h.bob.mention in challenge.content
    assert sorted(b.label or "" for b in challenge.buttons) == ["Accept", "Decline"]

    # Only the challenged player can accept.
    stranger = await h.press(h.carol, challenge, "accept")
    assert "This challenge is for bob" in await h.error_of(stranger)

    accepted = await h.press(h.bob, challenge, "accept")
    # A valid press is answered by the new board itself, a message of its own.
    board = await h.board_after(accepted)
    assert (await accepted.response()).type == CALLBACK_CHANNEL_MESSAGE
    assert board.id != challenge.id
    assert challenge.buttons == []  # pressed buttons are taken off
    assert "alice rolls 3, bob rolls 1: alice moves first with 3-1." in board.content
    assert h.alice.mention in board.content
    assert png_size(board.attachments[0].data)[0] >= 600

    # Autocomplete lists alice's legal plays, filtered by what she typed.
    choices = await h.fake.autocomplete(
        h.alice, "games", "backgammon", "move", focused="play", value="8/"
    )
    names = [c["name"] for c in choices]
    assert "8/5 6/5" in names and 0 < len(names) <= 25
    assert all(name.startswith("8/") or "8/" in name for name in names)
    assert (
        await h.fake.autocomplete(h.bob, "games", "backgammon", "move", focused="play", value="")
        == []
    )

    moved = await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    assert "alice rolls 3-1 and plays 8/5 6/5." in moved.content
    assert sorted(b.label or "" for b in moved.buttons) == ["Double", "Roll"]

    rolled = await h.board_after(await h.press(h.bob, moved, "roll"))
    assert "bob rolls 6-5." in rolled.content
    bob_moved = await h.board_after(await h.slash(h.bob, "move", play="24/13"))
    assert "bob rolls 6-5 and plays 24/13." in bob_moved.content

    doubled = await h.board_after(await h.press(h.alice, bob_moved, "double"))
    assert "alice doubles to 2." in doubled.content
    assert sorted(b.label or "" for b in doubled.buttons) == ["Drop", "Take"]
    wrong = await h.press(h.carol, doubled, "take")
    assert "not playing" in await h.error_of(wrong)
    taken = await h.board_after(await h.press(h.bob, doubled, "take"))
    assert "bob takes: the cube is at 2 and bob owns it." in taken.content
    # bob owns the cube, so alice may only roll.
    assert [b.label for b in taken.buttons] == ["Roll"]

    alice_rolled = await h.board_after(await h.press(h.alice, taken, "roll"))
    assert "alice rolls 4-2." in alice_rolled.content
    after = await h.board_after(await h.slash(h.alice, "move", play="8/4 6/4"))
    assert sorted(b.label or "" for b in after.buttons) == ["Double", "Roll"]

    redoubled = await h.board_after(await h.press(h.bob, after, "double"))
    assert "bob doubles to 4." in redoubled.content
    dropped = await h.board_after(await h.press(h.alice, redoubled, "drop"))
    assert "alice drops." in dropped.content
    assert "bob wins 2 points: the double was dropped." in dropped.content
    assert [b.label for b in dropped.buttons] == ["Rematch"]
    (match_file,) = [f for f in dropped.attachments if f.filename.endswith(".mat")]
    assert b"Wins 2 points" in match_file.data

    row = await h.service.store.latest_match(h.fake.channel_id("games"))
    assert row is not None and row.status == "finished" and row.winner == 1
    assert row.final_score == (0, 2)
    events = await h.service.store.events(row.id)
    assert [e.action for e in events].count(Action.ROLL) == 2
    stats = await h.service.stats(h.fake.guild.id, h.bob.id)
    assert stats is not None and stats.points_won == 2 and stats.match_wins == 1
    assert round(stats.rating, 6) == 1510.0  # two new players, n = 1: +10
    h.fake.assert_clean()


async def test_match_to_three_with_the_crawford_game(harness: Harness) -> None:
    h = harness
    # Openings: game 1 6-1 (alice), game 2 2-5 (bob), game 3 4-3 (alice), game 4 1-6 (bob).
    h.roller.extend([6, 1, 2, 5, 4, 3, 1, 6])
    result = await h.slash(h.alice, "challenge", opponent=h.bob.id, length=3)
    challenge = await result.original_message()
    assert "a 3-point match" in challenge.content
    board = await h.board_after(await h.press(h.bob, challenge, "accept"))
    assert "alice moves first with 6-1" in board.content

    # Game 1: bob offers to resign a gammon; alice accepts: 2-0, alice is at match point.
    offer = await h.board_after(await h.slash(h.bob, "resign", kind="gammon"))
    assert "bob offers to resign a gammon (2 points)" in offer.content
    assert sorted(b.label or "" for b in offer.buttons) == ["Accept resignation", "Reject"]
    not_mine = await h.press(h.bob, offer, "resign_accept")
    assert "must answer your offer" in await h.error_of(not_mine)
    game2 = await h.board_after(await h.press(h.alice, offer, "resign_accept"))
    assert "alice wins a gammon: 2 points (bob resigned)." in game2.content
    assert "Score: alice 2, bob 0 (match to 3)." in game2.content
    assert "This is the Crawford game: no doubling." in game2.content
    assert "bob moves first with 5-2" in game2.content

    # Crawford game: no doubling. bob plays, then alice resigns a single game: 2-1.
    await h.board_after(await h.slash(h.bob, "move", play="13/8 13/11"))
    refused = await h.slash(h.alice, "double")
    assert "No doubling in the Crawford game." in await h.error_of(refused)
    offer = await h.board_after(await h.slash(h.alice, "resign"))
    game3 = await h.board_after(await h.press(h.bob, offer, "resign_accept"))
    assert "Score: alice 2, bob 1 (match to 3)." in game3.content
    assert "Crawford" not in game3.content
    assert "alice moves first with 4-3" in game3.content

    # Post-Crawford: bob may double again; alice drops: 2-2.
    await h.board_after(await h.slash(h.alice, "move", play="24/20 13/10"))
    bob_turn = await h.board_after(await h.slash(h.bob, "board"))
    assert "Double" in [b.label for b in bob_turn.buttons]
    doubled = await h.board_after(await h.press(h.bob, bob_turn, "double"))
    game4 = await h.board_after(await h.press(h.alice, doubled, "drop"))
    assert "Score: alice 2, bob 2 (match to 3)." in game4.content
    assert "bob moves first with 6-1" in game4.content

    # Game 4: alice resigns; bob wins the match 3-2.
    offer = await h.board_after(await h.slash(h.alice, "resign"))
    final = await h.board_after(await h.press(h.bob, offer, "resign_accept"))
    assert "bob wins the 3-point match 3-2." in final.content
    row = await h.service.store.latest_match(h.fake.channel_id("games"))
    assert row is not None and row.status == "finished" and row.final_score == (2, 3)
    results = await h.service.store.game_results(row.id)
    assert [(g.result.winner, g.result.points) for g in results] == [(0, 2), (1, 1), (1, 1), (1, 1)]
    h.fake.assert_clean()


async def test_bad_input_gets_private_errors_and_changes_nothing(harness: Harness) -> None:
    h = harness
    assert "no game in this channel" in await h.error_of(await h.slash(h.alice, "board"))
    assert "can't challenge yourself" in await h.error_of(
        await h.slash(h.alice, "challenge", opponent=h.alice.id)
    )
    assert "Bots can't play" in await h.error_of(
        await h.slash(h.alice, "challenge", opponent=h.robot.id)
    )
    h.roller.extend([5, 2])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    assert "already has a game" in await h.error_of(
        await h.slash(h.carol, "challenge", opponent=h.mod.id)
    )
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    before = await h.live()
    assert before is not None and before.game is not None and before.game.phase is Phase.MOVE

    wrong = await h.error_of(await h.slash(h.alice, "move", play="13/7 8/7"))
    assert "13/7 8/7 is not legal with 5-2" in wrong
    long = await h.error_of(await h.slash(h.alice, "move", play="13/8 " * 600))
    assert "too long" in long
    assert "It's alice's turn." in await h.error_of(await h.slash(h.bob, "roll"))
    assert "not playing" in await h.error_of(await h.slash(h.carol, "move", play="13/8 13/11"))
    assert "Manage Messages" in await h.error_of(await h.slash(h.alice, "cancel"))

    after = await h.live()
    assert after is not None and after.version == before.version and after.game == before.game

    cancelled = await h.slash(h.mod, "cancel")
    assert "mod cancelled the game" in (await h.board_after(cancelled)).content
    assert await h.live() is None
    h.fake.assert_clean()


async def test_roll_pressed_twice_at_once_rolls_once(harness: Harness) -> None:
    h = harness
    h.roller.extend([3, 1, 6, 6, 2, 2])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    board = await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    (roll_id,) = [c for c in board.custom_ids if c.startswith("bg:roll:")]
    first, second = await asyncio.gather(
        h.fake.click(h.bob, board, roll_id), h.fake.click(h.bob, board, roll_id)
    )
    callbacks = [await first.response(), await second.response()]
    public = [c for c in callbacks if c.type == CALLBACK_CHANNEL_MESSAGE and not c.ephemeral]
    private = [c for c in callbacks if c.ephemeral]
    assert len(public) == 1 and len(private) == 1
    assert "earlier turn" in (private[0].content or "")  # the second press named the old turn
    row = await h.live()
    assert row is not None and row.game is not None and row.game.dice == (6, 6)
    events = await h.service.store.events(row.id)
    assert [e.action for e in events].count(Action.ROLL) == 1
    assert h.roller.remaining() == 2


async def test_a_pressed_board_has_lost_its_buttons_when_the_next_board_appears(
    harness: Harness,
) -> None:
    """The buttons come off the pressed message while the new board is drawn, and are gone
    by the time it is posted, even when that edit is slow: only the newest board can be
    pressed."""
    h = harness
    h.roller.extend([3, 1, 6, 6])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    assert h.fake.message(challenge.id).custom_ids == []
    board = await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    assert any(c.startswith("bg:roll:") for c in board.custom_ids)
    # Discord holds the edit back a moment (a rate limit): the new board waits for it.
    slow = h.fake.fail_requests("PATCH", r"/channels/\d+/messages/\d+$", 429, retry_after=0.3)
    await h.board_after(await h.press(h.bob, board, "roll"))
    assert slow.hits == 1
    assert h.fake.message(board.id).custom_ids == []


async def test_restart_between_moves_keeps_the_game_and_its_buttons(harness: Harness) -> None:
    h = harness
    h.roller.extend([4, 1, 5, 3])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    board = await h.board_after(await h.slash(h.alice, "move", play="24/23 13/9"))
    before = await h.live()

    await h.restart()

    assert await h.live() == before
    rolled = await h.board_after(await h.press(h.bob, board, "roll"))  # a pre-restart button
    assert "bob rolls 5-3." in rolled.content
    moved = await h.board_after(await h.slash(h.bob, "move", play="8/3 6/3"))
    assert "bob rolls 5-3 and plays 8/3 6/3." in moved.content
    history = await (await h.slash(h.carol, "history")).response()
    assert "alice 4-1: 24/23 13/9" in (history.content or "")
    assert "bob 5-3: 8/3 6/3" in (history.content or "")
    assert "Position ID" in (history.content or "")


async def test_claim_after_inactivity_and_the_leaderboard(harness: Harness) -> None:
    h = harness
    h.roller.extend([6, 2])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    await h.board_after(await h.slash(h.alice, "move", play="24/18 13/11"))
    early = await h.error_of(await h.slash(h.alice, "claim"))
    assert "60 minutes" in early
    h.clock.advance(61 * 60)
    assert "It's your turn" in await h.error_of(await h.slash(h.bob, "claim"))
    claimed = await h.board_after(await h.slash(h.alice, "claim"))
    assert "alice claims the win" in claimed.content
    assert "alice wins by forfeit." in claimed.content

    assert "does not change ratings" in claimed.content
    # A forfeit is recorded but never rated: nobody is on the leaderboard yet.
    board = await (await h.slash(h.carol, "leaderboard")).response()
    (embed,) = board.embeds
    assert embed["description"] == "No rated matches have been finished yet."
    stats = await (await h.slash(h.carol, "stats", user=h.bob.id)).response()
    assert "Matches: 1 (0 won, 1 lost)" in stats.embeds[0]["description"]
    help_ = await (await h.slash(h.carol, "help")).response()
    assert help_.ephemeral and "13/7 8/7" in help_.embeds[0]["description"]
    h.fake.assert_clean()


async def test_playing_the_computer_with_a_hint_and_an_analysis(harness: Harness) -> None:
    pytest.importorskip("bgsage")
    h = harness
    computer = h.fake.bot_user.username
    # Opening 6-1 for alice; then the computer rolls 3-1; then alice rolls 5-2.
    h.roller.extend([6, 1, 3, 1, 5, 2])
    started = await h.board_after(await h.slash(h.alice, "play", level="expert"))
    assert f"alice plays a game against {computer} (expert)." in started.content
    assert "alice moves first with 6-1" in started.content
    # Hints are fine in a game against the computer; they are private.
    hint = await h.slash(h.alice, "hint")
    advice = await hint.followup(0)
    assert advice.ephemeral and "1. 13/7 8/7" in (advice.content or "")

    replied = await h.board_after(await h.slash(h.alice, "move", play="13/7 8/7"))
    assert f"{computer} rolls 3-1 and plays 8/5 6/5." in replied.content
    assert f"{computer} rolls 3-1." not in replied.content
    assert replied.buttons and "Roll" in [b.label for b in replied.buttons]

    cube = await (await h.slash(h.alice, "hint")).followup(0)
    assert "Proper cube action: No double" in (cube.content or "")
    rolled = await h.board_after(await h.slash(h.alice, "roll"))
    assert "alice rolls 5-2." in rolled.content

    offer = await h.board_after(await h.slash(h.alice, "resign"))
    assert f"{computer} accepts the resignation." in offer.content
    assert f"{computer} wins a single game: 1 point (alice resigned)." in offer.content
    assert await h.live() is None

    analysis = await h.slash(h.alice, "analyze")
    report = await analysis.followup(0)
    assert "**alice**" in (report.content or "") and "millipoints per decision" in report.content
    assert computer not in (report.content or "").split("**alice**")[0]

    stats = await (await h.slash(h.alice, "stats")).response()
    assert "vs computer (expert): games 0/1 won" in stats.embeds[0]["description"]
    board = await (await h.slash(h.carol, "leaderboard")).response()
    assert "alice" not in board.embeds[0]["description"]
    h.fake.assert_clean()


async def test_challenging_the_bot_itself_starts_a_computer_game(harness: Harness) -> None:
    pytest.importorskip("bgsage")
    h = harness
    h.roller.extend([2, 5])  # the computer wins the opening and moves at once
    result = await h.slash(h.bob, "challenge", opponent=h.fake.bot_user.id, length=3)
    board = await h.board_after(result)
    computer = h.fake.bot_user.username
    assert f"bob plays a 3-point match against {computer}" in board.content
    assert f"{computer} moves first with 5-2" in board.content
    assert f"{computer} rolls 5-2 and plays" in board.content
    assert "Hints are off in rated games." not in board.content
    row = await h.live()
    assert row is not None and row.game is not None and row.game.actor == 0
    assert not row.rated and row.computer_level == "expert"


async def test_the_challenge_pings_the_opponent_even_inside_a_longer_name(
    harness: Harness,
) -> None:
    h = harness
    bobby = h.fake.create_member("bobby")
    result = await h.slash(bobby, "challenge", opponent=h.bob.id)
    text = (await result.original_message()).content or ""
    assert text.startswith(f"bobby challenges {h.bob.mention} to a money game")
