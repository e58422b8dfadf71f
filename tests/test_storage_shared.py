"""The storage layer both SQL backends share (bot/storage/shared.py and its helpers).

Two kinds of checks. The structural ones read the backend modules' source and fail the day a
query, a marshalling step or a shared method is written twice again (once for SQLite, once
for PostgreSQL): what the backends have in common lives in :mod:`bot.storage.shared`,
:mod:`bot.storage.rows` and :mod:`bot.storage.live`, and each backend module keeps only
what is its own. The others test each shared piece: the placeholder translation, the row
cache, the marshalling both ways, and the primitives a feature's queries are built on, on
both databases.
"""

from __future__ import annotations

import ast
import inspect
import re
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import asyncpg
import pytest

from bot.core.errors import ChannelBusyError
from bot.core.records import (
    Action,
    BoardSide,
    ClaimRule,
    ComputerResults,
    FinishedGame,
    GuildSettings,
    MatchRow,
    NewEvent,
    Notify,
    PlayerStats,
    Status,
    ThemeName,
    UserSettings,
    WebLinkRule,
)
from bot.engine import EndReason, Game, GameResult, MatchOptions, ResultKind
from bot.storage import open_store
from bot.storage.base import StoreBase
from bot.storage.dialect import qmark
from bot.storage.live import LiveRows
from bot.storage.protocol import Storage
from bot.storage.rows import (
    COMPUTER_COLUMNS,
    EVENT_COLUMNS,
    GAME_RESULT_COLUMNS,
    PLAYER_COLUMNS,
    computer_values,
    event_from_row,
    event_values,
    finished_game_from_row,
    game_result_values,
    guild_settings_from_row,
    guild_settings_values,
    player_values,
    user_settings_from_row,
    user_settings_values,
)
from bot.storage.shared import SQLStore

ROOT = Path(__file__).resolve().parents[1]
BACKENDS = {"bot/storage/sqlite.py": "Store", "bot/storage/postgres.py": "PostgresStore"}
# What a backend may (and must) define itself: how it opens, migrates and closes, its
# channel lock, how an action's transaction is committed (SQLite's group commit,
# PostgreSQL's truthful failures), copying in, and the primitives the shared queries use.
OWN = {
    "__init__",
    "open",
    "close",
    "schema_version",
    "channel_lock",
    "apply",
    "import_rows",
}
PRIMITIVES = {
    name
    for name, member in inspect.getmembers(StoreBase)
    if getattr(member, "__isabstractmethod__", False)
}
SQL_START = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


def _class_methods(source: str, class_name: str) -> set[str]:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            return {
                item.name
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            }
    raise AssertionError(f"no class {class_name}")


def _statements(source: str) -> set[str]:
    """Every SQL statement literal of a module, normalised: placeholders as ``?``, spaces
    collapsed, interpolated parts (column lists) as ``{}``."""
    found = set()
    nodes = list(ast.walk(ast.parse(source)))
    parts = {id(part) for node in nodes if isinstance(node, ast.JoinedStr) for part in node.values}
    for node in nodes:
        if id(node) in parts:  # a piece of an f-string, read with the whole below
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                str(part.value) if isinstance(part, ast.Constant) else "{}" for part in node.values
            )
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if SQL_START.match(text):
            text = re.sub(r"(\$|\?)\d*", "?", text)
            found.add(re.sub(r"\s+", " ", text).strip().lower())
    return found


def _imports(source: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def _source(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


def shared_twice(sources: dict[str, str]) -> set[str]:
    """Methods both backend classes define that are not their own by design."""
    sqlite, postgres = (_class_methods(sources[path], name) for path, name in BACKENDS.items())
    return (sqlite & postgres) - OWN - PRIMITIVES


def statements_twice(sources: dict[str, str]) -> set[str]:
    sqlite, postgres = (_statements(sources[path]) for path in BACKENDS)
    return sqlite & postgres


# --- the backends keep only what is their own ------------------------------------------------


def test_no_method_is_written_in_both_backends() -> None:
    sources = {path: _source(path) for path in BACKENDS}
    assert not shared_twice(sources), "write it once in bot/storage/shared.py"


def test_no_statement_is_written_in_both_backends() -> None:
    sources = {path: _source(path) for path in BACKENDS}
    assert not statements_twice(sources), "write it once in bot/storage/shared.py ($n)"


@pytest.mark.parametrize("path", list(BACKENDS), ids=str)
def test_the_backends_marshal_nothing(path: str) -> None:
    """Rows become records (and records values) in bot/storage/rows.py, called from the
    shared layer; a backend that imports the codec or the row readers is doing it again."""
    imported = _imports(_source(path))
    for module in ("bot.core.codec", "bot.storage.rows", "bot.storage.stats"):
        assert module not in imported, f"{path} imports {module}"


@pytest.mark.parametrize("path", list(BACKENDS), ids=str)
def test_a_backend_overrides_no_shared_method(path: str) -> None:
    """A shared method redefined in one backend would quietly fork the two again."""
    shared = {
        name
        for layer in (SQLStore, StoreBase)
        for name, member in vars(layer).items()
        if callable(member) and not getattr(member, "__isabstractmethod__", False)
    } - {"__init__"}
    defined = _class_methods(_source(path), BACKENDS[path])
    assert not defined & shared


def test_every_storage_method_is_shared_or_a_backends_own() -> None:
    wanted = {name for name, member in vars(Storage).items() if callable(member) and name[0] != "_"}
    own = _class_methods(_source("bot/storage/sqlite.py"), "Store")
    assert not (wanted - set(dir(SQLStore)) - (OWN & own))


def test_both_backends_supply_every_primitive() -> None:
    from bot.storage.postgres import PostgresStore
    from bot.storage.sqlite import Store

    assert {"fetch", "write", "write_row", "transaction"} <= PRIMITIVES
    for store in (Store, PostgresStore):
        assert issubclass(store, SQLStore)
        assert not store.__abstractmethods__, store
        assert store._unique_violation, store


def test_the_checks_catch_a_statement_and_a_method_written_twice() -> None:
    """The structural checks themselves: a query pasted into both backends is caught."""
    twice = """
class {name}:
    async def leaderboard(self, guild_id):
        return await self.fetch(
            f"SELECT {{PLAYER_COLUMNS}} FROM players WHERE guild_id = {mark} "
            "ORDER BY rating DESC", guild_id)
"""
    sources = {
        "bot/storage/sqlite.py": twice.format(name="Store", mark="?"),
        "bot/storage/postgres.py": twice.format(name="PostgresStore", mark="$1"),
    }
    assert shared_twice(sources) == {"leaderboard"}
    assert statements_twice(sources) == {
        "select {} from players where guild_id = ? order by rating desc"
    }


# --- the placeholders ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shared", "sqlite"),
    [
        ("SELECT a FROM t WHERE b = $1", "SELECT a FROM t WHERE b = ?1"),
        ("UPDATE t SET a = $2, b = $10 WHERE c = $1 AND d = $1", None),
        ("SELECT 1", "SELECT 1"),
    ],
)
def test_placeholders_keep_their_numbers(shared: str, sqlite: str | None) -> None:
    translated = qmark(shared)
    assert "$" not in translated
    if sqlite is not None:
        assert translated == sqlite
    assert re.findall(r"\d+", translated) == re.findall(r"\d+", shared)


def test_a_bare_question_mark_is_refused() -> None:
    with pytest.raises(ValueError, match="mixed placeholders"):
        qmark("SELECT a FROM t WHERE b = ? AND c = $1")


# --- the row cache ---------------------------------------------------------------------------


def _row(match_id: int, channel_id: int, version: int, status: Status) -> MatchRow:
    return MatchRow(
        id=match_id,
        guild_id=1,
        channel_id=channel_id,
        status=status,
        player_ids=(10, 11),
        player_names=("a", "b"),
        options=MatchOptions(),
        rated=False,
        computer_level=None,
        game=None,
        version=version,
        created_at=0.0,
        updated_at=0.0,
        last_action_at=0.0,
        expires_at=None,
        winner=None,
        final_score=None,
        end_reason=None,
    )


def test_the_cache_serves_a_row_only_at_its_id_and_version() -> None:
    live = LiveRows()
    row = _row(1, 100, 3, Status.PLAYING)
    live.remember(row)
    assert live.fresh(100, 1, 3) is row
    assert live.fresh(100, 1, 4) is None  # written since (by another process)
    assert live.fresh(100, 2, 3) is None  # another match in the channel now
    assert live.fresh(101, 1, 3) is None


def test_the_cache_lets_go_of_ended_forgotten_and_vacated_rows() -> None:
    live = LiveRows()
    live.remember(_row(1, 100, 3, Status.PLAYING))
    live.remember(_row(2, 200, 1, Status.CHALLENGE))
    live.remember(_row(9, 100, 5, Status.FINISHED))  # another match ended: ours stays
    assert live.fresh(100, 1, 3) is not None
    live.remember(_row(1, 100, 4, Status.FINISHED))
    assert live.fresh(100, 1, 3) is None and len(live) == 1
    live.forget(2)
    assert len(live) == 0
    live.remember(_row(3, 300, 0, Status.CHALLENGE))
    live.vacate(300)
    assert live.fresh(300, 3, 0) is None
    live.remember(_row(3, 300, 0, Status.CHALLENGE))
    live.clear()
    assert len(live) == 0


# --- marshalling both ways -------------------------------------------------------------------


def test_an_event_reads_back_as_it_was_written() -> None:
    game = Game.new(MatchOptions())
    new = NewEvent(
        game_number=2,
        actor_id=7,
        player=1,
        action=Action.ROLL,
        position_id=game.position_id(),
        gnu_match_id=game.match_id(),
        notation=None,
        dice=(6, 5),
    )
    values = event_values(42, new, 12.5)
    assert values[0] == 42 and values[4] == "roll" and values[6] == "6-5"
    # As stored: the insert's seq first, then the columns after the match id.
    record = event_from_row((3, *values[1:]))
    assert EVENT_COLUMNS.split(", ")[0] == "seq"
    assert (record.seq, record.game_number, record.actor_id, record.player) == (3, 2, 7, 1)
    assert record.action is Action.ROLL and record.dice == (6, 5) and record.created_at == 12.5
    assert record.position_id == new.position_id and record.gnu_match_id == new.gnu_match_id


def test_a_game_result_reads_back_as_it_was_written() -> None:
    finished = FinishedGame(3, GameResult(1, ResultKind.GAMMON, 4, 8, EndReason.RESIGNED))
    values = game_result_values(42, finished, 9.0)
    assert len(values) == len(GAME_RESULT_COLUMNS.split(", ")) + 2
    assert finished_game_from_row(values[1:-1]) == finished


def test_records_and_settings_read_back_as_they_were_written() -> None:
    player = PlayerStats(1, 2, "ann", 1510.5, 3, 1, 5, 3, 2, 1, 1, 0, 1, 0, 9, 4, 1, 1)
    assert len(player_values(player)) == len(PLAYER_COLUMNS.split(", "))
    assert PlayerStats(*player_values(player)) == player
    computer = ComputerResults("expert", 4, 1, 1, 0, 3, 6)
    assert len(computer_values(computer)) == len(COMPUTER_COLUMNS.split(", "))
    assert ComputerResults(*computer_values(computer)) == computer
    guild = GuildSettings(
        threads=True,
        language="fr",
        claim=ClaimRule.GAME,
        web_links=WebLinkRule.MEMBERS,
        public_leaderboard=True,
    )
    assert guild_settings_from_row(guild_settings_values(guild)) == guild
    sqlite_row = (1, None, str(ClaimRule.MATCH), "link", 1)
    assert guild_settings_from_row(sqlite_row).threads is True  # SQLite's 1 for true
    assert guild_settings_from_row(sqlite_row).public_leaderboard is True
    assert guild_settings_from_row(None) == GuildSettings()
    user = UserSettings(
        notify=Notify.IDLE, notify_minutes=5, board_side=BoardSide.LEFT, theme=ThemeName.DARK
    )
    assert user_settings_from_row(user_settings_values(user)) == user
    assert user_settings_from_row(None) == UserSettings()


# --- the primitives a feature's queries are built on, on both databases ----------------------


@pytest.fixture
async def shared(database: Path | str) -> AsyncIterator[SQLStore]:
    store = await open_store(database)
    assert isinstance(store, SQLStore)
    yield store
    await store.close()


async def test_a_write_says_how_many_rows_it_changed(shared: SQLStore) -> None:
    assert await shared.write("DELETE FROM user_settings WHERE user_id = $1", 5) == 0
    await shared.save_user_settings(5, UserSettings(theme=ThemeName.DARK))
    await shared.save_user_settings(6, UserSettings())
    assert await shared.write("UPDATE user_settings SET theme = $1", "classic") == 2
    assert await shared.write_row("DELETE FROM user_settings WHERE user_id = $1", 7) is None
    row = await shared.write_row(
        "UPDATE user_settings SET notify = $2 WHERE user_id = $1 RETURNING user_id, notify",
        5,
        "off",
    )
    assert row is not None and tuple(row) == (5, "off")
    assert [tuple(r) for r in await shared.fetch("SELECT notify FROM user_settings")] in (
        [("off",), ("on",)],
        [("on",), ("off",)],
    )


async def test_a_transaction_commits_whole_or_not_at_all(shared: SQLStore) -> None:
    async with shared.transaction() as tx:
        await tx.execute("INSERT INTO user_settings (user_id, theme) VALUES ($1, $2)", 1, "a")
        await tx.executemany(
            "INSERT INTO user_settings (user_id, theme) VALUES ($1, $2)", [(2, "b"), (3, "c")]
        )
        assert len(await tx.fetch("SELECT user_id FROM user_settings")) == 3
    with pytest.raises(RuntimeError, match="half-way"):
        async with shared.transaction() as tx:
            await tx.execute("DELETE FROM user_settings WHERE user_id = $1", 1)
            await tx.execute("INSERT INTO user_settings (user_id) VALUES ($1)", 4)
            raise RuntimeError("half-way")
    kept = await shared.fetch("SELECT user_id, theme FROM user_settings ORDER BY user_id")
    assert [tuple(row) for row in kept] == [(1, "a"), (2, "b"), (3, "c")]
    # The store works on after a rolled-back transaction.
    await shared.save_user_settings(4, UserSettings(theme=ThemeName.DARK))
    assert (await shared.user_settings(4)).theme is ThemeName.DARK


async def test_a_second_live_row_in_a_channel_is_refused_on_both(shared: SQLStore) -> None:
    async def challenge(channel: int) -> MatchRow:
        return await shared.create_challenge(
            guild_id=1,
            channel_id=channel,
            players=((10, "a"), (11, "b")),
            options=MatchOptions(),
            rated=True,
            now=0.0,
            expires_at=None,
        )

    first = await challenge(100)
    assert first.rated is True and first.status == Status.CHALLENGE
    with pytest.raises(ChannelBusyError):
        await challenge(100)
    other = await challenge(200)
    with pytest.raises(ChannelBusyError):
        await shared.relocate(other.id, 100, 200)
    assert await shared.live_match(100) == first


# --- a feature's storage, written once for both databases ------------------------------------


class Notes(StoreBase):
    """What a feature's storage module looks like (tournaments, puzzles): its queries written
    once over the primitives of StoreBase; the bot names it in SQLStore's bases (one line),
    this test mixes it into each store class instead."""

    async def add_notes(self, user_id: int, texts: list[str]) -> None:
        async with self.transaction() as tx:
            await tx.executemany(
                "INSERT INTO notes (user_id, text) VALUES ($1, $2)",
                [(user_id, text) for text in texts],
            )

    async def notes(self, user_id: int) -> list[str]:
        rows = await self.fetch("SELECT text FROM notes WHERE user_id = $1 ORDER BY text", user_id)
        return [str(row[0]) for row in rows]


async def test_a_feature_written_once_runs_on_both_databases(database: Path | str) -> None:
    from bot.storage import is_postgres_url
    from bot.storage.postgres import PostgresStore
    from bot.storage.sqlite import Store

    class SQLiteWithNotes(Notes, Store):
        pass

    class PostgresWithNotes(Notes, PostgresStore):
        pass

    store: SQLiteWithNotes | PostgresWithNotes
    if is_postgres_url(database):
        store = cast(PostgresWithNotes, await PostgresWithNotes.open(str(database)))
    else:
        store = cast(SQLiteWithNotes, await SQLiteWithNotes.open(database))
    try:
        async with store.transaction() as tx:  # its migration, in each schema list
            await tx.execute("CREATE TABLE notes (user_id BIGINT NOT NULL, text TEXT NOT NULL)")
        await store.add_notes(1, ["b", "a"])
        refused = (sqlite3.IntegrityError, asyncpg.NotNullViolationError)
        with pytest.raises(refused):  # NOT NULL: the whole transaction is refused
            await store.add_notes(1, ["c", None])  # type: ignore[list-item]
        assert await store.notes(1) == ["a", "b"]
        assert await store.notes(2) == []
    finally:
        await store.close()


async def test_a_transaction_on_a_disk_gone_read_only_is_told_as_unavailable(
    db_path: Path,
) -> None:
    """SQLite's answer to a write it cannot make reads as a PostgreSQL that is down, and the
    store writes again once the disk is back."""
    from bot.core.errors import StoreUnavailableError
    from bot.storage.sqlite import Store

    store = await Store.open(db_path)
    try:
        await store._db.execute("PRAGMA query_only = ON")  # as a failing volume would
        with pytest.raises(StoreUnavailableError):
            async with store.transaction() as tx:
                await tx.execute("INSERT INTO user_settings (user_id) VALUES ($1)", 1)
        assert not store._db.in_transaction
        await store._db.execute("PRAGMA query_only = OFF")
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO user_settings (user_id) VALUES ($1)", 1)
        assert await store.user_settings(1) == UserSettings()
        assert [tuple(r) for r in await store.fetch("SELECT user_id FROM user_settings")] == [(1,)]
    finally:
        await store.close()
