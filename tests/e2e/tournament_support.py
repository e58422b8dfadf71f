"""Helpers for the tournament end-to-end tests: a director, four more players, and playing
an opened tournament match to its end through slash commands and buttons."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.records import MatchRow
from cogs.ladder import Ladder
from cogs.tournament import Tournament
from tests.e2e import conftest
from tests.e2e.conftest import Harness, running_cog
from tests.e2e.fake_discord import (
    PERM_MANAGE_GUILD,
    FakeChannel,
    FakeDiscord,
    FakeMember,
    RecordedMessage,
)


def people(h: Harness) -> tuple[FakeMember, list[FakeMember]]:
    """A tournament director (Manage Server) and five players (alice, bob, carol, dave, eve)."""
    director = h.fake.create_member("td", permissions=PERM_MANAGE_GUILD)
    dave = h.fake.create_member("dave")
    eve = h.fake.create_member("eve")
    return director, [h.alice, h.bob, h.carol, dave, eve]


async def tournament(h: Harness, who: FakeMember, sub: str, channel: str = "games", **options):
    return await h.fake.slash(who, channel, "tournament", sub, options=options)


def threads(h: Harness) -> list[FakeChannel]:
    return sorted((c for c in h.fake.guild.channels.values() if c.is_thread), key=lambda c: c.id)


async def announcement(h: Harness) -> RecordedMessage:
    return await h.fake.wait_for_message(
        "games", lambda m: any((b.custom_id or "").startswith("tourney:") for b in m.buttons)
    )


def tournament_cog(h: Harness) -> Tournament:
    cog: Tournament = running_cog(h, "Tournament", "cogs.tournament")
    return cog


def ladder_cog(h: Harness) -> Ladder:
    cog: Ladder = running_cog(h, "Ladder", "cogs.ladder")
    return cog


async def live_row(h: Harness, channel: int) -> MatchRow:
    """The live match of a channel, with a game and a player to act."""
    row = await h.service.store.live_match(channel)
    assert row is not None and row.game is not None and row.game.actor is not None
    return row


async def play_out(h: Harness, thread: FakeChannel, players: list[FakeMember]) -> int:
    """The player on roll in the thread's 1-point match resigns a backgammon and the other
    accepts with the button: the match ends. The winner's user id."""
    row = await h.service.store.live_match(thread.id)
    assert row is not None and row.game is not None and row.game.actor is not None
    on_roll = row.player_ids[row.game.actor]
    loser = next(p for p in players if p.id == on_roll)
    winner = next(p for p in players if p.id in row.player_ids and p.id != on_roll)
    offer = await h.board_after(
        await h.fake.slash(loser, thread.id, "backgammon", "resign", options={"kind": "backgammon"})
    )
    await h.board_after(await h.press(winner, offer, "resign_accept"))
    await h.services.tournaments.settle()
    return winner.id


async def play_all(h: Harness, players: list[FakeMember]) -> int:
    """Play every event match as its thread opens, until none is left; how many."""
    played: set[int] = set()
    while True:
        live = [
            t
            for t in threads(h)
            if t.id not in played and await h.service.store.live_match(t.id) is not None
        ]
        if not live:
            return len(played)
        for thread in live:
            played.add(thread.id)
            await play_out(h, thread, players)


class PostgresOpener:
    """Stands in for the SQLite ``Store`` in the harness: opens the test's PostgreSQL."""

    url = ""

    @classmethod
    async def open(cls, _path: object):  # the harness passes its SQLite path: unused
        from bot.storage.postgres import PostgresStore

        return await PostgresStore.open(cls.url)


@pytest.fixture(params=["sqlite", "postgres"], name="both")
async def both_backends(
    request: pytest.FixtureRequest,
    fake: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[Harness]:
    """The harness on SQLite, then on PostgreSQL (the test's own schema)."""
    if request.param == "postgres":
        opener = type("Opener", (PostgresOpener,), {"url": request.getfixturevalue("pg_url")})
        monkeypatch.setattr(conftest, "Store", opener)
    h = Harness(fake, tmp_path / "gammon.db")
    await h.start()
    try:
        expected = "PostgresStore" if request.param == "postgres" else "Store"
        assert type(h.service.store).__name__ == expected
        yield h
    finally:
        await h.stop()
