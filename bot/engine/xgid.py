"""eXtreme Gammon's XGID, read and written field by field in XG's own terms.

An XGID is ten fields separated by colons, usually after ``XGID=``::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10

1. the board, 26 characters: the top player's bar, points 1 to 24 counted from the bottom
   player's side, the bottom player's bar. ``-`` is empty, ``A``-``P`` 1 to 16 of the bottom
   player's checkers, ``a``-``p`` 1 to 16 of the top player's;
2. the cube as a power of two (``0`` is a 1-cube, ``1`` a 2-cube...);
3. the cube's position: ``1`` the bottom player owns it, ``-1`` the top player, ``0`` centred;
4. the turn: ``1`` the bottom player, ``-1`` the top player;
5. the dice: two digits (``52``), ``00`` before the roll, ``D`` when the player whose turn it
   is has doubled, ``B`` when the opponent beavered that double, ``R`` when it was then
   raccooned;
6. and 7. the bottom player's and the top player's score;
8. the rules: in a match, ``1`` in the Crawford game; in a money game, 1 for the Jacoby rule
   plus 2 for beavers;
9. the match length, ``0`` for a money game;
10. the highest cube as a power of two, XG's setting (usually ``10``; ``8`` is seen too);
    ``0`` means no cube at all.

This module only converts between that text and :class:`XgidFields`: whether the fields make
a state a game can be in is :class:`~bot.engine.record.PositionRecord`'s business. The board
becomes a :class:`~bot.engine.position.Position` seen by the bottom player, which is exactly
the XGID's own layout (index 0 the top player's bar, 25 the bottom player's).

Where GNU Backgammon and XG differ: GNU Backgammon 1.07 reads XGIDs (``set xgid``) but never
writes them; it reads only ``00``, two digits and ``D`` as the dice (it refuses ``B`` and
``R``), reads numbers leniently (C's ``atoi``), and takes a capital letter on the top
player's bar or a small one on the bottom player's bar without complaint (writing outside its
board). This module follows XG's format for writing and is strict when reading: every field a
number XG could have written, every letter on a side that can hold it.

Imports nothing but the engine's position and errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.errors import EngineErrorCode as Code
from bot.engine.errors import InvalidIdError, InvalidPositionError
from bot.engine.position import Position

PREFIX = "XGID="
FIELDS = 10
# XG's usual highest cube setting, 2**10, written when nothing asks for more.
DEFAULT_MAX_CUBE_LOG2 = 10

_INTEGER = re.compile(r"-?[0-9]{1,3}")  # ASCII digits only: int() would take "٣" or "1_0"
_DICE = re.compile(r"[1-6][1-6]")
_BOTTOM = "ABCDEFGHIJKLMNOP"  # 1-16 checkers
_TOP = _BOTTOM.lower()
_BOTTOM_CELLS = "-" + _BOTTOM  # indexed by the count
_TOP_CELLS = "-" + _TOP


class XgOffer(StrEnum):
    """A cube action waiting for an answer, as field 5 writes it instead of the dice."""

    DOUBLE = "D"  # the player whose turn it is doubled; the opponent takes or drops
    BEAVER = "B"  # ... the opponent beavered; the doubler takes or drops the beaver
    RACCOON = "R"  # ... the doubler raccooned


@dataclass(frozen=True, slots=True)
class XgidFields:
    """What an XGID says, in XG's terms: a bottom player (capitals) and a top player.

    >>> fields = XgidFields.decode('XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10')
    >>> fields.board == Position.start(), fields.turn, fields.dice, fields.match_length
    (True, 1, (5, 2), 5)
    >>> fields.encode()
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10'
    """

    board: Position  # seen by the bottom player: positive counts are the bottom player's
    cube_log2: int = 0
    cube_position: int = 0  # 1 bottom, -1 top, 0 centred
    turn: int = 1  # 1 bottom, -1 top
    dice: tuple[int, int] | None = None  # as written: (5, 2) for "52"
    offer: XgOffer | None = None
    score_bottom: int = 0
    score_top: int = 0
    rules: int = 0  # match: 1 = Crawford game; money: 1 Jacoby + 2 beavers
    match_length: int = 0
    max_cube_log2: int = DEFAULT_MAX_CUBE_LOG2

    def encode(self) -> str:
        """The XGID text, with its ``XGID=`` prefix."""
        b = self.board.board
        # Position keeps both bars as positive counts; on the points the sign is the side.
        cells = [_TOP_CELLS[b[0]]]
        cells.extend(_BOTTOM_CELLS[n] if n >= 0 else _TOP_CELLS[-n] for n in b[1:25])
        cells.append(_BOTTOM_CELLS[b[25]])
        if self.offer is not None:
            dice = str(self.offer)
        elif self.dice is None:
            dice = "00"
        else:
            dice = f"{self.dice[0]}{self.dice[1]}"
        numbers = (
            self.cube_log2,
            self.cube_position,
            self.turn,
            dice,
            self.score_bottom,
            self.score_top,
            self.rules,
            self.match_length,
            self.max_cube_log2,
        )
        return PREFIX + ":".join(["".join(cells), *(str(n) for n in numbers)])

    @classmethod
    def decode(cls, text: str) -> XgidFields:
        """Read an XGID, with or without ``XGID=``; :class:`InvalidIdError` if it is not one.

        Checks the form of each field and the 15 checkers a side; not whether the fields
        agree with one another.
        """
        body = text.strip()
        if body[: len(PREFIX)].upper() == PREFIX:
            body = body[len(PREFIX) :]
        fields = body.split(":")
        if len(fields) != FIELDS:
            raise InvalidIdError(
                f"an XGID has {FIELDS} fields separated by colons, not {len(fields)}: {text!r}",
                Code.XGID_FIELD_COUNT,
                count=len(fields),
            )
        board = _board(fields[0])
        cube_log2 = _number(fields, 2, 0, 15)
        cube_position = _number(fields, 3, -1, 1)
        turn = _number(fields, 4, -1, 1)
        if turn == 0:
            raise InvalidIdError(
                "the turn (field 4) of an XGID is 1 (bottom) or -1 (top), not 0",
                Code.XGID_FIELD,
                number=4,
                value=fields[3],
            )
        dice: tuple[int, int] | None = None
        offer: XgOffer | None = None
        written = fields[4]
        if written in {o.value for o in XgOffer}:
            offer = XgOffer(written)
        elif _DICE.fullmatch(written):
            dice = int(written[0]), int(written[1])
        elif written != "00":
            raise InvalidIdError(
                f"{written!r} is not a roll: an XGID's field 5 is two dice 1-6, 00, D, B or R",
                Code.DICE_INVALID,
                dice=written,
            )
        return cls(
            board=board,
            cube_log2=cube_log2,
            cube_position=cube_position,
            turn=turn,
            dice=dice,
            offer=offer,
            score_bottom=_number(fields, 6, 0, 999),
            score_top=_number(fields, 7, 0, 999),
            rules=_number(fields, 8, 0, 3),
            match_length=_number(fields, 9, 0, 999),
            max_cube_log2=_number(fields, 10, 0, 15),
        )


def _board(text: str) -> Position:
    """The board field as a Position seen by the bottom player."""
    if len(text) != 26:
        raise InvalidIdError(
            f"an XGID board has 26 characters, not {len(text)}: {text!r}",
            Code.XGID_BOARD,
            board=text,
        )
    board = [0] * 26
    for index, char in enumerate(text):
        if char == "-":
            continue
        if char in _BOTTOM and index != 0:
            board[index] = _BOTTOM.index(char) + 1
        elif char in _TOP and index != 25:
            # The top player's bar (index 0) is kept positive, as Position's bars are.
            count = _TOP.index(char) + 1
            board[index] = count if index == 0 else -count
        else:
            where = {0: "the top player's bar", 25: "the bottom player's bar"}
            raise InvalidIdError(
                f"{char!r} cannot stand on {where.get(index, f'point {index}')} "
                f"of an XGID board: {text!r}",
                Code.XGID_BOARD,
                board=text,
            )
    try:
        return Position(tuple(board))
    except InvalidPositionError as exc:  # more than 15 checkers a side
        raise InvalidIdError(f"{text!r}: {exc}", exc.code, **exc.params) from None


def _number(fields: list[str], number: int, low: int, high: int) -> int:
    """Field ``number`` (counted from 1, as XG does) as an integer from low to high."""
    text = fields[number - 1]
    if not _INTEGER.fullmatch(text) or not low <= int(text) <= high:
        raise InvalidIdError(
            f"field {number} of an XGID is a whole number from {low} to {high}, not {text!r}",
            Code.XGID_FIELD,
            number=number,
            value=text,
        )
    return int(text)
