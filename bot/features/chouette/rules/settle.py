"""What a game pays (C6, C8): each member against the box by their own cube, the box the
opposite of all of them together, shared with its partner.

A member's cube pays the game's value (single 1, gammon 2, backgammon 3) times the cube,
except under Jacoby where a member whose cube never turned is paid a single game only. A
cube dropped earlier has already been settled at its value before the double. The box's
side pays what the members win together, so every game sums to zero; with a partner the
box and the partner share it equally, the odd point to the box (rec.games.backgammon
#1506).
"""

from __future__ import annotations

from bot.engine import ResultKind
from bot.features.chouette.rules.state import Cube, Settled, Side


def played_out(cube: Cube, kind: ResultKind, winner: Side, *, jacoby: bool) -> Cube:
    """A cube still in play when the board's game ended with ``kind`` for ``winner``."""
    multiple = ResultKind.SINGLE if jacoby and not cube.turned else kind
    points = int(multiple) * cube.value
    return _settled(cube, points if winner is Side.TEAM else -points, Settled.PLAYED)


def dropped(cube: Cube, by: Side) -> Cube:
    """A double refused: who refused pays the cube's value before the double."""
    if by is Side.TEAM:
        return _settled(cube, -cube.value, Settled.MEMBER_DROPPED)
    return _settled(cube, cube.value, Settled.BOX_DROPPED)


def abandoned(cube: Cube, by: Side) -> Cube:
    """A side left the game: it loses the cube at its value (before any double offered)."""
    if by is Side.BOX:
        return _settled(cube, cube.value, Settled.BOX_LEFT)
    return _settled(cube, -cube.value, Settled.TEAM_LEFT)


def _settled(cube: Cube, points: int, how: Settled) -> Cube:
    return Cube(cube.member, cube.value, cube.owner, cube.turned, None, points=points, settled=how)


def box_shares(total: int, partner: bool) -> tuple[int, int]:
    """The box side's ``total`` as (box, partner): equal halves, the odd point to the box."""
    if not partner:
        return total, 0
    half = abs(total) // 2
    sign = 1 if total >= 0 else -1
    return sign * (abs(total) - half), sign * half


__all__ = ["abandoned", "box_shares", "dropped", "played_out"]
