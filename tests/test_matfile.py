"""Match files for GNU Backgammon, checked by GNU Backgammon itself.

Matches are played through the real session layer on a database file (scripted dice, and
seeded random play for breadth), exported as ``.mat`` text and imported by Debian's
``gnubg`` in one process. Every position before and after every play, every cube action,
every resignation, each game's score and result and the final Position and Match IDs must
be what the event log says. Without gnubg these tests skip, except on CI, where they fail.
"""

from __future__ import annotations

import asyncio
import dataclasses
import doctest
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.matfile import (
    clean_name,
    export_from_database,
    export_match,
    export_text,
    mat_filename,
    match_to_mat,
    match_to_sgf,
)
from bot.core.records import EventRecord, MatchRow, Status
from bot.core.replay import replay, replay_event
from bot.core.session import Player, Report, SessionService, SessionSettings
from bot.engine import EndReason, Game, MatchOptions, Phase, Position, ResultKind
from bot.engine.match_id import GAME_RESIGNED, MatchIdFields
from bot.storage import Store
from tests import gnubg_support
from tests.gnubg_support import Imported, import_files, require_gnubg

GUILD = 7
ALICE = Player(1, "alice")
BOB = Player(2, "bob")
BY_INDEX = (ALICE, BOB)


# --- playing matches through the session layer -------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1_763_900_000.0

    def __call__(self) -> float:
        return self.now


class MixedRoller:
    """Scripted dice first, then seeded random ones."""

    def __init__(self, seed: int) -> None:
        self.script = ScriptedRoller()
        self.rng = random.Random(seed)

    def die(self) -> int:
        return self.script.die() if self.script.remaining() else self.rng.randint(1, 6)


@dataclass
class Table:
    """One channel with its own service, dice and clock."""

    service: SessionService
    roller: MixedRoller
    clock: Clock
    channel: int
    rng: random.Random
    report: Report | None = None
    players: tuple[Player, Player] = BY_INDEX

    @property
    def game(self) -> Any:
        assert self.report is not None
        return self.report.match.game

    @property
    def playing(self) -> bool:
        return self.report is not None and self.report.match.status == "playing"

    def dice(self, *dice: int) -> None:
        self.roller.script.extend(dice)

    async def start(
        self,
        options: MatchOptions,
        opening: tuple[int, ...] = (),
        players: tuple[Player, Player] = BY_INDEX,
    ) -> None:
        if opening:
            self.dice(*opening)
        self.players = players
        await self.service.challenge(GUILD, self.channel, players[0], players[1], options)
        self.report = await self.service.accept(self.channel, players[1])

    async def act(self, action: Callable[..., Awaitable[Report]], *args: Any) -> None:
        self.report = await action(self.channel, *args)

    def actor(self) -> Player:
        return self.players[self.game.actor]

    async def roll(self, *dice: int) -> None:
        self.dice(*dice)
        await self.act(self.service.roll, self.actor())

    async def move(self, text: str | None = None) -> None:
        """Make ``text``, or else a random legal play."""
        who = self.actor()
        if text is None:
            texts = await self.service.legal_play_texts(self.channel, who.id)
            text = self.rng.choice(sorted(texts))
        await self.act(self.service.move, who, text)

    async def turn(self, *dice: int) -> None:
        """Roll the dice and play at random (a dance passes by itself)."""
        await self.roll(*dice)
        if self.playing and self.game.phase is Phase.MOVE:
            await self.move()

    async def random_step(self, *, resign_rate: float = 0.01, beavers: bool = False) -> None:
        game, rng, service = self.game, self.rng, self.service
        actor = self.actor()
        if game.resignation is not None:
            await self.act(service.answer_resignation, actor, rng.random() < 0.6)
        elif rng.random() < resign_rate and game.phase is not Phase.DOUBLED:
            kind = ResultKind(rng.choice((1, 1, 2, 3)))
            await self.act(service.resign, self.players[rng.randrange(2)], kind)
        elif game.phase is Phase.ROLL:
            if game.can_double() and rng.random() < 0.08:
                await self.act(service.double, actor)
            else:
                await self.act(service.roll, actor)
        elif game.phase is Phase.DOUBLED:
            choice = rng.random()
            if beavers and not game.beaver_pending and choice < 0.3:
                await self.act(service.beaver, actor)
            elif choice < 0.75:
                await self.act(service.take, actor)
            else:
                await self.act(service.drop, actor)
        else:
            await self.move()

    async def play_out(self, *, resign_rate: float = 0.01) -> None:
        beavers = self.report is not None and self.report.match.options.beavers
        for _ in range(5000):
            if not self.playing:
                return
            await self.random_step(resign_rate=resign_rate, beavers=beavers)
        raise AssertionError("the match did not end")


Scenario = Callable[[Table], Awaitable[None]]


async def crawford_match(t: Table) -> None:
    """3 points: bob wins 2 (a taken double, alice resigns); the Crawford game; then
    alice doubles post-Crawford and bob resigns a gammon for the match."""
    await t.start(MatchOptions(length=3), (3, 1))
    await t.move("8/5 6/5")
    await t.turn(6, 4)
    await t.act(t.service.double, ALICE)
    await t.act(t.service.take, BOB)
    await t.turn(5, 2)
    await t.act(t.service.resign, ALICE, ResultKind.SINGLE)
    t.dice(2, 5)  # the next opening: bob moves first
    await t.act(t.service.answer_resignation, BOB, True)
    assert t.game.crawford and t.game.score == (0, 2)
    await t.move()
    await t.turn(4, 1)
    await t.act(t.service.resign, BOB, ResultKind.SINGLE)
    t.dice(6, 3)
    await t.act(t.service.answer_resignation, ALICE, True)
    assert t.game.post_crawford and not t.game.crawford and t.game.score == (1, 2)
    await t.move()
    await t.turn(2, 2)
    await t.act(t.service.double, ALICE)
    await t.act(t.service.take, BOB)
    await t.turn(6, 5)
    await t.act(t.service.resign, BOB, ResultKind.GAMMON)
    await t.act(t.service.answer_resignation, ALICE, True)
    assert t.report is not None and t.report.match.final_score == (5, 2)


async def beaver_taken(t: Table) -> None:
    """Bob doubles, alice beavers, bob takes and rolls: ``Beavers => 4``."""
    await t.start(MatchOptions(beavers=True), (1, 4))
    await t.move("24/23 13/9")
    await t.turn(3, 1)
    await t.act(t.service.double, BOB)
    await t.act(t.service.beaver, ALICE)
    await t.act(t.service.take, BOB)
    assert t.game.cube == 4 and t.game.cube_owner == 0
    await t.play_out(resign_rate=0)


async def beaver_dropped(t: Table) -> None:
    """A dropped beaver: the doubler concedes the taken double's 2 points."""
    await t.start(MatchOptions(beavers=True, jacoby=True), (5, 2))
    await t.move("13/8 13/11")
    await t.act(t.service.double, BOB)
    await t.act(t.service.beaver, ALICE)
    await t.act(t.service.drop, BOB)
    assert t.report is not None and t.report.finished is not None
    assert t.report.finished.points == 2 and t.report.finished.winner == 0


async def beaver_taken_then_resigned(t: Table) -> None:
    """A taken beaver with no roll after it: the doubler resigns at once."""
    await t.start(MatchOptions(beavers=True), (6, 5))
    await t.move("24/13")
    await t.turn(2, 2)
    await t.act(t.service.double, ALICE)
    await t.act(t.service.beaver, BOB)
    await t.act(t.service.take, ALICE)
    await t.act(t.service.resign, ALICE, ResultKind.GAMMON)
    await t.act(t.service.answer_resignation, BOB, True)


async def resign_after_rolling(t: Table) -> None:
    """Money game: alice rolls and resigns (bare dice), after a rejected offer by bob."""
    await t.start(MatchOptions(), (4, 2))
    await t.move("8/4 6/4")
    await t.act(t.service.resign, BOB, ResultKind.BACKGAMMON)
    await t.act(t.service.answer_resignation, ALICE, False)
    await t.turn(5, 3)
    await t.roll(6, 1)
    await t.act(t.service.resign, ALICE, ResultKind.SINGLE)
    await t.act(t.service.answer_resignation, BOB, True)


async def opponent_resigns_during_roll(t: Table) -> None:
    """Alice has rolled; bob (not on roll) resigns a gammon and alice accepts."""
    await t.start(MatchOptions(length=7), (3, 5))
    await t.move("13/10 13/8")
    await t.roll(4, 4)
    await t.act(t.service.resign, BOB, ResultKind.GAMMON)
    await t.act(t.service.answer_resignation, ALICE, True)
    t.dice(1, 2)
    assert t.game.score == (2, 0)
    await t.move()
    await t.play_out()


async def claimed_match(t: Table) -> None:
    """Bob stops answering a double in a 5-point match; alice claims the match."""
    await t.start(MatchOptions(length=5), (6, 1))
    await t.move("13/7 8/7")
    await t.turn(4, 3)
    await t.act(t.service.double, ALICE)
    t.clock.now += 2 * 3600
    await t.act(t.service.claim, ALICE)


async def claimed_money_game(t: Table) -> None:
    await t.start(MatchOptions(), (2, 6))
    await t.move("24/18 13/11")
    await t.turn(3, 3)
    await t.turn(5, 1)
    t.clock.now += 2 * 3600
    await t.act(t.service.claim, BOB)


async def cancelled_match(t: Table) -> None:
    await t.start(MatchOptions(length=3), (4, 1))
    await t.move("24/23 13/9")
    await t.turn(2, 1)
    await t.roll(6, 2)
    await t.act(t.service.cancel, Player(99, "moderator"))


async def automatic_double(t: Table) -> None:
    """A tied opening roll turns the cube (SGF states it; .mat cannot)."""
    await t.start(MatchOptions(auto_doubles=2), (4, 4, 2, 5))
    assert t.game.cube == 2 and t.game.cube_owner is None
    await t.play_out()


async def unfinished_match(t: Table) -> None:
    """Exported while still running: a double is waiting for an answer."""
    await t.start(MatchOptions(length=5), (5, 6))
    await t.move("24/18 13/8")
    await t.turn(3, 2)
    await t.act(t.service.double, BOB)


async def resign_instead_of_a_forced_play(t: Table) -> None:
    """The roll has a single legal play and the roller resigns instead of making it."""
    await t.start(MatchOptions(length=5))
    for _ in range(5000):
        game = t.game
        if (
            game.phase is Phase.MOVE
            and game.resignation is None
            and len(game.legal_plays()) == 1
            and not game.legal_plays().is_forced_pass
        ):
            break
        await t.random_step(resign_rate=0)
        assert t.playing
    roller = t.actor()
    await t.act(t.service.resign, roller, ResultKind.SINGLE)
    await t.act(t.service.answer_resignation, t.players[1 - t.game.on_roll], True)


async def odd_names(t: Table) -> None:
    """Names with what the format cannot hold, non-ASCII letters and SGF's brackets."""
    players = (Player(1, 'Zoë, "the"\nfirst [1]'), Player(2, "Bob: de\\la Côte " + "é" * 20))
    await t.start(MatchOptions(length=3), players=players)
    await t.play_out()


def random_match(options: MatchOptions) -> Scenario:
    async def scenario(t: Table) -> None:
        await t.start(options)
        await t.play_out()

    return scenario


SCENARIOS: dict[str, Scenario] = {
    "crawford match": crawford_match,
    "beaver taken": beaver_taken,
    "beaver dropped": beaver_dropped,
    "beaver taken then resigned": beaver_taken_then_resigned,
    "resign after rolling": resign_after_rolling,
    "opponent resigns during a roll": opponent_resigns_during_roll,
    "claimed match": claimed_match,
    "claimed money game": claimed_money_game,
    "cancelled match": cancelled_match,
    "unfinished match": unfinished_match,
    "automatic double": automatic_double,
    "odd names": odd_names,
    "resign instead of a forced play": resign_instead_of_a_forced_play,
}
RANDOM_OPTIONS = (
    MatchOptions(),
    MatchOptions(jacoby=True),
    MatchOptions(beavers=True),
    MatchOptions(jacoby=True, beavers=True),
    MatchOptions(cube=False),
    MatchOptions(length=1),
    MatchOptions(length=3),
    MatchOptions(length=5),
    MatchOptions(length=7),
)
for _seed in range(18):
    SCENARIOS[f"random {_seed}"] = random_match(RANDOM_OPTIONS[_seed % len(RANDOM_OPTIONS)])


@dataclass(frozen=True)
class Case:
    name: str
    row: MatchRow
    events: list[EventRecord]
    text: str  # the .mat text
    path: Path
    sgf: str
    sgf_path: Path

    def file(self, kind: str) -> tuple[str, Path]:
        return (self.text, self.path) if kind == "mat" else (self.sgf, self.sgf_path)


async def _play_all(folder: Path) -> dict[str, Case]:
    store = await Store.open(folder / "matches.db")
    cases: dict[str, Case] = {}
    try:
        for index, (name, scenario) in enumerate(SCENARIOS.items()):
            roller = MixedRoller(index)
            clock = Clock()
            service = SessionService(store, roller=roller, clock=clock, settings=SessionSettings())
            table = Table(service, roller, clock, 500 + index, random.Random(index))
            await scenario(table)
            assert table.report is not None
            match_id = table.report.match.id
            row = await store.get_match(match_id)
            assert row is not None
            events = await store.events(match_id)
            text = await export_match(store, match_id)
            path = folder / f"case{index:02d}.mat"
            path.write_text(text, encoding="utf-8")
            sgf = match_to_sgf(row, events)
            sgf_path = folder / f"case{index:02d}.sgf"
            sgf_path.write_text(sgf, encoding="utf-8")
            cases[name] = Case(name, row, events, text, path, sgf, sgf_path)
    finally:
        await store.close()
    return cases


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    return asyncio.run(_play_all(tmp_path_factory.mktemp("matfiles")))


FORMATS = ("mat", "sgf")


@pytest.fixture(scope="module")
def imported(
    cases: dict[str, Case], tmp_path_factory: pytest.TempPathFactory
) -> dict[tuple[str, str], Imported]:
    """Every file of every case, read by one gnubg process: .mat first, then SGF."""
    require_gnubg()
    keys = [(kind, name) for kind in FORMATS for name in cases]
    # gnubg's own Jacoby setting is right for .mat (which cannot state it) and wrong for
    # SGF, which must state it in the file.
    files = [
        (cases[name].file(kind)[1], cases[name].row.options.jacoby == (kind == "mat"))
        for kind, name in keys
    ]
    results = import_files(files, tmp_path_factory.mktemp("gnubg"))
    return dict(zip(keys, results, strict=True))


def _mat_cannot_hold(case: Case, kind: str) -> None:
    if kind != "mat":
        return
    game = None
    for event in case.events:
        game = replay_event(case.row.options, game, event)
        if event.action == "opening" and game.cube > 1:
            pytest.skip(".mat cannot state automatic doubles (the header notes them)")


# --- what GNU Backgammon should read back --------------------------------------------------


@dataclass
class GameFacts:
    score: tuple[int, int]
    records: list[tuple[Any, ...]]
    result: tuple[int, int, bool] | None  # winner, points, resigned


def _sorted_dice(dice: Any) -> tuple[int, int]:
    low, high = sorted(int(d) for d in dice)
    return low, high


def expected_games(row: MatchRow, events: list[EventRecord]) -> list[GameFacts]:
    """Each game as GNU Backgammon records it, worked out by replaying the event log."""
    games: list[GameFacts] = []
    game: Game | None = None
    rolled = None  # a roll not played yet
    for event in events:
        before = game
        game = replay_event(row.options, before, event)
        action = event.action
        if action in ("start", "next_game"):
            games.append(GameFacts(game.score, [], None))
            rolled = None
            continue
        records = games[-1].records
        if action in ("opening", "roll"):
            rolled = game if game.phase is Phase.MOVE else None
        elif action in ("move", "pass"):
            assert before is not None
            after = game.position if game.phase is Phase.OVER else game.position.flip()
            records.append(
                (
                    "move",
                    before.on_roll,
                    _sorted_dice(before.dice),
                    before.position_id(),
                    after.position_id(),
                )
            )
            rolled = None
        elif action in ("double", "beaver"):
            records.append(("double", event.player))
        elif action in ("take", "drop"):
            records.append((action, event.player))
        elif action in ("resign_accept", "claim", "cancel"):
            # A roll never played: GNU Backgammon keeps the dice unless the play was forced.
            if rolled is not None and len(rolled.legal_plays()) > 1:
                records.append(("set", rolled.on_roll, _sorted_dice(rolled.dice)))
            rolled = None
            if game.result is not None:
                kind = min(3, -(-game.result.points // game.result.cube))
                records.append(("resign", 1 - game.result.winner, kind))
        if game.result is not None and games[-1].result is None:
            result = game.result
            points = result.points
            if result.reason is EndReason.FORFEIT:
                points = min(3, -(-result.points // result.cube)) * result.cube
            resigned = result.reason in (EndReason.RESIGNED, EndReason.FORFEIT)
            games[-1].result = (result.winner, points, resigned)
    if rolled is not None and len(rolled.legal_plays()) > 1:  # still to play
        games[-1].records.append(("set", rolled.on_roll, _sorted_dice(rolled.dice)))
    return games


def _apply_gnubg_move(position_id: str, moves: Any) -> str:
    """Play GNU Backgammon's move tuples ((from, to), ...) on a board seen by the mover."""
    board = list(Position.from_id(position_id).board)
    for source, target in moves:
        board[source] -= 1
        if target == 0:
            continue
        if board[target] == -1:
            board[target] = 0
            board[0] += 1
        board[target] += 1
    return Position(tuple(board)).position_id()


def read_back(imported: Imported) -> list[GameFacts]:
    """Each game as GNU Backgammon imported it."""
    games = []
    for game in imported.games:
        info = game["info"]
        records: list[tuple[Any, ...]] = []
        for record in game["game"]:
            player = 0 if record["player"] == "X" else 1
            action = record["action"]
            if action == "move":
                board = record["board"]
                after = _apply_gnubg_move(board, record["move"])
                records.append(("move", player, _sorted_dice(record["dice"]), board, after))
            elif action in ("double", "take", "drop"):
                records.append((action, player))
            elif action == "resign":
                records.append(("resign", player, record["points"]))
            elif action == "set":
                records.append(("set", player, _sorted_dice(record["dice"])))
            else:
                records.append(("unexpected", record))
        result = None
        if info.get("winner") is not None:
            winner = 0 if info["winner"] == "X" else 1
            result = (winner, info["points-won"], bool(info["resigned"]))
        games.append(GameFacts((info["score-X"], info["score-O"]), records, result))
    return games


# --- the round trip through GNU Backgammon ------------------------------------------------


@pytest.mark.parametrize("kind", FORMATS)
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_gnubg_replays_every_position_cube_action_and_score(
    name: str, kind: str, cases: dict[str, Case], imported: dict[tuple[str, str], Imported]
) -> None:
    case, back = cases[name], imported[kind, name]
    _mat_cannot_hold(case, kind)
    text = case.file(kind)[0]
    assert back.warnings() == [], text
    info = back.match["match-info"]
    assert info["match-length"] == case.row.options.length
    names = case.row.player_names
    assert (info["X"]["name"], info["O"]["name"]) == (
        clean_name(names[0], "Player 1"),
        clean_name(names[1], "Player 2"),
    )
    got, want = read_back(back), expected_games(case.row, case.events)
    assert len(got) == len(want), text
    for number, (mine, theirs) in enumerate(zip(want, got, strict=True), start=1):
        assert theirs.score == mine.score, f"game {number}\n{text}"
        assert theirs.records == mine.records, f"game {number}\n{text}"
        assert theirs.result == mine.result, f"game {number}\n{text}"


@pytest.mark.parametrize("kind", FORMATS)
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_gnubg_ends_on_the_same_position_and_match_id(
    name: str, kind: str, cases: dict[str, Case], imported: dict[tuple[str, str], Imported]
) -> None:
    case, back = cases[name], imported[kind, name]
    _mat_cannot_hold(case, kind)
    text = case.file(kind)[0]
    assert back.final is not None
    last = case.events[-1]
    game = replay(case.row.options, case.events)
    assert game is not None
    if game.phase is not Phase.OVER:
        # Unfinished (cancelled, or still running): the very same IDs.
        assert back.final == (last.position_id, last.gnu_match_id), text
        return
    result = game.result
    assert result is not None
    position = Position.from_id(last.position_id)
    if result.reason is EndReason.BORNE_OFF:
        # GNU Backgammon passes the turn after the last checker is borne off.
        assert back.final[0] == position.flip().position_id(), text
    else:
        assert back.final[0] == position.position_id(), text
    # Who is on turn and the dice of a roll that was resigned are kept differently once a
    # game is over; the rest of the Match ID must agree.
    mine = MatchIdFields.decode(last.gnu_match_id)
    theirs = MatchIdFields.decode(back.final[1])
    if result.reason is EndReason.FORFEIT:
        # A claim reaches GNU Backgammon as a resignation of up to three cubes.
        facts = expected_games(case.row, case.events)[-1]
        assert facts.result is not None
        score = list(game.score)
        score[facts.result[0]] += facts.result[1]
        doubled = len(case.events) > 1 and case.events[-2].action in ("double", "beaver")
        mine = dataclasses.replace(
            mine,
            score=(score[0], score[1]),
            game_state=GAME_RESIGNED,
            resigned=facts.result[1] // result.cube,
            double_offered=doubled,
        )
    for field in (
        "match_length",
        "score",
        "cube",
        "cube_owner",
        "crawford",
        "double_offered",
        "resigned",
        "game_state",
        "jacoby",
    ):
        assert getattr(theirs, field) == getattr(mine, field), f"{field}\n{text}"


@pytest.mark.parametrize("kind", FORMATS)
def test_the_final_score_is_the_match_score(
    kind: str, cases: dict[str, Case], imported: dict[tuple[str, str], Imported]
) -> None:
    checked = 0
    for name, case in cases.items():
        row = case.row
        if row.status != "finished" or case.events[-1].action == "claim":
            continue
        if kind == "mat" and name == "automatic double":
            continue
        games = read_back(imported[kind, name])
        last = games[-1]
        assert last.result is not None
        score = list(last.score)
        score[last.result[0]] += last.result[1]
        if row.options.length:
            assert tuple(score) == row.final_score, name
        else:
            assert last.result[0] == row.winner, name
        checked += 1
    assert checked >= 20


def test_the_corpus_covers_what_matters(cases: dict[str, Case]) -> None:
    """The matches above include every feature the format must carry."""
    seen: set[str] = set()
    for case in cases.values():
        text = case.text
        options = case.row.options
        seen.add("money" if options.is_money else "match")
        if " 0 point match" in text:
            seen.add("0 point match")
        if "Beavers => " in text:
            seen.add("beaver read from the roll")
        game = None
        for event in case.events:
            game = replay_event(options, game, event)
            if game.crawford:
                seen.add("crawford game")
            if event.action == "pass":
                seen.add("dance")
            if event.action == "beaver":
                seen.add("beaver")
            if event.action == "resign_accept" and game.result is not None:
                seen.add(f"resigned {game.result.kind.name.lower()}")
            if event.action == "move" and game.last_play is not None:
                for move in game.last_play.moves:
                    if move.source == 25 and move.hit:
                        seen.add("hit from the bar")
                    if move.target == 0:
                        seen.add("bear off")
            if game.result is not None and game.result.reason is EndReason.BORNE_OFF:
                seen.add(f"won {game.result.kind.name.lower()}")
            if event.action == "drop":
                seen.add("drop")
    assert seen >= {
        "money",
        "match",
        "0 point match",
        "crawford game",
        "dance",
        "beaver",
        "beaver read from the roll",
        "resigned single",
        "resigned gammon",
        "resigned backgammon",
        "hit from the bar",
        "bear off",
        "won single",
        "won gammon",
        "drop",
    }


# --- the text itself ---------------------------------------------------------------------


def test_header_names_and_options(cases: dict[str, Case]) -> None:
    text = cases["crawford match"].text
    lines = text.splitlines()
    assert lines[0] == '; [Site "gammon-bot"]'
    assert '; [Player 1 "alice"]' in lines and '; [Player 2 "bob"]' in lines
    assert '; [Crawford "On"]' in lines
    assert any(line.startswith('; [EventDate "20') for line in lines)
    assert " 3 point match" in lines
    assert " Game 1" in lines and " Game 3" in lines
    assert " alice : 1                       bob : 2" in lines
    money = cases["beaver dropped"].text.splitlines()
    assert " 0 point match" in money
    assert '; [Jacoby "On"]' in money and '; [Beaver "On"]' in money


def test_the_player_who_opens_has_the_column_and_the_other_waits(
    cases: dict[str, Case],
) -> None:
    # Bob wins the opening 4-1: his play is in the right column of line 1, the left is empty.
    lines = cases["beaver taken"].text.splitlines()
    first = lines[lines.index(" Game 1") + 2]
    assert first.startswith("  1)" + " " * 29 + "41: ")
    assert sorted(first.split(": ")[1].split()) == ["13/9", "24/23"]
    # Alice wins 3-1 in the Crawford match: the left column.
    lines = cases["crawford match"].text.splitlines()
    assert lines[lines.index(" Game 1") + 2].startswith("  1) 31: 8/5 6/5 ")


def test_cube_lines(cases: dict[str, Case]) -> None:
    taken = cases["beaver taken"].text
    assert "Doubles => 2" in taken and "Beavers => 4" in taken
    assert "Takes" not in taken  # the doubler's roll is the take
    dropped = cases["beaver dropped"].text.splitlines()
    assert any("Doubles => 2" in line for line in dropped)
    assert any(line.startswith("  2) Doubles => 4") and "Drops" in line for line in dropped)
    assert "Wins 2 points" in dropped[-2]
    crawford = cases["crawford match"].text
    assert "Wins 5 points and the match" not in crawford  # a gammon at 2 is 4 points
    assert "Wins 4 points and the match" in crawford


def test_moves_are_numbered_from_the_movers_side_with_bar_25_and_off_0(
    cases: dict[str, Case],
) -> None:
    games = "\n".join(case.text.split(" point match", 1)[1] for case in cases.values())
    assert re.search(r" 25/\d+\*", games)  # entering with a hit
    assert re.search(r" \d/0\b", games)  # bearing off
    assert "bar" not in games.lower() and "off" not in games.lower()
    # Alice's opening 3-1 from her own side, one move per die.
    lines = cases["crawford match"].text.splitlines()
    assert sorted(lines[lines.index(" Game 1") + 2][9:].split()[:2]) == ["6/5", "8/5"]


@pytest.mark.parametrize(
    ("name", "cleaned"),
    [
        ("alice", "alice"),
        ("Ann  Smith", "Ann Smith"),
        ("bob, the 2nd", "bob the 2nd"),
        ("two\nlines\r\n", "two lines"),
        ("score: 3", "score 3"),
        ("tab\there", "tab here"),
        ("back\\slash", "back/slash"),
        ("", "Player"),
        (" , : ", "Player"),
        ("x" * 40, "x" * 31),
        ("é" * 20, "é" * 15),  # 31 bytes of UTF-8, never half a character
    ],
)
def test_clean_name(name: str, cleaned: str) -> None:
    assert clean_name(name) == cleaned


def test_names_the_format_cannot_hold_are_cleaned_everywhere(cases: dict[str, Case]) -> None:
    row = cases["crawford match"].row
    odd = dataclasses.replace(row, player_names=('Ann, "the"\nbest', "Bob: 2"))
    text = match_to_mat(odd, cases["crawford match"].events)
    assert "; [Player 1 \"Ann 'the' best\"]" in text
    assert " Ann 'the' best : 0" not in text  # quotes are kept in the score line
    assert ' Ann "the" best : 0' in text
    assert "Bob 2 : 0" in text
    assert mat_filename(odd) == f"match-{row.id}-Ann-the-best-vs-Bob-2.mat"


def test_docstring_examples() -> None:
    import bot.core.matfile

    result = doctest.testmod(bot.core.matfile)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(("ci", "outcome"), [("", "skip"), ("true", "fail")])
def test_without_gnubg_the_round_trip_skips_except_on_ci(
    monkeypatch: pytest.MonkeyPatch, ci: str, outcome: str
) -> None:
    monkeypatch.setattr(gnubg_support, "_CANDIDATES", ("no-such-gnubg-here",))
    monkeypatch.setenv("CI", ci)
    expected = pytest.skip.Exception if outcome == "skip" else pytest.fail.Exception
    with pytest.raises(expected, match="gnubg"):
        gnubg_support.require_gnubg()


async def test_export_from_the_database_file(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    roller = MixedRoller(3)
    service = SessionService(store, roller=roller, clock=Clock())
    table = Table(service, roller, Clock(), 1, random.Random(3))
    await beaver_dropped(table)
    assert table.report is not None
    match_id = table.report.match.id
    expected = await export_match(store, match_id)
    await store.close()
    assert await export_from_database(tmp_path / "bot.db", match_id) == expected
    with pytest.raises(LookupError, match="no match 999"):
        await export_from_database(tmp_path / "bot.db", 999)


def test_sgf_text(cases: dict[str, Case]) -> None:
    crawford = cases["crawford match"].sgf
    trees = crawford.strip().split("\n(")
    assert len(trees) == 3
    assert trees[0].startswith("(;FF[4]GM[6]CA[UTF-8]AP[gammon-bot]")
    assert "MI[length:3][game:0][ws:0][bs:0]" in trees[0]
    assert "PW[alice]PB[bob]" in trees[0] and "RU[Crawford]RE[B+2R]" in trees[0]
    assert "[game:1][ws:0][bs:2]" in trees[1] and "RU[Crawford:CrawfordGame]" in trees[1]
    assert "\n;W[31hefe]" in trees[0]  # 8/5 6/5 from alice's side: h=8, e=5, f=6
    dropped = cases["beaver dropped"].sgf
    assert "RU[Jacoby]" in dropped and "RE[W+2]" in dropped
    assert dropped.endswith(";B[double]\n;W[double]\n;B[drop])\n")
    assert "CV[2]" in cases["automatic double"].sgf


def test_export_text_kinds(cases: dict[str, Case]) -> None:
    case = cases["beaver taken"]
    assert export_text(case.row, case.events) == case.text
    assert export_text(case.row, case.events, "sgf") == case.sgf
    with pytest.raises(ValueError, match="not 'pgn'"):
        export_text(case.row, case.events, "pgn")
    assert mat_filename(case.row, "sgf") == f"match-{case.row.id}-alice-vs-bob.sgf"


def test_a_match_never_started_has_a_header_and_no_games(cases: dict[str, Case]) -> None:
    row = dataclasses.replace(cases["crawford match"].row, status=Status.DECLINED)
    text = match_to_mat(row, [])
    assert " 3 point match" in text and " Game" not in text
    assert match_to_sgf(row, []) == ""


def test_the_harness_sees_what_gnubg_complains_about(
    cases: dict[str, Case], tmp_path: Path
) -> None:
    """A bad file's warnings are caught and stay with that file, not the next one.

    (gnubg quietly mends many bad plays, so it is the records compared above that prove a
    file right; the warnings only catch what gnubg refuses outright.)
    """
    require_gnubg()
    bad = tmp_path / "bad.mat"
    bad.write_text(
        " 1 point match\n\n Game 1\n alice : 0                       bob : 0\n  1) Frobnicates\n",
        encoding="utf-8",
    )
    good = cases["crawford match"].path
    first, second = import_files([(bad, False), (good, False)], tmp_path / "gnubg")
    assert first.warnings() and "Frobnicates" in " ".join(first.warnings())
    assert second.warnings() == []
    assert len(second.games) == 3
