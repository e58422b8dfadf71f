"""GNU Backgammon's "world class" checker play: the opponent of ``benchmarks/strength.py``.

GNU's own setting (``eval.c``: ``aecSettings`` and ``aiSettingsMoveFilter``; Debian's gnubg
1.07 prints it with ``show evaluation``) is 2 plies with the pruning nets, no noise, and the
"Normal" move filter of ``movefilters.inc`` (:data:`NORMAL_FILTERS`): every legal play at
0-ply, the best 8 within 0.16 of the best searched at 2-ply, 1-ply skipped.

:func:`gnu_search` is GNU's move search (``FindnSaveBestMoves`` in ``eval.c``) over any way
of scoring a play at a ply. It is plain Python on the standard library, so the tests run
this very code inside Debian's gnubg, whose own ``hint`` it must match
(``tests/test_gnubg_world_class.py``). :class:`GnuPlayer` plays GNU's search through the
``gnubg`` package from PyPI (``pip install -e ".[bench]"``; never a runtime dependency),
which the benchmark runs in its worker processes.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import TypeVar

from bot.engine import Game, Play, Position

try:
    import gnubg
except ImportError:  # the benchmark's dependency only: pip install -e ".[bench]"
    gnubg = None

Candidate = TypeVar("Candidate")

MoveFilter = tuple[int, int, float]
"""GNU's ``movefilter``: keep the best ``accept`` plays, and up to ``extra`` more within
``threshold`` of the best; ``accept`` -1 skips the ply."""

# movefilters.inc, MOVEFILTER_NORMAL: row n filters an n-ply search, one filter per lower ply.
NORMAL_FILTERS: dict[int, tuple[MoveFilter, ...]] = {
    1: ((0, 8, 0.16),),
    2: ((0, 8, 0.16), (-1, 0, 0.0)),
    3: ((0, 8, 0.16), (-1, 0, 0.0), (0, 2, 0.04)),
    4: ((0, 8, 0.16), (-1, 0, 0.0), (0, 2, 0.04), (-1, 0, 0.0)),
}
WORLD_CLASS_PLIES = 2

BAR, OFF = 25, 0  # gnubg's move points, 1-based from the mover's side


def float32(value: float) -> float:
    """``value`` as a C ``float`` holds it: GNU's scores and thresholds are floats."""
    return float(struct.unpack("f", struct.pack("f", value))[0])


def gnu_search(
    candidates: Sequence[Candidate],
    score: Callable[[Candidate, int], float],
    plies: int,
    filters: Sequence[MoveFilter],
) -> list[tuple[Candidate, float]]:
    """The plays GNU's search keeps to its last ply, best first, with their scores.

    ``score(candidate, ply)`` is the mover's equity after the play at ``ply`` (a C float);
    ``filters`` is the row of the search's depth. As ``FindnSaveBestMoves``: each ply a
    filter does not skip scores what is left and keeps the best ``accept`` and up to
    ``extra`` more within ``threshold`` of the best; one play left ends the search there.
    The best of the survivors at ``plies`` is GNU's choice (``FindBestMove``).
    """
    kept = list(candidates)
    scores: list[float] = []
    for ply in range(plies):
        accept, extra, threshold = filters[ply] if ply < len(filters) else (0, 0, 0.0)
        if accept < 0:
            continue
        ranked = sorted(((score(c, ply), c) for c in kept), key=lambda item: -item[0])
        floor = float32(ranked[0][0] - float32(threshold))
        count = min(accept, len(ranked))
        limit = min(len(ranked), count + extra)
        while count < limit and ranked[count][0] >= floor:
            count += 1
        kept = [candidate for _score, candidate in ranked[:count]]
        scores = [value for value, _candidate in ranked[:count]]
        if count == 1 and accept != 1:
            return [(kept[0], scores[0])]
    ranked = sorted(((score(c, plies), c) for c in kept), key=lambda item: -item[0])
    return [(candidate, value) for value, candidate in ranked]


class GnuPlayer:
    """GNU Backgammon choosing cubeless checker plays at ``plies`` (0: its raw network) with
    its world-class move filter: at 2 plies, GNU's "world class" exactly.

    The benchmark's games are cubeless, so GNU evaluates cubeless (its world class is
    cubeful, which in a game without a cube would value gammons as if a cube were live).
    The package's own default filters are wider than GNU's (at 2 plies: 12 within 0.24 at
    0-ply, then 6 within 0.12 at 1-ply), so :data:`NORMAL_FILTERS` are always passed.
    """

    def __init__(self, plies: int = WORLD_CLASS_PLIES, *, prune: bool = True) -> None:
        if gnubg is None:
            raise RuntimeError('the gnubg package is not installed: pip install -e ".[bench]"')
        self.plies = plies
        self.prune = prune
        self.cube_info = gnubg.cube_info(1, -1, 1, 0, (0, 0), 0, 0)
        self._contexts = [gnubg.eval_context(0, ply, 1, int(prune), 0.0) for ply in range(5)]
        self._filters = [
            {"ply": n, "level": level, "acceptmoves": a, "extramoves": e, "threshold": t}
            for n, row in NORMAL_FILTERS.items()
            for level, (a, e, t) in enumerate(row)
        ]

    def choose_play(self, game: Game) -> Play:
        assert gnubg is not None and game.dice is not None
        position = game.position
        board = gnubg.position_from_id(position.position_id())
        context = self._contexts[self.plies]
        move = gnubg.find_best_move(board, self.cube_info, context, game.dice, self._filters)
        plays = game.legal_plays()
        if len(move) % 2 == 0:
            result = apply_gnu_move(position, move)
        else:
            result = self._complete(position, move, plays.results())
        play = plays.play_for(result)
        if play is None:
            raise RuntimeError(f"GNU Backgammon's {move} is not legal in {game!r}")
        return play

    def rank(self, results: Sequence[Position]) -> list[tuple[Position, float]]:
        """GNU's search over ``results`` (:func:`gnu_search`), through ``gnubg.evaluate``."""
        filters = NORMAL_FILTERS.get(self.plies, ())
        return gnu_search(results, self.score, self.plies, filters)

    def score(self, result: Position, ply: int) -> float:
        """The mover's equity after a play, as GNU scores it (``ScoreMove``: the board from
        the opponent's side, evaluated at ``ply``, inverted)."""
        assert gnubg is not None
        board = gnubg.position_from_id(result.flip().position_id())
        return float32(-gnubg.evaluate(board, self.cube_info, self._contexts[ply])[5])

    def _complete(
        self, position: Position, move: tuple[int, ...], results: list[Position]
    ) -> Position:
        """The result of a move the gnubg package cut short.

        The package ends a move's tuple at its first checker borne off (GNU's "off" is -1
        inside, where the tuple stops), so ``(7, 2, 2)`` is 7/2 2/off and anything after is
        lost. GNU's own search (:meth:`rank`) says which of the plays the known part leads
        to it chose: the best of them it ranks.
        """
        partial = apply_gnu_move(position, (*move, OFF)).board
        candidates = [r for r in results if _reachable(partial, r.board)]
        if len(candidates) == 1:
            return candidates[0]
        for result, _score in self.rank(results):
            if result in candidates:
                return result
        raise RuntimeError(f"no play GNU Backgammon ranks follows its {move} in {position!r}")


def _reachable(partial: tuple[int, ...], result: tuple[int, ...]) -> bool:
    """Whether moving the mover's checkers down or off turns ``partial`` into ``result``."""
    above_partial = above_result = 0
    for point in range(25, 0, -1):
        above_partial += max(partial[point], 0)
        above_result += max(result[point], 0)
        if above_result > above_partial:
            return False
    return True


def apply_gnu_move(position: Position, move: tuple[int, ...]) -> Position:
    """The position after gnubg's ``(from, to, from, to, ...)`` move, seen by the mover."""
    board = position.to_board()  # the mover's checkers positive on their points, bar at 25
    for source, target in zip(move[::2], move[1::2], strict=True):
        board[source if source != BAR else 25] -= 1
        if target == OFF:
            continue
        if board[target] == -1:  # a blot hit: to the opponent's bar, board[0]
            board[target] = 0
            board[0] += 1
        board[target] += 1
    return Position.from_board(board)
