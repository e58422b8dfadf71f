"""XGIDs checked against the real GNU Backgammon, both ways, in one gnubg process.

GNU Backgammon 1.07 reads XGIDs (``set xgid``) but has no way to write one, so "the XGID the
bot writes is GNU Backgammon's" is checked the way gnubg allows: for every conformance
position (tests/data/legal_plays.jsonl: each board, and each position its legal plays reach,
seen by the next player) in a rotation of cube, score and rule states, gnubg reads the XGID
the bot writes and must arrive at exactly the Position ID and Match ID the bot gives for
that state. The other way, the bot reads XGIDs that this file writes by hand, letter by
letter (not with the bot's writer), and must arrive where gnubg arrives.

gnubg reads the bottom player as its player 1, as the bot does. When the top player is on
roll it offers to swap the players (so the player on roll is at the bottom); the driver
answers no (``set confirm default no``), so the comparison also pins down which player is
which. On reading a pending double gnubg steps back from it (``SetMatchID cannot handle
positions where a double has been offered``), keeping the cube before the double: the
comparison takes the double away from the bot's state too. gnubg refuses a beaver (``B``),
which XG writes and the bot reads.
"""

from __future__ import annotations

import dataclasses
import random
import textwrap
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.engine import CubeOffer, Position, PositionRecord
from tests.engine.support import conformance_cases
from tests.gnubg_support import run_script

# Runs inside gnubg. Before each XGID a sentinel state, so an XGID gnubg refuses leaves the
# sentinel behind (reported as None) rather than the previous XGID's state.
_DRIVER = textwrap.dedent(
    """
    import json, os
    import gnubg

    job = json.load(open(os.environ["GAMMON_GNUBG_JOB"]))
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("set confirm default no")  # keep the players as the XGID numbers them

    def state():
        return [gnubg.positionid(), gnubg.matchid()]

    gnubg.command("set xgid " + job["sentinel"])
    sentinel = state()
    read = []
    for xgid in job["xgids"]:
        gnubg.command("set xgid " + job["sentinel"])
        gnubg.command("set xgid " + xgid)
        now = state()
        read.append(None if now == sentinel else now)
    with open(os.environ["GAMMON_GNUBG_OUT"], "w") as out:
        json.dump({"sentinel": sentinel, "read": read}, out)
    """
)

# A 25-point match at 17-19 with a 64-cube: no state below comes near it.
SENTINEL = "XGID=a-----------------------A-:6:1:1:11:19:17:0:25:10"

# The cube, score and rules each conformance position is written with, in rotation.
STATES: list[dict[str, Any]] = [
    {},  # money, player 1 (bottom) on roll, the cube centred
    {"on_roll": 0, "cube": 2, "cube_owner": 0, "jacoby": True},
    {"length": 5, "score": (2, 3), "cube": 2, "cube_owner": 1},
    {"on_roll": 0, "length": 7, "score": (6, 3), "crawford": True},
    {"length": 7, "score": (6, 3), "cube": 4, "cube_owner": 0},  # after the Crawford game
    {"on_roll": 0, "length": 9, "offer": CubeOffer.DOUBLE},
    {"length": 11, "score": (4, 10), "cube": 8, "cube_owner": 1, "offer": CubeOffer.DOUBLE},
    {"on_roll": 0, "cube_in_use": False, "beavers": True},
    {"on_roll": 0, "length": 25, "score": (24, 24)},
    {"length": 1},
    {"on_roll": 0, "cube": 2, "jacoby": True, "beavers": True},  # an automatic double
    {"cube": 4096, "cube_owner": 1, "score": (3, 12)},
    {"on_roll": 0, "cube": 1024, "cube_owner": 0, "offer": CubeOffer.DOUBLE},  # max cube 11
]
ROLLS: list[tuple[int, int] | None] = [None, (6, 5), None, (1, 1), (2, 4), None, (3, 6)]


@cache
def written_records() -> tuple[PositionRecord, ...]:
    """Every conformance position in one of the STATES, with the case's dice or others."""
    records = []
    for index, case in enumerate(conformance_cases()):
        boards = [Position.from_board(case["board"])]
        boards += [Position.from_board(board).flip() for board in case["results"]]
        for number, position in enumerate(boards):
            if position.is_over():
                continue
            state = STATES[(index + number) % len(STATES)]
            dice = tuple(case["dice"]) if number == 0 else ROLLS[(index + number) % len(ROLLS)]
            if "offer" in state:
                dice = None
            records.append(PositionRecord(position, dice=dice, **state))
    return tuple(records)


def beavered_records() -> tuple[PositionRecord, ...]:
    board = Position.start()
    return (
        PositionRecord(board, offer=CubeOffer.BEAVER, beavers=True),
        PositionRecord(
            board, on_roll=0, cube=2, cube_owner=0, offer=CubeOffer.BEAVER, beavers=True
        ),
    )


def hand_written_xgids(count: int, seed: int) -> list[str]:
    """Legal XGIDs built letter by letter, in forms the bot itself never writes (the dice
    smaller first, other highest cubes, no prefix)."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        cells = [0] * 26  # + the bottom player's checkers, - the top player's
        for _ in range(rng.randint(1, 15)):
            cells[rng.randint(1, 25)] += 1  # the bottom player's bar is the last cell
        free = [i for i in range(1, 25) if cells[i] == 0] + [0]  # and the top's the first
        for _ in range(rng.randint(1, 15)):
            cells[rng.choice(free)] -= 1
        board = "".join(
            "-" if n == 0 else chr(ord("A") + n - 1) if n > 0 else chr(ord("a") - n - 1)
            for n in cells
        )
        length = rng.choice([0, 0, 1, 3, 5, 7, 9, 13, 25])
        if length:
            bottom, top = rng.randrange(length), rng.randrange(length)
        else:
            bottom, top = rng.randrange(12), rng.randrange(12)
        turn = rng.choice([1, -1])
        crawford = bool(length) and [bottom, top].count(length - 1) == 1 and rng.random() < 0.5
        cube_log2, position = 0, 0
        if not crawford and rng.random() < 0.6:
            cube_log2 = rng.randint(1, 11)
            position = rng.choice([1, -1] if length else [1, -1, 0])
        max_log2 = rng.choice([10, 10, 11, 12])
        if cube_log2 == 0 and rng.random() < 0.1:
            max_log2 = 0  # no cube
        max_log2 = max(max_log2, cube_log2) if max_log2 else 0
        may_double = not crawford and length != 1 and max_log2 and position in (0, turn)
        if may_double and cube_log2 < 12 and rng.random() < 0.25:
            dice = "D"
        else:
            dice = rng.choice(["00", f"{rng.randint(1, 6)}{rng.randint(1, 6)}"])
        rules = int(crawford) if length else rng.randint(0, 3)
        fields = [cube_log2, position, turn, dice, bottom, top, rules, length, max_log2]
        prefix = rng.choice(["XGID=", ""])
        found.append(prefix + ":".join([board, *(str(f) for f in fields)]))
    return found


def as_gnubg_reads(record: PositionRecord) -> list[str]:
    """The IDs gnubg shows after reading the record's state: the double stepped back from."""
    state = dataclasses.replace(record, offer=None)
    return [state.position_id(), state.match_id()]


@pytest.fixture(scope="module")
def gnubg_read(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str] | None]:
    """What gnubg read from every XGID of this file: its IDs, or None when it refused."""
    xgids = [record.xgid() for record in (*written_records(), *beavered_records())]
    xgids += hand_written_xgids(3000, seed=38)
    workdir: Path = tmp_path_factory.mktemp("gnubg-xgid")
    run = run_script(_DRIVER, {"sentinel": SENTINEL, "xgids": xgids}, workdir, timeout=300)
    assert run.result["sentinel"][1] != run.result["read"][0], "the sentinel state did not take"
    return dict(zip(xgids, run.result["read"], strict=True))


def test_the_states_cover_what_an_xgid_says() -> None:
    records = written_records()
    assert len(records) > 25_000
    assert {r.on_roll for r in records} == {0, 1}
    assert {r.offer for r in records} == {None, CubeOffer.DOUBLE}
    assert any(r.crawford for r in records) and any(not r.cube_in_use for r in records)
    assert {r.cube_owner for r in records} == {None, 0, 1}
    assert any(r.position.bar and r.position.opponent_bar for r in records)


def test_gnubg_reads_the_xgids_the_bot_writes_as_the_same_state(
    gnubg_read: dict[str, list[str] | None],
) -> None:
    records = written_records()
    wrong = [
        (record.xgid(), gnubg_read[record.xgid()], as_gnubg_reads(record))
        for record in records
        if gnubg_read[record.xgid()] != as_gnubg_reads(record)
    ]
    assert not wrong, f"{len(wrong)} of {len(records)} differ, first: {wrong[:3]}"


def test_the_bot_reads_xgids_as_gnubg_does(gnubg_read: dict[str, list[str] | None]) -> None:
    texts = hand_written_xgids(3000, seed=38)
    assert sum(text.split(":")[4] == "D" for text in texts) > 100
    assert any(text.split(":")[-1] == "0" for text in texts)
    wrong = []
    for text in texts:
        ours = as_gnubg_reads(PositionRecord.from_xgid(text))
        if gnubg_read[text] != ours:
            wrong.append((text, gnubg_read[text], ours))
    assert not wrong, f"{len(wrong)} of {len(texts)} differ, first: {wrong[:3]}"


def test_gnubg_refuses_a_beaver_which_the_bot_reads(
    gnubg_read: dict[str, list[str] | None],
) -> None:
    for record in beavered_records():
        assert gnubg_read[record.xgid()] is None, record.xgid()
        assert PositionRecord.parse(record.xgid()) == record
