"""Issue #25: `/backgammon export` and `/backgammon verify` show a match only to members of
its server who can see where it was played.

A match in a channel hidden from the caller, or on another server, answers exactly as a
match that does not exist (no oracle of which numbers are used). Someone who can see it gets
it privately when it was played elsewhere, so a hidden channel's match never lands in a
public one. The tests on hidden channels failed on the code before (it handed them out).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.records import MatchRow
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import PERM_VIEW_CHANNEL, FakeChannel, FakeDiscord

SECRET = re.compile(r"Dice secret: `([0-9a-f]{64})` \(public value `([^`]+)`\)")


def _staff_room(h: Harness) -> FakeChannel:
    """A channel only alice, bob and the bot can see."""
    guild = h.fake.guild
    allow = [h.alice.id, h.bob.id, h.fake.bot_user.id]
    return h.fake.add_channel(
        guild,
        "staff",
        permission_overwrites=[
            {"id": str(guild.id), "type": 0, "allow": "0", "deny": str(PERM_VIEW_CHANNEL)},
            *(
                {"id": str(uid), "type": 1, "allow": str(PERM_VIEW_CHANNEL), "deny": "0"}
                for uid in allow
            ),
        ],
    )


async def _known(h: Harness, channel: FakeChannel) -> None:
    """Wait until the bot's guild cache has the channel (it arrives by the gateway)."""
    bot = h.bot
    assert bot is not None
    await h.fake.wait_for(lambda: bot.get_channel(channel.id) is not None, 5, "the channel")


async def _resigned_game(h: Harness, channel: str) -> MatchRow:
    """alice beats bob in a money game in ``channel`` (bob resigns at once)."""
    h.roller.extend([3, 1])
    challenge = await (
        await h.slash(h.alice, "challenge", channel=channel, opponent=h.bob.id)
    ).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    offer = await h.board_after(await h.slash(h.bob, "resign", channel=channel, kind="single"))
    await h.board_after(await h.press(h.alice, offer, "resign_accept"))
    row = await h.service.store.latest_match(h.fake.channel_id(channel))
    assert row is not None and row.status == "finished"
    return row


async def test_export_of_a_hidden_channels_match_is_not_found(harness: Harness) -> None:
    h = harness
    staff = _staff_room(h)
    await _known(h, staff)
    row = await _resigned_game(h, "staff")

    hidden = await h.error_of(await h.slash(h.carol, "export", match=row.id))
    missing = await h.error_of(await h.slash(h.carol, "export", match=row.id + 50))
    assert hidden == missing.replace(str(row.id + 50), str(row.id)), (hidden, missing)
    assert f"no match #{row.id}" in hidden

    # A player asking from another channel gets it, privately: #games must not see it.
    theirs = await (await h.slash(h.alice, "export", match=row.id)).response()
    assert theirs.ephemeral and theirs.files and theirs.files[0].filename.endswith(".mat")
    # Asked where it was played, the file is public as before.
    here = await (await h.slash(h.bob, "export", channel="staff", match=row.id)).response()
    assert not here.ephemeral and here.files
    h.fake.assert_clean()


@pytest.fixture
async def fair(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(fake, tmp_path / "gammon.db", fair_dice=True)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


async def test_verify_of_a_hidden_channels_match_is_not_found(fair: Harness) -> None:
    h = fair
    staff = _staff_room(h)
    await _known(h, staff)
    challenge = await (
        await h.slash(h.alice, "challenge", channel="staff", opponent=h.bob.id)
    ).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    offer = await h.board_after(await h.slash(h.bob, "resign", channel="staff", kind="single"))
    ended = await h.board_after(await h.press(h.alice, offer, "resign_accept"))
    secret, public = SECRET.search(ended.content or "").groups()  # type: ignore[union-attr]

    hidden = await h.error_of(await h.slash(h.carol, "verify", secret=secret, public=public))
    assert "No match here used the public value" in hidden, hidden
    assert "alice" not in hidden and "bob" not in hidden

    # alice, who played it, checks it from #games: privately.
    mine = await (await h.slash(h.alice, "verify", secret=secret, public=public)).response()
    assert mine.ephemeral and "The dice match" in (mine.content or ""), mine.content
    h.fake.assert_clean()


async def test_a_thread_game_of_a_hidden_channel_is_not_found(harness: Harness) -> None:
    """The game moved to its own thread of #staff, which is archived once the match ends:
    whether someone may see it follows #staff."""
    h = harness
    staff = _staff_room(h)
    await _known(h, staff)
    await (await h.slash(h.mod, "settings", threads="on")).response()
    h.roller.extend([3, 1])
    challenge = await (
        await h.slash(h.alice, "challenge", channel="staff", opponent=h.bob.id)
    ).original_message()
    await (await h.press(h.bob, challenge, "accept")).answer()
    (thread,) = [c for c in h.fake.guild.channels.values() if c.is_thread]
    offer = await h.board_after(await h.slash(h.bob, "resign", channel=thread.id))
    await h.board_after(await h.press(h.alice, offer, "resign_accept"))
    row = await h.service.store.latest_match(thread.id)
    assert row is not None and row.status == "finished" and row.home_channel_id == staff.id

    hidden = await h.error_of(await h.slash(h.carol, "export", match=row.id))
    assert f"no match #{row.id}" in hidden
    theirs = await (await h.slash(h.bob, "export", match=row.id)).response()
    assert theirs.ephemeral and theirs.files
    # Anyone who can see #staff may have it, there publicly.
    h.fake.channel("staff").permission_overwrites.append(
        {"id": str(h.carol.id), "type": 1, "allow": str(PERM_VIEW_CHANNEL), "deny": "0"}
    )
    await h.fake.dispatch("CHANNEL_UPDATE", h.fake.channel("staff").payload())
    shown = await (await h.slash(h.carol, "export", channel="staff", match=row.id)).response()
    assert not shown.ephemeral and shown.files
    elsewhere = await (await h.slash(h.carol, "export", match=row.id)).response()
    assert elsewhere.ephemeral and elsewhere.files  # from #games: the guild cache says yes
