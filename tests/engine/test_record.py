"""PositionRecord: one state read from an XGID or GNU Backgammon's IDs, checked, turned into
a Game, and written back in either form. The round trips are property tests over states a
game can be in; whatever text is pasted, the only error is InvalidIdError."""

from __future__ import annotations

import base64
import dataclasses
import pickle
import random
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.engine import (
    CubeOffer,
    EngineErrorCode,
    Game,
    InvalidIdError,
    InvalidPositionError,
    MatchIdFields,
    MatchOptions,
    NotAllowedNowError,
    Phase,
    Position,
    PositionRecord,
    legal_plays,
)
from bot.engine.match_id import GAME_DROP, GAME_NONE, GAME_PLAYING
from tests.engine.support import records
from tests.engine.test_properties import PROPERTY_SETTINGS

Code = EngineErrorCode
OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10"
START_ID = "4HPwATDgc/ABMA"


# --- reading ------------------------------------------------------------------------------


def test_an_xgid_read_worked_out_by_hand() -> None:
    # The top player (player 0) is on roll with 3-1 in a 7-point match at 3-1 in XG's
    # order (bottom first); the bottom player (player 1) owns a 2-cube. The top player has
    # one checker on the bar (a, first) and 2 on their ace point, the bottom player's
    # 24-point (b), and has borne off the other 12. The bottom player: 5 on their 6 (E), 3 on
    # their 8 (C), 5 on their 13 (E), 1 on their 23 (A) and 1 on the bar (A, last).
    board = "a-----E-C----E---------AbA"
    assert len(board) == 26
    record = PositionRecord.from_xgid(f"XGID={board}:1:1:-1:31:3:1:0:7:10")
    assert record.on_roll == 0
    assert record.dice == (3, 1)
    assert (record.cube, record.cube_owner) == (2, 1)
    assert record.score == (1, 3)  # (player 0, player 1)
    assert (record.length, record.crawford, record.offer) == (7, False, None)
    # Seen by the player on roll (the top player): their bar and their ace point; the
    # bottom player's checkers are the opponent's, on mirrored points (p -> 25 - p).
    seen = record.position.board
    assert (seen[25], seen[1]) == (1, 2)
    assert (seen[19], seen[17], seen[12], seen[2], seen[0]) == (-5, -3, -5, -1, 1)
    assert record.position.borne_off() == (12, 0)
    assert record.xgid() == f"XGID={board}:1:1:-1:31:3:1:0:7:10"


def test_the_opening_in_both_forms() -> None:
    record = PositionRecord.parse(OPENING)
    assert record == PositionRecord(Position.start(), on_roll=1, dice=(5, 2), length=5)
    assert (record.position_id(), record.match_id()) == (START_ID, "cImqAAAAAAAE")
    assert MatchIdFields.decode(record.match_id()).on_roll == 1
    assert PositionRecord.from_gnu(START_ID, "cImqAAAAAAAE") == record
    assert record.xgid() == OPENING
    assert repr(record) == f"PositionRecord({OPENING!r})"


def test_a_pair_published_with_another_xgid_reader() -> None:
    # An XGID and the GNUbg ID given for it by a third-party XGID tool: money with Jacoby
    # and beavers (3), the bottom player on roll with 2-1 and owning a 2-cube, one top
    # checker on the bar.
    record = PositionRecord.parse("aFBBB-A---A-------A---c-b-:1:1:1:21:0:0:3:0:10")
    assert f"{record.position_id()}:{record.match_id()}" == "cwAAoN82IUAAAA:UQkFAAAAAAAA"
    assert PositionRecord.parse("cwAAoN82IUAAAA:UQkFAAAAAAAA") == dataclasses.replace(
        record, beavers=False
    )


@pytest.mark.parametrize(
    "text",
    [
        OPENING,
        OPENING.removeprefix("XGID="),
        "xgid=" + OPENING.removeprefix("XGID="),
        f"  {OPENING}  ",
        # XG copies the XGID above a text diagram
        f"{OPENING}\n\nX:Player 2   O:Player 1\nScore is X:0 O:0 5 pt.(s) match.\n +13-14-15",
        f"Position: {OPENING}",
        f"`{OPENING}`",
        f"```\n{OPENING}\n```",
        f"`{OPENING.removeprefix('XGID=')}`",
        f"`{START_ID}:cImqAAAAAAAE`",
        f'"{START_ID}" "cImqAAAAAAAE"',
        f"{START_ID}:cImqAAAAAAAE",  # as GNU Backgammon copies its IDs
        f"{START_ID} cImqAAAAAAAE",
        f"cImqAAAAAAAE {START_ID}",
        f"Position ID: {START_ID}\nMatch ID   : cImqAAAAAAAE\n",
        f"GNU Backgammon  Position ID: {START_ID}, Match ID: cImqAAAAAAAE",
    ],
)
def test_parse_takes_what_players_paste(text: str) -> None:
    assert PositionRecord.parse(text) == PositionRecord.parse(OPENING)


def test_a_position_id_alone_is_a_money_game_before_the_roll() -> None:
    record = PositionRecord.parse(START_ID)
    assert record == PositionRecord(Position.start(), on_roll=1)
    assert record.xgid() == "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


@pytest.mark.parametrize(
    ("xgid", "state"),
    [
        # the bottom player doubled a centred cube in a 9-point match at 2-4
        ("-b----E-C---eE---c-e----B-:0:0:1:D:4:2:0:9:10", {"offer": CubeOffer.DOUBLE}),
        # money, Jacoby (1) and beavers (2); the top player beavered the bottom's 2-cube
        (
            "-b----E-C---eE---c-e----B-:1:1:1:B:0:0:3:0:10",
            {"offer": CubeOffer.BEAVER, "cube": 2, "cube_owner": 1, "jacoby": True},
        ),
        # the Crawford game: the top player at 6 in a 7-point match
        ("-b----E-C---eE---c-e----B-:0:0:-1:00:3:6:1:7:10", {"crawford": True, "on_roll": 0}),
        # the same score after the Crawford game
        ("-b----E-C---eE---c-e----B-:2:-1:-1:00:3:6:0:7:10", {"cube": 4, "cube_owner": 0}),
        # a money game without the cube (the highest cube 2**0)
        ("-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:0", {"cube_in_use": False}),
    ],
)
def test_cube_states(xgid: str, state: dict[str, Any]) -> None:
    record = PositionRecord.from_xgid(xgid)
    for name, value in state.items():
        assert getattr(record, name) == value
    assert record.xgid() == "XGID=" + xgid


def test_a_beaver_read_from_gnu_ids() -> None:
    """GNU writes a beaver as the beaverer's cube with the double still offered and the
    doubler to answer; the record keeps the cube the doubler turned."""
    beavered = PositionRecord.from_xgid("-b----E-C---eE---c-e----B-:1:1:1:B:0:0:3:0:10")
    fields = MatchIdFields.decode(beavered.match_id())
    assert (fields.cube, fields.cube_owner, fields.double_offered) == (4, 0, True)
    assert fields.turn == fields.on_roll == 1
    back = PositionRecord.from_gnu(beavered.position_id(), beavered.match_id())
    assert back == dataclasses.replace(beavered, jacoby=True)
    assert back.beavers  # a beaver proves the rule


def test_a_resignation_in_the_match_id_is_left_out() -> None:
    game = Game.new(MatchOptions(length=5)).opening_roll(5, 2).offer_resignation(1)
    record = PositionRecord.from_gnu(game.position_id(), game.match_id())
    assert record == PositionRecord.from_game(game)
    assert record.on_roll == 0 and record.dice == (5, 2)


# --- what cannot be, refused with its reason ---------------------------------------------

REFUSED: list[tuple[str, EngineErrorCode]] = [
    ("", Code.ID_NOT_RECOGNISED),
    ("   \n", Code.ID_NOT_RECOGNISED),
    (f"{START_ID} cImqAAAAAAAE cImqAAAAAAAE", Code.ID_NOT_RECOGNISED),
    ("hello", Code.POSITION_ID_LENGTH),
    (f"{START_ID}:hello", Code.MATCH_ID_LENGTH),
    ("4HPwATDgc/AB!A", Code.POSITION_ID_INVALID),
    ("a:b:c", Code.ID_NOT_RECOGNISED),  # two colons: GNU IDs with their labels, at most
    ("a:b:c:d", Code.XGID_FIELD_COUNT),
    # a score of 5 in a 5-point match; a 26-point match
    ("-b----E-C---eE---c-e----B-:0:0:1:52:5:0:0:5:10", Code.SCORE_INVALID),
    ("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:26:10", Code.MATCH_LENGTH),
    # the rules field is 0 or 1 in a match
    ("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:2:5:10", Code.XGID_FIELD),
    # Crawford with nobody at match point; a 2-cube or a double in the Crawford game
    ("-b----E-C---eE---c-e----B-:0:0:1:52:3:2:1:5:10", Code.CRAWFORD_SCORE),
    ("-b----E-C---eE---c-e----B-:1:1:1:52:3:4:1:5:10", Code.CRAWFORD),
    ("-b----E-C---eE---c-e----B-:0:0:1:D:3:4:1:5:10", Code.CRAWFORD),
    # the doubler does not own the cube; a double in a 1-point match or without a cube
    ("-b----E-C---eE---c-e----B-:1:-1:1:D:0:0:0:5:10", Code.OPPONENT_OWNS_CUBE),
    ("-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:1:10", Code.CUBE_DEAD),
    ("-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:0", Code.CUBE_OFF),
    ("-b----E-C---eE---c-e----B-:1:1:1:00:0:0:0:0:0", Code.CUBE_OFF),
    # a beaver without the beaver rule, or in a match; a raccoon
    ("-b----E-C---eE---c-e----B-:1:1:1:B:0:0:1:0:10", Code.BEAVERS_OFF),
    ("-b----E-C---eE---c-e----B-:1:1:1:B:0:0:0:5:10", Code.BEAVERS_OFF),
    ("-b----E-C---eE---c-e----B-:1:1:1:R:0:0:3:0:10", Code.RACCOONS_OFF),
    # cubes past the engine's 4096, past the XGID's own highest cube, doubled past 4096
    ("-b----E-C---eE---c-e----B-:13:1:1:00:0:0:0:0:15", Code.CUBE_TOO_HIGH),
    ("-b----E-C---eE---c-e----B-:9:1:1:00:0:0:0:0:8", Code.CUBE_TOO_HIGH),
    ("-b----E-C---eE---c-e----B-:12:1:1:D:0:0:0:0:12", Code.CUBE_TOO_HIGH),
    ("-b----E-C---eE---c-e----B-:11:1:1:B:0:0:3:0:12", Code.CUBE_TOO_HIGH),
    # the bottom player has borne off all 15: the game is over
    ("-b----------e----c-e------:0:0:-1:52:0:0:0:0:10", Code.GAME_OVER),
    ("-b----E-C---eE---c-e----B-:0:0:1:5:0:0:0:0:10", Code.DICE_INVALID),
]


@pytest.mark.parametrize(("text", "code"), REFUSED)
def test_what_cannot_be_is_refused_with_its_reason(text: str, code: EngineErrorCode) -> None:
    with pytest.raises(InvalidIdError) as refused:
        PositionRecord.parse(text)
    assert refused.value.code is code, str(refused.value)


def match_id(**change: Any) -> str:
    fields = MatchIdFields(5, (1, 2), 1, -1, 1, 1, False, False, 0, (5, 2), GAME_PLAYING)
    return dataclasses.replace(fields, **change).encode()


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (match_id(game_state=GAME_NONE, dice=(0, 0)), Code.NOT_STARTED),
        (match_id(game_state=GAME_DROP), Code.GAME_OVER),
        (match_id(dice=(7, 2)), Code.DICE_INVALID),
        (match_id(dice=(5, 0)), Code.DICE_INVALID),
        (match_id(score=(5, 2)), Code.SCORE_INVALID),
        (match_id(match_length=31), Code.MATCH_LENGTH),
        (match_id(cube=1 << 13), Code.CUBE_TOO_HIGH),
        (match_id(turn=0), Code.MATCH_ID_INVALID),  # player 0 acts while player 1 is on roll
        (match_id(double_offered=True), Code.MATCH_ID_INVALID),  # nobody to answer it
        (match_id(double_offered=True, turn=0), Code.DOUBLE_PENDING),  # and dice rolled
        (match_id(crawford=True), Code.CRAWFORD_SCORE),
        ("MAEAAAAAAAA", Code.MATCH_ID_LENGTH),
    ],
)
def test_match_ids_that_cannot_be_analysed(text: str, code: EngineErrorCode) -> None:
    with pytest.raises(InvalidIdError) as refused:
        PositionRecord.from_gnu(START_ID, text)
    assert refused.value.code is code, str(refused.value)


def test_a_cube_owner_a_match_id_cannot_mean() -> None:
    # Bits 4-5 (the owner) = 2: neither player nor centred (3).
    bits = int.from_bytes(base64.b64decode(match_id()), "little")
    broken = base64.b64encode(((bits & ~(3 << 4)) | 2 << 4).to_bytes(9, "little"))
    with pytest.raises(InvalidIdError) as refused:
        PositionRecord.from_gnu(START_ID, broken.decode())
    assert refused.value.code is Code.MATCH_ID_INVALID


def test_too_many_checkers_in_a_position_id() -> None:
    # 16 one-bits then the 50 zero-bits: 16 checkers on the opponent's ace point.
    raw = ((1 << 16) - 1).to_bytes(10, "little")
    text = base64.b64encode(raw).decode().rstrip("=")
    with pytest.raises(InvalidIdError) as refused:
        PositionRecord.parse(text)
    assert refused.value.code is Code.TOO_MANY_CHECKERS


def test_an_id_error_is_still_a_position_error_and_crosses_processes() -> None:
    with pytest.raises(InvalidIdError) as refused:
        PositionRecord.parse("-b----E-C---eE---c-e----B-:0:0:1:52:5:0:0:5:10")
    error = refused.value
    assert isinstance(error, InvalidPositionError) and isinstance(error, ValueError)
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is InvalidIdError
    assert (again.code, again.params, str(again)) == (error.code, error.params, str(error))
    assert again.params == {"score": 5, "length": 5}


def test_dice_given_with_a_record_are_checked_and_ordered() -> None:
    record = PositionRecord.parse(START_ID)
    assert dataclasses.replace(record, dice=(2, 6)).dice == (6, 2)
    with pytest.raises(InvalidIdError) as refused:
        dataclasses.replace(record, dice=(0, 6))
    assert refused.value.code is Code.DICE_INVALID
    doubled = PositionRecord.from_xgid("-b----E-C---eE---c-e----B-:0:0:1:D:4:2:0:9:10")
    with pytest.raises(InvalidIdError):
        dataclasses.replace(doubled, dice=(6, 2))


# --- games ---------------------------------------------------------------------------------


def test_to_game_gives_each_phase() -> None:
    rolled = PositionRecord.parse(OPENING).to_game()
    assert (rolled.phase, rolled.on_roll, rolled.dice) == (Phase.MOVE, 1, (5, 2))
    assert rolled.options == MatchOptions(length=5)
    assert "13/11 13/8" in {str(play) for play in rolled.legal_plays()}
    assert len(rolled.legal_plays()) == len(legal_plays(Position.start(), (5, 2)))
    before = PositionRecord.parse("-b----E-C---eE---c-e----B-:1:-1:-1:00:2:3:0:7:10").to_game()
    assert (before.phase, before.on_roll, before.can_double()) == (Phase.ROLL, 0, True)
    assert before.score == (3, 2)
    doubled = PositionRecord.parse("-b----E-C---eE---c-e----B-:1:-1:-1:D:2:3:0:7:10").to_game()
    assert (doubled.phase, doubled.actor, doubled.cube) == (Phase.DOUBLED, 1, 2)
    assert doubled.take().cube == 4
    beaver = PositionRecord.parse("-b----E-C---eE---c-e----B-:0:0:1:B:0:0:2:0:10").to_game()
    assert beaver.beaver_pending and beaver.actor == 1
    assert beaver.options == MatchOptions(beavers=True)
    assert (beaver.take().cube, beaver.take().cube_owner) == (4, 0)
    dropped = beaver.drop().result
    assert dropped is not None and dropped.points == 2  # the taken double's value


def test_the_crawford_game_and_after() -> None:
    crawford = PositionRecord.parse("-b----E-C---eE---c-e----B-:0:0:-1:00:3:6:1:7:10").to_game()
    assert crawford.crawford and not crawford.post_crawford and not crawford.can_double()
    after = PositionRecord.parse("-b----E-C---eE---c-e----B-:0:0:1:00:3:6:0:7:10").to_game()
    assert after.post_crawford and not after.crawford and after.can_double()


def test_game_xgid_after_an_opening_worked_out_by_hand() -> None:
    # Player 0 opens 3-1 with 8/5 6/5; player 1 (the bottom player) is to roll. Player 0's
    # 8, 6 and 5 points are the bottom player's 17 (b), 19 (d) and 20 (b).
    game = Game.new().opening_roll(3, 1).move("8/5 6/5")
    assert game.xgid() == "XGID=-b----E-C---eE---b-db---B-:0:0:1:00:0:0:0:0:10"
    record = PositionRecord.parse(game.xgid())
    assert (record.position_id(), record.match_id()) == (game.position_id(), game.match_id())


def test_games_that_have_no_xgid() -> None:
    with pytest.raises(NotAllowedNowError) as refused:
        Game.new().xgid()
    assert refused.value.code is Code.NOT_STARTED
    over = Game.new().opening_roll(3, 1).move("8/5 6/5").double().drop()
    with pytest.raises(NotAllowedNowError) as refused:
        over.xgid()
    assert refused.value.code is Code.GAME_OVER


def _every_state(seed: int, options: MatchOptions) -> list[Game]:
    """Every state of one random game (rolls, doubles, takes, beavers, resignations)."""
    rng = random.Random(seed)
    game = Game.new(options)
    states = []
    while game.phase is not Phase.OVER:
        if game.phase is Phase.OPENING:
            game = game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif game.phase is Phase.ROLL:
            if game.can_double() and rng.random() < 0.15:
                game = game.double()
            else:
                game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif game.phase is Phase.DOUBLED:
            beaver = options.beavers and not game.beaver_pending and game.cube * 4 <= 4096
            game = game.beaver() if beaver and rng.random() < 0.5 else game.take()
        else:
            if rng.random() < 0.02:
                game = game.offer_resignation(game.on_roll)
                states.append(game)
                game = game.reject_resignation()
            plays = game.legal_plays()
            game = game.play(rng.choice(list(plays.items()))[1]) if plays else game.pass_turn()
        if game.phase not in (Phase.OVER, Phase.OPENING):
            states.append(game)
    return states


@pytest.mark.parametrize(
    "options",
    [
        MatchOptions(),
        MatchOptions(jacoby=True, beavers=True, auto_doubles=2),
        MatchOptions(cube=False),
        MatchOptions(length=7),
    ],
    ids=["money", "jacoby-beavers-auto", "no-cube", "match"],
)
@pytest.mark.parametrize("seed", range(4))
def test_every_state_of_random_games_has_ids_that_agree(options: MatchOptions, seed: int) -> None:
    for game in _every_state(seed, options):
        record = PositionRecord.from_game(game)
        unoffered = dataclasses.replace(game, resignation=None)  # no ID but GNU's has it
        assert record.position_id() == game.position_id()
        assert record.match_id() == unoffered.match_id()
        assert PositionRecord.parse(game.xgid()) == record
        if game.resignation is None:
            assert PositionRecord.from_gnu(game.position_id(), game.match_id()) == (
                dataclasses.replace(record, beavers=game.beaver_pending, cube_in_use=True)
            )
        played = record.to_game()
        assert (played.phase, played.actor, played.position) == (
            unoffered.phase,
            unoffered.actor,
            game.position,
        )
        assert played.dice == (None if game.dice is None else tuple(sorted(game.dice))[::-1])
        assert (played.cube, played.cube_owner, played.score) == (
            game.cube,
            game.cube_owner,
            game.score,
        )


# --- round trips over random states ------------------------------------------------------


@PROPERTY_SETTINGS
@given(record=records())
def test_the_xgid_reads_back_the_same_record(record: PositionRecord) -> None:
    text = record.xgid()
    assert PositionRecord.parse(text) == record
    assert PositionRecord.parse(text.removeprefix("XGID=")) == record


@PROPERTY_SETTINGS
@given(record=records())
def test_gnu_ids_read_back_the_same_record(record: PositionRecord) -> None:
    # A Match ID says nothing of the rules beavers and "no cube": a beaver proves the first.
    expected = dataclasses.replace(
        record, beavers=record.offer is CubeOffer.BEAVER, cube_in_use=True
    )
    assert PositionRecord.from_gnu(record.position_id(), record.match_id()) == expected
    assert PositionRecord.parse(f"{record.position_id()}:{record.match_id()}") == expected


@PROPERTY_SETTINGS
@given(record=records())
def test_a_record_makes_a_game_that_gives_it_back(record: PositionRecord) -> None:
    game = record.to_game()
    assert PositionRecord.from_game(game) == record
    assert game.xgid() == record.xgid()
    assert (game.position_id(), game.match_id()) == (record.position_id(), record.match_id())
    if record.dice is not None:
        assert game.legal_plays() is not None


# --- whatever is pasted, only InvalidIdError ---------------------------------------------


def _read_or_refused(text: str) -> None:
    """Either a real state, which writes itself back as the same record, or InvalidIdError
    (anything else, an IndexError say, fails the test)."""
    try:
        record = PositionRecord.parse(text)
    except InvalidIdError as error:
        assert str(error) and error.code in set(EngineErrorCode)
        return
    assert PositionRecord.parse(record.xgid()) == record


@st.composite
def damaged(draw: st.DrawFn) -> str:
    """A real ID with one part replaced, cut or doubled: the mistakes a paste makes."""
    record = draw(records())
    text = draw(
        st.sampled_from(
            [record.xgid(), f"{record.position_id()}:{record.match_id()}", record.position_id()]
        )
    )
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, len(text)))
    middle = draw(
        st.one_of(
            st.text(max_size=4),
            st.text(alphabet="-:ABDRabop0123456789/+=", max_size=4),
            st.just(text[start:end] * 2),
        )
    )
    return text[:start] + middle + text[end:]


@PROPERTY_SETTINGS
@given(text=st.text())
@example("XGID=" + ":" * 9)
@example(":::::::::")
@example("XGID=")
@example("XGID=\n")
@example("ßXGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10")
def test_any_text_raises_only_invalid_id_error(text: str) -> None:
    _read_or_refused(text)


@PROPERTY_SETTINGS
@given(text=damaged())
def test_damaged_ids_raise_only_invalid_id_error(text: str) -> None:
    _read_or_refused(text)
