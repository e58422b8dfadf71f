"""Issue #25 at the session layer: buttons name an exact state; a match asked for by number
is found only on its own server and only when the front end says the asker may see it."""

from __future__ import annotations

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.errors import StaleButtonError, UserError
from bot.core.records import ClaimRule, MatchRow
from bot.core.replay import replay
from bot.core.reports import ActionContext
from bot.core.session import SessionService
from bot.engine import MatchOptions, ResultKind
from bot.present import tell
from bot.services import Services
from tests.telling import refuses
from tests.test_session import ALICE, BOB, GUILD, start


async def test_a_button_acts_only_at_the_version_it_was_posted_for(
    service: SessionService, roller: ScriptedRoller
) -> None:
    channel = 700
    await start(service, roller, channel, (3, 1), MatchOptions(length=3))
    moved = await service.move(channel, ALICE, "8/5 6/5")
    row = moved.match
    assert row.game is not None
    at = ActionContext(match_id=row.id, version=row.version, game_number=row.game.game_number)
    old = ActionContext(match_id=row.id, version=row.version - 1, game_number=1)
    legacy = ActionContext(match_id=row.id)  # posted by a bot before ids carried a version
    roller.extend([6, 5])
    for ctx, words in ((old, "earlier turn"), (legacy, "older board")):
        with refuses(StaleButtonError, words):
            await service.roll(channel, BOB, ctx)
    assert roller.remaining() == 2
    rolled = await service.roll(channel, BOB, at)
    assert rolled.match.version == row.version + 1
    with refuses(StaleButtonError, "earlier turn"):  # the same press again
        await service.roll(channel, BOB, at)


async def test_a_legacy_accept_still_answers_its_own_challenge(
    service: SessionService, roller: ScriptedRoller
) -> None:
    channel = 701
    report = await service.challenge(GUILD, channel, ALICE, BOB)
    roller.extend([3, 1])
    accepted = await service.accept(channel, BOB, ActionContext(match_id=report.match.id))
    assert accepted.match.status == "playing"


async def test_a_match_by_number_only_on_its_server_and_when_visible(
    service: SessionService, services: Services, roller: ScriptedRoller
) -> None:
    channel = 702
    await start(service, roller, channel, (3, 1))
    offer = await service.resign(channel, BOB)
    await service.answer_resignation(channel, ALICE, True)
    number = offer.match.id
    seen: list[MatchRow] = []

    async def hidden(row: MatchRow) -> bool:
        seen.append(row)
        return False

    async def shown(row: MatchRow) -> bool:
        return True

    row, text = await services.club.match_file(GUILD, 1, number, visible=shown)
    assert row.id == number and text
    for guild, visible in ((GUILD + 1, shown), (GUILD, hidden)):
        with pytest.raises(UserError) as refused:
            await services.club.match_file(guild, 1, number, visible=visible)
        with pytest.raises(UserError) as missing:
            await services.club.match_file(guild, 1, number + 100, visible=visible)
        assert str(refused.value) == str(missing.value).replace(str(number + 100), str(number))
    assert [r.id for r in seen] == [number]


# --- a claim forfeits the match at the score reached ------------------------------------------


async def _three_to_ten_in_25(service: SessionService, roller: ScriptedRoller, channel: int):
    """alice 3, bob 10 in a 25-point match (by resignations); game 6, bob to roll."""
    await start(service, roller, channel, (3, 1), MatchOptions(length=25))
    resignations = [(BOB, ALICE, ResultKind.BACKGAMMON)]
    resignations += [(ALICE, BOB, ResultKind.BACKGAMMON)] * 3 + [(ALICE, BOB, ResultKind.SINGLE)]
    for loser, winner, kind in resignations:
        await service.resign(channel, loser, kind)
        roller.extend([3, 1])  # the next game's opening: alice moves first
        await service.answer_resignation(channel, winner, True)
    report = await service.move(channel, ALICE, "8/5 6/5")
    game = report.match.game
    assert game is not None and game.game_number == 6 and game.score == (3, 10)
    return report.match


async def test_a_claim_at_3_10_in_a_25_point_match_is_a_forfeit_at_3_10(
    service: SessionService, services: Services, roller: ScriptedRoller, clock, store
) -> None:
    channel = 710
    row = await _three_to_ten_in_25(service, roller, channel)
    before = {p.id: await service.stats(GUILD, p.id) for p in (ALICE, BOB)}
    clock.advance(3600)
    report = await service.claim(channel, ALICE)  # the trailing player claims
    assert report.match_over and report.match.status == "finished"
    assert report.match.winner == 0 and report.match.final_score == (3, 10)
    assert report.match.end_reason == "forfeit"
    assert [str(line) for line in tell(report)] == [
        "bob has not acted for 60 minutes: alice claims the match.",
        "alice wins the 25-point match by forfeit at 3-10: bob timed out and keeps 10 points.",
        "A forfeit does not change ratings.",
    ]
    alice, bob = [await service.stats(GUILD, p.id) for p in (ALICE, BOB)]
    alice_before, bob_before = before[ALICE.id], before[BOB.id]
    assert alice is not None and bob is not None
    assert alice_before is not None and bob_before is not None
    assert (alice.match_wins, bob.match_losses) == (1, 1)
    assert (alice.points_won, bob.points_won) == (3, 10)  # no points for the claim
    assert alice.rating == alice_before.rating and bob.rating == bob_before.rating
    assert alice.rated_matches == bob.rated_matches == 0
    assert await services.reviews.rating_history(GUILD, ALICE.id) == []
    assert len(await store.game_results(row.id)) == 5  # game 6 was not won by anyone
    history, events = await service.history(channel)
    assert replay(history.options, events) == history.game
    _, mat = await services.club.match_file(GUILD, channel, row.id)
    assert "alice won the match by forfeit: bob timed out at 3-10" in mat
    _, sgf = await services.club.match_file(GUILD, channel, row.id, "sgf")
    assert sgf.startswith("(;")


async def test_the_game_rule_wins_only_the_game_and_the_match_goes_on(
    service: SessionService, services: Services, roller: ScriptedRoller, clock
) -> None:
    channel = 711
    await services.club.set_claim(GUILD, ClaimRule.GAME)
    await _three_to_ten_in_25(service, roller, channel)
    clock.advance(3600)
    roller.extend([3, 1])  # game 7's opening
    report = await service.claim(channel, ALICE)
    assert not report.match_over and report.match.status == "playing"
    game = report.match.game
    assert game is not None and game.game_number == 7 and game.score == (4, 10)
    assert "alice claims the win." in str(tell(report)[0])
    history, events = await service.history(channel)
    assert replay(history.options, events) == history.game


async def test_a_claim_in_a_money_game_wins_the_game_unrated(
    service: SessionService, roller: ScriptedRoller, clock
) -> None:
    channel = 712
    await start(service, roller, channel, (3, 1))
    await service.move(channel, ALICE, "8/5 6/5")
    clock.advance(3600)
    report = await service.claim(channel, ALICE)
    assert report.match_over and report.match.final_score == (1, 0)
    assert report.match.end_reason == "forfeit"
    alice = await service.stats(GUILD, ALICE.id)
    assert alice is not None and alice.rated_matches == 0 and alice.game_wins == 1
