"""One walk of a chouette's event log: every decision each player made, on the board and with
the cube it concerned, as it stood just before (python-chess's one walk of a record, here
for the analysis).

The board is replayed with the engine (the opening roll, the rolls, the plays, the passes)
and each member's cube beside it from the events that turned or settled it. A decision is
the engine's view of it (:func:`~bot.features.chouette.rules.play.cube_view`'s way: the box
player 0, the member player 1, the member's cube on the board): a checker play, the box's
or a member's double or no double (a member who let the window close without doubling,
the box rolling without doubling a cube it could have), and every answer given to a double
for one's own cube (a proxy's answer for someone away is not theirs). Pure.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from bot.engine import Game, MatchOptions, Phase, Play
from bot.engine.game import MAX_CUBE
from bot.features.chouette.rules.events import Event, Kind
from bot.features.chouette.rules.options import ChouetteOptions
from bot.features.chouette.rules.state import Answer, Side


class CubeCall(StrEnum):
    """A cube decision, in the analysis's words (``bot.computer.CubeDecision``'s values)."""

    NO_DOUBLE = "no_double"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


@dataclass(frozen=True, slots=True)
class Decision:
    """``player`` decided ``decision`` in game ``game``; ``view`` is the engine's game just
    before it, seen as a money game between the box and the member whose cube it concerns
    (``member``; None: a checker play, judged with no cube)."""

    game: int
    player: int
    view: Game
    decision: Play | CubeCall
    member: int | None = None


@dataclass
class _Cube:
    value: int = 1
    owner: Side | None = None
    offered: bool = False
    out: bool = False


@dataclass
class _Game:
    number: int
    box: int
    team: list[int]
    board: Game
    cubes: dict[int, _Cube] = field(default_factory=dict)
    box_doubled: bool = False  # the box doubled someone this turn
    away: set[int] = field(default_factory=set)  # members gone: the captain decides for them


def _view(g: _Game, member: int, options: ChouetteOptions, phase: Phase | None = None) -> Game:
    cube = g.cubes[member]
    money = MatchOptions(jacoby=options.jacoby, beavers=options.beavers)
    owner = None if cube.owner is None else int(cube.owner)
    view = dataclasses.replace(g.board, options=money, cube=cube.value, cube_owner=owner)
    return view if phase is None else dataclasses.replace(view, phase=phase)


def _may_double(cube: _Cube, by: Side) -> bool:
    return not cube.out and cube.owner in (None, by) and cube.value * 2 <= MAX_CUBE


def decisions(events: Iterable[Event], options: ChouetteOptions) -> Iterator[Decision]:
    """Every decision of the log, in order."""
    g: _Game | None = None
    for e in events:
        if e.kind is Kind.GAME:
            box, *team = e.players
            g = _Game(e.game, box, team, Game.new(MatchOptions(cube=False)))
            g.cubes = {m: _Cube() for m in team}
            continue
        if g is None or e.game != g.number:
            continue
        kind = e.kind
        if kind is Kind.OPENING:
            g.board = g.board.opening_roll(e.dice[0], e.dice[1])
        elif kind is Kind.AUTO_DOUBLE:
            for cube in g.cubes.values():
                cube.value = e.value or cube.value
        elif kind is Kind.LEFT and e.player in g.cubes:
            g.away.add(e.player)
        elif kind is Kind.JOINED:
            g.away.discard(e.player or 0)
        elif kind is Kind.DOUBLED and e.player is not None:
            if e.player not in g.away:
                view = _view(g, e.player, options)
                yield Decision(g.number, e.player, view, CubeCall.DOUBLE, e.player)
            g.cubes[e.player].offered = True
        elif kind is Kind.WINDOW_CLOSED:
            for member, cube in g.cubes.items():
                if member in g.away:
                    continue
                if not cube.offered and _may_double(cube, Side.TEAM):
                    view = _view(g, member, options)
                    yield Decision(g.number, member, view, CubeCall.NO_DOUBLE, member)
        elif kind is Kind.BOX_DOUBLED:
            g.box_doubled = True
            for member, cube in g.cubes.items():
                if member in e.players:
                    view = _view(g, member, options)
                    yield Decision(g.number, g.box, view, CubeCall.DOUBLE, member)
                    cube.offered = True
                elif _may_double(cube, Side.BOX):
                    view = _view(g, member, options)
                    yield Decision(g.number, g.box, view, CubeCall.NO_DOUBLE, member)
        elif kind is Kind.ANSWERED and e.member is not None and e.player is not None:
            yield from _answered(g, e, options)
        elif kind is Kind.ROLLED:
            if e.player == g.box and not g.box_doubled and g.board.on_roll == Side.BOX:
                for member, cube in g.cubes.items():
                    if _may_double(cube, Side.BOX):
                        view = _view(g, member, options)
                        yield Decision(g.number, g.box, view, CubeCall.NO_DOUBLE, member)
            g.board = g.board.roll((e.dice[0], e.dice[1]))
        elif kind is Kind.MOVED and e.player is not None and e.play is not None:
            before = g.board
            g.board = before.move(e.play)
            assert g.board.last_play is not None
            yield Decision(g.number, e.player, before, g.board.last_play)
            g.box_doubled = False
        elif kind is Kind.PASSED:
            g.board = g.board.pass_turn()
            g.box_doubled = False
        elif kind is Kind.SETTLED and e.player in g.cubes:
            g.cubes[e.player or 0].out = True


def _answered(g: _Game, e: Event, options: ChouetteOptions) -> Iterator[Decision]:
    assert e.member is not None and e.player is not None and e.answer is not None
    member, cube = e.member, g.cubes[e.member]
    by_box = e.player == g.box
    if by_box or e.player == member:
        view = _view(g, member, options, Phase.DOUBLED)
        yield Decision(g.number, e.player, view, CubeCall(str(e.answer)), member)
    cube.offered = False
    if e.answer is Answer.DROP:
        cube.out = True
        return
    cube.value *= 4 if e.answer is Answer.BEAVER else 2
    cube.owner = Side.BOX if by_box else Side.TEAM


def boards(events: Iterable[Event]) -> dict[int, Game]:
    """The last board of each game of the log, replayed (the analysis's check, and a
    finished game's picture)."""
    out: dict[int, Game] = {}
    board: Game | None = None
    number = 0
    for e in events:
        if e.kind is Kind.GAME:
            board, number = Game.new(MatchOptions(cube=False)), e.game
        elif board is None or e.game != number:
            continue
        elif e.kind is Kind.OPENING:
            board = board.opening_roll(e.dice[0], e.dice[1])
        elif e.kind is Kind.ROLLED:
            board = board.roll((e.dice[0], e.dice[1]))
        elif e.kind is Kind.MOVED and e.play is not None:
            board = board.move(e.play)
        elif e.kind is Kind.PASSED:
            board = board.pass_turn()
        if board is not None:
            out[number] = board
    return out


__all__ = ["CubeCall", "Decision", "boards", "decisions"]
