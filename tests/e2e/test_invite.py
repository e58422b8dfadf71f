"""The README's invite is enough: a bot given exactly its permissions, on a server whose
@everyone role grants nothing but using commands, plays a match in a thread of its own to
the end, announces it in the channel with its match file, and archives the thread, without
one refused request (issue #25; the number itself: tests/test_install.py)."""

from __future__ import annotations

from pathlib import Path

from bot.client import INVITE_PERMISSIONS
from tests.e2e.conftest import TOKEN, Harness
from tests.e2e.fake_discord import PERM_USE_APPLICATION_COMMANDS, PERM_VIEW_CHANNEL, FakeDiscord


async def test_the_invites_permissions_are_enough_for_a_match_in_a_thread(
    tmp_path: Path,
) -> None:
    async with FakeDiscord(
        token=TOKEN,
        bot_permissions=INVITE_PERMISSIONS.value,
        everyone_permissions=PERM_USE_APPLICATION_COMMANDS | PERM_VIEW_CHANNEL,
    ) as fake:
        with fake.patch_discord():
            h = Harness(fake, tmp_path / "gammon.db")
            await h.start()
            try:
                await (await h.slash(h.mod, "settings", threads="on")).response()
                h.roller.extend([3, 1])
                challenge = await (
                    await h.slash(h.alice, "challenge", opponent=h.bob.id)
                ).original_message()
                note = await (await h.press(h.bob, challenge, "accept")).answer()
                assert "The game is on in <#" in (note.content or ""), note.content
                (thread,) = [c for c in fake.guild.channels.values() if c.is_thread]
                (board,) = fake.messages_in(thread.id)
                assert board.attachments  # the board picture: Attach Files in the thread
                await h.board_after(
                    await h.slash(h.alice, "move", channel=thread.id, play="8/5 6/5")
                )
                offer = await h.board_after(await h.slash(h.alice, "resign", channel=thread.id))
                await h.board_after(await h.press(h.bob, offer, "resign_accept"))
                announced = await fake.wait_for_message(
                    "games", lambda m: "bob wins" in (m.content or "") and not m.ephemeral
                )
                assert any(a.filename.endswith(".mat") for a in announced.attachments)
                await fake.wait_for(lambda: thread.archived, 5, "the thread archived")
                assert not fake.errors, fake.errors
            finally:
                await h.stop()
