"""The computer opponent's brain: checker plays, cube decisions, hints and game analysis.

Discord-free and database-free: everything here takes engine values (a
:class:`~bot.engine.Game`) and returns engine values (a :class:`~bot.engine.Play`, a bool,
small frozen dataclasses). The package may import the standard library, :mod:`bot.engine`,
:mod:`bot.core.errors` and, in :mod:`bot.computer.evaluator` alone, bgsage; never the session,
the store, discord or the renderers. Its modules, each importing only those above it:

- :mod:`~bot.computer.evaluator`: the :class:`Evaluator` protocol, the values it takes and
  gives (:class:`CubeContext`, :class:`RankedResult`, :class:`CubeEquities`,
  :class:`WinChances`) and :class:`BgsageEvaluator`, the bgsage (Open Sage) neural network
  behind it. With :mod:`~bot.computer.rollouts`, the only modules that import bgsage.
- :mod:`~bot.computer.rollouts`: truncated rollouts of one play or one cube decision
  (:class:`~bot.computer.rollouts.BgsageRollout`), the deeper analysis's engine.
- :mod:`~bot.computer.cube`: cube theory on equities (:class:`CubeDecision`,
  :class:`CubeAction`, the proper double, take, drop or beaver). Pure.
- :mod:`~bot.computer.pr`: eXtreme Gammon's Performance Rating: which decisions count, the
  bands (:class:`PRBand`), the values (:class:`PerformanceRating`,
  :class:`LuckAdjustedResult`). Pure; imports nothing of the bot's.
- :mod:`~bot.computer.analysis`: hints (:class:`PlayHint`, :class:`CubeHint`) and match
  analysis (:class:`PlayerAnalysis`, :class:`Mistake`, :data:`BLUNDER_THRESHOLD`), with each
  player's PR.
- :mod:`~bot.computer.positions`: any position's advice and the deeper analysis's values
  (:class:`~bot.computer.positions.PositionAdvice`, :class:`~bot.computer.positions.
  DeepAdvice`); :mod:`~bot.computer.position_service` asks the workers for them.
- :mod:`~bot.computer.player`: the play policy (:class:`Level`, :data:`LEVELS`,
  :data:`ANALYSIS`, the depth of hints and analysis, :class:`ComputerPlayer`) and
  :func:`analyze`.

bgsage ships wheels only for Linux x86-64, macOS on Apple silicon and Windows, so its import
is guarded: importing this package never fails without it. Ask :func:`computer_available`
first; without bgsage the first evaluation raises :class:`ComputerUnavailableError`, the
refusal :attr:`bot.core.errors.Refusal.COMPUTER_UNAVAILABLE`.

Every method that evaluates is synchronous CPU work (timings in :mod:`bot.computer.player`):
run it in a worker process (:mod:`bot.workers`) or at least a worker thread, never on the
event loop.

Equities are normalized to the cube (+1 = winning the cube's value), for the player named in
each docstring; in match play they are match-winning chances expressed the same way (EMG).

>>> from bot.engine import Game
>>> computer = ComputerPlayer("expert", seed=1)
>>> game = Game.new().opening_roll(3, 1)
>>> str(computer.choose_play(game))  # doctest: +SKIP
'8/5 6/5'
"""

from __future__ import annotations

from bot.computer.analysis import BLUNDER_THRESHOLD, CubeHint, Mistake, PlayerAnalysis, PlayHint
from bot.computer.cube import CubeAction, CubeDecision, Decision
from bot.computer.evaluator import (
    BgsageEvaluator,
    ComputerUnavailableError,
    CubeContext,
    CubeEquities,
    Evaluator,
    RankedResult,
    RollsEvaluator,
    WinChances,
    computer_available,
)
from bot.computer.player import ANALYSIS, DEFAULT_LEVEL, LEVELS, ComputerPlayer, Level, analyze
from bot.computer.pr import LuckAdjustedResult, PerformanceRating, PRBand, PRPart

__all__ = [
    "ANALYSIS",
    "BLUNDER_THRESHOLD",
    "DEFAULT_LEVEL",
    "LEVELS",
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
    "LuckAdjustedResult",
    "Mistake",
    "PRBand",
    "PRPart",
    "PerformanceRating",
    "PlayHint",
    "PlayerAnalysis",
    "RankedResult",
    "RollsEvaluator",
    "WinChances",
    "analyze",
    "computer_available",
]
