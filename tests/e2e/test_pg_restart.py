"""A PostgreSQL restart in the middle of a game, through Discord (issue #25).

One ``python -m bot`` process on its own PostgreSQL (fsyncing, as a real server does) plays
a game against the fake Discord. The server is stopped with ``pg_ctl stop -m immediate``
(every server process killed at once, as in a crash) several times: once between actions,
and at the moment a player's command is in flight. While it is down the players' commands
and buttons are answered privately and truthfully ("the database is unavailable, nothing
changed", or, when a write was cut off, that it may have been stored), never with a board.
When it is started again the same process, never restarted, takes the next action, and
every action that was answered with a board is in the database, whose events replay to its
stored state.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

import pytest

from bot.client import SAVED
from bot.core.errors import Refusal
from bot.engine import Phase
from bot.present import REFUSALS
from tests.e2e.fake_discord import FakeDiscord, FakeDiscordTimeout, FakeMember, InteractionResult
from tests.e2e.process_support import (
    BotProcess,
    Snapshot,
    acknowledged,
    answered,
    answers,
    bot_env,
)
from tests.pg_server import PgServer

asyncpg = pytest.importorskip("asyncpg")

ANSWER = 20.0  # seconds to wait for one answer
DOWN = str(REFUSALS[Refusal.STORE_DOWN])
IN_DOUBT = str(REFUSALS[Refusal.STORE_IN_DOUBT])


class Game:
    """The channel's game, read from outside the bot (a connection per read: the server
    comes and goes)."""

    def __init__(self, fake: FakeDiscord, url: str, players: tuple[FakeMember, ...]) -> None:
        self.fake = fake
        self.url = url
        self.players = players
        self.channel = fake.channel_id("games")

    async def latest(self) -> Snapshot:
        from tests.e2e.test_shards import Database

        connection = await asyncpg.connect(self.url)
        try:
            snap = await Database(connection).latest(self.channel)
        finally:
            await connection.close()
        assert snap is not None
        return snap

    async def send_next(self, snap: Snapshot) -> InteractionResult:
        """The command the player to act would send now: roll or their first legal play."""
        game = snap.game
        assert game is not None and game.actor is not None, snap
        who = self.players[game.actor]
        if game.phase is Phase.ROLL:
            return await self.fake.slash(who, self.channel, "backgammon", "roll", timeout=ANSWER)
        assert game.phase is Phase.MOVE, game.phase
        play = str(sorted(game.legal_plays(), key=str)[0])
        return await self.fake.slash(
            who, self.channel, "backgammon", "move", options={"play": play}, timeout=ANSWER
        )


async def answer_of(result: InteractionResult) -> InteractionResult:
    with contextlib.suppress(FakeDiscordTimeout):
        await result.wait_for(answered, ANSWER)
    return result


def refused_truthfully(result: InteractionResult, log: str = "", *, saved: bool = False) -> str:
    """The private error the player got: which database error it was (``saved``: or the
    note that the action was stored but its board could not be posted)."""
    replies = answers(result)
    assert replies and all(m.ephemeral for m in replies), [m.content for m in replies]
    text = " ".join(m.content or "" for m in replies)
    known = (DOWN, IN_DOUBT, SAVED) if saved else (DOWN, IN_DOUBT)
    said = [words for words in known if words in text]
    assert said, (text, log)
    return said[0]


async def test_a_postgresql_restart_mid_game_is_told_truthfully_and_loses_nothing(
    fake: FakeDiscord, pg_server: PgServer, tmp_path: Path
) -> None:
    url = pg_server.base_url
    env = bot_env(tmp_path / "unused.db", fake, log_level="WARNING", DATABASE_URL=url, WORKERS="0")
    bot = await BotProcess(env, tmp_path, log=tmp_path / "bot.log").start()

    def log() -> str:
        """The bot's log from its last unexpected error on (or its end)."""
        text = (tmp_path / "bot.log").read_text(errors="replace")
        start = text.rfind("unexpected error")
        return text[start : start + 6000] if start >= 0 else text[-3000:]

    try:
        await fake.wait_until_ready(timeout=30)
        await fake.wait_for_commands(fake.guild.id, names=["backgammon"], timeout=30)
        alice, bob = fake.create_member("alice"), fake.create_member("bob")
        game = Game(fake, url, (alice, bob))
        challenge = await fake.slash(
            alice, "games", "backgammon", "challenge", options={"opponent": bob.id}
        )
        message = await challenge.original_message()
        accept = next(b.custom_id for b in message.buttons if "accept" in (b.custom_id or ""))
        assert accept is not None
        assert acknowledged(await answer_of(await fake.click(bob, message, accept))), log()
        pid = bot.pid

        # 1. Down between two actions: commands and buttons are refused, nothing changes.
        snap = await game.latest()
        for _ in range(3):
            assert acknowledged(await answer_of(await game.send_next(snap))), log()
            snap = await game.latest()
        pg_server.crash()
        refusals = [await answer_of(await game.send_next(snap)) for _ in range(2)]
        board = next(m for m in reversed(fake.messages_in(game.channel)) if m.buttons)
        button = next((b.custom_id for b in board.buttons if "roll" in (b.custom_id or "")), None)
        if button is not None:
            actor = snap.game.actor if snap.game is not None else 0
            assert actor is not None  # a game in play waits on someone
            refusals.append(await answer_of(await fake.click(game.players[actor], board, button)))
        for refusal in refusals:
            assert not acknowledged(refusal)
            assert refused_truthfully(refusal) == DOWN
        pg_server.launch()
        assert (await game.latest()).key == snap.key  # nothing of the refused actions
        assert bot.running and bot.pid == pid

        # 2. Down at the moment an action is in flight: a board means it is stored; "nothing
        # changed" means it is not; "may have been stored" may go either way.
        rng = random.Random(25)
        outcomes: list[str] = []
        for _round in range(3):
            snap = await game.latest()
            if snap.status != "playing":
                break
            sent = await game.send_next(snap)
            await asyncio.sleep(rng.uniform(0.0, 0.03))
            pg_server.crash()
            result = await answer_of(sent)
            pg_server.launch()
            after = await game.latest()
            said = "board"
            if not acknowledged(result):
                said = refused_truthfully(result, log(), saved=True)
            outcomes.append(said)
            if said in ("board", SAVED):  # stored (the database went after the commit)
                assert after.version == snap.version + 1, (said, snap.key, after.key)
            elif said == DOWN:
                assert after.key == snap.key
            assert bot.running and bot.pid == pid, log()

        # 3. Back: the same process goes on, and the log replays to the stored state.
        for _ in range(4):
            snap = await game.latest()
            if snap.status != "playing":
                break
            assert acknowledged(await answer_of(await game.send_next(snap))), log()
        from tests.e2e.test_shards import check_replays

        connection = await asyncpg.connect(url)
        try:
            await check_replays(connection)
        finally:
            await connection.close()
        assert bot.running and bot.pid == pid
        print("in-flight outcomes:", [o[:24] for o in outcomes])
    finally:
        await bot.terminate(10)
