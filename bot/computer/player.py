"""The play policy: how the computer chooses its plays and cube actions at each level.

A :class:`Level` is a search depth and an amount of noise (GNU Backgammon's ladder, from
beginner to world-class); a :class:`ComputerPlayer` at a level chooses among the engine's
legal plays, doubles, takes, drops, beavers and answers resignations, asking an
:class:`~bot.computer.evaluator.Evaluator` for equities and :mod:`bot.computer.cube` for
what they mean. It also gives hints and analyses matches (:mod:`bot.computer.analysis`),
noise-free, at the analysis depth (:data:`ANALYSIS`) whatever the level.

Every method that evaluates is synchronous CPU work. Measured with
``benchmarks/computer.py`` on the 2-core development machine: at 1-ply (beginner to expert)
a checker play takes 2 ms at the median and under 10 ms at p99 on a quiet machine, a cube
decision 26-40 ms. World-class searches 3 plies (GNU Backgammon's 2-ply) in stages, and
4 plies on a close call where that is affordable (see
:class:`~bot.computer.evaluator.BgsageEvaluator`); its cube decisions search 3 plies.
docs/benchmarks.md has its decision times. Run it in a worker process
(:mod:`bot.workers`) or at least a worker thread, never on the event loop: bgsage's C++
holds the GIL while it runs.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from bot.computer.analysis import (
    BLUNDER_THRESHOLD,
    CubeHint,
    PlayerAnalysis,
    PlayHint,
    analyze_decisions,
    cube_hint,
    hints,
    play_hints,
)
from bot.computer.cube import (
    CubeDecision,
    Decision,
    beaver_take_value,
    beavers_allowed,
    best_response,
    responses,
)
from bot.computer.evaluator import (
    BgsageEvaluator,
    CubeContext,
    CubeEquities,
    Evaluator,
    MoveFilter,
)
from bot.engine import EngineErrorCode, Game, NotAllowedNowError, Phase, Play

__all__ = ["ANALYSIS", "DEFAULT_LEVEL", "LEVELS", "ComputerPlayer", "Level", "analyze"]


@dataclass(frozen=True, slots=True)
class Level:
    """How strong the computer plays: search depth, and noise added to every equity.

    The ladder follows GNU Backgammon's (its 0-ply is bgsage's 1-ply, its 2-ply our 3):
    the noise is the standard deviation of a normal error added to each candidate's
    equity; ``filters`` are the search's stages (None: the evaluator's for ``plies``).
    """

    name: str
    plies: int
    noise: float
    filters: tuple[MoveFilter, ...] | None = None  # None: BgsageEvaluator.FILTERS[plies]


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", 1, 0.060),
        Level("intermediate", 1, 0.040),
        Level("advanced", 1, 0.015),
        Level("expert", 1, 0.0),
        Level("world-class", 4, 0.0),
    )
}
DEFAULT_LEVEL = "expert"

# Hints, reviews and match analysis search at this depth whatever the level playing (no
# noise): world-class's search without its 4-ply look at close calls, which would cost a
# 25-point match's analysis up to 0.4 s more a decision (see benchmarks/computer.py).
# They differ only where world-class's best two plays are within 0.04 at 3 plies.
ANALYSIS = Level("analysis", 3, 0.0)


def _level(level: str | Level) -> Level:
    if isinstance(level, Level):
        return level
    try:
        return LEVELS[level.strip().lower().replace(" ", "-").replace("_", "-")]
    except KeyError:
        names = ", ".join(LEVELS)
        raise ValueError(f"{level!r} is not a computer level; choose one of {names}") from None


# --- the player -----------------------------------------------------------------------------


class ComputerPlayer:
    """A computer opponent at one :class:`Level`, with a seedable source for its noise.

    Hints and analysis never add noise and search at the :data:`ANALYSIS` depth whatever
    the level (with a given ``evaluator``, at that evaluator's). A player may be shared by
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
        self._given = evaluator  # hints and analysis use it too; bgsage's own is per use

    def __repr__(self) -> str:
        return f"<ComputerPlayer {self.level.name}>"

    @property
    def evaluator(self) -> Evaluator:
        """The evaluator; bgsage's shared one unless another was given."""
        if self._evaluator is None:
            self._evaluator = BgsageEvaluator.shared(self.level.plies, self.level.filters)
        return self._evaluator

    @property
    def analysis_evaluator(self) -> Evaluator:
        """The evaluator of hints and analysis: the :data:`ANALYSIS` search, or the one
        given."""
        if self._given is not None:
            return self._given
        return BgsageEvaluator.shared(ANALYSIS.plies, ANALYSIS.filters)

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
        options = responses(equities, context.beavers)
        return options[best_response(options)] > equities.no_double

    def cube_response(self, game: Game) -> CubeDecision:
        """The computer's answer to a pending double: TAKE, DROP or BEAVER.

        The computer is ``game.actor``: the doubled player, or after a beaver the doubler
        (who then only takes or drops). BEAVER only where the options allow it.
        Synchronous CPU work: call it from a worker thread.
        """
        if game.phase is not Phase.DOUBLED:
            raise NotAllowedNowError(
                "There is no double to answer.", EngineErrorCode.NO_DOUBLE_TO_ANSWER
            )
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
        return best_response(responses(equities, beavers_allowed(game)))

    def should_take(self, game: Game) -> bool:
        """Whether the computer, answering a double, keeps playing (a take or a beaver)."""
        return self.cube_response(game) is not CubeDecision.DROP

    def _beaver_take_value(self, game: Game) -> float:
        """After a beaver, the doubler's equity for taking it, per cube now (drop: -1)."""
        context = CubeContext.for_game(game)  # the beaverer owns the cube
        return beaver_take_value(self.evaluator.cube_equities(game.position, context))

    def accepts_resignation(self, game: Game) -> bool:
        """Whether the computer accepts the pending resignation offer.

        It accepts when the offered points are at least what it expects from playing on
        (cubeless, per cube), so an offer of a single game is refused when a gammon is
        likely.
        Synchronous CPU work: call it from a worker thread.
        """
        offer = game.resignation
        if offer is None:
            raise NotAllowedNowError(
                "There is no resignation offer to answer.", EngineErrorCode.NO_RESIGNATION
            )
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

    # --- hints and analysis, noise-free (bot.computer.analysis) --------------------------

    def hints(self, game: Game, count: int = 3) -> list[PlayHint] | CubeHint:
        """Advice for whoever acts in ``game``: plays in Phase.MOVE, the cube otherwise.

        Phase.MOVE gives the best ``count`` plays (see :meth:`play_hints`); Phase.ROLL and
        Phase.DOUBLED give the cube decision (see :meth:`cube_hint`).
        Synchronous CPU work: call it from a worker thread.
        """
        return hints(self.analysis_evaluator, game, count)

    def play_hints(self, game: Game, count: int = 3) -> list[PlayHint]:
        """The best ``count`` plays for the player on roll, best first, without noise."""
        return play_hints(self.analysis_evaluator, game, count)

    def cube_hint(self, game: Game) -> CubeHint:
        """The cube decision for the player on roll, before the roll or with a double pending.

        Equities are the doubler's. When the cube cannot be turned the hint carries the
        reason and only the equity of playing on.
        """
        return cube_hint(self.analysis_evaluator, game)

    def analyze(
        self,
        decisions: Iterable[tuple[Game, Decision]],
        *,
        players: Collection[int] = (0, 1),
        blunder_threshold: float = BLUNDER_THRESHOLD,
    ) -> dict[int, PlayerAnalysis]:
        """:func:`~bot.computer.analysis.analyze_decisions` at this player's level.

        Synchronous CPU work (one evaluation per decision): call it from a worker.
        """
        # bgsage's raw network screens the no-double decisions (see SCREEN_MARGIN); another
        # evaluator, given, is used alone.
        screen = None if self._given is not None else BgsageEvaluator.shared(1)
        return analyze_decisions(
            self.analysis_evaluator,
            decisions,
            players=players,
            blunder_threshold=blunder_threshold,
            screen=screen,
        )


# Here rather than in bot.computer.analysis: a level names its evaluator, and the levels are
# this module's (analysis works on any evaluator and so needs no level).
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
