"""Issue 28 end to end: tournaments through the real discord.py and the strict fake Discord.

Players join with the announcement's buttons; the director starts the draw; each match
opens by itself in its own thread with both players pinged; players play with slash
commands and buttons; results are read from the games (nobody reports a score); the
bracket or table is posted after each round; the podium, the pictures and an archive of
every match's file and dice secret close the event. Refusals are private and change
nothing. Deadlines run on the harness's clock and survive a restart.
"""

from __future__ import annotations

import asyncio
import io
import zipfile

from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import PERM_CREATE_PUBLIC_THREADS
from tests.e2e.tournament_support import (
    announcement,
    both_backends,  # noqa: F401 (the fixture "both": the harness on SQLite, then PostgreSQL)
    live_row,
    people,
    play_all,
    play_out,
    threads,
    tournament,
    tournament_cog,
)


async def test_a_knockout_from_registration_to_the_podium(both: Harness) -> None:
    h = both
    director, (alice, bob, carol, dave, eve) = people(h)
    h.roller.extend([3, 1] * 6)
    created = await tournament(h, director, "create", name="Friday KO", lengths="1")
    posted = await created.answer()
    assert not posted.ephemeral and "Friday KO" in posted.content
    board = await announcement(h)
    for player in (alice, bob, carol, dave, eve):
        joined = await h.fake.click(player, board, "tourney:join:1")
        assert (await joined.response()).ephemeral
    del h.fake.guild.members[eve.id]  # eve leaves the server: dropped at the draw
    # Joining twice: a private refusal, and nothing changes.
    twice = await h.fake.click(alice, board, "tourney:join:1")
    assert "already" in (await h.error_of(twice))
    assert len(await h.services.tournaments.store.entrants(1)) == 5
    # A player is no director: starting is refused privately.
    refused = await tournament(h, alice, "start")
    assert "director" in (await h.error_of(refused)).lower()
    assert (await h.services.tournaments.event(1)).phase.value == "registration"

    started = await tournament(h, director, "start")
    await started.answer()
    assert eve.id not in await h.services.tournaments.names(1)
    first_round = threads(h)
    assert len(first_round) == 2
    for thread in first_round:
        assert thread.parent_id == h.fake.channel_id("games") and "Friday KO" in (thread.name or "")
        opening = h.fake.messages_in(thread.id)
        pings = [m for m in opening if "1-point match" in (m.content or "")]
        assert len(pings) == 1
        row = await h.service.store.live_match(thread.id)
        assert row is not None and row.rated and row.options.length == 1
        assert h.fake.would_ping(pings[0]) == {f"user:{p}" for p in row.player_ids}
        assert any(m.attachments for m in opening)  # the opening board

    # A stranger's press on a tournament board is refused privately.
    row = await live_row(h, first_round[0].id)
    stranger = next(p for p in (alice, bob, carol, dave) if p.id not in row.player_ids)
    (opening_board,) = [m for m in h.fake.messages_in(first_round[0].id) if m.buttons]
    custom = opening_board.buttons[0].custom_id
    assert custom is not None
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


async def test_a_seven_player_swiss_gives_a_bye_each_round_and_ends(both: Harness) -> None:
    """Seven players: each round three matches in threads and a bye (one point, no match),
    nobody gets two byes; after each round the table is posted and the next round is paired
    without a rematch; after the planned rounds the podium closes the event."""
    h = both
    director, five = people(h)
    players = [*five, *(h.fake.create_member(f"s{i}") for i in range(2))]
    h.roller.extend([3, 1] * 20)
    created = await tournament(h, director, "create", name="Swiss", format="swiss", lengths="1")
    await created.answer()
    board = await announcement(h)
    for player in players:
        await (await h.fake.click(player, board, "tourney:join:1")).response()
    await (await tournament(h, director, "start")).answer()
    store = h.services.tournaments.store
    assert len(threads(h)) == 3  # the first round only
    [bye] = [p for p in await store.pairings(1) if p.round == 1 and p.b is None]
    assert bye.result is not None and bye.result.kind.value == "bye"
    standings = await tournament(h, players[2], "standings")
    shown = await standings.answer()
    assert not shown.ephemeral and shown.attachments
    await play_all(h, players)
    pairings = await store.pairings(1)
    rounds = sorted({p.round for p in pairings})
    assert len(rounds) >= 3
    byes = [p.a for p in pairings if p.b is None]
    assert len(byes) == len(rounds) and len(set(byes)) == len(byes)  # one each round, no twice
    met = [frozenset((p.a, p.b)) for p in pairings if p.b is not None]
    assert len(met) == 3 * len(rounds) and len(set(met)) == len(met)  # no rematch
    said = [m.content or "" for m in h.fake.messages_in("games")]
    for r in rounds[:-1]:
        assert any(f"round {r} is complete" in content for content in said), r
    podium = await h.fake.wait_for_message("games", lambda m: "🥇" in (m.content or ""))
    assert podium.attachments
    assert (await h.services.tournaments.event(1)).phase.value == "finished"
    h.fake.assert_clean()


async def test_a_deadline_is_kept_across_a_restart(both: Harness) -> None:
    """Correspondence pace, two days a round: reminders 24 h and 1 h before (none pinging a
    player who turned notices off); the bot restarts; at the deadline the match where
    nobody moved is a double forfeit, the one where only one player moved a walkover,
    both posted with their reason, and the event ends with the walkover's winner."""
    h = both
    director, (alice, bob, carol, dave, _eve) = people(h)
    h.roller.extend([3, 1] * 6)
    created = await tournament(h, director, "create", name="Slow", lengths="3", hours=48)
    await created.answer()
    board = await announcement(h)
    for player in (alice, bob, carol, dave):
        await (await h.fake.click(player, board, "tourney:join:1")).response()
    await (await tournament(h, director, "start")).answer()
    first, second = threads(h)
    players = [alice, bob, carol, dave]
    moving = await live_row(h, first.id)
    assert moving.game is not None and moving.game.actor is not None
    mover = next(p for p in players if p.id == moving.player_ids[moving.game.actor])
    await h.board_after(
        await h.fake.slash(mover, first.id, "backgammon", "move", options={"play": "8/5 6/5"})
    )
    quiet_row = await live_row(h, second.id)
    quiet = next(p for p in players if p.id == quiet_row.player_ids[1])
    await (await h.slash(quiet, "settings", notify="off")).response()
    cog = tournament_cog(h)

    h.clock.advance(24.5 * 3600)  # 23.5 h to go: the 24-hour reminder is due
    await cog.tournaments.tick()
    await cog.tournaments.tick()  # a second look sends nothing new
    reminders = [
        m for t in (first, second) for m in h.fake.messages_in(t.id) if "⏰" in (m.content or "")
    ]
    assert len(reminders) == 2
    quiet_reminder = next(m for m in reminders if m.channel_id == second.id)
    assert f"user:{quiet.id}" not in h.fake.would_ping(quiet_reminder)

    await h.restart()
    cog = tournament_cog(h)
    await asyncio.wait_for(cog.resumed.wait(), 5)
    h.clock.advance(24 * 3600)  # past the deadline
    await cog.tournaments.tick()
    await h.services.tournaments.settle()
    forfeit = await h.fake.wait_for_message(
        "games", lambda m: "double forfeit" in (m.content or "")
    )
    assert "neither player moved" in forfeit.content
    walkover = await h.fake.wait_for_message("games", lambda m: "walkover" in (m.content or ""))
    assert mover.username in walkover.content and "unrated" in walkover.content
    for thread in (first, second):
        assert await h.service.store.live_match(thread.id) is None  # ended, no result
    podium = await h.fake.wait_for_message("games", lambda m: "🥇" in (m.content or ""))
    assert mover.username in podium.content
    h.fake.assert_clean()


async def test_two_entrants_and_no_thread_permission_play_in_the_channel(fake, tmp_path) -> None:
    """The smallest event (a final straight away) on a server where the bot cannot open
    threads: the match is played in the event's channel, and the players are told so."""
    for role in fake.guild.roles.values():
        role.permissions &= ~PERM_CREATE_PUBLIC_THREADS
    h = Harness(fake, tmp_path / "gammon.db")
    await h.start()
    try:
        director, (alice, bob, *_rest) = people(h)
        h.roller.extend([3, 1] * 2)
        await (await tournament(h, director, "create", name="Duel", lengths="1")).answer()
        board = await announcement(h)
        for player in (alice, bob):
            await (await h.fake.click(player, board, "tourney:join:1")).response()
        await (await tournament(h, director, "start")).answer()
        assert threads(h) == []
        told = await h.fake.wait_for_message(
            "games", lambda m: "No thread could be opened" in (m.content or "")
        )
        assert h.fake.would_ping(told) == {f"user:{alice.id}", f"user:{bob.id}"}
        games = h.fake.channel("games")
        await play_out(h, games, [alice, bob])
        await h.fake.wait_for_message("games", lambda m: "🥇" in (m.content or ""))
    finally:
        await h.stop()


async def test_check_in_a_moderators_cancel_and_a_directors_decision(harness: Harness) -> None:
    """With check-in, whoever has not checked in is dropped at the start. A moderator's
    /backgammon cancel in an event match does not void it: the directors are told. A
    player may not decide; the director's decision is posted with its reason."""
    h = harness
    director, (alice, bob, carol, _dave, _eve) = people(h)
    h.roller.extend([3, 1] * 4)
    created = await tournament(h, director, "create", name="Check", lengths="3", check_in=True)
    await created.answer()
    board = await announcement(h)
    for player in (alice, bob, carol):
        await (await h.fake.click(player, board, "tourney:join:1")).response()
    opened = await tournament(h, director, "check_in")
    assert (await opened.response()).ephemeral
    board = h.fake.message(board.id)
    assert [b.custom_id for b in board.buttons] == ["tourney:checkin:1", "tourney:leave:1"]
    for player in (alice, bob):
        await (await h.fake.click(player, board, "tourney:checkin:1")).response()
    await (await tournament(h, director, "start")).answer()
    assert sorted(await h.services.tournaments.names(1)) == sorted([alice.id, bob.id])
    [thread] = threads(h)

    cancel = await h.fake.slash(h.mod, thread.id, "backgammon", "cancel")
    assert "tournament match" in await h.error_of(cancel)
    assert await h.service.store.live_match(thread.id) is not None  # not voided
    await h.fake.wait_for_message("games", lambda m: "director's ruling" in (m.content or ""))

    refused = await tournament(h, alice, "decide", winner=alice.id, reason="mine")
    assert "director" in (await h.error_of(refused)).lower()
    decided = await tournament(h, director, "decide", winner=bob.id, reason="alice left early")
    assert (await decided.response()).ephemeral
    posted = await h.fake.wait_for_message(
        thread.id, lambda m: "alice left early" in (m.content or "")
    )
    assert "bob wins by walkover" in posted.content
    await h.fake.wait_for_message("games", lambda m: "🥇 bob" in (m.content or ""))
    assert await h.service.store.live_match(thread.id) is None
    h.fake.assert_clean()


async def test_an_eight_player_knockout_with_consolation_to_the_end(both: Harness) -> None:
    """Eight players, main bracket and progressive consolation, every match played in its
    thread; the pictures of both brackets after each round, then the podium (the main
    finalist meets the consolation winner for second place)."""
    h = both
    director, five = people(h)
    players = [*five, *(h.fake.create_member(f"p{i}") for i in range(3))]
    h.roller.extend([3, 1] * 20)
    created = await tournament(
        h, director, "create", name="Big night", lengths="1", consolation=True
    )
    await created.answer()
    board = await announcement(h)
    for player in players:
        await (await h.fake.click(player, board, "tourney:join:1")).response()
    await (await tournament(h, director, "start")).answer()
    played = await play_all(h, players)
    podium = await h.fake.wait_for_message("games", lambda m: "🥇" in (m.content or ""))
    assert "🥈" in podium.content and "🥉" in podium.content
    [archive] = [a for a in podium.attachments if a.filename.endswith(".zip")]
    with zipfile.ZipFile(io.BytesIO(archive.data)) as bundle:
        assert len([f for f in bundle.namelist() if f.endswith(".mat")]) == played
    pictures = [
        a
        for m in h.fake.messages_in("games")
        if "is complete" in (m.content or "")
        for a in m.attachments
    ]
    assert len(pictures) >= 4  # main and consolation brackets, round after round
    h.fake.assert_clean()


async def test_a_round_robin_of_four(both: Harness) -> None:
    """Four players, three rounds of two matches, round by round; the table after each."""
    h = both
    director, (alice, bob, carol, dave, _eve) = people(h)
    h.roller.extend([3, 1] * 8)
    created = await tournament(
        h, director, "create", name="League", format="round_robin", lengths="1"
    )
    await created.answer()
    board = await announcement(h)
    players = [alice, bob, carol, dave]
    for player in players:
        await (await h.fake.click(player, board, "tourney:join:1")).response()
    await (await tournament(h, director, "start")).answer()
    assert len(threads(h)) == 2  # the first round only
    assert await play_all(h, players) == 6
    said = [m.content or "" for m in h.fake.messages_in("games")]
    for text in ("round 1 is complete", "round 2 is complete"):
        assert any(text in content for content in said), text
    podium = await h.fake.wait_for_message("games", lambda m: "🥇" in (m.content or ""))
    assert podium.attachments
    h.fake.assert_clean()


async def test_a_server_names_its_directors_role(harness: Harness) -> None:
    """Besides Manage Server, the role the server sets makes a director; choosing it needs
    Manage Server; a member without either is refused privately and nothing is created."""
    h = harness
    director, (alice, *_rest) = people(h)
    role = h.fake.add_role(h.fake.guild, "TD", 0)
    organiser = h.fake.add_member(None, h.fake.create_user("organiser"), roles=(role.id,))
    refused = await tournament(h, organiser, "create", name="Too soon")
    assert "director" in (await h.error_of(refused)).lower()
    chosen = await tournament(h, alice, "directors", role=role.id)
    assert "Manage Server" in await h.error_of(chosen)
    done = await tournament(h, director, "directors", role=role.id)
    assert (await done.response()).ephemeral
    assert await h.services.tournaments.current(h.fake.guild.id) == []
    created = await tournament(h, organiser, "create", name="By the TD role")
    assert "By the TD role" in (await created.answer()).content
    h.fake.assert_clean()


async def test_an_announced_start_time_makes_the_draw_by_itself(harness: Harness) -> None:
    h = harness
    director, (alice, bob, *_rest) = people(h)
    h.roller.extend([3, 1] * 2)
    created = await tournament(
        h, director, "create", name="At eight", lengths="1", start_in_hours=2
    )
    posted = await created.answer()
    assert f"<t:{int(h.clock.now + 7200)}:f>" in posted.content
    board = await announcement(h)
    for player in (alice, bob):
        await (await h.fake.click(player, board, "tourney:join:1")).response()
    cog = tournament_cog(h)
    await cog.tournaments.tick()
    assert threads(h) == []
    h.clock.advance(7200)
    await cog.tournaments.tick()
    [thread] = threads(h)
    await h.fake.wait_for(lambda: not h.fake.message(board.id).buttons, 5, "the buttons gone")
    assert await h.service.store.live_match(thread.id) is not None
    h.fake.assert_clean()
