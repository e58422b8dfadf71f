"""Luck, as GNU Backgammon defines it, and each side's chance of winning after every play.

The **luck of a roll** is the equity of the best play with the dice that came, minus the
average of that over all 36 ways the dice could have fallen (21 distinct rolls: doubles
count once, the others twice), both for the roller and in the cube and score of the moment.
A lucky roll is positive, a poor one negative; over a fair game the dice even out, so the
sum per player shows how much the dice, not the play, decided it. Units are normalized
equity, like the error rates of :mod:`bot.computer` (+1 = the cube's value); "per 1000"
figures are millipoints.

The opening roll is special: it decides who moves, so its average runs over the 30 rolls
with different dice, half of them won by each side. The luck goes to the player who won it
(in a money game the two sides' averages cancel and it is the equity of the roll itself).

Every evaluation goes through the :class:`bot.computer.Evaluator` protocol, so a stub with
hand-set equities can stand in for bgsage. Everything here is synchronous CPU work (about 21
evaluations per roll): call it from a worker thread, never on the event loop.

:func:`match_luck` walks a match's event log and also records, after every play, player 0's
chance of winning the game (cubeless, from the evaluator) and the equity the play lost,
which is what :mod:`renderers.charts` draws.

Each roll's luck is also counted at the stake of the moment, and each game's result in the
same units, as GNU Backgammon counts them for its luck-adjusted result
(:meth:`MatchLuck.luck_adjusted`, :class:`bot.computer.LuckAdjustedResult`): points in a
money game (the luck times the cube), match-winning chances in a match, through the
evaluator's match equity table (:class:`bot.computer.evaluator.MatchEquity`; an evaluator
without one leaves them unknown, None).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.computer import (
    CubeContext,
    Evaluator,
    LuckAdjustedResult,
    RankedResult,
    RollsEvaluator,
)
from bot.computer.evaluator import MatchEquity
from bot.core.records import Action, EventRecord
from bot.core.replay import replay_event
from bot.engine import Dice, Game, MatchOptions, Phase, Play, Position, legal_plays

__all__ = [
    "ALL_ROLLS",
    "OPENING_ROLLS",
    "GameLuck",
    "LuckEvaluations",
    "MatchLuck",
    "PlayPoint",
    "PlayerLuck",
    "RollLuck",
    "match_luck",
    "opening_luck",
    "roll_luck",
]

# The 21 distinct rolls with how many of the 36 equally likely outcomes each stands for.
ALL_ROLLS: tuple[tuple[Dice, int], ...] = tuple(
    ((high, low), 1 if high == low else 2) for high in range(1, 7) for low in range(1, high + 1)
)
# The 15 distinct opening rolls (no doubles: a tie is rolled again).
OPENING_ROLLS: tuple[Dice, ...] = tuple(dice for dice, _ in ALL_ROLLS if dice[0] != dice[1])

# Equity lost from which a play counts as an error and as a blunder (GNU Backgammon's
# "bad" and "very bad"; bot.computer.BLUNDER_THRESHOLD is the same 0.08).
ERROR_THRESHOLD = 0.04
BLUNDER_THRESHOLD = 0.08


def _key(dice: Sequence[int]) -> Dice:
    return (max(dice), min(dice))


_Key = tuple[tuple[int, ...], Dice, CubeContext, frozenset[tuple[int, ...]]]


class LuckEvaluations:
    """The evaluator's ranking of each (position, roll, cube context), asked once each.

    One instance serves one analysis; the same position and roll recur (the opening, and
    the actual roll that is also one of the 21), so the cache saves real evaluations.
    An evaluator that values many rolls at once (:class:`~bot.computer.RollsEvaluator`)
    gets the 21 rolls of an average in one call: most of a match's luck is those averages,
    and only their best equities are needed.
    """

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator
        self._ranked: dict[_Key, list[RankedResult]] = {}
        self._best: dict[tuple[tuple[int, ...], Dice, CubeContext], float] = {}
        self.calls = 0

    def ranked(
        self,
        position: Position,
        dice: Dice,
        context: CubeContext,
        *,
        force: Sequence[Position] = (),
    ) -> list[RankedResult]:
        """Every result of the roll, best first; a roll with no play keeps the position."""
        # A forced result is evaluated at full strength (as analysis does), so it is a
        # different question from the plain ranking.
        forced = frozenset(result.board for result in force)
        key = (position.board, _key(dice), context, forced)
        cached = self._ranked.get(key)
        if cached is not None:
            return cached
        results = legal_plays(position, dice).results() or [position]
        self.calls += 1
        ranked = self.evaluator.rank_plays(position, dice, results, context, force=force)
        if not ranked:
            raise RuntimeError(f"the evaluator ranked no play of {position!r} with {dice}")
        ranked = sorted(ranked, key=lambda item: -item.equity)
        self._ranked[key] = ranked
        return ranked

    def best(self, position: Position, dice: Dice, context: CubeContext) -> float:
        """The equity of the best play with ``dice``, for the player on roll in ``position``."""
        known = self._best.get((position.board, _key(dice), context))
        if known is not None:
            return known
        return self.ranked(position, dice, context)[0].equity

    def average(self, position: Position, context: CubeContext) -> float:
        """The best play's equity averaged over the 36 outcomes of the dice."""
        if isinstance(self.evaluator, RollsEvaluator):
            missing = [
                dice
                for dice, _ in ALL_ROLLS
                if (position.board, dice, context) not in self._best
                and (position.board, dice, context, frozenset()) not in self._ranked
            ]
            if missing:
                self.calls += 1
                equities = self.evaluator.best_equities(position, missing, context)
                for dice, equity in zip(missing, equities, strict=True):
                    self._best[(position.board, dice, context)] = equity
        total = sum(weight * self.best(position, dice, context) for dice, weight in ALL_ROLLS)
        return total / 36.0

    def stake(self, context: CubeContext) -> float | None:
        """What one unit of normalized equity is worth in the result's units for the player
        of ``context``: the cube in a money game, match-winning chances in a match (GNU
        Backgammon's ``eq2mwc(x) - eq2mwc(0)``, linear in x); None without a table."""
        if context.is_money:
            return float(context.cube)
        table = self.evaluator
        if not isinstance(table, MatchEquity):
            return None
        return table.equity_mwc(1.0, context) - table.equity_mwc(0.0, context)

    def winnings(self, over: Game) -> float | None:
        """What the winner of the finished game ``over`` gained, in the result's units: its
        points in a money game; in a match, the match-winning chances it added (1 when it
        won the match), None without a table."""
        result = over.result
        if result is None:
            raise ValueError(f"the game is not over: {over!r}")
        if over.options.is_money:
            return float(result.points)
        table = self.evaluator
        if not isinstance(table, MatchEquity):
            return None
        winner = result.winner
        after = 1.0 if over.match_over else _score_mwc(table, over.next_game(), winner)
        return after - _score_mwc(table, over, winner)


def _score_mwc(table: MatchEquity, game: Game, player: int) -> float:
    """``player``'s chance of winning the match at the start of ``game``."""
    length = game.options.length
    away = (length - game.score[player], length - game.score[1 - player])
    return table.score_mwc(away, post_crawford=game.post_crawford)


def _evaluations(evaluator: Evaluator | LuckEvaluations) -> LuckEvaluations:
    return evaluator if isinstance(evaluator, LuckEvaluations) else LuckEvaluations(evaluator)


def roll_luck(game: Game, dice: Dice, evaluator: Evaluator | LuckEvaluations) -> float:
    """The luck of ``dice`` for the player on roll in ``game`` (the game before the roll).

    ``game`` may also be the game just after the roll (Phase.MOVE): the board and the cube
    are the same. Returns equity(best play with ``dice``) minus the average over 36 rolls.
    """
    cache = _evaluations(evaluator)
    context = CubeContext.for_game(game)
    average = cache.average(game.position, context)  # first: it values ``dice`` too
    return cache.best(game.position, dice, context) - average


def opening_luck(
    game: Game, dice: Dice, evaluator: Evaluator | LuckEvaluations
) -> tuple[int, float]:
    """The winner of an opening roll and its luck for them.

    ``dice`` are (player 0's die, player 1's die), unequal; ``game`` is the game at the
    opening (its score and cube set each side's context). The average runs over the 30
    outcomes with unequal dice: each of the 15 rolls goes to either side, and when the
    opponent moves first the winner's equity is minus the opponent's.
    """
    if dice[0] == dice[1]:
        raise ValueError("a tie in the opening roll is rolled again and has no luck")
    cache = _evaluations(evaluator)
    winner = 0 if dice[0] > dice[1] else 1
    start = Position.start()
    mine = CubeContext.for_game(game, winner)
    theirs = CubeContext.for_game(game, 1 - winner)
    total = 0.0
    for roll in OPENING_ROLLS:
        total += cache.best(start, roll, mine) - cache.best(start, roll, theirs)
    average = total / 30.0
    return winner, cache.best(start, _key(dice), mine) - average


# --- a whole match ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollLuck:
    """The luck of one roll. ``play`` is the chart index of the play it led to (1-based)."""

    game_number: int
    player: int
    dice: Dice
    luck: float
    equity: float  # the best play's equity with these dice
    average: float  # the best play's equity averaged over the dice
    opening: bool = False
    play: int | None = None
    result_luck: float | None = None  # the luck at the stake of the moment (module doc)


@dataclass(frozen=True, slots=True)
class PlayPoint:
    """The state after one play (or forced pass): a point of the game's chart.

    ``win`` is player 0's chance of winning the game after the play, cubeless (1 - ``win``
    is player 1's); 1 or 0 once the play ends the game. ``equity_lost`` is how much worse
    the play was than the best with the same dice (0 when there was no choice).
    """

    game_number: int
    index: int  # 1-based within the game
    player: int
    dice: Dice
    notation: str
    win: float
    equity_lost: float
    choices: int  # legal plays the roll allowed
    luck: float | None = None  # the luck of the roll that was played

    @property
    def error(self) -> bool:
        return self.equity_lost >= ERROR_THRESHOLD

    @property
    def blunder(self) -> bool:
        return self.equity_lost >= BLUNDER_THRESHOLD


@dataclass(frozen=True, slots=True)
class PlayerLuck:
    """One player's luck over some rolls, with GNU Backgammon's per-roll rate."""

    player: int
    rolls: int
    total: float

    @property
    def rate(self) -> float:
        """Millipoints of luck per roll."""
        return 1000.0 * self.total / self.rolls if self.rolls else 0.0


def _players(rolls: Iterable[RollLuck]) -> dict[int, PlayerLuck]:
    counts = {0: 0, 1: 0}
    totals = {0: 0.0, 1: 0.0}
    for roll in rolls:
        counts[roll.player] += 1
        totals[roll.player] += roll.luck
    return {p: PlayerLuck(p, counts[p], totals[p]) for p in (0, 1)}


@dataclass(slots=True)
class GameLuck:
    """One game: every roll's luck and the chart points, in order; once it is over, its
    winner and what they won in the result's units (see the module docstring)."""

    game_number: int
    rolls: list[RollLuck] = field(default_factory=list)
    points: list[PlayPoint] = field(default_factory=list)
    winner: int | None = None
    winnings: float | None = None

    @property
    def players(self) -> dict[int, PlayerLuck]:
        return _players(self.rolls)

    @property
    def luckiest(self) -> RollLuck | None:
        return max(self.rolls, key=lambda roll: roll.luck, default=None)

    @property
    def unluckiest(self) -> RollLuck | None:
        return min(self.rolls, key=lambda roll: roll.luck, default=None)

    def chart_inputs(self) -> dict[str, Any]:
        """Keyword arguments for :func:`renderers.charts.win_chance_chart` (add ``names``)."""
        luckiest, unluckiest = self.luckiest, self.unluckiest
        return {
            "points": [point.win for point in self.points],
            "errors": [point.index for point in self.points if point.error],
            "blunders": [point.index for point in self.points if point.blunder],
            "luckiest": luckiest.play if luckiest else None,
            "unluckiest": unluckiest.play if unluckiest else None,
            "game_number": self.game_number,
        }


@dataclass(slots=True)
class MatchLuck:
    """Every game of a match, and each player's luck over all of them."""

    games: list[GameLuck] = field(default_factory=list)

    @property
    def rolls(self) -> list[RollLuck]:
        return [roll for game in self.games for roll in game.rolls]

    @property
    def players(self) -> dict[int, PlayerLuck]:
        return _players(self.rolls)

    def game(self, number: int) -> GameLuck:
        for game in self.games:
            if game.game_number == number:
                return game
        raise KeyError(f"no game {number} in this match")

    def luck_adjusted(self, player: int) -> LuckAdjustedResult | None:
        """``player``'s result over these games with the luck taken out, GNU Backgammon's
        way; None when a stake is unknown (an evaluator without a match equity table)."""
        actual = own = theirs = normalized = 0.0
        rolls = 0
        for game in self.games:
            if game.winner is None:
                continue  # unfinished: nothing won yet
            if game.winnings is None:
                return None
            actual += game.winnings if game.winner == player else -game.winnings
        for roll in self.rolls:
            if roll.result_luck is None:
                return None
            if roll.player == player:
                own += roll.result_luck
                normalized += roll.luck
                rolls += 1
            else:
                theirs += roll.result_luck
        return LuckAdjustedResult(actual, own, theirs, rolls, normalized)


def _win_after(after: Game, mover: int, item: RankedResult, cache: LuckEvaluations) -> float:
    """Player 0's chance of winning the game once ``mover`` has reached ``item``."""
    if after.phase is Phase.OVER and after.result is not None:
        return 1.0 if after.result.winner == 0 else 0.0
    chances = item.chances
    if chances is not None:
        mover_wins = chances.win
    else:
        # No chances with the ranking: ask for the position as the next player sees it.
        equities = cache.evaluator.cube_equities(after.position, CubeContext.for_game(after))
        if equities.chances is not None:
            next_wins = equities.chances.win
        else:  # an evaluator with no probabilities at all: a rough stand-in from equity
            next_wins = min(1.0, max(0.0, (equities.no_double + 1.0) / 2.0))
        mover_wins = next_wins if after.on_roll == mover else 1.0 - next_wins
    return mover_wins if mover == 0 else 1.0 - mover_wins


def match_luck(
    options: MatchOptions,
    events: Iterable[EventRecord],
    evaluator: Evaluator | LuckEvaluations,
    *,
    games: Iterable[int] | None = None,
) -> MatchLuck:
    """Luck of every roll and the chart points of every play, replaying the event log.

    ``events`` are a match's :class:`bot.core.records.EventRecord` list; ``games`` limits the
    work to some game numbers (the end of a game needs only that game). Synchronous CPU
    work: call it from a worker thread.
    """

    cache = _evaluations(evaluator)
    wanted = None if games is None else set(games)
    result = MatchLuck()
    current: GameLuck | None = None
    pending: int | None = None  # index in current.rolls of the roll awaiting its play
    before: Game | None = None
    for event in events:
        after = replay_event(options, before, event)
        action = event.action
        number = after.game_number
        if wanted is not None and number not in wanted:
            before = after
            continue
        if current is None or current.game_number != number:
            current = GameLuck(number)
            result.games.append(current)
            pending = None
        if action == Action.OPENING and after.phase is Phase.MOVE and before is not None:
            dice = event.dice
            assert dice is not None
            winner, luck = opening_luck(before, dice, cache)
            context = CubeContext.for_game(after)
            equity = cache.best(after.position, after.dice or dice, context)
            stake = cache.stake(context)
            current.rolls.append(
                RollLuck(
                    number,
                    winner,
                    _key(dice),
                    luck,
                    equity,
                    equity - luck,
                    opening=True,
                    result_luck=None if stake is None else stake * luck,
                )
            )
            pending = len(current.rolls) - 1
        elif action == Action.ROLL and before is not None:
            dice = event.dice
            assert dice is not None
            context = CubeContext.for_game(before)
            average = cache.average(before.position, context)  # first: it values ``dice``
            equity = cache.best(before.position, dice, context)
            stake = cache.stake(context)
            luck = equity - average
            current.rolls.append(
                RollLuck(
                    number,
                    before.on_roll,
                    dice,
                    luck,
                    equity,
                    average,
                    result_luck=None if stake is None else stake * luck,
                )
            )
            pending = len(current.rolls) - 1
        elif action in (Action.MOVE, Action.PASS) and before is not None:
            assert before.dice is not None
            mover = before.on_roll
            play = after.last_play if action == Action.MOVE else Play(())
            assert play is not None
            made = before.position.apply(play)
            plays = legal_plays(before.position, before.dice)
            ranked = cache.ranked(
                before.position, before.dice, CubeContext.for_game(before), force=[made]
            )
            item = next((r for r in ranked if r.result.board == made.board), None)
            if item is None:
                raise RuntimeError(f"the evaluator did not rank the play made: {play}")
            choices = 0 if plays.is_forced_pass else len(plays)
            lost = max(0.0, ranked[0].equity - item.equity) if choices > 1 else 0.0
            index = len(current.points) + 1
            luck = None
            if pending is not None:
                roll = current.rolls[pending]
                current.rolls[pending] = replace(roll, play=index)
                luck = roll.luck
                pending = None
            current.points.append(
                PlayPoint(
                    number,
                    index,
                    mover,
                    before.dice,
                    str(play) if action == Action.MOVE else "(no move)",  # the notation of a pass
                    _win_after(after, mover, item, cache),
                    lost,
                    choices,
                    luck,
                )
            )
        if after.phase is Phase.OVER and after.result is not None and current.winner is None:
            current.winner = after.result.winner
            current.winnings = cache.winnings(after)
        before = after
    return result
