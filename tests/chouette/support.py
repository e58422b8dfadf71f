"""Chouettes set up for the tests: seated, begun, and boards placed where a test needs them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from bot.engine import Phase, Position
from bot.features.chouette.rules import Chouette, ChouetteOptions, Seat, Side, Stage
from bot.features.chouette.rules import play as verbs

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = 1, 2, 3, 4, 5, 6
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave", ERIN: "erin", FRANK: "frank"}


def dice(*values: int) -> Callable[[], int]:
    """A die that shows ``values`` in turn, and fails loudly past them."""
    it = iter(values)

    def die() -> int:
        try:
            return next(it)
        except StopIteration:
            raise AssertionError("the test's dice ran out") from None

    return die


def seated(players: Iterable[int] = (ALICE, BOB, CAROL, DAVE), **options: object) -> Chouette:
    s = Chouette(ChouetteOptions(**options))  # type: ignore[arg-type]
    for player in players:
        s = verbs.join(s, Seat(player, NAMES.get(player, str(player)))).session
    return s


def begun(
    order: Sequence[int] = (ALICE, BOB, CAROL, DAVE),
    *,
    opening: tuple[int, int] = (1, 3),
    **options: object,
) -> Chouette:
    """Players seated in ``order`` and ordered so by the dice (box first); the opening
    roll ``opening`` (box's die, captain's die): by default the team wins it with 3-1."""
    s = seated(order, **options)
    ordering = [6 - i for i in range(len(order))]
    return verbs.begin(s, order[0], dice(*ordering, *opening)).session


def board_at(
    s: Chouette, board: Sequence[int], on_roll: Side, stage: Stage | None = None
) -> Chouette:
    """The game's board replaced by ``board`` (seen from ``on_roll``), waiting for its roll."""
    g = s.game
    assert g is not None
    game_board = dataclasses.replace(
        g.board,
        position=Position.from_board(board),
        on_roll=int(on_roll),
        phase=Phase.ROLL,
        dice=None,
    )
    stage = stage or (Stage.WINDOW if on_roll is Side.TEAM else Stage.BOX_TURN)
    return dataclasses.replace(s, game=dataclasses.replace(g, board=game_board, stage=stage))


def last_checker(theirs: dict[int, int] | None = None) -> list[int]:
    """The player on roll has one checker left, on their 1-point; the other side's checkers
    are ``theirs`` (point from the mover's side: count), by default all 15 on the mover's
    13-point: a gammon (one borne off: a single game; one in the mover's home: backgammon)."""
    board = [0] * 26
    board[1] = 1
    for point, count in (theirs or {13: 15}).items():
        board[point] = -count
    return board


SINGLE = {13: 14}
GAMMON = {13: 15}
BACKGAMMON = {13: 14, 6: 1}
