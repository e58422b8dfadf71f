"""The values of a chouette: seats, one cube per team member, the game, the session.

One board and many cubes, as GNU Backgammon keeps the cube beside the board (``cubeinfo``):
the checkers are the engine's own :class:`~bot.engine.Game` (player 0 the box, player 1 the
team, its own cube unused), and each team member's cube against the box is a
:class:`Cube` of its own. Everything here is an immutable value; the verbs that change them
are in :mod:`.play`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from bot.engine import Game
from bot.features.chouette.rules.options import PARTNER_FROM, ChouetteOptions


class Side(IntEnum):
    """The board's two players: the box is player 0, the team player 1."""

    BOX = 0
    TEAM = 1


class Answer(StrEnum):
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"  # take and redouble at once, keeping the cube (no raccoons)


class Offer(StrEnum):
    """A double waiting for its answer."""

    BY_MEMBER = "by-member"  # the member doubled the box: the box answers
    BY_BOX = "by-box"  # the box doubled the member: the member answers


class Settled(StrEnum):
    """How a cube's game ended."""

    PLAYED = "played"  # the game was played out
    MEMBER_DROPPED = "member-dropped"  # the member refused the box's double
    BOX_DROPPED = "box-dropped"  # the box refused the member's double
    BOX_LEFT = "box-left"  # the box left: every cube in play lost at its value
    TEAM_LEFT = "team-left"  # nobody of the team was left to play on


class Stage(StrEnum):
    """What the game waits for."""

    WINDOW = "window"  # the team is on roll: members may double; the captain rolls
    BOX_ANSWERS = "box-answers"  # the box answers every member's double at once
    BOX_TURN = "box-turn"  # the box is on roll: double any members, or roll
    MEMBER_ANSWERS = "member-answers"  # the members the box doubled take or drop
    MOVE = "move"  # dice out: the box or the (acting) captain moves
    OVER = "over"


class Status(StrEnum):
    OPEN = "open"  # gathering players
    PLAYING = "playing"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class Seat:
    """A player of the session; ``computer``: the bot's own seat."""

    id: int
    name: str
    computer: bool = False


@dataclass(frozen=True, slots=True)
class Cube:
    """One team member's cube against the box, for one game.

    ``turned``: a double of it was accepted (Jacoby: only then do gammons count for this
    member). ``points``: once settled, what the member won (negative: lost) and ``settled``
    how; None while the cube is in play.
    """

    member: int
    value: int = 1
    owner: Side | None = None
    turned: bool = False
    offer: Offer | None = None
    points: int | None = None
    settled: Settled | None = None

    @property
    def in_play(self) -> bool:
        return self.points is None


@dataclass(frozen=True, slots=True)
class ChouetteGame:
    """One game of the session: the board, the cubes in team order (the captain's first),
    who moves the team's checkers (``acting``: the captain, or the next member when the
    captain is out), and what the game waits for.

    ``away``: members who left during the game (their cube follows the captain's
    decisions); ``follow``: members idle when doubled, answered by the captain's answer;
    ``answers``: the answers given to the box's current double; ``considered``: members
    who decided in the current doubling window (the computer's silence is a decision too);
    ``advice``: suggestions to the acting captain for the current decision.
    """

    number: int
    board: Game
    cubes: tuple[Cube, ...]
    box: int
    captain: int
    acting: int
    stage: Stage
    partner: int | None = None
    away: frozenset[int] = frozenset()
    follow: frozenset[int] = frozenset()
    answers: tuple[tuple[int, Answer], ...] = ()
    considered: frozenset[int] = frozenset()
    advice: tuple[tuple[int, str], ...] = ()
    auto_doubles: int = 0
    captain_won: bool | None = None  # the captain's own result against the box, once known

    def cube(self, member: int) -> Cube:
        for cube in self.cubes:
            if cube.member == member:
                return cube
        raise KeyError(member)

    @property
    def team(self) -> tuple[int, ...]:
        """The team in line order, the captain first."""
        return tuple(cube.member for cube in self.cubes)

    def has(self, member: int) -> bool:
        return any(cube.member == member for cube in self.cubes)

    @property
    def in_play(self) -> tuple[Cube, ...]:
        return tuple(cube for cube in self.cubes if cube.in_play)

    @property
    def over(self) -> bool:
        return self.stage is Stage.OVER

    @property
    def to_move(self) -> int | None:
        """Who moves the checkers now (dice out), else None."""
        if self.stage is not Stage.MOVE:
            return None
        return self.box if self.board.on_roll == Side.BOX else self.acting


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game's settlement: each player's points (the box's and its partner's
    included: they sum to zero), and who won between the box and the captain."""

    number: int
    box: int
    captain: int
    partner: int | None
    points: tuple[tuple[int, int], ...]  # (player, points), box first
    cubes: tuple[Cube, ...]  # each member's cube as settled
    kind: int  # 1 single, 2 gammon, 3 backgammon (the board's; Jacoby applies per member)
    winner: Side | None  # the board's winner (None: not played out)
    captain_won: bool
    voided: bool = False

    @property
    def by_player(self) -> dict[int, int]:
        return dict(self.points)


@dataclass(frozen=True, slots=True)
class Chouette:
    """A whole session: who sits where, the game being played, and every game's result.

    ``order`` is the rotation: the box first, then (with a partner) the box's partner, then
    the captain and the line. ``waiting``: players who joined during a game, at the back
    of the line from the next one; ``leaving``: players who left during a game, gone after
    it. ``moment`` counts the decisions the session has waited on: a button is posted for
    one moment and refused once the session has moved past it.
    """

    options: ChouetteOptions = field(default_factory=ChouetteOptions)
    seats: tuple[Seat, ...] = ()
    status: Status = Status.OPEN
    order: tuple[int, ...] = ()
    waiting: tuple[int, ...] = ()
    leaving: frozenset[int] = frozenset()
    game: ChouetteGame | None = None
    records: tuple[GameRecord, ...] = ()
    moment: int = 0
    first_box: int | None = None  # a seat that takes the box for the first game (the computer)

    def seat(self, player: int) -> Seat:
        for seat in self.seats:
            if seat.id == player:
                return seat
        raise KeyError(player)

    def name(self, player: int) -> str:
        try:
            return self.seat(player).name
        except KeyError:
            return str(player)

    @property
    def names(self) -> Mapping[int, str]:
        return {seat.id: seat.name for seat in self.seats}

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone in the session now: the rotation, then those waiting to come in."""
        return (*self.order, *self.waiting)

    @property
    def present(self) -> tuple[int, ...]:
        """The players who have not left."""
        return tuple(p for p in self.players if p not in self.leaving)

    def is_computer(self, player: int) -> bool:
        try:
            return self.seat(player).computer
        except KeyError:
            return False

    @property
    def has_partner(self) -> bool:
        return self.options.partner and len(self.order) >= PARTNER_FROM

    @property
    def box(self) -> int | None:
        return self.order[0] if self.order else None

    @property
    def partner(self) -> int | None:
        return self.order[1] if self.has_partner else None

    @property
    def team(self) -> tuple[int, ...]:
        """The captain and the line, in order."""
        return self.order[2:] if self.has_partner else self.order[1:]

    @property
    def table(self) -> dict[int, int]:
        """Each player's points over the session's games (they sum to zero)."""
        totals: dict[int, int] = {seat.id: 0 for seat in self.seats}
        for record in self.records:
            for player, points in record.points:
                totals[player] = totals.get(player, 0) + points
        return totals


__all__ = [
    "Answer",
    "Chouette",
    "ChouetteGame",
    "Cube",
    "GameRecord",
    "Offer",
    "Seat",
    "Settled",
    "Side",
    "Stage",
    "Status",
]
