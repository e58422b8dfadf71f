"""The web board in a real headless Chromium: a spectator page following a game played with
slash commands, a replay stepped back and forth, and the Activity with Discord's real SDK
(against a stand-in client frame and the fake Discord's OAuth2) played by taps while the
channel gets its board posts and a second browser watches; a forged instance is refused.

Few and coarse on purpose: each browser costs a second or two to start.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tests.e2e.activity_support import activity
from tests.e2e.browser_support import (
    body_data,
    browser,
    open_activity,
    parent_route,
    wait_until,
)
from tests.e2e.conftest import Harness


async def start_game(h: Harness, opening: tuple[int, int]) -> None:
    h.roller.extend(opening)
    challenge = await (await h.slash(h.alice, "challenge", opponent=h.bob.id)).original_message()
    await (await h.press(h.bob, challenge, "accept")).answer()


async def version(h: Harness) -> int:
    row = await h.service.store.latest_match(h.fake.channel_id("games"))
    assert row is not None
    return row.version


def checkers_on(driver: Any, point: int) -> int:
    return int(
        driver.execute_script(
            f"return document.querySelectorAll('#board g[data-point=\"{point}\"]').length"
        )
    )


async def test_spectator_page_and_replay(harness: Harness) -> None:
    h = harness
    await start_game(h, (3, 1))
    async with activity(h) as a:
        live = await h.live()
        assert live is not None
        match = live.web_key
        with browser() as driver:
            await asyncio.to_thread(driver.get, f"{a.base}m/{match}")
            seen = str(await version(h))
            await asyncio.to_thread(
                wait_until, lambda: body_data(driver, "connected") == "1", what="the socket"
            )
            assert body_data(driver, "version") == seen
            assert checkers_on(driver, 5) == 0
            await (await h.slash(h.alice, "move", play="8/5 6/5")).answer()
            after = str(await version(h))
            await asyncio.to_thread(
                wait_until, lambda: body_data(driver, "version") == after, what="the move"
            )
            assert checkers_on(driver, 5) == 2
            assert "bob" in driver.find_element("id", "status").text
            # Bob resigns, Alice accepts: the match is over, and its replay steps both ways.
            offer = await (await h.slash(h.bob, "resign", kind="single")).answer()
            await (await h.press(h.alice, offer, "resign_accept")).answer()
            await asyncio.to_thread(driver.get, f"{a.base}r/{match}?lang=fr")
            await asyncio.to_thread(
                wait_until, lambda: body_data(driver, "ready") == "1", 30, "the replay"
            )
            # It opens at the start (the opening roll), and counts moves: a roll is shown
            # with its play, so the record is 8/5 6/5 (1), the resignation (2), its accepting (3).
            assert body_data(driver, "step") == "0" and checkers_on(driver, 5) == 0
            assert body_data(driver, "move") == "start"
            for number in range(1, 4):
                await asyncio.to_thread(driver.find_element("id", "forward").click)
                assert body_data(driver, "step") == str(number) == body_data(driver, "move")
            assert checkers_on(driver, 5) == 2
            await asyncio.to_thread(driver.find_element("id", "forward").click)
            assert body_data(driver, "step") == "3"  # the end: nothing further
            for shown, made in (("2", 2), ("1", 2), ("0", 0)):  # back to the play, and before it
                await asyncio.to_thread(driver.find_element("id", "back").click)
                assert body_data(driver, "step") == shown and checkers_on(driver, 5) == made
                if shown == "1":  # the analysis beside it: the best play, nothing lost
                    note = driver.find_element("id", "analysis")
                    assert note.get_attribute("data-lost") == "0", note.text
                    assert "Équité perdue" in note.text
                    chart = driver.find_element("id", "chart")
                    assert "/chart/1.png" in chart.get_attribute("src")
                    # Shown once the picture arrives (worked out in the analysis lane).
                    await asyncio.to_thread(wait_until, chart.is_displayed, 10, "the chart")
            assert driver.find_element("id", "back").text == "Retour"
            # A money game: its winner wins its points.
            assert driver.find_element("id", "winner").text == "alice gagne 1 point"
    h.fake.assert_clean()


async def tap(driver: Any, point: int) -> None:
    """Tap a point of the Activity's board and wait for the server's answer to be drawn."""
    before = body_data(driver, "answers")
    element = driver.find_element("css selector", f'rect.tap[data-point="{point}"]')
    await asyncio.to_thread(element.click)
    await asyncio.to_thread(
        wait_until, lambda: body_data(driver, "answers") != before, 5, f"the tap on {point}"
    )


async def test_activity_played_by_taps_with_a_watcher(harness: Harness) -> None:
    h = harness
    await start_game(h, (3, 1))
    async with activity(h, routes=[parent_route()]) as a:
        live = await h.live()
        assert live is not None
        match = live.web_key
        instance = a.oauth.launch("games", h.alice, h.bob)
        with browser() as player, browser() as watcher:
            await asyncio.to_thread(watcher.get, f"{a.base}m/{match}")
            await open_activity(a, player, h.alice, instance)
            await asyncio.to_thread(
                wait_until, lambda: body_data(player, "me") == "0", 15, "the login"
            )
            assert body_data(player, "user") == str(h.alice.id)
            posts = len(h.fake.messages_in("games"))
            for source, target in ((8, 5), (6, 5)):
                await tap(player, source)
                await tap(player, target)
            confirm = player.find_element("id", "act-confirm")
            assert "8/5 6/5" in confirm.text
            await asyncio.to_thread(confirm.click)
            after = str(
                await asyncio.to_thread(
                    wait_until,
                    lambda: body_data(player, "steps") == "" and body_data(player, "version"),
                    5,
                )
            )
            await h.fake.wait_for(
                lambda: any(
                    "plays 8/5 6/5" in (m.content or "")
                    for m in h.fake.messages_in("games")[posts:]
                ),
                5,
                "the board post",
            )
            new = str(await version(h))
            await asyncio.to_thread(
                wait_until, lambda: body_data(watcher, "version") == new, 5, "the watcher"
            )
            assert checkers_on(watcher, 5) == 2
            assert after == new
            # Bob rolls in the chat; the Activity follows and Alice now only watches.
            h.roller.extend((6, 4))
            board = h.fake.last_message("games")
            assert board is not None
            await (await h.press(h.bob, board, "roll")).answer()
            rolled = str(await version(h))
            await asyncio.to_thread(
                wait_until, lambda: body_data(player, "version") == rolled, 5, "the roll"
            )
            assert not player.find_elements("css selector", "#actions button")
            # A forged instance (one Alice is not in) is refused: no session, no board.
            elsewhere = a.oauth.launch("general", h.carol)
            await asyncio.to_thread(player.switch_to.default_content)
            await open_activity(a, player, h.alice, elsewhere)
            await asyncio.to_thread(
                wait_until, lambda: body_data(player, "failed") == "403", 15, "the refusal"
            )
            player.switch_to.default_content()
            log = body_data(player, "log") or ""
            assert log.startswith("HANDSHAKE:") and "AUTHORIZE" in log
    h.fake.assert_clean()
