"""Issue 37: where on Discord a match is played (:class:`bot.core.records.Venue`), on both
backends. Outside a server that added the bot a match belongs to no server, is never rated,
is seen by its players alone, gets no reminder and feeds no server's puzzles; the bot's own
DM has room for the computer only."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.core.errors import UserError
from bot.core.records import MatchRow, Notify, Status, Venue
from bot.core.session import Player
from bot.core.visibility import in_a_server, may_see
from bot.engine import MatchOptions, ResultKind
from bot.services import build_services
from bot.storage import Store, open_store
from bot.storage.schema import MIGRATIONS
from tests.channel_readers import Readers
from tests.telling import refuses

GUILD, CHANNEL = 7, 70
ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")


@pytest.mark.parametrize("venue", [Venue.PRIVATE, Venue.GUEST])
async def test_a_match_outside_a_server_is_nobodys_and_unrated(
    database: Path | str, roller, clock, settings, venue: Venue
) -> None:
    store = await open_store(database)
    try:
        services = build_services(store, roller=roller, clock=clock, settings=settings)
        session = services.session
        report = await session.challenge(
            GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=1), rated=True, venue=venue
        )
        assert (report.match.venue, report.match.guild_id, report.match.rated) == (venue, 0, False)
        roller.extend((3, 1))
        await session.accept(CHANNEL, BOB)
        await session.resign(CHANNEL, ALICE, ResultKind.SINGLE)
        await session.answer_resignation(CHANNEL, BOB, True)
        row = await store.latest_match(CHANNEL)
        assert row is not None and row.venue is venue and not row.rated
        # Counted in the players' own record outside servers, on no server's leaderboard.
        stats = await session.stats(0, BOB.id)
        assert stats is not None and stats.match_wins == 1 and stats.rated_matches == 0
        assert await session.stats(GUILD, BOB.id) is None
        assert await session.leaderboard(GUILD) == []
        # A rematch stays where it was played.
        again = await services.club.rematch(0, CHANNEL, ALICE, row.id)
        assert again.match.venue is venue and again.match.guild_id == 0
    finally:
        await store.close()


async def test_the_bots_dm_has_room_for_the_computer_alone(store, roller) -> None:
    session = build_services(store, roller=roller).session
    with refuses(UserError, "^Nobody else can see our DM"):
        await session.challenge(0, CHANNEL, ALICE, BOB, venue=Venue.BOT_DM)
    assert await store.live_match(CHANNEL) is None


async def test_no_reminder_is_due_where_the_bot_cannot_post(store, roller, clock) -> None:
    services = build_services(store, roller=roller, clock=clock)
    session, club = services.session, services.club
    await club.update_user_settings(BOB.id, notify=Notify.IDLE, notify_minutes=1)
    for channel, venue in ((CHANNEL, Venue.SERVER), (CHANNEL + 1, Venue.PRIVATE)):
        await session.challenge(GUILD, channel, ALICE, BOB, venue=venue)
        roller.extend((3, 1))  # alice opens; bob is to play next after her move
        await session.accept(channel, BOB)
        await session.move(channel, ALICE, "8/5 6/5")
    clock.advance(3600)
    due = await club.due_reminders()
    assert [(row.channel_id, user) for row, user in due] == [(CHANNEL, BOB.id)]


async def test_a_match_outside_a_server_is_its_players_alone() -> None:
    readers = Readers()  # every member of the server reads the channel
    base = dict(
        id=1,
        channel_id=CHANNEL,
        player_ids=(ALICE.id, BOB.id),
        player_names=("alice", "bob"),
        options=MatchOptions(),
        rated=False,
        computer_level=None,
        game=None,
        version=1,
        created_at=0.0,
        updated_at=0.0,
        last_action_at=0.0,
        expires_at=None,
        winner=None,
        final_score=None,
        end_reason=None,
    )
    server = MatchRow(guild_id=GUILD, status=Status.PLAYING, **base)  # type: ignore[arg-type]
    # A guest row that kept a server's id (never stored so: defence in depth) is not that
    # server's either.
    guest = MatchRow(
        guild_id=GUILD,
        status=Status.PLAYING,
        venue=Venue.GUEST,
        **base,  # type: ignore[arg-type]
    )
    assert in_a_server(server) and not in_a_server(guest)
    assert await may_see(readers, server, CAROL.id)
    assert not await may_see(readers, guest, CAROL.id)
    assert await may_see(readers, guest, ALICE.id)


async def test_older_matches_were_all_on_servers(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        for migration in MIGRATIONS[:11]:
            db.executescript(migration)
        db.execute(
            "INSERT INTO matches (guild_id, channel_id, status, player0_id, player0_name, "
            "player1_id, player1_name, options, rated, created_at, updated_at, "
            "last_action_at, web_key) VALUES (1, 5, 'finished', 1, 'a', 2, 'b', '{}', 0, 0, 0, "
            "0, 'k')"
        )
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS[:11])}")
    store = await Store.open(path)
    try:
        row = await store.get_match(1)
        assert row is not None and row.venue is Venue.SERVER
        with pytest.raises(Exception, match="CHECK"):
            await store.write("UPDATE matches SET venue = 'moon'")
    finally:
        await store.close()
