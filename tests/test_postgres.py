"""PostgreSQL across processes: each store below has its own pool, as a bot process would.

Racing the same action applies it once; matches sharing a player finish together without a
deadlock or a lost rating; processes starting together migrate once; a channel's lock keeps
every other connection out. (The backend-neutral behaviour is tests/test_store.py's, run
against both backends.)
"""

from __future__ import annotations

import asyncio
import contextlib

import asyncpg
import pytest

from bot.core.dice import ScriptedRoller
from bot.core.errors import ConflictError, UnreadableMatchError, UserError
from bot.core.ratings import START_RATING, Rated, fibs_update
from bot.core.records import Action, Change, FinishedGame, MatchOutcome, NewEvent, Status
from bot.core.records import EndReason as MatchEnd
from bot.core.session import Player, SessionService
from bot.engine import EndReason, Game, GameResult, MatchOptions, ResultKind
from bot.storage.pg_schema import MIGRATIONS
from bot.storage.postgres import PostgresStore
from tests.telling import refused as told_refusal

GUILD = 10
ALICE = Player(1, "alice")
BOB = Player(2, "bob")


@pytest.fixture
async def stores(pg_url: str):
    """Two stores on one database: two processes."""
    first = await PostgresStore.open(pg_url)
    second = await PostgresStore.open(pg_url)
    yield first, second
    await first.close()
    await second.close()


async def challenge(store: PostgresStore, channel: int, p0: int, p1: int, length: int = 3):
    return await store.create_challenge(
        guild_id=GUILD,
        channel_id=channel,
        players=((p0, f"p{p0}"), (p1, f"p{p1}")),
        options=MatchOptions(length=length),
        rated=True,
        now=0.0,
        expires_at=900.0,
    )


def start_event(game: Game) -> NewEvent:
    return NewEvent(
        game_number=game.game_number,
        actor_id=None,
        player=None,
        action=Action.START,
        position_id=game.position_id(),
        gnu_match_id=game.match_id(),
    )


async def test_two_processes_racing_one_action_apply_it_once(stores) -> None:
    first, second = stores
    row = await challenge(first, 1, 1, 2)
    game = Game.new(row.options)
    change = Change(row.id, 0, Status.PLAYING, game, 1.0, events=[start_event(game)])
    outcomes = await asyncio.gather(
        first.apply(change), second.apply(change), return_exceptions=True
    )
    assert sorted(type(o).__name__ for o in outcomes) == ["ConflictError", "MatchRow"]
    assert len(await first.events(row.id)) == 1
    assert (await second.get_match(row.id)).version == 1


async def test_two_processes_racing_one_roll_through_the_session(stores) -> None:
    """The whole action, lock included: one roll is made; the other is refused on the
    state the first left, and draws no dice."""
    first, second = stores
    roller = ScriptedRoller([3, 1])
    one = SessionService(first, roller=roller)
    two_roller = ScriptedRoller()
    two = SessionService(second, roller=two_roller)
    await one.challenge(GUILD, 1, ALICE, BOB, MatchOptions(length=3))
    await one.accept(1, BOB)
    await one.move(1, ALICE, "8/5 6/5")  # Bob to roll
    roller.extend([5, 2])
    two_roller.extend([6, 4])
    outcomes = await asyncio.gather(one.roll(1, BOB), two.roll(1, BOB), return_exceptions=True)
    rolled = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(rolled) == 1 and len(refused) == 1
    assert isinstance(refused[0], UserError) and "already rolled" in told_refusal(refused[0])
    assert roller.remaining() + two_roller.remaining() == 2  # one roll drew its dice
    events = await first.events(rolled[0].match.id)
    assert [e.action for e in events].count("roll") == 1


async def test_shared_players_finishing_together_rate_each_match_once(stores) -> None:
    """Ten rated matches in a ring of five players, all finishing at the same moment on two
    processes: nothing deadlocks, every rating change lands once, and the result is what
    applying them one after the other gives (in the order they committed)."""
    first, second = stores
    players = [11, 12, 13, 14, 15]
    pairs = [(players[i], players[(i + 1) % 5]) for i in range(5)]
    pairs += [(b, a) for a, b in pairs]  # each pair twice, the other way round
    rows = [
        await challenge(first, 100 + i, p0, p1, length=1 + i % 3)
        for i, (p0, p1) in enumerate(pairs)
    ]
    changes = []
    for i, row in enumerate(rows):
        winner = i % 2
        result = GameResult(winner, ResultKind.SINGLE, 1, row.options.length, EndReason.RESIGNED)
        score = (row.options.length, 0) if winner == 0 else (0, row.options.length)
        changes.append(
            Change(
                row.id,
                0,
                Status.FINISHED,
                Game.new(row.options),
                5.0,
                finished_games=[FinishedGame(1, result)],
                outcome=MatchOutcome(winner, score, MatchEnd.RESIGNED),
            )
        )
    both = [first, second] * 5
    applied = await asyncio.wait_for(
        asyncio.gather(*(store.apply(c) for store, c in zip(both, changes, strict=True))),
        timeout=30,
    )
    assert all(row.status == Status.FINISHED for row in applied)

    # Replay the matches one at a time: at each step exactly the matches whose recorded
    # ratings follow from the current ones could have committed next.
    current = {user: Rated(START_RATING, 0) for user in players}
    history = {
        row.id: dict(
            await first._pool.fetch(
                "SELECT user_id, rating FROM rating_history WHERE match_id = $1", row.id
            )
        )
        for row in rows
    }
    remaining = list(range(len(rows)))
    while remaining:
        for i in remaining:
            row, winner = rows[i], i % 2
            w, lo = row.player_ids[winner], row.player_ids[1 - winner]
            new_w, new_l = fibs_update(current[w], current[lo], row.options.length)
            recorded = history[row.id]
            if recorded == {w: pytest.approx(new_w.rating), lo: pytest.approx(new_l.rating)}:
                current[w], current[lo] = new_w, new_l
                remaining.remove(i)
                break
        else:
            pytest.fail(f"no match can come next after {len(rows) - len(remaining)}")
    for user in players:
        stats = await second.player_stats(GUILD, user)
        assert stats is not None
        assert stats.rating == pytest.approx(current[user].rating)
        assert stats.experience == current[user].experience
        assert stats.rated_matches == stats.matches == 4
        assert stats.games == 4 and stats.game_wins + stats.game_losses == 4


async def test_processes_starting_together_migrate_once(pg_url: str) -> None:
    opened = await asyncio.gather(*(PostgresStore.open(pg_url) for _ in range(4)))
    try:
        for store in opened:
            assert await store.schema_version() == len(MIGRATIONS)
        versions = await opened[0]._pool.fetch("SELECT version FROM schema_version ORDER BY 1")
        assert [v[0] for v in versions] == list(range(1, len(MIGRATIONS) + 1))
    finally:
        for store in opened:
            await store.close()


async def test_a_channel_lock_keeps_every_other_connection_out(stores) -> None:
    first, second = stores
    entered = asyncio.Event()
    release = asyncio.Event()

    async def hold() -> None:
        async with first.channel_lock(7):
            entered.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await entered.wait()

    async def try_lock(channel: int) -> None:
        async with second.channel_lock(channel):
            pass

    with pytest.raises(TimeoutError):
        await asyncio.wait_for(try_lock(7), 0.3)
    await asyncio.wait_for(try_lock(8), 5)  # another channel is free
    waiting = asyncio.create_task(try_lock(7))
    await asyncio.sleep(0.1)
    assert not waiting.done()
    release.set()
    await holder
    await asyncio.wait_for(waiting, 5)  # and the lock passes on once released


async def test_a_reminder_is_sent_by_one_process_only(stores) -> None:
    first, second = stores
    row = await challenge(first, 1, 1, 2)
    sent = await asyncio.gather(*(s.note_notified(row.id, 0) for s in (first, second) * 3))
    assert sorted(sent) == [False] * 5 + [True]


async def test_an_unreadable_row_is_reported_and_set_aside(stores, pg_url: str) -> None:
    first, _ = stores
    row = await challenge(first, 1, 1, 2)
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute(
            "UPDATE matches SET state = '{broken', version = 1 WHERE id = $1", row.id
        )
    finally:
        await conn.close()
    with pytest.raises(UnreadableMatchError) as caught:
        await first.live_match(1)
    assert caught.value.match_id == row.id and caught.value.shell.player_ids == (1, 2)
    await first.quarantine(row.id, 9.0)
    assert await first.live_match(1) is None
    with contextlib.suppress(UnreadableMatchError):
        await first.get_match(row.id)
    with pytest.raises(ConflictError):
        await first.apply(Change(row.id, 0, Status.PLAYING, None, 10.0))


def test_both_backends_offer_the_whole_storage_protocol() -> None:
    """The session, cogs and CLI see only :class:`Storage`: each backend has all of it, with
    the same parameters."""
    import inspect

    from bot.storage import Storage, Store

    wanted = {
        name: inspect.signature(member)
        for name, member in vars(Storage).items()
        if callable(member) and not name.startswith("_")
    }
    assert "apply" in wanted and "channel_lock" in wanted
    for backend in (Store, PostgresStore):
        for name, signature in wanted.items():
            offered = inspect.signature(getattr(backend, name))
            assert list(offered.parameters) == list(signature.parameters), (backend, name)


async def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    from bot.core.errors import StoreOpenError

    with pytest.raises(StoreOpenError) as caught:
        await PostgresStore.open("postgresql://gammon:s3cret@/gammon?host=/nonexistent")
    message = str(caught.value)
    assert "s3cret" not in message and "gammon:***@" in message and "\n" not in message
