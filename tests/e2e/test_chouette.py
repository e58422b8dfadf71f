"""Issue 39 end to end: a chouette through the real discord.py and the strict fake Discord.

Four players sit at a table the bot opens in a thread of its own, ordered by the dice; the
captain plays with the tap picker and with ``/chouette move``; members double on their own
and the box answers each (one taken, one dropped); the box doubles a subset, one member
takes and the captain drops, so the next member plays on; the bot restarts in the middle of
a game and the next press on a board posted before it still works; a member leaves during a
game and follows the captain; the seats rotate; strangers, members out of turn and old
boards are refused privately and change nothing; the session table, the all-time table and
the session log follow. In another session the computer takes the box and answers in the
same change. Every test ends with the fake Discord clean.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.computer import CubeDecision
from bot.engine import Game, Play
from bot.features.chouette.rules import Chouette, Offer, Stage
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import (
    PERM_CREATE_PUBLIC_THREADS,
    FakeChannel,
    FakeDiscord,
    FakeMember,
    InteractionResult,
    RecordedMessage,
)


def thread_of(h: Harness) -> FakeChannel:
    (thread,) = [c for c in h.fake.guild.channels.values() if c.is_thread]
    return thread


def board(h: Harness, channel: int) -> RecordedMessage:
    """The latest public post in ``channel`` that has buttons."""
    posts = [m for m in h.fake.messages_in(channel) if m.interactive and not m.ephemeral]
    assert posts, "no board with buttons"
    return posts[-1]


def custom(message: RecordedMessage, prefix: str) -> str:
    (found,) = [c for c in message.custom_ids if c.startswith(prefix)]
    return found


async def press(
    h: Harness, who: FakeMember, message: RecordedMessage, verb: str
) -> InteractionResult:
    return await h.fake.click(who, message, custom(message, f"ch:{verb}:"))


async def chouette(
    h: Harness, who: FakeMember, sub: str, channel: int | str, **options: object
) -> InteractionResult:
    return await h.fake.slash(who, channel, "chouette", sub, options=options)


async def state(h: Harness, channel: int) -> Chouette:
    found = await h.services.chouette.current(channel)
    assert found is not None
    return found[1]


async def posted(h: Harness, result: InteractionResult) -> RecordedMessage:
    message = await result.answer()
    assert not message.ephemeral, message.content
    return message


async def test_a_four_player_session_of_several_games(harness: Harness) -> None:
    h = harness
    dave = h.fake.create_member("dave")
    mallory = h.fake.create_member("mallory")
    opened = await chouette(h, h.alice, "start", "games")
    assert "open in <#" in (await posted(h, opened)).content
    thread = thread_of(h)
    assert thread.parent_id == h.fake.channel_id("games")
    t = thread.id
    for player in (h.bob, h.carol, dave):
        await posted(h, await press(h, player, board(h, t), "join"))
    # A stranger cannot begin someone else's table: privately refused, nothing changes.
    refused = await press(h, mallory, board(h, t), "begin")
    assert "not at this chouette's table" in await h.error_of(refused)
    assert (await state(h, t)).status.value == "open"

    # C1: the dice seat alice in the box, bob captain, then carol and dave; bob opens 3-1.
    h.roller.extend([6, 5, 4, 3, 1, 3])
    begun = await posted(h, await press(h, h.carol, board(h, t), "begin"))
    assert "alice in the box against bob (captain) and carol, dave" in begun.content
    assert begun.attachments and begun.attachments[0].filename == "chouette-1.png"
    assert h.fake.would_ping(begun) == {f"user:{h.bob.id}"}

    # The captain plays the opening with the tap picker.
    opened_picker = await h.fake.click(h.bob, begun, custom(begun, "chpk:o:"))
    picker = await opened_picker.answer()
    assert picker.ephemeral
    whole = next(c for c in picker.interactive if (c.custom_id or "").startswith("chpk:a:"))
    value = next(o["value"] for o in whole.options if o["label"] == "8/5 6/5")
    chosen = await h.fake.click(h.bob, picker, whole.custom_id or "", values=[value])
    picker = await chosen.original_message()
    confirmed = await h.fake.click(h.bob, picker, custom(picker, "chpk:c:"))
    box_turn = await confirmed.followup(0)
    assert "bob plays 8/5 6/5" in (box_turn.content or "")

    # Only the box rolls now; the box rolls and plays with /chouette move.
    assert "Only the box" in await h.error_of(await press(h, h.carol, box_turn, "roll"))
    h.roller.extend([3, 1])
    rolled = await posted(h, await press(h, h.alice, box_turn, "roll"))
    await posted(h, await chouette(h, h.alice, "move", t, play="8/5 6/5"))
    # The roll's board kept its buttons (a command answered), but its moment is past.
    stale = await h.fake.click(h.alice, rolled, custom(rolled, "chpk:o:"))
    assert "earlier moment" in await h.error_of(stale)

    # C3: carol and dave double on their own; bob's roll closes the window.
    await posted(h, await press(h, h.carol, board(h, t), "double"))
    twice = await press(h, h.carol, board(h, t), "double")
    assert "already doubled" in await h.error_of(twice)
    await posted(h, await press(h, dave, board(h, t), "double"))
    answers = await posted(h, await press(h, h.bob, board(h, t), "roll"))
    assert "first the box answers" in (answers.content or "")
    stranger = await press(h, mallory, answers, "takeall")
    assert "not at this chouette's table" in await h.error_of(stranger)
    assert "Only the box" in await h.error_of(await press(h, h.carol, answers, "dropall"))
    # The box takes carol's double and drops dave's, in one answer; bob's roll follows.
    h.roller.extend([4, 2])
    menu = custom(answers, "chs:answer:")
    answered = await posted(
        h, await h.fake.click(h.alice, answers, menu, values=[f"t:{h.carol.id}"])
    )
    assert "alice takes carol's double: cube at 2" in (answered.content or "")
    assert "alice drops dave's double" in (answered.content or "")
    s = await state(h, t)
    g = s.game
    assert g is not None and g.cube(h.carol.id).value == 2 and g.cube(dave.id).points == 1
    await posted(h, await chouette(h, h.bob, "move", t, play="8/4 6/4"))

    # C4, C5: the box doubles bob and carol; carol takes, bob (the captain) drops.
    doubling = board(h, t)
    menu = custom(doubling, "chs:double:")
    asked = await h.fake.click(h.alice, doubling, menu, values=[str(h.bob.id), str(h.carol.id)])
    await posted(h, asked)
    await posted(h, await press(h, h.carol, board(h, t), "take"))
    h.roller.extend([2, 1])
    dropped = await posted(h, await press(h, h.bob, board(h, t), "drop"))
    assert "carol now moves the checkers for the team" in (dropped.content or "")
    await posted(h, await chouette(h, h.alice, "move", t, play="13/11 6/5"))
    window = board(h, t)
    assert f"<@{h.carol.id}> rolls for the team" in (window.content or "")

    # A restart in the middle of the game: the board posted before it still works.
    await h.restart()
    redoubled = await posted(h, await press(h, h.carol, window, "double"))
    assert "carol doubles the box: cube to 8" in (redoubled.content or "")
    await posted(h, await press(h, h.carol, board(h, t), "roll"))
    h.roller.extend([5, 2])  # the next game's opening: the box wins it
    over = await posted(h, await press(h, h.alice, board(h, t), "dropall"))
    content = over.content or ""
    assert "Session table after 1 game:" in content
    assert "carol +4" in content and "alice \u22124" in content
    s = await state(h, t)
    assert s.order == (h.alice.id, h.carol.id, dave.id, h.bob.id)  # the box beat the captain
    assert s.records[0].by_player == {h.alice.id: -4, h.bob.id: -1, h.carol.id: 4, dave.id: 1}

    # Game 2: dave leaves during the game; his cube follows carol's, the new captain.
    await posted(h, await chouette(h, h.alice, "move", t, play="13/8 13/11"))
    left = await posted(h, await chouette(h, dave, "leave", t))
    assert "dave leaves the table" in (left.content or "")
    followed = await posted(h, await press(h, h.carol, board(h, t), "double"))
    assert "dave doubles the box: cube to 2" in (followed.content or "")
    await posted(h, await press(h, h.carol, board(h, t), "roll"))
    h.roller.extend([6, 4])
    await posted(h, await press(h, h.alice, board(h, t), "dropall"))
    s = await state(h, t)
    assert s.game is not None and s.game.acting == h.bob.id and s.game.captain_won
    await posted(h, await chouette(h, h.bob, "move", t, play="13/7 13/9"))
    await posted(h, await press(h, h.alice, board(h, t), "dblall"))
    h.roller.extend([3, 1])
    over = await posted(h, await press(h, h.bob, board(h, t), "drop"))
    assert "Session table after 2 games:" in (over.content or "")
    s = await state(h, t)
    # The captain won: carol takes the box, alice goes to the back, dave has gone.
    assert s.order == (h.carol.id, h.bob.id, h.alice.id)
    assert s.table == {h.alice.id: -5, h.bob.id: -2, h.carol.id: 5, dave.id: 2}

    standings = await posted(h, await chouette(h, mallory, "standings", t))
    assert "carol +5" in (standings.content or "") and "All-time" in (standings.content or "")
    assert await h.service.leaderboard(h.fake.guild.id) == []  # unrated

    refused = await chouette(h, h.bob, "end", t)
    assert "Only the player who started" in await h.error_of(refused)
    ended = await posted(h, await chouette(h, h.alice, "end", t))
    assert "alice ended the chouette" in (ended.content or "")
    (log,) = ended.attachments
    text = log.data.decode()
    assert "Chouette #1: the session log" in text and "carol takes: cube at 4" in text
    assert await h.services.chouette.current(t) is None
    h.fake.assert_clean()


async def test_two_members_doubling_at_once_both_count_and_strangers_change_nothing(
    harness: Harness,
) -> None:
    """The races of a chouette: two members press Double on the same board at the same
    moment (both doubles count, neither is refused as stale), and the box answers while a
    member leaves (both apply, under the channel's lock, in some order). Strangers pressing
    any button are refused privately, and the session and the thread stay as they were."""
    h = harness
    dave = h.fake.create_member("dave")
    mallory = h.fake.create_member("mallory")
    await posted(h, await chouette(h, h.alice, "start", "games"))
    t = thread_of(h).id
    for player in (h.bob, h.carol, dave):
        await posted(h, await press(h, player, board(h, t), "join"))
    # alice in the box, bob captain, carol, dave; the box wins the opening 5-2 and plays.
    h.roller.extend([6, 5, 4, 3, 5, 2])
    await posted(h, await press(h, h.alice, board(h, t), "begin"))
    await posted(h, await chouette(h, h.alice, "move", t, play="13/8 13/11"))
    window = board(h, t)

    def public() -> int:
        return len([m for m in h.fake.messages_in(t) if not m.ephemeral])

    before, posts = await state(h, t), public()
    assert before.game is not None and before.game.stage is Stage.WINDOW
    for verb in ("double", "roll", "leave"):
        refused = await press(h, mallory, window, verb)
        assert "not at this chouette's table" in await h.error_of(refused)
    assert await state(h, t) == before
    assert public() == posts

    # carol and dave press Double on the same board at once: both count.
    first, second = await asyncio.gather(
        press(h, h.carol, window, "double"), press(h, dave, window, "double")
    )
    said = [(await posted(h, first)).content or "", (await posted(h, second)).content or ""]
    assert any("carol doubles the box" in c for c in said)
    assert any("dave doubles the box" in c for c in said)
    g = (await state(h, t)).game
    assert g is not None
    assert g.cube(h.carol.id).offer is Offer.BY_MEMBER
    assert g.cube(dave.id).offer is Offer.BY_MEMBER
    assert g.cube(h.bob.id).offer is None

    # bob's roll closes the window; the box takes both while dave leaves.
    answers = await posted(h, await press(h, h.bob, board(h, t), "roll"))
    h.roller.extend([4, 2])
    took, left = await asyncio.gather(
        press(h, h.alice, answers, "takeall"), chouette(h, dave, "leave", t)
    )
    await posted(h, took)
    assert "dave leaves the table" in ((await posted(h, left)).content or "")
    s = await state(h, t)
    g = s.game
    assert g is not None and g.stage is Stage.MOVE and g.acting == h.bob.id
    assert g.cube(h.carol.id).value == 2 and g.cube(dave.id).value == 2
    assert dave.id in g.away and sum(s.table.values()) == 0
    h.fake.assert_clean()


async def test_a_finished_game_s_analysis_privately_and_the_session_log_as_a_file(
    harness: Harness,
) -> None:
    """The analysis follows from the log: each player's checker plays and cube decisions,
    privately, finished games only, once per cooldown; the session log is a file anyone in
    the channel can download."""
    pytest.importorskip("bgsage")
    h = harness
    dave = h.fake.create_member("dave")
    mallory = h.fake.create_member("mallory")
    await posted(h, await chouette(h, h.alice, "start", "games"))
    t = thread_of(h).id
    for player in (h.bob, h.carol, dave):
        await posted(h, await press(h, player, board(h, t), "join"))
    h.roller.extend([6, 5, 4, 3, 5, 2])
    await posted(h, await press(h, h.alice, board(h, t), "begin"))
    await posted(h, await chouette(h, h.alice, "move", t, play="13/8 13/11"))
    too_soon = await chouette(h, h.bob, "analyze", t)
    assert "finished games only" in await h.error_of(too_soon)

    # Every member doubles at once, far too soon; the box drops every double: game over.
    for member in (h.bob, h.carol, dave):
        await posted(h, await press(h, member, board(h, t), "double"))
    answers = await posted(h, await press(h, h.bob, board(h, t), "roll"))
    h.roller.extend([3, 1])  # the next game's opening
    over = await posted(h, await press(h, h.alice, answers, "dropall"))
    assert "Session table after 1 game:" in (over.content or "")

    asked = await chouette(h, h.carol, "analyze", t)
    assert (await asked.response()).ephemeral
    report = await asked.followup(0)
    text = report.content or ""
    assert report.ephemeral and "Chouette #1: analysis of game 1" in text
    assert "**alice**: checker 1 play" in text and "cube 3 decisions" in text
    assert "**carol**: checker 0 plays" in text and "cube 1 decision" in text
    again = await chouette(h, h.carol, "analyze", t)
    assert "a moment ago" in await h.error_of(again)

    logged = await posted(h, await chouette(h, mallory, "log", t))
    (file,) = logged.attachments
    assert file.filename == "chouette-1.txt"
    assert "Chouette #1: the session log" in file.data.decode()
    h.fake.assert_clean()


@dataclass
class ScriptedComputer:
    """The first legal play, never a double, takes every double."""

    def choose_play(self, game: Game) -> Play:
        return sorted(game.legal_plays(), key=str)[0]

    def should_double(self, game: Game) -> bool:
        return False

    def cube_response(self, game: Game) -> CubeDecision:
        return CubeDecision.TAKE

    def accepts_resignation(self, game: Game) -> bool:
        return True


@pytest.fixture
async def with_computer(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    computer = ScriptedComputer()
    h = Harness(fake, tmp_path / "gammon.db", computer=lambda level: computer)
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


async def test_the_computer_takes_the_box_and_answers_in_the_same_change(
    with_computer: Harness,
) -> None:
    h = with_computer
    await posted(
        h, await chouette(h, h.alice, "start", "games", computer="box", consultation="full")
    )
    t = thread_of(h).id
    for player in (h.bob, h.carol):
        await posted(h, await press(h, player, board(h, t), "join"))
    # The computer takes the box; the others roll for their places. It wins the opening
    # roll and plays it in the same change: the team's window opens at once.
    h.roller.extend([6, 5, 4, 5, 2])
    begun = await posted(h, await press(h, h.alice, board(h, t), "begin"))
    s = await state(h, t)
    robot = h.bot.user.id if h.bot is not None and h.bot.user is not None else 0
    assert s.game is not None and s.game.box == robot and s.game.stage is Stage.WINDOW
    assert "GammonBot plays" in (begun.content or "")
    assert "rolls for the team" in (begun.content or "")

    # A suggestion only the captain reads.
    asked = await press(h, h.carol, board(h, t), "suggest")
    assert (await asked.response()).type == 9  # a modal
    sent = await h.fake.submit_modal(h.carol, asked, {"advice": "double now"})
    assert (await sent.response()).ephemeral
    read = await press(h, h.alice, board(h, t), "advice")
    answer = await read.response()
    assert answer.ephemeral and "carol: double now" in (answer.content or "")
    assert "Only the captain" in await h.error_of(await press(h, h.bob, board(h, t), "advice"))

    # bob doubles; alice rolls: the computer takes in the same change, alice's dice follow.
    await posted(h, await press(h, h.bob, board(h, t), "double"))
    h.roller.extend([3, 1])
    rolled = await posted(h, await press(h, h.alice, board(h, t), "roll"))
    assert "takes bob's double: cube at 2" in (rolled.content or "")
    assert f"<@{h.alice.id}> to play 3-1" in (rolled.content or "")
    # alice plays; the computer rolls and plays its turn in the same change.
    h.roller.extend([6, 5])
    played = await posted(h, await chouette(h, h.alice, "move", t, play="8/5 6/5"))
    assert "rolls 6-5" in (played.content or "")
    s = await state(h, t)
    assert s.game is not None and s.game.stage is Stage.WINDOW
    h.fake.assert_clean()


async def test_the_computer_boxes_one_table_while_people_play_another(
    with_computer: Harness,
) -> None:
    """Two sessions at once on one server: people alone at one table, the computer in the
    box at another; each table's actions stay its own."""
    h = with_computer
    dave = h.fake.create_member("dave")
    erin = h.fake.create_member("erin")
    club = h.fake.add_channel(None, "club")
    await posted(h, await chouette(h, h.alice, "start", "games"))
    await posted(h, await chouette(h, dave, "start", club.id, computer="box"))
    threads = {c.parent_id: c.id for c in h.fake.guild.channels.values() if c.is_thread}
    people, boxed = threads[h.fake.channel_id("games")], threads[club.id]
    for player in (h.bob, h.carol):
        await posted(h, await press(h, player, board(h, people), "join"))
    await posted(h, await press(h, erin, board(h, boxed), "join"))
    # People: alice in the box, bob captain; bob wins the opening 3-1.
    h.roller.extend([6, 5, 4, 1, 3])
    await posted(h, await press(h, h.alice, board(h, people), "begin"))
    # The computer's table: dave and erin roll for their places; the computer wins the
    # opening 5-2 and plays it in the same change: the team's window opens.
    h.roller.extend([6, 5, 5, 2])
    begun = await posted(h, await press(h, erin, board(h, boxed), "begin"))
    assert "GammonBot plays" in (begun.content or "")
    robot = h.bot.user.id if h.bot is not None and h.bot.user is not None else 0
    first, second = await state(h, people), await state(h, boxed)
    assert first.game is not None and first.game.box == h.alice.id
    assert first.game.stage is Stage.MOVE and not first.is_computer(first.game.box)
    assert second.game is not None and second.game.box == robot
    assert second.game.stage is Stage.WINDOW

    # A move at the people's table leaves the computer's as it was, and the other way.
    await posted(h, await chouette(h, h.bob, "move", people, play="8/5 6/5"))
    assert await state(h, boxed) == second
    await posted(h, await press(h, erin, board(h, boxed), "double"))
    h.roller.extend([3, 1])
    rolled = await posted(h, await press(h, dave, board(h, boxed), "roll"))
    assert "takes erin's double: cube at 2" in (rolled.content or "")
    after = await state(h, people)
    assert after.game is not None and after.game.stage is Stage.BOX_TURN
    assert after.game.cube(h.carol.id).value == 1
    h.fake.assert_clean()


async def test_without_threads_the_table_stays_in_the_channel_and_says_why(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    for role in fake.guild.roles.values():
        role.permissions &= ~PERM_CREATE_PUBLIC_THREADS
    h = Harness(fake, tmp_path / "gammon.db")
    await h.start()
    try:
        opened = await posted(h, await chouette(h, h.alice, "start", "games"))
        assert "stays in this channel" in (opened.content or "")
        assert not [c for c in h.fake.guild.channels.values() if c.is_thread]
        games = h.fake.channel_id("games")
        assert (await state(h, games)).players == (h.alice.id,)
        # One table per channel.
        again = await chouette(h, h.bob, "start", "games")
        assert "already being played here" in await h.error_of(again)
        joined = await posted(h, await press(h, h.bob, board(h, games), "join"))
        assert "bob takes a seat" in (joined.content or "")
        h.fake.assert_clean()
    finally:
        await h.stop()
