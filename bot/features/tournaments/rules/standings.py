"""Standings of a round-based event (Swiss, round robin) with ordered tie-breaks.

Points: 1 for any win (played, timeout, walkover, bye), 0 otherwise; a double forfeit gives
nobody anything. Ties are broken by a list of :class:`TieBreak` s applied in order, each
only among the players still tied, then by rating (unrated last), then by seed:

- **Buchholz**: the sum of the opponents' scores, optionally without the ``cut`` lowest
  (MSO drops the worst). Unplayed games follow FIDE's 2009 rule (as Vega applies it): in
  an opponent's score each unplayed game (bye, walkover, double forfeit, a round missed)
  counts as a draw, half a point; and one's own unplayed round counts a *virtual opponent*
  whose score is one's score before that round, plus the point not won in it, plus half a
  point for each later round. So a bye neither helps nor hurts the tie-break.
- **Sonneborn-Berger**: the sum of the (same) scores of the opponents one beat.
- **Head-to-head**: the points won in games among the tied players only.
- **Points difference**: points won minus points lost over the board, winning scores
  truncated to the match length (as the Cambridge league does).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.features.tournaments.rules.model import Game, OutcomeKind, PlayerId


class TieBreak(StrEnum):
    BUCHHOLZ = "buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    HEAD_TO_HEAD = "head_to_head"
    POINTS_DIFFERENCE = "points_difference"


SWISS_TIE_BREAKS = (TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER, TieBreak.HEAD_TO_HEAD)
ROUND_ROBIN_TIE_BREAKS = (
    TieBreak.HEAD_TO_HEAD,
    TieBreak.SONNEBORN_BERGER,
    TieBreak.POINTS_DIFFERENCE,
)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the table. ``head_to_head`` is among the players this one was tied with
    when it was needed (0 when it was not)."""

    rank: int
    player: PlayerId
    points: float
    played: int  # games played over the board
    won: int  # wins of any kind, byes and walkovers included
    lost: int
    byes: int
    walkovers: int  # walkovers won or lost, and double forfeits
    buchholz: float
    sonneborn_berger: float
    head_to_head: float
    points_difference: int

    def value(self, tie_break: TieBreak) -> float:
        return float(getattr(self, tie_break.value))


def standings(
    players: Sequence[PlayerId],
    games: Iterable[Game],
    *,
    rounds_completed: int,
    tie_breaks: Sequence[TieBreak] = SWISS_TIE_BREAKS,
    ratings: Mapping[PlayerId, float | None] | None = None,
    buchholz_cut: int = 0,
) -> tuple[Standing, ...]:
    """The table after ``rounds_completed`` rounds; ``players`` in seed order (the last
    tie-break). Games of later rounds are ignored, so a round in progress does not move
    anyone before it is complete."""
    ratings = ratings or {}
    seed_of = {p: i for i, p in enumerate(players)}
    by_round: dict[PlayerId, dict[int, tuple[PlayerId | None, float, Game]]] = {
        p: {} for p in players
    }
    for game in games:
        if game.round > rounds_completed:
            continue
        for player in game.pairing.players:
            opponent = next((q for q in game.pairing.players if q != player), None)
            by_round[player][game.round] = (opponent, game.result.points_for(player), game)

    points = {p: sum(r[1] for r in by_round[p].values()) for p in players}

    def adjusted(player: PlayerId) -> float:
        """The score an opponent's tie-break sees: unplayed rounds as draws."""
        total = 0.0
        for number in range(1, rounds_completed + 1):
            entry = by_round[player].get(number)
            if entry is None or not entry[2].result.played_over_board:
                total += 0.5
            else:
                total += entry[1]
        return total

    adjusted_score = {p: adjusted(p) for p in players}
    contributions: dict[PlayerId, list[tuple[float, float]]] = {}
    for player in players:
        before = 0.0
        parts = []
        for number in range(1, rounds_completed + 1):
            entry = by_round[player].get(number)
            scored = 0.0 if entry is None else entry[1]
            if entry is not None and entry[2].result.played_over_board and entry[0] is not None:
                opponent_score = adjusted_score.get(entry[0], 0.0)
            else:  # FIDE 2009's virtual opponent
                opponent_score = before + (1.0 - scored) + 0.5 * (rounds_completed - number)
            parts.append((opponent_score, scored))
            before += scored
        contributions[player] = parts

    def buchholz(player: PlayerId) -> float:
        scores = sorted(score for score, _ in contributions[player])
        return sum(scores[buchholz_cut:])

    def tally(player: PlayerId) -> tuple[int, int, int, int, int, int]:
        played = won = lost = byes = walkovers = difference = 0
        for _, scored, game in by_round[player].values():
            result = game.result
            won += scored == 1.0
            lost += result.loser == player
            byes += result.kind is OutcomeKind.BYE
            walkovers += result.kind in (OutcomeKind.WALKOVER, OutcomeKind.DOUBLE_FORFEIT)
            if result.played_over_board and result.score is not None:
                played += 1
                high, low = min(result.score[0], game.length), result.score[1]
                difference += high - low if result.winner == player else low - high
        return played, won, lost, byes, walkovers, difference

    rows = {}
    for player in players:
        played, won, lost, byes, walkovers, difference = tally(player)
        rows[player] = Standing(
            rank=0,
            player=player,
            points=points[player],
            played=played,
            won=won,
            lost=lost,
            byes=byes,
            walkovers=walkovers,
            buchholz=buchholz(player),
            sonneborn_berger=sum(score * scored for score, scored in contributions[player]),
            head_to_head=0.0,
            points_difference=difference,
        )

    def head_to_head(group: Sequence[PlayerId]) -> dict[PlayerId, float]:
        members = set(group)
        return {
            p: sum(
                scored
                for opponent, scored, _ in by_round[p].values()
                if opponent in members and opponent != p
            )
            for p in group
        }

    def last_resort(player: PlayerId) -> tuple[bool, float, int]:
        rating = ratings.get(player)
        return rating is None, -(rating or 0.0), seed_of[player]

    def order(group: list[PlayerId], breaks: Sequence[TieBreak]) -> list[PlayerId]:
        if len(group) <= 1 or not breaks:
            return sorted(group, key=last_resort)
        first, rest = breaks[0], breaks[1:]
        if first is TieBreak.HEAD_TO_HEAD:
            values = head_to_head(group)
            for p in group:
                rows[p] = _with_h2h(rows[p], values[p])
        else:
            values = {p: rows[p].value(first) for p in group}
        out: list[PlayerId] = []
        for value in sorted(set(values.values()), reverse=True):
            out += order([p for p in group if values[p] == value], rest)
        return out

    ranked: list[PlayerId] = []
    for value in sorted(set(points.values()), reverse=True):
        ranked += order([p for p in players if points[p] == value], tie_breaks)
    return tuple(_with_rank(rows[p], rank) for rank, p in enumerate(ranked, start=1))


def _with_h2h(row: Standing, value: float) -> Standing:
    return replace(row, head_to_head=value)


def _with_rank(row: Standing, rank: int) -> Standing:
    return replace(row, rank=rank)
