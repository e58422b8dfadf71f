"""A play built one checker at a time: the legal next steps a tap picker offers.

A front end that lets a player tap a checker and then a destination (the Discord picker
today, a web board tomorrow) needs, at every moment, exactly the choices that can still end
in a legal play. This module answers that from the engine's own :func:`legal_plays`, never
from a second copy of the rules: a partial play is valid exactly when some sequence of
single-die moves continues it to one of the engine's legal results using as many dice as
the engine's plays use. So the compulsory-dice rules (both dice when possible, the larger
die when only one can be played, as much of a double as possible) hold at every step, and
every legal play can be built (its own moves are such a sequence).

The unit a player taps is a *group*: one checker moved by one die, or by several in a row
(``24/13`` with 6-5, ``8/4`` with four 1s), or a whole play picked from a list at once
(:meth:`PartialPlay.whole`). Undo takes back the last group, so a choice is always taken
back whole. Groups travel between taps as a short text (:func:`encode_steps`), so the
partial play can live in a button's id and nowhere else.

Pure and stdlib only: may import the rest of :mod:`bot.engine`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.engine.moves import Dice, LegalPlays, Move, Play, legal_plays, step, undo
from bot.engine.position import BAR, OFF, Position


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved from ``source`` (25 the bar) by one ``die``."""

    source: int
    die: int


Group = tuple[Step, ...]  # one tap: a checker moved by one or more dice, or a whole play


@dataclass(frozen=True, slots=True)
class Source:
    """A point a checker can legally move from next, and how many checkers are on it."""

    point: int
    checkers: int


@dataclass(frozen=True, slots=True)
class Destination:
    """Where one checker can go from a source, with the dice it uses, in order."""

    target: int  # 0: borne off
    group: Group
    moves: tuple[Move, ...]

    @property
    def dice(self) -> tuple[int, ...]:
        return tuple(s.die for s in self.group)

    @property
    def hits(self) -> tuple[int, ...]:
        """The points where this checker hits a blot on its way (usually none or one)."""
        return tuple(m.target for m in self.moves if m.hit)


class StepError(ValueError):
    """Steps that are no prefix of any legal play (a forged or stale id, a bug)."""


class PartialPlay:
    """A play in the making: the position, the roll, the groups taken so far.

    >>> from bot.engine import Position
    >>> start = PartialPlay(Position.start(), (6, 5))
    >>> [s.point for s in start.sources()]
    [24, 13, 8]
    >>> [str(d.target) + ':' + '+'.join(map(str, d.dice)) for d in start.destinations(24)]
    ['18:6', '13:6+5']
    >>> done = start.then(start.destinations(24)[1].group)
    >>> done.complete, str(done.play())
    (True, '24/13')
    """

    def __init__(
        self,
        position: Position,
        dice: Dice,
        groups: tuple[Group, ...] = (),
        *,
        oracle: _Oracle | None = None,
    ) -> None:
        self.position = position
        self._oracle = oracle if oracle is not None else _Oracle(legal_plays(position, dice))
        self.plays = self._oracle.plays
        self.dice = self.plays.dice
        self.groups = groups
        d1, d2 = self.dice
        self.all_dice = self._oracle.all_dice
        board = list(position.board)
        remaining = list(self.all_dice)
        moves: list[Move] = []
        for group in groups:
            if not group:
                raise StepError("an empty group of steps")
            for s in group:
                move = step(board, s.source, s.die) if s.die in remaining else None
                if move is None:
                    raise StepError(f"{s.source} by {s.die} cannot be moved after {moves}")
                remaining.remove(s.die)
                moves.append(move)
        self._board = board
        self.remaining: tuple[int, ...] = tuple(remaining)
        self.moves: tuple[Move, ...] = tuple(moves)
        if len(moves) > self.plays.max_dice or not self._oracle.completable(board, self.remaining):
            raise StepError(f"{Play(self.moves)} leads to no legal play with {d1}-{d2}")

    # --- where the play stands -----------------------------------------------------------

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(s for group in self.groups for s in group)

    @property
    def board(self) -> Position:
        """The position after the steps so far, still seen by the player moving."""
        return Position(tuple(self._board))

    @property
    def complete(self) -> bool:
        """Whether the play is whole: as many dice used as the rules require."""
        return len(self.moves) == self.plays.max_dice

    def play(self) -> Play:
        """The whole play, in the engine's own notation (only when :attr:`complete`)."""
        if not self.complete:
            raise StepError("the play is not complete yet")
        canonical = self.plays.play_for(self.board)
        assert canonical is not None  # a complete valid prefix reaches a legal result
        return canonical

    # --- moving on -----------------------------------------------------------------------

    def then(self, group: Group) -> PartialPlay:
        """This play with one more group (raises :class:`StepError` when it is not legal)."""
        return PartialPlay(self.position, self.dice, (*self.groups, group), oracle=self._oracle)

    def undo(self) -> PartialPlay:
        """This play without its last group."""
        return PartialPlay(self.position, self.dice, self.groups[:-1], oracle=self._oracle)

    def reset(self) -> PartialPlay:
        return PartialPlay(self.position, self.dice, oracle=self._oracle)

    def whole(self, play: Play) -> Group:
        """A legal ``play`` as one group from the start of the turn: every move of it in one
        tap, so one Undo takes the whole play back (a group may move several checkers)."""
        steps = _dice_for(list(self.position.board), list(play.moves), list(self.all_dice))
        if steps is None or not steps:
            raise StepError(f"{play} is not a play of {self.dice[0]}-{self.dice[1]}")
        return tuple(steps)

    def with_play(self, play: Play) -> PartialPlay:
        """The whole of a legal ``play`` taken at once, one group a move."""
        if not play.moves:
            return self.reset()
        groups = tuple((s,) for s in self.whole(play))
        return PartialPlay(self.position, self.dice, groups, oracle=self._oracle)

    # --- the choices ---------------------------------------------------------------------

    def sources(self) -> list[Source]:
        """The points a checker can legally move from next: the bar first, then from the
        24-point down."""
        board = self._board
        found = []
        for source in range(BAR, 0, -1):
            if board[source] <= 0:
                continue
            for die in sorted(set(self.remaining), reverse=True):
                if self._can_step(source, die):
                    found.append(Source(source, board[source]))
                    break
        return found

    def destinations(self, source: int) -> list[Destination]:
        """Where the checker on ``source`` can go next, nearest first: one die, or several
        in a row (each intermediate landing legal), one entry per distinct result."""
        board = self._board
        found: dict[tuple[int, ...], Destination] = {}

        def walk(point: int, remaining: tuple[int, ...], group: Group, moves: list[Move]) -> None:
            for die in sorted(set(remaining), reverse=True):  # the larger die names a tie
                move = step(board, point, die)
                if move is None:
                    continue
                left = _without(remaining, die)
                made = [*moves, move]
                here = (*group, Step(point, die))
                if self._oracle.completable(board, left):
                    found.setdefault(tuple(board), Destination(move.target, here, tuple(made)))
                    if move.target != OFF and left:
                        walk(move.target, left, here, made)
                undo(board, move)

        walk(source, self.remaining, (), [])
        return sorted(found.values(), key=lambda d: (-d.target, len(d.group), d.dice))

    def _can_step(self, source: int, die: int) -> bool:
        board = self._board
        move = step(board, source, die)
        if move is None:
            return False
        try:
            return self._oracle.completable(board, _without(self.remaining, die))
        finally:
            undo(board, move)


class _Oracle:
    """What one position and roll allow, shared by every partial play of that turn: the
    engine's legal results and, remembered, which partial boards still reach one."""

    def __init__(self, plays: LegalPlays) -> None:
        self.plays = plays
        self.dice = plays.dice
        d1, d2 = plays.dice
        self.all_dice: tuple[int, ...] = (d1,) * 4 if d1 == d2 else (d1, d2)
        self.finals = plays.result_boards()
        self._memo: dict[tuple[tuple[int, ...], tuple[int, ...], int], bool] = {}

    def completable(self, board: list[int], remaining: tuple[int, ...], top: int = BAR) -> bool:
        """Whether ``board`` continues, by single-die steps, to one of the legal results.

        With a double the sources are tried in non-increasing order, as the generator does:
        any set of moves legal in some order is legal in that one.
        """
        needed = self.plays.max_dice - (len(self.all_dice) - len(remaining))
        if needed < 0:
            return False
        if needed == 0:
            return tuple(board) in self.finals
        key = (tuple(board), remaining, top)
        known = self._memo.get(key)
        if known is not None:
            return known
        doublet = self.dice[0] == self.dice[1]
        result = False
        for die in sorted(set(remaining)):
            sources = (BAR,) if board[BAR] else range(top, 0, -1)
            for source in sources:
                move = step(board, source, die)
                if move is None:
                    continue
                ok = self.completable(board, _without(remaining, die), source if doublet else BAR)
                undo(board, move)
                if ok:
                    result = True
                    break
            if result:
                break
        self._memo[key] = result
        return result


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    left = list(dice)
    left.remove(die)
    return tuple(left)


def _dice_for(board: list[int], moves: list[Move], dice: list[int]) -> list[Step] | None:
    """The die each move of a play uses, in order (bearing off may use a larger die)."""
    if not moves:
        return []
    wanted = moves[0]
    for die in sorted(set(dice)):
        made = step(board, wanted.source, die)
        if made is None:
            continue
        rest = None
        if made.target == wanted.target:
            left = list(dice)
            left.remove(die)
            rest = _dice_for(board, moves[1:], left)
        undo(board, made)
        if rest is not None:
            return [Step(wanted.source, die), *rest]
    return None


# --- the compact text of the groups (a button's id carries it) ------------------------------

_GROUPS = re.compile(r"(?:[b-z][1-6])+(?:\.(?:[b-z][1-6])+)*")


def encode_steps(groups: tuple[Group, ...]) -> str:
    """Groups as text: a letter for the source (``b`` = 1 ... ``z`` = 25, the bar) and the
    die, groups joined by dots. At most 11 characters for a whole turn.

    >>> encode_steps(((Step(24, 6), Step(18, 5)), (Step(8, 3),)))
    'y6s5.i3'
    """
    return ".".join("".join(f"{chr(ord('a') + s.source)}{s.die}" for s in g) for g in groups)


def decode_steps(text: str) -> tuple[Group, ...]:
    """The groups of :func:`encode_steps`; :class:`StepError` for anything else.

    >>> decode_steps('y6s5.i3') == ((Step(24, 6), Step(18, 5)), (Step(8, 3),))
    True
    """
    if not text:
        return ()
    if len(text) > 16 or not _GROUPS.fullmatch(text):
        raise StepError(f"{text!r} is not a list of steps")
    return tuple(
        tuple(Step(ord(g[i]) - ord("a"), int(g[i + 1])) for i in range(0, len(g), 2))
        for g in text.split(".")
    )
