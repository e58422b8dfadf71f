"""Issue #16 end to end: rematches, a thread per game, turn notices, games, settings, files.

Everything goes through the real bot and discord.py against the fake Discord, which records
thread creation, messages posted in threads and archiving, and what each message pings.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from renderers import render_board
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import (
    PERM_CREATE_PUBLIC_THREADS,
    FakeDiscord,
    RecordedMessage,
)
from tests.e2e.test_trust import ScriptedComputer

ROOT = Path(__file__).resolve().parents[2]


async def _money_game_resigned(h: Harness, channel: str = "games") -> RecordedMessage:
    """alice challenges bob to 3 points, bob accepts, alice (3-1) resigns a backgammon (the
    match) and bob accepts: the last board."""
    h.roller.extend([3, 1])
    challenge = await (
        await h.slash(h.alice, "challenge", channel=channel, opponent=h.bob.id, length=3)
    ).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    offer = await h.board_after(
        await h.slash(h.alice, "resign", channel=channel, kind="backgammon")
    )
    return await h.board_after(await h.press(h.bob, offer, "resign_accept"))


# --- rematch ---------------------------------------------------------------------------------


async def test_rematch_is_a_challenge_with_the_same_options_even_after_a_restart(
    harness: Harness,
) -> None:
    h = harness
    ended = await _money_game_resigned(h)
    assert "bob wins" in ended.content and [b.label for b in ended.buttons] == ["Rematch"]
    (mat,) = [a for a in ended.attachments if a.filename.endswith(".mat")]
    assert b" 3 point match" in mat.data

    stranger = await h.press(h.carol, ended, "rematch")
    assert "Only alice and bob" in await h.error_of(stranger)

    await h.restart()
    rematch = await h.board_after(await h.press(h.bob, ended, "rematch"))
    assert "bob challenges" in rematch.content and "3-point match" in rematch.content
    assert h.alice.mention in rematch.content
    assert sorted(b.label or "" for b in rematch.buttons) == ["Accept", "Decline"]
    assert ended.buttons == []  # a rematch button works once
    live = await h.live()
    assert live is not None and live.player_ids == (h.bob.id, h.alice.id)
    assert live.options.length == 3 and live.rated

    h.roller.extend([6, 1])
    started = await h.board_after(await h.press(h.alice, rematch, "accept"))
    assert "bob moves first with 6-1" in started.content


async def test_rematch_is_refused_while_the_channel_has_another_game(harness: Harness) -> None:
    h = harness
    ended = await _money_game_resigned(h)
    await (await h.slash(h.carol, "challenge", opponent=h.mod.id)).original_message()
    refused = await h.press(h.alice, ended, "rematch")
    assert "already has a game" in await h.error_of(refused)
    assert [b.label for b in ended.buttons] == ["Rematch"]  # still there for later


async def test_rematch_against_the_computer_starts_at_once(fake: FakeDiscord, tmp_path) -> None:
    computer = ScriptedComputer()
    h = Harness(fake, tmp_path / "gammon.db", computer=lambda level: computer)
    await h.start()
    try:
        h.roller.extend([6, 1])
        await h.board_after(await h.slash(h.alice, "play", level="beginner", length=1))
        ended = await h.board_after(await h.slash(h.alice, "resign"))
        assert "accepts the resignation" in ended.content
        h.roller.extend([6, 2])
        again = await h.board_after(await h.press(h.alice, ended, "rematch"))
        assert "alice plays a 1-point match against GammonBot (beginner)." in again.content
        live = await h.live()
        assert live is not None and live.status == "playing" and live.computer_level
    finally:
        await h.stop()


# --- a thread per game -----------------------------------------------------------------------


async def test_a_thread_per_game_frees_the_channel_and_reports_back(harness: Harness) -> None:
    h = harness
    refused = await h.slash(h.alice, "settings", threads="on")
    assert "Manage Messages" in await h.error_of(refused)
    done = await (await h.slash(h.mod, "settings", threads="on")).response()
    assert done.ephemeral and "a thread for each game" in (done.content or "")

    h.roller.extend([3, 1])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    accepted = await h.press(h.bob, challenge, "accept")
    note = await accepted.answer()
    assert "The game is on in <#" in (note.content or "")
    threads = [c for c in h.fake.guild.channels.values() if c.is_thread]
    assert len(threads) == 1
    thread = threads[0]
    assert thread.parent_id == h.fake.channel_id("games") and "alice vs bob" in (thread.name or "")
    (board,) = h.fake.messages_in(thread.id)
    assert "alice moves first with 3-1" in board.content and board.attachments

    # The channel is free for the next game while this one goes on in its thread.
    await (await h.slash(h.carol, "challenge", opponent=h.mod.id)).original_message()
    moved = await h.board_after(await h.slash(h.alice, "move", channel=thread.id, play="8/5 6/5"))
    assert moved.channel_id == thread.id

    offer = await h.board_after(await h.slash(h.alice, "resign", channel=thread.id))
    await h.board_after(await h.press(h.bob, offer, "resign_accept"))
    announced = await h.fake.wait_for_message(
        "games", lambda m: "bob wins" in (m.content or "") and not m.ephemeral
    )
    assert thread.mention in announced.content
    assert [b.label for b in announced.buttons] == ["Rematch"]
    assert any(a.filename.endswith(".mat") for a in announced.attachments)
    await h.fake.wait_for(lambda: thread.archived, 5, "the thread archived")


async def test_without_thread_permissions_the_game_stays_in_the_channel(
    fake: FakeDiscord, tmp_path
) -> None:
    for role in fake.guild.roles.values():  # @everyone and the bot's own role
        role.permissions &= ~PERM_CREATE_PUBLIC_THREADS
    h = Harness(fake, tmp_path / "gammon.db")
    await h.start()
    try:
        await (await h.slash(h.mod, "settings", threads="on")).response()
        h.roller.extend([3, 1])
        challenge = await (
            await h.slash(h.alice, "challenge", opponent=h.bob.id)
        ).original_message()
        board = await h.board_after(await h.press(h.bob, challenge, "accept"))
        assert "Create Public Threads" in board.content
        assert "alice moves first with 3-1" in board.content
        assert not [c for c in fake.guild.channels.values() if c.is_thread]
        live = await h.live()
        assert live is not None and live.status == "playing"
    finally:
        await h.stop()


# --- turn notices ----------------------------------------------------------------------------


async def _pings(h: Harness, message: RecordedMessage) -> set[str]:
    return h.fake.would_ping(message)


async def test_turn_notices_ping_once_a_turn_and_follow_each_setting(harness: Harness) -> None:
    h = harness
    h.roller.extend([3, 1, 6, 5, 4, 2, 5, 5])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    started = await h.board_after(await h.press(h.bob, challenge, "accept"))
    assert await _pings(h, started) == {f"user:{h.alice.id}"}  # bob accepted: alice's turn
    moved = await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    assert await _pings(h, moved) == {f"user:{h.bob.id}"}
    rolled = await h.board_after(await h.slash(h.bob, "roll"))
    assert await _pings(h, rolled) == set()  # bob is acting: no second ping this turn

    # alice: no pings at all.
    off = await (await h.slash(h.alice, "settings", notify="off")).response()
    assert "never pinged" in (off.content or "")
    bob_moved = await h.board_after(await h.slash(h.bob, "move", play="24/13"))
    assert await _pings(h, bob_moved) == set()

    # bob: only after 5 idle minutes, once.
    idle = await (await h.slash(h.bob, "settings", notify="idle", idle_minutes=5)).response()
    assert "after 5 idle minutes" in (idle.content or "")
    await h.board_after(await h.slash(h.alice, "roll"))
    alice_moved = await h.board_after(await h.slash(h.alice, "move", play="13/11 13/9"))
    assert await _pings(h, alice_moved) == set()
    cog = h.cog
    assert await cog.send_reminders() == 0  # not yet
    h.clock.advance(6 * 60)
    assert await cog.send_reminders() == 1
    reminder = h.fake.last_message("games")
    assert (
        reminder is not None and f"<@{h.bob.id}>, it's your turn against alice" in reminder.content
    )
    assert h.fake.would_ping(reminder) == {f"user:{h.bob.id}"}
    assert (
        "waiting 6 minutes" in reminder.content
        and "https://discord.com/channels/" in reminder.content
    )
    assert await cog.send_reminders() == 0  # once a turn
    await h.restart()
    assert await h.cog.send_reminders() == 0  # remembered across restarts


# --- games, board choices, export ------------------------------------------------------------


async def test_games_lists_my_live_games_with_links_turns_and_waits(harness: Harness) -> None:
    h = harness
    h.roller.extend([3, 1])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    board = await h.board_after(await h.press(h.bob, challenge, "accept"))
    await (
        await h.slash(h.carol, "challenge", channel="general", opponent=h.alice.id)
    ).original_message()
    h.clock.advance(7 * 60)
    listing = await (await h.slash(h.alice, "games")).response()
    assert listing.ephemeral
    text = listing.embeds[0]["description"]
    guild = h.fake.guild.id
    assert f"https://discord.com/channels/{guild}/{board.channel_id}/{board.id}" in text
    assert "vs bob: your turn, waiting 7 minutes." in text
    assert "challenge with carol: waiting for you to accept." in text
    bob = await (await h.slash(h.bob, "games")).response()
    assert "vs alice: alice's turn" in bob.embeds[0]["description"]
    nobody = await (await h.slash(h.mod, "games")).response()
    assert "no live games" in nobody.embeds[0]["description"]


async def test_the_public_board_uses_the_choices_of_the_player_to_act(harness: Harness) -> None:
    h = harness
    drawn: list[dict[str, Any]] = []

    def recording(game, **options):
        drawn.append(options)
        return render_board(game, **options)

    h.cog._renderer = recording
    await (await h.slash(h.bob, "settings", theme="dark", board="left")).response()
    h.roller.extend([3, 1, 6, 5])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    assert drawn[-1]["theme"] == "classic"  # alice to move
    assert drawn[-1]["home"] == "right"
    await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    assert drawn[-1]["theme"] == "dark"  # bob to roll: his colours
    assert drawn[-1]["home"] == "left"  # and his home board on the left


async def test_export_attaches_the_match_and_the_command_line_writes_it(
    harness: Harness, tmp_path: Path
) -> None:
    h = harness
    await _money_game_resigned(h)
    row = await h.service.store.latest_match(h.fake.channel_id("games"))
    assert row is not None
    exported = await (await h.slash(h.carol, "export")).response()
    (mat,) = exported.files
    assert mat.filename.endswith(".mat") and b" 3 point match" in mat.data
    sgf = await (await h.slash(h.carol, "export", match=row.id, format="sgf")).response()
    assert sgf.files[0].filename.endswith(".sgf") and sgf.files[0].data.startswith(b"(;")
    missing = await h.error_of(await h.slash(h.carol, "export", match=row.id + 50))
    assert f"no match #{row.id + 50}" in missing

    env = {**os.environ, "DATABASE_PATH": str(h.db_path), "PYTHONPATH": str(ROOT)}
    cli = subprocess.run(
        [sys.executable, "-m", "bot", "export", str(row.id)],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=30,
        check=False,
    )
    assert cli.returncode == 0, cli.stderr
    assert cli.stdout == mat.data
