"""Random events: nobody plays twice in a round, no rematch while one is avoidable, every
knockout ends with one champion, results are idempotent and their order does not matter."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from itertools import combinations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.features.tournaments.rules import (
    Knockout,
    Ladder,
    Result,
    RoundRobin,
    Section,
    Status,
    Swiss,
    pair_round,
)
from bot.features.tournaments.rules.ladder import CompetitionError
from tests.competitions.support import play_knockout, played


def perfect_matching_exists(players: list[int], met: frozenset[frozenset[int]]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        frozenset((first, other)) not in met
        and perfect_matching_exists([p for p in rest if p != other], met)
        for other in rest
    )


def pairable(players: list[int], met: frozenset[frozenset[int]]) -> bool:
    """Brute force: some bye (for an odd field) leaves a pairing without a rematch."""
    if len(players) % 2 == 0:
        return perfect_matching_exists(players, met)
    return any(perfect_matching_exists([p for p in players if p != bye], met) for bye in players)


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=9),
    edges=st.sets(st.tuples(st.integers(0, 8), st.integers(0, 8)), max_size=30),
)
def test_pair_round_finds_a_pairing_whenever_one_exists(players: int, edges: set) -> None:
    ranking = list(range(players))
    met = frozenset(frozenset(e) for e in edges if e[0] != e[1] and max(e) < players)
    found = pair_round(ranking, {}, met, {})
    assert (found is not None) == pairable(ranking, met)
    if found is not None:
        pairs, bye = found
        seen = [p for pair in pairs for p in pair.players] + ([bye] if bye is not None else [])
        assert sorted(seen) == ranking
        assert all(frozenset(pair.players) not in met for pair in pairs)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=16),
    rounds=st.integers(min_value=1, max_value=9),
    seed=st.integers(0, 10_000),
)
@example(players=9, rounds=8, seed=721)  # a second bye, the only way to avoid a rematch
def test_swiss_rounds_are_sound(players: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    event = Swiss.start(range(players), rounds=rounds)
    while not event.finished:
        for key, pairing in event.open_matches():
            a, b = pairing.players
            winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
            kind = rng.random()
            if kind < 0.1:
                result = Result.walkover(winner, loser)
            elif kind < 0.15:
                result = Result.double_forfeit()
            else:
                result = played(winner, loser)
            event = event.record(key, result)
            assert event.record(key, result) is event  # idempotent
        event = event.pair_next()
    byes: list[int] = []
    met_before: set[frozenset[int]] = set()
    for round_ in event.pairings:
        seen = [p for pairing in round_ for p in pairing.players]
        assert len(seen) == len(set(seen)) == players  # everybody once per round
        bye = next((pairing.a for pairing in round_ if pairing.b is None), None)
        if bye is not None and bye in byes:
            # A second bye only when every player without one, sitting out, would leave
            # the others unpairable without a rematch.
            for other in set(range(players)) - set(byes):
                rest = [p for p in range(players) if p != other]
                assert not perfect_matching_exists(rest, frozenset(met_before))
        if bye is not None:
            byes.append(bye)
        met_before |= {frozenset(p.players) for p in round_ if p.b is not None}
    met = [frozenset(p.players) for r in event.pairings for p in r if p.b is not None]
    assert len(met) == len(set(met))  # never a rematch
    if event.rounds < rounds:  # ended early: because no pairing without a rematch was left
        assert not pairable(list(range(players)), frozenset(met))
    table = event.standings()
    assert sorted(r.player for r in table) == list(range(players))
    assert [r.rank for r in table] == list(range(1, players + 1))
    assert sum(r.points for r in table) == sum(
        1 for r in event.results.values() if r.winner is not None
    )


@settings(max_examples=80, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=40),
    consolation=st.booleans(),
    feed_rounds=st.integers(1, 5),
    seed=st.integers(0, 10_000),
    walkovers=st.sampled_from([0.0, 0.2]),
)
def test_every_knockout_ends_with_one_champion(
    players: int, consolation: bool, feed_rounds: int, seed: int, walkovers: float
) -> None:
    event = play_knockout(
        Knockout(tuple(range(players)), consolation=consolation, feed_rounds=feed_rounds),
        random.Random(seed),
        walkovers=walkovers,
    )
    assert event.champion is not None
    places = event.placings()
    assert [p for p, _ in places].count(1) == 1
    assert len({player for _, player in places}) == len(places)
    for section in {m.key.section for m in event.matches()}:
        for round_ in event.section(section):
            seen = [p for m in round_ for p in m.players]
            assert len(seen) == len(set(seen))  # nobody twice in a round
    # The champion lost nothing in the main bracket; everybody else lost exactly once there.
    main_losers = [
        m.result.loser for r in event.section(Section.MAIN) for m in r
        if m.result is not None and m.result.loser is not None
    ]  # fmt: skip
    assert event.champion not in main_losers
    assert len(main_losers) == len(set(main_losers)) == players - 1
    if event.has_consolation:
        # Everyone beaten over the board in the first feed rounds plays in the consolation,
        # and nobody else.
        feed = min(feed_rounds, event.rounds - 1)
        expected = {
            m.result.loser
            for r in event.section(Section.MAIN)[:feed]
            for m in r
            if m.result is not None and m.result.rated and m.result.loser is not None
        }
        entered = {p for m in event.matches() if m.key.section is Section.CONSOLATION
                   for p in m.players}  # fmt: skip
        assert entered == expected


@settings(max_examples=40, deadline=None)
@given(players=st.integers(min_value=2, max_value=24), seed=st.integers(0, 10_000))
def test_results_recorded_in_any_order_and_repeated_give_the_same_bracket(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    finished = play_knockout(Knockout(tuple(range(players)), consolation=True), rng)
    recorded = list(finished.results.items())
    replayed = Knockout(tuple(range(players)), consolation=True)
    pending = recorded * 2  # every report arrives twice
    rng.shuffle(pending)
    while pending:
        progress = False
        for item in list(pending):
            if replayed.match(item[0]).status in (Status.READY, Status.DONE):
                replayed = replayed.record(*item)
                pending.remove(item)
                progress = True
        assert progress
    assert replayed == finished
    assert replayed.placings() == finished.placings()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 60))
def test_the_ladder_stays_a_ranking_of_its_members(seed: int, steps: int) -> None:
    rng = random.Random(seed)
    now = datetime(2026, 11, 24, tzinfo=UTC)
    ladder = Ladder()
    members = set()
    for player in range(8):
        ladder = ladder.join(player)
        members.add(player)
    next_player = 8
    for _ in range(steps):
        now += timedelta(hours=rng.randrange(1, 72))
        roll = rng.random()
        try:
            if roll < 0.35 and ladder.ranking:
                challenger = rng.choice(ladder.ranking)
                targets = ladder.can_challenge(challenger)
                if targets:
                    ladder, _ = ladder.issue(challenger, rng.choice(targets), now)
            elif roll < 0.55 and ladder.open_challenges():
                challenge = rng.choice(ladder.open_challenges())
                ladder = ladder.accept(challenge.id, challenge.defender, now)
            elif roll < 0.8 and ladder.open_challenges():
                challenge = rng.choice(ladder.open_challenges())
                winner, loser = rng.sample([challenge.challenger, challenge.defender], 2)
                ladder = ladder.record(challenge.id, played(winner, loser))
            elif roll < 0.85 and len(ladder.ranking) > 2:
                leaver = rng.choice(ladder.ranking)
                ladder = ladder.leave(leaver)
                members.discard(leaver)
            elif roll < 0.9:
                ladder = ladder.join(next_player)
                members.add(next_player)
                next_player += 1
            else:
                ladder = ladder.expire(now)
        except CompetitionError:
            pass  # a refused request changes nothing (the value is immutable)
        assert sorted(ladder.ranking) == sorted(members)
        challengers = [c.challenger for c in ladder.open_challenges()]
        assert len(challengers) == len(set(challengers))  # one outgoing each
        for c in ladder.open_challenges():
            assert c.challenger in members and c.defender in members


def test_pairable_agrees_with_a_hand_case() -> None:
    everyone = frozenset(frozenset(p) for p in combinations(range(4), 2))
    assert not pairable([0, 1, 2, 3], everyone)
    assert pairable([0, 1, 2, 3], frozenset())


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=20),
    cycles=st.sampled_from([1, 2]),
    seed=st.integers(0, 10_000),
)
def test_round_robin_groups_play_everyone_and_count_every_point(
    players: int, cycles: int, seed: int
) -> None:
    rng = random.Random(seed)
    event = RoundRobin.draw(list(range(players)), cycles=cycles)
    assert sorted(p for g in event.groups for p in g) == list(range(players))
    assert all(2 <= len(g) <= 6 for g in event.groups)
    assert max(map(len, event.groups)) - min(map(len, event.groups)) <= 1
    for match in event.open_matches():
        a, b = match.pairing.players
        winner, loser = (a, b) if rng.random() < 0.5 else (b, a)
        event = event.record(match.key, played(winner, loser))
    assert event.finished
    for index, group in enumerate(event.groups):
        meetings = [frozenset(m.pairing.players) for m in event.matches(index)]
        assert sorted(meetings, key=sorted) == sorted(
            [frozenset(p) for p in combinations(group, 2)] * cycles, key=sorted
        )
        for number in {m.key.round for m in event.matches(index)}:
            seen = [p for m in event.matches(index) if m.key.round == number
                    for p in m.pairing.players]  # fmt: skip
            assert len(seen) == len(set(seen))  # once per round
        table = event.standings(index)
        assert sum(r.points for r in table) == len(meetings)
