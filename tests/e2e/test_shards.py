"""Two ``python -m bot`` processes as shards 0 and 1 of 2 over one PostgreSQL (issue #14).

Discord sends a server's interactions to the process that owns its shard; the fake does the
same, and a test may also hand an interaction to the other process (``session=``), as
happens while one process takes over another's shards. Racing the two processes on one
channel must still apply every action at most once: exactly one of two identical clicks
succeeds publicly, the other is told privately; an action nobody races succeeds whichever
process gets it; every match's events replay to its stored state; ratings equal a
sequential recomputation, even when two matches with a shared player finish at the same
moment in two processes. Both processes start together on an empty database (it is
migrated once), and a process killed with SIGKILL during the computer's turn loses
nothing: once it is back, the game goes on and finishes.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot.core import codec
from bot.core.ratings import Rated, fibs_update
from bot.core.replay import replay
from bot.engine import Phase
from bot.storage.pg_schema import MIGRATIONS as PG_MIGRATIONS
from tests.e2e.conftest import TOKEN
from tests.e2e.fake_discord import (
    FakeDiscord,
    FakeDiscordTimeout,
    FakeGuild,
    FakeMember,
    FakeUser,
    InteractionResult,
)
from tests.e2e.process_support import (
    MATCH_COLUMNS,
    BotProcess,
    Snapshot,
    acknowledged,
    answered,
    answers,
    bot_env,
    snapshot,
)

asyncpg = pytest.importorskip("asyncpg")

SHARDS = 2
ANSWER = 20.0  # seconds to wait for one answer (two bots and a database share two cores)


def shard_of(guild_id: int, count: int = SHARDS) -> int:
    """The shard Discord sends a server's events to."""
    return (guild_id >> 22) % count


def guild_on_shard(fake: FakeDiscord, shard: int, name: str) -> FakeGuild:
    """A new server whose id falls on ``shard`` (ids are time-based: try until one does)."""
    for _ in range(200):
        guild = fake.add_guild(name, channels=("games", "other"))
        if shard_of(guild.id) == shard:
            return guild
        time.sleep(0.001)
    raise AssertionError(f"no guild id on shard {shard}")


def join(fake: FakeDiscord, guild: FakeGuild, users: Sequence[FakeUser]) -> list[FakeMember]:
    return [fake.add_member(guild, user) for user in users]


def channel(guild: FakeGuild, name: str) -> int:
    return next(c.id for c in guild.channels.values() if c.name == name)


class Shards:
    """The two bot processes (shard 0 and shard 1) on one database."""

    def __init__(self, fake: FakeDiscord, url: str, cwd: Path) -> None:
        self.fake = fake
        self.url = url
        self.cwd = cwd
        self.bots: dict[int, BotProcess] = {}

    def env(self, shard: int) -> dict[str, str]:
        return bot_env(
            self.cwd / "unused.db",
            self.fake,
            log_level="WARNING",
            DATABASE_URL=self.url,
            SHARD_COUNT=str(SHARDS),
            SHARD_IDS=str(shard),
            DEV_GUILD_ID="",  # global commands: every server has them
            WORKERS="0",
        )

    async def start(self, *shards: int) -> None:
        after = self.fake.ready_count
        for shard in shards:
            log = self.cwd / f"shard-{shard}.log"
            self.bots[shard] = await BotProcess(self.env(shard), self.cwd, log=log).start()
        deadline = time.monotonic() + 60
        while self.fake.ready_count < after + len(shards):
            for shard in shards:
                bot = self.bots[shard]
                if not bot.running:
                    raise AssertionError(f"shard {shard} exited: {self.log(shard)}")
            if time.monotonic() > deadline:
                raise AssertionError(f"shards not ready: {[self.log(s) for s in shards]}")
            await asyncio.sleep(0.05)

    def log(self, shard: int) -> str:
        path = self.cwd / f"shard-{shard}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def session(self, shard: int) -> int:
        """The fake's index of the shard's live gateway session (oldest first)."""
        live = sorted(self.fake.sessions, key=lambda s: s.ready_index)
        for index, sess in enumerate(live):
            if sess.shard is not None and sess.shard[0] == shard:
                return index
        raise LookupError(f"shard {shard} has no live session")

    async def kill(self, shard: int) -> None:
        await self.bots[shard].kill()

    async def stop(self) -> None:
        for bot in self.bots.values():
            await bot.terminate(10)


class Database:
    """The shared PostgreSQL, read from outside the bots."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection

    async def latest(self, channel_id: int) -> Snapshot | None:
        row = await self.connection.fetchrow(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return snapshot(tuple(row)) if row is not None else None


async def wait_answered(results: Sequence[InteractionResult]) -> None:
    for result in results:
        with contextlib.suppress(FakeDiscordTimeout):
            await result.wait_for(answered, ANSWER)


def private_only(result: InteractionResult) -> bool:
    """Answered, and only privately: a refusal."""
    replies = answers(result)
    return bool(replies) and all(m.ephemeral for m in replies)


def button(fake: FakeDiscord, channel: int, action: str, match_id: int) -> tuple[Any, str]:
    for message in reversed(fake.messages_in(channel)):
        for component in message.buttons:
            custom_id = component.custom_id or ""
            if (
                not component.disabled
                and custom_id.startswith(f"bg:{action}:")
                and str(match_id) in custom_id.split(":")
            ):
                return message, custom_id
    raise AssertionError(f"no {action} button for match {match_id} in channel {channel}")


class Table:
    """One channel's game, driven through both processes."""

    def __init__(
        self,
        fake: FakeDiscord,
        shards: Shards,
        db: Database,
        channel_id: int,
        players: tuple[FakeMember, FakeMember],
    ) -> None:
        self.fake = fake
        self.shards = shards
        self.db = db
        self.channel_id = channel_id
        self.players = players
        self.raced = 0
        self.unraced = 0

    async def slash(
        self, who: FakeMember, sub: str, shard: int, **options: object
    ) -> InteractionResult:
        return await self.fake.slash(
            who,
            self.channel_id,
            "backgammon",
            sub,
            options=options,
            timeout=ANSWER,
            session=self.shards.session(shard),
        )

    async def click(self, who: FakeMember, action: str, match_id: int, shard: int):
        message, custom_id = button(self.fake, self.channel_id, action, match_id)
        return await self.fake.click(
            who, message, custom_id, timeout=ANSWER, session=self.shards.session(shard)
        )

    async def race(self, send: Any) -> list[InteractionResult]:
        """The same interaction handed to both processes at once: exactly one succeeds."""
        results = list(await asyncio.gather(send(0), send(1)))
        await wait_answered(results)
        wins = [r for r in results if acknowledged(r)]
        assert len(wins) == 1, [(r.session_index, answers(r)) for r in results]
        loser = next(r for r in results if r is not wins[0])
        assert private_only(loser), answers(loser)
        self.raced += 1
        return results

    async def once(self, send: Any, shard: int) -> InteractionResult:
        """An action nobody races: it succeeds whichever process gets it."""
        result = await send(shard)
        with contextlib.suppress(FakeDiscordTimeout):
            await result.wait_for(answered, ANSWER)
        assert acknowledged(result), (shard, answers(result))
        self.unraced += 1
        return result

    async def state(self) -> Snapshot:
        snap = await self.db.latest(self.channel_id)
        assert snap is not None
        return snap

    async def start(self, length: int, *, racing: bool) -> Snapshot:
        first, second = self.players
        await self.once(
            lambda s: self.slash(first, "challenge", s, opponent=second.id, length=length), 0
        )
        snap = await self.state()
        assert snap.status == "challenge"

        def accept(shard: int):
            return self.click(second, "accept", snap.id, shard)

        await (self.race(accept) if racing else self.once(accept, 1))
        return await self.state()

    async def turns(self, count: int, *, racing: bool) -> Snapshot:
        """``count`` rolls and moves of whoever is to act, alternately raced and not."""
        for step in range(count):
            snap = await self.state()
            game = snap.game
            assert game is not None and game.actor is not None, snap
            who = self.players[game.actor]
            send: Callable[[int], Awaitable[InteractionResult]]
            if game.phase is Phase.ROLL:
                send = partial(self.slash, who, "roll")
            elif game.phase is Phase.MOVE:
                play = str(sorted(game.legal_plays(), key=str)[0])
                send = partial(self.slash, who, "move", play=play)

            else:
                raise AssertionError(f"unexpected phase {game.phase}")
            if racing and step % 2 == 0:
                await self.race(send)
            else:
                await self.once(send, step % SHARDS)
        return await self.state()

    async def offer_resignation(self) -> Snapshot:
        """The player to roll resigns a single game; the other will accept it."""
        snap = await self.state()
        game = snap.game
        assert game is not None
        while game.phase is not Phase.ROLL:
            snap = await self.turns(1, racing=False)
            game = snap.game
            assert game is not None
        assert game.actor is not None  # on roll, so the one to act
        who = self.players[game.actor]
        await self.once(lambda s: self.slash(who, "resign", s, kind="single"), 0)
        return await self.state()

    def accept_resignation(self, snap: Snapshot, shard: int):
        game = snap.game
        assert game is not None and game.resignation is not None
        who = self.players[1 - game.resignation.player]
        return self.click(who, "resign_accept", snap.id, shard)


async def check_the_database(connection: Any) -> dict[int, Snapshot]:
    """Every match's log replays to its stored state; ratings equal a sequential replay."""
    matches = await check_replays(connection)
    await check_ratings(connection)
    return matches


async def check_replays(connection: Any) -> dict[int, Snapshot]:
    """Every match's log numbers its events 1..n and replays to exactly its stored state."""
    rows = await connection.fetch(f"SELECT {MATCH_COLUMNS} FROM matches ORDER BY id")
    matches = {row[0]: snapshot(tuple(row)) for row in rows}
    for match_id, snap in matches.items():
        log = await connection.fetch(
            "SELECT seq, game_number, actor_id, player, action, notation, dice, position_id, "
            "gnu_match_id FROM events WHERE match_id = $1 ORDER BY seq",
            match_id,
        )
        events = [
            _Event(seq, game, actor, player, action, notation, _dice(dice), position, gnu)
            for seq, game, actor, player, action, notation, dice, position, gnu in log
        ]
        assert [e.seq for e in events] == list(range(1, len(events) + 1)), match_id
        rebuilt = replay(snap.options, events)  # type: ignore[arg-type]
        if snap.game is None:
            assert rebuilt is None, match_id
            continue
        assert rebuilt is not None, match_id
        assert codec.game_to_dict(rebuilt) == codec.game_to_dict(snap.game), match_id
    return matches


async def check_ratings(connection: Any) -> None:
    """Each rated match counted once, in the order ratings changed (FIBS, within 1e-9).

    That order is the rating history's ``seq``, taken after the players' rows are locked.
    Not the events' ids: two matches with a shared player write their last events in one
    order and may reach the player rows (and commit) in the other.
    """
    finished = await connection.fetch(
        "SELECT m.id, m.guild_id, m.player0_id, m.player1_id, m.winner, m.options "
        "FROM matches AS m WHERE m.status = 'finished' AND m.computer_level IS NULL "
        "AND m.rated::int = 1 "
        "ORDER BY (SELECT MIN(h.seq) FROM rating_history AS h WHERE h.match_id = m.id), m.id"
    )
    assert finished, "no rated match finished"
    ratings: dict[tuple[int, int], Rated] = {}
    counted: Counter[tuple[int, int]] = Counter()
    for _id, guild, p0, p1, winner, options in finished:
        length = codec.options_from_dict(codec.loads(options)).length
        w, loser = ((guild, p0), (guild, p1)) if winner == 0 else ((guild, p1), (guild, p0))
        ratings[w], ratings[loser] = fibs_update(
            ratings.get(w, Rated()), ratings.get(loser, Rated()), length
        )
        counted[w] += 1
        counted[loser] += 1
    stored = {
        (r["guild_id"], r["user_id"]): r
        for r in await connection.fetch(
            "SELECT guild_id, user_id, rating, experience, rated_matches FROM players"
        )
    }
    for key, expected in ratings.items():
        row = stored[key]
        assert math.isclose(row["rating"], expected.rating, abs_tol=1e-9), (key, row, expected)
        assert row["experience"] == expected.experience, (key, row, expected)
        assert row["rated_matches"] == counted[key], (key, row, counted[key])


class _Event:
    def __init__(self, seq, game_number, actor_id, player, action, notation, dice, pos, gnu):
        self.seq = seq
        self.game_number = game_number
        self.actor_id = actor_id
        self.player = player
        self.action = action
        self.notation = notation
        self.dice = dice
        self.position_id = pos
        self.gnu_match_id = gnu


def _dice(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    first, second = text.split("-")
    return int(first), int(second)


async def test_two_shard_processes_race_on_one_postgresql(pg_url: str, tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake:
        home = guild_on_shard(fake, 0, "club zero")
        away = guild_on_shard(fake, 1, "club one")
        alice, bob, carol = (fake.create_user(n) for n in ("alice", "bob", "carol"))
        h_alice, h_bob, h_carol = join(fake, home, (alice, bob, carol))
        a_alice, a_bob = join(fake, away, (alice, bob))
        connection = await asyncpg.create_pool(pg_url, min_size=1, max_size=4)
        shards = Shards(fake, pg_url, tmp_path)
        try:
            # Both processes start together on an empty database: it is migrated once.
            await shards.start(0, 1)
            await fake.wait_for_commands(None, names=["backgammon"], timeout=30)
            db = Database(connection)

            # Raced: the same clicks and commands handed to both processes at once.
            t1 = Table(fake, shards, db, channel(home, "games"), (h_alice, h_bob))
            t2 = Table(fake, shards, db, channel(home, "other"), (h_alice, h_carol))
            t3 = Table(fake, shards, db, channel(away, "games"), (a_bob, a_alice))
            await asyncio.gather(
                t1.start(1, racing=True), t2.start(1, racing=True), t3.start(1, racing=False)
            )
            await asyncio.gather(
                t1.turns(8, racing=True), t2.turns(8, racing=True), t3.turns(6, racing=False)
            )
            # Two matches with a shared player (alice) finish at the same moment, one in
            # each process; the third finishes in its own shard.
            s1, s2 = await asyncio.gather(t1.offer_resignation(), t2.offer_resignation())
            r1, r2 = await asyncio.gather(
                t1.accept_resignation(s1, 0), t2.accept_resignation(s2, 1)
            )
            await wait_answered([r1, r2])
            assert acknowledged(r1) and acknowledged(r2), (answers(r1), answers(r2))
            s3 = await t3.offer_resignation()
            await t3.race(lambda shard: t3.accept_resignation(s3, shard))
            for table in (t1, t2, t3):
                assert (await table.state()).status == "finished"
            assert t1.raced >= 5 and t3.unraced >= 6
            # Only the process running shard 0 registered the commands.
            syncs = [r for r in fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
            assert len(syncs) == 1, [str(r) for r in syncs]
            matches = await check_the_database(connection)
            assert len(matches) == 3
            versions = await connection.fetch("SELECT version FROM schema_version ORDER BY 1")
            assert [v[0] for v in versions] == list(range(1, len(PG_MIGRATIONS) + 1))
        finally:
            await shards.stop()
            await connection.close()


async def test_a_shard_killed_during_the_computers_turn_loses_nothing(
    pg_url: str, tmp_path: Path
) -> None:
    from bot.computer import computer_available

    if not computer_available():
        pytest.skip("the computer opponent's evaluator (bgsage) is not installed here")
    async with FakeDiscord(token=TOKEN) as fake:
        home = guild_on_shard(fake, 0, "club zero")
        away = guild_on_shard(fake, 1, "club one")
        (dana,) = join(fake, away, (fake.create_user("dana"),))
        join(fake, home, (fake.users[dana.id],))
        pool = await asyncpg.create_pool(pg_url, min_size=1, max_size=2)
        shards = Shards(fake, pg_url, tmp_path)
        try:
            await shards.start(0, 1)
            await fake.wait_for_commands(None, names=["backgammon"], timeout=30)
            db = Database(pool)
            games = channel(away, "games")
            first = await fake.slash(
                dana,
                games,
                "backgammon",
                "play",
                options={"level": "beginner", "length": 1},
                timeout=ANSWER,
            )
            await first.wait_for(answered, ANSWER)
            assert acknowledged(first), answers(first)
            kills = 0
            for step in range(40):
                snap = await db.latest(games)
                assert snap is not None
                if snap.status == "finished":
                    break
                game = snap.game
                assert game is not None
                if game.actor != 0:  # the computer's turn: it must finish it by itself
                    await wait_until(lambda snap=snap: changed(db, games, snap), STALL)
                    continue
                if step >= 12:
                    sub, options = "resign", {"kind": "backgammon"}
                elif game.phase is Phase.ROLL:
                    sub, options = "roll", {}
                else:
                    sub, options = "move", {"play": str(sorted(game.legal_plays(), key=str)[0])}
                sent = await fake.slash(
                    dana, games, "backgammon", sub, options=options, timeout=ANSWER
                )
                if sub == "move" and kills < 2:
                    # Kill the shard while the computer answers this move, then restart it.
                    await asyncio.sleep(0.002 * kills)
                    await shards.kill(1)
                    kills += 1
                    await shards.start(1)
                    continue  # the move was applied with the computer's answer, or not at all
                with contextlib.suppress(FakeDiscordTimeout):
                    await sent.wait_for(answered, ANSWER)
            final = await db.latest(games)
            assert final is not None and final.status == "finished", final
            assert kills == 2
            await check_replays(pool)
        finally:
            await shards.stop()
            await pool.close()


STALL = 30.0  # seconds the computer may take to act after its process is back


async def changed(db: Database, channel_id: int, before: Snapshot) -> bool:
    now = await db.latest(channel_id)
    return now is not None and now.key != before.key


async def wait_until(condition: Any, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"nothing happened within {timeout} s")
        await asyncio.sleep(0.05)
