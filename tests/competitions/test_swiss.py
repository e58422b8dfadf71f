"""The Swiss system: rounds by field size, score groups, byes, no rematches, early end."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from bot.features.tournaments.rules import (
    OutcomeKind,
    Pairing,
    Result,
    ResultConflict,
    ResultError,
    RoundKey,
    Swiss,
    default_rounds,
    pair_round,
)
from bot.features.tournaments.rules.swiss import RoundIncomplete
from tests.competitions.support import play_swiss, played


@pytest.mark.parametrize(
    ("players", "rounds"), [(2, 1), (3, 3), (4, 3), (5, 4), (7, 4), (8, 4), (16, 5), (64, 7)]
)
def test_rounds_by_field_size(players: int, rounds: int) -> None:
    assert default_rounds(players) == rounds


def test_round_one_pairs_top_half_against_bottom_half() -> None:
    event = Swiss.start(range(1, 9))
    assert [p.players for p in event.pairings[0]] == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_round_two_pairs_within_score_groups() -> None:
    event = Swiss.start(range(1, 9))
    for key, pairing in event.open_matches():
        assert pairing.b is not None  # a bye is decided when it is paired
        event = event.record(key, played(pairing.a, pairing.b))  # the higher seed wins
    event = event.pair_next()
    assert [p.players for p in event.pairings[1]] == [(1, 3), (2, 4), (5, 7), (6, 8)]


def test_seven_players_a_bye_each_round_and_no_rematches() -> None:
    for seed in range(10):
        event = play_swiss(Swiss.start(range(1, 8)), random.Random(seed))
        assert event.rounds == 4 and event.finished
        met = [frozenset(p.players) for r in event.pairings for p in r if p.b is not None]
        assert len(met) == len(set(met)) == 4 * 3
        byes = [p.a for r in event.pairings for p in r if p.b is None]
        assert len(byes) == 4 and len(set(byes)) == 4  # one per round, never twice
        for number, round_ in enumerate(event.pairings, start=1):
            seen = [player for p in round_ for player in p.players]
            assert sorted(seen) == list(range(1, 8))
            bye = next(p for p in round_ if p.b is None)
            assert event.results[RoundKey(number, round_.index(bye))] == Result.bye(bye.a)


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    event = Swiss.start(range(1, 6))
    assert event.pairings[0][-1] == Pairing(5, None)  # the last seed
    for key, pairing in event.open_matches():
        assert pairing.b is not None  # a bye is decided when it is paired
        event = event.record(key, played(pairing.a, pairing.b))
    event = event.pair_next()
    # Standings: 1, 2 and 5 (bye) on a point, 3 and 4 on none; 5 already had a bye, so
    # the lowest without one is 4.
    assert event.pairings[1][-1] == Pairing(4, None)
    bye = event.results[RoundKey(2, len(event.pairings[1]) - 1)]
    assert bye.kind is OutcomeKind.BYE and not bye.rated


def test_pairing_the_next_round_needs_every_result() -> None:
    event = Swiss.start(range(1, 5))
    with pytest.raises(RoundIncomplete):
        event.pair_next()


def test_results_are_idempotent_and_checked() -> None:
    event = Swiss.start(range(1, 5))
    key = RoundKey(1, 0)
    once = event.record(key, played(1, 3))
    assert once.record(key, played(1, 3)) is once
    with pytest.raises(ResultConflict):
        once.record(key, played(3, 1))
    with pytest.raises(ResultError):
        event.record(key, played(1, 2))


def test_backtracking_finds_the_pairing_greed_would_miss() -> None:
    # 1's first choice (3) is a rematch; its second (4) leaves 2 v 3, also a rematch: only
    # 1 v 2 and 3 v 4 work.
    met = frozenset({frozenset({1, 3}), frozenset({2, 3})})
    paired = pair_round([1, 2, 3, 4], {}, met, {})
    assert paired is not None
    pairs, bye = paired
    assert bye is None and [p.players for p in pairs] == [(1, 2), (3, 4)]


def test_no_pairing_without_a_rematch_is_reported() -> None:
    met = frozenset(frozenset(p) for p in [(1, 2), (1, 3), (1, 4)])
    assert pair_round([1, 2, 3, 4], {}, met, {}) is None


def test_the_bye_moves_up_when_the_rest_cannot_be_paired() -> None:
    # 3 is the lowest, but sitting 3 out would leave 1 v 2 again: 2 sits out instead.
    met = frozenset({frozenset({1, 2})})
    paired = pair_round([1, 2, 3], {}, met, {})
    assert paired is not None
    pairs, bye = paired
    assert bye == 2 and [p.players for p in pairs] == [(1, 3)]


def test_a_player_who_had_a_bye_is_passed_over() -> None:
    paired = pair_round([1, 2, 3], {}, frozenset(), {3: 1})
    assert paired is not None
    pairs, bye = paired
    assert bye == 2 and [p.players for p in pairs] == [(1, 3)]
    # Once everyone has had one, the lowest with the fewest sits out again.
    paired = pair_round([1, 2, 3], {}, frozenset(), {1: 1, 2: 1, 3: 1})
    assert paired is not None
    _, bye = paired
    assert bye == 3


def test_the_event_ends_early_when_everybody_has_met() -> None:
    event = play_swiss(Swiss.start(range(1, 5), rounds=5), random.Random(1))
    assert event.finished and event.rounds == 3  # a round robin's worth, then no pairing
    met = {frozenset(p.players) for r in event.pairings for p in r}
    assert met == {frozenset(p) for p in combinations(range(1, 5), 2)}


def test_two_and_three_entrants() -> None:
    two = play_swiss(Swiss.start([1, 2]), random.Random(0))
    assert two.rounds == 1 and len(two.standings()) == 2
    three = play_swiss(Swiss.start([1, 2, 3]), random.Random(0))
    assert three.rounds == 3
    assert sorted(p.a for r in three.pairings for p in r if p.b is None) == [1, 2, 3]


def test_a_withdrawn_player_is_not_paired_and_their_results_stand() -> None:
    event = Swiss.start(range(1, 7))
    for key, pairing in event.open_matches():
        assert pairing.b is not None  # a bye is decided when it is paired
        event = event.record(key, played(pairing.a, pairing.b))
    event = event.withdraw(1).pair_next()
    assert all(1 not in p.players for p in event.pairings[1])
    assert next(r for r in event.standings() if r.player == 1).points == 1
    event = event.rejoin(1)
    assert 1 not in event.withdrawn


def test_match_lengths_per_round() -> None:
    event = Swiss.start(range(1, 9), lengths=(5, 5, 7, 9))
    assert [event.length(r) for r in range(1, 5)] == [5, 5, 7, 9]
