"""Issue 41: the web board's addresses carry keys, never row ids; a replay is shared only on
purpose and withdrawn on demand; on both backends, and for rows from before the keys."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from bot.core.errors import UserError
from bot.core.records import MatchRow
from bot.core.session import Player
from bot.engine import MatchOptions, ResultKind
from bot.services import build_services
from bot.storage import Store, open_store
from bot.storage.schema import MIGRATIONS
from tests.telling import refuses

GUILD, CHANNEL = 7, 70
ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")
KEY = re.compile(r"^[A-Za-z0-9_-]{22,64}$")


async def test_keys_are_random_unique_and_lead_back_to_their_rows(database: Path | str) -> None:
    store = await open_store(database)
    try:
        rows: list[MatchRow] = []
        for channel in range(CHANNEL, CHANNEL + 20):
            rows.append(
                await store.create_challenge(
                    guild_id=GUILD,
                    channel_id=channel,
                    players=((ALICE.id, "alice"), (BOB.id, "bob")),
                    options=MatchOptions(),
                    rated=False,
                    now=1.0,
                    expires_at=None,
                )
            )
        keys = [row.web_key for row in rows]
        assert all(key is not None and KEY.match(key) for key in keys)
        assert len(set(keys)) == len(keys)
        for row in rows:
            assert row.web_key is not None
            found = await store.match_by_web_key(row.web_key)
            assert found is not None and found.id == row.id
            assert (await store.get_match(row.id)) is not None
        assert await store.match_by_web_key(str(rows[0].id)) is None
        guild_key = await store.guild_web_key(GUILD)
        assert KEY.match(guild_key)
        assert await store.guild_web_key(GUILD) == guild_key  # made once
        assert await store.guild_by_web_key(guild_key) == GUILD
        assert await store.guild_by_web_key(str(GUILD)) is None
    finally:
        await store.close()


async def test_a_finished_match_is_shared_by_its_player_and_withdrawn(
    database: Path | str, roller
) -> None:
    store = await open_store(database)
    try:
        services = build_services(store, roller=roller)
        session, club = services.session, services.club
        await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=1))
        roller.extend((3, 1))
        await session.accept(CHANNEL, BOB)
        with refuses(UserError, "^Only a match that is over can be shared"):
            await club.share_replay(GUILD, CHANNEL, None, ALICE.id, moderator=False)
        await session.resign(CHANNEL, BOB, ResultKind.SINGLE)
        await session.answer_resignation(CHANNEL, ALICE, True)
        with refuses(UserError, "^Only the match's players and members with Manage Messages"):
            await club.share_replay(GUILD, CHANNEL, None, CAROL.id, moderator=False)
        row, token = await club.share_replay(GUILD, CHANNEL, None, BOB.id, moderator=False)
        assert token is not None and KEY.match(token) and token != row.web_key
        assert (await store.shared_match(token)) == row
        again = await club.share_replay(GUILD, CHANNEL, row.id, CAROL.id, moderator=True)
        assert again[1] == token  # one link a match
        _row, gone = await club.share_replay(
            GUILD, CHANNEL, None, ALICE.id, moderator=False, stop=True
        )
        assert gone is None and await store.shared_match(token) is None
        with refuses(UserError, "^Match #\\d+'s replay is not shared"):
            await club.share_replay(GUILD, CHANNEL, None, ALICE.id, moderator=False, stop=True)
    finally:
        await store.close()


async def test_rows_from_before_the_keys_get_random_ones(tmp_path: Path) -> None:
    """The migration gives every older match a key of its own (SQLite's randomblob)."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        for migration in MIGRATIONS[:10]:
            db.executescript(migration)
        for channel in (1, 2):
            db.execute(
                "INSERT INTO matches (guild_id, channel_id, status, player0_id, player0_name, "
                "player1_id, player1_name, options, rated, created_at, updated_at, "
                "last_action_at) VALUES (1, ?, 'finished', 1, 'a', 2, 'b', '{}', 0, 0, 0, 0)",
                (channel,),
            )
        db.execute(f"PRAGMA user_version = {len(MIGRATIONS[:10])}")
    store = await Store.open(path)
    try:
        keys = [row[0] for row in await store.fetch("SELECT web_key FROM matches")]
        assert len(keys) == 2 and keys[0] != keys[1]
        assert all(re.fullmatch(r"[0-9a-f]{32}", key) for key in keys)
    finally:
        await store.close()


@pytest.mark.parametrize("rule", ["link", "members"])
async def test_the_servers_web_choices_are_kept(store, rule: str) -> None:
    from bot.core.records import WebLinkRule

    services = build_services(store)
    settings = await services.club.set_web_links(GUILD, WebLinkRule(rule))
    assert settings.web_links is WebLinkRule(rule) and not settings.public_leaderboard
    settings = await services.club.set_public_leaderboard(GUILD, True)
    assert settings.public_leaderboard and settings.web_links is WebLinkRule(rule)
    assert await store.guild_settings(GUILD) == settings
