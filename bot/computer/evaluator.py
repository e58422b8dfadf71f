"""The evaluator: what the computer asks of a backgammon engine, and bgsage answering it.

This module and :mod:`bot.computer.rollouts` (the deeper analysis's truncated rollouts) are
the only ones that import bgsage (the Open Sage neural network). Everything else
in :mod:`bot.computer` talks to the :class:`Evaluator` protocol and the small value types
here (:class:`CubeContext` in, :class:`RankedResult` and :class:`CubeEquities` out), so
another engine, or a stub in a test, can take bgsage's place.

Equities are normalized to the cube (+1 = winning the cube's value), for the player named in
each docstring; in match play they are match-winning chances expressed the same way (EMG).

Every evaluation is synchronous CPU work: run it in a worker process (:mod:`bot.workers`) or
at least a worker thread, never on the event loop, because bgsage's C++ holds the GIL while
it runs.
"""

from __future__ import annotations

import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from bot.core.errors import Refusal, UserError
from bot.engine import Dice, Game, Position, legal_plays

# bgsage is optional: it ships wheels only for Linux x86-64, macOS on Apple silicon and
# Windows (see pyproject.toml), and elsewhere (a Raspberry Pi, say) the bot runs without a
# computer opponent. So the import is guarded: this module, and with it the whole package,
# always imports; computer_available() says whether bgsage came, and without it the first
# evaluation raises ComputerUnavailableError.
try:
    import bgbot_cpp  # bgsage's native module: match equity helpers, the n-ply search
    import bgsage
    from bgsage import analyzer as bgsage_analyzer
except Exception as exc:  # ImportError, or OSError from a wheel for another platform
    _MISSING: Exception | None = exc
else:
    _MISSING = None

__all__ = [
    "BgsageEvaluator",
    "ComputerUnavailableError",
    "CubeContext",
    "CubeEquities",
    "Evaluator",
    "MatchEquity",
    "RankedResult",
    "RollsEvaluator",
    "WinChances",
    "computer_available",
]


class ComputerUnavailableError(UserError):
    """bgsage cannot be imported here, so there is no computer opponent."""

    default = Refusal.COMPUTER_UNAVAILABLE


def computer_available() -> bool:
    """Whether bgsage can be imported, i.e. whether the computer opponent can play."""
    return _MISSING is None


def _require_bgsage() -> None:
    """Raise ComputerUnavailableError (from the import's own error) without bgsage."""
    if _MISSING is not None:
        raise ComputerUnavailableError() from _MISSING


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


@runtime_checkable
class RollsEvaluator(Evaluator, Protocol):
    """An evaluator that can also value many rolls of one position in one call.

    The luck of a roll averages the best play over all 21 rolls (:mod:`bot.computer.luck`), so a
    match's luck asks for thousands of rankings whose plays it never looks at: an engine
    that ranks them natively, in one call, saves the round trips.
    """

    def best_equities(
        self, position: Position, rolls: Sequence[Dice], context: CubeContext
    ) -> list[float]:
        """For each of ``rolls``, the equity of the best play (``rank_plays(...)[0]``'s, a
        roll with no play keeping the position), for the player on roll in ``position``."""
        ...


@runtime_checkable
class MatchEquity(Protocol):
    """An engine's match equity table: what a match score is worth, and equity in it.

    Luck and results in match play are counted in match-winning chances, as GNU Backgammon
    counts them (:mod:`bot.computer.luck`); an evaluator without a table leaves them unknown.
    """

    def score_mwc(self, away: tuple[int, int], *, post_crawford: bool) -> float:
        """The chance of winning the match, at the start of a game, for the player who needs
        ``away[0]`` points against ``away[1]`` (0 or less: the match is won).
        ``post_crawford``: the game about to start comes after the Crawford game (it
        matters only when a player needs 1 point)."""
        ...

    def equity_mwc(self, equity: float, context: CubeContext) -> float:
        """Normalized ``equity`` (see :class:`CubeContext`) as match-winning chances, for
        the player of ``context`` in a match."""
        ...


# --- the bgsage evaluator -------------------------------------------------------------------

_Argument = int | str | bool  # the values of bgsage's keyword arguments built below

MoveFilter = tuple[int, float]
"""A stage of the search: keep the best ``count`` plays within ``threshold`` of the best."""


_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


def replies(position: Position) -> int:
    """How many plays the mover of ``position`` will have next turn, over all 36 rolls:
    the branching that makes a deep search of it costly."""
    return sum((1 if a == b else 2) * len(position.legal_plays((a, b))) for a, b in _ROLLS)


def _chances(probs: bgsage.Probabilities) -> WinChances:
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
    plays: 0.3-0.5 s at 2-ply for a double with a hundred or more, seconds at 3-ply. So the
    search goes deeper in stages, like GNU Backgammon's move filters: every play is ranked
    at 1-ply, then each ``(count, threshold)`` of ``filters`` keeps the best ``count`` plays
    within ``threshold`` of the best (and any forced ones) and searches them one ply
    deeper, each exactly as ``checker_play`` would (the same cube-aware tree from the same
    root; with the cube off, the same cubeless tree); the plays a stage drops keep the
    equity of the last stage that searched them and rank after it. A stage that would keep
    a single play stops the search: that play is the choice whatever a deeper ply says of
    it. So the work per decision is bounded by the filters, never by the number of plays
    (1,470 in the worst 1-1), and it is the same work on every call: no clock decides.

    A 3-ply search of one play costs 10-50 ms in most positions but up to 2 s in a crowded
    one (a 1-1 with checkers spread everywhere), growing faster than the square of the
    replies the mover will have (:func:`replies`): :meth:`cost` estimates it, fitted on
    the 2-core development machine (40 ms at 1,000 replies, 0.2 s at 2,000, and above
    the real time in the most crowded positions). The 3-ply stage searches only the
    plays that fit in ``budget`` seconds by that estimate, best first (a forced play
    that does not fit abandons the stage: its equity must be at the same depth as the
    best's); the estimate depends only on the position, so the choice stays deterministic.
    A cube decision at 3 plies or more is one ply less in a position where both sides
    together have more than ``CUBE_REPLIES`` replies (p99 3,000 in expert self-play).

    A 4-ply search (world-class's; GNU Backgammon's 3-ply) adds a stage for close calls:
    the best two plays at 3 plies, when they are within its filter's 0.02, searched one
    ply deeper on ``DEEP_THREADS`` threads. A 4-ply search of one play costs 0.05-1.7 s of
    CPU in a contact position, driven by the replies the opponent will have, so only a
    pair whose estimated cost (:meth:`cost` at 4 plies) fits ``close_budget`` is searched:
    mostly positions where the opponent's choices are few (on the bar against a strong
    board, blocked, racing). Its cube decisions stay at ``CUBE_PLIES``.

    Thread-safe: one lock serializes the calls into one shared analyzer (bgsage already
    spreads a cube decision over every core). Use :meth:`shared` to load the weights once.
    """

    # GNU Backgammon's default filter before its 2-ply (our 3-ply): 8 plays within 0.16;
    # then, before a 3-ply search, the best 4 within 0.08 at 2-ply (a far better judge
    # than the raw network GNU filters with, so fewer candidates are needed); then, before
    # a 4-ply search, the best 2 within 0.02 at 3-ply: where GNU's world class and ours
    # choose differently, the two plays are almost always that close at 3-ply, and 4-ply
    # sides with GNU's in most of them (docs/benchmarks.md). Searching more (GNU's 8
    # within 0.16 at 3 plies, then 2 within 0.08 at 4) doubled world-class's CPU and did
    # not play measurably better (docs/benchmarks.md, "Spending more time").
    FILTERS: dict[int, tuple[MoveFilter, ...]] = {  # noqa: RUF012 (read only)
        1: (),
        2: ((8, 0.16),),
        3: ((8, 0.16), (4, 0.08)),
        4: ((8, 0.16), (4, 0.08), (2, 0.02)),
    }

    CUBE_REPLIES = 4_000  # both sides' replies above which a cube decision is one ply less
    CUBE_PLIES = 3  # a cube decision searches at most this deep (4 plies took seconds)
    BUDGET = 0.3  # seconds of estimated 3-ply search per decision
    CLOSE_BUDGET = 0.6  # seconds of CPU of estimated 4-ply search per decision
    DEEP_THREADS = 2  # a 4-ply search spreads over this many threads
    BAR_REPLIES = 800  # the opponent's replies a 4-ply estimate assumes when they are hit

    _instances: dict[tuple[int, tuple[MoveFilter, ...]], BgsageEvaluator] = {}  # noqa: RUF012
    _instances_lock = threading.Lock()

    def __init__(
        self,
        plies: int = 1,
        *,
        filters: Sequence[MoveFilter] | None = None,
        budget: float | None = None,
        close_budget: float | None = None,
    ) -> None:
        if plies not in (1, 2, 3, 4):
            raise ValueError(f"bgsage evaluates at 1 to 4 plies, not {plies}")
        self.filters: tuple[MoveFilter, ...] = tuple(
            self.FILTERS[plies] if filters is None else filters
        )
        if len(self.filters) != plies - 1:
            raise ValueError(f"a {plies}-ply search takes {plies - 1} filters, not {filters}")
        self.budget = self.BUDGET if budget is None else budget
        self.close_budget = self.CLOSE_BUDGET if close_budget is None else close_budget
        _require_bgsage()
        self.plies = plies
        self._level = f"{plies}ply"
        self._cubeful = bgsage.BgBotAnalyzer(eval_level=self._level, cubeful=True)
        # For games with the cube off: built now for a deeper search (its loading took
        # half a second in the first cube-off decision), on first use at 1-ply.
        self._cubeless: bgsage.BgBotAnalyzer | None = None
        if plies > 1:
            self._cubeless = bgsage.BgBotAnalyzer(eval_level=self._level, cubeful=False)
        self._lock = threading.Lock()

    @classmethod
    def shared(cls, plies: int = 1, filters: Sequence[MoveFilter] | None = None) -> BgsageEvaluator:
        """The process-wide evaluator for ``plies`` and ``filters`` (created on first use)."""
        key = (plies, tuple(cls.FILTERS.get(plies, ()) if filters is None else filters))
        for depth in range(1, plies):  # the stages' weights, loaded now, not mid-decision
            cls.shared(depth)
        with cls._instances_lock:
            evaluator = cls._instances.get(key)
            if evaluator is None:
                evaluator = cls._instances[key] = cls(plies, filters=key[1])
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
        if self.plies > 1:
            staged = self._rank_staged(position, dice, list(wanted.values()), context, force)
            if staged is not None:
                return staged
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

    def best_equities(
        self, position: Position, rolls: Sequence[Dice], context: CubeContext
    ) -> list[float]:
        """:class:`RollsEvaluator`: at 1-ply, bgsage's native batch ranking (the very
        equities ``checker_play`` gives, to float precision with the cube off, in a seventh
        of the time: no Python between the rolls); deeper, each roll ranked in turn."""
        if self.plies == 1:
            batch = self._batch_best(position, rolls, context)
            if batch is not None:
                return batch
        out = []
        for dice in rolls:
            results = legal_plays(position, dice).results() or [position]
            out.append(self.rank_plays(position, dice, results, context)[0].equity)
        return out

    def score_mwc(self, away: tuple[int, int], *, post_crawford: bool) -> float:
        """:class:`MatchEquity`: bgsage's table (Kazaross XG2), whose third argument is
        whether the game at that score follows the Crawford game."""
        if away[0] <= 0:
            return 1.0
        if away[1] <= 0:
            return 0.0
        return float(bgbot_cpp.get_met(away[0], away[1], post_crawford))

    def equity_mwc(self, equity: float, context: CubeContext) -> float:
        """:class:`MatchEquity`: bgsage's own conversion, the one its equities came from."""
        if context.is_money:
            raise ValueError("a money game has no match-winning chances")
        away1, away2 = context.away
        return float(bgbot_cpp.eq2mwc(equity, away1, away2, context.cube, context.crawford))

    def _batch_best(
        self, position: Position, rolls: Sequence[Dice], context: CubeContext
    ) -> list[float] | None:
        """The best 1-ply equity of each roll from ``batch_checker_play``, one thread (the
        analysis lane runs its processes side by side); None when bgsage's internals are
        not the ones this was written against. With the cube off the batch still ranks
        cubeful, so the best is the play of highest cubeless value (money equity, or the
        match-winning chances of its probabilities)."""
        live = context.live
        if not live:  # the cube's state no longer matters: any live context ranks them all
            context = CubeContext(away=context.away, crawford=context.crawford, live=False)
        try:
            strategy = self._cubeful._analyzer._inner._strategy_1ply
            owner = bgsage_analyzer.resolve_owner(context.owner)
            batch = bgbot_cpp.batch_checker_play
        except (AttributeError, KeyError, TypeError):
            return None
        board = position.to_board()
        inputs: list[dict[str, object]] = []
        for high, low in rolls:
            entry: dict[str, object] = {
                "board": board,
                "die1": high,
                "die2": low,
                "cube_value": context.cube,
                "cube_owner": owner,
            }
            if not context.is_money:
                entry.update(away1=context.away[0], away2=context.away[1])
                entry["is_crawford"] = context.crawford
            inputs.append(entry)
        money = context.is_money
        with self._lock:
            ranked = batch(
                inputs,
                strategy,
                5,  # bgsage's filter, which only picks plays to search deeper: none at 1-ply
                0.08,
                1,
                jacoby=context.jacoby and money,
                beaver=context.beavers and money,
            )
        if len(ranked) != len(inputs) or not all(entry["moves"] for entry in ranked):
            return None
        if live:
            return [float(entry["moves"][0]["equity"]) for entry in ranked]
        return [
            max(
                self._cubeless_equity(
                    float(move["cubeless_equity"]),
                    bgsage.Probabilities.from_list(list(move["probs"])),
                    context,
                )
                for move in entry["moves"]
            )
            for entry in ranked
        ]

    def cube_equities(self, position: Position, context: CubeContext) -> CubeEquities:
        if self.plies > self.CUBE_PLIES:
            return BgsageEvaluator.shared(self.CUBE_PLIES).cube_equities(position, context)
        if self.plies >= 3 and replies(position) + replies(position.flip()) > self.CUBE_REPLIES:
            # A crowded position (both sides' checkers spread everywhere): 3-ply took up to
            # a second there, 2-ply under 0.4 s; a game almost never comes to one.
            return BgsageEvaluator.shared(self.plies - 1).cube_equities(position, context)
        if self.plies == 1:
            quick = self._cube_1ply(position, context)
            if quick is not None:
                return quick
        return self._cube_action(position, context)

    def _cube_action(self, position: Position, context: CubeContext) -> CubeEquities:
        """bgsage's own cube analysis at this evaluator's depth."""
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

    def _cube_1ply(self, position: Position, context: CubeContext) -> CubeEquities | None:
        """The 1-ply cube decision from the networks this evaluator already holds.

        bgsage's ``cube_action`` at 1-ply reads its 24 networks from disk on every call
        (38 ms), which was most of the default level's thinking before each roll. The same
        numbers come from the loaded network's pre-roll chances and bgsage's Janowski
        formula (``cube_decision_1ply``) in a tenth of a millisecond; a test checks they
        are exactly ``cube_action``'s. None when bgsage's internals are not the ones this
        was written against.
        """
        try:
            strategy = self._cubeful._analyzer._inner._strategy_1ply
            owner = bgsage_analyzer.resolve_owner(context.owner)
            evaluate = bgbot_cpp.batch_evaluate_positions
            decide = bgbot_cpp.cube_decision_1ply
        except (AttributeError, KeyError, TypeError):
            return None
        board = position.to_board()
        with self._lock:
            (row,) = evaluate([(board, context.cube, owner)], strategy, 1)
        raw = [float(value) for value in row["probs"]]
        # Backgammons are a part of gammons; in a race the network can say otherwise by a
        # hair, and cube_action reports them clamped (its equities use them as they are).
        shown = [raw[0], raw[1], min(raw[2], raw[1]), raw[3], min(raw[4], raw[3])]
        probs = bgsage.Probabilities.from_list(shown)
        if not context.live:
            equity = self._cubeless_equity(float(row["cubeless_equity"]), probs, context)
            return CubeEquities(equity, equity, equity, _chances(probs))
        race = bgbot_cpp.is_race(board)
        efficiency = bgbot_cpp.cube_efficiency(raw, race, *bgbot_cpp.pip_counts(board))
        money = context.is_money
        decision = decide(
            raw,
            context.cube,
            owner,
            efficiency,
            context.away[0],
            context.away[1],
            context.crawford,
            jacoby=context.jacoby and money,
        )
        return CubeEquities(
            no_double=float(decision.equity_nd),
            double_take=float(decision.equity_dt),
            double_pass=float(decision.equity_dp),
            chances=_chances(probs),
        )

    # --- internals ---------------------------------------------------------------------

    def _rank_staged(
        self,
        position: Position,
        dice: Dice,
        results: Sequence[Position],
        context: CubeContext,
        force: Collection[Position],
    ) -> list[RankedResult] | None:
        """Every play at 1-ply, then each filter's survivors one ply deeper (see the class
        docstring); None when bgsage's internals are not the ones this was written against."""
        ranked = BgsageEvaluator.shared(1).rank_plays(position, dice, results, context)
        forced = {result.board for result in force}
        for depth, (count, threshold) in enumerate(self.filters, start=2):
            best = ranked[0].equity
            deep = [
                item
                for index, item in enumerate(ranked)
                if (index < count and best - item.equity <= threshold)
                or item.result.board in forced
            ]
            if depth >= 3:
                deep = self._affordable(deep, forced, depth)
            if len(deep) < 2:
                break
            searched = BgsageEvaluator.shared(depth)._search(
                position,
                [item.result for item in deep],
                context,
                threads=self.DEEP_THREADS if self.plies > 3 else 1,
            )
            if searched is None:
                return None
            searched.sort(key=lambda item: -item.equity)
            done = {item.result.board for item in deep}
            ranked = searched + [item for item in ranked if item.result.board not in done]
        return ranked

    @classmethod
    def cost(cls, result: Position, plies: int = 3) -> float:
        """The estimated seconds of CPU of a ``plies`` search of ``result`` (3 or 4; see
        above). At 4 plies the opponent's replies weigh most: the search meets them on
        its first and third plies (fitted on 60 positions of expert self-play with the
        cube, within a factor 1.5 of the time measured in most, 2.5 at worst; the
        opponent on the bar costs more than their replies say, see below)."""
        mine = replies(result)
        if plies <= 3:
            return 2.5e-8 * mine**2 + 1.5e-11 * mine**3
        theirs = replies(result.flip())
        if result.board[0]:
            # On the bar they have few replies now and many once in: up to 3 times the
            # estimate; counted as a crowded position instead.
            theirs = max(theirs, cls.BAR_REPLIES)
        return 0.02 + 9e-4 * theirs + 1.2e-4 * mine

    def _affordable(
        self, deep: list[RankedResult], forced: set[tuple[int, ...]], depth: int
    ) -> list:
        """The plays of ``deep`` whose search at ``depth`` fits in its budget, best first."""
        budget = self.budget if depth <= 3 else self.close_budget
        kept: list[RankedResult] = []
        spent = 0.0
        for item in deep:
            cost = self.cost(item.result, depth)
            if spent + cost <= budget:
                kept.append(item)
                spent += cost
            elif item.result.board in forced:
                return []
        return kept

    def _search(
        self,
        position: Position,
        results: Sequence[Position],
        context: CubeContext,
        *,
        threads: int = 1,
    ) -> list[RankedResult] | None:
        """Each result at this evaluator's depth, as ``checker_play`` values a candidate;
        with the cube live, each candidate's tree spread over ``threads`` (world-class's
        decisions, whose 3-ply stage then takes less wall clock on two cores; hints and
        analysis stay on one, since the analysis lane already runs a process a core)."""
        if context.live:
            return self._deep_cubeful(position, results, context, threads)
        return self._deep_cubeless(position, results, context)

    def _deep_cubeless(
        self, position: Position, results: Sequence[Position], context: CubeContext
    ) -> list[RankedResult] | None:
        """Each result at this many plies, cubeless, as bgsage's multi-ply ``checker_play``
        values a survivor of its filter (``_MultiPlyAnalyzer.checker_play_analytics``)."""
        with self._lock:
            try:
                strategy = self._analyzer(context)._analyzer._strategy_nply
            except AttributeError:
                return None
            root = position.to_board()
            out = []
            try:
                for result in results:
                    r = strategy.evaluate_board(result.to_board(), root)
                    probs = bgsage.Probabilities.from_list(list(r["probs"]))
                    equity = self._cubeless_equity(float(r["equity"]), probs, context)
                    out.append(RankedResult(result, equity, _chances(probs)))
            finally:
                strategy.clear_cache()
        return out

    def _deep_cubeful(
        self,
        position: Position,
        results: Sequence[Position],
        context: CubeContext,
        threads: int = 1,
    ) -> list[RankedResult] | None:
        """Each result at this many plies, cubeful, as bgsage's ``checker_play`` values a
        candidate (``_CubefulAnalyzer.checker_play_analytics``): the opponent's cube-aware
        tree from the flipped board, routed by the position before the move."""
        try:
            inner = self._cubeful._analyzer._inner
            strategy = inner._strategy_1ply
            bearoff = getattr(inner, "_bearoff_db", None)
            their_owner = bgsage_analyzer._FLIP_OWNER[bgsage_analyzer.resolve_owner(context.owner)]
            search = bgbot_cpp.cubeful_probs_and_equity_nply
            flip = bgbot_cpp.flip_board
        except (AttributeError, KeyError, TypeError):
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
                    n_threads=max(threads, self.DEEP_THREADS if self.plies > 3 else 1),
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

    def _analyzer(self, context: CubeContext) -> bgsage.BgBotAnalyzer:
        if context.live:
            return self._cubeful
        if self._cubeless is None:
            self._cubeless = bgsage.BgBotAnalyzer(eval_level=self._level, cubeful=False)
        return self._cubeless

    @staticmethod
    def _cube_kwargs(context: CubeContext) -> dict[str, _Argument]:
        kwargs: dict[str, _Argument] = {
            "cube_value": context.cube,
            "cube_owner": context.owner,
            "jacoby": context.jacoby,
        }
        if not context.is_money:
            kwargs.update(away1=context.away[0], away2=context.away[1])
            kwargs["is_crawford"] = context.crawford
        return kwargs

    def _checker_kwargs(self, context: CubeContext) -> dict[str, _Argument]:
        kwargs = self._cube_kwargs(context)
        kwargs["beaver"] = context.beavers
        if not context.live:
            kwargs["cube_owner"] = ""  # no cube at all: the search filters on cubeless equity
        return kwargs

    def _play_equity(
        self, equity: float, probs: bgsage.Probabilities, context: CubeContext
    ) -> float:
        if context.live:
            return float(equity)
        return self._cubeless_equity(float(equity), probs, context)

    def _cubeless_equity(
        self, equity: float, probs: bgsage.Probabilities, context: CubeContext
    ) -> float:
        """Cubeless equity; in a match, the match-winning chances of ``probs`` as equity."""
        if context.is_money:
            return equity
        away1, away2 = context.away
        mwc = bgbot_cpp.cubeless_mwc(probs.to_list(), away1, away2, 1, context.crawford)
        return float(bgbot_cpp.mwc2eq(mwc, away1, away2, 1, context.crawford))

    def _post_move(self, result: Position, context: CubeContext) -> RankedResult:
        kwargs = self._cube_kwargs(context)
        analysis = self._analyzer(context).post_move_analytics(result.to_board(), **kwargs)
        if context.live:
            equity = float(analysis.cubeful_equity)
        else:
            equity = self._cubeless_equity(float(analysis.cubeless_equity), analysis.probs, context)
        return RankedResult(result, equity, _chances(analysis.probs))
