"""Issue #25, part C, end to end: /analyze never shows a game still being played, a review
owed at shutdown is posted after the restart, and a reminder Discord did not take is sent
again at the next round."""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

import pytest

from bot.engine import Game
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import FakeDiscord, RecordedMessage

MESSAGES = r"/channels/\d+/messages$"


async def _rated_game(h: Harness) -> RecordedMessage:
    """alice challenges bob to a rated 3-point match; bob accepts; alice opens with 3-1."""
    h.roller.extend([3, 1])
    challenge = await (
        await h.slash(h.alice, "challenge", opponent=h.bob.id, length=3)
    ).original_message()
    return await h.board_after(await h.press(h.bob, challenge, "accept"))


async def test_analyze_of_a_rated_game_in_play_is_refused_privately(harness: Harness) -> None:
    h = harness
    await _rated_game(h)
    assert (await h.live()).rated
    for who in (h.alice, h.carol):
        result = await h.slash(who, "analyze")
        error = await h.error_of(result)
        assert "finished games only" in error
    # nothing public was posted about it
    last = h.fake.last_message("games")
    assert last is not None and "millipoints" not in (last.content or "")
    h.fake.assert_clean()


async def test_a_review_owed_at_shutdown_is_posted_after_the_restart(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    pytest.importorskip("bgsage")
    h = Harness(fake, tmp_path / "gammon.db", game_reviews=True)
    await h.start()
    try:
        stuck = asyncio.Event()

        async def never(*args: object, **kwargs: object) -> NoReturn:
            stuck.set()
            await asyncio.Event().wait()  # the lane is still busy when the bot stops
            raise AssertionError("unreachable")

        h.service.workers.review_log = never  # type: ignore[method-assign]
        h.roller.extend([6, 1, 5, 2, 4, 1])  # and the next game's opening
        challenge = await (
            await h.slash(h.alice, "challenge", opponent=h.bob.id, length=3)
        ).original_message()
        await h.board_after(await h.press(h.bob, challenge, "accept"))
        await h.board_after(await h.slash(h.alice, "move", play="13/7 8/7"))
        await h.board_after(await h.slash(h.bob, "roll"))
        offer = await h.board_after(await h.slash(h.bob, "resign", kind="single"))
        await h.board_after(await h.press(h.alice, offer, "resign_accept"))
        await asyncio.wait_for(stuck.wait(), 10)
        latest = await h.service.store.latest_match(fake.channel_id("games"))
        assert latest is not None
        match_id = latest.id
        assert await h.service.store.pending_reviews() == [(match_id, 1)]

        await h.restart()
        review = await fake.wait_for_message(
            "games", lambda m: "Game 1: skill and luck" in (m.content or ""), timeout=30
        )
        assert "**alice**: PR " in review.content and ". Luck " in review.content
        for _ in range(50):
            if not await h.service.store.pending_reviews():
                break
            await asyncio.sleep(0.1)
        assert await h.service.store.pending_reviews() == []
        await h.restart()  # posted once: not again
        await asyncio.sleep(0.5)
        reviews = [m for m in fake.messages_in("games") if "skill and luck" in (m.content or "")]
        assert len(reviews) == 1
    finally:
        await h.stop()


async def test_a_reminder_discord_did_not_take_is_sent_at_the_next_round(
    harness: Harness,
) -> None:
    h = harness
    h.roller.extend([3, 1])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    await (await h.slash(h.bob, "settings", notify="idle", idle_minutes=5)).response()
    await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    cog = h.cog
    h.clock.advance(6 * 60)
    outage = h.fake.fail_requests("POST", MESSAGES, 503)
    assert await cog.send_reminders() == 0
    assert outage.hits == 1
    assert await cog.send_reminders() == 1  # the next round: sent, and only now marked
    reminder = h.fake.last_message("games")
    assert reminder is not None and f"<@{h.bob.id}>, it's your turn" in reminder.content
    assert await cog.send_reminders() == 0  # once a turn


async def test_a_computer_that_keeps_failing_is_left_to_a_moderator(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The computer's turn fails again and again: it is retried with longer and longer waits
    (not every few seconds for ever), then the channel is told once that a moderator can
    cancel the game, the retries stop, and the moderator's cancel works."""
    from bot.core.opponent import COMPUTER_ATTEMPTS
    from tests.e2e.test_trust import ScriptedComputer

    computer = ScriptedComputer()
    h = Harness(fake, tmp_path / "gammon.db", computer=lambda level: computer)
    await h.start()
    try:
        # on_ready (2 s after the guilds arrive) resumes computer turns too: let it pass
        await fake.wait_for(
            lambda: h.bot is not None and h.bot.is_ready(), 10, "the bot's on_ready"
        )
        tries: list[float] = []
        loop = asyncio.get_running_loop()
        original = computer.choose_play

        def failing(game: Game) -> NoReturn:
            tries.append(loop.time())
            raise RuntimeError("the evaluator crashed (scripted)")

        computer.choose_play = failing  # type: ignore[method-assign]
        h.service.settings = replace(h.service.settings, computer_retry=0.05)
        h.roller.extend([6, 1, 3, 1])
        await h.board_after(await h.slash(h.alice, "play", level="beginner"))
        await h.board_after(await h.slash(h.alice, "move", play="13/7 8/7"))
        notice = await fake.wait_for_message(
            "games", lambda m: "computer cannot play this game" in (m.content or ""), timeout=15
        )
        assert "/backgammon cancel" in notice.content and fake.would_ping(notice) == set()
        assert len(tries) == COMPUTER_ATTEMPTS
        waits = [later - earlier for earlier, later in itertools.pairwise(tries)]
        assert all(b > 1.8 * a for a, b in itertools.pairwise(waits)), waits  # 3 times longer
        await asyncio.sleep(5.0)  # another try would come 4.05 s after the last
        assert len(tries) == COMPUTER_ATTEMPTS  # no more timers
        notices = [m for m in fake.messages_in("games") if "cannot play" in (m.content or "")]
        assert len(notices) == 1

        computer.choose_play = original  # type: ignore[method-assign]
        cancelled = await h.board_after(await h.slash(h.mod, "cancel"))
        assert "cancelled the game" in cancelled.content
        assert await h.live() is None
    finally:
        await h.stop()


async def test_a_board_that_cannot_be_noted_is_logged_not_swallowed(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The board is out; only its link for /games is lost, and the log says so."""
    h = harness

    async def broken(match_id: int, channel_id: int, message_id: int) -> None:
        raise OSError("disk I/O error")

    h.service.store.note_board = broken  # type: ignore[method-assign]
    with caplog.at_level(logging.ERROR, logger="cogs.publishing"):
        board = await _rated_game(h)
    assert board.attachments  # the board was posted all the same
    match_id = (await h.live()).id
    noted = [r for r in caplog.records if "could not note the board" in r.getMessage()]
    assert len(noted) == 1 and str(match_id) in noted[0].getMessage()
    assert noted[0].exc_info is not None and "disk I/O error" in str(noted[0].exc_info[1])


async def test_the_bot_process_posts_the_reviews_owed_when_it_starts(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A review owed by a process that stopped (killed right after the game) is posted by
    ``python -m bot`` when it starts, once, and is then no longer owed."""
    pytest.importorskip("bgsage")
    from bot.core.dice import ScriptedRoller
    from bot.core.session import Player, SessionService
    from bot.engine import MatchOptions
    from bot.storage import Store
    from tests.e2e.process_support import BotProcess, bot_env, read_only

    database = tmp_path / "db" / "gammon.db"
    store = await Store.open(database)
    alice, bob = Player(101, "alice"), Player(102, "bob")
    channel = fake.channel_id("games")
    service = SessionService(store, roller=ScriptedRoller([6, 1, 5, 2]))
    await service.challenge(fake.guild.id, channel, alice, bob, MatchOptions(length=1))
    await service.accept(channel, bob)
    await service.move(channel, alice, "13/7 8/7")
    await service.roll(channel, bob)
    await service.resign(channel, bob)
    ended = await service.answer_resignation(channel, alice, True)
    assert ended.match_over
    await store.queue_review(ended.match.id, 1, 0.0)  # owed when the last process died
    await store.close()

    bot = await BotProcess(bot_env(database, fake, WORKERS="1"), tmp_path).start()
    try:
        review = await fake.wait_for_message(
            "games", lambda m: "Game 1: skill and luck" in (m.content or ""), timeout=60
        )
        assert "**alice**" in review.content and fake.would_ping(review) == set()
        for _ in range(100):
            with read_only(database) as db:
                owed = db.execute("SELECT COUNT(*) FROM pending_reviews").fetchone()[0]
            if owed == 0:
                break
            await asyncio.sleep(0.1)
        assert owed == 0
        assert await bot.terminate() == 0
    finally:
        await bot.kill()
    reviews = [m for m in fake.messages_in("games") if "skill and luck" in (m.content or "")]
    assert len(reviews) == 1
