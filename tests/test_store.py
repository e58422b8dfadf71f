"""The store on a real database: migrations, one live row per channel, versioned writes,
and atomic actions: a failure before any statement of an action, or a crash of the whole
process in the middle of one, leaves everything exactly as it was.

The backend-neutral tests run against SQLite and PostgreSQL alike (the ``database``
fixture); the ones about the SQLite file itself run against SQLite only.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.errors import ChannelBusyError, ConflictError, UserError
from bot.core.records import (
    Action,
    BoardSide,
    Change,
    ComputerResults,
    DiceSeal,
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
from bot.core.session import Player, Report, SessionService
from bot.engine import EndReason, Game, GameResult, MatchOptions, ResultKind
from bot.services import Services
from bot.storage import MIGRATIONS, Storage, Store, open_store
from tests.conftest import FakeClock
from tests.telling import refuses

ROOT = Path(__file__).resolve().parent.parent
SQLITE_ONLY = pytest.mark.parametrize("database", ["sqlite"], indirect=True)


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Storage]:
    opened = await open_store(database)
    yield opened
    await opened.close()  # harmless when a restart test has closed it already


GUILD = 10
ALICE = Player(1, "alice")
BOB = Player(2, "bob")


async def challenge(store: Store, channel: int, *, level: str | None = None, now: float = 0.0):
    return await store.create_challenge(
        guild_id=GUILD,
        channel_id=channel,
        players=((ALICE.id, ALICE.name), (BOB.id, BOB.name)),
        options=MatchOptions(length=3),
        rated=True,
        now=now,
        expires_at=now + 900,
        computer_level=level,
    )


def event(game: Game, action: Action, player: int | None = 0) -> NewEvent:
    return NewEvent(
        game_number=game.game_number,
        actor_id=None,
        player=player,
        action=action,
        position_id=game.position_id(),
        gnu_match_id=game.match_id(),
    )


# --- schema and basic rules -------------------------------------------------------------------


async def test_a_new_file_is_migrated_once(db_path: Path) -> None:
    store = await Store.open(db_path)
    assert db_path.exists()
    assert await store.schema_version() == len(MIGRATIONS)
    await challenge(store, 1)
    await store.close()

    store = await Store.open(db_path)  # opening again keeps the data and migrates nothing
    assert await store.schema_version() == len(MIGRATIONS)
    assert [row.channel_id for row in await store.live_matches()] == [1]
    await store.close()
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_opening_creates_missing_folders(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "a" / "b" / "gammon.db")
    assert await store.schema_version() == len(MIGRATIONS)
    await store.close()


async def test_one_live_row_per_channel(store: Store) -> None:
    row = await challenge(store, 1)
    assert (row.status, row.version, row.game) == ("challenge", 0, None)
    assert row.player_index(ALICE.id) == 0 and row.player_index(99) is None
    with pytest.raises(ChannelBusyError):
        await challenge(store, 1)
    await challenge(store, 2)  # another channel is free
    declined = await store.apply(Change(row.id, row.version, Status.DECLINED, None, 1.0))
    assert declined.status == "declined" and declined.version == 1 and not declined.live
    again = await challenge(store, 1)
    assert again.id != row.id
    assert (await store.live_match(1)) == again


async def test_apply_returns_what_a_fresh_read_returns(store: Store) -> None:
    row = await challenge(store, 1)
    game = Game.new(row.options).opening_roll(3, 1)
    applied = await store.apply(
        Change(row.id, row.version, Status.PLAYING, game, 5.0, events=[event(game, Action.OPENING)])
    )
    assert applied == await store.get_match(row.id)
    assert applied.game == game and applied.version == 1
    assert (applied.updated_at, applied.last_action_at) == (5.0, 5.0)
    quiet = await store.apply(Change(row.id, 1, Status.PLAYING, game, 9.0, touch=False))
    assert (quiet.updated_at, quiet.last_action_at) == (9.0, 5.0)


async def test_a_stale_version_is_a_conflict_and_writes_nothing(store: Store) -> None:
    row = await challenge(store, 1)
    game = Game.new(row.options).opening_roll(3, 1)
    await store.apply(
        Change(row.id, 0, Status.PLAYING, game, 1.0, events=[event(game, Action.OPENING)])
    )
    with pytest.raises(ConflictError):
        await store.apply(
            Change(row.id, 0, Status.FINISHED, game, 2.0, events=[event(game, Action.ROLL)])
        )
    stored = await store.get_match(row.id)
    assert stored is not None and stored.version == 1 and stored.status == "playing"
    assert [e.action for e in await store.events(row.id)] == ["opening"]


async def test_a_row_changed_by_another_process_is_never_served_stale(
    database: Path | str, store: Store, service: SessionService, roller: ScriptedRoller
) -> None:
    """Two processes on one file: each read checks the stored version, so a refusal names
    the real state (not "roll" again after the other process rolled) and reads are fresh."""
    await start(service, roller, 1, MatchOptions(length=3))  # Bob to roll
    assert (await service.current(1)) is not None  # this process has read (and cached) it
    other_store = await open_store(database)
    try:
        other = SessionService(other_store, roller=ScriptedRoller([5, 2]), clock=service.clock)
        rolled = await other.roll(1, BOB)
        roller.extend([6, 4])
        with refuses(UserError, "already rolled"):
            await service.roll(1, BOB)
        assert roller.remaining() == 2  # the refused roll drew no dice
        fresh = await service.current(1)
        assert fresh == rolled.match
        moved = await service.move(1, BOB, "13/11 13/8")
        assert moved.match.version == rolled.match.version + 1
        # And the other process, in turn, sees this one's move at once.
        assert await other.current(1) == moved.match
    finally:
        await other_store.close()


async def test_events_are_numbered_in_order_per_match(store: Store) -> None:
    first = await challenge(store, 1)
    second = await challenge(store, 2)
    game = Game.new(first.options)
    await store.apply(
        Change(
            first.id,
            0,
            Status.PLAYING,
            game,
            1.0,
            events=[event(game, Action.START), event(game, Action.ROLL)],
        )
    )
    await store.apply(
        Change(second.id, 0, Status.PLAYING, game, 1.0, events=[event(game, Action.START)])
    )
    await store.apply(
        Change(first.id, 1, Status.PLAYING, game, 2.0, events=[event(game, Action.MOVE)])
    )
    assert [(e.seq, e.action) for e in await store.events(first.id)] == [
        (1, Action.START),
        (2, Action.ROLL),
        (3, Action.MOVE),
    ]
    assert [(e.seq, e.action) for e in await store.events(second.id)] == [(1, Action.START)]


async def test_games_against_the_computer_stay_out_of_the_statistics(store: Store) -> None:
    row = await challenge(store, 1, level="beginner")
    game = Game.new(row.options)
    result = GameResult(0, ResultKind.GAMMON, 1, 2, EndReason.RESIGNED)
    await store.apply(
        Change(
            row.id,
            0,
            Status.FINISHED,
            game,
            1.0,
            finished_games=[FinishedGame(1, result)],
            outcome=MatchOutcome(0, (2, 0), MatchEnd.RESIGNED),
        )
    )
    assert [f.result for f in await store.game_results(row.id)] == [result]
    assert await store.player_stats(GUILD, ALICE.id) is None
    assert await store.computer_results(GUILD, ALICE.id) == [
        ComputerResults(
            "beginner", games=1, game_wins=1, matches=1, match_wins=1, points_won=2, points_lost=0
        )
    ]
    assert await store.leaderboard(GUILD) == []


# --- atomicity: a failure before any statement -----------------------------------------------


class Boom(Exception):
    """The fault the hook injects."""


class FailAt:
    """A fault hook that raises at its ``fail_at``-th call and records the labels it saw."""

    def __init__(self, fail_at: int) -> None:
        self.fail_at = fail_at
        self.labels: list[str] = []

    def __call__(self, label: str) -> None:
        self.labels.append(label)
        if len(self.labels) == self.fail_at:
            raise Boom(label)


async def start(service: SessionService, roller: ScriptedRoller, channel: int, options=None):
    await service.challenge(GUILD, channel, ALICE, BOB, options)
    roller.extend([3, 1])  # Alice opens with 3-1
    await service.accept(channel, BOB)
    return await service.move(channel, ALICE, "8/5 6/5")  # Bob to act


Setup = Callable[[SessionService, ScriptedRoller, int], Awaitable[object]]
Step = Callable[[SessionService, ScriptedRoller, int], Awaitable[Report]]


async def _roll_setup(service, roller, channel):
    await start(service, roller, channel, MatchOptions(length=3))


async def _roll(service: SessionService, roller: ScriptedRoller, channel: int) -> Report:
    roller.extend([5, 2])
    return await service.roll(channel, BOB)


async def _double_setup(service, roller, channel, length=3):
    await start(service, roller, channel, MatchOptions(length=length))
    await service.double(channel, BOB)


async def _drop_next_game(service, roller, channel):
    roller.extend([6, 1])  # the next game's opening roll
    return await service.drop(channel, ALICE)


async def _money_double_setup(service, roller, channel):
    await _double_setup(service, roller, channel, length=0)


async def _drop_ends_match(service, roller, channel):
    return await service.drop(channel, ALICE)


async def _claim_setup(service, roller, channel):
    await start(service, roller, channel, MatchOptions(length=5))
    service.clock.advance(3601)


async def _claim(service, roller, channel):
    return await service.claim(channel, ALICE)


async def _challenge_only(service, roller, channel):
    await service.challenge(GUILD, channel, ALICE, BOB, MatchOptions(length=3))


async def _accept(service, roller, channel):
    roller.extend([2, 2, 3, 1])  # a tie, then Alice opens
    return await service.accept(channel, BOB)


SCENARIOS: dict[str, tuple[Setup, Step, set[str]]] = {
    "roll": (_roll_setup, _roll, {"update", "event"}),
    "accept": (_challenge_only, _accept, {"update", "event"}),
    "drop, next game": (_double_setup, _drop_next_game, {"update", "event", "game_result"}),
    "drop ends the match": (
        _money_double_setup,
        _drop_ends_match,
        {"update", "event", "game_result", "match_result"},
    ),
    # A claim forfeits the match at the score reached: no game is won.
    "claim": (_claim_setup, _claim, {"update", "event", "match_result"}),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
async def test_a_failure_before_any_statement_leaves_everything_as_it_was(
    name: str, store: Store, service: SessionService, roller: ScriptedRoller, snapshot
) -> None:
    setup, action, labels = SCENARIOS[name]
    # An earlier rated match, so both players have statistics and ratings to protect.
    await _money_double_setup(service, roller, 1)
    await service.drop(1, ALICE)
    channel = 2
    await setup(service, roller, channel)
    live = await store.live_match(channel)
    assert live is not None
    users = (ALICE.id, BOB.id)
    before = await snapshot(live.id, GUILD, users)

    fail_at = 0
    while True:
        fail_at += 1
        hook = store.fault_hook = FailAt(fail_at)
        try:
            report = await action(service, roller, channel)
        except Boom as exc:
            assert hook.labels[-1] == str(exc)
            assert await snapshot(live.id, GUILD, users) == before, f"after {hook.labels}"
            assert roller.remaining() == 0
            continue
        finally:
            store.fault_hook = None
        break
    # Every statement was a failure point once, then the same action went through.
    assert fail_at == len(hook.labels) + 1
    assert set(hook.labels) == labels
    after = await snapshot(live.id, GUILD, users)
    assert after.match is not None and after.match.version == before.match.version + 1
    assert len(after.events) > len(before.events)
    assert report.match == after.match


@SQLITE_ONLY
async def test_a_failed_commit_is_rolled_back(
    store: Store, service: SessionService, roller: ScriptedRoller, snapshot, monkeypatch
) -> None:
    """COMMIT itself can fail (database busy, disk full): the transaction must not linger."""
    await _roll_setup(service, roller, 1)
    live = await store.live_match(1)
    assert live is not None
    before = await snapshot(live.id, GUILD, (ALICE.id, BOB.id))
    db = store._db
    real_execute = db.execute
    failures: list[str] = []

    def failing_commit(sql, *args):
        if sql == "COMMIT" and not failures:
            failures.append(sql)

            async def fail():
                raise sqlite3.OperationalError("disk I/O error")

            return fail()
        return real_execute(sql, *args)

    monkeypatch.setattr(db, "execute", failing_commit)
    with pytest.raises(sqlite3.OperationalError):
        await _roll(service, roller, 1)
    assert not db.in_transaction
    assert await snapshot(live.id, GUILD, (ALICE.id, BOB.id)) == before
    report = await _roll(service, roller, 1)
    assert report.match.version == live.version + 1


# --- atomicity: the process dies in the middle of an action ----------------------------------

CRASH = textwrap.dedent(
    """
    import asyncio, os, sys
    from bot.core.dice import ScriptedRoller
    from bot.core.session import Player, SessionService
    from bot.storage import Store

    async def main(path, label):
        store = await Store.open(path)
        service = SessionService(store, roller=ScriptedRoller())

        def die(seen):
            if seen == label:
                os._exit(3)  # no rollback, no close: the process is simply gone

        store.fault_hook = die
        await service.drop(2, Player(1, "alice"))

    asyncio.run(main(sys.argv[1], sys.argv[2]))
    """
)


@SQLITE_ONLY
@pytest.mark.parametrize("label", ["event", "match_result"])
async def test_a_crash_in_the_middle_of_an_action_loses_it_whole(
    label: str, db_path: Path, store: Store, service: SessionService, roller, snapshot
) -> None:
    await _money_double_setup(service, roller, 1)
    await service.drop(1, ALICE)
    await _money_double_setup(service, roller, 2)
    live = await store.live_match(2)
    assert live is not None
    before = await snapshot(live.id, GUILD, (ALICE.id, BOB.id))
    await store.close()

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", CRASH, str(db_path), label],
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 3, done.stderr.decode()

    reopened = await Store.open(db_path)
    try:
        survivor = SessionService(reopened, roller=ScriptedRoller(), clock=service.clock)
        row = await reopened.live_match(2)
        assert row == before.match
        assert await reopened.events(live.id) == before.events
        assert await reopened.game_results(live.id) == before.results
        for user_id, stats in before.players.items():
            assert await reopened.player_stats(GUILD, user_id) == stats
        report = await survivor.drop(2, ALICE)
        assert report.match.status == "finished" and report.match.final_score == (0, 1)
    finally:
        await reopened.close()


# --- durability and privacy (issue #12, item 8) ---------------------------------------------


@SQLITE_ONLY
async def test_reads_answer_while_a_transaction_is_being_written(store: Store) -> None:
    """A read never queues behind a write (group commits hold the writing connection for
    several round trips), and sees only what was committed."""
    row = await challenge(store, 1)
    await store.save_guild_settings(GUILD, GuildSettings(threads=True))
    async with store._lock:  # as a group commit holds it, half-way through its transaction
        await store._db.execute("BEGIN IMMEDIATE")
        try:
            await store._db.execute(
                "UPDATE matches SET version = version + 7 WHERE id = ?", (row.id,)
            )
            live = await asyncio.wait_for(store.live_match(1), 2)
            settings = await asyncio.wait_for(store.guild_settings(GUILD), 2)
        finally:
            await store._db.execute("ROLLBACK")
    assert live is not None and live.version == row.version  # not the uncommitted write
    assert settings.threads


@SQLITE_ONLY
async def test_every_acknowledged_action_is_fsynced(store: Store) -> None:
    """synchronous=FULL in WAL mode syncs the log at every commit: a power cut cannot roll
    back a move the players were shown (NORMAL, the old setting, only syncs at checkpoints)."""
    async with store._db.execute("PRAGMA synchronous") as cursor:
        row = await cursor.fetchone()
        assert row is not None
        (level,) = row
    assert level == 2  # FULL
    async with store._db.execute("PRAGMA journal_mode") as cursor:
        row = await cursor.fetchone()
        assert row is not None
        (mode,) = row
    assert mode == "wal"


async def test_the_database_is_private_to_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "data" / "gammon.db"
    store = await Store.open(path)
    try:
        await challenge(store, 1)  # write something, so the -wal file exists too
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        wal = path.with_name(path.name + "-wal")
        assert wal.exists() and stat.S_IMODE(wal.stat().st_mode) == 0o600
    finally:
        await store.close()


@pytest.mark.parametrize(
    "name",
    [".env", ".env.local", ".env.production", "gammon.db", "backup/old.db", "x.db-wal", "x.db-shm"],
)
def test_secrets_and_databases_are_never_committed(name: str) -> None:
    root = Path(__file__).resolve().parents[1]
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", name], cwd=root, check=False
    )
    assert ignored.returncode == 0, f"{name} is not ignored by .gitignore"


def test_the_settings_example_stays_committed() -> None:
    root = Path(__file__).resolve().parents[1]
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", "-q", ".env.example"], cwd=root, check=False
    )
    assert ignored.returncode == 1


async def test_actions_arriving_together_share_a_commit_and_each_stands_alone(
    store: Store,
) -> None:
    """Group commit: twenty actions at once take fewer transactions than twenty, and one
    that fails (a stale version) writes nothing while the others are all stored."""
    rows = [await challenge(store, channel) for channel in range(100, 120)]
    games = [Game.new(row.options) for row in rows]
    before = store.commits
    changes = [
        Change(row.id, 0, Status.PLAYING, game, 1.0, events=[event(game, Action.START)])
        for row, game in zip(rows, games, strict=True)
    ]
    changes[7] = Change(rows[7].id, 5, Status.PLAYING, games[7], 1.0)  # a stale version
    outcomes = await asyncio.gather(
        *(store.apply(change) for change in changes), return_exceptions=True
    )
    assert isinstance(outcomes[7], ConflictError)
    assert all(not isinstance(o, BaseException) for i, o in enumerate(outcomes) if i != 7)
    if isinstance(store, Store):  # PostgreSQL commits each action on its own connection
        assert 1 <= store.commits - before < len(changes)
    stale = await store.get_match(rows[7].id)
    assert stale is not None and stale.version == 0
    for row in rows[:7] + rows[8:]:
        stored = await store.get_match(row.id)
        assert stored is not None and stored.status == Status.PLAYING and stored.version == 1
        assert [e.action for e in await store.events(row.id)] == [Action.START]


async def test_settings_are_kept_per_server_and_per_player(store: Store) -> None:
    assert await store.guild_settings(GUILD) == GuildSettings()
    await store.save_guild_settings(GUILD, GuildSettings(threads=True, language="fr"))
    assert await store.guild_settings(GUILD) == GuildSettings(threads=True, language="fr")
    await store.save_guild_settings(GUILD, GuildSettings(threads=True, language=None))
    assert (await store.guild_settings(GUILD)).language is None
    assert await store.guild_settings(GUILD + 1) == GuildSettings()
    mine = UserSettings(
        notify=Notify.IDLE, notify_minutes=5, board_side=BoardSide.LEFT, theme=ThemeName.DARK
    )
    await store.save_user_settings(ALICE.id, mine)
    assert await store.user_settings(ALICE.id) == mine
    assert await store.user_settings(BOB.id) == UserSettings()


async def test_every_reader_and_small_writer_behaves_alike(
    store: Store, service: SessionService, roller: ScriptedRoller
) -> None:
    """A tour of the methods the session and cogs use besides apply, on each backend."""
    # A finished rated match (Alice drops a double) and a live one with sealed dice.
    await _money_double_setup(service, roller, 1)
    await service.drop(1, ALICE)
    seal = DiceSeal("ab" * 32, "cd" * 32, None)
    row = await store.create_challenge(
        guild_id=GUILD,
        channel_id=2,
        players=((ALICE.id, ALICE.name), (BOB.id, BOB.name)),
        options=MatchOptions(length=3),
        rated=False,
        now=5.0,
        expires_at=None,
        auto_play=True,
        dice=seal,
    )
    game = Game.new(row.options).opening_roll(3, 1)
    opening = NewEvent(1, None, 0, Action.OPENING, game.position_id(), game.match_id(), dice=(3, 1))
    row = await store.apply(
        Change(row.id, 0, Status.PLAYING, game, 6.0, events=[opening], dice_public="ef" * 8)
    )
    assert row.auto_play and row.dice == DiceSeal("ab" * 32, "cd" * 32, "ef" * 8, 0)
    assert await store.match_by_dice_public("ef" * 8) == row
    assert await store.match_by_dice_public("00") is None

    # Reminders: once per version, whoever asks.
    assert await store.note_notified(row.id, row.version)
    assert not await store.note_notified(row.id, row.version)
    assert not await store.note_notified(row.id, row.version + 1)  # not the current version
    await store.note_board(row.id, 77, 88)
    noted = await store.get_match(row.id)
    assert noted is not None and noted.board == (77, 88)

    # Moving to a thread; a busy channel refuses.
    await challenge(store, 3)
    with pytest.raises(ChannelBusyError):
        await store.relocate(row.id, 3, 2)
    moved = await store.relocate(row.id, 40, 2)
    assert (moved.channel_id, moved.home_channel_id, moved.version) == (40, 2, row.version + 1)
    assert await store.live_match(2) is None and await store.live_match(40) == moved
    assert [m.channel_id for m in await store.live_matches_in(GUILD)] == [40, 3]
    assert await store.live_matches_in(GUILD + 1) == []
    latest = await store.latest_match(40)
    assert latest is not None and latest.id == row.id

    # What the finished match left: rolls, ratings, the leaderboard.
    rolls = await store.roll_events(GUILD)
    assert [players for players, _ in rolls] == [(ALICE.id, BOB.id), (ALICE.id, BOB.id)]
    assert rolls[1][1][0].dice == (3, 1)
    board = await store.leaderboard(GUILD)
    assert [p.user_id for p in board] == [BOB.id, ALICE.id]
    assert board[0].rating > 1500 > board[1].rating and board[0].streak == 1
    assert await store.leaderboard(GUILD, min_rated_matches=2) == []
    history = await store.rating_history(GUILD, BOB.id)
    assert len(history) == 1 and history[0][1] == board[0].rating
    assert await store.computer_results(GUILD, ALICE.id) == []


async def test_reminder_candidates_are_only_the_games_an_idle_reminder_may_be_due_in(
    store: Store, service: SessionService, services: Services, roller: ScriptedRoller
) -> None:
    # Bob asked for a reminder after 5 idle minutes; Alice, Carol and Dave did not.
    await store.save_user_settings(BOB.id, UserSettings(notify=Notify.IDLE, notify_minutes=5))
    carol, dave = Player(3, "carol"), Player(4, "dave")
    started = (await start(service, roller, 1)).match  # Alice and Bob, Bob to act
    await service.challenge(GUILD, 2, carol, dave)
    roller.extend([3, 1])
    await service.accept(2, dave)  # nobody there wants idle reminders
    await service.challenge(GUILD, 3, BOB, ALICE)  # a challenge is not a game in play
    since = started.last_action_at

    assert await store.reminder_candidates(since + 299) == []
    [due] = await store.reminder_candidates(since + 300)
    assert due.id == started.id and due.version == started.version
    assert isinstance(service.clock, FakeClock)  # the conftest clock the test moves
    service.clock.now = since + 300
    assert [(row.id, user) for row, user in await services.club.due_reminders()] == [
        (started.id, BOB.id)
    ]
    assert await store.note_notified(due.id, due.version)
    assert await store.reminder_candidates(since + 3600) == []  # reminded this turn already
    service.clock.now = since + 3600
    assert await services.club.due_reminders() == []
