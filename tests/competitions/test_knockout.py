"""Single elimination: the draw, byes, advancing, walkovers, consolation, idempotent results."""

from __future__ import annotations

import random

import pytest

from bot.features.tournaments.rules import (
    Knockout,
    MatchKey,
    NotReady,
    OutcomeKind,
    Result,
    ResultConflict,
    ResultError,
    Section,
    Status,
    UnknownMatch,
    bracket_order,
)
from bot.features.tournaments.rules.knockout import LateEntryClosed, bracket_size
from tests.competitions.support import play_knockout, played

MAIN = Section.MAIN


def key(section: Section, round_number: int, index: int) -> MatchKey:
    return MatchKey(section, round_number, index)


def test_standard_seeding_order() -> None:
    assert bracket_order(2) == (1, 2)
    assert bracket_order(4) == (1, 4, 2, 3)
    assert bracket_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    with pytest.raises(ValueError):
        bracket_order(6)


@pytest.mark.parametrize(("players", "size"), [(2, 2), (3, 4), (4, 4), (5, 8), (17, 32), (64, 64)])
def test_bracket_size_is_the_next_power_of_two(players: int, size: int) -> None:
    assert bracket_size(players) == size


def test_two_entrants_play_one_final() -> None:
    event = Knockout((10, 20))
    assert [m.key for m in event.matches()] == [key(MAIN, 1, 0)]
    assert event.ready()[0].players == (10, 20)
    assert event.champion is None and not event.finished
    event = event.record(key(MAIN, 1, 0), played(20, 10))
    assert event.finished and event.champion == 20
    assert event.placings() == ((1, 20), (2, 10))


def test_three_entrants_top_seed_gets_the_bye() -> None:
    event = Knockout((1, 2, 3))
    first = event.match(key(MAIN, 1, 0))
    assert first.top.player == 1 and first.bottom.vacant
    assert first.result == Result.bye(1) and not first.result.rated and not first.recorded
    assert [m.players for m in event.ready()] == [(2, 3)]
    with pytest.raises(ResultError):  # nothing to play in a bye
        event.record(first.key, played(1, 2))
    event = event.record(key(MAIN, 1, 1), played(3, 2))
    final = event.match(key(MAIN, 2, 0))
    assert final.players == (1, 3) and final.status is Status.READY
    event = event.record(final.key, played(1, 3))
    assert event.placings() == ((1, 1), (2, 3), (3, 2))


def test_byes_go_to_the_top_seeds() -> None:
    event = Knockout((1, 2, 3, 4, 5))  # bracket of 8, three byes
    byes = [
        m.top.player
        for m in event.section(MAIN)[0]
        if m.result and m.result.kind is OutcomeKind.BYE
    ]
    assert None not in byes
    assert sorted(b for b in byes if b is not None) == [1, 2, 3]
    # 4 v 5 play; 2 and 3 both had byes, so their second-round match is ready already.
    assert [m.players for m in event.ready()] == [(4, 5), (2, 3)]


def test_winners_advance_and_lengths_follow_the_schedule() -> None:
    event = Knockout(tuple(range(1, 9)), lengths=(5, 7, 9))
    assert [r[0].length for r in event.section(MAIN)] == [5, 7, 9]
    event = event.record(key(MAIN, 1, 0), played(1, 8))
    semi = event.match(key(MAIN, 2, 0))
    assert semi.top.player == 1 and not semi.bottom.decided and semi.status is Status.WAITING
    with pytest.raises(NotReady):
        event.record(semi.key, played(1, 4))
    event = event.record(key(MAIN, 1, 1), played(5, 4))
    assert event.match(semi.key).players == (1, 5)


def test_recording_the_same_result_twice_changes_nothing() -> None:
    event = Knockout((1, 2, 3, 4))
    once = event.record(key(MAIN, 1, 0), played(1, 4))
    assert once.record(key(MAIN, 1, 0), played(1, 4)) is once
    with pytest.raises(ResultConflict):
        once.record(key(MAIN, 1, 0), played(4, 1))
    with pytest.raises(ResultConflict):
        once.record(key(MAIN, 1, 0), Result.played(1, 4, (5, 2)))


def test_two_matches_feeding_one_slot_advance_it_once_in_either_order() -> None:
    event = Knockout((1, 2, 3, 4))
    a = (key(MAIN, 1, 0), played(1, 4))
    b = (key(MAIN, 1, 1), played(3, 2))
    one = event.record(*a).record(*b).record(*a)
    other = event.record(*b).record(*a).record(*b)
    assert one == other
    assert one.match(key(MAIN, 2, 0)).players == (1, 3)
    assert one.results == {a[0]: a[1], b[0]: b[1]}


def test_results_about_other_players_are_refused() -> None:
    event = Knockout((1, 2, 3, 4))
    with pytest.raises(ResultError):
        event.record(key(MAIN, 1, 0), played(1, 2))
    with pytest.raises(UnknownMatch):
        event.record(key(MAIN, 5, 0), played(1, 4))
    with pytest.raises(UnknownMatch):
        MatchKey.parse("main:x")
    assert MatchKey.parse(str(key(Section.CONSOLATION, 2, 1))) == key(Section.CONSOLATION, 2, 1)


def test_a_walkover_advances_unrated_and_without_a_score() -> None:
    event = Knockout((1, 2, 3, 4)).record(key(MAIN, 1, 0), Result.walkover(4, 1))
    result = event.match(key(MAIN, 1, 0)).result
    assert result is not None and result.kind is OutcomeKind.WALKOVER
    assert result.score is None and not result.rated
    with pytest.raises(ResultError):
        Result(OutcomeKind.WALKOVER, 4, 1, (5, 0))  # never written as a score
    event = event.record(key(MAIN, 1, 1), played(2, 3))
    assert event.match(key(MAIN, 2, 0)).players == (4, 2)


def test_a_withdrawn_player_loses_their_next_match_by_walkover() -> None:
    event = Knockout((1, 2, 3, 4)).record(key(MAIN, 1, 0), played(1, 4)).withdraw(1)
    assert event.withdraw(1) is event
    event = event.record(key(MAIN, 1, 1), played(2, 3))
    final = event.match(key(MAIN, 2, 0))
    assert final.result == Result.walkover(2, 1) and not final.recorded
    assert event.finished and event.champion == 2


def test_a_double_forfeit_gives_the_next_opponent_a_bye() -> None:
    event = Knockout((1, 2, 3, 4))
    event = event.record(key(MAIN, 1, 0), Result.double_forfeit())
    event = event.record(key(MAIN, 1, 1), played(2, 3))
    final = event.match(key(MAIN, 2, 0))
    assert final.top.vacant and final.result == Result.bye(2)
    assert event.champion == 2


def test_eight_players_with_consolation_played_to_the_end() -> None:
    event = Knockout(tuple(range(1, 9)), consolation=True, lengths=(7, 9), consolation_lengths=(5,))
    shape = {s: [len(r) for r in event.section(s)] for s in Section}
    assert shape == {MAIN: [4, 2, 1], Section.CONSOLATION: [2, 2, 1], Section.PLAYOFF: [1]}
    # Main round 1: the favourites win.
    for match in event.section(MAIN)[0]:
        event = event.record(match.key, played(min(match.players), max(match.players), 7))
    first = [m.players for m in event.section(Section.CONSOLATION)[0]]
    assert first == [(8, 5), (7, 6)]  # the first-round losers, in bracket order
    # Semi-finals 1 v 4 and 2 v 3: the underdogs win; the losers enter consolation round 2.
    event = event.record(key(MAIN, 2, 0), played(4, 1, 9))
    event = event.record(key(MAIN, 2, 1), played(3, 2, 9))
    event = event.record(key(Section.CONSOLATION, 1, 0), played(5, 8))
    event = event.record(key(Section.CONSOLATION, 1, 1), played(6, 7))
    second = [m.players for m in event.section(Section.CONSOLATION)[1]]
    assert second == [(5, 2), (6, 1)]  # fed in reverse order: no early rematch
    event = event.record(key(Section.CONSOLATION, 2, 0), played(5, 2))
    event = event.record(key(Section.CONSOLATION, 2, 1), played(1, 6))
    event = event.record(key(Section.CONSOLATION, 3, 0), played(1, 5))
    assert not event.finished
    event = event.record(key(MAIN, 3, 0), played(3, 4, 9))
    playoff = event.match(key(Section.PLAYOFF, 1, 0))
    assert playoff.players == (4, 1) and playoff.length == 5
    event = event.record(playoff.key, played(1, 4))
    assert event.finished
    assert event.placings() == ((1, 3), (2, 1), (3, 4))


def test_walkover_losers_do_not_enter_the_consolation() -> None:
    event = Knockout((1, 2, 3, 4), consolation=True)
    event = event.record(key(MAIN, 1, 0), Result.walkover(1, 4))
    event = event.record(key(MAIN, 1, 1), played(2, 3))
    consolation = event.match(key(Section.CONSOLATION, 1, 0))
    assert consolation.top.vacant and consolation.result == Result.bye(3)


def test_three_players_with_consolation_still_decide_second_place() -> None:
    event = play_knockout(Knockout((1, 2, 3), consolation=True), random.Random(3))
    places = dict((p, place) for place, p in event.placings())
    assert sorted(places) == [1, 2, 3] and sorted(places.values()) == [1, 2, 3]


@pytest.mark.parametrize("players", [2, 3, 5, 8, 13, 16, 64])
@pytest.mark.parametrize("consolation", [False, True])
def test_every_knockout_ends_with_one_champion(players: int, consolation: bool) -> None:
    for seed in range(5):
        event = play_knockout(
            Knockout(tuple(range(players)), consolation=consolation), random.Random(seed)
        )
        assert event.champion is not None
        assert [place for place, _ in event.placings()][:2] == [1, 2]


def test_a_late_entrant_takes_a_first_round_bye() -> None:
    event = Knockout((1, 2, 3, 4, 5))  # seeds 1-3 have byes
    event = event.record(key(MAIN, 1, 1), played(4, 5))
    late = event.late_entry(6)
    assert late.match(key(MAIN, 1, 3)).players == (3, 6)  # seed 6 takes seed 3's bye
    assert late.match(key(MAIN, 1, 3)).status is Status.READY
    assert late.results == event.results  # nothing recorded moves


def test_late_entry_closes_once_the_bye_holder_has_played_on() -> None:
    event = Knockout((1, 2, 3, 4, 5))
    # Seed 6's slot faces seed 3; seed 3's second-round match (v 2) is recorded.
    event = event.record(key(MAIN, 2, 1), played(2, 3))
    with pytest.raises(LateEntryClosed):
        event.late_entry(6)
    with pytest.raises(ResultError):
        event.late_entry(1)
    with pytest.raises(LateEntryClosed):
        Knockout((1, 2, 3, 4)).late_entry(5)
