"""Any position analysed (issue 38): reading what players paste, the deeper analysis's
arithmetic, the refusal in rated games, and a practice game played on from a position."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.computer import CubeAction, PlayHint
from bot.computer.position_service import PositionService
from bot.computer.positions import combine, deep_candidates, deep_cube, deep_kind
from bot.computer.rollouts import CubeRollout, RolledOut
from bot.core.club import ClubService
from bot.core.errors import Refusal, UserError
from bot.core.replay import replay
from bot.core.reports import SessionSettings
from bot.core.session import Player, SessionService
from bot.engine import (
    EngineErrorCode,
    Game,
    InvalidIdError,
    MatchOptions,
    Phase,
    Play,
    PositionRecord,
    ResultKind,
    parse_dice,
)
from bot.storage import Store
from bot.web.replay import frames
from bot.web.state import game_json
from bot.workers import Workers

OPENING_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10"
GNU_52 = "4HPwATDgc/ABMA:cImqAAAAAAAE"
HUMAN, COMPUTER = Player(1, "alice"), Player(99, "GammonBot", is_bot=True)


@pytest.mark.parametrize("text", ["52", "25", "5-2", "5 2", " 5,2 ", "5x2", "2/5"])
def test_dice_are_read_as_players_write_them(text: str) -> None:
    assert parse_dice(text) == (5, 2)


@pytest.mark.parametrize("text", ["", "7", "57", "5-", "five", "5 2 1"])
def test_anything_else_is_not_a_roll(text: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        parse_dice(text)
    assert caught.value.code is EngineErrorCode.DICE_INVALID


def test_swapped_exchanges_the_players_and_keeps_the_board() -> None:
    record = PositionRecord.parse("XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:3:1:0:7:10")
    swapped = record.swapped()
    assert swapped.position == record.position
    assert (swapped.on_roll, swapped.score, swapped.cube_owner) == (0, (3, 1), 1)
    assert record.cube_owner == 0 and swapped.swapped() == record


@pytest.mark.parametrize(
    ("text", "dice", "phase", "on_roll"),
    [
        (OPENING_52, None, Phase.MOVE, 1),
        (GNU_52, None, Phase.MOVE, 1),
        ("Position ID: 4HPwATDgc/ABMA Match ID: cImqAAAAAAAE", None, Phase.MOVE, 1),
        ("4HPwATDgc/ABMA", None, Phase.ROLL, 1),  # no Match ID: a money game before the roll
        ("4HPwATDgc/ABMA", "6-1", Phase.MOVE, 1),
        (OPENING_52, "33", Phase.MOVE, 1),  # the dice given replace the position's
    ],
)
def test_a_pasted_position_is_read_with_its_dice(
    text: str, dice: str | None, phase: Phase, on_roll: int
) -> None:
    record = PositionService.read(text, dice)
    game = record.to_game()
    assert (game.phase, game.on_roll) == (phase, on_roll)
    if dice is not None:
        assert game.dice == parse_dice(dice)


@pytest.mark.parametrize(
    ("text", "dice", "reason"),
    [
        ("what is the play here", None, EngineErrorCode.ID_NOT_RECOGNISED),
        ("hello", None, EngineErrorCode.POSITION_ID_LENGTH),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0", None, EngineErrorCode.XGID_FIELD_COUNT),
        ("4HPwATDgc/ABM", None, EngineErrorCode.POSITION_ID_LENGTH),
        (GNU_52, "77", EngineErrorCode.DICE_INVALID),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:-1:D:0:0:0:5:10", "52", Refusal.DICE_WITH_DOUBLE),
    ],
)
def test_a_malformed_position_is_a_players_error_naming_what_is_wrong(
    text: str, dice: str | None, reason: object
) -> None:
    with pytest.raises(UserError) as caught:
        PositionService.read(text, dice)
    assert caught.value.reason == reason


# --- deeper: the arithmetic of the rollouts ---------------------------------------------------


def _hint(equity: float) -> PlayHint:
    return PlayHint(Play(()), equity, 0.0)


def test_the_close_plays_are_rolled_out_at_most_four_at_least_two() -> None:
    assert (
        len(deep_candidates([_hint(0.3), _hint(0.29), _hint(0.2), _hint(0.19), _hint(0.17)])) == 4
    )
    assert len(deep_candidates([_hint(x) for x in (0.3, 0.29, 0.28, 0.27, 0.26)])) == 4
    assert len(deep_candidates([_hint(0.3), _hint(0.0), _hint(-0.2)])) == 2
    assert deep_candidates([]) == []


def test_independent_rollouts_combine_into_a_mean_with_a_smaller_error() -> None:
    combined = combine([RolledOut(0.1, 0.02), RolledOut(0.3, 0.02)])
    assert combined.equity == pytest.approx(0.2)
    assert combined.error == pytest.approx(0.02 / 2**0.5)


def test_the_cube_decision_from_its_rollouts() -> None:
    game = Game.new(MatchOptions()).opening_roll(5, 2).move("13/8 13/11")
    batches = [
        CubeRollout(RolledOut(0.70, 0.02), RolledOut(0.90, 0.03), 1.0),
        CubeRollout(RolledOut(0.72, 0.02), RolledOut(0.94, 0.03), 1.0),
    ]
    hint, errors = deep_cube(game, batches)
    assert hint.action is CubeAction.DOUBLE_TAKE
    assert hint.no_double == pytest.approx(0.71) and hint.double_take == pytest.approx(0.92)
    assert errors[0] == pytest.approx(0.02 / 2**0.5)


def test_what_a_deeper_analysis_rolls_out() -> None:
    game = PositionRecord.parse(OPENING_52).to_game()
    assert deep_kind(game) == "plays"
    assert deep_kind(PositionRecord.parse("4HPwATDgc/ABMA").to_game()) == "cube"
    crawford = PositionRecord.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10")
    assert deep_kind(crawford.to_game()) is None  # no cube in the Crawford game


# --- hints stay off in rated games ---------------------------------------------------------


class _Games:
    def __init__(self, rows: list) -> None:
        self.rows = rows

    async def current(self, channel_id: int):
        return self.rows[0] if self.rows else None

    async def latest(self, channel_id: int):
        return await self.current(channel_id)

    async def live_in(self, guild_id: int):
        return self.rows


async def test_the_position_of_a_rated_game_being_played_is_refused(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "g.db")
    try:
        roller = _Roller([5, 2, 1, 3])
        session = SessionService(store, roller=roller)
        await session.challenge(1, 7, HUMAN, Player(2, "bob"), MatchOptions(length=5))
        await session.accept(7, Player(2, "bob"))
        await session.move(7, HUMAN, "13/11 13/8")
        row = await session.current(7)
        assert row is not None and row.game is not None and row.rated
        record = PositionRecord.from_game(row.game)
        service = PositionService(
            Workers.inline(), _Games([row]), settings=SessionSettings(), clock=lambda: 0.0
        )
        with pytest.raises(UserError) as caught:
            await service.advice(1, record)
        assert caught.value.reason is Refusal.POSITION_IN_RATED_GAME
        with pytest.raises(UserError) as caught:  # the other side's view of it too
            await service.advice(1, record.swapped())
        assert caught.value.reason is Refusal.POSITION_IN_RATED_GAME
        with pytest.raises(UserError) as caught:  # any board of that channel
            await service.advice(1, PositionRecord.parse(OPENING_52), channel_id=7)
        assert caught.value.reason is Refusal.HINTS_OFF_RATED
    finally:
        await store.close()


class _Roller:
    def __init__(self, dice: list[int]) -> None:
        self.dice = list(dice)
        self.random = random.Random(3)

    def die(self) -> int:
        return self.dice.pop(0) if self.dice else self.random.randint(1, 6)


# --- a practice game from a position ---------------------------------------------------------


class _FirstPlay:
    """A stand-in computer: the first legal play, never a double, always a take."""

    def choose_play(self, game: Game) -> Play:
        plays = game.legal_plays()
        return next(iter(plays)) if not plays.is_forced_pass else Play(())

    def should_double(self, game: Game) -> bool:
        return False

    def cube_response(self, game: Game):
        from bot.computer import CubeDecision

        return CubeDecision.TAKE

    def accepts_resignation(self, game: Game) -> bool:
        return True


@pytest.mark.parametrize(
    "xgid",
    [
        OPENING_52,  # player 1 (bottom) to play 5-2 in a 5-point match
        "XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:2:1:0:7:10",  # the top player to roll
        "XGID=-a-BaBC-A---eE---c-e----B-:1:-1:-1:D:0:0:0:0:10",  # a redouble to answer
    ],
)
async def test_a_practice_game_plays_on_from_a_position_and_replays_from_its_log(
    tmp_path: Path, xgid: str
) -> None:
    store = await Store.open(tmp_path / "p.db")
    try:
        session = SessionService(store, roller=_Roller([]), computer=lambda level: _FirstPlay())
        record = PositionRecord.parse(xgid)
        game = record.to_game()
        if game.actor != 0:
            record = record.swapped()
            game = record.to_game()
        report = await session.play_computer(1, 7, HUMAN, COMPUTER, start=game)
        row = report.match
        assert row.status == "playing" and not row.rated and row.computer_level
        assert row.game == game  # nothing happened yet: the person acts first
        assert row.options == game.options
        events = await store.events(row.id)
        assert [e.action for e in events] == ["start"] and events[0].notation == game.xgid()
        for turn in range(400):  # a few turns, then resignations to the end of the match
            if row.status != "playing":
                break
            current = row.game
            assert current is not None and current.actor == 0
            if turn >= 12 and current.phase is not Phase.DOUBLED:
                report = await session.resign(7, HUMAN, ResultKind.BACKGAMMON)
            elif current.phase is Phase.ROLL:
                report = await session.roll(7, HUMAN)
            elif current.phase is Phase.DOUBLED:
                report = await session.take(7, HUMAN)
            else:
                plays = await session.legal_play_texts(7, HUMAN.id)
                report = await session.move(7, HUMAN, plays[0])
            row = report.match
        assert row.status == "finished"
        events = await store.events(row.id)
        assert replay(row.options, events) == row.game
        first = frames(row, events)[0]  # the replay page starts from the position
        assert first["action"] == "start" and first["game"] == game_json(game)
        club = ClubService(store, session, clock=session.clock)
        with pytest.raises(UserError) as refused:  # a match file would start at the opening
            await club.match_file(1, 7)
        assert refused.value.reason is Refusal.EXPORT_FROM_POSITION
        assert refused.value.params["xgid"] == game.xgid()
        assert await store.leaderboard(1) == []
    finally:
        await store.close()


async def test_a_practice_game_must_start_with_the_person_to_act(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "p.db")
    try:
        session = SessionService(store, roller=_Roller([]), computer=lambda level: _FirstPlay())
        game = PositionRecord.parse(OPENING_52).to_game()  # player 1 to play
        with pytest.raises(ValueError):
            await session.play_computer(1, 7, HUMAN, COMPUTER, start=game)
    finally:
        await store.close()
