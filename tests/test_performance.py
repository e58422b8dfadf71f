"""The PR ladder (issue 38): which matches count, what is kept (once, on both backends), the
ranking, a player's PR over time, and the review service telling that a match was analysed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.computer import PlayerAnalysis
from bot.computer.luck import GameLuck, MatchLuck
from bot.computer.pr import LuckAdjustedResult, PerformanceRating, PRPart
from bot.core.dice import ScriptedRoller
from bot.core.facts import MatchReviewed
from bot.core.records import ClaimRule, MatchRow
from bot.core.session import Player, SessionService
from bot.engine import MatchOptions, ResultKind
from bot.features.performance.rules import counts
from bot.features.performance.service import PerformanceService
from bot.services import Services
from bot.storage import Store, open_store
from bot.storage.performance import PerformanceStore
from tests.conftest import FakeClock

GUILD = 10
ALICE, BOB, CAROL = Player(1, "alice"), Player(2, "bob"), Player(3, "carol")


def rating(decisions: int, error: float, cube: int = 0, cube_error: float = 0.0):
    return PerformanceRating(PRPart(decisions, error), PRPart(cube, cube_error))


def reviewed(row: MatchRow, *ratings: PerformanceRating) -> MatchReviewed:
    luck = LuckAdjustedResult(0.5, 0.2, 0.1, 40, 0.2)
    return MatchReviewed(
        row, dict(enumerate(ratings)), {0: luck, 1: LuckAdjustedResult(-0.5, 0.1, 0.2, 40, 0.1)}
    )


async def dropped_match(
    service: SessionService, roller: ScriptedRoller, channel: int, a=ALICE, b=BOB, rated=True
) -> MatchRow:
    """A 3-point match played out: ``b`` doubles, ``a`` drops (0-1); then ``a`` resigns a
    gammon (0-3)."""
    await service.challenge(GUILD, channel, a, b, MatchOptions(length=3), rated=rated)
    roller.extend([3, 1, 3, 1])
    await service.accept(channel, b)
    await service.move(channel, a, "8/5 6/5")
    await service.double(channel, b)
    await service.drop(channel, a)
    await service.resign(channel, a, ResultKind.GAMMON)
    report = await service.answer_resignation(channel, b, True)
    assert report.match_over
    return report.match


async def test_only_rated_matches_played_out_between_people_count(
    services: Services, roller: ScriptedRoller, clock: FakeClock
) -> None:
    service = services.session
    played = await dropped_match(service, roller, 1)
    assert counts(played, await service.game_results(played.id))
    unrated = await dropped_match(service, roller, 2, rated=False)
    assert not counts(unrated, await service.game_results(unrated.id))

    # A match won by a claim for inactivity (a forfeit, a walkover) never counts.
    await service.challenge(GUILD, 3, ALICE, BOB, MatchOptions(length=5))
    roller.extend([3, 1])
    await service.accept(3, BOB)
    await service.move(3, ALICE, "8/5 6/5")
    clock.advance(3601)
    claimed = (await service.claim(3, ALICE)).match
    assert claimed.end_reason == "forfeit"
    assert not counts(claimed, await service.game_results(claimed.id))

    # Nor does a match one of whose games was won by a claim (the server's game rule).
    await services.club.set_claim(GUILD, ClaimRule.GAME)
    await service.challenge(GUILD, 4, ALICE, BOB, MatchOptions(length=1))
    roller.extend([3, 1])
    await service.accept(4, BOB)
    await service.move(4, ALICE, "8/5 6/5")
    clock.advance(3601)
    game_claimed = (await service.claim(4, ALICE)).match
    assert game_claimed.status == "finished" and game_claimed.winner == 0
    assert not counts(game_claimed, await service.game_results(game_claimed.id))

    # Nor a game against the computer, nor a cancelled one.
    await service.challenge(GUILD, 5, ALICE, BOB, MatchOptions(length=1))
    cancelled = (await service.cancel(5, CAROL)).match
    assert not counts(cancelled, await service.game_results(cancelled.id))


async def test_a_reviewed_match_is_kept_once_and_ranked(
    database: Path | str, roller: ScriptedRoller, clock: FakeClock
) -> None:
    store = await open_store(database)
    try:
        session = SessionService(store, roller=roller, clock=clock)
        ladder = PerformanceService(PerformanceStore(store), session, session.facts)
        first = await dropped_match(session, roller, 1)
        await session.facts.publish([reviewed(first, rating(60, 0.6), rating(60, 0.3, 4, 0.1))])
        again = await ladder.record(reviewed(first, rating(1, 9.0), rating(1, 9.0)))
        assert not again  # kept once: the first review's numbers stay
        assert await ladder.ladder(GUILD) == []  # 60 decisions each: not ranked yet
        clock.advance(86400)
        second = await dropped_match(session, roller, 2, a=BOB, b=ALICE)
        assert await ladder.record(reviewed(second, rating(50, 0.2), rating(50, 0.5, 2, 0.0)))

        entries = await ladder.ladder(GUILD)
        assert [entry.name for entry in entries] == ["bob", "alice"]  # lowest PR first
        bob, alice = entries
        assert bob.matches == alice.matches == 2
        # bob: player 1 of the first match (60 + 4 cube), player 0 of the second (50)
        assert bob.performance.decisions == 114 and alice.performance.decisions == 112
        assert bob.performance.pr == pytest.approx(500 * 0.6 / 114)
        assert alice.performance.pr == pytest.approx(500 * 1.1 / 112)
        assert [e.name for e in await ladder.ladder(GUILD, min_decisions=113)] == ["bob"]
        assert await ladder.ladder(GUILD + 1) == []

        record = await ladder.player(GUILD, ALICE.id)
        assert [round(pr, 3) for _, pr in record.history] == [
            round(500 * 0.6 / 60, 3),
            round(500 * 0.5 / 52, 3),
        ]
        assert record.history[1][0] - record.history[0][0] >= 86400
        assert record.ranked and record.performance.decisions == 112
        rolls, rate = record.luck()
        assert rolls == 80 and rate == pytest.approx(1000 * 0.3 / 80)
        assert record.results(money=False) == (2, 0.0, pytest.approx(0.0))
        assert (await ladder.player(GUILD, CAROL.id)).matches == ()
    finally:
        await store.close()


async def test_a_walkover_and_an_unrated_match_are_never_kept(
    store: Store, roller: ScriptedRoller, clock: FakeClock
) -> None:
    session = SessionService(store, roller=roller, clock=clock)
    ladder = PerformanceService(PerformanceStore(store), session, session.facts)
    await session.challenge(GUILD, 3, ALICE, BOB, MatchOptions(length=5))
    roller.extend([3, 1])
    await session.accept(3, BOB)
    await session.move(3, ALICE, "8/5 6/5")
    clock.advance(3601)
    claimed = (await session.claim(3, ALICE)).match
    await session.facts.publish([reviewed(claimed, rating(200, 0.1), rating(200, 9.0))])
    unrated = await dropped_match(session, roller, 4, rated=False)
    await session.facts.publish([reviewed(unrated, rating(200, 0.1), rating(200, 9.0))])
    assert await ladder.ladder(GUILD, min_decisions=1) == []
    assert (await ladder.player(GUILD, BOB.id)).matches == ()


async def test_the_review_service_says_when_a_whole_match_has_been_analysed(
    services: Services, roller: ScriptedRoller, monkeypatch: pytest.MonkeyPatch
) -> None:
    heard: list[MatchReviewed] = []

    async def listen(facts) -> None:
        heard.extend(fact for fact in facts if isinstance(fact, MatchReviewed))

    services.facts.subscribe(listen)
    reviews = services.reviews

    async def review_game(row, events, number, humans):  # a canned review per game
        analyses = {
            player: PlayerAnalysis(player=player, performance=rating(10 * number, 0.01))
            for player in humans
        }
        return analyses, MatchLuck([GameLuck(number)])

    monkeypatch.setattr(reviews, "_review_game", review_game)
    service = services.session
    await service.challenge(GUILD, 1, ALICE, BOB, MatchOptions(length=3))
    roller.extend([3, 1, 3, 1])
    await service.accept(1, BOB)
    await service.move(1, ALICE, "8/5 6/5")
    await service.double(1, BOB)
    live = (await service.drop(1, ALICE)).match  # game 1 over, the match goes on
    await reviews.review(live, 1)
    assert heard == []  # the match is not over
    await service.resign(1, ALICE, ResultKind.GAMMON)
    over = (await service.answer_resignation(1, BOB, True)).match
    assert over.status == "finished"
    await reviews.review(over, 2)  # the last game's review puts the match together
    (fact,) = heard
    assert fact.match.id == over.id
    assert fact.performance[0].decisions == 10 + 20  # both games, pooled
    # The ladder heard it too: a rated match played out, both players kept.
    assert (await services.performance.player(GUILD, ALICE.id)).matches


def test_the_replay_page_gets_each_players_pr_and_luck() -> None:
    from bot.computer.luck import RollLuck
    from bot.web.replay import analysis_json

    game = GameLuck(1, [RollLuck(1, 0, (3, 1), 0.2, 0.3, 0.1, result_luck=0.05)], winner=0)
    game.winnings = 0.25
    analyses = {0: PlayerAnalysis(player=0, performance=rating(40, 0.2, 2, 0.05))}
    data = analysis_json(MatchLuck([game]), analyses)
    player = data["players"]["0"]
    assert player["pr"] == round(500 * 0.25 / 42, 2) and player["band"] == "world_class"
    assert player["checker_pr"] == 2.5 and player["cube_pr"] == 12.5
    assert player["decisions"] == 42 and player["rolls"] == 1 and player["luck"] == 200.0
    assert player["actual"] == 0.25 and player["luck_adjusted"] == 0.2
    assert analysis_json(MatchLuck([game]))["players"] == {}  # the games alone, as before
