"""Issue 28's ladder end to end: joining, a challenge refused by timeout (the challenger
takes the place), a stranger's press refused privately, an accepted challenge played in its
thread and read from the game, and a player who left the server dropped from the ladder."""

from __future__ import annotations

import pytest

from bot.features.tournaments import ladders
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


async def test_both_active_at_the_play_by_time_a_director_decides(
    both: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both players moved, the play-by time passes: the deadline rule lets them play on
    (nothing decided); a player cannot rule, a director can, with a reason that is posted;
    the game ends and the ladder follows the ruling."""
    monkeypatch.setattr(ladders, "LADDER_LENGTH", 3)
    h = both
    director, (alice, bob, *_others) = people(h)
    for player in (alice, bob):
        await (await ladder(h, player, "join")).response()
    h.roller.extend([3, 1, 3, 1, 3, 1])
    await (await ladder(h, bob, "challenge", opponent=alice.id)).response()
    posted = await h.fake.wait_for_message(
        "games", lambda m: any(b.custom_id == "ladder:accept:1" for b in m.buttons)
    )
    await (await h.fake.click(alice, posted, "ladder:accept:1")).response()
    [thread] = threads(h)
    h.clock.advance(6.5 * 24 * 3600)  # the week to play it nearly over
    for _turn in range(2):  # each player makes a move: both active, neither stalled
        row = await h.service.store.live_match(thread.id)
        assert row is not None and row.game is not None and row.game.actor is not None
        mover = alice if row.player_ids[row.game.actor] == alice.id else bob
        if row.game.dice is None:
            await h.board_after(await h.fake.slash(mover, thread.id, "backgammon", "roll"))
        moved = await h.fake.slash(
            mover, thread.id, "backgammon", "move", options={"play": "8/5 6/5"}
        )
        await h.board_after(moved)
    h.clock.advance(24 * 3600)  # the play-by time passes
    await ladder_cog(h).tick()
    assert await h.service.store.live_match(thread.id) is not None  # played on
    assert await ranking(h) == [alice.id, bob.id]

    refused = await ladder(h, alice, "decide", winner=alice.id, reason="he stalls")
    assert "director" in (await h.error_of(refused)).lower()
    no_why = await ladder(h, director, "decide", winner=bob.id, reason="   ")
    assert await h.error_of(no_why)
    decided = await ladder(h, director, "decide", winner=bob.id, reason="alice is away a month")
    assert (await decided.response()).ephemeral
    ruling = await h.fake.wait_for_message("games", lambda m: "decided" in (m.content or ""))
    assert "td" in ruling.content and "alice is away a month" in ruling.content
    assert ruling.attachments and h.fake.would_ping(ruling) == set()
    assert await ranking(h) == [bob.id, alice.id]
    assert await h.service.store.live_match(thread.id) is None
    again = await ladder(h, director, "decide", winner=bob.id, reason="once more")
    assert "no accepted ladder match" in (await h.error_of(again))
    h.fake.assert_clean()
