"""Hints and match analysis: what the computer advises, and how well each player played.

A hint is the computer's view of the decision in front of a player: the best few plays
with their equities, or the proper cube action. The analysis of a match goes over every
decision made in it, as GNU Backgammon does, and totals the equity each player lost: error
rates in millipoints per decision, blunders, and the biggest mistakes with the game to draw;
and in the same pass eXtreme Gammon's Performance Rating, which counts the decisions its own
way (:mod:`bot.computer.pr`).

Everything here is a function of an :class:`~bot.computer.evaluator.Evaluator`, without
noise, so the same evaluator gives the same answers; :class:`~bot.computer.ComputerPlayer`
offers these as methods at its level's search depth. Cube decisions go through
:mod:`bot.computer.cube`, the same rules the computer plays by. Synchronous CPU work (one
evaluation per decision): call it from a worker thread or process.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Literal

from bot.computer.cube import (
    CubeAction,
    CubeDecision,
    Decision,
    beaver_take_value,
    beaver_value,
    beavers_allowed,
    best_response,
    proper_action,
    responses,
)
from bot.computer.evaluator import CubeContext, Evaluator, WinChances
from bot.computer.pr import (
    OBVIOUS_MARGIN,
    PerformanceRating,
    PRPart,
    checker_counts,
    decision_weight,
    double_counts,
    response_counts,
)
from bot.engine import EngineErrorCode, Game, NotAllowedNowError, Phase, Play

__all__ = [
    "BLUNDER_THRESHOLD",
    "CLOSE_CUBE_THRESHOLD",
    "MISTAKE_FLOOR",
    "SCREEN_BOUND",
    "SCREEN_MARGIN",
    "CubeHint",
    "Mistake",
    "PlayHint",
    "PlayerAnalysis",
    "analyze_decisions",
    "combined",
    "cube_hint",
    "hints",
    "play_hints",
]

# Equity lost above which a decision counts as a blunder (GNU Backgammon calls 0.08 "bad").
BLUNDER_THRESHOLD = 0.08
# GNU Backgammon counts a no-double decision only when doubling was less than this bad.
CLOSE_CUBE_THRESHOLD = 0.16
# Smaller losses are rounding noise, not mistakes worth showing.
MISTAKE_FLOOR = 0.001
# A no-double decision is first valued by the cheap screen (bgsage's raw network), and
# searched at full depth only when the screen finds doubling less than this margin plus
# the larger of CLOSE_CUBE_THRESHOLD and XG's bound for an obvious no double
# (bot.computer.pr.OBVIOUS_MARGIN, 0.2) worse. Over 2,249 no-double decisions of six
# 25-point matches the screen and the analysis depth differed by up to 0.46 on this gap,
# but no decision the screen put above 0.24 was close (0.16) at full depth: the margin keeps
# 0.08 more in hand than that, and still spares most searches (most rolls of a game are
# nowhere near a double).
SCREEN_MARGIN = 0.16
# The screen's gap from which a no-double decision is not searched (0.36).
SCREEN_BOUND = max(CLOSE_CUBE_THRESHOLD, OBVIOUS_MARGIN) + SCREEN_MARGIN


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
    refusal: str | None = None  # for developers; players read refusal_code's sentence
    refusal_code: EngineErrorCode | None = None
    refusal_params: tuple[tuple[str, object], ...] = ()

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

    ``performance`` is eXtreme Gammon's PR over the same decisions, counted XG's way
    (:mod:`bot.computer.pr`): its ``pr``, ``checker_pr``, ``cube_pr`` and ``band``.
    """

    player: int
    checker_decisions: int = 0
    checker_error: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    blunders: int = 0
    mistakes: tuple[Mistake, ...] = ()  # the biggest three, biggest first
    performance: PerformanceRating = field(default_factory=PerformanceRating)

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
    pr_checker: PRPart = field(default_factory=PRPart)
    pr_cube: PRPart = field(default_factory=PRPart)


# --- hints ----------------------------------------------------------------------------------


def hints(evaluator: Evaluator, game: Game, count: int = 3) -> list[PlayHint] | CubeHint:
    """Advice for whoever acts in ``game``: plays in Phase.MOVE, the cube otherwise.

    Phase.MOVE gives the best ``count`` plays (see :func:`play_hints`); Phase.ROLL and
    Phase.DOUBLED give the cube decision (see :func:`cube_hint`).
    """
    if game.phase is Phase.MOVE:
        return play_hints(evaluator, game, count)
    return cube_hint(evaluator, game)


def play_hints(evaluator: Evaluator, game: Game, count: int = 3) -> list[PlayHint]:
    """The best ``count`` plays for the player on roll, best first, without noise."""
    plays = game.legal_plays()
    assert game.dice is not None
    context = CubeContext.for_game(game)
    ranked = [
        item
        for item in evaluator.rank_plays(game.position, game.dice, plays.results(), context)
        if item.result in plays
    ]
    if not ranked:
        return []
    shown = [item.equity for item in ranked[: max(count, 1)]]
    if shown != sorted(shown, reverse=True):
        # A search in stages left some of these at a shallower depth than the others
        # (see BgsageEvaluator): search them all as deep, so the list reads best first.
        force = [item.result for item in ranked[: max(count, 1)]]
        ranked = [
            item
            for item in evaluator.rank_plays(
                game.position, game.dice, plays.results(), context, force=force
            )
            if item.result in plays
        ]
    best = ranked[0].equity
    found: list[PlayHint] = []
    for item in ranked[: max(count, 1)]:
        play = plays.play_for(item.result)
        assert play is not None
        found.append(PlayHint(play, item.equity, item.equity - best, item.chances))
    return found


def cube_hint(evaluator: Evaluator, game: Game) -> CubeHint:
    """The cube decision for the player on roll, before the roll or with a double pending.

    Equities are the doubler's. When the cube cannot be turned the hint carries the
    reason and only the equity of playing on.
    """
    if game.phase not in (Phase.ROLL, Phase.DOUBLED) or game.beaver_pending:
        raise NotAllowedNowError(
            "There is no cube decision to advise on now.", EngineErrorCode.NO_CUBE_DECISION
        )
    context = CubeContext.for_game(game)
    equities = evaluator.cube_equities(game.position, context)
    redouble = game.cube_owner is not None
    refusal = None if game.phase is Phase.DOUBLED else game.cube_refusal_error()
    if refusal is not None:
        return CubeHint(
            action=CubeAction.NO_DOUBLE,
            no_double=equities.no_double,
            double_take=None,
            double_pass=None,
            chances=equities.chances,
            redouble=redouble,
            refusal=str(refusal),
            refusal_code=refusal.code,
            refusal_params=tuple(refusal.params.items()),
        )
    beavers = beavers_allowed(game)
    return CubeHint(
        action=proper_action(equities, beavers),
        no_double=equities.no_double,
        double_take=equities.double_take,
        double_pass=equities.double_pass,
        double_beaver=beaver_value(equities.double_take) if beavers else None,
        chances=equities.chances,
        redouble=redouble,
    )


# --- analysis -------------------------------------------------------------------------------


def combined(player: int, parts: Iterable[PlayerAnalysis]) -> PlayerAnalysis:
    """Several analyses of one player as one: a match's games, or a chouette player's games
    in the box and in the team. Decisions and errors add up (the PR too: it is over all the
    decisions), and the biggest three mistakes of all are kept, as one analysis of them all
    would give."""
    mine = list(parts)
    mistakes = sorted((m for a in mine for m in a.mistakes), key=lambda m: -m.equity_lost)
    return PlayerAnalysis(
        player=player,
        checker_decisions=sum(a.checker_decisions for a in mine),
        checker_error=sum(a.checker_error for a in mine),
        cube_decisions=sum(a.cube_decisions for a in mine),
        cube_error=sum(a.cube_error for a in mine),
        blunders=sum(a.blunders for a in mine),
        mistakes=tuple(mistakes[:3]),
        performance=PerformanceRating.total(a.performance for a in mine),
    )


def analyze_decisions(
    evaluator: Evaluator,
    decisions: Iterable[tuple[Game, Decision]],
    *,
    players: Collection[int] = (0, 1),
    blunder_threshold: float = BLUNDER_THRESHOLD,
    screen: Evaluator | None = None,
) -> dict[int, PlayerAnalysis]:
    """Error rates, blunders and biggest mistakes of ``players`` over ``decisions``.

    Each decision is the game just before it and what was decided: the :class:`Play`
    made (Phase.MOVE), or a :class:`CubeDecision` — NO_DOUBLE or DOUBLE in Phase.ROLL,
    TAKE, DROP or BEAVER in Phase.DOUBLED. Decisions may span several games of a
    match. Evaluated without noise; deterministic.

    ``screen``, a cheaper evaluator, first values each no-double decision: one it finds
    far from doubling (see :data:`SCREEN_MARGIN`) is not counted, as the full search
    would not count it, without the search.
    """
    tallies = {player: _Tally(player) for player in players}
    for game, decision in decisions:
        actor = game.actor
        if actor is None or actor not in tallies:
            continue
        tally = tallies[actor]
        if isinstance(decision, Play):
            _analyze_play(evaluator, tally, game, decision, blunder_threshold)
        else:
            cube = CubeDecision(decision)
            if screen is not None and cube is CubeDecision.NO_DOUBLE and _far(screen, game):
                continue
            _analyze_cube(evaluator, tally, game, cube, blunder_threshold)
    return {
        player: PlayerAnalysis(
            player=player,
            checker_decisions=tally.checker_decisions,
            checker_error=tally.checker_error,
            cube_decisions=tally.cube_decisions,
            cube_error=tally.cube_error,
            blunders=tally.blunders,
            mistakes=tuple(sorted(tally.mistakes, key=lambda mistake: -mistake.equity_lost)[:3]),
            performance=PerformanceRating(tally.pr_checker, tally.pr_cube),
        )
        for player, tally in tallies.items()
    }


def _far(screen: Evaluator, game: Game) -> bool:
    """Whether ``screen`` finds doubling in ``game`` so much worse than playing on that the
    no-double decision cannot count, neither GNU Backgammon's way nor XG's."""
    if game.phase is not Phase.ROLL or not game.can_double():
        return False  # _analyze_cube decides (and refuses a game in the wrong phase)
    context = CubeContext.for_game(game)
    equities = screen.cube_equities(game.position, context)
    options = responses(equities, context.beavers)
    doubled = options[best_response(options)]
    return equities.no_double - doubled >= SCREEN_BOUND


def _analyze_play(
    evaluator: Evaluator, tally: _Tally, game: Game, play: Play, blunder: float
) -> None:
    if game.phase is not Phase.MOVE or game.dice is None:
        raise ValueError(f"a checker play needs a game waiting for a move, not {game!r}")
    plays = game.legal_plays()
    if len(plays) < 2:
        return
    made = game.position.apply(play)
    if made not in plays:
        raise ValueError(f"{play} is not legal with {game.dice[0]}-{game.dice[1]}")
    ranked = evaluator.rank_plays(
        game.position, game.dice, plays.results(), CubeContext.for_game(game), force=[made]
    )
    equities = {item.result.board: item.equity for item in ranked}
    best = ranked[0]
    lost = max(0.0, best.equity - equities[made.board])
    tally.checker_decisions += 1
    tally.checker_error += lost
    if checker_counts(list(equities.values())):
        tally.pr_checker = tally.pr_checker.counted(lost, decision_weight(game.options.length))
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
    evaluator: Evaluator, tally: _Tally, game: Game, decision: CubeDecision, blunder: float
) -> None:
    """One cube decision: counted GNU Backgammon's way (``gnu``) for the error rate and XG's
    way (``xg``) for the PR; a decision neither counts adds nothing."""
    word = "Redouble" if game.cube_owner is not None else "Double"
    if decision in (CubeDecision.NO_DOUBLE, CubeDecision.DOUBLE):
        if game.phase is not Phase.ROLL:
            raise ValueError(f"{decision} needs a game before the roll, not {game!r}")
        if not game.can_double():
            if decision is CubeDecision.DOUBLE:
                raise ValueError(f"doubling is not allowed in {game!r}")
            return
        context = CubeContext.for_game(game)
        equities = evaluator.cube_equities(game.position, context)
        options = responses(equities, context.beavers)
        doubled = options[best_response(options)]
        best = max(doubled, equities.no_double)
        if decision is CubeDecision.NO_DOUBLE:
            lost, made, better = best - equities.no_double, f"No {word.lower()}", word
            # GNU Backgammon counts a no double only when doubling was close or right.
            gnu = equities.no_double - doubled < CLOSE_CUBE_THRESHOLD
        else:
            lost, made, better = best - doubled, word, f"No {word.lower()}"
            gnu = True
        xg = double_counts(
            equities.no_double, equities.double_take, equities.double_pass, max(0.0, lost)
        )
    else:
        if game.phase is not Phase.DOUBLED:
            raise ValueError(f"{decision} needs a pending double, not {game!r}")
        if game.beaver_pending:
            if decision not in (CubeDecision.TAKE, CubeDecision.DROP):
                raise ValueError("after a beaver the doubler can only take or drop")
            owned = evaluator.cube_equities(game.position, CubeContext.for_game(game))
            values = {
                CubeDecision.TAKE: beaver_take_value(owned),
                CubeDecision.DROP: -1.0,
            }
            best_choice = max(values, key=values.__getitem__)
            lost = values[best_choice] - values[decision]
        else:
            equities = evaluator.cube_equities(game.position, CubeContext.for_game(game))
            values = responses(equities, beavers_allowed(game))
            if decision not in values:
                raise ValueError(f"{decision} is not allowed in {game!r}")
            best_choice = best_response(values)
            lost = values[decision] - values[best_choice]  # the receiver minimizes
        made, better = _CUBE_WORDS[decision], _CUBE_WORDS[best_choice]
        gnu = True
        xg = response_counts(values[CubeDecision.TAKE], values[CubeDecision.DROP])
    if not (gnu or xg):
        return
    lost = max(0.0, lost)
    if xg:
        tally.pr_cube = tally.pr_cube.counted(lost, decision_weight(game.options.length))
    if not gnu:
        return
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
