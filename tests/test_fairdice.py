"""Verifiable dice: the derivation is the documented one, unbiased, resumable and checkable."""

from __future__ import annotations

import dataclasses
import doctest
import hashlib
import hmac
import math
import random
from collections import Counter

import pytest

import bot.core.fairdice as fairdice
from bot.core.fairdice import (
    REJECT_FROM,
    FairRoller,
    RecordedMatch,
    Verdict,
    commitment,
    derive_dice,
    dice_from_bytes,
    die_from_byte,
    format_rolls,
    new_secret,
    parse_rolls,
    parse_secret,
    recorded_dice,
    recorded_rolls,
    verify,
    verify_events,
)
from bot.core.session import Player, SessionService
from bot.engine import MatchOptions, Phase
from bot.storage import Store

SECRET = bytes(range(32))
PUBLIC = "1187654321098765432"


def reference_dice(secret: bytes, public: str, count: int) -> list[int]:
    """The scheme exactly as the module docstring states it, written out byte by byte."""
    dice: list[int] = []
    counter = 0
    while len(dice) < count:
        message = public.encode() + counter.to_bytes(8, "big")
        for byte in hmac.new(secret, message, hashlib.sha256).digest():
            if byte < 252:
                dice.append(byte % 6 + 1)
        counter += 1
    return dice[:count]


def test_doctests() -> None:
    assert doctest.testmod(fairdice).failed == 0


def test_secret_and_commitment() -> None:
    secret = new_secret()
    assert len(secret) == 32
    assert new_secret() != secret
    assert commitment(secret) == hashlib.sha256(secret).hexdigest()
    assert len(commitment(secret)) == 64
    assert parse_secret(" 0x" + secret.hex().upper() + "\n") == secret
    for bad in ("", "00" * 31, "zz" * 32, "00" * 33):
        with pytest.raises(ValueError, match="hexadecimal"):
            parse_secret(bad)


def test_derivation_follows_the_documented_scheme() -> None:
    assert derive_dice(SECRET, PUBLIC, 3000) == reference_dice(SECRET, PUBLIC, 3000)
    # An integer public value means its decimal text.
    assert derive_dice(SECRET, int(PUBLIC), 50) == derive_dice(SECRET, PUBLIC, 50)


def test_deterministic_and_sensitive_to_both_inputs() -> None:
    first = derive_dice(SECRET, PUBLIC, 200)
    assert derive_dice(SECRET, PUBLIC, 200) == first
    assert derive_dice(SECRET, PUBLIC + "1", 200) != first
    other = bytes([1]) + SECRET[1:]
    assert derive_dice(other, PUBLIC, 200) != first
    assert derive_dice(SECRET, PUBLIC, 0) == []


def test_byte_mapping_at_the_rejection_edge() -> None:
    assert REJECT_FROM == 252
    assert die_from_byte(0) == 1
    assert die_from_byte(5) == 6
    assert die_from_byte(6) == 1
    assert die_from_byte(251) == 6  # the last accepted byte: 251 = 6 * 41 + 5
    assert die_from_byte(252) is None  # the first rejected
    assert die_from_byte(255) is None
    with pytest.raises(ValueError):
        die_from_byte(256)
    # Each face is exactly 42 of the 252 accepted byte values: no face is favoured.
    faces = Counter(die_from_byte(b) for b in range(256))
    assert faces.pop(None) == 4
    assert faces == {face: 42 for face in range(1, 7)}
    assert list(dice_from_bytes(bytes([251, 252, 253, 254, 255, 0, 250]))) == [6, 1, 5]
    assert list(dice_from_bytes(bytes(range(256)))) == [b % 6 + 1 for b in range(252)]


def test_rejected_bytes_are_skipped_across_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stubbed HMAC stream: rejected bytes at a block's end, then a wholly rejected block."""
    blocks = {
        0: bytes([252] * 30 + [251, 255]),  # one die (6), hidden between rejected bytes
        1: bytes([255] * 32),  # nothing at all
        2: bytes([253, 0, 254, 1] + [2] * 28),
    }
    calls: list[int] = []

    def fake_block(secret: bytes, public: bytes, counter: int) -> bytes:
        calls.append(counter)
        return blocks[counter]

    monkeypatch.setattr(fairdice, "_block", fake_block)
    roller = FairRoller(SECRET, PUBLIC)
    assert [roller.die() for _ in range(5)] == [6, 1, 2, 3, 3]
    assert roller.drawn == 5
    assert calls == [0, 1, 2]
    assert derive_dice(SECRET, PUBLIC, 4) == [6, 1, 2, 3]
    resumed = FairRoller(SECRET, PUBLIC, drawn=2)
    assert resumed.die() == 2


def test_a_million_dice_are_fair() -> None:
    dice = derive_dice(SECRET, "fairness", 1_000_000)
    counts = Counter(dice)
    assert set(counts) == set(range(1, 7))
    expected = len(dice) / 6
    sd = math.sqrt(len(dice) * (1 / 6) * (5 / 6))  # about 373
    for face in range(1, 7):
        assert abs(counts[face] - expected) < 5 * sd, (face, counts[face])
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert chi2 < 30.0  # 5 degrees of freedom: P(chi2 > 30) is about 1.5e-5
    pairs = list(zip(dice[0::2], dice[1::2], strict=True))
    doubles = sum(a == b for a, b in pairs)
    sd_doubles = math.sqrt(len(pairs) * (1 / 6) * (5 / 6))
    assert abs(doubles - len(pairs) / 6) < 5 * sd_doubles


@pytest.mark.parametrize("drawn", [0, 1, 2, 29, 30, 31, 32, 33, 63, 64, 65, 501])
def test_resuming_after_n_dice_continues_the_same_stream(drawn: int) -> None:
    stream = derive_dice(SECRET, PUBLIC, drawn + 80)
    roller = FairRoller(SECRET, PUBLIC, drawn=drawn)
    assert roller.drawn == drawn
    assert [roller.die() for _ in range(80)] == stream[drawn:]
    assert roller.drawn == drawn + 80


def test_one_roller_drawing_one_by_one_equals_the_bulk_derivation() -> None:
    roller = FairRoller(SECRET, PUBLIC)
    assert [roller.die() for _ in range(1000)] == derive_dice(SECRET, PUBLIC, 1000)
    assert SECRET.hex() not in repr(roller)
    assert roller.commitment == commitment(SECRET)
    with pytest.raises(ValueError):
        FairRoller(SECRET[:31], PUBLIC)
    with pytest.raises(ValueError):
        FairRoller(SECRET, PUBLIC, drawn=-1)


def test_verify_matches_and_names_the_first_bad_roll() -> None:
    dice = derive_dice(SECRET, PUBLIC, 40)
    result = verify(SECRET.hex(), PUBLIC, dice, commitment_hex=commitment(SECRET))
    assert result.ok and result.verdict is Verdict.MATCH
    assert result.rolls_checked == 20
    assert "match" in result.text and "20 rolls" in result.text

    changed = list(dice)
    changed[13] = changed[13] % 6 + 1  # the second die of roll 7
    result = verify(SECRET.hex(), PUBLIC, changed)
    assert not result.ok and result.verdict is Verdict.MISMATCH
    assert result.roll == 7
    assert result.expected == tuple(dice[12:14])
    assert result.recorded == tuple(changed[12:14])
    assert f"roll 7 should be {dice[12]}-{dice[13]}" in result.text

    assert not verify(SECRET.hex(), PUBLIC + "0", dice).ok  # another public value
    wrong = verify(SECRET.hex(), PUBLIC, dice, commitment_hex="ab" * 32)
    assert wrong.verdict is Verdict.COMMITMENT_MISMATCH
    assert commitment(SECRET) in wrong.text
    bad = verify("not a secret", PUBLIC, dice)
    assert bad.verdict is Verdict.BAD_SECRET and not bad.ok


def test_rolls_round_trip_as_text() -> None:
    dice = derive_dice(SECRET, PUBLIC, 30)
    assert parse_rolls(format_rolls(dice)) == dice
    assert parse_rolls("3-1, 6-5;44 2/2") == [3, 1, 6, 5, 4, 4, 2, 2]
    with pytest.raises(ValueError):
        parse_rolls("7-1")


def test_command_line_verifier(capsys: pytest.CaptureFixture[str]) -> None:
    dice = derive_dice(SECRET, PUBLIC, 10)
    assert fairdice.main([SECRET.hex(), PUBLIC, "--rolls", format_rolls(dice)]) == 0
    assert "The dice match" in capsys.readouterr().out
    dice[0] = dice[0] % 6 + 1
    assert fairdice.main([SECRET.hex(), PUBLIC, "--rolls", format_rolls(dice)]) == 1
    assert "do NOT match: roll 1" in capsys.readouterr().out
    assert fairdice.main([SECRET.hex(), PUBLIC, "--count", "5"]) == 0
    assert capsys.readouterr().out.strip() == format_rolls(derive_dice(SECRET, PUBLIC, 10))
    assert fairdice.main(["nonsense", PUBLIC]) == 2
    assert "not a dice secret" in capsys.readouterr().err
    wrong = ["--commitment", "00" * 32]
    assert fairdice.main([SECRET.hex(), PUBLIC, "--rolls", "3-1", *wrong]) == 1
    assert "does NOT match the commitment" in capsys.readouterr().out


def test_command_line_verifier_reads_the_bots_database(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot verify`` passes a lookup that finds the match by its public value."""
    dice = derive_dice(SECRET, PUBLIC, 12)
    matches = {PUBLIC: RecordedMatch(dice, commitment(SECRET), "match 7 in #general")}
    assert fairdice.main([SECRET.hex(), PUBLIC], lookup=matches.get) == 0
    out = capsys.readouterr().out
    assert "Checking match 7 in #general." in out and "all 6 rolls" in out
    forged = RecordedMatch([*dice[:-1], dice[-1] % 6 + 1], commitment(SECRET))
    assert fairdice.main([SECRET.hex(), PUBLIC], lookup={PUBLIC: forged}.get) == 1
    assert "roll 6 should be" in capsys.readouterr().out
    lied = RecordedMatch(dice, "ab" * 32)
    assert fairdice.main([SECRET.hex(), PUBLIC], lookup={PUBLIC: lied}.get) == 1
    assert "commitment" in capsys.readouterr().out
    assert fairdice.main([SECRET.hex(), "999"], lookup=matches.get) == 0
    assert "No match with the public value 999" in capsys.readouterr().out


# --- a match played through the session layer -------------------------------------------------

ALICE = Player(1, "alice")
BOB = Player(2, "bob")


async def test_a_matchs_secret_regenerates_exactly_its_logged_rolls(store: Store) -> None:
    secret = new_secret()
    public = "1311111111111111111"
    roller = FairRoller(secret, public)
    service = SessionService(store, roller=roller)
    rng = random.Random(7)
    channel = 77
    await service.challenge(10, channel, ALICE, BOB, MatchOptions(length=3))
    report = await service.accept(channel, BOB)
    while report.match.status == "playing":
        game = report.match.game
        assert game is not None and game.actor is not None
        actor = (ALICE, BOB)[game.actor]
        if game.phase is Phase.ROLL:
            report = await service.roll(channel, actor)
        elif game.phase is Phase.DOUBLED:
            report = await service.take(channel, actor)
        else:
            texts = await service.legal_play_texts(channel, actor.id)
            report = await service.move(channel, actor, rng.choice(texts))
    _, events = await service.history(channel)

    rolls = recorded_rolls(events)
    assert {roll.action for roll in rolls} == {"opening", "roll"}
    assert any(e.action in ("move", "pass") and e.dice for e in events)  # repeated, not drawn
    dice = recorded_dice(events)
    assert len(dice) == roller.drawn  # every die drawn is in the log, once
    assert dice == derive_dice(secret, public, roller.drawn)
    result = verify_events(secret.hex(), public, events, commitment_hex=commitment(secret))
    assert result.ok, result.text
    assert result.rolls_checked == len(rolls)

    # Changing one recorded roll makes the check fail, and it says which roll.
    target = rolls[len(rolls) // 2]
    a, b = target.dice
    forged = [
        dataclasses.replace(e, dice=(a % 6 + 1, b)) if e.seq == target.seq else e for e in events
    ]
    result = verify_events(secret.hex(), public, forged)
    assert result.verdict is Verdict.MISMATCH
    assert result.roll == target.number
    assert result.expected == (a, b)

    # Resuming after a restart: a new roller told how many dice were drawn carries on.
    resumed = FairRoller(secret, public, drawn=len(dice))
    assert [resumed.die() for _ in range(4)] == derive_dice(secret, public, len(dice) + 4)[-4:]
