"""The computer opponent's brain: checker plays, cube decisions, hints and game analysis.

Discord-free and database-free: everything here takes engine values (a
:class:`~bot.engine.Game`) and returns engine values (a :class:`~bot.engine.Play`, a bool,
small frozen dataclasses). The evaluation itself sits behind the :class:`Evaluator`
protocol; :class:`BgsageEvaluator` implements it with the bgsage (Open Sage) neural network.

bgsage ships wheels only for Linux x86-64, macOS on Apple silicon and Windows, so it is
imported lazily: importing this module never fails without it. Ask
:func:`computer_available` first; without bgsage the first evaluation raises
:class:`ComputerUnavailableError`, whose text is :data:`UNAVAILABLE_MESSAGE`.

Every method that evaluates is synchronous CPU work. Measured with
``benchmarks/computer.py`` on the 2-core development machine: at 1-ply (beginner to expert)
a checker play takes 2 ms at the median and under 10 ms at p99, a cube decision 26-40 ms
(p99 under 50 ms); at 2-ply (world-class) a checker play takes 6-8 ms at the median and
under 40 ms at p99, because only the best few plays at 1-ply are searched at 2-ply (see
:class:`BgsageEvaluator`; searching them all took up to 0.5 s). Run it in a worker process
(:mod:`bot.workers`) or at least a worker thread, never on the event loop: bgsage's C++
holds the GIL while it runs.

Equities are normalized to the cube (+1 = winning the cube's value), for the player named in
each docstring; in match play they are match-winning chances expressed the same way (EMG).

>>> from bot.engine import Game
>>> computer = ComputerPlayer("expert", seed=1)
>>> game = Game.new().opening_roll(3, 1)
>>> str(computer.choose_play(game))  # doctest: +SKIP
'8/5 6/5'
"""

from __future__ import annotations

import random
import threading
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, Literal, Protocol

from bot.engine import Dice, Game, NotAllowedNowError, Phase, Play, Position
from bot.errors import UserError

__all__ = [
    "BLUNDER_THRESHOLD",
    "DEFAULT_LEVEL",
    "LEVELS",
    "UNAVAILABLE_MESSAGE",
    "BgsageEvaluator",
    "ComputerPlayer",
    "ComputerUnavailableError",
    "CubeAction",
    "CubeContext",
    "CubeDecision",
    "CubeEquities",
    "CubeHint",
    "Decision",
    "Evaluator",
    "Level",
    "Mistake",
    "PlayHint",
    "PlayerAnalysis",
    "RankedResult",
    "WinChances",
    "analyze",
    "computer_available",
]

UNAVAILABLE_MESSAGE = (
    "The computer opponent isn't available on this server: its engine (bgsage) runs only on "
    "Linux x86-64, macOS on Apple silicon and Windows. Challenge a person instead."
)

# Equity lost above which a decision counts as a blunder (GNU Backgammon calls 0.08 "bad").
BLUNDER_THRESHOLD = 0.08
# GNU Backgammon counts a no-double decision only when doubling was less than this bad.
CLOSE_CUBE_THRESHOLD = 0.16
# Smaller losses are rounding noise, not mistakes worth showing.
MISTAKE_FLOOR = 0.001


class ComputerUnavailableError(UserError):
    """bgsage cannot be imported here, so there is no computer opponent."""

    def __init__(self, message: str = UNAVAILABLE_MESSAGE) -> None:
        super().__init__(message)


@cache
def _bgsage() -> Any:
    """The bgsage module, imported once; raises ComputerUnavailableError without it."""
    try:
        import bgsage
    except Exception as exc:  # ImportError, or OSError from a wheel for another platform
        raise ComputerUnavailableError() from exc
    return bgsage


def computer_available() -> bool:
    """Whether bgsage can be imported, i.e. whether the computer opponent can play."""
    try:
        _bgsage()
    except ComputerUnavailableError:
        return False
    return True


# --- values --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WinChances:
    """Cubeless chances for one player: wins and gammons/backgammons counted cumulatively."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def lose(self) -> float:
        return 1.0 - self.win


@dataclass(frozen=True, slots=True)
class CubeContext:
    """The cube and the score as one player sees them; every equity depends on it.

    ``owner`` is relative to that player. ``away`` is how many points (that player, the
    opponent) still need; ``(0, 0)`` is a money game. ``live`` is False when the options
    turn the cube off, so equities are cubeless.
    """

    cube: int = 1
    owner: Literal["centered", "player", "opponent"] = "centered"
    away: tuple[int, int] = (0, 0)
    crawford: bool = False
    live: bool = True
    jacoby: bool = False
    beavers: bool = False

    @property
    def is_money(self) -> bool:
        return self.away == (0, 0)

    @classmethod
    def for_game(cls, game: Game, player: int | None = None) -> CubeContext:
        """The context of ``game`` for ``player`` (default: the player on roll)."""
        me = game.on_roll if player is None else player
        options = game.options
        if game.cube_owner is None:
            owner: Literal["centered", "player", "opponent"] = "centered"
        else:
            owner = "player" if game.cube_owner == me else "opponent"
        away = (
            (options.length - game.score[me], options.length - game.score[1 - me])
            if options.length
            else (0, 0)
        )
        return cls(
            cube=game.cube,
            owner=owner,
            away=away,
            crawford=game.crawford,
            live=options.cube,
            jacoby=options.jacoby,
            beavers=options.beavers,
        )


@dataclass(frozen=True, slots=True)
class RankedResult:
    """One legal result with its equity for the player who moved."""

    result: Position
    equity: float
    chances: WinChances | None = None


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """Cubeful equities for the player on roll before rolling, normalized to the cube now.

    ``double_take`` assumes a plain take (the receiver owns the cube at twice the value); a
    beaver is worth twice that in a money game. With a dead cube only ``no_double`` means
    anything.
    """

    no_double: float
    double_take: float
    double_pass: float
    chances: WinChances | None = None


class Evaluator(Protocol):
    """What the computer needs from a backgammon engine; another engine can replace bgsage.

    Implementations must be safe to call from several threads at once.
    """

    def rank_plays(
        self,
        position: Position,
        dice: Dice,
        results: Sequence[Position],
        context: CubeContext,
        *,
        force: Collection[Position] = (),
    ) -> list[RankedResult]:
        """Every result in ``results`` exactly once, best first, with its equity.

        ``position`` is seen by the player on roll, each result by the same player after
        moving (the layout of :meth:`Position.apply`); equities are for that player.
        ``force`` lists results that must be evaluated at full strength even if a search
        would prune them (analysis passes the play actually made).
        """
        ...

    def cube_equities(self, position: Position, context: CubeContext) -> CubeEquities:
        """No double / double-take / double-pass for the player on roll in ``position``."""
        ...


# --- the bgsage evaluator -------------------------------------------------------------------


def _chances(probs: Any) -> WinChances:
    return WinChances(
        win=float(probs.win),
        win_gammon=float(probs.gammon_win),
        win_backgammon=float(probs.backgammon_win),
        lose_gammon=float(probs.gammon_loss),
        lose_backgammon=float(probs.backgammon_loss),
    )


class BgsageEvaluator:
    """:class:`Evaluator` backed by bgsage's ``BgBotAnalyzer`` at ``plies`` (1 = raw network).

    Boards need no conversion: :class:`Position` uses bgsage's 26-integer layout, a result
    of :meth:`Position.apply` is exactly bgsage's post-move board (seen by the mover, the
    hit checkers on ``board[0]``), and a position before the roll is its cube-action board.

    Plays are ranked with ``checker_play`` on the position before the move, never with
    ``post_move_analytics`` on each result: bgsage picks the network for a game plan from
    the board it is given, so post-move equities (routed by the result) differ from
    checker_play's (routed by the position before the move) by up to 0.35 at 1-ply and
    would pick another play about one time in six.

    At 2 plies and more with a live cube, bgsage's ``checker_play`` searches *every* legal
    play at full depth (a cube-aware tree per play), so its time grows with the number of
    plays: 0.3-0.5 s for a double with a hundred or more. Like GNU Backgammon's move
    filters, the plays are first ranked at 1-ply and only the best ``candidates`` within
    ``threshold`` of the best (and any forced ones) are searched deeper, each exactly as
    ``checker_play`` would (the same tree, the same root); the rest keep their 1-ply
    equities and rank after them. Positions with no more plays than ``candidates`` go to
    ``checker_play`` whole.

    Thread-safe: one lock serializes the calls into one shared analyzer (bgsage already
    spreads a 2-ply search over every core). Use :meth:`shared` to load the weights once.
    """

    CANDIDATES = 8  # GNU Backgammon's default filter before its 2-ply: 8 plays within 0.16
    THRESHOLD = 0.16

    _instances: dict[int, BgsageEvaluator] = {}  # noqa: RUF012 (a cache, guarded below)
    _instances_lock = threading.Lock()

    def __init__(
        self, plies: int = 1, *, candidates: int | None = None, threshold: float | None = None
    ) -> None:
        if plies not in (1, 2, 3, 4):
            raise ValueError(f"bgsage evaluates at 1 to 4 plies, not {plies}")
        self.candidates = self.CANDIDATES if candidates is None else candidates
        self.threshold = self.THRESHOLD if threshold is None else threshold
        bgsage = _bgsage()
        import bgbot_cpp  # bgsage's native module: match equity helpers

        self.plies = plies
        self._cpp = bgbot_cpp
        self._level = f"{plies}ply"
        self._cubeful = bgsage.BgBotAnalyzer(eval_level=self._level, cubeful=True)
        self._cubeless: Any = None  # built on first use, for games with the cube off
        self._lock = threading.Lock()

    @classmethod
    def shared(cls, plies: int = 1) -> BgsageEvaluator:
        """The process-wide evaluator for ``plies`` (created on first use)."""
        with cls._instances_lock:
            evaluator = cls._instances.get(plies)
            if evaluator is None:
                evaluator = cls._instances[plies] = cls(plies)
            return evaluator

    def __repr__(self) -> str:
        return f"<BgsageEvaluator {self.plies}-ply>"

    # --- Evaluator ---------------------------------------------------------------------

    def rank_plays(
        self,
        position: Position,
        dice: Dice,
        results: Sequence[Position],
        context: CubeContext,
        *,
        force: Collection[Position] = (),
    ) -> list[RankedResult]:
        wanted = {result.board: result for result in results}
        if not wanted:
            return []
        if self.plies > 1 and context.live and len(wanted) > self.candidates:
            pruned = self._rank_pruned(position, dice, list(wanted.values()), context, force)
            if pruned is not None:
                return pruned
        forced = [list(result.board) for result in force if result.board in wanted]
        with self._lock:
            analyzer = self._analyzer(context)
            analysis = analyzer.checker_play(
                position.to_board(),
                dice[0],
                dice[1],
                **self._checker_kwargs(context),
                force_boards=forced or None,
            )
            ranked: list[RankedResult] = []
            for move in analysis.moves:
                result = wanted.pop(tuple(move.board), None)
                if result is not None:
                    equity = self._play_equity(move.equity, move.probs, context)
                    ranked.append(RankedResult(result, equity, _chances(move.probs)))
            # The engines agree on every legal play we have tested; a result only ours
            # allows (its rules follow GNU Backgammon) is valued on its own instead.
            missing = [self._post_move(result, context) for result in wanted.values()]
        if missing or not context.live:
            # A stable sort: bgsage's own order (ties broken on cubeless equity) survives.
            ranked.extend(missing)
            ranked.sort(key=lambda item: -item.equity)
        return ranked

    def cube_equities(self, position: Position, context: CubeContext) -> CubeEquities:
        with self._lock:
            # Beavers are the caller's business: a beaver is worth twice a plain take.
            analysis = self._cubeful.cube_action(
                position.to_board(), **self._cube_kwargs(context), beaver=False
            )
        chances = _chances(analysis.probs)
        if not context.live:
            equity = self._cubeless_equity(float(analysis.cubeless_equity), analysis.probs, context)
            return CubeEquities(equity, equity, equity, chances)
        return CubeEquities(
            no_double=float(analysis.equity_nd),
            double_take=float(analysis.equity_dt),
            double_pass=float(analysis.equity_dp),
            chances=chances,
        )

    # --- internals ---------------------------------------------------------------------

    def _rank_pruned(
        self,
        position: Position,
        dice: Dice,
        results: Sequence[Position],
        context: CubeContext,
        force: Collection[Position],
    ) -> list[RankedResult] | None:
        """The best plays at 1-ply searched deeper, the rest after them at 1-ply; None when
        bgsage's internals are not the ones this was written against."""
        first = BgsageEvaluator.shared(1).rank_plays(position, dice, results, context)
        best = first[0].equity
        forced = {result.board for result in force}
        deep = [
            item
            for index, item in enumerate(first)
            if (index < self.candidates and best - item.equity <= self.threshold)
            or item.result.board in forced
        ]
        searched = self._deep_cubeful(position, [item.result for item in deep], context)
        if searched is None:
            return None
        searched.sort(key=lambda item: -item.equity)
        done = {item.result.board for item in deep}
        return searched + [item for item in first if item.result.board not in done]

    def _deep_cubeful(
        self, position: Position, results: Sequence[Position], context: CubeContext
    ) -> list[RankedResult] | None:
        """Each result at this many plies, cubeful, as bgsage's ``checker_play`` values a
        candidate (``_CubefulAnalyzer.checker_play_analytics``): the opponent's cube-aware
        tree from the flipped board, routed by the position before the move."""
        try:
            from bgsage import analyzer as internals

            inner = self._cubeful._analyzer._inner
            strategy = inner._strategy_1ply
            bearoff = getattr(inner, "_bearoff_db", None)
            their_owner = internals._FLIP_OWNER[internals.resolve_owner(context.owner)]
            search = self._cpp.cubeful_probs_and_equity_nply
            flip = self._cpp.flip_board
        except (AttributeError, ImportError, KeyError, TypeError):
            return None
        money = context.is_money
        root = position.to_board()
        out = []
        with self._lock:
            for result in results:
                r = search(
                    flip(result.to_board()),
                    their_owner,
                    strategy,
                    self.plies,
                    n_threads=1,
                    cube_value=context.cube,
                    away1=context.away[1],
                    away2=context.away[0],
                    is_crawford=context.crawford,
                    jacoby=context.jacoby and money,
                    beaver=context.beavers and money,
                    bearoff_db=bearoff,
                    root_board=root,
                )
                theirs = r["probs"]  # the opponent's: win, win g, win bg, lose g, lose bg
                chances = WinChances(
                    win=1.0 - float(theirs[0]),
                    win_gammon=float(theirs[3]),
                    win_backgammon=float(theirs[4]),
                    lose_gammon=float(theirs[1]),
                    lose_backgammon=float(theirs[2]),
                )
                out.append(RankedResult(result, -float(r["equity"]), chances))
        return out

    def _analyzer(self, context: CubeContext) -> Any:
        if context.live:
            return self._cubeful
        if self._cubeless is None:
            self._cubeless = _bgsage().BgBotAnalyzer(eval_level=self._level, cubeful=False)
        return self._cubeless

    @staticmethod
    def _cube_kwargs(context: CubeContext) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "cube_value": context.cube,
            "cube_owner": context.owner,
            "jacoby": context.jacoby,
        }
        if not context.is_money:
            kwargs.update(away1=context.away[0], away2=context.away[1])
            kwargs["is_crawford"] = context.crawford
        return kwargs

    def _checker_kwargs(self, context: CubeContext) -> dict[str, Any]:
        kwargs = self._cube_kwargs(context)
        kwargs["beaver"] = context.beavers
        if not context.live:
            kwargs["cube_owner"] = ""  # no cube at all: the search filters on cubeless equity
        return kwargs

    def _play_equity(self, equity: float, probs: Any, context: CubeContext) -> float:
        if context.live:
            return float(equity)
        return self._cubeless_equity(float(equity), probs, context)

    def _cubeless_equity(self, equity: float, probs: Any, context: CubeContext) -> float:
        """Cubeless equity; in a match, the match-winning chances of ``probs`` as equity."""
        if context.is_money:
            return equity
        away1, away2 = context.away
        mwc = self._cpp.cubeless_mwc(probs.to_list(), away1, away2, 1, context.crawford)
        return float(self._cpp.mwc2eq(mwc, away1, away2, 1, context.crawford))

    def _post_move(self, result: Position, context: CubeContext) -> RankedResult:
        kwargs = self._cube_kwargs(context)
        analysis = self._analyzer(context).post_move_analytics(result.to_board(), **kwargs)
        if context.live:
            equity = float(analysis.cubeful_equity)
        else:
            equity = self._cubeless_equity(float(analysis.cubeless_equity), analysis.probs, context)
        return RankedResult(result, equity, _chances(analysis.probs))


# --- levels ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """How strong the computer plays: search depth, and noise added to every equity.

    The ladder follows GNU Backgammon's (its 0-ply is bgsage's 1-ply): the noise is the
    standard deviation of a normal error added to each candidate's equity.
    """

    name: str
    plies: int
    noise: float


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", 1, 0.060),
        Level("intermediate", 1, 0.040),
        Level("advanced", 1, 0.015),
        Level("expert", 1, 0.0),
        Level("world-class", 2, 0.0),
    )
}
DEFAULT_LEVEL = "expert"


def _level(level: str | Level) -> Level:
    if isinstance(level, Level):
        return level
    try:
        return LEVELS[level.strip().lower().replace(" ", "-").replace("_", "-")]
    except KeyError:
        names = ", ".join(LEVELS)
        raise ValueError(f"{level!r} is not a computer level; choose one of {names}") from None


# --- cube logic -----------------------------------------------------------------------------


class CubeDecision(StrEnum):
    """A cube action as a decision someone made (the input to :func:`analyze`)."""

    NO_DOUBLE = "no_double"  # rolled without doubling
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


Decision = Play | CubeDecision


class CubeAction(StrEnum):
    """The proper cube action, in GNU Backgammon's words."""

    NO_DOUBLE_TAKE = "No double, take"
    NO_DOUBLE_BEAVER = "No double, beaver"
    DOUBLE_TAKE = "Double, take"
    DOUBLE_BEAVER = "Double, beaver"
    DOUBLE_PASS = "Double, pass"
    TOO_GOOD_TAKE = "Too good to double, take"
    TOO_GOOD_PASS = "Too good to double, pass"
    NO_DOUBLE = "No double"  # the cube cannot be turned now


def _beaver_value(double_take: float) -> float:
    # After a beaver the doubler takes the redouble (twice the take) or drops it (-2).
    return max(2.0 * double_take, -2.0)


def _responses(equities: CubeEquities, beavers: bool) -> dict[CubeDecision, float]:
    """The doubler's equity after each answer the receiver may give (the receiver minimizes)."""
    options = {
        CubeDecision.TAKE: equities.double_take,
        CubeDecision.DROP: equities.double_pass,
    }
    if beavers:
        options[CubeDecision.BEAVER] = _beaver_value(equities.double_take)
    return options


def _best_response(options: dict[CubeDecision, float]) -> CubeDecision:
    return min(options, key=options.__getitem__)  # ties go to the take, listed first


def _proper_action(equities: CubeEquities, beavers: bool) -> CubeAction:
    options = _responses(equities, beavers)
    response = _best_response(options)
    if options[response] > equities.no_double:
        return {
            CubeDecision.TAKE: CubeAction.DOUBLE_TAKE,
            CubeDecision.BEAVER: CubeAction.DOUBLE_BEAVER,
        }.get(response, CubeAction.DOUBLE_PASS)
    if equities.no_double >= equities.double_pass:
        if response is CubeDecision.DROP:
            return CubeAction.TOO_GOOD_PASS
        return CubeAction.TOO_GOOD_TAKE
    if response is CubeDecision.BEAVER:
        return CubeAction.NO_DOUBLE_BEAVER
    return CubeAction.NO_DOUBLE_TAKE


# --- hints ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayHint:
    """A candidate play for the player on roll, ``difference`` behind the best (0 or less)."""

    play: Play
    equity: float
    difference: float
    chances: WinChances | None = None

    @property
    def notation(self) -> str:
        return str(self.play)


@dataclass(frozen=True, slots=True)
class CubeHint:
    """The cube decision before a roll; equities are for the player on roll (the doubler).

    ``double_take``, ``double_beaver`` and ``double_pass`` are None when the cube cannot be
    turned now (``refusal`` says why) or beavers are not allowed.
    """

    action: CubeAction
    no_double: float
    double_take: float | None
    double_pass: float | None
    double_beaver: float | None = None
    chances: WinChances | None = None
    redouble: bool = False
    refusal: str | None = None

    @property
    def double(self) -> bool:
        """Whether the player on roll should double."""
        return self.action in (
            CubeAction.DOUBLE_TAKE,
            CubeAction.DOUBLE_BEAVER,
            CubeAction.DOUBLE_PASS,
        )

    @property
    def take(self) -> bool:
        """Whether a double should be taken (or beavered)."""
        return self.action not in (CubeAction.DOUBLE_PASS, CubeAction.TOO_GOOD_PASS)

    @property
    def beaver(self) -> bool:
        return self.action in (CubeAction.DOUBLE_BEAVER, CubeAction.NO_DOUBLE_BEAVER)

    @property
    def text(self) -> str:
        """The action as GNU Backgammon writes it ("Redouble, take" when the cube is owned)."""
        text = str(self.action)
        if self.redouble:
            text = text.replace("double", "redouble").replace("Double", "Redouble")
        return text


# --- analysis -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mistake:
    """One decision that lost equity, with what to render: the game before it."""

    player: int
    game: Game
    decision: Decision
    made: str
    best: str
    equity_lost: float
    kind: Literal["checker", "cube"]
    position_id: str


@dataclass(frozen=True, slots=True)
class PlayerAnalysis:
    """How well one player played, GNU Backgammon style (normalized equity, millipoints).

    A decision counts only when there was a real choice: a checker play with more than one
    legal play, every double, take, drop and beaver, and a roll without doubling only when
    doubling was close (less than 0.16 worse) or right.
    """

    player: int
    checker_decisions: int = 0
    checker_error: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    blunders: int = 0
    mistakes: tuple[Mistake, ...] = ()  # the biggest three, biggest first

    @property
    def decisions(self) -> int:
        return self.checker_decisions + self.cube_decisions

    @property
    def total_error(self) -> float:
        """Equity lost over all decisions."""
        return self.checker_error + self.cube_error

    @property
    def total_millipoints(self) -> float:
        return 1000.0 * self.total_error

    @property
    def error_rate(self) -> float:
        """Millipoints lost per decision (GNU Backgammon's error rate)."""
        return self.total_millipoints / self.decisions if self.decisions else 0.0

    @property
    def rating(self) -> str:
        """GNU Backgammon's name for the error rate."""
        rate = self.error_rate
        for limit, name in _RATINGS:
            if rate < limit:
                return name
        return "Awful!"


_RATINGS = (
    (2.0, "Supernatural"),
    (5.0, "World class"),
    (8.0, "Expert"),
    (12.0, "Advanced"),
    (18.0, "Intermediate"),
    (26.0, "Casual player"),
    (35.0, "Beginner"),
)


@dataclass(slots=True)
class _Tally:
    player: int
    checker_decisions: int = 0
    checker_error: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    blunders: int = 0
    mistakes: list[Mistake] = field(default_factory=list)


# --- the player -----------------------------------------------------------------------------


class ComputerPlayer:
    """A computer opponent at one :class:`Level`, with a seedable source for its noise.

    Hints and analysis never add noise: they use the level's search depth only, so ask a
    strong level (``"expert"`` or ``"world-class"``) for them. A player may be shared by
    threads; seeded choices repeat exactly only when it is used from one thread at a time.
    """

    def __init__(
        self,
        level: str | Level = DEFAULT_LEVEL,
        *,
        seed: int | None = None,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.level = _level(level)
        self.random = random.Random(seed)
        self._evaluator = evaluator

    def __repr__(self) -> str:
        return f"<ComputerPlayer {self.level.name}>"

    @property
    def evaluator(self) -> Evaluator:
        """The evaluator; bgsage's shared one unless another was given."""
        if self._evaluator is None:
            self._evaluator = BgsageEvaluator.shared(self.level.plies)
        return self._evaluator

    def _noise(self) -> float:
        noise = self.level.noise
        return self.random.normalvariate(0.0, noise) if noise else 0.0

    # --- playing ------------------------------------------------------------------------

    def choose_play(self, game: Game) -> Play:
        """The play to make in ``game`` (Phase.MOVE), always one of the engine's legal plays.

        A forced pass is the empty play and a single legal play needs no evaluation.
        Synchronous CPU work: call it from a worker thread.
        """
        plays = game.legal_plays()
        if plays.is_forced_pass:
            return Play(())
        if len(plays) == 1:
            return next(iter(plays))
        assert game.dice is not None
        ranked = [
            item
            for item in self.evaluator.rank_plays(
                game.position, game.dice, plays.results(), CubeContext.for_game(game)
            )
            if item.result in plays
        ]
        if not ranked:
            raise RuntimeError(f"the evaluator ranked none of the legal plays in {game!r}")
        if self.level.noise:
            best = max(ranked, key=lambda item: item.equity + self._noise())
        else:
            best = ranked[0]
        play = plays.play_for(best.result)
        assert play is not None
        return play

    def should_double(self, game: Game) -> bool:
        """Whether the player on roll (the computer) doubles now, before rolling.

        False whenever the rules forbid it (``game.can_double()``): the Crawford game, a
        1-point match, a dead cube, the opponent's cube, the cube off.
        Synchronous CPU work: call it from a worker thread.
        """
        if game.phase is not Phase.ROLL or not game.can_double():
            return False
        context = CubeContext.for_game(game)
        equities = self.evaluator.cube_equities(game.position, context)
        equities = CubeEquities(
            no_double=equities.no_double + self._noise(),
            double_take=equities.double_take + self._noise(),
            double_pass=equities.double_pass,
        )
        options = _responses(equities, context.beavers)
        return options[_best_response(options)] > equities.no_double

    def cube_response(self, game: Game) -> CubeDecision:
        """The computer's answer to a pending double: TAKE, DROP or BEAVER.

        The computer is ``game.actor``: the doubled player, or after a beaver the doubler
        (who then only takes or drops). BEAVER only where the options allow it.
        Synchronous CPU work: call it from a worker thread.
        """
        if game.phase is not Phase.DOUBLED:
            raise NotAllowedNowError("There is no double to answer.")
        if game.beaver_pending:
            value = self._beaver_take_value(game) + self._noise()
            return CubeDecision.TAKE if value >= -1.0 else CubeDecision.DROP
        context = CubeContext.for_game(game)
        equities = self.evaluator.cube_equities(game.position, context)
        equities = CubeEquities(
            no_double=equities.no_double,
            double_take=equities.double_take + self._noise(),
            double_pass=equities.double_pass,
        )
        return _best_response(_responses(equities, self._beavers_allowed(game)))

    def should_take(self, game: Game) -> bool:
        """Whether the computer, answering a double, keeps playing (a take or a beaver)."""
        return self.cube_response(game) is not CubeDecision.DROP

    @staticmethod
    def _beavers_allowed(game: Game) -> bool:
        return (
            game.options.is_money
            and game.options.beavers
            and not game.beaver_pending
            and game.cube * 4 <= 1 << 15
        )

    def _beaver_take_value(self, game: Game) -> float:
        """After a beaver, the doubler's equity for taking it, per cube now (drop: -1)."""
        context = CubeContext.for_game(game)  # the beaverer owns the cube
        owned = self.evaluator.cube_equities(game.position, context)
        return 2.0 * owned.no_double

    def accepts_resignation(self, game: Game) -> bool:
        """Whether the computer accepts the pending resignation offer.

        It accepts when the offered points are at least what it expects from playing on
        (cubeless, per cube), so an offer of a single game is refused when a gammon is
        likely.
        Synchronous CPU work: call it from a worker thread.
        """
        offer = game.resignation
        if offer is None:
            raise NotAllowedNowError("There is no resignation offer to answer.")
        computer = 1 - offer.player
        chances = self.evaluator.cube_equities(game.position, CubeContext.for_game(game)).chances
        if chances is None:
            return True
        on_roll_expects = (
            chances.win
            - chances.lose
            + chances.win_gammon
            - chances.lose_gammon
            + chances.win_backgammon
            - chances.lose_backgammon
        )
        expected = on_roll_expects if computer == game.on_roll else -on_roll_expects
        offered = float(int(offer.kind))
        if game.options.is_money and game.options.jacoby and game.cube_owner is None:
            offered = 1.0  # Jacoby: a gammon with the cube centred counts single
        # A hair of tolerance: refusing a sure gammon over a 0.1% backgammon is churlish.
        return offered + 0.02 >= expected

    # --- hints --------------------------------------------------------------------------

    def hints(self, game: Game, count: int = 3) -> list[PlayHint] | CubeHint:
        """Advice for whoever acts in ``game``: plays in Phase.MOVE, the cube otherwise.

        Phase.MOVE gives the best ``count`` plays (see :meth:`play_hints`); Phase.ROLL and
        Phase.DOUBLED give the cube decision (see :meth:`cube_hint`).
        Synchronous CPU work: call it from a worker thread.
        """
        if game.phase is Phase.MOVE:
            return self.play_hints(game, count)
        return self.cube_hint(game)

    def play_hints(self, game: Game, count: int = 3) -> list[PlayHint]:
        """The best ``count`` plays for the player on roll, best first, without noise."""
        plays = game.legal_plays()
        assert game.dice is not None
        ranked = [
            item
            for item in self.evaluator.rank_plays(
                game.position, game.dice, plays.results(), CubeContext.for_game(game)
            )
            if item.result in plays
        ]
        if not ranked:
            return []
        best = ranked[0].equity
        hints: list[PlayHint] = []
        for item in ranked[: max(count, 1)]:
            play = plays.play_for(item.result)
            assert play is not None
            hints.append(PlayHint(play, item.equity, item.equity - best, item.chances))
        return hints

    def cube_hint(self, game: Game) -> CubeHint:
        """The cube decision for the player on roll, before the roll or with a double pending.

        Equities are the doubler's. When the cube cannot be turned the hint carries the
        reason and only the equity of playing on.
        """
        if game.phase not in (Phase.ROLL, Phase.DOUBLED) or game.beaver_pending:
            raise NotAllowedNowError("There is no cube decision to advise on now.")
        context = CubeContext.for_game(game)
        equities = self.evaluator.cube_equities(game.position, context)
        redouble = game.cube_owner is not None
        refusal = None if game.phase is Phase.DOUBLED else game.cube_refusal()
        if refusal is not None:
            return CubeHint(
                action=CubeAction.NO_DOUBLE,
                no_double=equities.no_double,
                double_take=None,
                double_pass=None,
                chances=equities.chances,
                redouble=redouble,
                refusal=refusal,
            )
        beavers = self._beavers_allowed(game)
        return CubeHint(
            action=_proper_action(equities, beavers),
            no_double=equities.no_double,
            double_take=equities.double_take,
            double_pass=equities.double_pass,
            double_beaver=_beaver_value(equities.double_take) if beavers else None,
            chances=equities.chances,
            redouble=redouble,
        )

    # --- analysis -----------------------------------------------------------------------

    def analyze(
        self,
        decisions: Iterable[tuple[Game, Decision]],
        *,
        players: Collection[int] = (0, 1),
        blunder_threshold: float = BLUNDER_THRESHOLD,
    ) -> dict[int, PlayerAnalysis]:
        """Error rates, blunders and biggest mistakes of ``players`` over ``decisions``.

        Each decision is the game just before it and what was decided: the :class:`Play`
        made (Phase.MOVE), or a :class:`CubeDecision` — NO_DOUBLE or DOUBLE in Phase.ROLL,
        TAKE, DROP or BEAVER in Phase.DOUBLED. Decisions may span several games of a
        match. Evaluated without noise at this player's level; deterministic.
        Synchronous CPU work (one evaluation per decision): call it from a worker thread.
        """
        tallies = {player: _Tally(player) for player in players}
        for game, decision in decisions:
            actor = game.actor
            if actor is None or actor not in tallies:
                continue
            tally = tallies[actor]
            if isinstance(decision, Play):
                self._analyze_play(tally, game, decision, blunder_threshold)
            else:
                self._analyze_cube(tally, game, CubeDecision(decision), blunder_threshold)
        return {
            player: PlayerAnalysis(
                player=player,
                checker_decisions=tally.checker_decisions,
                checker_error=tally.checker_error,
                cube_decisions=tally.cube_decisions,
                cube_error=tally.cube_error,
                blunders=tally.blunders,
                mistakes=tuple(
                    sorted(tally.mistakes, key=lambda mistake: -mistake.equity_lost)[:3]
                ),
            )
            for player, tally in tallies.items()
        }

    def _analyze_play(self, tally: _Tally, game: Game, play: Play, blunder: float) -> None:
        if game.phase is not Phase.MOVE or game.dice is None:
            raise ValueError(f"a checker play needs a game waiting for a move, not {game!r}")
        plays = game.legal_plays()
        if len(plays) < 2:
            return
        made = game.position.apply(play)
        if made not in plays:
            raise ValueError(f"{play} is not legal with {game.dice[0]}-{game.dice[1]}")
        ranked = self.evaluator.rank_plays(
            game.position, game.dice, plays.results(), CubeContext.for_game(game), force=[made]
        )
        equities = {item.result.board: item.equity for item in ranked}
        best = ranked[0]
        lost = max(0.0, best.equity - equities[made.board])
        tally.checker_decisions += 1
        tally.checker_error += lost
        if lost > blunder:
            tally.blunders += 1
        if lost >= MISTAKE_FLOOR:
            best_play = plays.play_for(best.result)
            tally.mistakes.append(
                Mistake(
                    player=tally.player,
                    game=game,
                    decision=play,
                    made=str(plays.play_for(made) or play),
                    best=str(best_play),
                    equity_lost=lost,
                    kind="checker",
                    position_id=game.position_id(),
                )
            )

    def _analyze_cube(
        self, tally: _Tally, game: Game, decision: CubeDecision, blunder: float
    ) -> None:
        word = "Redouble" if game.cube_owner is not None else "Double"
        if decision in (CubeDecision.NO_DOUBLE, CubeDecision.DOUBLE):
            if game.phase is not Phase.ROLL:
                raise ValueError(f"{decision} needs a game before the roll, not {game!r}")
            if not game.can_double():
                if decision is CubeDecision.DOUBLE:
                    raise ValueError(f"doubling is not allowed in {game!r}")
                return
            context = CubeContext.for_game(game)
            equities = self.evaluator.cube_equities(game.position, context)
            options = _responses(equities, context.beavers)
            doubled = options[_best_response(options)]
            best = max(doubled, equities.no_double)
            if decision is CubeDecision.NO_DOUBLE:
                if equities.no_double - doubled >= CLOSE_CUBE_THRESHOLD:
                    return  # not a close decision: GNU Backgammon does not count it
                lost, made, better = best - equities.no_double, f"No {word.lower()}", word
            else:
                lost, made, better = best - doubled, word, f"No {word.lower()}"
        else:
            if game.phase is not Phase.DOUBLED:
                raise ValueError(f"{decision} needs a pending double, not {game!r}")
            if game.beaver_pending:
                if decision not in (CubeDecision.TAKE, CubeDecision.DROP):
                    raise ValueError("after a beaver the doubler can only take or drop")
                values = {
                    CubeDecision.TAKE: self._beaver_take_value(game),
                    CubeDecision.DROP: -1.0,
                }
                best_choice = max(values, key=values.__getitem__)
                lost = values[best_choice] - values[decision]
            else:
                equities = self.evaluator.cube_equities(game.position, CubeContext.for_game(game))
                values = _responses(equities, self._beavers_allowed(game))
                if decision not in values:
                    raise ValueError(f"{decision} is not allowed in {game!r}")
                best_choice = _best_response(values)
                lost = values[decision] - values[best_choice]  # the receiver minimizes
            made, better = _CUBE_WORDS[decision], _CUBE_WORDS[best_choice]
        lost = max(0.0, lost)
        tally.cube_decisions += 1
        tally.cube_error += lost
        if lost > blunder:
            tally.blunders += 1
        if lost >= MISTAKE_FLOOR:
            tally.mistakes.append(
                Mistake(
                    player=tally.player,
                    game=game,
                    decision=decision,
                    made=made,
                    best=better,
                    equity_lost=lost,
                    kind="cube",
                    position_id=game.position_id(),
                )
            )


_CUBE_WORDS = {
    CubeDecision.TAKE: "Take",
    CubeDecision.DROP: "Drop",
    CubeDecision.BEAVER: "Beaver",
}


def analyze(
    decisions: Iterable[tuple[Game, Decision]],
    *,
    level: str | Level = DEFAULT_LEVEL,
    evaluator: Evaluator | None = None,
    players: Collection[int] = (0, 1),
    blunder_threshold: float = BLUNDER_THRESHOLD,
) -> dict[int, PlayerAnalysis]:
    """:meth:`ComputerPlayer.analyze` at ``level``: call it from a worker thread."""
    player = ComputerPlayer(level, evaluator=evaluator)
    return player.analyze(decisions, players=players, blunder_threshold=blunder_threshold)
