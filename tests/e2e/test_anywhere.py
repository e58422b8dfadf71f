"""Play anywhere (issue 37): the app installed to a player's account, in DMs, group DMs and a
server that never added the bot, through the real discord.py and the fake Discord.

There the bot is not in the channel: the fake refuses every bot-token call about it (403
Missing Access) and sends the bot none of its messages, so a game must live on the answers
to interactions alone. The friend without the app only presses components.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.records import Status, Venue
from bot.engine import Game, Play
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import (
    CALLBACK_UPDATE_MESSAGE,
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionResult,
    RecordedMessage,
)
from tests.e2e.picker_support import choose, confirm, custom_id, groups_of, open_picker
from tests.e2e.tap_game import script
from tests.e2e.test_trust import ScriptedComputer

PERM_USE_EXTERNAL_APPS = 1 << 50
FOLLOWUP_LIMIT = 5  # Discord's, for an interaction the user's install alone authorised


@pytest.fixture
async def anywhere(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    """A bot whose commands are global (user installs need that), with a scripted computer;
    alice installed the app to her account, dave did not and shares no server with the bot."""
    computer = ScriptedComputer()
    h = Harness(fake, tmp_path / "gammon.db", computer=lambda level: computer)
    h.global_commands = True
    fake.install_for_user(h.alice)
    h.dave = fake.create_user("dave")  # type: ignore[attr-defined]
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


def dave(h: Harness) -> FakeUser:
    return h.dave  # type: ignore[attr-defined]


async def command(
    h: Harness, who: object, channel: FakeChannel, sub: str, **options: object
) -> InteractionResult:
    return await h.fake.slash(who, channel, "backgammon", sub, options=options)  # type: ignore[arg-type]


async def pressed(
    h: Harness, who: object, board: RecordedMessage, action: str
) -> tuple[InteractionResult, RecordedMessage]:
    """Press a board's button: the interaction and the new board it answers with. Where the
    bot is not in the channel the pressed board loses its buttons by the interaction's own
    update (type 7), and the new board is a followup, a new message."""
    (cid,) = [c for c in board.custom_ids if c.startswith(f"bg:{action}:")]
    result = await h.fake.click(who, board, cid)  # type: ignore[arg-type]
    new = await h.board_after(result)
    return result, new


def bot_calls_about(h: Harness, channel: FakeChannel) -> list[str]:
    """Every bot-token request about ``channel`` (interaction webhooks are not these)."""
    return [str(r) for r in h.fake.requests if f"/channels/{channel.id}" in r.path]


def followups_within_limit(h: Harness) -> None:
    for result in h.fake.interactions:
        assert len(result.followups) <= FOLLOWUP_LIMIT, result.describe()


async def whole_game_by_taps(
    h: Harness, board: RecordedMessage, players: dict[int, object], seed: int = 3
) -> RecordedMessage:
    """Play the scripted game (tests/e2e/tap_game.py) from its first board, every play by the
    tap picker, every roll by the board's Roll button; the last board."""
    plan = script(seed)
    for number, turn in enumerate(plan.turns):
        who = players[turn.player]
        if number:  # the opening roll came with the accept
            h.roller.extend(turn.dice)
            _result, board = await pressed(h, who, board, "roll")
        if turn.play is None:
            continue
        picker = await open_picker(h, who, board)  # type: ignore[arg-type]
        for label in groups_of(turn.play, combine=False):
            picker = await choose(h, who, picker, label)  # type: ignore[arg-type]
        board = await confirm(h, who, picker)  # type: ignore[arg-type]
    return board


# --- a DM between a player with the app and one without -----------------------------------


async def test_a_whole_game_in_a_dm_with_a_friend_who_has_no_app(anywhere: Harness) -> None:
    h = anywhere
    dm = h.fake.private_dm(h.alice, dave(h))
    h.roller.extend(script(3).opening)
    challenge = await (await command(h, h.alice, dm, "challenge", opponent=dave(h))).answer()
    assert not challenge.ephemeral and "dave" in challenge.content
    accepted, board = await pressed(h, dave(h), challenge, "accept")
    callback = await accepted.response()
    assert callback.type == CALLBACK_UPDATE_MESSAGE  # the challenge lost its buttons itself
    assert h.fake.message(challenge.id).custom_ids == []
    assert board.attachments and not board.ephemeral
    assert "Last action <t:" in board.content  # no reminders here: the board says since when
    last = await whole_game_by_taps(h, board, {0: h.alice, 1: dave(h)})
    assert "wins" in last.content and [c for c in last.custom_ids if c.startswith("bg:rematch:")]
    row = await h.service.store.latest_match(dm.id)
    assert row is not None and row.status is Status.FINISHED
    assert (row.venue, row.guild_id, row.rated) == (Venue.PRIVATE, 0, False)
    assert bot_calls_about(h, dm) == []  # only the interactions' own webhooks
    followups_within_limit(h)
    h.fake.assert_clean()


async def test_the_friend_without_the_app_resigns_and_the_challenger_accepts(
    anywhere: Harness,
) -> None:
    """Resign is a button there (no /backgammon resign for dave): it opens a private menu of
    how much; the offer lands on the board and alice answers it with its buttons."""
    h = anywhere
    dm = h.fake.private_dm(h.alice, dave(h))
    h.roller.extend([3, 1])
    challenge = await (await command(h, h.alice, dm, "challenge", opponent=dave(h))).answer()
    _result, board = await pressed(h, dave(h), challenge, "accept")
    (resign,) = [c for c in board.custom_ids if c.startswith("bg:resign:")]
    menu = await (await h.fake.click(dave(h), board, resign)).response()
    assert menu.ephemeral and menu.message is not None
    (kinds,) = [c for c in menu.message.custom_ids if c.startswith("bgrs:")]
    gammon = await h.fake.click(dave(h), menu.message, kinds, values=["gammon"])
    offered = await h.board_after(gammon)
    assert "dave offers to resign" in offered.content, offered.content
    assert h.fake.message(menu.message.id).content.startswith("Your resignation offer")
    _result, over = await pressed(h, h.alice, offered, "resign_accept")
    assert "alice wins" in over.content, over.content
    assert bot_calls_about(h, dm) == []
    h.fake.assert_clean()


async def test_a_claim_is_a_button_for_the_waiting_player(anywhere: Harness) -> None:
    """No reminder reaches a DM: when dave sits on his turn past the limit, alice claims the
    game with the board's button (refused, privately, before the time is up)."""
    h = anywhere
    dm = h.fake.private_dm(h.alice, dave(h))
    h.roller.extend([3, 1])
    challenge = await (await command(h, h.alice, dm, "challenge", opponent=dave(h))).answer()
    _result, board = await pressed(h, dave(h), challenge, "accept")
    played = await _alice_plays(h, board, ["8/5", "6/5"])
    early = await h.fake.click(h.alice, played, _cid(played, "claim"))
    assert "before you can claim" in await h.error_of(early)
    h.clock.advance(2 * 3600)
    _result, claimed = await pressed(h, h.alice, played, "claim")
    assert "alice wins" in claimed.content, claimed.content
    h.fake.assert_clean()


# --- a group DM -----------------------------------------------------------------------------


async def test_a_group_dm_game_refuses_its_third_member_privately(anywhere: Harness) -> None:
    h = anywhere
    group = h.fake.group_dm(h.alice, h.bob.user, h.carol.user)
    h.roller.extend([3, 1])
    challenge = await (await command(h, h.alice, group, "challenge", opponent=h.bob)).answer()
    carol_accepts = await h.fake.click(h.carol, challenge, _cid(challenge, "accept"))
    assert "This challenge is for bob" in await h.error_of(carol_accepts)
    assert h.fake.message(challenge.id).custom_ids  # her press changed nothing
    _result, board = await pressed(h, h.bob, challenge, "accept")
    await _alice_plays(h, board, ["8/5", "6/5"])
    row = await h.service.store.live_match(group.id)
    assert row is not None and row.venue is Venue.PRIVATE
    latest = h.fake.last_message(group)
    assert latest is not None
    carol_rolls = await h.fake.click(h.carol, latest, _cid(latest, "roll"))
    assert "you are not playing in it" in await h.error_of(carol_rolls)
    fresh = await h.service.store.live_match(group.id)
    assert fresh is not None and fresh.version == row.version
    # Watching is allowed: her Board shows the board to her alone, and the players' board
    # keeps its buttons.
    look = await (await h.fake.click(h.carol, latest, _cid(latest, "board"))).response()
    assert look.ephemeral and look.files and not look.custom_ids
    assert h.fake.message(latest.id).custom_ids == latest.custom_ids
    assert bot_calls_about(h, group) == []
    h.fake.assert_clean()


async def test_a_group_dm_game_on_the_web_opens_for_its_players_alone(anywhere: Harness) -> None:
    """The bot cannot ask Discord who else is in a group DM, so its game's web pages open
    for its players only (a subset of who could see the chat): never from the bare link,
    never for a stranger, nor for the chat's third member."""
    from tests.e2e.activity_support import activity
    from tests.e2e.test_web_privacy import match_paths, status_of, visitor

    h = anywhere
    group = h.fake.group_dm(h.alice, h.bob.user, h.carol.user)
    h.roller.extend([3, 1])
    challenge = await (await command(h, h.alice, group, "challenge", opponent=h.bob)).answer()
    await pressed(h, h.bob, challenge, "accept")
    row = await h.service.store.live_match(group.id)
    assert row is not None and row.web_key is not None
    stranger = h.fake.create_user("zed")
    async with activity(h) as a:
        expected = {None: 401, stranger: 403, h.carol: 403, h.bob: 200, h.alice: 200}
        for who, status in expected.items():
            async with visitor(a, who) as http:
                for path in match_paths(row.web_key):
                    got, text = await status_of(http, a.base + path)
                    assert got == status, (who, path, got, text[:200])
    h.fake.errors[:] = [e for e in h.fake.errors if e.code != 10007]  # "not a member": known
    h.fake.assert_clean()


# --- the bot's DM: the computer -------------------------------------------------------------


async def test_a_game_against_the_computer_in_the_bots_dm(anywhere: Harness) -> None:
    h = anywhere
    dm = h.fake.dm_channel(h.alice)
    h.roller.extend([6, 1, 3, 1, 5, 2])  # alice opens 6-1; the computer rolls 3-1
    started = await h.board_after(await command(h, h.alice, dm, "play", level="beginner"))
    picker = await open_picker(h, h.alice, started)
    for label in ("13/7", "8/7"):
        picker = await choose(h, h.alice, picker, label)
    moved = await confirm(h, h.alice, picker)
    assert "GammonBot rolls 3-1 and plays" in moved.content  # its reply in the same answer
    row = await h.service.store.live_match(dm.id)
    assert row is not None and (row.venue, row.guild_id) == (Venue.BOT_DM, 0)
    friend = await command(h, h.alice, dm, "challenge", opponent=h.bob)
    assert "only play me" in await h.error_of(friend)
    h.fake.assert_clean()


class SlowComputer(ScriptedComputer):
    """Thinks past Discord's 3 seconds on each play."""

    def choose_play(self, game: Game) -> Play:
        time.sleep(3.2)
        return super().choose_play(game)


async def test_a_slow_computer_answers_after_a_deferral_in_the_same_answer(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """The computer thinking longer than Discord's 3 s: the press is acknowledged in time
    (a deferred update of the pressed board), then the old board loses its buttons by an
    edit through the interaction and the computer's reply is the followup: one answer."""
    computer = SlowComputer()
    h = Harness(fake, tmp_path / "gammon.db", computer=lambda level: computer)
    h.global_commands = True
    fake.install_for_user(h.alice)
    await h.start()
    try:
        dm = fake.dm_channel(h.alice)
        h.roller.extend([1, 6])  # the computer opens: it thinks at once
        started = await command(h, h.alice, dm, "play", level="beginner")
        first = await started.answer(timeout=15)
        assert "GammonBot" in first.content and _cid(first, "roll")
        h.roller.extend([3, 1, 5, 2])  # alice rolls 3-1... then plays; the computer 5-2
        rolled = await h.board_after(await h.fake.click(h.alice, first, _cid(first, "roll")))
        picker = await open_picker(h, h.alice, rolled)
        for label in ("8/5", "6/5"):
            picker = await choose(h, h.alice, picker, label)
        result = await h.fake.click(h.alice, picker, custom_id(picker, "c"), timeout=15)
        reply = await result.answer(timeout=15)
        assert "GammonBot rolls 5-2 and plays" in reply.content, reply.content
        assert not result.late
        assert len(result.followups) <= FOLLOWUP_LIMIT
        fake.assert_clean()
    finally:
        await h.stop()


async def test_a_double_press_in_a_dm_acts_once(anywhere: Harness) -> None:
    h = anywhere
    dm = h.fake.private_dm(h.alice, dave(h))
    h.roller.extend([3, 1])
    challenge = await (await command(h, h.alice, dm, "challenge", opponent=dave(h))).answer()
    _result, board = await pressed(h, dave(h), challenge, "accept")
    played = await _alice_plays(h, board, ["8/5", "6/5"])
    h.roller.extend([6, 5, 6, 5])
    roll = _cid(played, "roll")
    first, second = await asyncio.gather(
        h.fake.click(dave(h), played, roll), h.fake.click(dave(h), played, roll)
    )
    answers = []
    for result in (first, second):
        callback = await result.response()
        if callback.type == CALLBACK_UPDATE_MESSAGE:
            answers.append(await h.board_after(result))
        else:
            assert "earlier turn" in await h.error_of(result)
    assert len(answers) == 1 and "dave rolls 6-5" in answers[0].content
    row = await h.service.store.live_match(dm.id)
    assert row is not None and row.game is not None and row.game.dice == (6, 5)
    h.fake.assert_clean()


# --- a server that never added the bot --------------------------------------------------------


async def test_a_game_on_a_server_without_the_bot(anywhere: Harness) -> None:
    h = anywhere
    guest = h.fake.add_guild("No Bot Here", with_bot=False)
    h.fake.add_member(guest, h.alice.user)
    h.fake.add_member(guest, dave(h))
    channel = guest.channel("general")
    h.roller.extend([3, 1])
    challenge = await (
        await command(h, h.alice, channel, "challenge", opponent=dave(h), length=3)
    ).answer()
    assert not challenge.ephemeral
    _result, board = await pressed(h, dave(h), challenge, "accept")
    await _alice_plays(h, board, ["8/5", "6/5"])
    row = await h.service.store.live_match(channel.id)
    assert row is not None and (row.venue, row.guild_id, row.rated) == (Venue.GUEST, 0, False)
    board_there = await command(h, h.alice, channel, "leaderboard")
    assert "only on a server that added the bot" in await h.error_of(board_there)
    assert bot_calls_about(h, channel) == []
    h.fake.assert_clean()


async def test_a_server_that_denies_external_apps_gets_a_clear_refusal(
    anywhere: Harness,
) -> None:
    """Discord would turn every answer private there: the challenger is told so, privately,
    and no game starts that nobody else could see."""
    h = anywhere
    guest = h.fake.add_guild("Strict Club", with_bot=False)
    guest.everyone.permissions &= ~PERM_USE_EXTERNAL_APPS
    h.fake.add_member(guest, h.alice.user)
    h.fake.add_member(guest, dave(h))
    channel = guest.channel("general")
    result = await command(h, h.alice, channel, "challenge", opponent=dave(h))
    assert "Use External Apps" in await h.error_of(result)
    assert await h.service.store.live_match(channel.id) is None
    h.fake.assert_clean()


# --- a restart mid-game -----------------------------------------------------------------------


async def test_the_next_press_on_the_old_board_works_after_a_restart(anywhere: Harness) -> None:
    h = anywhere
    dm = h.fake.private_dm(h.alice, dave(h))
    h.roller.extend([3, 1])
    challenge = await (await command(h, h.alice, dm, "challenge", opponent=dave(h))).answer()
    _result, board = await pressed(h, dave(h), challenge, "accept")
    played = await _alice_plays(h, board, ["8/5", "6/5"])
    await h.restart()
    h.roller.extend([6, 5])
    _result, rolled = await pressed(h, dave(h), played, "roll")
    assert "dave rolls 6-5" in rolled.content, rolled.content
    h.fake.assert_clean()


# --- the user command, the commands' reach ---------------------------------------------------


async def test_challenge_to_backgammon_from_a_persons_apps_menu(anywhere: Harness) -> None:
    h = anywhere
    dm = h.fake.private_dm(h.alice, dave(h))
    result = await h.fake.user_command(h.alice, dm, "Challenge to backgammon", dave(h))
    challenge = await result.answer()
    assert "dave" in challenge.content and _cid(challenge, "accept")
    row = await h.service.store.live_match(dm.id)
    assert row is not None and row.status is Status.CHALLENGE and row.venue is Venue.PRIVATE
    h.fake.assert_clean()


async def test_only_the_game_commands_go_where_the_bot_is_not(anywhere: Harness) -> None:
    """/backgammon is installable to users and usable in DMs and group DMs; the club's
    commands stay on servers that added the bot."""
    h = anywhere
    synced = {c["name"]: c for c in await h.fake.wait_for_commands(None, names=("backgammon",))}
    assert sorted(synced["backgammon"]["integration_types"]) == [0, 1]
    assert sorted(synced["backgammon"]["contexts"]) == [0, 1, 2]
    menu = synced["Challenge to backgammon"]
    assert (sorted(menu["integration_types"]), menu["type"]) == ([0, 1], 2)
    for club in ("tournament", "ladder", "puzzle", "chouette"):
        assert synced[club]["integration_types"] == [0], club
        assert synced[club]["contexts"] == [0], club
    dm = h.fake.private_dm(h.alice, dave(h))
    with pytest.raises(LookupError):
        await h.fake.slash(h.alice, dm, "tournament", "standings")
    h.fake.assert_clean()


# --- helpers ------------------------------------------------------------------------------


def _cid(message: RecordedMessage, action: str) -> str:
    (found,) = [c for c in message.custom_ids if c.startswith(f"bg:{action}:")]
    return found


async def _alice_plays(h: Harness, board: RecordedMessage, moves: list[str]) -> RecordedMessage:
    picker = await open_picker(h, h.alice, board)
    for label in moves:
        picker = await choose(h, h.alice, picker, label)
    assert custom_id(picker, "c")
    return await confirm(h, h.alice, picker)
