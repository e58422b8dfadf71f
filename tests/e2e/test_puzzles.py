"""Issue 29 end to end: a match played and analysed becomes the server's puzzles; ``/puzzle``
gives one privately, answered by taps, by autocomplete or with cube buttons, and revealed
privately; the daily puzzle is posted and revealed by a simulated clock across a restart; a
player who keeps their games out never appears."""

from __future__ import annotations

import pytest

from bot.computer import computer_available
from bot.engine.steps import encode_steps
from cogs.puzzle import Puzzles
from tests.e2e.conftest import Harness, running_cog
from tests.e2e.fake_discord import (
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
    PERM_MANAGE_GUILD,
    FakeMember,
    RecordedMessage,
)
from tests.e2e.picker_support import press

pytestmark = pytest.mark.skipif(not computer_available(), reason="needs bgsage")

BAD_OPENING = "24/23 24/21"  # an opening 3-1 not played 8/5 6/5: a clear mistake


async def blunder_match(h: Harness) -> None:
    """Alice opens 3-1 badly, Bob doubles at once, Alice drops; the puzzles are made."""
    h.roller.extend([3, 1])
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await press(h, h.bob, challenge, "accept")
    board = await h.board_after(await h.slash(h.alice, "move", play=BAD_OPENING))
    board = await press(h, h.bob, board, "double")
    await press(h, h.alice, board, "drop")
    await h.services.puzzles.idle()


def puzzles_cog(h: Harness) -> Puzzles:
    cog: Puzzles = running_cog(h, "Puzzles", "cogs.puzzle")
    return cog


def ids(message: RecordedMessage, verb: str) -> str:
    (found,) = [c for c in message.custom_ids if c.startswith(f"bgpz:{verb}:")]
    return found


def options(message: RecordedMessage, verb: str) -> dict[str, str]:
    component = message.component(ids(message, verb))
    return {o["label"]: o["value"] for o in component.options}


async def get_puzzle(h: Harness, who: FakeMember) -> RecordedMessage:
    result = await h.fake.slash(who, "games", "puzzle", "get")
    callback = await result.response()
    assert callback.type == CALLBACK_CHANNEL_MESSAGE and callback.ephemeral, callback
    assert callback.message is not None
    message = h.fake.message(callback.message.id)
    assert [a.filename for a in message.attachments] == ["puzzle.png"]
    return message


async def tapped(
    h: Harness,
    who: FakeMember,
    message: RecordedMessage,
    verb: str,
    value: str | None = None,
    locale: str = "en-US",
) -> RecordedMessage:
    values = None if value is None else [value]
    result = await h.fake.click(who, message, ids(message, verb), values=values, locale=locale)
    callback = await result.response()
    assert callback.type == CALLBACK_UPDATE_MESSAGE, (callback, result.errors)
    return h.fake.message(message.id)


async def test_a_puzzle_answered_by_taps_then_by_autocomplete_then_with_cube_buttons(
    harness: Harness,
) -> None:
    h = harness
    await blunder_match(h)
    # Alice meets her own mistakes first, and is told so privately.
    own = await get_puzzle(h, h.alice)
    assert "from one of your own games" in own.content and "You rolled 3-1" in own.content
    choices = await h.fake.autocomplete(
        h.alice, "games", "puzzle", "answer", focused="play", value="8/"
    )
    assert "8/5 6/5" in [c["value"] for c in choices]
    result = await h.fake.slash(h.alice, "games", "puzzle", "answer", options={"play": "8/5 6/5"})
    answer = await result.answer()
    assert answer.ephemeral
    assert "Right: 8/5 6/5" in answer.content and "in your own match here" in answer.content
    assert "Puzzle rating: 1500 →" in answer.content and "1 right answer in a row" in answer.content
    # Her next own mistake is the drop: a cube puzzle, answered with buttons.
    cube = await get_puzzle(h, h.alice)
    assert "Your opponent doubles. Take or pass?" in cube.content
    take = [c for c in cube.custom_ids if c.startswith("bgpz:x:") and c.endswith(":take")]
    result = await h.fake.click(h.alice, cube, take[0])
    assert (await result.response()).type == CALLBACK_UPDATE_MESSAGE
    after = h.fake.message(cube.id)
    assert "Right: Take" in after.content and after.components == []
    assert (
        await h.fake.autocomplete(h.alice, "games", "puzzle", "answer", focused="play", value="")
        == []
    )  # nothing left to answer
    # Carol was not in the match: the server's puzzles, nobody named.
    puzzle = await get_puzzle(h, h.carol)
    while "You rolled 3-1" not in puzzle.content:
        puzzle = await get_puzzle(h, h.carol)
    assert "alice" not in puzzle.content and "your own games" not in puzzle.content
    assert not any(c.startswith("bgpk:") for c in puzzle.custom_ids)  # no game's picker
    picker = await tapped(h, h.carol, puzzle, "s", "8")
    picker = await tapped(h, h.carol, picker, "d", options(picker, "d")["8/5"])
    picker = await tapped(h, h.carol, picker, "s", "6")
    picker = await tapped(h, h.carol, picker, "d", options(picker, "d")["6/5"])
    revealed = await tapped(h, h.carol, picker, "c")
    assert revealed.ephemeral and revealed.components == []
    text = revealed.content
    assert "Right: 8/5 6/5 is the best answer." in text, text
    assert "Best answers:" in text and "1. 8/5 6/5" in text
    assert "Played in the game:" in text and "Position ID" in text and "Match ID" in text
    h.fake.assert_clean()


async def test_a_tap_on_a_puzzle_whose_player_kept_out_is_refused_privately(
    harness: Harness,
) -> None:
    h = harness
    await blunder_match(h)
    puzzle = await get_puzzle(h, h.carol)
    settings = await h.slash(h.bob, "settings", puzzles="off")
    assert "your games are kept out" in (await settings.answer()).content
    result = await h.fake.click(h.carol, puzzle, ids(puzzle, "s"), values=["8"])
    assert "This puzzle is gone" in await h.error_of(result)
    assert "no puzzles yet" in await h.error_of(
        await h.fake.slash(h.carol, "games", "puzzle", "get")
    )


async def test_the_daily_puzzle_is_posted_answered_and_revealed_across_a_restart(
    harness: Harness,
) -> None:
    h = harness
    admin = h.fake.create_member("admin", permissions=PERM_MANAGE_GUILD)
    await blunder_match(h)
    # Not a moderator: refused privately.
    refused = await h.fake.slash(
        h.carol, "games", "puzzle", "daily", options={"channel": "general", "time": "10:00"}
    )
    assert "Manage Server" in await h.error_of(refused)
    chosen = await h.fake.slash(
        admin, "games", "puzzle", "daily", options={"channel": "general", "time": "10:00"}
    )
    answer = await chosen.answer()
    assert answer.ephemeral and "at 10:00 UTC" in answer.content
    cog = puzzles_cog(h)
    assert await cog.daily_tick() == (0, 0)  # the clock is at 08:00 UTC
    h.clock.advance(2 * 3600)
    assert await cog.daily_tick() == (1, 0)
    assert await cog.daily_tick() == (0, 0)  # posted once
    post = h.fake.last_message("general")
    assert post is not None
    assert "Puzzle of the day" in post.content and not post.ephemeral
    assert "alice" not in post.content and "bob" not in post.content
    # Carol answers right; the moderator, who keeps his games out, right too.
    await (await h.slash(h.mod, "settings", puzzles="off")).answer()
    for solver in (h.carol, h.mod):
        result = await h.fake.click(solver, post, ids(post, "n"))
        opened = await result.answer()
        assert opened.ephemeral and "puzzle.png" in [a.filename for a in opened.attachments]
        message = h.fake.message(opened.id)
        value = options(message, "a")["8/5 6/5"]
        chosen_play = await tapped(h, solver, message, "a", value)
        assert "Press Confirm" in chosen_play.content
        done = await tapped(h, solver, chosen_play, "c")
        assert "Right" in done.content
    # A restart: the reveal is owed all the same.
    await h.restart()
    cog = puzzles_cog(h)
    h.clock.advance(24 * 3600 - 60)
    assert await cog.daily_tick() == (0, 0)
    h.clock.advance(60)
    # The day is over: yesterday's is revealed and today's (the next puzzle) posted.
    assert await cog.daily_tick() == (1, 1)
    reveal = [m for m in h.fake.messages_in("general") if "Yesterday's puzzle" in m.content]
    assert len(reveal) == 1
    text = reveal[0].content
    assert "||8/5 6/5" in text and f"<@{h.carol.id}>" in text
    assert f"<@{h.mod.id}>" not in text, "a kept-out player never appears"
    await h.fake.wait_for(
        lambda: not h.fake.message(post.id).custom_ids, 5, "the Answer button to come off"
    )
    # The leaderboard never shows him either (nor anyone yet: ratings still provisional).
    board = await (await h.fake.slash(h.carol, "games", "puzzle", "leaderboard")).answer()
    assert f"<@{h.mod.id}>" not in str(board.embeds)
    h.fake.assert_clean()


def test_step_ids_fit_in_a_custom_id() -> None:
    assert len(f"bgpz:d:{2**63}:0:{encode_steps(())}:25") <= 100


async def test_a_server_that_names_players_links_the_source_match(harness: Harness) -> None:
    h = harness
    admin = h.fake.create_member("admin", permissions=PERM_MANAGE_GUILD)
    await blunder_match(h)
    named = await h.fake.slash(
        admin, "games", "puzzle", "daily", options={"channel": "general", "names": "on"}
    )
    assert "name the players" in (await named.answer()).content
    puzzle = await get_puzzle(h, h.carol)
    link = f"https://discord.com/channels/{h.fake.guild.id}/{h.fake.channel_id('games')}"
    assert f"From alice vs bob: {link}" in puzzle.content


async def test_a_puzzle_picker_survives_a_restart_and_bad_answers_are_refused_privately(
    harness: Harness,
) -> None:
    h = harness
    await blunder_match(h)
    puzzle = await get_puzzle(h, h.carol)
    while "You rolled 3-1" not in puzzle.content:
        puzzle = await get_puzzle(h, h.carol)
    illegal = await h.fake.slash(h.carol, "games", "puzzle", "answer", options={"play": "6/1 6/3"})
    refused = await h.error_of(illegal)
    assert "6/1 6/3 is not legal with 3-1" in refused, refused
    await h.restart()
    picker = await tapped(h, h.carol, puzzle, "a", options(puzzle, "a")["8/5 6/5"])
    done = await tapped(h, h.carol, picker, "c")
    assert "Right: 8/5 6/5 is the best answer." in done.content
    assert h.fake.errors == []


async def test_a_puzzle_in_french(harness: Harness) -> None:
    h = harness
    await blunder_match(h)
    result = await h.fake.slash(h.carol, "games", "puzzle", "get", locale="fr")
    message = await result.answer()
    while not any(c.startswith("bgpz:a:") for c in message.custom_ids):  # a checker play's
        message = await (
            await h.fake.slash(h.carol, "games", "puzzle", "get", locale="fr")
        ).answer()
    assert message.ephemeral and "Partie d'argent" in message.content, message.content
    chosen = await tapped(h, h.carol, message, "a", options(message, "a")["8/5 6/5"], "fr")
    text = (await tapped(h, h.carol, chosen, "c", locale="fr")).content
    assert "Meilleures réponses :" in text, text
    assert "Best answers" not in text and "Puzzle rating" not in text


async def test_a_daily_channel_closed_to_the_bot_stops_the_daily_puzzle(harness: Harness) -> None:
    h = harness
    admin = h.fake.create_member("admin", permissions=PERM_MANAGE_GUILD)
    await blunder_match(h)
    await (
        await h.fake.slash(
            admin, "games", "puzzle", "daily", options={"channel": "general", "time": "10:00"}
        )
    ).answer()
    cog = puzzles_cog(h)
    h.clock.advance(2 * 3600)
    refused = h.fake.fail_requests(
        "POST", r"/channels/\d+/messages$", 403, code=50013, message="Missing Permissions"
    )
    assert await cog.daily_tick() == (0, 0)
    assert refused.hits == 1
    h.clock.advance(60)
    assert await cog.daily_tick() == (0, 0)
    assert refused.hits == 1  # not tried again every minute
    settings = await h.services.puzzles.settings(h.fake.guild.id)
    assert settings.channel_id is None and settings.next_post_at is None


async def test_answer_on_a_revealed_daily_puzzle_is_refused_privately(harness: Harness) -> None:
    h = harness
    admin = h.fake.create_member("admin", permissions=PERM_MANAGE_GUILD)
    await blunder_match(h)
    await (
        await h.fake.slash(
            admin, "games", "puzzle", "daily", options={"channel": "general", "time": "10:00"}
        )
    ).answer()
    cog = puzzles_cog(h)
    h.clock.advance(2 * 3600)
    assert await cog.daily_tick() == (1, 0)
    post = h.fake.last_message("general")
    assert post is not None
    h.clock.advance(24 * 3600)
    # The Answer button could not be taken off (an edit refused): pressing it still changes
    # nothing, and says why, privately.
    h.fake.fail_requests("PATCH", rf"/channels/\d+/messages/{post.id}$", 403, code=50013)
    assert await cog.daily_tick() == (1, 1)
    result = await h.fake.click(h.carol, post, ids(post, "n"))
    assert "This daily puzzle is over" in await h.error_of(result)
    assert await h.services.puzzles.puzzles.current(h.fake.guild.id, h.carol.id) is None


async def test_every_tap_keeps_the_own_mistake_line_and_the_named_source(
    harness: Harness,
) -> None:
    """What the puzzle said when it opened stays on each redraw of its picker: the maker is
    still told it was their own mistake, and a server that names players still names them
    (nobody else is told either)."""
    h = harness
    admin = h.fake.create_member("admin", permissions=PERM_MANAGE_GUILD)
    await blunder_match(h)
    own = await get_puzzle(h, h.alice)
    assert "from one of your own games" in own.content and "You rolled 3-1" in own.content
    picker = await tapped(h, h.alice, own, "s", "8")
    assert "from one of your own games" in picker.content, picker.content
    picker = await tapped(h, h.alice, picker, "d", options(picker, "d")["8/5"])
    assert "from one of your own games" in picker.content, picker.content
    picker = await tapped(h, h.alice, picker, "u")
    assert "from one of your own games" in picker.content, picker.content
    await (
        await h.fake.slash(
            admin, "games", "puzzle", "daily", options={"channel": "general", "names": "on"}
        )
    ).answer()
    puzzle = await get_puzzle(h, h.carol)
    while "You rolled 3-1" not in puzzle.content:
        puzzle = await get_puzzle(h, h.carol)
    picker = await tapped(h, h.carol, puzzle, "s", "8")
    assert "From alice vs bob" in picker.content, picker.content
    assert "your own games" not in picker.content
    h.fake.assert_clean()


async def daily_at_ten(h: Harness, admin: FakeMember, **more: str) -> Puzzles:
    options = {"channel": "general", "time": "10:00", **more}
    await (await h.fake.slash(admin, "games", "puzzle", "daily", options=options)).answer()
    return puzzles_cog(h)


def reveals(h: Harness) -> list[RecordedMessage]:
    return [m for m in h.fake.messages_in("general") if "Yesterday's puzzle" in m.content]


async def test_the_answer_comes_a_full_day_after_the_post_is_sent(harness: Harness) -> None:
    """A post claimed but refused for hours is sent later: its day starts when it is sent."""
    h = harness
    admin = h.fake.create_member("admin", permissions=PERM_MANAGE_GUILD)
    await blunder_match(h)
    cog = await daily_at_ten(h, admin)
    h.clock.advance(2 * 3600)
    h.fake.fail_requests("POST", r"/channels/\d+/messages$", 400, code=50035)
    assert await cog.daily_tick() == (0, 0)  # claimed, not sent
    h.clock.advance(6 * 3600)
    assert await cog.daily_tick() == (1, 0)  # sent at 16:00
    h.clock.advance(18 * 3600)  # 10:00 the next day: only 18 hours after it was sent
    _posted, revealed = await cog.daily_tick()
    assert revealed == 0 and reveals(h) == [], "never revealed before its 24 hours"
    h.clock.advance(6 * 3600)
    assert (await cog.daily_tick())[1] == 1
    assert len(reveals(h)) == 1
    h.fake.assert_clean()


async def test_a_daily_puzzle_whose_player_keeps_out_is_never_revealed(harness: Harness) -> None:
    h = harness
    admin = h.fake.create_member("admin", permissions=PERM_MANAGE_GUILD)
    await blunder_match(h)
    cog = await daily_at_ten(h, admin, names="on")
    h.clock.advance(2 * 3600)
    assert await cog.daily_tick() == (1, 0)
    post = h.fake.last_message("general")
    assert post is not None and "From alice vs bob" in post.content
    # Bob keeps his games out after the post: the puzzle leaves at once (its Answer says
    # so), the post loses its board, names and button on the next round, and its reveal
    # (answer, source) never comes.
    await (await h.slash(h.bob, "settings", puzzles="off")).answer()
    result = await h.fake.click(h.carol, post, ids(post, "n"))
    assert "This puzzle is gone" in await h.error_of(result)
    assert await h.services.puzzles.puzzles.current(h.fake.guild.id, h.carol.id) is None
    h.clock.advance(60)
    assert await cog.daily_tick() == (0, 0)
    withdrawn = h.fake.message(post.id)
    assert "withdrawn" in withdrawn.content and "bob" not in withdrawn.content
    assert withdrawn.attachments == [] and withdrawn.custom_ids == []
    h.clock.advance(24 * 3600)
    await cog.daily_tick()
    assert reveals(h) == []
    assert all("bob" not in m.content for m in h.fake.messages_in("general"))
    h.fake.assert_clean()


@pytest.mark.parametrize("names", ["on", "off"])
async def test_the_daily_post_and_its_reveal_name_players_only_if_the_server_chose_to(
    harness: Harness, names: str
) -> None:
    h = harness
    admin = h.fake.create_member("admin", permissions=PERM_MANAGE_GUILD)
    await blunder_match(h)
    cog = await daily_at_ten(h, admin, names=names)
    h.clock.advance(2 * 3600)
    assert await cog.daily_tick() == (1, 0)
    h.clock.advance(24 * 3600)
    assert (await cog.daily_tick())[1] == 1
    post = next(m for m in h.fake.messages_in("general") if "Puzzle of the day" in m.content)
    (reveal,) = reveals(h)
    for public in (post, reveal):
        assert not public.ephemeral
        named = "alice" in public.content or "bob" in public.content
        assert named == (names == "on"), public.content
        for player in (h.alice, h.bob):
            assert f"<@{player.id}>" not in public.content  # never pinged, either way
    if names == "on":
        assert "From alice vs bob" in reveal.content
    h.fake.assert_clean()


async def test_a_puzzles_picture_is_drawn_once_for_every_solver_who_sees_it_alike(
    harness: Harness,
) -> None:
    h = harness
    await blunder_match(h)
    cog = puzzles_cog(h)
    first = await get_puzzle(h, h.carol)
    drawn = cog.pictures.drawn
    second = await get_puzzle(h, h.mod)  # the same puzzle: neither made its mistake
    assert first.custom_ids == second.custom_ids
    assert cog.pictures.drawn == drawn, "the second solver's picture came from the cache"
    # Another look (the home board on the left) is another picture.
    await (await h.slash(h.alice, "settings", board="left")).answer()
    await get_puzzle(h, h.alice)
    assert cog.pictures.drawn == drawn + 1
    h.fake.assert_clean()
