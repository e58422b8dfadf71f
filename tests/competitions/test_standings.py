"""Tie-breaks on hand-built tables: Buchholz, Sonneborn-Berger, head-to-head, rating, and
FIDE's treatment of byes and walkovers."""

from __future__ import annotations

import pytest

from bot.features.tournaments.rules import Game, Pairing, Result, TieBreak, standings

A, B, C, D, E, F = range(6)
NAMES = "ABCDEF"


def game(round_number: int, winner: int, loser: int) -> Game:
    return Game(round_number, Pairing(winner, loser), Result.played(winner, loser, (5, 0)), 5)


# Three rounds of six players. Points: F 3, A 2, then B, C, D, E on 1.
# Buchholz: D 1+3+3 = 7, B 2+1+2 = 5, E 3+1+1 = 5, C 1+2+1 = 4.
# Sonneborn-Berger: C beat A (2) = 2; B beat E, D beat C, E beat C: 1 each.
# B beat E: head-to-head separates them.
TABLE = [
    game(1, A, B), game(1, D, C), game(1, F, E),
    game(2, B, E), game(2, F, D), game(2, C, A),
    game(3, F, D), game(3, E, C), game(3, A, B),
]  # fmt: skip


def order(rows: tuple) -> str:
    return "".join(NAMES[r.player] for r in rows)


def test_the_figures_of_each_tie_break() -> None:
    rows = {r.player: r for r in standings(range(6), TABLE, rounds_completed=3)}
    assert [rows[p].points for p in (A, B, C, D, E, F)] == [2, 1, 1, 1, 1, 3]
    assert [rows[p].buchholz for p in (B, C, D, E)] == [5, 4, 7, 5]
    assert [rows[p].sonneborn_berger for p in (B, C, D, E)] == [1, 2, 1, 1]
    assert rows[B].head_to_head == 1 and rows[E].head_to_head == 0
    assert rows[A].points_difference == 5 and rows[F].points_difference == 15


def test_buchholz_then_sonneborn_berger_then_head_to_head() -> None:
    rows = standings(range(6), TABLE, rounds_completed=3)
    assert order(rows) == "FADBEC"
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]


def test_the_order_of_tie_breaks_is_followed() -> None:
    sb_first = (TieBreak.SONNEBORN_BERGER, TieBreak.BUCHHOLZ, TieBreak.HEAD_TO_HEAD)
    assert order(standings(range(6), TABLE, rounds_completed=3, tie_breaks=sb_first)) == "FACDBE"
    without_h2h = (TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER)
    # B and E stay tied: the seed order (B before E) decides, unless ratings say otherwise.
    assert order(standings(range(6), TABLE, rounds_completed=3, tie_breaks=without_h2h)) == "FADBEC"
    rated = {E: 1600.0, B: 1500.0}
    rows = standings(range(6), TABLE, rounds_completed=3, tie_breaks=without_h2h, ratings=rated)
    assert order(rows) == "FADEBC"


def test_unrated_players_come_after_rated_ones_when_all_else_is_equal() -> None:
    rows = standings([A, B, C], [], rounds_completed=0, ratings={C: 1400.0})
    assert order(rows) == "CAB"


def test_buchholz_cut_drops_the_weakest_opponent() -> None:
    rows = {r.player: r for r in standings(range(6), TABLE, rounds_completed=3, buchholz_cut=1)}
    assert rows[D].buchholz == 6  # 1 + 3 + 3 without the 1


def test_a_bye_counts_a_virtual_opponent_as_fide_2009() -> None:
    # Three players, three rounds, a bye each: everyone ends on 2 points.
    games = [
        game(1, A, B), Game(1, Pairing(C, None), Result.bye(C), 5),
        game(2, C, A), Game(2, Pairing(B, None), Result.bye(B), 5),
        game(3, B, C), Game(3, Pairing(A, None), Result.bye(A), 5),
    ]  # fmt: skip
    rows = {r.player: r for r in standings([A, B, C], games, rounds_completed=3)}
    assert [rows[p].points for p in (A, B, C)] == [2, 2, 2]
    # Opponents' scores count the bye as a draw: 1 + 0.5 each. A's own bye in round 3:
    # a virtual opponent on A's score before it (1), plus the point not lost (0), plus
    # nothing for later rounds. B's bye in round 2: 0 + 0 + 0.5; C's in round 1: 0 + 0 + 1.
    assert rows[A].buchholz == 1.5 + 1.5 + 1
    assert rows[B].buchholz == 1.5 + 0.5 + 1.5
    assert rows[C].buchholz == 1.0 + 1.5 + 1.5
    assert rows[A].byes == 1 and rows[A].played == 2


def test_a_walkover_scores_a_point_but_counts_as_a_draw_for_opponents() -> None:
    games = [
        Game(1, Pairing(A, B), Result.walkover(A, B), 5),
        game(1, C, D),
        game(2, A, C),
        game(2, D, B),
    ]
    rows = {r.player: r for r in standings([A, B, C, D], games, rounds_completed=2)}
    assert rows[A].points == 2 and rows[A].walkovers == 1 and rows[A].played == 1
    # D's Buchholz: C (1 point, all played) + B (the walkover lost counts 0.5, then a loss).
    assert rows[D].buchholz == 1 + 0.5
    assert rows[A].points_difference == 5  # only the match played over the board


def test_rounds_in_progress_do_not_count() -> None:
    rows = standings([A, B], [game(1, A, B), game(2, B, A)], rounds_completed=1)
    assert [(r.player, r.points) for r in rows] == [(A, 1), (B, 0)]


@pytest.mark.parametrize("length", [3, 5])
def test_points_difference_truncates_the_winning_score(length: int) -> None:
    over = Game(1, Pairing(A, B), Result.played(A, B, (7, 2)), length)
    rows = {r.player: r for r in standings([A, B], [over], rounds_completed=1)}
    assert rows[A].points_difference == length - 2
    assert rows[B].points_difference == 2 - length
