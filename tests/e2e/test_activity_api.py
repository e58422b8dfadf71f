"""The Activity's API over HTTP, against the real bot and the fake Discord's OAuth2: the
documented login, taps decided by the tap picker's logic, moves through the session that
the channel sees as board posts, and every forgery refused without changing anything."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.engine import Game, Play, parse_play
from bot.web.discord_api import LoginGate
from bot.web.state import to_absolute
from tests.e2e.activity_support import Activity, activity
from tests.e2e.conftest import Harness
from tests.e2e.tap_game import covering_seed, script


async def start_game(h: Harness, opening: tuple[int, int]) -> None:
    h.roller.extend(opening)
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await (await h.press(h.bob, challenge, "accept")).answer()


async def state_of(a: Activity, channel: str | int = "games") -> Game:
    row = await a.h.live(channel)
    assert row is not None and row.game is not None
    return row.game


async def move_by_taps(
    a: Activity, seat: str, play: Play, channel: str | int = "games"
) -> dict[str, object]:
    """Build ``play`` tap by tap (a checker, then where it goes, each among the taps the
    server offers), then play it."""
    game = await state_of(a, channel)
    mover = game.on_roll
    steps = ""
    for move in play.moves:
        status, offered = await a.post("api/activity/taps", {"steps": steps}, seat)
        assert status == 200, offered
        source = to_absolute(move.source, mover)
        assert source in offered["sources"], (str(play), offered["sources"])
        status, offered = await a.post(
            "api/activity/taps", {"steps": steps, "source": source}, seat
        )
        target = to_absolute(move.target, mover)
        (chosen,) = [d for d in offered["destinations"] if d["target"] == target]
        steps = f"{steps}.{chosen['steps']}" if steps else chosen["steps"]
    status, offered = await a.post("api/activity/taps", {"steps": steps}, seat)
    assert offered["complete"] and offered["play"] == str(play)
    row = await a.h.live(channel)
    assert row is not None
    status, answer = await a.post(
        "api/activity/act",
        {"verb": "move", "match": row.web_key, "version": row.version, "steps": steps},
        seat,
    )
    assert status == 200, answer
    return dict(answer)


async def test_an_opening_move_by_taps_reaches_the_channel(harness: Harness) -> None:
    h = harness
    await start_game(h, (3, 1))
    async with activity(h) as a:
        instance = a.oauth.launch("games", h.alice, h.bob)
        seat = await a.login(h.alice, instance)
        assert seat["user"] == str(h.alice.id) and seat["state"]["game"]["dice"] == [3, 1]
        before = len(h.fake.messages_in("games"))
        game = await state_of(a)
        assert game.dice is not None
        play = parse_play(game.position, game.dice, "8/5 6/5")
        await move_by_taps(a, seat["session"], play)
        # The channel is told in a task of its own: the browser never waits for Discord.
        await h.services.facts.settled()
        posts = h.fake.messages_in("games")[before:]
        assert any("alice rolls 3-1 and plays 8/5 6/5" in (m.content or "") for m in posts)
        assert posts[-1].attachments  # the board picture, as after /backgammon move
    h.fake.assert_clean()


async def test_a_whole_game_played_in_the_activity(harness: Harness) -> None:
    """Every turn of a scripted game (66, hits, the bar, a forced pass, a bear-off) played
    through the Activity's API: roll, taps, move; the channel gets every board."""
    h = harness
    plan = script(covering_seed())
    await start_game(h, plan.opening)
    async with activity(h) as a:
        instance = a.oauth.launch("games", h.alice, h.bob)
        seats = {0: (await a.login(h.alice, instance))["session"]}
        seats[1] = (await a.login(h.bob, instance))["session"]
        for number, turn in enumerate(plan.turns):
            seat = seats[turn.player]
            if number:
                h.roller.extend(turn.dice)
                row = await a.h.live()
                assert row is not None
                status, answer = await a.post(
                    "api/activity/act",
                    {"verb": "roll", "match": row.web_key, "version": row.version},
                    seat,
                )
                assert status == 200, answer
            if turn.play is not None:
                await move_by_taps(a, seat, turn.play)
        row = await h.service.store.latest_match(h.fake.channel_id("games"))
        assert row is not None and row.winner == plan.winner
        await h.services.facts.settled()  # every board told in the channel, in order
    final = h.fake.last_message("games")
    assert final is not None
    assert "wins" in (final.content or "")
    h.fake.assert_clean()


async def test_forgeries_are_refused_and_change_nothing(harness: Harness) -> None:
    h = harness
    await start_game(h, (3, 1))
    async with activity(h) as a:
        instance = a.oauth.launch("games", h.alice, h.bob)
        elsewhere = a.oauth.launch("general", h.carol)
        # A made-up code, a made-up token, an unknown instance, someone else's instance.
        assert (await a.post("api/token", {"code": "made-up"}))[0] == 401
        status, token = await a.post("api/token", {"code": a.oauth.code_for(h.alice)})
        access = token["access_token"]
        forged = {"access_token": "forged", "instance_id": instance}
        assert (await a.post("api/activity/session", forged))[0] == 403
        unknown = {"access_token": access, "instance_id": "i-0-gc-1-2"}
        assert (await a.post("api/activity/session", unknown))[0] == 403
        not_in = {"access_token": access, "instance_id": elsewhere}
        assert (await a.post("api/activity/session", not_in))[0] == 403
        a.oauth.end(instance)
        ended = {"access_token": access, "instance_id": instance}
        assert (await a.post("api/activity/session", ended))[0] == 403
        # No session, a forged session: nothing moves.
        row = await h.live()
        assert row is not None
        move = {"verb": "move", "match": row.web_key, "version": row.version, "steps": "i3g1"}
        assert (await a.post("api/activity/act", move))[0] == 401
        assert (await a.post("api/activity/act", move, "forged"))[0] == 401
        # Carol watches the game's channel: she may look, never act.
        watching = a.oauth.launch("games", h.carol)
        carol = await a.login(h.carol, watching)
        status, answer = await a.post("api/activity/act", move, carol["session"])
        assert status == 409 and "not your turn" in answer["error"]
        assert (await a.post("api/activity/taps", {"steps": ""}, carol["session"]))[0] == 409
        # Alice's session with a stale version, and steps that are no legal play.
        alice = await a.login(h.alice, a.oauth.launch("games", h.alice))
        stale = {**move, "version": row.version - 1}
        assert (await a.post("api/activity/act", stale, alice["session"]))[0] == 409
        bogus = {**move, "steps": "b6"}
        assert (await a.post("api/activity/act", bogus, alice["session"]))[0] == 409
        assert await h.live() == row
    h.fake.assert_clean()


async def test_logins_are_rate_limited(harness: Harness) -> None:
    """Code exchanges and sessions both count: each is a call to Discord."""
    async with activity(harness, gate=LoginGate(per_address=3, overall=100)) as a:
        codes = [a.oauth.code_for(harness.alice) for _ in range(3)]
        statuses = [(await a.post("api/token", {"code": code}))[0] for code in codes[:2]]
        forged = {"access_token": "forged", "instance_id": "i-1"}
        statuses.append((await a.post("api/activity/session", forged))[0])
        statuses.append((await a.post("api/token", {"code": codes[2]}))[0])
        assert statuses == [200, 200, 403, 429]
        posts = [r for r in a.oauth.requests if r[1].endswith("/oauth2/token")]
        assert len(posts) == 2  # the refused login never reached Discord


async def test_a_resignation_offered_in_the_chat_is_answered_in_the_activity(
    harness: Harness,
) -> None:
    h = harness
    await start_game(h, (3, 1))
    async with activity(h) as a:
        alice = await a.login(h.alice, a.oauth.launch("games", h.alice))
        assert alice["state"]["game"]["can_double"] is False  # dice are out: no double
        offer = await (await h.slash(h.bob, "resign", kind="single")).answer()
        assert offer is not None
        row = await h.live()
        assert row is not None and row.game is not None and row.game.resignation is not None
        answer = {"verb": "resign_accept", "match": row.web_key, "version": row.version}
        status, body = await a.post("api/activity/act", answer, alice["session"])
        assert status == 200, body
        assert body["state"]["live"] is False and body["state"]["winner"] == 0
        await h.services.facts.settled()
        assert "wins" in (h.fake.last_message("games").content or "")  # type: ignore[union-attr]
    h.fake.assert_clean()


async def test_an_activity_in_the_channel_finds_the_game_moved_to_a_thread(
    harness: Harness,
) -> None:
    """The board was posted in the channel, the game goes on in its thread: an Activity
    opened in the channel plays that game; with two games moved from the channel, each
    player gets their own and anyone else is told why there is no game."""
    h = harness
    await (await h.slash(h.mod, "settings", threads="on")).response()
    await start_game(h, (3, 1))
    (thread,) = [c for c in h.fake.guild.channels.values() if c.is_thread]
    async with activity(h) as a:
        instance = a.oauth.launch("games", h.alice, h.bob, h.carol)
        seat = await a.login(h.alice, instance)
        row = await h.live(thread.id)
        assert row is not None and row.home_channel_id == h.fake.channel_id("games")
        assert seat["state"]["match"] == row.web_key and seat["channel"] == str(thread.id)
        assert seat["notice"] is None
        game = await state_of(a, thread.id)
        assert game.dice is not None
        before = len(h.fake.messages_in(thread.id))
        await move_by_taps(
            a, seat["session"], parse_play(game.position, game.dice, "8/5 6/5"), thread.id
        )
        await h.services.facts.settled()
        posts = h.fake.messages_in(thread.id)[before:]
        assert any("alice rolls 3-1 and plays 8/5 6/5" in (m.content or "") for m in posts)
        # A second game moves from the same channel to its own thread.
        h.roller.extend((4, 2))
        challenge = await (
            await h.slash(h.carol, "challenge", opponent=h.mod.id)
        ).original_message()
        await (await h.press(h.mod, challenge, "accept")).answer()
        carol = await a.login(h.carol, instance)
        theirs = await h.service.store.latest_match(int(carol["channel"]))
        assert theirs is not None and carol["state"]["match"] == theirs.web_key != row.web_key
        alice = await a.login(h.alice, instance)
        assert alice["state"]["match"] == row.web_key
        dave = h.fake.create_member("dave")
        watching = await a.login(dave, a.oauth.launch("games", dave))
        assert watching["state"] is None and "moved to threads" in watching["notice"]
    h.fake.assert_clean()


async def test_a_move_in_the_activity_never_waits_for_discord(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36: the chat is told of an Activity's move in a task of its own, so the browser
    has its answer even while Discord is slow (here: every post to the channel takes 3 s)."""
    import time

    h = harness
    await start_game(h, (3, 1))
    assert h.bot is not None and h.bot.kit is not None
    publisher = h.bot.kit.publisher
    post = publisher.post_background
    slow = asyncio.Event()

    async def slow_post(report: Any) -> None:
        slow.set()
        await asyncio.sleep(3.0)
        await post(report)

    monkeypatch.setattr(publisher, "post_background", slow_post)
    async with activity(h) as a:
        seat = await a.login(h.alice, a.oauth.launch("games", h.alice, h.bob))
        game = await state_of(a)
        assert game.dice is not None
        play = parse_play(game.position, game.dice, "8/5 6/5")
        started = time.perf_counter()
        await move_by_taps(a, seat["session"], play)
        answered = time.perf_counter() - started
        assert answered < 2.0, answered  # the browser was answered before the post was made
        await asyncio.wait_for(slow.wait(), 5)  # and the chat is being told
        await h.services.facts.settled()
        assert any("plays 8/5 6/5" in (m.content or "") for m in h.fake.messages_in("games"))
    h.fake.assert_clean()
