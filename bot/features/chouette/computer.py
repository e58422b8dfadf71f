"""The computer's seat in a chouette: the box, or a member of the team (its captain, too).

It plays through the same verbs as a person (:mod:`bot.features.chouette.rules.play`), inside
the change whose action handed it the decision, so its reply is stored with that action. Its
thinking is the game's computer (:mod:`bot.workers`, bgsage under money-game rules): the
checker play from the board, and each cube decision from that cube alone beside the board
(:func:`~bot.features.chouette.rules.cube_view`, the way GNU Backgammon evaluates a board
with a ``cubeinfo``): whether to double a member (as the box) or the box (as a member),
whether to take. As the team's captain it waits for the people in its doubling window:
it rolls once every member at the table has decided (or the session's clock closes the
window, :meth:`ChouetteService.tick`).

A house rule the computer's own answers break (the box must take the captain's cube, at
least half of them) is met the cheapest way: the captain's cube taken, or every cube dropped.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.computer import CubeDecision
from bot.features.chouette.rules import (
    Answer,
    Chouette,
    ChouetteError,
    Code,
    Offer,
    Side,
    Stage,
    Status,
    can_double,
    cube_view,
    window_decided,
)
from bot.features.chouette.rules import play as verbs
from bot.features.chouette.rules.seats import Die
from bot.workers import Workers

log = logging.getLogger(__name__)

STEPS = 200  # a game is a few hundred decisions at most: this only guards against a bug

ANSWERS = {
    CubeDecision.TAKE: Answer.TAKE,
    CubeDecision.DROP: Answer.DROP,
    CubeDecision.BEAVER: Answer.BEAVER,
}


@dataclass(frozen=True, slots=True)
class Turns:
    """What the computer did: every step applied, in order."""

    steps: tuple[verbs.Applied, ...]

    @property
    def session(self) -> Chouette | None:
        return self.steps[-1].session if self.steps else None


def computer_seat(s: Chouette) -> int | None:
    """The computer's seat at the table, if it has one."""
    for seat in s.seats:
        if seat.computer and seat.id in s.present:
            return seat.id
    return None


def waits_on_computer(s: Chouette) -> bool:
    """Whether the session waits for a decision only the computer makes now (its checker
    play, the box's turn or answers, its own answer or double)."""
    me = computer_seat(s)
    g = s.game
    if me is None or g is None or s.status is not Status.PLAYING or g.over:
        return False
    if g.stage is Stage.MOVE:
        return g.to_move == me
    if g.stage in (Stage.BOX_TURN, Stage.BOX_ANSWERS):
        return g.box == me
    if g.stage is Stage.WINDOW:
        if not g.has(me) or me in g.away:
            return False
        undecided = me not in g.considered and can_double(g.cube(me), Side.TEAM)
        return undecided or (g.acting == me and window_decided(s))
    if g.stage is Stage.MEMBER_ANSWERS and g.has(me):
        pending = [c.member for c in g.cubes if c.offer is Offer.BY_BOX]
        return me in pending or (g.acting == me and any(m in g.away | g.follow for m in pending))
    return False


class ChouetteComputer:
    """The computer's decisions in every session; its thinking runs in the workers."""

    def __init__(self, workers: Workers) -> None:
        self.workers = workers

    async def play(self, s: Chouette, die: Die) -> Turns:
        """Every decision the session waits on from the computer, one after the other, until
        it waits on a person. A failed evaluation stops here: what was decided stands, and
        the session's clock tries again."""
        steps: list[verbs.Applied] = []
        for _ in range(STEPS):
            if not waits_on_computer(s):
                break
            try:
                applied = await self._step(s, die)
            except Exception:
                log.exception("the computer could not decide in a chouette; later")
                break
            if applied is None:
                break
            steps.append(applied)
            s = applied.session
        return Turns(tuple(steps))

    async def _step(self, s: Chouette, die: Die) -> verbs.Applied | None:
        me = computer_seat(s)
        g = s.game
        assert me is not None and g is not None
        level = s.options.level
        if g.stage is Stage.MOVE:
            play = await self.workers.choose_play(level, g.board)
            return verbs.move(s, me, play, die)
        if g.stage is Stage.BOX_TURN:
            chosen = [
                m
                for m in g.team
                if can_double(g.cube(m), Side.BOX)
                and await self.workers.should_double(level, cube_view(s, m))
            ]
            return verbs.double(s, me, die, chosen) if chosen else verbs.roll(s, me, die)
        if g.stage is Stage.BOX_ANSWERS:
            return await self._answer_team(s, me, die)
        if g.stage is Stage.WINDOW:
            if me not in g.considered and can_double(g.cube(me), Side.TEAM):
                if await self.workers.should_double(level, cube_view(s, me)):
                    return verbs.double(s, me, die)
                return verbs.no_double(s, me)
            return verbs.roll(s, me, die)
        if g.stage is Stage.MEMBER_ANSWERS:
            pending = [c.member for c in g.cubes if c.offer is Offer.BY_BOX]
            cube = me if me in pending else pending[0]
            decided = await self.workers.cube_response(level, cube_view(s, cube, doubled=True))
            answer = ANSWERS.get(decided, Answer.DROP)
            if answer is Answer.BEAVER and not s.options.beavers:
                answer = Answer.TAKE
            try:
                return verbs.answer_member(s, me, answer, die)
            except ChouetteError as exc:
                if exc.code is Code.MUST_BEAVER:
                    return verbs.answer_member(s, me, Answer.BEAVER, die)
                if exc.code in (Code.WAIT_LINE, Code.CAPTAIN_LAST):
                    return None  # its turn to answer has not come
                raise
        return None

    async def _answer_team(self, s: Chouette, me: int, die: Die) -> verbs.Applied:
        g = s.game
        assert g is not None
        answers: dict[int, Answer] = {}
        for cube in g.cubes:
            if cube.offer is not Offer.BY_MEMBER:
                continue
            view = cube_view(s, cube.member, doubled=True)
            answer = ANSWERS.get(await self.workers.cube_response(s.options.level, view))
            if answer is Answer.BEAVER and not s.options.beavers:
                answer = Answer.TAKE
            answers[cube.member] = answer or Answer.DROP
        try:
            return verbs.answer_box(s, me, answers, die)
        except ChouetteError as exc:
            if exc.code is Code.TAKE_CAPTAIN:
                answers[g.acting] = Answer.TAKE
                return verbs.answer_box(s, me, answers, die)
            if exc.code is Code.TAKE_HALF:
                return verbs.answer_box(s, me, dict.fromkeys(answers, Answer.DROP), die)
            raise


__all__ = ["ChouetteComputer", "Turns", "computer_seat", "waits_on_computer"]
