"""Issue 28's ladder end to end: joining, a challenge refused by timeout (the challenger
takes the place), a stranger's press refused privately, an accepted challenge played in its
thread and read from the game, and a player who left the server dropped from the ladder."""

from __future__ import annotations

import pytest

from bot import ladders
from tests.e2e.conftest import Harness
from tests.e2e.tournament_support import (
    both_backends,  # noqa: F401 (the fixture "both": the harness on SQLite, then PostgreSQL)
    ladder_cog,
    people,
    play_out,
    threads,
)


async def ladder(h: Harness, who, sub: str, **options):
    return await h.fake.slash(who, "games", "ladder", sub, options=options)


async def ranking(h: Harness) -> list[int]:
    state = await h.services.ladders.state(h.fake.guild.id)
    assert state is not None
    return list(state.ladder.ranking)


async def test_a_ladder_with_challenges_a_timeout_and_a_player_leaving(
    both: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ladders, "LADDER_LENGTH", 1)
    h = both
    _director, (alice, bob, carol, dave, _eve) = people(h)
    for player in (alice, bob, carol, dave):
        joined = await ladder(h, player, "join")
        assert (await joined.response()).ephemeral
    assert await ranking(h) == [alice.id, bob.id, carol.id, dave.id]
    twice = await ladder(h, alice, "join")
    assert await h.error_of(twice)

    # Out of reach is refused privately; within reach, the challenge is posted.
    await (await ladder(h, carol, "challenge", opponent=alice.id)).response()
    posted = await h.fake.wait_for_message(
        "games", lambda m: any((b.custom_id or "").startswith("ladder:") for b in m.buttons)
    )
    assert h.fake.would_ping(posted) == {f"user:{alice.id}"}
    stranger = await h.fake.click(bob, posted, "ladder:accept:1")
    assert await h.error_of(stranger)
    # Nobody answers within the week: carol takes alice's place, alice drops one.
    h.clock.advance(8 * 24 * 3600)
    cog = ladder_cog(h)
    await cog.tick()
    assert await ranking(h) == [carol.id, alice.id, bob.id, dave.id]
    await h.fake.wait_for_message("games", lambda m: "not answered in time" in (m.content or ""))

    # Bob challenges carol, who accepts: the match opens in a thread and is played out.
    h.roller.extend([3, 1] * 2)
    await (await ladder(h, bob, "challenge", opponent=carol.id)).response()
    second = await h.fake.wait_for_message(
        "games", lambda m: any(b.custom_id == "ladder:accept:2" for b in m.buttons)
    )
    await (await h.fake.click(carol, second, "ladder:accept:2")).response()
    [thread] = threads(h)
    winner = await play_out(h, thread, [bob, carol])
    await h.fake.wait_for_message(
        "games", lambda m: "ladder is updated" in (m.content or "") and "beats" in (m.content or "")
    )
    top = await ranking(h)
    assert top[0] == winner

    # Dave challenges alice, then leaves the server: the next look drops him.
    await (await ladder(h, dave, "challenge", opponent=alice.id)).response()
    del h.fake.guild.members[dave.id]
    await cog.tick()
    assert dave.id not in await ranking(h)
    shown = await (await ladder(h, alice, "standings")).answer()
    assert not shown.ephemeral and shown.attachments
    # The one 404 is how Discord says dave is gone (the bot asked, as it must).
    gone = [e for e in h.fake.errors if "Unknown Member" in str(e)]
    assert len(gone) == 1 and str(dave.id) in str(gone[0])
    h.fake.errors.remove(gone[0])
    h.fake.assert_clean()
