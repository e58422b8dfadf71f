"""Issue 38 end to end: PR in the analysis, the stats and the leaderboard (a walkover never
counts), any position analysed by XGID or GNU IDs (a malformed one refused privately), the
"Analyse this position" message command on a board, a practice game played on from a
position, and the deeper analysis with its progress line."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.records import Venue
from bot.engine import Phase, PositionRecord
from tests.e2e.conftest import Harness, png_size
from tests.e2e.fake_discord import FakeDiscord, FakeMember, InteractionResult, RecordedMessage

pytest.importorskip("bgsage")

OPENING_52 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10"
GNU_52 = "4HPwATDgc/ABMA:cImqAAAAAAAE"
# A race: the player on roll (bottom) bears off against a straggler; 6-2 to play.
RACE = "XGID=-CBBCBA------------bcbcbb-:0:0:1:62:0:0:0:0:10"
DICE = [6, 2, 5, 3, 4, 1, 6, 6, 3, 2, 5, 1, 4, 4, 6, 3, 2, 1, 5, 5, 6, 4, 3, 1, 2, 2, 6, 5]


def drain(h: Harness) -> None:
    """Forget the scripted dice left over, so the next ones are the next game's."""
    while h.roller.remaining():
        h.roller.die()


async def play_a_few_turns(
    h: Harness, channel: str, players: tuple[FakeMember, FakeMember], turns: int
) -> RecordedMessage:
    """Roll and play the first legal play in turn; the last board posted."""
    board: RecordedMessage | None = None
    channel_id = h.fake.channel_id(channel)
    for _ in range(turns):
        row = await h.live(channel)
        assert row is not None and row.game is not None
        game = row.game
        actor = players[game.actor]
        if game.phase is Phase.ROLL:
            board = await h.board_after(await h.slash(actor, "roll", channel))
        else:
            plays = await h.service.legal_play_texts(channel_id, actor.id)
            board = await h.board_after(await h.slash(actor, "move", channel, play=plays[0]))
    assert board is not None
    return board


async def rated_match_played_out(h: Harness, channel: str, a: FakeMember, b: FakeMember) -> None:
    """A rated 1-point match: a few turns each, then a resignation accepted."""
    h.roller.extend(DICE)
    challenge = await (
        await h.slash(a, "challenge", channel, opponent=b.id, length=1)
    ).original_message()
    await h.board_after(await h.press(b, challenge, "accept"))
    await play_a_few_turns(h, channel, (a, b), 8)
    row = await h.live(channel)
    assert row is not None and row.game is not None
    loser = (a, b)[row.game.actor] if row.game.phase is not Phase.DOUBLED else a
    offer = await h.board_after(await h.slash(loser, "resign", channel))
    winner = b if loser is a else a
    await h.board_after(await h.press(winner, offer, "resign_accept"))
    assert await h.live(channel) is None


async def test_pr_in_the_analysis_the_stats_and_the_leaderboard(harness: Harness) -> None:
    h = harness
    h.cog.pr_min_decisions = 1  # two short games: rank from the first decision
    await rated_match_played_out(h, "games", h.alice, h.bob)

    analysis = await (await h.slash(h.carol, "analyze")).followup(0)
    text = analysis.content or ""
    assert "**alice**: PR " in text and "**bob**: PR " in text
    assert "checker " in text and "cube —" in text  # the cube is dead in a 1-point match
    assert "millipoints per decision" in text  # GNU Backgammon's error rate, as a detail
    assert "luck-adjusted" in text and "match-winning chances" in text

    # A walkover: carol claims a rated match against an idle mod. It never counts.
    drain(h)
    h.roller.extend([3, 1])
    challenge = await (
        await h.slash(h.carol, "challenge", "general", opponent=h.mod.id, length=5)
    ).original_message()
    await h.board_after(await h.press(h.mod, challenge, "accept"))
    await h.board_after(await h.slash(h.carol, "move", "general", play="8/5 6/5"))
    h.clock.advance(61 * 60)
    claimed = await h.board_after(await h.slash(h.carol, "claim", "general"))
    assert "by forfeit" in claimed.content
    await (await h.slash(h.carol, "analyze", "general")).followup(0)

    ladder = await (await h.slash(h.carol, "leaderboard", sort="pr")).response()
    (embed,) = ladder.embeds
    lines = embed["description"].splitlines()
    assert {line.split(" — ")[0][3:] for line in lines} == {"alice", "bob"}
    assert all(" — PR " in line and "1 match" in line for line in lines)
    assert "carol" not in embed["description"] and "mod" not in embed["description"]
    assert "Performance Rating" in embed["footer"]["text"]
    by_rating = await (await h.slash(h.carol, "leaderboard")).response()
    assert "1510.0" in by_rating.embeds[0]["description"]  # the default: by rating

    stats = await (await h.slash(h.carol, "stats", user=h.alice.id)).response()
    description = stats.embeds[0]["description"]
    assert "1 rated match played in full: PR " in description
    assert "Luck: " in description and "Luck-adjusted: " in description
    charts = {f.filename: f for f in stats.files}
    assert set(charts) == {"rating.png", "pr.png"}
    assert png_size(charts["pr.png"].data)[0] >= 600
    h.fake.assert_clean()


async def test_a_position_by_xgid_and_by_gnu_ids_privately(harness: Harness) -> None:
    h = harness
    by_xgid = await (await h.slash(h.alice, "position", id=OPENING_52)).answer()
    assert by_xgid.ephemeral
    text = by_xgid.content or ""
    assert "5-point match, on roll 0 and opponent 0" in text and "plays 5-2" in text
    assert "Best plays (equity, and how far behind the best):" in text and "\n1. " in text
    assert OPENING_52 in text and GNU_52 in text
    (picture,) = by_xgid.attachments
    assert picture.filename == "position.png"
    assert (picture.description or "").endswith(OPENING_52)
    assert {c.split(":")[2] for c in by_xgid.custom_ids} == {"play", "deep"}

    by_gnu = await (await h.slash(h.alice, "position", id=f"`{GNU_52}`")).answer()
    best = [line for line in (by_gnu.content or "").splitlines() if line.startswith("1. ")]
    assert best and best[0] in text  # the same position, the same best play

    cube = await (await h.slash(h.bob, "position", id="4HPwATDgc/ABMA")).answer()
    assert "Money game, cube 1 in the middle" in (cube.content or "")
    assert "Proper cube action: No double" in (cube.content or "")

    rolled = await (await h.slash(h.bob, "position", id="4HPwATDgc/ABMA", dice="6-1")).answer()
    assert "plays 6-1" in (rolled.content or "") and "13/7 8/7" in (rolled.content or "")

    shown = await (await h.slash(h.bob, "position", id=GNU_52, public="on")).answer()
    assert not shown.ephemeral and GNU_52 in (shown.content or "")
    h.fake.assert_clean()


@pytest.mark.parametrize(
    ("pasted", "dice", "said"),
    [
        ("what's the play here", None, "neither an XGID nor a GNU Backgammon Position ID"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1", None, "An XGID has 10 fields"),
        ("4HPwATDgc/ABMA:cImqAAAAAAA", None, "is not a Match ID"),
        (GNU_52, "58", "is not a roll"),
    ],
)
async def test_a_malformed_position_is_refused_privately(
    harness: Harness, pasted: str, dice: str | None, said: str
) -> None:
    h = harness
    options = {"id": pasted, **({"dice": dice} if dice else {})}
    error = await h.error_of(await h.slash(h.alice, "position", **options))
    assert said in error
    assert h.fake.messages_in(h.fake.channel("games"), ephemeral=False) == []


async def test_the_message_command_analyses_a_board_but_not_a_live_rated_one(
    harness: Harness,
) -> None:
    h = harness
    synced = await h.fake.wait_for_commands(h.fake.guild.id, names=["Analyse this position"])
    (menu,) = [c for c in synced if c["name"] == "Analyse this position"]
    assert menu["type"] == 3 and menu["name_localizations"]["fr"] == "Analyser cette position"
    h.roller.extend(DICE)
    challenge = await (
        await h.slash(h.alice, "challenge", opponent=h.bob.id, length=3, rated=False)
    ).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    board = await play_a_few_turns(h, "games", (h.alice, h.bob), 3)
    row = await h.live()
    assert row is not None and row.game is not None
    xgid = row.game.xgid()
    assert (board.attachments[-1].description or "").endswith(xgid)  # it names its position

    answer = await (await h.fake.message_command(h.carol, board, "Analyse this position")).answer()
    assert answer.ephemeral and xgid in (answer.content or "")
    assert answer.attachments[0].filename == "position.png"

    # Not a board: a player's own message.
    said = await h.fake.send_user_message(h.carol, "games", "what now?")
    refused = await h.fake.message_command(h.carol, said, "Analyse this position")
    assert "Pick a board the bot posted" in await h.error_of(refused)

    # A rated game being played: no analysis of its boards, nor of its position pasted.
    await h.board_after(await h.slash(h.mod, "cancel"))
    drain(h)
    h.roller.extend(DICE)
    challenge = await (
        await h.slash(h.alice, "challenge", opponent=h.bob.id, length=3)
    ).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    rated_board = await play_a_few_turns(h, "games", (h.alice, h.bob), 2)
    refused = await h.fake.message_command(h.carol, rated_board, "Analyse this position")
    assert "Hints are off in rated games." in await h.error_of(refused)
    row = await h.live()
    assert row is not None and row.game is not None
    pasted = await h.slash(h.carol, "position", "general", id=row.game.xgid())
    assert "rated game being played" in await h.error_of(pasted)
    history = await (await h.slash(h.carol, "history")).response()
    assert row.game.xgid() in (history.content or "")  # the XGID beside the GNU IDs
    h.fake.assert_clean()


async def test_play_it_out_starts_a_practice_game_from_the_position(harness: Harness) -> None:
    h = harness
    h.roller.extend(DICE)
    analysis = await (await h.slash(h.alice, "position", id=OPENING_52)).answer()
    (play,) = [c for c in analysis.custom_ids if c.startswith("bg:pos:play:")]
    started = await h.board_after(await h.fake.click(h.alice, analysis, play))
    assert "Play starts from the position" in started.content
    row = await h.live()
    assert row is not None and not row.rated and row.computer_level == "expert"
    assert row.player_ids[0] == h.alice.id and row.game is not None
    # alice plays the side on roll, 5-2, in the 5-point match at 0-0.
    assert row.game.phase is Phase.MOVE and row.game.dice == (5, 2) and row.game.actor == 0
    assert PositionRecord.from_game(row.game).swapped() == PositionRecord.parse(OPENING_52)
    moved = await h.board_after(await h.slash(h.alice, "move", play="13/11 13/8"))
    assert "alice rolls 5-2 and plays 13/11 13/8." in moved.content
    h.fake.assert_clean()


async def test_looking_deeper_shows_its_progress_and_the_rollouts(harness: Harness) -> None:
    h = harness
    analysis = await (await h.slash(h.alice, "position", id=RACE)).answer()
    (deep,) = [c for c in analysis.custom_ids if c.startswith("bg:pos:deep:")]
    pressed = await h.fake.click(h.alice, analysis, deep)

    def done(result: InteractionResult) -> bool:
        return any("Rolled out" in (h.fake.message(m).content or "") for _, m in result.log if m)

    def followup(result: InteractionResult) -> RecordedMessage:
        (message,) = {m for kind, m in result.log if kind == "followup" and m is not None}
        return h.fake.message(message)

    await pressed.wait_for(done, timeout=60)
    line = followup(pressed)
    assert line.ephemeral
    seen = [version["content"] for version in line.history] + [line.content]
    assert seen[0].startswith("Looking deeper: rolling out") and "0 of " in seen[0]
    assert any(" done." in version and "0 of " not in version for version in seen[:-1])
    assert "Best plays, rolled out" in (line.content or "") and "±" in (line.content or "")
    again = await h.fake.click(h.alice, analysis, deep)  # seconds of CPU: once in a while
    assert "You asked for an analysis a moment ago" in await h.error_of(again)

    # A cube decision: rolled out in batches, the line counting them.
    cube = await (await h.slash(h.bob, "position", id=RACE.replace(":62:", ":00:"))).answer()
    (deep,) = [c for c in cube.custom_ids if c.startswith("bg:pos:deep:")]
    pressed = await h.fake.click(h.bob, cube, deep)
    await pressed.wait_for(done, timeout=60)
    line = followup(pressed)
    assert "batches done" in line.history[0]["content"]
    assert "Proper cube action: Double, pass. No double +0.9" in (line.content or "")
    assert "±" in (line.content or "") and "Rolled out: 432 games" in (line.content or "")
    h.fake.assert_clean()


@pytest.fixture
async def anywhere(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    """A bot whose commands are global (user installs need that); alice installed the app to
    her account."""
    h = Harness(fake, tmp_path / "gammon.db")
    h.global_commands = True
    fake.install_for_user(h.alice)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


async def test_a_position_analysed_and_played_out_in_the_bots_dm(anywhere: Harness) -> None:
    h = anywhere
    dm = h.fake.dm_channel(h.alice)
    h.roller.extend(DICE)
    pasted = await h.fake.slash(h.alice, dm, "backgammon", "position", options={"id": OPENING_52})
    analysis = await pasted.answer()
    assert analysis.ephemeral and "Best plays" in (analysis.content or "")
    (play,) = [c for c in analysis.custom_ids if c.startswith("bg:pos:play:")]
    started = await h.board_after(await h.fake.click(h.alice, analysis, play))
    assert "Play starts from the position" in started.content
    row = await h.service.store.live_match(dm.id)
    assert row is not None and (row.venue, row.guild_id, row.rated) == (Venue.BOT_DM, 0, False)
    looked = await (
        await h.fake.message_command(h.alice, started, "Analyse this position")
    ).answer()
    assert looked.ephemeral and OPENING_52.removeprefix("XGID=")[:26] in (looked.content or "")
    h.fake.assert_clean()
