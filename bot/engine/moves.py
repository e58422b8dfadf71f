"""Moves, plays and the generator of every legal play for a roll.

A :class:`Move` is one checker stepping one die; a :class:`Play` is a whole turn. The
generator follows GNU Backgammon: use as many dice as possible, the larger die when only one
of two can be played, and count plays that reach the same position once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

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


# A move inside the generator: (source, target, hit). Move objects are built only for the
# plays someone asks for, since a doublet can have over a thousand distinct plays.
_RawMove = tuple[int, int, bool]
_Board = tuple[int, ...]


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
        self._raw, self.max_dice = _generate(position, self.dice)

    def __iter__(self) -> Iterator[Play]:
        return iter(self._by_result.values())

    def __len__(self) -> int:
        return len(self._raw)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Position):
            return item.board in self._raw
        if isinstance(item, Play):
            result = self._result_of(item)
            return result is not None and result in self._raw
        return False

    def _result_of(self, play: Play) -> _Board | None:
        """The board ``play`` reaches when each of its moves uses one of the roll's dice.

        None when some move is not a single die of this roll (``13/9`` is not a move with
        3-1, though ``13/10 10/9`` is) or cannot be made.
        """
        d1, d2 = self.dice
        board = list(self.position.board)

        def walk(index: int, remaining: tuple[int, ...]) -> _Board | None:
            if index == len(play.moves):
                return tuple(board)
            wanted = play.moves[index]
            for die in set(remaining):
                made = step(board, wanted.source, die)
                if made is None:
                    continue
                result = None
                if made.target == wanted.target:
                    left = list(remaining)
                    left.remove(die)
                    result = walk(index + 1, tuple(left))
                undo(board, made)
                if result is not None:
                    return result
            return None

        return walk(0, (d1,) * 4 if d1 == d2 else (d1, d2))

    @cached_property
    def _by_result(self) -> dict[_Board, Play]:
        return {board: _to_play(raw) for board, raw in self._raw.items()}

    def results(self) -> list[Position]:
        """The positions the legal plays reach, still seen by the player who moved."""
        return [Position(board) for board in self._raw]

    def result_boards(self) -> frozenset[tuple[int, ...]]:
        """The boards the legal plays reach, as raw tuples: :meth:`results` without building
        a checked :class:`Position` for each (a 1-1 can reach over a thousand)."""
        return frozenset(self._raw)

    def play_for(self, result: Position) -> Play | None:
        """The play that reaches ``result``, or None when no legal play does."""
        return self._play_for_board(result.board)

    def _play_for_board(self, board: _Board) -> Play | None:
        raw = self._raw.get(board)
        return None if raw is None else _to_play(raw)

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


def _to_play(raw: tuple[_RawMove, ...]) -> Play:
    return Play(tuple(Move(source, target, hit) for source, target, hit in raw))


def _generate(position: Position, dice: Dice) -> tuple[dict[_Board, tuple[_RawMove, ...]], int]:
    """Depth-first search over single-die moves on one mutable board.

    Returns the moves reaching each distinct result and how many dice the plays use.

    With a doublet the sources are taken in non-increasing order: any set of moves that is
    legal in some order is legal in that order, and it avoids visiting every permutation.
    This loop is the engine's hot spot (a 1-1 can have 1,500 distinct plays), so it inlines
    :func:`step` and keeps count of the checkers outside the home board instead of
    rescanning the board before each bear-off.
    """
    board = list(position.board)
    d1, d2 = dice
    doublet = d1 == d2
    found: dict[_Board, tuple[_RawMove, ...]] = {}
    path: list[_RawMove] = []
    best = 0

    def record() -> None:
        nonlocal best
        count = len(path)
        if count < best:
            return
        if count > best:
            best = count
            found.clear()
        key = tuple(board)
        if key not in found:
            found[key] = tuple(path)

    def search(remaining: tuple[int, ...], top: int, outside: int) -> None:
        # outside: checkers on the bar or on points 7-24; bearing off needs none.
        die = remaining[0]
        rest = remaining[1:]
        moved = False
        sources = (BAR,) if board[BAR] else range(top, 0, -1)
        for source in sources:
            if board[source] <= 0:
                continue
            target = source - die
            if target >= 1:
                occupant = board[target]
                if occupant < -1:
                    continue
                hit = occupant == -1
                board[source] -= 1
                if hit:
                    board[target] = 1
                    board[0] += 1
                else:
                    board[target] = occupant + 1
                left_outside = outside - 1 if source > 6 >= target else outside
            else:
                if outside:
                    continue
                if target < 0 and any(board[p] > 0 for p in range(source + 1, 7)):
                    continue
                target = OFF
                hit = False
                board[source] -= 1
                left_outside = 0
            moved = True
            path.append((source, target, hit))
            if rest:
                search(rest, source if doublet else BAR, left_outside)
            else:
                record()
            path.pop()
            board[source] += 1
            if hit:
                board[target] = -1
                board[0] -= 1
            elif target != OFF:
                board[target] -= 1
        if not moved:
            record()

    outside = board[BAR] + sum(n for n in board[7:BAR] if n > 0)
    if doublet:
        search((d1,) * 4, BAR, outside)
    else:
        high, low = max(d1, d2), min(d1, d2)
        search((high, low), BAR, outside)
        search((low, high), BAR, outside)
    if best == 1 and not doublet:
        found = _keep_larger_die(position, dice, found)
    return found, best


def _keep_larger_die(
    position: Position, dice: Dice, found: dict[_Board, tuple[_RawMove, ...]]
) -> dict[_Board, tuple[_RawMove, ...]]:
    """When only one die can be played, the larger one must be played if it can be."""
    high = max(dice)
    with_high: dict[_Board, tuple[_RawMove, ...]] = {}
    for source in range(BAR, 0, -1):
        board = list(position.board)
        move = step(board, source, high)
        if move is not None:
            with_high.setdefault(tuple(board), ((move.source, move.target, move.hit),))
    return with_high or found
