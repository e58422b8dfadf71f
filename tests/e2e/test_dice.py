"""Issue #18 end to end: dice anyone can verify, dice statistics, luck and charts.

The verification tests play with the bot's real committed dice (no scripted roller): the
commitment is posted with the challenge, before any die is drawn; the secret comes with the
message that ends the match; `/backgammon verify` and `python -m bot verify` regenerate
every roll, and a single changed roll in the database makes both say so.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.engine import Phase
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
SECRET = re.compile(r"Dice secret: `([0-9a-f]{64})` \(public value `([^`]+)`\)")
COMMITMENT = re.compile(r"`([0-9a-f]{64})`")


async def _play_a_few_rolls_then_resign(h: Harness) -> tuple[str, str]:
    """alice challenges bob, both play two turns with the first legal play, alice resigns.

    Returns the challenge's text and the text of the message that ends the match.
    """
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    people = {h.alice.id: h.alice, h.bob.id: h.bob}
    for _ in range(4):
        row = await h.live()
        assert row is not None and row.game is not None
        game = row.game
        actor = people[row.player_ids[game.actor]]
        if game.phase is Phase.ROLL:
            await h.board_after(await h.slash(actor, "roll"))
            continue
        plays = sorted(str(p) for p in game.legal_plays())
        await h.board_after(await h.slash(actor, "move", play=plays[0]))
    row = await h.live()
    assert row is not None and row.game is not None
    resigner = people[row.player_ids[row.game.actor or 0]]
    offer = await h.board_after(await h.slash(resigner, "resign"))
    other = h.bob if resigner is h.alice else h.alice
    ended = await h.board_after(await h.press(other, offer, "resign_accept"))
    return challenge.content or "", ended.content or ""


def _verify_command(
    database: Path, folder: Path, secret: str, public: str
) -> subprocess.CompletedProcess[str]:
    """``python -m bot verify SECRET PUBLIC`` against the bot's database, as an operator runs it."""
    env = {**os.environ, "DATABASE_PATH": str(database), "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot", "verify", secret, public],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
        timeout=30,
        check=False,
    )


@pytest.fixture
async def fair(fake: FakeDiscord, tmp_path: Path):
    h = Harness(fake, tmp_path / "gammon.db", fair_dice=True)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


async def test_dice_are_committed_revealed_and_verifiable(fair: Harness, tmp_path: Path) -> None:
    h = fair
    challenge, ended = await _play_a_few_rolls_then_resign(h)
    (committed,) = COMMITMENT.findall(challenge)  # posted before the first die
    found = SECRET.search(ended)
    assert found, ended
    secret, public = found.groups()
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == committed

    row = await h.service.store.latest_match(h.fake.channel_id("games"))
    assert row is not None and row.dice is not None and row.dice.public == public
    events = await h.service.store.events(row.id)
    assert sum(1 for e in events if e.action in ("opening", "roll")) >= 3

    result = await (await h.slash(h.carol, "verify", secret=secret, public=public)).response()
    assert "The dice match" in (result.content or ""), result.content

    cli = _verify_command(h.db_path, tmp_path, secret, public)
    assert cli.returncode == 0 and "The dice match" in cli.stdout, cli.stdout + cli.stderr

    # One recorded roll changed in the database: both checks now say so.
    first_roll = next(e for e in events if e.action == "roll")
    a, b = first_roll.dice or (1, 1)
    changed = f"{a % 6 + 1}-{b}"
    with sqlite3.connect(h.db_path) as connection:
        connection.execute(
            "UPDATE events SET dice = ? WHERE match_id = ? AND seq = ?",
            (changed, row.id, first_roll.seq),
        )
    result = await (await h.slash(h.carol, "verify", secret=secret, public=public)).response()
    assert "do NOT match" in (result.content or ""), result.content
    cli = _verify_command(h.db_path, tmp_path, secret, public)
    assert cli.returncode == 1 and "do NOT match" in cli.stdout, cli.stdout + cli.stderr

    wrong = await (await h.slash(h.carol, "verify", secret="ab" * 32, public=public)).response()
    assert "does NOT match the commitment" in (wrong.content or "")
    unknown = await (await h.slash(h.carol, "verify", secret=secret, public="nope")).response()
    assert unknown.ephemeral and "No match here used the public value" in (unknown.content or "")


async def test_a_cancelled_match_reveals_its_secret_too(fair: Harness) -> None:
    h = fair
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    cancelled = await h.board_after(await h.slash(h.mod, "cancel"))
    revealed = SECRET.search(cancelled.content)
    assert revealed is not None, cancelled.content
    secret, public = revealed.groups()
    result = await (await h.slash(h.alice, "verify", secret=secret, public=public)).response()
    assert "The dice match" in (result.content or "")


async def test_dice_statistics_count_the_rolls_played_here(harness: Harness) -> None:
    h = harness
    # Opening 3-1 (alice moves), then bob rolls 6-6, alice 2-1.
    h.roller.extend([3, 1, 6, 6, 2, 1])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    await h.board_after(await h.slash(h.alice, "move", play="8/5 6/5"))
    await h.board_after(await h.slash(h.bob, "roll"))
    await h.board_after(await h.slash(h.bob, "move", play="24/18(2) 13/7(2)"))
    await h.board_after(await h.slash(h.alice, "roll"))

    everyone = await (await h.slash(h.carol, "dice")).response()
    text = everyone.embeds[0]["description"]
    # Two rolls (6-6 and 2-1) and six dice with the opening's: one double in two rolls.
    assert "2 rolls, 6 dice" in text
    assert "Doubles: 50.0% (fair dice: 16.7%; 2 rolls)" in text, text
    assert "too few rolls to tell" in text
    assert "Chi-square" in text and "p = " in text
    bob = await (await h.slash(h.carol, "dice", user=h.bob.id)).response()
    bob_text = bob.embeds[0]["description"]
    assert "1 roll, 3 dice" in bob_text and "Doubles: 100.0%" in bob_text  # 1 from the opening
    assert "Average pips per roll: 24.00 (fair dice: 8.17" in bob_text
    nobody = await h.error_of(await h.slash(h.alice, "dice", user=h.mod.id))
    assert "has not rolled" in nobody


async def test_stats_show_the_rating_over_time(harness: Harness) -> None:
    h = harness
    h.roller.extend([3, 1])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    offer = await h.board_after(await h.slash(h.alice, "resign"))
    await h.board_after(await h.press(h.bob, offer, "resign_accept"))
    stats = await (await h.slash(h.alice, "stats")).response()
    (chart,) = stats.files
    assert chart.filename == "rating.png"
    assert stats.embeds[0]["image"]["url"] == "attachment://rating.png"
    with Image.open(io.BytesIO(chart.data)) as image:
        assert image.size == (1000, 600)
    history = await h.services.reviews.rating_history(h.fake.guild.id, h.alice.id)
    assert len(history) == 1 and history[0][1] < 1500  # alice lost a rated match


async def test_analysis_and_each_game_end_show_luck_beside_skill(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    pytest.importorskip("bgsage")
    h = Harness(fake, tmp_path / "gammon.db", game_reviews=True)
    await h.start()
    try:
        h.roller.extend([6, 1, 3, 1, 5, 2])
        await h.board_after(await h.slash(h.alice, "play", level="expert"))
        await h.board_after(await h.slash(h.alice, "move", play="13/7 8/7"))
        await h.board_after(await h.slash(h.alice, "roll"))
        await h.board_after(await h.slash(h.alice, "resign"))
        review = await fake.wait_for_message(
            "games", lambda m: "Game 1: skill and luck" in (m.content or ""), timeout=30
        )
        # PR (XG's) beside the luck, and the luck-adjusted result (a money game: points).
        assert "**alice**: PR " in review.content and ". Luck " in review.content
        assert "luck-adjusted" in review.content and "points" in review.content
        assert fake.would_ping(review) == set()

        analysis = await (await h.slash(h.alice, "analyze")).followup(0, timeout=30)
        assert "Skill and luck" in (analysis.content or "")
        chart = analysis.attachment("game-chart.png")
        with Image.open(io.BytesIO(chart.data)) as image:
            assert image.size == (1000, 600)
    finally:
        await h.stop()
