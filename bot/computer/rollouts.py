"""Truncated rollouts with bgsage: the deeper analysis of a position ("Look deeper").

A search values a play from a few plies of its own; a rollout plays the position out many
times (here each game cut a few plies on and valued there), so it sees further at the cost
of seconds and of a sampling error it reports. :class:`BgsageRollout` rolls out one play or
one cube decision at the settings of :class:`RolloutSettings` (bgsage's "2T"), from a seed,
so several seeds give independent batches to average. With :mod:`bot.computer.evaluator`,
the only module that imports bgsage; its import is guarded the same way (without bgsage the
first rollout raises :class:`~bot.computer.evaluator.ComputerUnavailableError`).

Synchronous CPU work: run it in the analysis lane (:mod:`bot.workers`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from bot.computer.evaluator import ComputerUnavailableError, CubeContext, computer_available
from bot.engine import Position

try:
    import bgbot_cpp
    import bgsage
    from bgsage import analyzer as bgsage_analyzer
except Exception:  # ImportError, or OSError from a wheel for another platform
    pass  # computer_available() says so, and the first rollout refuses

__all__ = ["BgsageRollout", "CubeRollout", "RolledOut", "RolloutSettings"]


@dataclass(frozen=True, slots=True)
class RolloutSettings:
    """A truncated rollout, as bgsage's "2T" level plays it (its ``truncated2``: checker play
    at 2 plies on the first move of each trial and 1 ply after, cube decisions and the
    evaluation where the trial stops at 2 plies; bgsage measured 2T ahead of XG's Roller+),
    with ``trials`` games (a multiple of 36 deals every first roll equally often) each cut
    ``truncation`` plies after the position."""

    trials: int = 144
    truncation: int = 7
    plies: int = 2


@dataclass(frozen=True, slots=True)
class RolledOut:
    """An equity a rollout measured, with its standard error (both normalized to the cube,
    for the player named where it is given)."""

    equity: float
    error: float


@dataclass(frozen=True, slots=True)
class CubeRollout:
    """The roller's cube decision rolled out: no double and double/take with their standard
    errors, double/pass as it is (it needs no rollout)."""

    no_double: RolledOut
    double_take: RolledOut
    double_pass: float


class BgsageRollout:
    """Truncated rollouts of one play or one cube decision with bgsage (see
    :class:`RolloutSettings`): the "deeper when asked" analysis, seconds where a search
    takes a tenth of one. Each call is one rollout of ``settings.trials`` games from a
    ``seed``, so several seeds give independent batches to average (and a progress line
    between them). Thread-safe by one lock, like :class:`BgsageEvaluator`."""

    _instances: dict[RolloutSettings, BgsageRollout] = {}  # noqa: RUF012
    _instances_lock = threading.Lock()

    def __init__(self, settings: RolloutSettings = RolloutSettings()) -> None:
        if not computer_available():
            raise ComputerUnavailableError()
        self.settings = settings
        plies = settings.plies
        self._analyzer = bgsage.BgBotAnalyzer(
            eval_level="rollout",
            cubeful=True,
            n_trials=settings.trials,
            truncation_depth=settings.truncation,
            decision_ply=plies,
            truncation_ply=plies,
            late_ply=1,
            late_threshold=1,
            cube=bgbot_cpp.TrialEvalConfig(ply=plies),
            cube_late=bgbot_cpp.TrialEvalConfig(ply=plies),
            ultra_late_threshold=9999,
        )
        self._lock = threading.Lock()

    @classmethod
    def shared(cls, settings: RolloutSettings = RolloutSettings()) -> BgsageRollout:
        """The process-wide rollout for ``settings`` (its weights loaded once)."""
        with cls._instances_lock:
            rollout = cls._instances.get(settings)
            if rollout is None:
                rollout = cls._instances[settings] = cls(settings)
            return rollout

    def _strategy(self) -> object:
        try:
            return self._analyzer._analyzer._inner._rollout_strategy
        except AttributeError as exc:  # bgsage's internals are not the ones this expects
            raise RuntimeError("this bgsage has no rollout strategy where expected") from exc

    def play(
        self, position: Position, result: Position, context: CubeContext, seed: int
    ) -> RolledOut:
        """The equity of moving from ``position`` to ``result``, for the mover."""
        money = context.is_money
        board = position.to_board()
        with self._lock:
            strategy: Any = self._strategy()
            self._analyzer.set_seed(seed)
            if context.live:
                out = strategy.cubeful_evaluate_board(
                    list(result.board),
                    board,
                    cube_value=context.cube,
                    owner=bgsage_analyzer.resolve_owner(context.owner),
                    away1=context.away[0],
                    away2=context.away[1],
                    is_crawford=context.crawford,
                    jacoby=context.jacoby and money,
                    beaver=context.beavers and money,
                )
                return RolledOut(float(out["cubeful_equity"]), float(out["cubeful_se"]))
            out = strategy.evaluate_board(list(result.board), board, None)
        equity = float(out["equity"])
        if not money:
            probs = [float(p) for p in out["probs"]]
            away1, away2 = context.away
            mwc = bgbot_cpp.cubeless_mwc(probs, away1, away2, 1, context.crawford)
            equity = float(bgbot_cpp.mwc2eq(mwc, away1, away2, 1, context.crawford))
        return RolledOut(equity, float(out.get("std_error", 0.0)))

    def cube(self, position: Position, context: CubeContext, seed: int) -> CubeRollout:
        """The cube decision of the player on roll in ``position`` (before the roll)."""
        if not context.live:
            raise ValueError("a game without the cube has no cube decision to roll out")
        money = context.is_money
        with self._lock:
            strategy: Any = self._strategy()
            self._analyzer.set_seed(seed)
            out = strategy.cube_decision(
                position.to_board(),
                context.cube,
                bgsage_analyzer.resolve_owner(context.owner),
                away1=context.away[0],
                away2=context.away[1],
                is_crawford=context.crawford,
                jacoby=context.jacoby and money,
                beaver=False,  # a beaver is the caller's business, as with cube_equities
            )
        return CubeRollout(
            RolledOut(float(out["equity_nd"]), float(out["equity_nd_se"])),
            RolledOut(float(out["equity_dt"]), float(out["equity_dt_se"])),
            float(out["equity_dp"]),
        )
