"""What a chouette action did, as typed events: the story is told from these, the session
log is made of them, the analysis replays them. Values only, never words."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.features.chouette.rules.state import Answer, Settled


class Kind(StrEnum):
    JOINED = "joined"  # player (waiting: joined during a game)
    LEFT = "left"  # player (during a game: their cube follows the captain)
    ORDERED = "ordered"  # one round of single dice: players, dice
    BEGAN = "began"  # the first game's order: players (box first)
    GAME = "game"  # a new game: game, players (box, captain, line), value (partner or 0)
    OPENING = "opening"  # the opening roll: dice (box, captain)
    AUTO_DOUBLE = "auto-double"  # a tied opening roll turned every cube: value
    DOUBLED = "doubled"  # player (a member) doubled the box; value: the cube offered
    NO_DOUBLE = "no-double"  # player (the computer) chose not to double
    WINDOW_CLOSED = "window-closed"  # player closed the window (the captain's roll)
    BOX_DOUBLED = "box-doubled"  # the box doubled players
    ANSWERED = "answered"  # player answered (answer) member's cube; value: the new cube
    FOLLOWED = "followed"  # player (away or idle) follows the captain's answer
    ROLLED = "rolled"  # player rolled dice
    MOVED = "moved"  # player played play with dice
    PASSED = "passed"  # player could not move with dice
    ACTING = "acting"  # player now moves the team's checkers (the captain is out)
    SETTLED = "settled"  # player's cube settled: value, points, settled
    OVER = "over"  # the game is over: value (kind 1-3), winner (0 box, 1 team)
    ROTATED = "rotated"  # the order for the next game: players
    ADVICE = "advice"  # player gave the captain a suggestion (the words stay private)
    ENDED = "ended"  # the session is over (player: who ended it, if someone did)
    VOIDED = "voided"  # the game in play was given up with no result


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened. ``player``: who did it or whom it is about; ``member``: the
    cube concerned when another answers it; ``players``: a list of them; ``dice``, ``play``,
    ``answer``, ``value`` (a cube, a kind), ``points``, ``settled``, ``winner``: its facts."""

    kind: Kind
    game: int = 0
    player: int | None = None
    member: int | None = None
    players: tuple[int, ...] = ()
    dice: tuple[int, ...] = ()
    play: str | None = None
    answer: Answer | None = None
    value: int | None = None
    points: int | None = None
    settled: Settled | None = None
    winner: int | None = None


__all__ = ["Event", "Kind"]
