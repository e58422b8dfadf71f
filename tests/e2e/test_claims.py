"""Issue #25: a claim after the idle limit forfeits the match at the score reached.

Before, a claim at 3-10 in a 25-point match handed the trailing player the whole match
(25-10) and its rating. Now the result records 3-10 as a forfeit, says so, and moves no
rating; a server can choose that a claim wins only the game in progress instead.
"""

from __future__ import annotations

from bot.core.records import ClaimRule
from tests.e2e.conftest import Harness


async def _three_to_ten(h: Harness) -> None:
    """alice 3, bob 10 in a 25-point match, by resignations; game 6, bob to roll."""
    h.roller.extend([3, 1])
    result = await h.slash(h.alice, "challenge", opponent=h.bob.id, length=25)
    challenge = await result.original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    games = [(h.bob, h.alice, "backgammon")]
    games += [(h.alice, h.bob, "backgammon")] * 3 + [(h.alice, h.bob, "single")]
    for loser, winner, kind in games:
        offer = await h.board_after(await h.slash(loser, "resign", kind=kind))
        h.roller.extend([3, 1])
        await h.board_after(await h.press(winner, offer, "resign_accept"))
    await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    row = await h.live()
    assert row is not None and row.game is not None and row.game.score == (3, 10)


async def test_a_claim_at_3_10_in_a_25_point_match_records_a_forfeit(harness: Harness) -> None:
    h = harness
    await _three_to_ten(h)
    h.clock.advance(61 * 60)
    ended = await h.board_after(await h.slash(h.alice, "claim"))
    text = ended.content or ""
    assert "alice wins the 25-point match by forfeit at 3-10" in text, text
    assert "bob timed out and keeps 10 points" in text and "does not change ratings" in text
    assert "25-10" not in text
    row = await h.service.store.latest_match(h.fake.channel_id("games"))
    assert row is not None and row.final_score == (3, 10) and row.winner == 0
    assert row.end_reason == "forfeit"
    (mat,) = [a for a in ended.attachments if a.filename.endswith(".mat")]
    assert b"won the match by forfeit" in mat.data
    alice = await h.service.stats(h.fake.guild.id, h.alice.id)
    assert alice is not None and alice.rated_matches == 0 and alice.rating == 1500
    leaderboard = await (await h.slash(h.carol, "leaderboard")).response()
    assert "alice" not in str(leaderboard.embeds)  # no rated match: not on the board
    h.fake.assert_clean()


async def test_moderators_can_make_a_claim_win_only_the_game(harness: Harness) -> None:
    h = harness
    refused = await h.error_of(await h.slash(h.alice, "settings", claim="game"))
    assert "Manage Messages" in refused
    assert (await h.services.club.guild_settings(h.fake.guild.id)).claim is ClaimRule.MATCH
    answer = await (await h.slash(h.mod, "settings", claim="game")).response()
    assert answer.ephemeral and "wins the game in progress" in (answer.content or "")
    await _three_to_ten(h)
    h.clock.advance(61 * 60)
    h.roller.extend([3, 1])  # game 7's opening
    board = await h.board_after(await h.slash(h.alice, "claim"))
    assert "alice claims the win" in (board.content or "")
    row = await h.live()
    assert row is not None and row.game is not None
    assert row.game.game_number == 7 and row.game.score == (4, 10)
