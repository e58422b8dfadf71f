"""Issue 28 end to end: tournaments through the real discord.py and the strict fake Discord.

Players join with the announcement's buttons; the director starts the draw; each match
opens by itself in its own thread with both players pinged; players play with slash
commands and buttons; results are read from the games (nobody reports a score); the
bracket or table is posted after each round; the podium, the pictures and an archive of
every match's file and dice secret close the event. Refusals are private and change
nothing. Deadlines run on the harness's clock and survive a restart.
"""

from __future__ import annotations

import io
import zipfile

from tests.e2e.conftest import Harness
from tests.e2e.tournament_support import (
    announcement,
    people,
    play_out,
    threads,
    tournament,
)


async def test_a_knockout_from_registration_to_the_podium(harness: Harness) -> None:
    h = harness
    director, (alice, bob, carol, dave, _eve) = people(h)
    h.roller.extend([3, 1] * 6)
    created = await tournament(h, director, "create", name="Friday KO", lengths="1")
    posted = await created.answer()
    assert not posted.ephemeral and "Friday KO" in posted.content
    board = await announcement(h)
    for player in (alice, bob, carol, dave):
        joined = await h.fake.click(player, board, "tourney:join:1")
        assert (await joined.response()).ephemeral
    # Joining twice: a private refusal, and nothing changes.
    twice = await h.fake.click(alice, board, "tourney:join:1")
    assert "already" in (await h.error_of(twice))
    assert len(await h.services.tournaments.store.entrants(1)) == 4
    # A player is no director: starting is refused privately.
    refused = await tournament(h, alice, "start")
    assert "director" in (await h.error_of(refused)).lower()
    assert (await h.services.tournaments.event(1)).phase.value == "registration"

    started = await tournament(h, director, "start")
    await started.answer()
    first_round = threads(h)
    assert len(first_round) == 2
    for thread in first_round:
        assert thread.parent_id == h.fake.channel_id("games") and "Friday KO" in thread.name
        opening = h.fake.messages_in(thread.id)
        pings = [m for m in opening if "1-point match" in (m.content or "")]
        assert len(pings) == 1
        row = await h.service.store.live_match(thread.id)
        assert row is not None and row.rated and row.options.length == 1
        assert h.fake.would_ping(pings[0]) == {f"user:{p}" for p in row.player_ids}
        assert any(m.attachments for m in opening)  # the opening board

    # A stranger's press on a tournament board is refused privately.
    row = await h.service.store.live_match(first_round[0].id)
    stranger = next(p for p in (alice, bob, carol, dave) if p.id not in row.player_ids)
    (opening_board,) = [m for m in h.fake.messages_in(first_round[0].id) if m.buttons]
    custom = opening_board.buttons[0].custom_id
    pressed = await h.fake.click(stranger, opening_board, custom)
    assert await h.error_of(pressed)
    players = [alice, bob, carol, dave]
    winners = [await play_out(h, thread, players) for thread in first_round]

    round_picture = await h.fake.wait_for_message(
        "games", lambda m: "round 1 is complete" in (m.content or "")
    )
    assert round_picture.attachments[0].filename.endswith(".png")
    final_thread = [t for t in threads(h) if t not in first_round]
    assert len(final_thread) == 1
    final_row = await h.service.store.live_match(final_thread[0].id)
    assert final_row is not None and set(final_row.player_ids) == set(winners)
    champion = await play_out(h, final_thread[0], players)

    podium = await h.fake.wait_for_message("games", lambda m: "🥇" in (m.content or ""))
    assert "<@" not in podium.content and champion_name(players, champion) in podium.content
    names = [a.filename for a in podium.attachments]
    assert any(n.endswith(".png") for n in names)
    [archive] = [a for a in podium.attachments if a.filename.endswith(".zip")]
    with zipfile.ZipFile(io.BytesIO(archive.data)) as bundle:
        files = bundle.namelist()
    assert len([f for f in files if f.endswith(".mat")]) == 3 and "dice-secrets.txt" in files
    assert (await h.services.tournaments.event(1)).phase.value == "finished"
    h.fake.assert_clean()


def champion_name(players, user_id: int) -> str:
    return next(p.username for p in players if p.id == user_id)
