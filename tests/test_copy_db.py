"""``python -m bot migrate`` and ``python -m bot copy-db``: SQLite to PostgreSQL and back.

A database with finished, live and unreadable matches, ratings, results against the
computer and settings goes to a throwaway PostgreSQL and back to a new SQLite file: every
row arrives with its id, the copies replay, and a game carries on where it stopped.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.computer.pr import LuckAdjustedResult, PerformanceRating, PRPart
from bot.core.dice import ScriptedRoller
from bot.core.records import (
    Action,
    Change,
    FinishedGame,
    GuildSettings,
    MatchOutcome,
    NewEvent,
    Notify,
    Status,
    ThemeName,
    UserSettings,
)
from bot.core.records import EndReason as MatchEnd
from bot.core.session import Player, SessionService
from bot.engine import EndReason, Game, GameResult, MatchOptions, ResultKind
from bot.features.performance.rules import MatchPerformance
from bot.features.tournaments.rules import Format, Result
from bot.storage import Store, open_store
from bot.storage.chouette import ChouetteStore, LogEntry
from bot.storage.competitions import CompetitionStore, EntrantRow, PairingRow, TournamentOptions
from bot.storage.copy import TABLES
from bot.storage.performance import PerformanceStore
from bot.storage.pg_schema import MIGRATIONS as PG_MIGRATIONS
from bot.storage.schema import MIGRATIONS
from tests.test_cli import run_bot

GUILD = 10
ALICE = Player(1, "alice")
BOB = Player(2, "bob")
CAROL = Player(3, "carol")


async def fill(path: Path) -> None:
    """Something of everything the bot stores."""
    store = await Store.open(path)
    roller = ScriptedRoller()
    service = SessionService(store, roller=roller)
    try:
        # A finished, rated money game (Bob doubles, Alice drops).
        await service.challenge(GUILD, 1, ALICE, BOB, MatchOptions(length=0))
        roller.extend([3, 1])
        await service.accept(1, BOB)
        await service.move(1, ALICE, "8/5 6/5")
        await service.double(1, BOB)
        money = (await service.drop(1, ALICE)).match
        # Its players' PR, as the PR ladder keeps it (one with luck, one without).
        rating = PerformanceRating(PRPart(1, 0.0), PRPart(1, 0.25))
        await PerformanceStore(store).record(
            [
                MatchPerformance(
                    money.id,
                    GUILD,
                    ALICE.id,
                    "alice",
                    2.5,
                    True,
                    rating,
                    LuckAdjustedResult(-2.0, -0.5, 0.25, 1, -0.5),
                ),
                MatchPerformance(money.id, GUILD, BOB.id, "bob", 2.5, True, rating, None),
            ]
        )
        # A live match, Bob to roll; and a challenge waiting for an answer.
        await service.challenge(GUILD, 2, CAROL, BOB, MatchOptions(length=3))
        roller.extend([3, 1])
        await service.accept(2, BOB)
        await service.move(2, CAROL, "8/5 6/5")
        await service.challenge(GUILD, 3, ALICE, CAROL, MatchOptions(length=5))
        # A game against the computer, finished (its record is kept apart).
        row = await store.create_challenge(
            guild_id=GUILD,
            channel_id=4,
            players=((ALICE.id, ALICE.name), (99, "computer")),
            options=MatchOptions(length=1),
            rated=False,
            now=1.0,
            expires_at=None,
            computer_level="expert",
        )
        result = GameResult(0, ResultKind.GAMMON, 1, 2, EndReason.RESIGNED)
        game = Game.new(row.options)
        start = NewEvent(
            game.game_number, None, None, Action.START, game.position_id(), game.match_id()
        )
        await store.apply(
            Change(
                row.id,
                0,
                Status.FINISHED,
                game,
                2.0,
                events=[start],
                finished_games=[FinishedGame(1, result)],
                outcome=MatchOutcome(0, (2, 0), MatchEnd.RESIGNED),
            )
        )
        # An unreadable row, set aside.
        broken = await service.challenge(GUILD, 5, BOB, CAROL, MatchOptions(length=1))
        with sqlite3.connect(path) as raw:
            raw.execute(
                "UPDATE matches SET state = '{broken', version = version + 1 WHERE id = ?",
                (broken.match.id,),
            )
        await store.quarantine(broken.match.id, 3.0)
        await store.save_guild_settings(GUILD, GuildSettings(threads=True, language="fr"))
        await store.save_user_settings(
            BOB.id, UserSettings(notify=Notify.IDLE, theme=ThemeName.DARK)
        )
        await fill_competitions(store)
    finally:
        await store.close()


async def fill_competitions(store: Store) -> None:
    """A tournament with entrants and a decided pairing, a TD role and a ladder."""
    competitions = CompetitionStore(store)
    event = await competitions.create_tournament(
        guild_id=GUILD,
        channel_id=1,
        name="Friday KO",
        format=Format.KNOCKOUT,
        options=TournamentOptions(lengths=(3, 5)),
        created_by=ALICE.id,
        now=1.5,
        rng_seed=7,
    )
    for at, player in enumerate((ALICE, BOB)):
        await competitions.add_entrant(event.id, EntrantRow(player.id, player.name, 1500.0, at))
    await competitions.add_pairings(event.id, [PairingRow("main:1:0", 1, ALICE.id, BOB.id, 3)])
    await competitions.claim_pairing(event.id, "main:1:0", channel_id=7, opened_at=2, deadline=9)
    await competitions.record_result(
        event.id, "main:1:0", Result.walkover(ALICE.id, BOB.id), now=3.0, reason="no show"
    )
    await competitions.set_td_role(GUILD, 555)
    await competitions.save_ladder(GUILD, 1, '{"ranking": [1, 2]}', None)
    chouettes = ChouetteStore(store)
    session = await chouettes.create(
        guild_id=GUILD,
        channel_id=8,
        home_channel_id=1,
        started_by=ALICE.id,
        status="open",
        state='{"status": "open"}',
        events=[LogEntry(0, "joined", '{"player": 1}')],
        now=4.0,
    )
    assert session is not None
    await chouettes.save(
        session,
        status="ended",
        state='{"status": "ended"}',
        events=[LogEntry(1, "over", '{"value": 1}'), LogEntry(1, "ended", "{}")],
        points=[(ALICE.id, "alice", 3), (BOB.id, "bob", -3)],
        now=5.0,
    )


async def dump(database: Path | str) -> dict[str, list[tuple]]:
    store = await open_store(database)
    try:
        return {
            table: sorted(await store.export_rows(table, columns))  # type: ignore[attr-defined]
            for table, columns in TABLES
        }
    finally:
        await store.close()


async def test_a_database_goes_to_postgresql_and_back_unchanged(
    tmp_path: Path, pg_url: str
) -> None:
    source = tmp_path / "source.db"
    await fill(source)
    there = run_bot(["copy-db", str(source), pg_url], tmp_path)
    assert there.returncode == 0, there.stderr
    line = there.stdout.strip()
    assert "\n" not in line and "5 matches" in line and "2 live" in line
    assert "4 matches replayed" in line and "1 unreadable" in line

    refused = run_bot(["copy-db", str(source), pg_url], tmp_path)
    assert refused.returncode == 1 and "not empty" in refused.stderr

    back = tmp_path / "back.db"
    returned = run_bot(["copy-db", pg_url, str(back)], tmp_path)
    assert returned.returncode == 0, returned.stderr
    original = await dump(source)
    assert sum(map(len, original.values())) > 20
    assert await dump(back) == original
    assert await dump(pg_url) == {
        table: [tuple(int(v) if isinstance(v, bool) else v for v in row) for row in rows]
        for table, rows in original.items()
    }

    # Play carries on in PostgreSQL; new rows get new ids (the sequences followed the copy).
    store = await open_store(pg_url)
    try:
        service = SessionService(store, roller=ScriptedRoller([5, 2]))
        rolled = await service.roll(2, BOB)
        assert rolled.match.version > 0
        fresh = await service.challenge(GUILD, 6, ALICE, BOB, MatchOptions(length=1))
        assert fresh.match.id == 6
        stats = await store.player_stats(GUILD, ALICE.id)
        assert stats is not None and stats.rated_matches == 1
    finally:
        await store.close()


def test_migrate_prints_the_schema_version(tmp_path: Path, pg_url: str) -> None:
    db = tmp_path / "fresh.db"
    local = run_bot(["migrate"], tmp_path, env={"DATABASE_PATH": str(db)})
    assert local.returncode == 0, local.stderr
    assert local.stdout.strip() == f"{db}: schema version {len(MIGRATIONS)}"
    remote = run_bot(["migrate"], tmp_path, env={"DATABASE_URL": pg_url})
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout.strip().endswith(f"schema version {len(PG_MIGRATIONS)}")


def test_copy_db_names_a_missing_source(tmp_path: Path) -> None:
    result = run_bot(["copy-db", str(tmp_path / "none.db"), str(tmp_path / "out.db")], tmp_path)
    assert result.returncode == 2
    assert "there is no database" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out.db").exists()


def test_migrate_names_an_unreachable_server_in_one_line(tmp_path: Path) -> None:
    url = "postgresql://gammon:s3cret@/gammon?host=/nonexistent"
    result = run_bot(["migrate"], tmp_path, env={"DATABASE_URL": url})
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "cannot open the database" in result.stderr
    assert "s3cret" not in result.stderr and "Traceback" not in result.stderr


async def test_copy_db_copies_every_table_but_the_reviews_cache(tmp_path: Path) -> None:
    """A table added by a migration is copied too (the PR ladder's among them); only the
    stored game reviews stay behind: they are worked out again from the event log."""
    store = await Store.open(tmp_path / "tables.db")
    await store.close()
    with sqlite3.connect(tmp_path / "tables.db") as raw:
        tables = {
            row[0] for row in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
    assert tables - {table for table, _ in TABLES} == {"game_reviews"}
    assert "match_performance" in tables
