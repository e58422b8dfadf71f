"""Moves, plays and the generator of every legal play for a roll.

A :class:`Move` is one checker stepping one die; a :class:`Play` is a whole turn. The
generator follows GNU Backgammon: use as many dice as possible, the larger die when only one
of two can be played, and count plays that reach the same position once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from bot.engine.errors import IllegalPlayError
from bot.engine.position import BAR, OFF, Position

Dice = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moving by one die: ``source`` 25 is the bar, ``target`` 0 is off."""

    source: int
    target: int
    hit: bool = False

    def __str__(self) -> str:
        src = "bar" if self.source == BAR else str(self.source)
        dst = "off" if self.target == OFF else str(self.target)
        return f"{src}/{dst}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True)
class Play:
    """A complete turn: the single-die moves in the order they are made (possibly none)."""

    moves: tuple[Move, ...]

    def __str__(self) -> str:
        from bot.engine.notation import format_moves

        return format_moves(self.moves)

    def __bool__(self) -> bool:
        return bool(self.moves)

    def dice_used(self) -> int:
        return len(self.moves)


def check_dice(dice: tuple[int, int] | list[int]) -> Dice:
    """Validate a pair of dice and return it as a tuple."""
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice must be two numbers from 1 to 6, not {dice!r}")
    return int(dice[0]), int(dice[1])


def step(board: list[int], source: int, die: int) -> Move | None:
    """Move one checker ``die`` pips from ``source`` on a mutable board, if the rules allow.

    Returns the move made, or None (leaving the board untouched) when it is not legal: the
    bar must be emptied first, the target must be open, and bearing off needs every checker
    home and either the exact number or no checker on a higher point.
    """
    if board[source] <= 0:
        return None
    if board[BAR] and source != BAR:
        return None
    target = source - die
    if target >= 1:
        occupant = board[target]
        if occupant < -1:
            return None
        board[source] -= 1
        if occupant == -1:
            board[target] = 1
            board[0] += 1
            return Move(source, target, True)
        board[target] = occupant + 1
        return Move(source, target, False)
    # Bearing off.
    for point in range(24, 6, -1):
        if board[point] > 0:
            return None
    if target < 0:
        for point in range(source + 1, 7):
            if board[point] > 0:
                return None
    board[source] -= 1
    return Move(source, OFF, False)


def undo(board: list[int], move: Move) -> None:
    """Take back a move made by :func:`step` on the same mutable board."""
    board[move.source] += 1
    if move.target == OFF:
        return
    if move.hit:
        board[move.target] = -1
        board[0] -= 1
    else:
        board[move.target] -= 1


class LegalPlays:
    """Every distinct legal play for one position and roll.

    Iterating gives :class:`Play` objects (one per resulting position); ``in`` accepts a
    :class:`Play` or a resulting :class:`Position`.

    >>> from bot.engine import Position
    >>> len(legal_plays(Position.start(), (3, 1)))
    16
    """

    def __init__(self, position: Position, dice: Dice) -> None:
        self.position = position
        self.dice = check_dice(dice)
        self._by_result, self.max_dice = _generate(position, self.dice)

    def __iter__(self) -> Iterator[Play]:
        return iter(self._by_result.values())

    def __len__(self) -> int:
        return len(self._by_result)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Position):
            return item.board in self._by_result
        if isinstance(item, Play):
            try:
                return self.position.apply(item).board in self._by_result
            except IllegalPlayError:
                return False
        return False

    def results(self) -> list[Position]:
        """The positions the legal plays reach, still seen by the player who moved."""
        return [Position(board) for board in self._by_result]

    def play_for(self, result: Position) -> Play | None:
        """The play that reaches ``result``, or None when no legal play does."""
        return self._by_result.get(result.board)

    def items(self) -> Iterator[tuple[Position, Play]]:
        for board, play in self._by_result.items():
            yield Position(board), play

    @cached_property
    def is_forced_pass(self) -> bool:
        """Whether no checker can move at all (the turn is forfeited)."""
        return self.max_dice == 0

    def __repr__(self) -> str:
        return f"<LegalPlays {self.position!r} {self.dice[0]}-{self.dice[1]}: {len(self)}>"


def legal_plays(position: Position, dice: Dice) -> LegalPlays:
    """Every distinct legal play for ``position`` with ``dice``, as a :class:`LegalPlays`."""
    return LegalPlays(position, dice)


def _generate(position: Position, dice: Dice) -> tuple[dict[tuple[int, ...], Play], int]:
    """Depth-first search over single-die moves on one mutable board.

    With a doublet the sources are taken in non-increasing order: any set of moves that is
    legal in some order is legal in that order, and it avoids visiting every permutation.
    """
    board = list(position.board)
    d1, d2 = dice
    found: dict[tuple[int, ...], tuple[Move, ...]] = {}
    best = 0

    def search(remaining: tuple[int, ...], moves: tuple[Move, ...], top: int) -> None:
        die = remaining[0]
        rest = remaining[1:]
        moved = False
        sources = (BAR,) if board[BAR] else range(top, 0, -1)
        for source in sources:
            if board[source] <= 0:
                continue
            move = step(board, source, die)
            if move is None:
                continue
            moved = True
            played = (*moves, move)
            if rest:
                search(rest, played, source if doublet else 25)
            else:
                record(played)
            undo(board, move)
        if not moved:
            record(moves)

    def record(moves: tuple[Move, ...]) -> None:
        nonlocal best
        count = len(moves)
        if count < best:
            return
        if count > best:
            best = count
            found.clear()
        found.setdefault(tuple(board), moves)

    doublet = d1 == d2
    if doublet:
        search((d1,) * 4, (), 25)
    else:
        high, low = max(d1, d2), min(d1, d2)
        search((high, low), (), 25)
        search((low, high), (), 25)
    if best == 1 and not doublet:
        found = _keep_larger_die(position, dice, found)
    plays = {key: Play(moves) for key, moves in found.items()}
    return plays, best


def _keep_larger_die(
    position: Position, dice: Dice, found: dict[tuple[int, ...], tuple[Move, ...]]
) -> dict[tuple[int, ...], tuple[Move, ...]]:
    """When only one die can be played, the larger one must be played if it can be."""
    high = max(dice)
    with_high: dict[tuple[int, ...], tuple[Move, ...]] = {}
    for source in range(25, 0, -1):
        board = list(position.board)
        move = step(board, source, high)
        if move is not None:
            with_high.setdefault(tuple(board), (move,))
    return with_high or found
