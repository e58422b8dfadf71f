"""FIBS ratings: the formula against numbers worked out by hand, and through whole matches.

The expected figures are written out, not computed by the code under test. With ``n`` the
match length, ``D`` the rating difference and ``K = max(1, 5 - experience / 100)``:
``P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1)``; the winner gains ``4 * K * sqrt(n) * P``
with ``P = 1 - P_upset`` when the underdog won and ``P_upset`` otherwise.

The unequal cases use n = 4 and D = 500, so that ``D * sqrt(n) / 2000 = 0.5``:
``P_upset = 1 / (sqrt(10) + 1) = 1 / 4.16227766 = 0.24025307``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.dice import ScriptedRoller
from bot.core.ratings import Rated, fibs_update, k_factor
from bot.core.session import Player, SessionService
from bot.engine import MatchOptions, ResultKind

GUILD = 10
ALICE = Player(1, "alice")
BOB = Player(2, "bob")


@pytest.mark.parametrize(
    "experience, k",
    [(0, 5.0), (50, 4.5), (100, 4.0), (250, 2.5), (350, 1.5), (400, 1.0), (600, 1.0)],
)
def test_k_factor(experience: int, k: float) -> None:
    assert k_factor(experience) == pytest.approx(k)


@pytest.mark.parametrize(
    "winner, loser, length, expected",
    [
        # New players, 1 point: 4 * 5 * 1 * 0.5 = 10.
        (Rated(), Rated(), 1, ((1510.0, 1), (1490.0, 1))),
        # A money game counts as one point.
        (Rated(), Rated(), 0, ((1510.0, 1), (1490.0, 1))),
        # New players, 5 points: 4 * 5 * sqrt(5) * 0.5 = 22.3606798.
        (Rated(), Rated(), 5, ((1522.3606798, 5), (1477.6393202, 5))),
        # The underdog (K 5) beats the favourite (experience 350, K 1.5) over 4 points:
        # P = 1 - 0.24025307 = 0.75974693; gain 4*5*2*P = 30.3898771, loss 4*1.5*2*P = 9.1169631.
        (Rated(1250, 0), Rated(1750, 350), 4, ((1280.3898771, 4), (1740.8830369, 354))),
        # The favourite (experience 600, K 1) beats a new player over 4 points:
        # P = 0.24025307; gain 4*1*2*P = 1.9220246, loss 4*5*2*P = 9.6101229.
        (Rated(1750, 600), Rated(1250, 0), 4, ((1751.9220246, 604), (1240.3898771, 4))),
    ],
)
def test_fibs_update_by_hand(
    winner: Rated,
    loser: Rated,
    length: int,
    expected: tuple[tuple[float, int], tuple[float, int]],
) -> None:
    new_winner, new_loser = fibs_update(winner, loser, length)
    (winner_rating, winner_experience), (loser_rating, loser_experience) = expected
    assert new_winner.rating == pytest.approx(winner_rating, abs=1e-6)
    assert new_loser.rating == pytest.approx(loser_rating, abs=1e-6)
    assert (new_winner.experience, new_loser.experience) == (
        winner_experience,
        loser_experience,
    )


ratings = st.floats(min_value=500, max_value=2500, allow_nan=False)
experiences = st.integers(min_value=0, max_value=5000)


@given(ratings, experiences, ratings, experiences, st.integers(min_value=0, max_value=25))
def test_fibs_update_properties(
    winner_rating: float, winner_exp: int, loser_rating: float, loser_exp: int, length: int
) -> None:
    winner, loser = Rated(winner_rating, winner_exp), Rated(loser_rating, loser_exp)
    new_winner, new_loser = fibs_update(winner, loser, length)
    n = max(length, 1)
    assert new_winner.rating > winner.rating and new_loser.rating < loser.rating
    assert new_winner.experience == winner_exp + n and new_loser.experience == loser_exp + n
    # The points that move are the same for both, scaled by each player's own K.
    gain, loss = new_winner.rating - winner.rating, loser.rating - new_loser.rating
    assert gain * k_factor(loser_exp) == pytest.approx(loss * k_factor(winner_exp), rel=1e-9)
    assert gain <= 4 * 5 * n**0.5 + 1e-9


# --- through the session layer -----------------------------------------------------------------


async def claim_match(
    service: SessionService, roller: ScriptedRoller, clock, channel: int, length: int
) -> None:
    """Alice wins a match of ``length`` by claiming it: Bob opens and then sits idle."""
    await service.challenge(GUILD, channel, ALICE, BOB, MatchOptions(length=length))
    roller.extend([1, 2])  # Bob wins the opening roll and must move
    await service.accept(channel, BOB)
    clock.advance(3600)
    report = await service.claim(channel, ALICE)
    assert report.match_over and report.match.winner == 0


async def win_match(
    service: SessionService, roller: ScriptedRoller, clock, channel: int, length: int
) -> None:
    """Alice wins a match of ``length``: Bob opens, then resigns a backgammon each game
    until the match is over (a match won by a claim is a forfeit, never rated)."""
    await service.challenge(GUILD, channel, ALICE, BOB, MatchOptions(length=length))
    roller.extend([1, 2])  # Bob wins the opening roll and must move
    await service.accept(channel, BOB)
    while True:
        await service.resign(channel, BOB, ResultKind.BACKGAMMON)
        roller.extend([1, 2])  # the next game's opening, if there is one
        report = await service.answer_resignation(channel, ALICE, True)
        if report.match_over:
            break
    assert report.match.winner == 0


async def test_a_forfeit_leaves_ratings_alone(
    service: SessionService, roller: ScriptedRoller, clock
) -> None:
    await claim_match(service, roller, clock, 1, 1)
    alice = await service.stats(GUILD, ALICE.id)
    assert alice is not None and alice.match_wins == 1
    assert (alice.rating, alice.experience, alice.rated_matches) == (1500.0, 0, 0)


async def test_one_point_match_between_new_players(
    service: SessionService, roller: ScriptedRoller, clock
) -> None:
    await win_match(service, roller, clock, 1, 1)
    alice = await service.stats(GUILD, ALICE.id)
    bob = await service.stats(GUILD, BOB.id)
    assert alice is not None and bob is not None
    assert alice.rating == pytest.approx(1510.0) and bob.rating == pytest.approx(1490.0)
    assert (alice.experience, bob.experience) == (1, 1)
    assert (alice.rated_matches, bob.rated_matches) == (1, 1)


async def test_an_upset_with_unequal_ratings_and_experience(
    db_path: Path, service: SessionService, roller: ScriptedRoller, clock
) -> None:
    # Alice 1250 (new), Bob 1750 with 350 points of experience, set up in the file directly.
    with sqlite3.connect(db_path) as raw:
        raw.executemany(
            "INSERT INTO players (guild_id, user_id, name, rating, experience, rated_matches) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(GUILD, ALICE.id, "alice", 1250.0, 0, 0), (GUILD, BOB.id, "bob", 1750.0, 350, 70)],
        )
    raw.close()  # the context manager commits but does not close
    await win_match(service, roller, clock, 1, 4)
    alice = await service.stats(GUILD, ALICE.id)
    bob = await service.stats(GUILD, BOB.id)
    assert alice is not None and bob is not None
    assert alice.rating == pytest.approx(1280.3898771, abs=1e-6)
    assert bob.rating == pytest.approx(1740.8830369, abs=1e-6)
    assert (alice.experience, bob.experience) == (4, 354)
    assert (alice.rated_matches, bob.rated_matches) == (1, 71)

    # Alice wins again, now with some experience: K is 5 - 4/100 = 4.96 for her and
    # 5 - 354/100 = 1.46 for Bob. D = 460.4931598, D*sqrt(4)/2000 = 0.4604932,
    # 10^0.4604932 = 2.8873083, P_upset = 1/3.8873083 = 0.2572474, P = 0.7427526:
    # gain 4*4.96*2*P = 29.4724227, loss 4*1.46*2*P = 8.6753502.
    await win_match(service, roller, clock, 2, 4)
    alice = await service.stats(GUILD, ALICE.id)
    bob = await service.stats(GUILD, BOB.id)
    assert alice is not None and bob is not None
    assert alice.rating == pytest.approx(1280.3898771 + 29.4724227, abs=1e-6)
    assert bob.rating == pytest.approx(1740.8830369 - 8.6753502, abs=1e-6)
    assert (alice.experience, bob.experience) == (8, 358)


async def test_casual_matches_leave_ratings_alone(
    service: SessionService, roller: ScriptedRoller, clock
) -> None:
    await service.challenge(GUILD, 1, ALICE, BOB, MatchOptions(length=3), rated=False)
    roller.extend([1, 2])
    await service.accept(1, BOB)
    await service.resign(1, BOB, ResultKind.BACKGAMMON)
    await service.answer_resignation(1, ALICE, True)
    alice = await service.stats(GUILD, ALICE.id)
    assert alice is not None
    assert (alice.rating, alice.experience, alice.rated_matches) == (1500.0, 0, 0)
    assert (alice.match_wins, alice.points_won) == (1, 3)
