"""Chaos: ``kill -9`` the bot at random moments while several games are played at once, and
prove nothing is lost, nothing is applied twice, and every game still finishes (issue #12).

Why: a game's state and its event log are written in one transaction, so a crash must leave
each game either before or after an action, never in between; and a game against the computer
must carry on by itself after a crash in the middle of the computer's turn (nobody is going to
press anything for the computer). Unit tests cannot show this: it takes the real process
(``python -m bot``, configured by its environment, as in test_process.py), the real
discord.py, SQLite's WAL file and a real SIGKILL.

The driver plays human-vs-human games (money games and a 3-point match, in their own
channels) and games against the computer (beginner, the fastest level). For every channel it
reads the live row straight from the SQLite file (read-only; WAL lets it read while the bot
writes), decides what the player to act does (roll, a random legal play, sometimes a double,
take or drop, a resignation to keep games short) and sends that interaction. An interaction
counts as *acknowledged* when the bot answered it publicly with a board or buttons (errors
are private and text only). An interaction the bot never answered (it was killed) is not an
error: the driver re-reads the state and decides anew. A chaos task kills the bot's process
group with SIGKILL at seeded random moments (some right after a move in a computer game, to
hit the computer's turn) and starts it again. A table whose planned matches are over while
kills are still due plays up to three more money games, so the kills land in games being
played however fast the bot has become (its 1-ply cube decisions went from 38 ms to 0.1 ms,
and once the games ended after six kills).

At the end every planned match must be ``finished`` and:
- 0 lost: every acknowledged action is in the event log (same match, same user, same kind,
  same play);
- 0 duplicated: no (match, user, kind) has more events than interactions sent for it, the
  log numbers its events 1..n, and replaying the log (bot.core.replay.replay, which checks every
  step against the engine) rebuilds exactly the stored state;
- the statistics count each finished game once, and the FIBS ratings equal a replay of the
  finished rated matches in the order they finished (within 1e-9).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.core import codec
from bot.core.ratings import Rated, fibs_update
from bot.engine import Phase
from tests.e2e.conftest import TOKEN
from tests.e2e.fake_discord import (
    PERM_MANAGE_MESSAGES,
    FakeDiscord,
    FakeDiscordTimeout,
    FakeMember,
    InteractionResult,
    RecordedMessage,
)
from tests.e2e.process_support import (
    MATCH_COLUMNS,
    BotProcess,
    Snapshot,
    acknowledged,
    answered,
    bot_env,
    latest,
    read_only,
    snapshot,
)

try:  # the replay may move to its own module (STYLE.md's map); either is the project's own
    from bot.core.replay import replay  # type: ignore[import-not-found,unused-ignore]
except ImportError:
    from bot.core.replay import replay

SEED = 1212
KILLS = 10
MIN_KILLS = 8  # the games must outlast most of the kills, or the test proves little
EXTRA_GAMES = 3  # money games a table adds while kills are still due (a fast bot ends early)
DRIVER_LIMIT = 150.0  # seconds for the whole driver; it normally needs well under a minute
STALL_LIMIT = 20.0  # seconds a computer's turn may take, counted while a bot is up
ANSWER_LIMIT = 15.0  # seconds to wait for the bot's answer to one interaction
ENDED = ("finished", "declined", "withdrawn", "expired", "cancelled")

# what an acknowledged interaction must have left in the event log
EVENT_OF = {
    "accept": "start",
    "roll": "roll",
    "move": "move",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "resign": "resign",
    "resign_accept": "resign_accept",
}


@dataclass
class Sent:
    """One interaction the driver sent, and whether the bot acknowledged it publicly."""

    table: str
    match_id: int | None
    kind: str
    user_id: int
    notation: str | None
    result: InteractionResult
    acknowledged: bool = False


@dataclass
class Table:
    """One channel and what is played in it: matches of the given lengths, one after another."""

    name: str
    players: tuple[FakeMember, FakeMember | None]  # None: the computer
    lengths: list[int]
    rng: random.Random
    finished: list[int] = field(default_factory=list)
    rolls: Counter[tuple[int, int]] = field(default_factory=Counter)
    plans: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    fruitless: int = 0
    channel_id: int = 0
    extra: int = 0  # money games added to ``lengths`` so that the games outlast the kills

    @property
    def computer(self) -> bool:
        return self.players[1] is None

    def plan(self, match_id: int, game_number: int) -> tuple[int, int]:
        """(rolls before doubling, rolls before resigning) for one game, drawn once."""
        key = (match_id, game_number)
        if key not in self.plans:
            double_after = self.rng.randint(3, 9)
            self.plans[key] = (double_after, double_after + self.rng.randint(3, 8))
        return self.plans[key]


class Chaos:
    """The bot process, its restarts, and the kill schedule."""

    def __init__(self, fake: FakeDiscord, env: dict[str, str], cwd: Path, rng: random.Random):
        self.fake = fake
        self.env = env
        self.cwd = cwd
        self.rng = rng
        self.bot: BotProcess | None = None
        self.generation = 0
        self.up = asyncio.Event()
        self.up_since = 0.0
        self.kills = 0
        self.computer_move_sent = asyncio.Event()
        self.sent = 0  # interactions sent so far
        self.killing = True  # kills are still due

    async def start(self) -> None:
        after = self.fake.ready_count
        self.generation += 1
        self.bot = await BotProcess(self.env, self.cwd, log=self.cwd / "bot.log").start()
        await self.fake.wait_until_ready(timeout=30, after=after)
        self.up_since = time.monotonic()
        self.up.set()

    async def kill(self) -> None:
        assert self.bot is not None
        self.up.clear()
        await self.bot.kill()
        self.kills += 1

    async def run(self, kills: int, over: Callable[[], bool], *, aim: bool) -> None:
        """Kill and restart the bot ``kills`` times while the games are played.

        Kills come after a random number of interactions (not seconds: the bot answers in
        milliseconds, so the moments are spread over the games whatever the machine's
        speed), a few milliseconds later; some right after a human's action in a computer
        game, to land in the computer's turn.
        """
        try:
            await self._run(kills, over, aim=aim)
        finally:
            self.killing = False

    async def _run(self, kills: int, over: Callable[[], bool], *, aim: bool) -> None:
        for _ in range(kills):
            if aim and self.rng.random() < 0.4:
                self.computer_move_sent.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.computer_move_sent.wait(), 1)
                await asyncio.sleep(self.rng.uniform(0.0, 0.12))
            else:
                target = self.sent + self.rng.randint(2, 12)
                while self.sent < target and not over():
                    await asyncio.sleep(0.01)
                await asyncio.sleep(self.rng.uniform(0.0, 0.1))
            if over():
                return
            await self.kill()
            await asyncio.sleep(self.rng.uniform(0.0, 0.2))
            await self.start()

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.terminate(10)


class Driver:
    def __init__(self, fake: FakeDiscord, db: Path, chaos: Chaos, mod: FakeMember) -> None:
        self.fake = fake
        self.db = db
        self.chaos = chaos
        self.mod = mod
        self.sent: list[Sent] = []

    # --- sending ------------------------------------------------------------------------

    async def send(
        self,
        table: Table,
        snap: Snapshot | None,
        action: str,
        who: FakeMember,
        *,
        button: RecordedMessage | None = None,
        notation: str | None = None,
        **options: object,
    ) -> Sent | None:
        await self.chaos.up.wait()
        generation = self.chaos.generation
        try:
            if button is not None:
                custom_id = _button_id(button, action, snap.id if snap else 0)
                assert custom_id is not None
                result = await self.fake.click(who, button, custom_id, timeout=ANSWER_LIMIT)
            else:
                sub = action
                result = await self.fake.slash(
                    who, table.name, "backgammon", sub, options=options, timeout=ANSWER_LIMIT
                )
        except (RuntimeError, FakeDiscordTimeout, LookupError, ValueError):
            return None  # the bot went down while we dispatched, or the button went away
        sent = Sent(table.name, snap.id if snap else None, action, who.id, notation, result)
        self.sent.append(sent)
        self.chaos.sent += 1
        if table.computer and action in ("move", "roll", "double", "resign"):
            self.chaos.computer_move_sent.set()

        def over() -> bool:
            return answered(result) or self.chaos.generation != generation

        with contextlib.suppress(FakeDiscordTimeout):
            await self.fake.wait_for(over, ANSWER_LIMIT, f"answer to {action}")
        sent.acknowledged = acknowledged(result)
        return sent

    # --- playing one table --------------------------------------------------------------

    async def play(self, table: Table) -> None:
        channel_id = self.fake.channel_id(table.name)
        while True:
            await self.chaos.up.wait()
            snap = latest(self.db, channel_id)
            if snap is not None and snap.status == "finished" and snap.id not in table.finished:
                table.finished.append(snap.id)
            if snap is None or snap.status in ENDED:
                if len(table.finished) >= len(table.lengths):
                    if not self.chaos.killing or table.extra >= EXTRA_GAMES:
                        return
                    # The bot got faster than the kills: one more money game, so that
                    # the kills still land in games being played.
                    table.lengths.append(0)
                    table.extra += 1
                await self.start_match(table, snap)
            elif snap.status == "challenge":
                await self.answer_challenge(table, snap)
            else:
                await self.act(table, snap)
            if table.fruitless > 40:
                raise AssertionError(f"{table.name}: 40 interactions in a row changed nothing")

    async def start_match(self, table: Table, snap: Snapshot | None) -> None:
        length = table.lengths[len(table.finished)]
        first, second = table.players
        if second is None:
            sent = await self.send(table, snap, "play", first, level="beginner", length=length)
        else:
            sent = await self.send(
                table, snap, "challenge", first, opponent=second.id, length=length
            )
        self.note(table, sent)

    async def answer_challenge(self, table: Table, snap: Snapshot) -> None:
        second = table.players[1]
        button = self.find_button(table, "accept", snap.id)
        if second is None or button is None:
            # The bot died between writing the challenge and posting it (or a computer game
            # was half set up): nobody can press Accept, so a moderator clears the channel.
            result = await self.fake.slash(
                self.mod, table.name, "backgammon", "cancel", timeout=ANSWER_LIMIT
            )
            with contextlib.suppress(FakeDiscordTimeout):
                await result.wait_for(answered, ANSWER_LIMIT)
            table.fruitless += 1
            return
        self.note(table, await self.send(table, snap, "accept", second, button=button))

    async def act(self, table: Table, snap: Snapshot) -> None:
        game = snap.game
        assert game is not None, snap
        actor = game.actor
        if actor is None:
            await asyncio.sleep(0.05)
            return
        if table.computer and actor == 1:
            await self.wait_for_computer(table, snap)
            return
        who = table.players[actor]
        assert who is not None
        rng = table.rng
        if game.resignation is not None:
            button = self.find_button(table, "resign_accept", snap.id)
            if button is None:  # the offer was written but never posted: ask for the board
                await self.send(table, snap, "board", who)
                table.fruitless += 1
                return
            sent = await self.send(table, snap, "resign_accept", who, button=button)
        elif game.phase is Phase.DOUBLED:
            take = not table.computer and game.cube < 4 and rng.random() < 0.3
            kind = "take" if take else "drop"
            sent = await self.send(table, snap, kind, who)
        elif game.phase is Phase.MOVE:
            play = str(rng.choice(list(game.legal_plays())))
            sent = await self.send(table, snap, "move", who, notation=play, play=play)
        elif game.phase is Phase.ROLL:
            key = (snap.id, game.game_number)
            double_after, resign_after = table.plan(*key)
            if table.rolls[key] >= double_after and game.can_double() and rng.random() < 0.6:
                sent = await self.send(table, snap, "double", who)
            elif table.rolls[key] >= resign_after:
                kind = "backgammon" if table.computer else "single"
                sent = await self.send(table, snap, "resign", who, kind=kind)
            else:
                sent = await self.send(table, snap, "roll", who)
                table.rolls[key] += 1
        else:
            await asyncio.sleep(0.05)
            return
        self.note(table, sent)

    def note(self, table: Table, sent: Sent | None) -> None:
        if sent is not None and sent.acknowledged:
            table.fruitless = 0
        else:
            table.fruitless += 1

    async def wait_for_computer(self, table: Table, snap: Snapshot) -> None:
        """The computer must act by itself, even when a crash interrupted its turn."""
        channel_id = self.fake.channel_id(table.name)
        since = time.monotonic()
        while True:
            await asyncio.sleep(0.05)
            if not self.chaos.up.is_set():
                await self.chaos.up.wait()
                since = time.monotonic()
            now = latest(self.db, channel_id)
            if now is None or now.key != snap.key:
                return
            if time.monotonic() - max(since, self.chaos.up_since) > STALL_LIMIT:
                raise AssertionError(
                    f"{table.name}: the computer's turn never resumed (match {snap.id}, "
                    f"{STALL_LIMIT} s with the bot up; kills so far: {self.chaos.kills})"
                )

    def find_button(self, table: Table, action: str, match_id: int) -> RecordedMessage | None:
        for message in reversed(self.fake.messages_in(table.name)):
            if _button_id(message, action, match_id) is not None:
                return message
        return None


def _button_id(message: RecordedMessage, action: str, match_id: int) -> str | None:
    for component in message.buttons:
        custom_id = component.custom_id or ""
        if (
            not component.disabled
            and custom_id.startswith(f"bg:{action}:")
            and str(match_id) in custom_id.split(":")
        ):
            return custom_id
    return None


# --- the test ---------------------------------------------------------------------------------


async def test_kill_9_during_busy_games_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    from bot.computer import computer_available

    rng = random.Random(SEED)
    async with FakeDiscord(token=TOKEN) as fake:
        names = ["alice", "bob", "carol", "dave", "erin", "frank", "gina"]
        people = {name: fake.create_member(name) for name in names}
        mod = fake.create_member("mod", permissions=PERM_MANAGE_MESSAGES)
        tables = [
            Table("money-1", (people["alice"], people["bob"]), [0, 0], _rng(rng)),
            Table("money-2", (people["carol"], people["dave"]), [0], _rng(rng)),
            Table("match-3", (people["alice"], people["erin"]), [3], _rng(rng)),
        ]
        if computer_available():
            tables += [
                Table("computer-1", (people["frank"], None), [0], _rng(rng)),
                Table("computer-2", (people["gina"], None), [0], _rng(rng)),
            ]
        for table in tables:
            table.channel_id = fake.add_channel(fake.guild, table.name).id

        db = tmp_path / "data" / "gammon.db"
        chaos = Chaos(fake, bot_env(db, fake, log_level="WARNING"), tmp_path, _rng(rng))
        driver = Driver(fake, db, chaos, mod)
        await chaos.start()
        await fake.wait_for_commands(fake.guild.id, names=["backgammon"], timeout=30)
        started = time.monotonic()
        try:
            players = [asyncio.create_task(driver.play(t), name=t.name) for t in tables]
            killer = asyncio.create_task(
                chaos.run(
                    KILLS,
                    lambda: all(p.done() for p in players),
                    aim=any(t.computer for t in tables),
                ),
                name="chaos",
            )
            deadline = time.monotonic() + DRIVER_LIMIT
            pending: set[asyncio.Task[None]] = {*players, killer}
            while pending and time.monotonic() < deadline:
                done, pending = await asyncio.wait(
                    pending,
                    timeout=deadline - time.monotonic(),
                    return_when=asyncio.FIRST_COMPLETED,
                )
                for task in done:
                    task.result()  # a table's own assertion (a stalled computer game, ...)
            unfinished = sorted(t.get_name() for t in pending)
            assert not unfinished, f"not finished after {DRIVER_LIMIT} s: {unfinished}"
        finally:
            for task in [*players, killer]:
                task.cancel()
            await chaos.stop()
        elapsed = time.monotonic() - started

    assert chaos.kills >= MIN_KILLS, f"the games ended after only {chaos.kills} kills"
    check_the_database(db, tables, driver.sent, bot_user_id=fake.bot_user.id)
    # Not a timing assertion, a note for whoever reads a slow run's output.
    unanswered = sum(not answered(s.result) for s in driver.sent)
    ok = sum(s.acknowledged for s in driver.sent)
    print(
        f"chaos: {len(driver.sent)} interactions ({ok} acknowledged, {unanswered} "
        f"never answered), {chaos.kills} kills, {elapsed:.1f} s"
    )


def _rng(parent: random.Random) -> random.Random:
    return random.Random(parent.getrandbits(64))


def check_the_database(db: Path, tables: list[Table], sent: list[Sent], bot_user_id: int) -> None:
    with read_only(db) as connection:
        # Every planned match finished.
        for table in tables:
            assert len(table.finished) == len(table.lengths), table
            for match_id in table.finished:
                (status,) = connection.execute(
                    "SELECT status FROM matches WHERE id = ?", (match_id,)
                ).fetchone()
                assert status == "finished", (table.name, match_id, status)

        rows = connection.execute(f"SELECT {MATCH_COLUMNS} FROM matches ORDER BY id").fetchall()
        matches = {row[0]: snapshot(row) for row in rows}
        events: dict[int, list[Event]] = {}
        for match_id, snap in matches.items():
            log = _events(connection, match_id)
            events[match_id] = log
            # The log numbers its events 1..n, and replays to exactly the stored state.
            assert [e.seq for e in log] == list(range(1, len(log) + 1)), match_id
            rebuilt = replay(snap.options, log)  # type: ignore[arg-type]
            if snap.game is None:
                assert rebuilt is None, match_id
                continue
            assert rebuilt is not None, match_id
            assert codec.game_to_dict(rebuilt) == codec.game_to_dict(snap.game), match_id

        # 0 lost, 0 duplicated.
        acknowledged: Counter[tuple[int, int, str]] = Counter()
        attempted: Counter[tuple[int, int, str]] = Counter()
        acknowledged_plays: Counter[tuple[int, int, str]] = Counter()
        challenges: Counter[tuple[str, int]] = Counter()
        for s in sent:
            if s.kind in ("challenge", "play"):
                challenges[(s.table, s.user_id)] += s.acknowledged
                continue
            if s.kind not in EVENT_OF or s.match_id is None:
                continue
            key = (s.match_id, s.user_id, EVENT_OF[s.kind])
            attempted[key] += 1
            acknowledged[key] += s.acknowledged
            if s.kind == "move" and s.acknowledged:
                assert s.notation is not None
                acknowledged_plays[(s.match_id, s.user_id, s.notation)] += 1
        logged: Counter[tuple[int, int, str]] = Counter()
        logged_plays: Counter[tuple[int, int, str]] = Counter()
        for match_id, log in events.items():
            for e in log:
                if e.actor_id is None or e.actor_id == bot_user_id:
                    continue
                if e.action == "start" and matches[match_id].computer_level is not None:
                    continue  # the computer accepts its own game
                logged[(match_id, e.actor_id, e.action)] += 1
                if e.action == "move":
                    assert e.notation is not None  # a logged move names its play
                    logged_plays[(match_id, e.actor_id, e.notation)] += 1
        lost = {k: (n, logged[k]) for k, n in acknowledged.items() if logged[k] < n}
        assert not lost, f"acknowledged but not in the log (sent, logged): {lost}"
        lost_plays = {k: n for k, n in acknowledged_plays.items() if logged_plays[k] < n}
        assert not lost_plays, f"acknowledged plays missing from the log: {lost_plays}"
        duplicated = {k: (attempted[k], n) for k, n in logged.items() if n > attempted[k]}
        assert not duplicated, f"more events than interactions (sent, logged): {duplicated}"
        for table in tables:
            # every acknowledged challenge (or computer game) left its row in the channel
            challenger = table.players[0].id
            (made,) = connection.execute(
                "SELECT COUNT(*) FROM matches WHERE channel_id = ? AND player0_id = ?",
                (table.channel_id, challenger),
            ).fetchone()
            assert made >= challenges[(table.name, challenger)], (table.name, made)

        check_statistics(connection, matches)


@dataclass(frozen=True)
class Event:
    """An event row, with the fields the replay reads (as the store's own record has)."""

    seq: int
    game_number: int
    actor_id: int | None
    player: int | None
    action: str
    notation: str | None
    dice: tuple[int, int] | None
    position_id: str
    gnu_match_id: str


def _events(connection: sqlite3.Connection, match_id: int) -> list[Event]:
    rows = connection.execute(
        "SELECT seq, game_number, actor_id, player, action, notation, dice, position_id, "
        "gnu_match_id FROM events WHERE match_id = ? ORDER BY seq",
        (match_id,),
    ).fetchall()
    return [
        Event(seq, game, actor, player, action, notation, _dice(dice), position, gnu)
        for seq, game, actor, player, action, notation, dice, position, gnu in rows
    ]


def _dice(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    first, second = text.split("-")
    return int(first), int(second)


def check_statistics(connection: sqlite3.Connection, matches: dict[int, Snapshot]) -> None:
    """Each finished game counted once; ratings equal a replay of the rated matches in order."""
    games: Counter[int] = Counter()
    computer_games: Counter[int] = Counter()
    for match_id, winner, _points in connection.execute(
        "SELECT match_id, winner, points FROM game_results"
    ):
        snap = matches[match_id]
        if snap.computer_level is not None:
            computer_games[snap.player_ids[0]] += 1
        else:
            games[snap.player_ids[0]] += 1
            games[snap.player_ids[1]] += 1
        assert winner in (0, 1)
    stored = {
        user_id: (rating, experience, rated_matches, games_played)
        for user_id, rating, experience, rated_matches, games_played in connection.execute(
            "SELECT user_id, rating, experience, rated_matches, games FROM players"
        )
    }
    for user_id, count in games.items():
        assert stored[user_id][3] == count, ("games counted", user_id, stored[user_id], count)
    for user_id, count in computer_games.items():
        (played,) = connection.execute(
            "SELECT SUM(games) FROM computer_results WHERE user_id = ?", (user_id,)
        ).fetchone()
        assert played == count, ("games against the computer", user_id, played, count)

    ratings: dict[int, Rated] = {}
    rated_matches: Counter[int] = Counter()
    # In the order the matches finished: the event that ended a match is its last, and event
    # ids grow in commit order (the clock a transaction read does not: it reads it first).
    finished = connection.execute(
        "SELECT m.id, m.player0_id, m.player1_id, m.winner, m.options FROM matches AS m "
        "WHERE m.status = 'finished' AND m.rated = 1 AND m.computer_level IS NULL "
        "ORDER BY (SELECT MAX(e.id) FROM events AS e WHERE e.match_id = m.id), m.id"
    ).fetchall()
    for _match_id, p0, p1, winner, options in finished:
        length = codec.options_from_dict(codec.loads(options)).length
        winner_id, loser_id = (p0, p1) if winner == 0 else (p1, p0)
        new_winner, new_loser = fibs_update(
            ratings.get(winner_id, Rated()), ratings.get(loser_id, Rated()), length
        )
        ratings[winner_id], ratings[loser_id] = new_winner, new_loser
        rated_matches[winner_id] += 1
        rated_matches[loser_id] += 1
    assert finished, "no rated match finished"
    for user_id, expected in ratings.items():
        rating, experience, count, _ = stored[user_id]
        assert math.isclose(rating, expected.rating, rel_tol=0, abs_tol=1e-9), (
            user_id,
            rating,
            expected.rating,
        )
        assert experience == expected.experience, (user_id, experience, expected)
        assert count == rated_matches[user_id], (user_id, count, rated_matches[user_id])
