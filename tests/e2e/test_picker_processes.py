"""The tap picker across two bot processes on one database (a rolling deploy, a second
instance): taps alternate between the processes, and a picker whose turn another process
ended is refused privately with nothing changed."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from bot.engine import Phase
from tests.e2e.fake_discord import FakeDiscord, InteractionResult, RecordedMessage
from tests.e2e.process_support import BotProcess, answers, bot_env, latest

WAIT = 15.0  # seconds for one answer (two bots share two cores)


def board_of(fake: FakeDiscord) -> RecordedMessage:
    """The channel's latest public message with buttons (the board to act on)."""
    boards = [m for m in fake.messages_in("games", ephemeral=False) if m.custom_ids]
    return boards[-1]


def moved_on(db: Path, channel_id: int, version: int) -> Callable[[], bool]:
    """Whether the channel's match has been written since ``version``."""

    def check() -> bool:
        snap = latest(db, channel_id)
        return snap is not None and snap.version != version

    return check


def board_for(fake: FakeDiscord, match_id: int, version: int) -> Callable[[], bool]:
    """Whether the channel's latest board is the one of this match's ``version``."""

    def check() -> bool:
        ids = board_of(fake).custom_ids
        return any(f":{match_id}:{version}:" in c or c.startswith("bg:roll:") for c in ids)

    return check


def cid(message: RecordedMessage, prefix: str) -> str:
    (found,) = [c for c in message.custom_ids if c.startswith(prefix)]
    return found


async def test_taps_alternate_between_two_processes_and_a_stale_picker_is_refused(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    db = tmp_path / "gammon.db"
    bots: list[BotProcess] = []
    try:
        for _ in range(2):
            after = fake.ready_count
            bots.append(await BotProcess(bot_env(db, fake), tmp_path).start())
            await fake.wait_until_ready(timeout=30, after=after)
        fake.interaction_routing = "round_robin"
        alice = fake.create_member("alice")
        bob = fake.create_member("bob")
        players = {alice.id: alice, bob.id: bob}
        channel_id = fake.channel_id("games")
        rng = random.Random(3)
        sessions: set[int | None] = set()

        async def click(who, message, custom_id, values=None) -> InteractionResult:
            result = await fake.click(who, message, custom_id, values=values)
            await result.response(WAIT)
            sessions.add(result.session_index)
            return result

        challenge = await fake.slash(
            alice, "games", "backgammon", "challenge", options={"opponent": bob.id}
        )
        await challenge.response(WAIT)
        snap = latest(db, channel_id)
        assert snap is not None
        invitation = await challenge.original_message(WAIT)
        await click(bob, invitation, cid(invitation, f"bg:accept:{snap.id}"))
        stale_checked = False
        for _ in range(12):
            snap = latest(db, channel_id)
            assert snap is not None and snap.game is not None and snap.status == "playing"
            game = snap.game
            assert game.actor is not None  # a game in play waits on someone
            who = players[snap.player_ids[game.actor]]
            await fake.wait_for(board_for(fake, snap.id, snap.version), WAIT, "the board")
            board = board_of(fake)
            if game.phase is Phase.ROLL:
                await click(who, board, cid(board, "bg:roll:"))
                await fake.wait_for(moved_on(db, channel_id, snap.version), WAIT, "the roll")
                continue
            assert game.phase is Phase.MOVE
            opened = await click(who, board, cid(board, "bgpk:o:"))
            answered = await opened.response(WAIT)
            assert answered.message is not None  # the picker, a message of its own
            picker = fake.message(answered.message.id)
            plays = list(game.legal_plays())
            play = rng.choice(sorted(plays, key=str))
            # One checker at a time, each tap to whichever process Discord picks.
            for move in play.moves:
                source = "25" if move.source == 25 else str(move.source)
                await click(who, picker, cid(picker, "bgpk:s:"), [source])
                picker = fake.message(picker.id)
                menu = {
                    o["label"]: o["value"] for o in picker.component(cid(picker, "bgpk:d:")).options
                }
                await click(who, picker, cid(picker, "bgpk:d:"), [menu[str(move)]])
                picker = fake.message(picker.id)
            assert "Press Confirm" in picker.content, picker.content
            if not stale_checked:
                # The play goes in by typing instead (to either process); the picker is stale.
                typed = await fake.slash(
                    who, "games", "backgammon", "move", options={"play": str(play)}
                )
                await typed.response(WAIT)
                await fake.wait_for(moved_on(db, channel_id, snap.version), WAIT, "the move")
                before = latest(db, channel_id)
                for _attempt in range(2):  # once to each process
                    refused = await click(who, picker, cid(picker, "bgpk:c:"))
                    callback = await refused.response(WAIT)
                    assert callback.type == 4 and callback.ephemeral
                    assert "That turn is over" in (callback.content or "")
                now = latest(db, channel_id)
                assert before is not None and now is not None and before.key == now.key
                stale_checked = True
                continue
            confirmed = await click(who, picker, cid(picker, "bgpk:c:"))
            await confirmed.wait_for(
                lambda r: any(not m.ephemeral and m.attachments for m in answers(r)),
                WAIT,
                "the board",
            )
            assert fake.message(picker.id).content.startswith("Played: ")
        assert sessions == {0, 1}  # both processes served taps
        assert stale_checked
        for bot in bots:
            assert await bot.terminate() == 0
    finally:
        for bot in bots:
            await bot.kill()
    fake.assert_clean()
