"""Issue #12: promises players rely on, under races, failures and hostile names.

Each test drives the real bot through discord.py against the fake Discord and failed on the
code before the fix: a stale button acting on another game, a computer turn left open for
good, "unchanged" after a stored move, an interaction lost to a locked database, names that
ping, and an unreadable game blocking its channel.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from dataclasses import dataclass

import pytest

from bot.computer import CubeDecision
from bot.engine import Game, Phase, Play
from cogs import replies
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import CALLBACK_CHANNEL_MESSAGE, FakeDiscord

# --- a scripted computer opponent ------------------------------------------------------------


@dataclass
class ScriptedComputer:
    """Plays the first legal play, never doubles, takes every double; can fail on demand."""

    fail_plays: int = 0  # this many choose_play calls raise (an evaluation failure)
    plays: int = 0

    def choose_play(self, game: Game) -> Play:
        if self.fail_plays > 0:
            self.fail_plays -= 1
            raise RuntimeError("the evaluator crashed (scripted)")
        self.plays += 1
        return sorted(game.legal_plays(), key=str)[0]

    def should_double(self, game: Game) -> bool:
        return False

    def cube_response(self, game: Game) -> CubeDecision:
        return CubeDecision.TAKE

    def accepts_resignation(self, game: Game) -> bool:
        return True


# --- 1. a button acts on the game it names, or on none ---------------------------------------


async def test_accept_on_a_withdrawn_challenge_never_joins_the_next_one(harness: Harness) -> None:
    """bob presses Accept on alice's challenge while alice withdraws it and carol challenges
    him: bob may start alice's game (his press came first) but never carol's."""
    h = harness
    h.roller.extend([3, 1])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()

    store = h.service.store
    original = store.live_match
    armed = True

    async def slow_read(channel_id: int):  # the press's read is slow: the race's window
        nonlocal armed
        row = await original(channel_id)
        if armed:
            armed = False
            await asyncio.sleep(0.8)
        return row

    store.live_match = slow_read  # type: ignore[method-assign]
    bob_accepts = await h.press(h.bob, challenge, "accept")
    await asyncio.sleep(0.2)
    alice_withdraws = await h.press(h.alice, challenge, "decline")
    await alice_withdraws.response()
    carol_challenges = await h.slash(h.carol, "challenge", opponent=h.bob.id)
    await carol_challenges.response()
    await bob_accepts.response()
    await asyncio.sleep(0.3)

    live = await h.live()
    assert live is None or set(live.player_ids) == {h.alice.id, h.bob.id}, live
    channel = h.fake.channel_id("games")
    for row in await store.live_matches():
        if row.channel_id == channel:
            assert row.status != "playing" or h.carol.id not in row.player_ids


async def test_a_button_of_an_expired_challenge_is_refused(harness: Harness) -> None:
    h = harness
    old = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    h.clock.advance(16 * 60)  # alice's challenge expires
    await (await h.slash(h.carol, "challenge", opponent=h.bob.id)).original_message()
    stale = await h.press(h.bob, old, "accept")
    assert "belongs to a game that is over" in await h.error_of(stale)
    live = await h.live()
    assert live is not None and live.status == "challenge" and live.player_ids[0] == h.carol.id


# --- 2. a computer turn is never left half-done ---------------------------------------------


async def _computer_game(fake: FakeDiscord, tmp_path, computer: ScriptedComputer) -> Harness:
    h = Harness(fake, tmp_path / "gammon.db", computer=lambda level: computer)
    await h.start()
    return h


async def test_a_failed_computer_turn_finishes_by_itself(fake: FakeDiscord, tmp_path) -> None:
    """The computer's evaluation fails once after the human's move: the move is kept, and
    within seconds the computer plays and the board is posted, with nobody typing."""
    computer = ScriptedComputer()
    h = await _computer_game(fake, tmp_path, computer)
    try:
        h.roller.extend([6, 1, 3, 1])  # alice opens with 6-1; the computer then rolls 3-1
        started = await h.board_after(await h.slash(h.alice, "play", level="beginner"))
        assert "alice, move your 6-1" in started.content  # she asked: no ping
        computer.fail_plays = 1
        moved = await h.board_after(await h.slash(h.alice, "move", play="13/7 8/7"))
        assert "alice rolls 6-1 and plays 13/7 8/7." in moved.content
        channel = fake.channel_id("games")
        board = await fake.wait_for_message(
            channel, lambda m: "GammonBot rolls 3-1 and plays" in (m.content or "")
        )
        assert board.attachments and h.alice.mention in board.content
        row = await h.live()
        assert row is not None and row.game is not None and row.game.actor == 0
        assert row.game.phase is Phase.ROLL
    finally:
        await h.stop()


async def test_a_computer_turn_left_open_is_resumed_at_start_up(
    fake: FakeDiscord, tmp_path
) -> None:
    """A game saved with the computer to act (its evaluation failed, then the bot went down)
    goes on by itself when the bot starts again."""
    computer = ScriptedComputer()
    h = await _computer_game(fake, tmp_path, computer)
    try:
        h.roller.extend([6, 1, 3, 1])
        await h.board_after(await h.slash(h.alice, "play", level="beginner"))
        computer.fail_plays = 10  # keeps failing until the restart
        await h.board_after(await h.slash(h.alice, "move", play="13/7 8/7"))
        await h.stop()
        computer.fail_plays = 0
        await h.start()
        channel = fake.channel_id("games")
        await fake.wait_for_message(
            channel, lambda m: "GammonBot rolls 3-1 and plays" in (m.content or ""), timeout=10
        )
        row = await h.live()
        assert row is not None and row.game is not None and row.game.actor == 0
    finally:
        await h.stop()


async def test_the_computer_reply_is_stored_with_the_human_move(
    fake: FakeDiscord, tmp_path
) -> None:
    """One action, one write: the human's move and the computer's whole turn share a version,
    so no crash can store one without the other."""
    computer = ScriptedComputer()
    h = await _computer_game(fake, tmp_path, computer)
    try:
        h.roller.extend([6, 1, 3, 1])
        await h.board_after(await h.slash(h.alice, "play", level="beginner"))
        before = await h.live()
        assert before is not None
        reply = await h.board_after(await h.slash(h.alice, "move", play="13/7 8/7"))
        assert "GammonBot rolls 3-1 and plays" in reply.content
        after = await h.live()
        assert after is not None and after.version == before.version + 1
        events = await h.service.store.events(after.id)
        assert [e.action for e in events][-3:] == ["move", "roll", "move"]
    finally:
        await h.stop()


# --- 3. after a commit, a Discord failure is never "unchanged" -----------------------------


async def _alice_to_move(h: Harness) -> None:
    h.roller.extend([3, 1])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))


def _says_unchanged(fake: FakeDiscord) -> list[str]:
    return [r.content for r in fake.message_requests if "unchanged" in (r.content or "")]


CALLBACK_ROUTE = r"/interactions/\d+/[^/]+/callback$"


async def test_a_lost_interaction_after_the_move_still_shows_the_board(harness: Harness) -> None:
    """Discord loses the interaction (404) after the move is stored: the board goes to the
    channel directly and nobody is told the game is unchanged. (A command's board is its
    response.)"""
    h = harness
    await _alice_to_move(h)
    rule = h.fake.fail_requests("POST", CALLBACK_ROUTE, 404, count=5, code=10062)
    await h.slash(h.alice, "move", play="8/5 6/5")
    channel = h.fake.channel_id("games")
    board = await h.fake.wait_for_message(
        channel, lambda m: "alice rolls 3-1 and plays 8/5 6/5." in (m.content or "")
    )
    assert board.attachments and not board.ephemeral
    assert rule.hits >= 1
    assert _says_unchanged(h.fake) == []
    row = await h.live()
    assert row is not None and row.game is not None and row.game.on_roll == 1


async def test_a_lost_interaction_after_a_roll_still_shows_the_board(harness: Harness) -> None:
    """The same for a pressed button."""
    h = harness
    await _alice_to_move(h)
    h.roller.extend([5, 2])
    board = await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    rule = h.fake.fail_requests("POST", CALLBACK_ROUTE, 404, count=5, code=10062)
    await h.press(h.bob, board, "roll")
    rolled = await h.fake.wait_for_message(
        h.fake.channel_id("games"), lambda m: "bob rolls 5-2" in (m.content or "")
    )
    assert rolled.attachments and not rolled.ephemeral
    assert rule.hits >= 1
    assert _says_unchanged(h.fake) == []
    row = await h.live()
    assert row is not None and row.game is not None and row.game.dice == (5, 2)


async def test_a_discord_500_after_the_move_posts_the_board_once(harness: Harness) -> None:
    h = harness
    await _alice_to_move(h)
    h.fake.fail_requests("POST", CALLBACK_ROUTE, 500, count=1)
    result = await h.slash(h.alice, "move", play="8/5 6/5")
    board = await h.board_after(result)
    assert "alice rolls 3-1 and plays 8/5 6/5." in board.content
    await asyncio.sleep(0.3)
    posts = [
        m
        for m in h.fake.messages_in("games")
        if "plays 8/5 6/5" in (m.content or "") and not m.deleted
    ]
    assert len(posts) == 1
    assert _says_unchanged(h.fake) == []


async def test_the_watchdog_never_defers_a_command_whose_answer_is_on_its_way(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command's board is its response. When Discord holds that response back (a rate
    limit) past the watchdog's time, the watchdog must not send a deferral of its own: the
    interaction would be answered twice, and Discord refuses the second (40060)."""
    monkeypatch.setattr(replies, "WATCHDOG_SECONDS", 0.4)
    h = harness
    await _alice_to_move(h)
    slow = h.fake.fail_requests("POST", CALLBACK_ROUTE, 429, retry_after=1.0)
    result = await h.slash(h.alice, "move", play="8/5 6/5")
    board = await h.board_after(result)
    assert slow.hits == 1
    assert (await result.response()).type == CALLBACK_CHANNEL_MESSAGE
    assert "alice rolls 3-1 and plays 8/5 6/5." in board.content
    await asyncio.sleep(0.3)  # a deferral sent late would have arrived by now
    assert [e for e in h.fake.errors if e.status == 400] == []


async def test_a_database_locked_for_4_seconds_does_not_fail_the_interaction(
    harness: Harness,
) -> None:
    """Another connection holds the write lock for 4 s: the move is acknowledged in time (by
    the watchdog) and answered when the write goes through, not lost to Discord's 3-second
    limit."""
    h = harness
    await _alice_to_move(h)
    locked, release = threading.Event(), threading.Event()

    def hold_lock() -> None:
        connection = sqlite3.connect(h.db_path, timeout=10)
        connection.execute("BEGIN IMMEDIATE")
        locked.set()
        release.wait(4.0)
        connection.rollback()
        connection.close()

    holder = threading.Thread(target=hold_lock)
    holder.start()
    try:
        assert locked.wait(5)
        result = await h.slash(h.alice, "move", play="8/5 6/5")
        callback = await result.response()
        assert callback.type == 5 and not callback.ephemeral  # deferred in time
        board = await result.followup(0, timeout=10)
        assert "alice rolls 3-1 and plays 8/5 6/5." in board.content
        assert not result.late
    finally:
        release.set()
        holder.join()
    row = await h.live()
    assert row is not None and row.game is not None and row.game.on_roll == 1
    h.fake.assert_clean()


# --- 4. names never ping, and are shown as written -------------------------------------------


async def test_hostile_names_ping_nobody(fake: FakeDiscord, tmp_path) -> None:
    """Players named ``@everyone`` and ``<@victim>`` play, look at history, stats and the
    leaderboard: every message the bot sends pings at most the player who must act."""
    h = Harness(fake, tmp_path / "gammon.db")
    victim = fake.create_member("victim")
    role = fake.add_role(None, "members")
    everyone = fake.create_member("@everyone")
    sneaky = fake.create_member(f"<@{victim.id}> <@&{role.id}> **bold**")
    await h.start()
    try:
        h.roller.extend([3, 1, 6, 5])
        channel = "games"
        result = await fake.slash(
            everyone, channel, "backgammon", "challenge", options={"opponent": sneaky.id}
        )
        challenge = await result.original_message()
        assert sneaky.mention in challenge.content  # the challenged player is pinged
        (accept_id,) = [c for c in challenge.custom_ids if c.startswith("bg:accept:")]
        await h.board_after(await fake.click(sneaky, challenge, accept_id))
        await h.board_after(
            await fake.slash(everyone, channel, "backgammon", "move", options={"play": "8/5 6/5"})
        )
        await h.board_after(await fake.slash(sneaky, channel, "backgammon", "roll"))
        for sub in ("history", "board", "stats", "leaderboard"):
            await (await fake.slash(sneaky, channel, "backgammon", sub)).original_message()
        resigned = await h.board_after(
            await fake.slash(sneaky, channel, "backgammon", "resign", options={"kind": "single"})
        )
        (yes,) = [c for c in resigned.custom_ids if c.startswith("bg:resign_accept:")]
        await h.board_after(await fake.click(everyone, resigned, yes))
        history = await (await fake.slash(sneaky, channel, "backgammon", "history")).response()
        stats = await (
            await fake.slash(sneaky, channel, "backgammon", "stats", options={"user": sneaky.id})
        ).response()
        await asyncio.sleep(0.2)

        players = {f"user:{everyone.id}", f"user:{sneaky.id}"}
        assert fake.message_requests
        for request in fake.message_requests:
            pinged = fake.would_ping(request)
            assert pinged <= players, (pinged, request.content)
            assert request.allowed_mentions is not None, request.content
        everything = "\n".join(r.content or "" for r in fake.message_requests)
        assert "@everyone" not in everything  # shown escaped: @\u200beveryone
        assert f"<@{victim.id}>" not in everything and f"<@&{role.id}>" not in everything
        assert "\\*\\*bold\\*\\*" in everything  # markdown shown as typed, not as bold
        assert "@\u200beveryone" in (history.content or "")
        embed_text = str(stats.embeds)
        assert "**bold**" not in embed_text and "@everyone" not in embed_text
    finally:
        await h.stop()


# --- 6. an unreadable game is set aside; the channel and the others go on --------------------


def _corrupt(h: Harness, match_id: int) -> None:
    """A bad write by someone else: the state no longer parses (and its version moved on)."""
    with sqlite3.connect(h.db_path) as connection:
        connection.execute(
            "UPDATE matches SET state = '{\"broken', version = version + 1 WHERE id = ?",
            (match_id,),
        )


async def test_a_corrupted_game_frees_its_channel_and_leaves_the_others_alone(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    h.roller.extend([3, 1])
    other = await (
        await h.slash(h.carol, "challenge", channel="general", opponent=h.mod.id)
    ).original_message()
    await h.board_after(await h.press(h.mod, other, "accept"))  # carol to move 3-1 there
    await _alice_to_move(h)
    broken = await h.live()
    assert broken is not None
    _corrupt(h, broken.id)

    with caplog.at_level(logging.ERROR):
        error = await h.error_of(await h.slash(h.alice, "move", play="8/5 6/5"))
    assert f"Match #{broken.id}" in error and "Start a new game" in error
    assert any(f"match {broken.id}" in r.getMessage() for r in caplog.records)
    assert await h.live() is None

    # The other channel never noticed.
    moved = await h.board_after(await h.slash(h.carol, "move", channel="general", play="8/5 6/5"))
    assert "carol rolls 3-1 and plays 8/5 6/5." in moved.content

    # The freed channel takes a new game; a moderator can cancel a corrupted one.
    again = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    fresh = await h.live()
    assert fresh is not None and fresh.id != broken.id and again.buttons
    _corrupt(h, fresh.id)
    cancelled = await (await h.slash(h.mod, "cancel")).original_message()
    assert f"cancelled match #{fresh.id}" in (cancelled.content or "")
    assert not cancelled.ephemeral
    assert await h.live() is None
    history = await (await h.slash(h.bob, "history")).response()  # skips the unreadable rows
    assert "Something went wrong" not in (history.content or "")
