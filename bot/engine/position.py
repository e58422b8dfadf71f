"""The checkers on the board, seen from the player on roll.

A :class:`Position` is an immutable value. Its layout is the 26-integer board list that the
conformance data and the bgsage engine use, so interop with them costs nothing:

* ``board[25]``: the player on roll's checkers on the bar (their 25-point);
* ``board[1..24]``: points from the player on roll's side; positive numbers are their
  checkers, negative numbers the opponent's;
* ``board[0]``: the opponent's checkers on the bar.

Borne-off checkers are implied: 15 minus what is on the board and the bar.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.engine.errors import EngineErrorCode as Code
from bot.engine.errors import InvalidIdError, InvalidPositionError

if TYPE_CHECKING:
    from bot.engine.moves import LegalPlays, Play

CHECKERS = 15
BAR = 25
OFF = 0

_START = (0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0)


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable backgammon position from the point of view of the player on roll.

    >>> Position.start()
    Position('4HPwATDgc/ABMA')
    >>> Position.start().pips()
    (167, 167)
    """

    board: tuple[int, ...]

    def __post_init__(self) -> None:
        board = self.board
        if len(board) != 26:
            raise InvalidPositionError(
                f"a board has 26 entries, not {len(board)}", Code.BOARD_SIZE, size=len(board)
            )
        if board[0] < 0 or board[25] < 0:
            raise InvalidPositionError("the bar counts must not be negative", Code.NEGATIVE_BAR)
        mine = board[25] + sum(n for n in board[1:25] if n > 0)
        theirs = board[0] - sum(n for n in board[1:25] if n < 0)
        if mine > CHECKERS or theirs > CHECKERS:
            raise InvalidPositionError(
                f"a side has at most 15 checkers (found {mine} and {theirs})",
                Code.TOO_MANY_CHECKERS,
                mine=mine,
                theirs=theirs,
            )

    # --- construction -------------------------------------------------------------------

    @classmethod
    def start(cls) -> Position:
        """The standard opening position."""
        return cls(_START)

    @classmethod
    def from_board(cls, board: Sequence[int]) -> Position:
        """Build a position from the 26-integer board list (the bgsage layout)."""
        return cls(tuple(int(n) for n in board))

    def to_board(self) -> list[int]:
        """The 26-integer board list (the bgsage layout), as a new list."""
        return list(self.board)

    @classmethod
    def from_id(cls, position_id: str) -> Position:
        """Decode a GNU Backgammon Position ID; :class:`InvalidIdError` if it is not one.

        >>> Position.from_id('4HPwATDgc/ABMA') == Position.start()
        True
        """
        text = position_id.strip()
        if len(text) != 14:
            raise InvalidIdError(
                f"{position_id!r} is not a 14-character Position ID",
                Code.POSITION_ID_LENGTH,
                text=position_id,
            )
        try:
            raw = base64.b64decode(text + "==", validate=True)
        except ValueError as exc:
            raise InvalidIdError(
                f"{position_id!r} is not a valid Position ID",
                Code.POSITION_ID_INVALID,
                text=position_id,
            ) from exc
        bits = int.from_bytes(raw, "little")
        sides: list[list[int]] = [[0] * 25, [0] * 25]  # [opponent, player on roll]
        side = index = 0
        for bit_no in range(80):
            if side == 2:
                break
            if bits >> bit_no & 1:
                sides[side][index] += 1
            else:
                index += 1
                if index == 25:
                    side, index = side + 1, 0
        theirs, mine = sides
        board = [0] * 26
        for point in range(1, 25):
            board[point] = mine[point - 1] - theirs[24 - point]
            if mine[point - 1] and theirs[24 - point]:
                raise InvalidIdError(
                    f"{position_id!r} puts both sides on one point",
                    Code.POSITION_ID_SHARED_POINT,
                    text=position_id,
                )
        board[25] = mine[24]
        board[0] = theirs[24]
        try:
            return cls(tuple(board))
        except InvalidPositionError as exc:  # more than 15 checkers: still the text's fault
            raise InvalidIdError(f"{position_id!r}: {exc}", exc.code, **exc.params) from None

    # --- views ---------------------------------------------------------------------------

    def flip(self) -> Position:
        """The same position seen by the other player."""
        b = self.board
        return Position((b[25], *(-b[25 - i] for i in range(1, 25)), b[0]))

    @property
    def bar(self) -> int:
        """Checkers the player on roll has on the bar."""
        return self.board[25]

    @property
    def opponent_bar(self) -> int:
        """Checkers the opponent has on the bar."""
        return self.board[0]

    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off by (the player on roll, the opponent)."""
        b = self.board
        mine = b[25] + sum(n for n in b[1:25] if n > 0)
        theirs = b[0] - sum(n for n in b[1:25] if n < 0)
        return CHECKERS - mine, CHECKERS - theirs

    def pips(self) -> tuple[int, int]:
        """Pip counts of (the player on roll, the opponent)."""
        b = self.board
        mine = 25 * b[25] + sum(i * b[i] for i in range(1, 25) if b[i] > 0)
        theirs = 25 * b[0] + sum((25 - i) * -b[i] for i in range(1, 25) if b[i] < 0)
        return mine, theirs

    def all_home(self) -> bool:
        """Whether the player on roll has every remaining checker in their home board."""
        b = self.board
        return b[25] == 0 and all(b[i] <= 0 for i in range(7, 25))

    def is_over(self) -> bool:
        """Whether either side has borne off all fifteen checkers."""
        return CHECKERS in self.borne_off()

    def position_id(self) -> str:
        """GNU Backgammon's 14-character Position ID.

        The bits come from the player not on roll first, then the player on roll; for each,
        points 1-24 from their own side and then their bar, each as that many 1-bits and a
        0-bit, packed least significant bit first.
        """
        b = self.board
        counts = [-b[25 - p] if b[25 - p] < 0 else 0 for p in range(1, 25)]
        counts.append(b[0])
        counts.extend(b[p] if b[p] > 0 else 0 for p in range(1, 25))
        counts.append(b[25])
        bits = 0
        shift = 0
        for count in counts:
            bits |= ((1 << count) - 1) << shift
            shift += count + 1
        return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii").rstrip("=")

    def __repr__(self) -> str:
        return f"Position({self.position_id()!r})"

    # --- plays (python-chess style: notation that needs the position lives here) ----------

    def legal_plays(self, dice: tuple[int, int]) -> LegalPlays:
        """Every distinct legal play with ``dice``; see :func:`bot.engine.legal_plays`."""
        from bot.engine.moves import legal_plays

        return legal_plays(self, dice)

    def apply(self, play: Play) -> Position:
        """The position after ``play``, still seen by the player who moved.

        Each move is checked against the board as it stands (open target, bar first, bear-off
        rules); whether the play as a whole fits a roll is :meth:`legal_plays`' business.
        """
        from bot.engine.errors import EngineErrorCode, IllegalPlayError
        from bot.engine.moves import step

        board = list(self.board)
        for move in play.moves:
            distance = move.source - move.target
            if step(board, move.source, distance) is None:
                raise IllegalPlayError(
                    f"{move} is not possible in this position",
                    EngineErrorCode.IMPOSSIBLE_MOVE,
                    move=str(move),
                )
        return Position(tuple(board))

    def parse_play(self, dice: tuple[int, int], text: str) -> Play:
        """The legal play that typed notation describes with ``dice``."""
        from bot.engine.notation import parse_play

        return parse_play(self, dice, text)

    def ascii(self) -> str:
        """A small text diagram, the player on roll's checkers as X, for terminals and logs."""
        b = self.board

        def cell(point: int, row: int) -> str:
            n = b[point]
            if n == 0 or abs(n) <= row:
                return " . " if row == 0 else "   "
            mark = "X" if n > 0 else "O"
            if row == 4 and abs(n) > 5:
                return f"{abs(n):^3}"
            return f" {mark} "

        top = list(range(13, 25))
        bottom = list(range(12, 0, -1))
        lines = [
            " " + "".join(f"{p:^3}" for p in top[:6]) + " | " + "".join(f"{p:^3}" for p in top[6:])
        ]
        for row in range(5):
            lines.append(
                " "
                + "".join(cell(p, row) for p in top[:6])
                + " | "
                + "".join(cell(p, row) for p in top[6:])
            )
        lines.append(
            f"   bar: X {b[25]}  O {b[0]}        off: X {self.borne_off()[0]}"
            f"  O {self.borne_off()[1]}"
        )
        for row in reversed(range(5)):
            lines.append(
                " "
                + "".join(cell(p, row) for p in bottom[:6])
                + " | "
                + "".join(cell(p, row) for p in bottom[6:])
            )
        lines.append(
            " "
            + "".join(f"{p:^3}" for p in bottom[:6])
            + " | "
            + "".join(f"{p:^3}" for p in bottom[6:])
        )
        return "\n".join(lines)
