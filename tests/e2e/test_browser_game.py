"""A whole game played in the Activity, in real headless Chromiums: each player in their own
browser (Discord's real SDK against the stand-in client frame, logged in through the fake
Discord's OAuth2), every roll and cube action by the page's buttons, every checker by taps
(the first one by a drag), the dice scripted; the channel gets a board post for each action
and a third browser watching the live page sees each one.

The dice are chosen for a short game (5-5 for one side, 3-3 for the other) and the taps by
a greedy runner reading the legal taps the server offered, so the game ends in about 45
actions (the same dice, the same offers: the same game each run); a double, a beaver and a
take come first.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

from bot.core.records import MatchRow
from bot.core.reports import Player
from bot.engine import MatchOptions, Phase
from tests.e2e.activity_support import activity
from tests.e2e.browser_support import (
    body_data,
    browser,
    open_activity,
    parent_route,
    wait_until,
)
from tests.e2e.conftest import Harness

DICE = {0: (5, 5), 1: (3, 3)}
MOST_TURNS = 80  # actions; this game takes about 45


def offered(driver: Any) -> dict[str, Any]:
    """The server's last answer to the page: the legal sources and destinations."""
    return dict(json.loads(driver.execute_script("return JSON.stringify(window.gammonTaps)")))


def farthest_source(mover: int, sources: list[int]) -> int:
    """The checker furthest from home (the bar first): player 0 moves down, player 1 up."""
    if 25 in sources:
        return 25
    return max(sources) if mover == 0 else min(sources)


def farthest_target(mover: int, targets: list[int]) -> int:
    if 0 in targets:
        return 0
    return min(targets) if mover == 0 else max(targets)


async def shows(driver: Any, key: str, value: str, what: str, timeout: float = 5.0) -> None:
    """Wait until the page's ``data-<key>`` is ``value``."""
    await asyncio.to_thread(wait_until, lambda: body_data(driver, key) == value, timeout, what)


async def posted_after(h: Harness, posts: int) -> None:
    """Wait for a new message in the channel (the board post of an action)."""
    await h.fake.wait_for(lambda: len(h.fake.messages_in("games")) > posts, 5, "the board post")


async def stored_after(h: Harness, version: int, timeout: float = 5.0) -> MatchRow:
    """The channel's match once a change past ``version`` is stored."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        row = await h.service.store.latest_match(h.fake.channel_id("games"))
        if row is not None and row.version > version:
            return row
        assert asyncio.get_running_loop().time() < deadline, "the action was not stored"
        await asyncio.sleep(0.02)


def point(driver: Any, number: int) -> Any:
    return driver.find_element("css selector", f'rect.tap[data-point="{number}"]')


def settled(driver: Any, action: Callable[[], Any]) -> Any:
    """Do ``action`` (blocking), again if the page redrew the element under it meanwhile
    (the page redraws when the socket brings the state its own action made)."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _attempt in range(20):
        try:
            return action()
        except StaleElementReferenceException:
            time.sleep(0.02)
    return action()


async def tap(driver: Any, number: int) -> None:
    """Tap a point and wait for the server's answer to be drawn."""
    before = body_data(driver, "answers")
    await asyncio.to_thread(settled, driver, lambda: point(driver, number).click())
    await asyncio.to_thread(
        wait_until, lambda: body_data(driver, "answers") != before, 5, f"the tap on {number}"
    )


async def drag(driver: Any, source: int, target: int) -> None:
    """Drag a checker from ``source`` to ``target`` (a real pointer drag)."""
    from selenium.webdriver.common.action_chains import ActionChains

    before = body_data(driver, "dragged") or "0"

    def perform() -> None:
        ActionChains(driver).drag_and_drop(point(driver, source), point(driver, target)).perform()

    await asyncio.to_thread(settled, driver, perform)
    await asyncio.to_thread(
        wait_until,
        lambda: body_data(driver, "dragged") != before and offered(driver)["source"] is None,
        5,
        f"the drag {source}->{target}",
    )


async def play_by_taps(driver: Any, mover: int, *, by_drag: bool) -> str:
    """Build a whole play from the taps the server offers, then press Play; its text."""
    while not (now := offered(driver))["complete"]:
        source = farthest_source(mover, now["sources"])
        if by_drag:
            # The destination of a drag is read from a tap on the checker first (what the
            # page would highlight), then the checker is dragged there from scratch.
            await tap(driver, source)
            target = farthest_target(mover, [d["target"] for d in offered(driver)["destinations"]])
            await tap(driver, source)  # unselect: the drag starts from nothing chosen
            await drag(driver, source, target)
            by_drag = False
            continue
        await tap(driver, source)
        target = farthest_target(mover, [d["target"] for d in offered(driver)["destinations"]])
        await tap(driver, target)
    text = str(now["play"])
    assert text in driver.find_element("id", "act-confirm").text
    await press(driver, "confirm")
    return text


async def press(driver: Any, key: str) -> None:
    button = f"act-{key}"
    await asyncio.to_thread(settled, driver, lambda: driver.find_element("id", button).click())


def buttons(driver: Any) -> list[str]:
    return list(
        settled(
            driver,
            lambda: [
                b.get_attribute("id")
                for b in driver.find_elements("css selector", "#actions button")
            ],
        )
    )


async def test_a_whole_game_played_by_taps_in_the_activity(harness: Harness) -> None:
    h = harness
    channel = h.fake.channel_id("games")
    session = h.services.session
    alice, bob = Player(h.alice.id, "alice"), Player(h.bob.id, "bob")
    h.roller.extend((6, 5))  # the opening: alice starts, with 6-5
    await session.challenge(h.fake.guild.id, channel, alice, bob, MatchOptions(beavers=True))
    await session.accept(channel, bob)
    async with activity(h, routes=[parent_route()]) as a:
        first = await h.live()
        assert first is not None
        instance = a.oauth.launch("games", h.alice, h.bob)
        with browser(800) as one, browser(800) as two, browser() as watcher:
            players = {0: one, 1: two}
            await asyncio.to_thread(watcher.get, f"{a.base}m/{first.web_key}")
            await open_activity(a, one, h.alice, instance)
            await open_activity(a, two, h.bob, instance)
            for index, driver in players.items():
                await shows(driver, "me", str(index), "the login", 15)
            cube_done = dragged = False
            for _action in range(MOST_TURNS):
                row = await h.service.store.latest_match(channel)
                assert row is not None
                if not row.live:
                    break
                game = row.game
                assert game is not None and game.actor is not None
                driver = players[game.actor]
                version = str(row.version)
                await shows(driver, "version", version, "the page")
                posts = len(h.fake.messages_in("games"))
                played = None
                if game.phase is Phase.ROLL and game.actor == 1 and not cube_done:
                    await press(driver, "double")
                    cube_done = True
                elif game.phase is Phase.ROLL:
                    h.roller.extend(DICE[game.actor])
                    await press(driver, "roll")
                elif game.phase is Phase.DOUBLED and not game.beaver_pending:
                    assert buttons(driver) == ["act-take", "act-beaver", "act-drop"]
                    await press(driver, "beaver")
                elif game.phase is Phase.DOUBLED:
                    assert buttons(driver) == ["act-take", "act-drop"]  # no beaver of a beaver
                    await press(driver, "take")
                else:
                    assert game.phase is Phase.MOVE
                    played = await play_by_taps(driver, game.actor, by_drag=not dragged)
                    dragged = True
                # The action is stored, posted to the channel, and seen by the watcher.
                after = await stored_after(h, row.version)
                new = str(after.version)
                await shows(watcher, "version", new, "the watcher")
                await posted_after(h, posts)
                if played is not None:
                    posted = [m.content or "" for m in h.fake.messages_in("games")[posts:]]
                    assert any(f"plays {played}" in text for text in posted), (played, posted)
            else:
                raise AssertionError(f"the game did not end in {MOST_TURNS} turns")
            assert cube_done and dragged
            final = await h.service.store.latest_match(channel)
            assert final is not None and final.winner is not None and not final.live
            assert final.game is not None and final.game.cube == 4
            await asyncio.to_thread(
                wait_until, lambda: body_data(watcher, "version") == str(final.version), 5
            )
            assert "wins" in (h.fake.last_message("games").content or "")  # type: ignore[union-attr]
            for driver in players.values():
                assert buttons(driver) == []
    h.fake.assert_clean()
