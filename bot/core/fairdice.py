"""Dice anyone can verify: commit to a secret, derive every die from it, reveal it at the end.

The scheme, per match:

1. When the match is set up the bot draws a fresh 32-byte ``secret`` from the operating
   system and posts its **commitment**, the SHA-256 of the secret in hex, before any die is
   rolled.
2. A **public value** fixed only after the commitment (the id of the interaction that
   accepts the challenge) is mixed in, so the bot cannot have picked a secret that suits
   those rolls, and no player knows the secret.
3. Every die of the match, in the order the bot draws them, comes from the stream of
   HMAC-SHA-256 blocks ``HMAC(key=secret, msg=public_utf8 || counter)``, where ``counter``
   is the block number 0, 1, 2, ... as 8 bytes big-endian. Each byte ``b`` of each block
   in turn gives a die ``b % 6 + 1`` when ``b < 252``, and is skipped otherwise (rejection
   sampling: 252 is the largest multiple of 6 that fits in a byte, so each face has exactly
   42 of the 252 accepted byte values and no face is favoured).
4. The message that ends the match reveals the secret. Anyone can check that its SHA-256 is
   the commitment and that it regenerates the recorded rolls (:func:`verify`, or
   ``python -m bot.core.fairdice SECRET PUBLIC --rolls "3-1 6-5 ..."``).

The dice in a match's event log are drawn in log order: an ``opening`` event holds the two
opening dice (player 0's first), a ``roll`` event the two dice rolled; ``move`` and ``pass``
events repeat the dice of the roll they play and draw nothing (:func:`recorded_dice`).

Limits: the secret lives in the bot's database while the match runs, so whoever runs the
bot can read it and know the rolls to come (they cannot change them without the check
failing); a player who sees the secret early could too. The check proves the rolls were
fixed when the match began, not that the operator kept the secret to themselves. A host
that dislikes the rolls an accept would give could also pretend to fail and wait for
another accept; a public value the host sees before committing (a game against the
computer, which accepts at once) lets it try secrets until the rolls suit it.

>>> secret = bytes(32)
>>> commitment(secret)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> derive_dice(secret, "1234", 6)
[1, 6, 6, 1, 2, 6]
>>> roller = FairRoller(secret, "1234", drawn=4)
>>> roller.die(), roller.die(), roller.drawn
(2, 6, 6)
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import re
import secrets
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from bot.core.records import Action

__all__ = [
    "DICE_ACTIONS",
    "REJECT_FROM",
    "SECRET_BYTES",
    "FairRoller",
    "RecordedMatch",
    "RecordedRoll",
    "Verdict",
    "VerifyResult",
    "commitment",
    "derive_dice",
    "dice_from_bytes",
    "die_from_byte",
    "format_rolls",
    "new_secret",
    "parse_rolls",
    "parse_secret",
    "recorded_dice",
    "recorded_rolls",
    "verify",
    "verify_events",
]

SECRET_BYTES = 32
# Bytes from here up are rejected: 252 = 6 * 42 keeps the six faces exactly equally likely.
REJECT_FROM = 252
# The event actions that draw two dice from the roller; "move" and "pass" only repeat them.
DICE_ACTIONS = frozenset({Action.OPENING, Action.ROLL})

# bytes.translate table: byte value -> die value (1-6); rejected bytes are deleted instead.
_TO_DIE = bytes(b % 6 + 1 if b < REJECT_FROM else 0 for b in range(256))
_REJECTED = bytes(range(REJECT_FROM, 256))


def new_secret() -> bytes:
    """A fresh 32-byte secret from the operating system's random source."""
    return secrets.token_bytes(SECRET_BYTES)


def commitment(secret: bytes) -> str:
    """The SHA-256 of the secret, in lowercase hex: post it before the first roll."""
    return hashlib.sha256(secret).hexdigest()


def parse_secret(text: str) -> bytes:
    """A revealed secret (64 hex digits, spaces and a ``0x`` allowed) as bytes.

    >>> parse_secret("00" * 32) == bytes(32)
    True
    """
    cleaned = re.sub(r"\s+", "", text).lower().removeprefix("0x")
    if len(cleaned) != 2 * SECRET_BYTES or not re.fullmatch(r"[0-9a-f]*", cleaned):
        raise ValueError(
            f"a secret is {2 * SECRET_BYTES} hexadecimal digits (0-9, a-f), "
            f"not {text.strip()[:80]!r}"
        )
    return bytes.fromhex(cleaned)


def die_from_byte(byte: int) -> int | None:
    """The die a byte of the stream gives, or None when rejection sampling skips it.

    >>> die_from_byte(0), die_from_byte(5), die_from_byte(251), die_from_byte(252)
    (1, 6, 6, None)
    """
    if not 0 <= byte <= 255:
        raise ValueError(f"a byte is 0-255, not {byte}")
    return byte % 6 + 1 if byte < REJECT_FROM else None


def dice_from_bytes(data: bytes) -> bytes:
    """Every die ``data`` gives, in order, as bytes holding the values 1-6 (fast path)."""
    return data.translate(_TO_DIE, _REJECTED)


def _public_bytes(public: str | int) -> bytes:
    return str(public).encode("utf-8")


def _block(secret: bytes, public: bytes, counter: int) -> bytes:
    return hmac.new(secret, public + counter.to_bytes(8, "big"), hashlib.sha256).digest()


def _check_secret(secret: bytes) -> bytes:
    if not isinstance(secret, bytes | bytearray) or len(secret) != SECRET_BYTES:
        raise ValueError(f"a dice secret is {SECRET_BYTES} bytes")
    return bytes(secret)


def derive_dice(secret: bytes, public: str | int, count: int) -> list[int]:
    """The first ``count`` dice of the match with this secret and public value."""
    secret = _check_secret(secret)
    if count < 0:
        raise ValueError(f"cannot derive {count} dice")
    message = _public_bytes(public)
    out = bytearray()
    counter = 0
    while len(out) < count:
        out += dice_from_bytes(_block(secret, message, counter))
        counter += 1
    return list(out[:count])


class FairRoller:
    """A :class:`bot.core.dice.Roller` whose dice follow from (secret, public value) alone.

    ``drawn`` dice have already been taken (resume a match after a restart by passing the
    count stored with it); :attr:`drawn` counts on as dice are drawn. Two rollers with the
    same secret, public value and ``drawn`` give the same dice from there on.

    The secret stays inside: ``repr`` shows only the commitment.
    """

    __slots__ = ("_buffer", "_counter", "_message", "_secret", "drawn", "public")

    def __init__(self, secret: bytes, public: str | int, *, drawn: int = 0) -> None:
        if drawn < 0:
            raise ValueError(f"drawn counts dice already rolled, so it is not {drawn}")
        self._secret = _check_secret(secret)
        self.public = str(public)
        self._message = _public_bytes(public)
        self._counter = 0
        self._buffer = b""
        self.drawn = 0
        self._skip(drawn)

    def __repr__(self) -> str:
        return (
            f"<FairRoller commitment={commitment(self._secret)[:16]}... "
            f"public={self.public!r} drawn={self.drawn}>"
        )

    @property
    def commitment(self) -> str:
        return commitment(self._secret)

    def _refill(self) -> None:
        while not self._buffer:
            self._buffer = dice_from_bytes(_block(self._secret, self._message, self._counter))
            self._counter += 1

    def _skip(self, count: int) -> None:
        while count:
            self._refill()
            taken = min(count, len(self._buffer))
            self._buffer = self._buffer[taken:]
            self.drawn += taken
            count -= taken

    def die(self) -> int:
        """The next die, 1-6."""
        self._refill()
        value = self._buffer[0]
        self._buffer = self._buffer[1:]
        self.drawn += 1
        return value


# --- reading the event log ------------------------------------------------------------------


class _Event(Protocol):
    """What we read of a logged event (:class:`bot.core.records.EventRecord` has these fields)."""

    @property
    def seq(self) -> int: ...
    @property
    def game_number(self) -> int: ...
    @property
    def action(self) -> str: ...
    @property
    def dice(self) -> tuple[int, int] | None: ...


@dataclass(frozen=True, slots=True)
class RecordedRoll:
    """Two dice the roller gave, as the event log recorded them (in the order drawn)."""

    number: int  # 1-based, counting every roll of the match including opening ties
    game_number: int
    seq: int  # the event's sequence number in the log
    action: Action  # OPENING or ROLL
    dice: tuple[int, int]


def recorded_rolls(events: Iterable[_Event]) -> list[RecordedRoll]:
    """Every draw of two dice in a match's event log, in the order they were drawn.

    Opening events (ties included) and roll events draw two dice each; move and pass events
    repeat the dice of their roll and are not counted again.
    """
    rolls: list[RecordedRoll] = []
    for event in events:
        if event.action not in DICE_ACTIONS:
            continue
        if event.dice is None or len(event.dice) != 2:
            raise ValueError(f"event {event.seq} ({event.action}) has no dice recorded")
        rolls.append(
            RecordedRoll(
                len(rolls) + 1,
                event.game_number,
                event.seq,
                Action(event.action),
                (int(event.dice[0]), int(event.dice[1])),
            )
        )
    return rolls


def recorded_dice(events: Iterable[_Event]) -> list[int]:
    """The dice of a match's event log, one by one, in the order the roller gave them."""
    return [die for roll in recorded_rolls(events) for die in roll.dice]


# --- verification ---------------------------------------------------------------------------


class Verdict(StrEnum):
    MATCH = "match"  # the secret regenerates every recorded die
    MISMATCH = "mismatch"  # some recorded roll differs from what the secret gives
    COMMITMENT_MISMATCH = "commitment_mismatch"  # the secret does not hash to the commitment
    BAD_SECRET = "bad_secret"  # not 64 hexadecimal digits


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """What :func:`verify` found. ``roll`` (1-based) is the first roll that differs."""

    verdict: Verdict
    rolls_checked: int = 0
    roll: int | None = None
    expected: tuple[int, ...] | None = None
    recorded: tuple[int, ...] | None = None
    commitment: str | None = None  # the secret's SHA-256, when the secret could be read
    problem: str | None = None  # why a secret was not accepted

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.MATCH

    @property
    def text(self) -> str:
        """The verdict in one plain sentence (English; a presentation layer may reword it)."""
        if self.verdict is Verdict.MATCH:
            rolls = f"{self.rolls_checked} roll{'s' if self.rolls_checked != 1 else ''}"
            return f"The dice match: the secret regenerates all {rolls} of the match."
        if self.verdict is Verdict.MISMATCH:
            return (
                f"The dice do NOT match: roll {self.roll} should be "
                f"{_pair_text(self.expected)} but the record shows {_pair_text(self.recorded)}."
            )
        if self.verdict is Verdict.COMMITMENT_MISMATCH:
            return (
                "The secret does NOT match the commitment posted at the start: its SHA-256 "
                f"is {self.commitment}."
            )
        return f"That is not a dice secret: {self.problem}."


def _pair_text(dice: tuple[int, ...] | None) -> str:
    return "-".join(str(d) for d in dice) if dice else "nothing"


def verify(
    secret_hex: str | bytes,
    public: str | int,
    recorded: Sequence[int],
    *,
    commitment_hex: str | None = None,
) -> VerifyResult:
    """Check recorded dice (flat, in drawn order) against a revealed secret.

    With ``commitment_hex`` the secret must also hash to it. A trailing odd die is compared
    as a roll of its own.

    >>> secret = bytes(32)
    >>> verify(secret.hex(), "1234", [1, 6, 6, 1]).text
    'The dice match: the secret regenerates all 2 rolls of the match.'
    >>> verify(secret.hex(), "1234", [1, 6, 6, 2]).text
    'The dice do NOT match: roll 2 should be 6-1 but the record shows 6-2.'
    """
    try:
        secret = secret_hex if isinstance(secret_hex, bytes) else parse_secret(secret_hex)
        secret = _check_secret(secret)
    except ValueError as exc:
        return VerifyResult(Verdict.BAD_SECRET, problem=str(exc))
    digest = commitment(secret)
    if commitment_hex is not None and digest != commitment_hex.strip().lower():
        return VerifyResult(Verdict.COMMITMENT_MISMATCH, commitment=digest)
    dice = [int(d) for d in recorded]
    expected = derive_dice(secret, public, len(dice))
    rolls = (len(dice) + 1) // 2
    for start in range(0, len(dice), 2):
        if expected[start : start + 2] != dice[start : start + 2]:
            return VerifyResult(
                Verdict.MISMATCH,
                rolls_checked=rolls,
                roll=start // 2 + 1,
                expected=tuple(expected[start : start + 2]),
                recorded=tuple(dice[start : start + 2]),
                commitment=digest,
            )
    return VerifyResult(Verdict.MATCH, rolls_checked=rolls, commitment=digest)


def verify_events(
    secret_hex: str | bytes,
    public: str | int,
    events: Iterable[_Event],
    *,
    commitment_hex: str | None = None,
) -> VerifyResult:
    """:func:`verify` against the dice of a match's event log."""
    return verify(secret_hex, public, recorded_dice(events), commitment_hex=commitment_hex)


# --- text forms of rolls --------------------------------------------------------------------


def format_rolls(dice: Sequence[int]) -> str:
    """Dice as rolls, ``"3-1 6-5"``; the form :func:`parse_rolls` reads back."""
    return " ".join(_pair_text(tuple(dice[i : i + 2])) for i in range(0, len(dice), 2))


def parse_rolls(text: str) -> list[int]:
    """Dice written as rolls (``"3-1 6-5"``, ``"31 65"`` or ``"3,1,6,5"``), flat.

    >>> parse_rolls("3-1 6-5, 44")
    [3, 1, 6, 5, 4, 4]
    """
    digits = re.sub(r"[\s,;\-/]+", "", text)
    if not re.fullmatch(r"[1-6]*", digits):
        raise ValueError(f"rolls are written with the digits 1-6, like 3-1 6-5, not {text!r}")
    return [int(d) for d in digits]


@dataclass(frozen=True, slots=True)
class RecordedMatch:
    """What a database knows of a match, for checking it: its dice and its commitment."""

    dice: Sequence[int]
    commitment: str | None = None
    description: str = ""  # how to name the match in the output ("match 12 in #general")


def main(
    argv: Sequence[str] | None = None,
    *,
    lookup: Callable[[str], RecordedMatch | None] | None = None,
    prog: str = "python -m bot.core.fairdice",
) -> int:
    """``SECRET PUBLIC [--rolls ...] [--commitment ...] [--count N]``: check a match's dice.

    With ``--rolls`` it checks those rolls. Otherwise ``lookup`` (the bot's own database,
    when ``python -m bot verify`` calls this) may find the match by its public value and
    check the rolls it recorded; failing that it prints the rolls the secret gives, for
    comparing by eye. Exit status: 0 the dice match (or were printed), 1 they do not,
    2 the input is unusable.
    """
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Regenerate a match's dice from its revealed secret and public value.",
    )
    parser.add_argument("secret", help="the revealed secret, 64 hexadecimal digits")
    parser.add_argument("public", help="the match's public value")
    parser.add_argument("--rolls", help='the recorded rolls, e.g. "3-1 6-5 4-4"')
    parser.add_argument("--commitment", help="the SHA-256 posted at the start of the match")
    parser.add_argument(
        "--count", type=int, default=20, help="rolls to print without --rolls (default 20)"
    )
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        secret = parse_secret(args.secret)
    except ValueError as exc:
        print(f"That is not a dice secret: {exc}.", file=sys.stderr)
        return 2
    expected_commitment = args.commitment
    if args.rolls is not None:
        try:
            recorded: Sequence[int] = parse_rolls(args.rolls)
        except ValueError as exc:
            print(f"{prog}: {exc}", file=sys.stderr)
            return 2
    else:
        found = lookup(args.public) if lookup is not None else None
        if found is None:
            if lookup is not None:
                print(f"No match with the public value {args.public} in this database.")
            if expected_commitment and commitment(secret) != expected_commitment.strip().lower():
                print(VerifyResult(Verdict.COMMITMENT_MISMATCH, commitment=commitment(secret)).text)
                return 1
            print(format_rolls(derive_dice(secret, args.public, 2 * max(args.count, 0))))
            return 0
        if found.description:
            print(f"Checking {found.description}.")
        recorded = found.dice
        expected_commitment = expected_commitment or found.commitment
    result = verify(secret, args.public, recorded, commitment_hex=expected_commitment)
    print(result.text)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
