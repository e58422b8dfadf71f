"""The chouette's verbs: what each action does to a session, under the rules C1-C8.

Each verb takes a :class:`~.state.Chouette` and the acting player, checks that the action is
theirs to take now, and returns :class:`Applied`: the new session and the events, in
order. A refused action raises :class:`~.errors.ChouetteError` (or, for a checker play, the
engine's own error) and changes nothing. Dice are an input: a verb that rolls takes a
function returning one die.

How a game runs (the team is the board's player 1, the box player 0):

- **The team on roll** (``WINDOW``, C3): any member whose cube is centred or their own may
  double; silence is no double. The captain's Roll closes the window: with no double the
  dice are rolled; with doubles the box answers them all at once, per member
  (``BOX_ANSWERS``), and then the captain's dice are rolled. A member who drops out of
  the game is out; if the captain's cube is dropped the next member in line with a cube in
  play moves the checkers for the rest of the game (C5).
- **The box on roll** (``BOX_TURN``, C4): the box doubles any members whose cube it may
  turn, or rolls. Each member doubled takes, drops or (beavers on) beavers on their own
  (``MEMBER_ANSWERS``), then the box's dice are rolled.
- Members who left during the game, or stayed idle when doubled, follow the captain: the
  captain's double turns their cube too, the captain's answer answers theirs (a beaver
  becomes a take: a proxy never beavers for someone).
- **The end**: every cube still in play is settled by the board's result (Jacoby per
  member, C6), the game's record sums to zero (C8), the seats rotate and the next game
  begins at once. Two players left play on as a plain money game; one left ends it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.engine import Game, MatchOptions, Phase, Play
from bot.engine.game import MAX_CUBE
from bot.features.chouette.rules.errors import ChouetteError, Code
from bot.features.chouette.rules.events import Event, Kind
from bot.features.chouette.rules.options import (
    MAX_PLAYERS,
    MIN_TO_BEGIN,
    AnswerOrder,
    Consultation,
    Rotation,
)
from bot.features.chouette.rules.seats import Die, order_by_dice, rotate
from bot.features.chouette.rules.settle import abandoned, box_shares, dropped, played_out
from bot.features.chouette.rules.state import (
    Answer,
    Chouette,
    ChouetteGame,
    Cube,
    GameRecord,
    Offer,
    Seat,
    Side,
    Stage,
    Status,
)

ADVICE_LIMIT = 200  # characters of a suggestion to the captain


@dataclass(frozen=True, slots=True)
class Applied:
    """What an action did: the session after it, its events in order, and the last board
    of each game it finished (the next game has begun by then)."""

    session: Chouette
    events: tuple[Event, ...]
    finished: tuple[Game, ...] = ()


def _no_dice() -> int:
    raise AssertionError("this action rolls no dice")


class _Work:
    """One action being applied: the session and its game as they change, and the events.

    The values stay immutable; each change replaces them, so a refusal half-way leaves the
    caller's session untouched.
    """

    def __init__(self, session: Chouette, die: Die | None) -> None:
        self.s = session
        self.die: Die = die or _no_dice
        self.events: list[Event] = []
        self.finished: list[Game] = []

    # --- plumbing ---------------------------------------------------------------------------

    @property
    def g(self) -> ChouetteGame:
        game = self.s.game
        if game is None or self.s.status is not Status.PLAYING or game.over:
            raise ChouetteError(Code.NO_GAME)
        return game

    def set_game(self, **changes: object) -> None:
        self.s = dataclasses.replace(self.s, game=dataclasses.replace(self.g, **changes))  # type: ignore[arg-type]

    def set_cube(self, cube: Cube) -> None:
        cubes = tuple(cube if c.member == cube.member else c for c in self.g.cubes)
        self.set_game(cubes=cubes)

    def emit(self, kind: Kind, **fields: object) -> None:
        number = self.s.game.number if self.s.game is not None else 0
        self.events.append(Event(kind, number, **fields))  # type: ignore[arg-type]

    def goto(self, stage: Stage) -> None:
        """A new decision: buttons posted before it are stale from now on."""
        self.set_game(stage=stage)
        self.s = dataclasses.replace(self.s, moment=self.s.moment + 1)

    def done(self) -> Applied:
        return Applied(self.s, tuple(self.events), tuple(self.finished))

    # --- the board --------------------------------------------------------------------------

    def roll_for(self, player: int) -> None:
        g = self.g
        dice = (self.die(), self.die())
        self.set_game(board=g.board.roll(dice), advice=())
        self.emit(Kind.ROLLED, player=player, dice=dice)
        self.goto(Stage.MOVE)
        self.after_roll()

    def after_roll(self) -> None:
        """No legal play: the turn passes by itself."""
        board = self.g.board
        assert board.dice is not None
        if board.legal_plays().is_forced_pass:
            mover = self.g.to_move
            self.set_game(board=board.pass_turn())
            self.emit(Kind.PASSED, player=mover, dice=board.dice)
            self.enter_turn()

    def enter_turn(self) -> None:
        """The board waits for a roll: the box's turn, or the team's doubling window."""
        stage = Stage.BOX_TURN if self.g.board.on_roll == Side.BOX else Stage.WINDOW
        self.set_game(considered=frozenset(), answers=(), follow=frozenset(), advice=())
        self.goto(stage)

    # --- the team's captain -------------------------------------------------------------------

    def present_in_play(self) -> list[int]:
        g = self.g
        return [c.member for c in g.cubes if c.in_play and c.member not in g.away]

    def check_acting(self) -> None:
        """Hand the checkers to the next member in line when the one moving them is out of
        the game or gone (C5); with nobody of the team left, the team's cubes are lost."""
        g = self.g
        if g.acting not in g.away and g.cube(g.acting).in_play:
            return
        candidates = self.present_in_play()
        if not candidates and g.in_play:
            # Only members who left still have a cube: someone present plays for them.
            candidates = [m for m in g.team if m not in g.away]
        if not candidates:
            if g.in_play:
                self.team_left()
            return
        if candidates[0] != g.acting:
            self.set_game(acting=candidates[0])
            self.emit(Kind.ACTING, player=candidates[0])

    def team_left(self) -> None:
        for cube in self.g.in_play:
            self.settle(abandoned(cube, Side.TEAM))

    def box_left(self) -> None:
        for cube in self.g.in_play:
            self.settle(abandoned(cube, Side.BOX))

    def settle(self, cube: Cube) -> None:
        g = self.g
        self.set_cube(cube)
        if cube.member == g.captain and g.captain_won is None:
            self.set_game(captain_won=(cube.points or 0) > 0)
        self.emit(
            Kind.SETTLED,
            player=cube.member,
            value=cube.value,
            points=cube.points,
            settled=cube.settled,
        )

    # --- the end of a game ----------------------------------------------------------------

    def finish(self, *, box_left: bool = False) -> None:
        """Settle what is left, record the game, rotate the seats, begin the next game."""
        g = self.g
        board = g.board
        result = board.result
        kind, winner = 1, None
        if result is not None:
            kind, winner = int(result.kind), Side(result.winner)
            for cube in self.g.in_play:
                self.settle(played_out(cube, result.kind, winner, jacoby=self.s.options.jacoby))
        g = self.g
        assert not g.in_play, "every cube is settled at the end of a game"
        captain_won = bool(g.captain_won)
        total = -sum(cube.points or 0 for cube in g.cubes)
        box_points, partner_points = box_shares(total, g.partner is not None)
        points = [(g.box, box_points)]
        if g.partner is not None:
            points.append((g.partner, partner_points))
        points += [(cube.member, cube.points or 0) for cube in g.cubes]
        record = GameRecord(
            number=g.number,
            box=g.box,
            captain=g.captain,
            partner=g.partner,
            points=tuple(points),
            cubes=g.cubes,
            kind=kind,
            winner=winner,
            captain_won=captain_won,
        )
        self.emit(Kind.OVER, value=kind, winner=None if winner is None else int(winner))
        self.finished.append(board)
        self.set_game(stage=Stage.OVER)
        self.s = dataclasses.replace(
            self.s, records=(*self.s.records, record), moment=self.s.moment + 1
        )
        if self.s.options.rotation is Rotation.NET:
            box_stays = box_points + partner_points >= 0
        else:
            box_stays = not captain_won
        order = rotate(
            self.s.order,
            box_stays=box_stays and not box_left,
            partner=g.partner is not None,
            waiting=self.s.waiting,
            leaving=self.s.leaving,
        )
        self.s = dataclasses.replace(self.s, order=order, waiting=(), leaving=frozenset())
        self.emit(Kind.ROTATED, players=order)
        if len(order) < 2:
            self.s = dataclasses.replace(self.s, status=Status.ENDED)
            self.emit(Kind.ENDED)
            return
        self.new_game(g.number + 1)

    def new_game(self, number: int) -> None:
        """Seat the game from the order and make the opening roll, box against captain."""
        s = self.s
        box, partner, team = s.order[0], s.partner, s.team
        cubes = tuple(Cube(member) for member in team)
        board = Game.new(MatchOptions(cube=False))
        auto = 0
        game = ChouetteGame(
            number=number,
            board=board,
            cubes=cubes,
            box=box,
            captain=team[0],
            acting=team[0],
            stage=Stage.MOVE,
            partner=partner,
        )
        self.s = dataclasses.replace(s, game=game)
        self.emit(Kind.GAME, players=(box, *team), value=partner or 0)
        while board.phase is Phase.OPENING:
            dice = (self.die(), self.die())
            board = board.opening_roll(*dice)
            self.emit(Kind.OPENING, dice=dice)
            if dice[0] == dice[1] and auto < s.options.auto_doubles:
                auto += 1
                cubes = tuple(dataclasses.replace(c, value=c.value * 2) for c in cubes)
                self.emit(Kind.AUTO_DOUBLE, value=cubes[0].value)
        self.set_game(board=board, cubes=cubes, auto_doubles=auto)
        self.goto(Stage.MOVE)
        self.after_roll()

    # --- answers ---------------------------------------------------------------------------

    def answer_cube(self, member: int, answer: Answer, by: Side, answerer: int) -> None:
        """Apply one answer to ``member``'s pending double; ``by``: the answering side."""
        cube = self.g.cube(member)
        if answer is Answer.DROP:
            self.emit(Kind.ANSWERED, player=answerer, member=member, answer=answer)
            self.settle(dropped(dataclasses.replace(cube, offer=None), by))
            return
        times = 4 if answer is Answer.BEAVER else 2
        taken = dataclasses.replace(
            cube, value=cube.value * times, owner=by, turned=True, offer=None
        )
        self.set_cube(taken)
        self.emit(Kind.ANSWERED, player=answerer, member=member, answer=answer, value=taken.value)

    def after_answers(self, roller: Side) -> None:
        """Every double answered: the game goes on with the doubler's roll, or ends when no
        team member is left in it."""
        if any(c.offer is not None for c in self.g.cubes):
            return
        self.check_acting()
        if not self.g.in_play:
            self.finish()
            return
        self.roll_for(self.g.box if roller is Side.BOX else self.g.acting)


# --- checks ---------------------------------------------------------------------------------


def _seated(s: Chouette, player: int) -> None:
    if s.status is Status.ENDED:
        raise ChouetteError(Code.SESSION_OVER)
    if player not in s.present:
        raise ChouetteError(Code.NOT_SEATED)


def _member(w: _Work, player: int) -> ChouetteGame:
    """The game, if ``player`` is one of its team members still at the table."""
    _seated(w.s, player)
    g = w.g
    if not g.has(player) or player in g.away:
        if player in (g.box, g.partner):
            raise ChouetteError(Code.NOT_NOW)
        raise ChouetteError(Code.NOT_IN_TEAM)
    return g


def _box(w: _Work, player: int) -> ChouetteGame:
    _seated(w.s, player)
    g = w.g
    if player != g.box:
        raise ChouetteError(Code.NOT_THE_BOX)
    return g


def _may_double(cube: Cube, by: Side) -> None:
    if not cube.in_play:
        raise ChouetteError(Code.CUBE_OUT)
    if cube.offer is not None:
        raise ChouetteError(Code.ALREADY_DOUBLED)
    if cube.owner is not None and cube.owner is not by:
        raise ChouetteError(Code.BOX_OWNS_CUBE if by is Side.TEAM else Code.MEMBER_OWNS_CUBE)
    if cube.value * 2 > MAX_CUBE:
        raise ChouetteError(Code.CUBE_AT_MAXIMUM)


def can_double(cube: Cube, by: Side) -> bool:
    """Whether ``by`` may turn this cube now (the stage aside)."""
    try:
        _may_double(cube, by)
    except ChouetteError:
        return False
    return True


def rolls_for_team(s: Chouette, player: int) -> bool:
    """Who may close the team's window: the acting captain, or, when the computer is the
    captain, any team member at the table (the computer waits for the people)."""
    g = s.game
    if g is None:
        return False
    if player == g.acting:
        return True
    return s.is_computer(g.acting) and g.has(player) and player not in g.away


# --- the verbs ------------------------------------------------------------------------------


def join(s: Chouette, seat: Seat) -> Applied:
    """Sit down: before the first game, or at the back of the line from the next game."""
    if s.status is Status.ENDED:
        raise ChouetteError(Code.SESSION_OVER)
    w = _Work(s, None)
    if seat.id in s.leaving:  # back before the game they left is over
        g = s.game
        away = g.away - {seat.id} if g is not None else frozenset()
        w.s = dataclasses.replace(s, leaving=s.leaving - {seat.id})
        if g is not None:
            w.s = dataclasses.replace(w.s, game=dataclasses.replace(g, away=away))
        w.emit(Kind.JOINED, player=seat.id)
        return w.done()
    if seat.id in s.players:
        raise ChouetteError(Code.ALREADY_SEATED)
    if len(s.present) >= MAX_PLAYERS:
        raise ChouetteError(Code.FULL, most=MAX_PLAYERS)
    seats = s.seats if any(x.id == seat.id for x in s.seats) else (*s.seats, seat)
    w.s = dataclasses.replace(s, seats=seats, waiting=(*s.waiting, seat.id))
    w.emit(Kind.JOINED, player=seat.id)
    return w.done()


def begin(s: Chouette, player: int, die: Die) -> Applied:
    """The first game: the order by the dice (C1), then the opening roll. A seat asked to
    take the box when the table opened (the computer's, say) takes it; the others roll."""
    if s.status is Status.PLAYING:
        raise ChouetteError(Code.ALREADY_BEGUN)
    _seated(s, player)
    if len(s.players) < MIN_TO_BEGIN:
        raise ChouetteError(Code.TOO_FEW, most=MIN_TO_BEGIN)
    w = _Work(s, die)
    first = s.first_box if s.first_box in s.players else None
    order, rounds = order_by_dice([p for p in s.players if p != first], die)
    if first is not None:  # asked for at the start: the others roll for their places
        order = (first, *order)
    for players, dice in rounds:
        w.emit(Kind.ORDERED, players=players, dice=dice)
    w.emit(Kind.BEGAN, players=order)
    w.s = dataclasses.replace(s, status=Status.PLAYING, order=order, waiting=())
    w.new_game(1)
    return w.done()


def double(
    s: Chouette, player: int, die: Die | None = None, members: Sequence[int] | None = None
) -> Applied:
    """A member doubles the box in the team's window, or the box doubles ``members``."""
    w = _Work(s, die)
    g = w.g
    if g.stage is Stage.BOX_TURN:
        _box(w, player)
        chosen = [m for m in g.team if m in set(members or ())]
        if not chosen or len(chosen) != len(set(members or ())):
            raise ChouetteError(Code.PICK_MEMBERS)
        for member in chosen:
            _may_double(g.cube(member), Side.BOX)
        for member in chosen:
            w.set_cube(dataclasses.replace(g.cube(member), offer=Offer.BY_BOX))
        w.emit(Kind.BOX_DOUBLED, player=player, players=tuple(chosen))
        w.set_game(answers=(), follow=frozenset())
        w.goto(Stage.MEMBER_ANSWERS)
        return w.done()
    _member(w, player)
    if g.stage is not Stage.WINDOW:
        raise ChouetteError(Code.NOT_NOW)
    cube = g.cube(player)
    _may_double(cube, Side.TEAM)
    doubling = [player]
    if player == g.acting:  # those who left follow the captain's cube
        doubling += [m for m in g.away if can_double(g.cube(m), Side.TEAM)]
    for member in doubling:
        turned = g.cube(member)
        w.set_cube(dataclasses.replace(turned, offer=Offer.BY_MEMBER))
        w.emit(Kind.DOUBLED, player=member, value=turned.value * 2)
    w.set_game(considered=w.g.considered | {player})
    return w.done()


def no_double(s: Chouette, player: int) -> Applied:
    """A member says they will not double in this window (silence means the same; the
    computer's captain rolls once every member at the table has decided)."""
    w = _Work(s, None)
    g = _member(w, player)
    if g.stage is not Stage.WINDOW:
        raise ChouetteError(Code.NOT_NOW)
    if player in g.considered:
        raise ChouetteError(Code.ALREADY_DOUBLED if g.cube(player).offer else Code.NOT_NOW)
    w.set_game(considered=g.considered | {player})
    w.emit(Kind.NO_DOUBLE, player=player)
    return w.done()


def window_decided(s: Chouette) -> bool:
    """Whether every team member at the table who could double has decided."""
    g = s.game
    if g is None or g.stage is not Stage.WINDOW:
        return False
    return all(
        m in g.considered
        for m in g.team
        if m not in g.away and can_double(g.cube(m), Side.TEAM) and m != g.acting
    )


def roll(s: Chouette, player: int, die: Die) -> Applied:
    """The captain closes the window (the box answers any doubles first), or the box rolls."""
    w = _Work(s, die)
    g = w.g
    if g.stage is Stage.BOX_TURN:
        _box(w, player)
        w.roll_for(player)
        return w.done()
    _member(w, player)
    if g.stage is not Stage.WINDOW:
        raise ChouetteError(Code.NOT_NOW)
    if not rolls_for_team(s, player):
        raise ChouetteError(Code.NOT_THE_CAPTAIN, captain=s.name(g.acting))
    w.emit(Kind.WINDOW_CLOSED, player=player)
    if any(c.offer is Offer.BY_MEMBER for c in g.cubes):
        w.goto(Stage.BOX_ANSWERS)
    else:
        w.roll_for(g.acting)
    return w.done()


def answer_box(s: Chouette, player: int, answers: Mapping[int, Answer], die: Die) -> Applied:
    """The box answers every member's double at once, per member (C3)."""
    w = _Work(s, die)
    g = _box(w, player)
    if g.stage is not Stage.BOX_ANSWERS:
        raise ChouetteError(Code.NOTHING_TO_ANSWER)
    offered = [c.member for c in g.cubes if c.offer is Offer.BY_MEMBER]
    if set(answers) != set(offered):
        raise ChouetteError(Code.ANSWER_EVERY_DOUBLE)
    options = s.options
    for member, answer in answers.items():
        if answer is Answer.BEAVER:
            if not options.beavers:
                raise ChouetteError(Code.BEAVERS_OFF)
            if g.cube(member).value * 4 > MAX_CUBE:
                raise ChouetteError(Code.CUBE_AT_MAXIMUM)
    takes = [m for m in offered if answers[m] is not Answer.DROP]
    if (
        options.box_takes_captain
        and takes
        and g.acting in answers
        and answers[g.acting] is Answer.DROP
    ):
        raise ChouetteError(Code.TAKE_CAPTAIN, captain=s.name(g.acting))
    half = math.ceil(len(offered) / 2)
    if options.box_takes_half and len(offered) > 1 and 0 < len(takes) < half:
        raise ChouetteError(Code.TAKE_HALF, most=half)
    for member in offered:
        w.answer_cube(member, answers[member], Side.BOX, player)
    w.after_answers(Side.TEAM)
    return w.done()


def answer_member(s: Chouette, player: int, answer: Answer, die: Die) -> Applied:
    """A member takes, drops or beavers the box's double on their own (C4); the captain's
    answer also answers for the members who left or stayed idle."""
    w = _Work(s, die)
    g = _member(w, player)
    if g.stage is not Stage.MEMBER_ANSWERS:
        raise ChouetteError(Code.NOTHING_TO_ANSWER)
    options = s.options
    pending = [c.member for c in g.cubes if c.offer is Offer.BY_BOX]
    own = player in pending
    proxied = [m for m in pending if m in (g.away | g.follow)] if player == g.acting else []
    if not own and not proxied:
        raise ChouetteError(Code.NOTHING_TO_ANSWER)
    waiting = [m for m in pending if m not in (g.away | g.follow) and m != player]
    if own and options.answer_order is AnswerOrder.LINE_TO_CAPTAIN:
        behind = [m for m in waiting if g.team.index(m) > g.team.index(player)]
        if behind:
            raise ChouetteError(Code.WAIT_LINE, member=s.name(behind[-1]))
    alone = False
    if own and options.captain_must_beaver and player == g.acting:
        if waiting:
            raise ChouetteError(Code.CAPTAIN_LAST)
        alone = not any(a is not Answer.DROP for m, a in g.answers if m != player)
        if alone and answer is Answer.TAKE:
            raise ChouetteError(Code.MUST_BEAVER)
    if answer is Answer.BEAVER:
        if not (options.beavers or alone):
            raise ChouetteError(Code.BEAVERS_OFF)
        if own and g.cube(player).value * 4 > MAX_CUBE:
            raise ChouetteError(Code.CUBE_AT_MAXIMUM)
    if own:
        w.answer_cube(player, answer, Side.TEAM, player)
    followed = Answer.TAKE if answer is Answer.BEAVER else answer
    for member in proxied:
        w.emit(Kind.FOLLOWED, player=member)
        w.answer_cube(member, followed, Side.TEAM, player)
    w.set_game(answers=(*w.g.answers, (player, answer)))
    w.after_answers(Side.BOX)
    return w.done()


def follow_captain(s: Chouette, members: Sequence[int], die: Die) -> Applied:
    """Members idle when doubled follow the captain (a session's clock decides who is
    idle): at once if the captain has answered, else with the captain's answer."""
    w = _Work(s, die)
    g = w.g
    if g.stage is not Stage.MEMBER_ANSWERS:
        raise ChouetteError(Code.NOT_NOW)
    idle = [
        c.member
        for c in g.cubes
        if c.offer is Offer.BY_BOX and c.member in members and c.member != g.acting
    ]
    if not idle:
        raise ChouetteError(Code.NOTHING_TO_ANSWER)
    given = dict(g.answers).get(g.acting)
    w.set_game(follow=g.follow | set(idle))
    for member in idle:
        w.emit(Kind.FOLLOWED, player=member)
        if given is not None:
            followed = Answer.TAKE if given is Answer.BEAVER else given
            w.answer_cube(member, followed, Side.TEAM, g.acting)
    w.after_answers(Side.BOX)
    return w.done()


def move(s: Chouette, player: int, play: Play | str, die: Die | None = None) -> Applied:
    """The box, or the captain for the team, plays the roll (the engine's rules)."""
    w = _Work(s, die)
    _seated(s, player)
    g = w.g
    mover = g.to_move
    if mover is None:
        raise ChouetteError(Code.NOT_NOW)
    if player != mover:
        raise ChouetteError(Code.NOT_THE_CAPTAIN, captain=s.name(mover))
    board = g.board
    dice = board.dice or ()
    after = board.play(play) if isinstance(play, Play) else board.move(play)
    w.set_game(board=after, advice=())
    w.emit(Kind.MOVED, player=player, play=str(after.last_play), dice=dice)
    if after.phase is Phase.OVER:
        w.finish()
    else:
        w.enter_turn()
    return w.done()


def advise(s: Chouette, player: int, text: str) -> Applied:
    """A member's suggestion to the captain, as the session's consultation rule allows
    (C7): only the captain will read it."""
    w = _Work(s, None)
    g = _member(w, player)
    rule = s.options.consultation
    cube = g.cube(player)
    if rule is Consultation.NONE or player == g.acting or not cube.in_play:
        raise ChouetteError(Code.NO_ADVICE)
    if rule is Consultation.CUBE_TURNED and not cube.turned:
        raise ChouetteError(Code.NO_ADVICE)
    team_moves = g.stage is Stage.MOVE and g.board.on_roll == Side.TEAM
    cube_decision = g.stage in (Stage.WINDOW, Stage.MEMBER_ANSWERS)
    if not (team_moves or (rule is Consultation.FULL and cube_decision)):
        raise ChouetteError(Code.NOT_NOW)
    words = " ".join(text.split())
    if not words or len(words) > ADVICE_LIMIT:
        raise ChouetteError(Code.ADVICE_TEXT, most=ADVICE_LIMIT)
    advice = (*((m, t) for m, t in g.advice if m != player), (player, words))
    w.set_game(advice=advice)
    w.emit(Kind.ADVICE, player=player)
    return w.done()


def leave(s: Chouette, player: int, die: Die | None = None) -> Applied:
    """Leave the session. Before the first game, or while waiting to come in, simply
    leave; during a game a member's cube follows the captain's decisions until the game
    is over, and a box that leaves loses every cube in play at its value, the captain
    becoming the box."""
    _seated(s, player)
    w = _Work(s, die)
    w.emit(Kind.LEFT, player=player)
    if s.status is Status.OPEN or player in s.waiting:
        waiting = tuple(p for p in s.waiting if p != player)
        w.s = dataclasses.replace(s, waiting=waiting)
        if s.status is Status.OPEN and not waiting:
            w.s = dataclasses.replace(w.s, status=Status.ENDED)
            w.emit(Kind.ENDED)
        return w.done()
    w.s = dataclasses.replace(s, leaving=s.leaving | {player})
    g = w.g
    if player == g.box:
        w.box_left()
        if w.g.captain_won is None:
            w.set_game(captain_won=True)
        w.finish(box_left=True)
        return w.done()
    if not g.has(player):
        return w.done()  # the box's partner: their share is settled after the game
    w.set_game(away=g.away | {player})
    g = w.g
    cube = g.cube(player)
    if g.stage is Stage.MEMBER_ANSWERS and cube.offer is Offer.BY_BOX:
        given = dict(g.answers).get(g.acting)
        if given is not None and player != g.acting:
            w.emit(Kind.FOLLOWED, player=player)
            followed = Answer.TAKE if given is Answer.BEAVER else given
            w.answer_cube(player, followed, Side.TEAM, g.acting)
    w.check_acting()
    if not w.g.in_play:
        w.finish()
    elif w.g.stage is Stage.MEMBER_ANSWERS:
        w.after_answers(Side.BOX)
    return w.done()


def end(s: Chouette, player: int | None) -> Applied:
    """End the session: a game in play is given up with no result (its cubes unpaid)."""
    if s.status is Status.ENDED:
        raise ChouetteError(Code.SESSION_OVER)
    w = _Work(s, None)
    if s.game is not None and not s.game.over and s.status is Status.PLAYING:
        w.emit(Kind.VOIDED)
    w.s = dataclasses.replace(s, status=Status.ENDED, moment=s.moment + 1)
    w.emit(Kind.ENDED, player=player)
    return w.done()


# --- the computer's views -----------------------------------------------------------------


def cube_view(s: Chouette, member: int, *, doubled: bool = False) -> Game:
    """The board with ``member``'s cube beside it, as a money game between the box (player
    0) and that member (player 1): what the computer evaluates for that cube, the way GNU
    Backgammon gives its evaluator a ``cubeinfo`` beside the board. ``doubled``: with the
    cube's pending double offered by the player on roll."""
    g = s.game
    assert g is not None
    cube = g.cube(member)
    options = MatchOptions(jacoby=s.options.jacoby, beavers=s.options.beavers)
    owner = None if cube.owner is None else int(cube.owner)
    view = dataclasses.replace(g.board, options=options, cube=cube.value, cube_owner=owner)
    if doubled:
        view = dataclasses.replace(view, phase=Phase.DOUBLED)
    return view


Verb = Callable[..., Applied]

__all__ = [
    "ADVICE_LIMIT",
    "Applied",
    "Verb",
    "advise",
    "answer_box",
    "answer_member",
    "begin",
    "can_double",
    "cube_view",
    "double",
    "end",
    "follow_captain",
    "join",
    "leave",
    "move",
    "no_double",
    "roll",
    "rolls_for_team",
    "window_decided",
]
