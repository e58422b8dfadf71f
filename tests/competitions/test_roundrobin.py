"""Round robin groups: Berger tables, groups of at most six, standings, quitters."""

from __future__ import annotations

from itertools import combinations

import pytest

from bot.features.tournaments.rules import (
    GroupKey,
    Result,
    ResultConflict,
    RoundRobin,
    berger_rounds,
)
from bot.features.tournaments.rules.model import ResultError
from tests.competitions.support import played


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_berger_tables_meet_everyone_once(players: int) -> None:
    rounds = berger_rounds(list(range(players)))
    assert len(rounds) == (players if players % 2 else players - 1)
    met = [frozenset(p.players) for r in rounds for p in r]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in combinations(range(players), 2)), key=sorted
    )
    for round_ in rounds:
        seen = [x for p in round_ for x in p.players]
        assert len(seen) == len(set(seen))  # nobody twice in a round
        assert len(seen) >= players - 1  # at most one sits out


def test_groups_of_at_most_six_dealt_snake_wise() -> None:
    event = RoundRobin.draw(list(range(1, 14)))
    assert [len(g) for g in event.groups] == [5, 4, 4]
    assert event.groups[0][:2] == (1, 6)
    with pytest.raises(ValueError):
        RoundRobin.draw(list(range(10)), group_size=7)


def test_a_round_robin_of_four() -> None:
    event = RoundRobin.draw([1, 2, 3, 4])
    assert len(event.matches()) == 6 and not event.finished
    # 1 wins everything, 2 beats 3 and 4, 3 beats 4.
    for match in event.matches():
        a, b = sorted(match.pairing.players)
        event = event.record(match.key, played(a, b))
    assert event.finished
    table = event.standings(0)
    assert [(r.player, r.points) for r in table] == [(1, 3), (2, 2), (3, 1), (4, 0)]
    assert [r.rank for r in table] == [1, 2, 3, 4]


def test_head_to_head_breaks_a_two_way_tie_first() -> None:
    event = RoundRobin.draw([1, 2, 3, 4])
    # 1 and 2 both on 2 wins; 2 beat 1.
    winners = {frozenset({1, 2}): 2, frozenset({1, 3}): 1, frozenset({1, 4}): 1,
               frozenset({2, 3}): 3, frozenset({2, 4}): 2, frozenset({3, 4}): 4}  # fmt: skip
    for match in event.matches():
        winner = winners[frozenset(match.pairing.players)]
        loser = next(p for p in match.pairing.players if p != winner)
        event = event.record(match.key, played(winner, loser))
    table = event.standings(0)
    assert [r.player for r in table][:2] == [2, 1]


def test_results_are_idempotent() -> None:
    event = RoundRobin.draw([1, 2, 3])
    match = event.matches()[0]
    a, b = match.pairing.players
    once = event.record(match.key, played(a, b))
    assert once.record(match.key, played(a, b)) is once
    with pytest.raises(ResultConflict):
        once.record(match.key, played(b, a))
    assert GroupKey.parse(str(match.key)) == match.key


def test_a_quitter_with_few_matches_played_is_voided() -> None:
    event = RoundRobin.draw([1, 2, 3, 4])
    first = next(m for m in event.matches() if 1 in m.pairing.players)
    event = event.record(first.key, played(1, first.pairing.b or 0))
    event = event.withdraw(1)  # one of three played: fewer than half
    assert 1 in event.voided
    assert all(1 not in m.pairing.players for m in event.matches())
    assert [r.player for r in event.standings(0)] == [2, 3, 4]
    assert all(r.points == 0 for r in event.standings(0))  # the win over them is gone


def test_a_quitter_past_half_way_forfeits_the_rest() -> None:
    event = RoundRobin.draw([1, 2, 3, 4])
    theirs = [m for m in event.matches() if 1 in m.pairing.players]
    for match in theirs[:2]:
        other = next(p for p in match.pairing.players if p != 1)
        event = event.record(match.key, played(1, other))
    event = event.withdraw(1)
    last = event.match(theirs[2].key)
    other = next(p for p in last.pairing.players if p != 1)
    assert last.result == Result.walkover(other, 1) and not last.recorded
    with pytest.raises(ResultError):
        event.record(last.key, played(1, other))
    row = next(r for r in event.standings(0) if r.player == 1)
    assert row.points == 2 and row.walkovers == 1


def test_double_round_robin_swaps_the_order() -> None:
    event = RoundRobin.draw([1, 2, 3], cycles=2)
    pairs = [m.pairing for m in event.matches()]
    assert len(pairs) == 6
    assert {frozenset(p.players) for p in pairs} == {
        frozenset(p) for p in combinations([1, 2, 3], 2)
    }
