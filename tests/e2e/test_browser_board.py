"""Issue 40: the web board and the replay show what the board picture shows, in a real
headless Chromium, at a phone's size and a desktop's.

The live page: both players' pip counts and the cube (value and owner) as the engine has
them, whose turn it is and since when, the last play in words, and the game's move list,
which follows a move and opens an earlier position on a tap. The replay of a 3-point match:
it opens at the start (not at its end), counts moves (not events), names each game's winner
and the match's with the final score, jumps to the next game and the next blunder the
analysis marks, and gives each position a link that opens there. The board's drawing: the
cube, centred or at either owner's end, covers no point and no checker; as on the picture,
a game without a cube (cube off, a 1-point match) draws none and the Crawford game says
CRAWFORD in its place, and a double waiting for its answer is the value offered, glowing at
the doubled player's end; the opening roll is one die each, in its roller's colours. ``/``
in a browser is a page saying what this is.
Screenshots of each page at both sizes are kept under ``test-artifacts/web/``
(``TEST_ARTIFACTS`` moves them; see tests/e2e/browser_support.py).

The web server runs over the services without Discord (tests/web/support.py: everyone may
see every channel); who may see what is tests/e2e/test_web_privacy.py's.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from bot.core.dice import ScriptedRoller
from bot.core.records import MatchRow
from bot.engine import MatchOptions, ResultKind
from bot.services import Services
from tests.e2e.browser_support import (
    ARTIFACTS,
    DESKTOP,
    PHONE,
    body_data,
    browser,
    keep_screenshot,
    viewport,
    wait_until,
)
from tests.web.support import ALICE, BOB, CHANNEL, GUILD, serving, start_match


def text(driver: Any, element: str) -> str:
    return str(driver.find_element("id", element).text)


def checkers_on(driver: Any, point: int) -> int:
    return int(
        driver.execute_script(
            f"return document.querySelectorAll('#board g[data-point=\"{point}\"]').length"
        )
    )


def fills_the_screen(driver: Any) -> tuple[float, float, int, int]:
    """How far down the page's last part (the move list) reaches, the screen's height, and
    the page's width against the screen's (no sideways scrolling)."""
    bottom, height, width, screen = driver.execute_script(
        "const r = document.getElementById('moves').getBoundingClientRect();"
        "return [r.bottom, window.innerHeight,"
        " document.documentElement.scrollWidth, window.innerWidth];"
    )
    return float(bottom), float(height), int(width), int(screen)


async def shows(driver: Any, key: str, value: str, what: str, timeout: float = 10.0) -> None:
    await asyncio.to_thread(wait_until, lambda: body_data(driver, key) == value, timeout, what)


async def stored(services: Services, match_id: int) -> MatchRow:
    row = await services.session.match(match_id)
    assert row is not None and row.game is not None
    return row


def cube_covers(driver: Any) -> dict[str, int]:
    """How many points (their triangles) and checkers the cube (with an offer's glow) meets
    on the board as drawn."""
    return dict(
        driver.execute_script(
            "const box = (e) => e.getBoundingClientRect();"
            "const cube = box(document.querySelector('#board #cube'));"
            "const meets = (r) => r.left < cube.right && cube.left < r.right"
            "  && r.top < cube.bottom && cube.top < r.bottom;"
            "const count = (css) => [...document.querySelectorAll(css)]"
            "  .filter((e) => meets(box(e))).length;"
            "return {points: count('#board polygon'),"
            " checkers: count('#board g[data-point] circle')};"
        )
    )


def cube_drawn(driver: Any) -> dict[str, Any] | None:
    """The cube as the board draws it (None: no cube): the number on it, the end of the
    rail it stands at (near: the bottom player's, who is alice on a spectator's page; far;
    middle), and whether it glows as an offer."""
    found = driver.execute_script(
        "const cube = document.querySelector('#board #cube');"
        "if (!cube) return null;"
        "const board = document.getElementById('board').getBoundingClientRect();"
        "const r = cube.getBoundingClientRect();"
        "const y = ((r.top + r.bottom) / 2 - board.top) / board.height;"
        "return {value: cube.querySelector('text').textContent,"
        " end: y > 2 / 3 ? 'near' : y < 1 / 3 ? 'far' : 'middle',"
        " offered: cube.classList.contains('offered')};"
    )
    return None if found is None else dict(found)


def crawford_label(driver: Any) -> str | None:
    return driver.execute_script(
        "const label = document.querySelector('#board #crawford');"
        "return label ? label.textContent : null;"
    )


def dice_colours(driver: Any) -> list[int]:
    """Whose colours each die on the board is drawn in (0 or 1, -1 for neither), left to
    right: its face the checkers' colour, its spots the checkers' text colour."""
    return list(
        driver.execute_script(
            "const theme = JSON.parse(document.getElementById('data').textContent).theme;"
            "return [...document.querySelectorAll('#board .die')].map((die) => {"
            "  const face = die.querySelector('rect').getAttribute('fill');"
            "  const spot = die.querySelector('circle').getAttribute('fill');"
            "  const player = theme.checkers.indexOf(face);"
            "  return player >= 0 && theme.die_pips[player] === spot ? player : -1;"
            "});"
        )
    )


async def test_the_live_board_shows_the_engine_s_pips_cube_and_move_list(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        session = services.session
        await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=5))
        roller.extend((3, 1))
        match = (await session.accept(CHANNEL, BOB)).match
        await session.move(CHANNEL, ALICE, "8/5 6/5")
        roller.extend((6, 4))
        await session.roll(CHANNEL, BOB)
        await session.move(CHANNEL, BOB, "24/14")
        await session.double(CHANNEL, ALICE)
        await session.take(CHANNEL, BOB)
        roller.extend((5, 2))
        await session.roll(CHANNEL, ALICE)
        row = await stored(services, match.id)
        game = row.game
        assert game is not None and game.cube == 2 and game.cube_owner == 1
        with browser() as driver:
            viewport(driver, PHONE, mobile=True)
            await asyncio.to_thread(driver.get, f"{base}m/{row.web_key}")
            await shows(driver, "movesVersion", str(row.version), "the move list")
            # The pip counts and the cube are the engine's.
            pips = game.pips()
            assert (text(driver, "pips-0"), text(driver, "pips-1")) == (str(pips[0]), str(pips[1]))
            cube = driver.find_element("id", "cube")
            assert (
                cube.get_attribute("data-value") == "2" and cube.get_attribute("data-owner") == "1"
            )
            assert text(driver, "cube-badge-1") == "Cube 2"
            assert not driver.find_element("id", "cube-badge-0").is_displayed()
            assert (text(driver, "score-0"), text(driver, "score-1")) == ("0", "0")
            assert "5-point match" in text(driver, "headline")
            assert "The Club" in text(driver, "site")  # the server's name, from Discord
            # Whose turn, and for how long; the last checker play in words.
            assert re.search(r"Waiting for alice · \d+ s", text(driver, "status"))
            assert "alice to move" in text(driver, "panel-0")
            assert text(driver, "last-play") == "bob played 24/14."
            entries = driver.find_elements("css selector", "#moves li.entry")
            said = [entry.text for entry in entries]
            assert said == [
                "1.\nalice 3-1: 8/5 6/5",
                "2.\nbob 6-4: 24/14",
                "3.\nalice doubles",
                "4.\nbob takes",
            ], said
            bottom, height, width, screen = fills_the_screen(driver)
            assert bottom >= 0.9 * height, (bottom, height)  # no empty half screen
            assert width <= screen, (width, screen)
            keep_screenshot(driver, "live-phone")
            viewport(driver, DESKTOP, mobile=False)
            keep_screenshot(driver, "live-desktop")
            board_beside = driver.execute_script(
                "return document.getElementById('moves').getBoundingClientRect().left >"
                " document.getElementById('board').getBoundingClientRect().right"
            )
            assert board_beside, "on a wide screen the move list stands beside the board"
            viewport(driver, PHONE, mobile=True)
            # A move: the board and the move list follow it.
            await session.move(CHANNEL, ALICE, "13/8 13/11")
            after = await stored(services, match.id)
            await shows(driver, "movesVersion", str(after.version), "the move list after a move")
            assert body_data(driver, "moves") == "5"
            newest = driver.find_elements("css selector", "#moves li.entry")[-1]
            assert newest.text == "5.\nalice 5-2: 13/11* 13/8"
            assert "current" in (newest.get_attribute("class") or "")
            assert text(driver, "last-play") == "alice played 13/11* 13/8."
            # The hit is marked where it was, as on the picture.
            assert driver.find_elements("css selector", '#board g.hit[data-point="11"]')
            after_game = after.game
            assert after_game is not None
            assert text(driver, "pips-0") == str(after_game.pips()[0])
            # A tap on a move shows the board as it was then; Live follows the game again.
            assert checkers_on(driver, 1) == 1  # bob's back checker left after 24/14
            first = driver.find_element("css selector", '#moves li.entry[data-step="1"]')
            await asyncio.to_thread(first.click)
            await shows(driver, "looking", "1", "the earlier position")
            assert checkers_on(driver, 1) == 2 and checkers_on(driver, 5) == 2
            assert driver.find_element("id", "viewing").is_displayed()
            await asyncio.to_thread(driver.find_element("id", "back-live").click)
            await shows(driver, "looking", "", "the live position")
            assert checkers_on(driver, 1) == 1


async def test_the_cube_covers_no_point_and_no_checker(tmp_path: Path) -> None:
    """Centred, then at the near end (alice owns it), then at the far end (bob owns it),
    on a phone: the cube stands in the rail beside the field, never on its columns."""
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        session = services.session
        await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=7))
        roller.extend((3, 1))
        match = (await session.accept(CHANNEL, BOB)).match
        with browser() as driver:
            viewport(driver, PHONE, mobile=True)
            await asyncio.to_thread(driver.get, f"{base}m/{match.web_key}")
            owners = []
            for turn in ("centred", "alice's", "bob's"):
                if turn == "alice's":
                    await session.move(CHANNEL, ALICE, "8/5 6/5")
                    await session.double(CHANNEL, BOB)
                    await session.take(CHANNEL, ALICE)
                elif turn == "bob's":
                    roller.extend((6, 4))
                    await session.roll(CHANNEL, BOB)
                    await session.move(CHANNEL, BOB, "24/14")
                    await session.double(CHANNEL, ALICE)
                    await session.take(CHANNEL, BOB)
                row = await stored(services, match.id)
                await shows(driver, "version", str(row.version), f"the board, the cube {turn}")
                owners.append(driver.find_element("id", "cube").get_attribute("data-owner"))
                assert cube_covers(driver) == {"points": 0, "checkers": 0}, turn
            assert owners == ["", "0", "1"]


async def test_no_cube_in_a_game_without_one(tmp_path: Path) -> None:
    """As the picture draws it: no cube in a money game played with the cube off or in a
    1-point match; in the Crawford game of a 2-point match the word CRAWFORD in its place,
    and the cube back, centred, in the game after it (though doubling there gains alice
    nothing: it is in play)."""
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        session = services.session
        with browser() as driver:
            viewport(driver, PHONE, mobile=True)
            for channel, options in (
                (CHANNEL, MatchOptions(cube=False)),
                (11, MatchOptions(length=1)),
            ):
                await session.challenge(GUILD, channel, ALICE, BOB, options)
                roller.extend((3, 1))
                match = (await session.accept(channel, BOB)).match
                await session.move(channel, ALICE, "8/5 6/5")
                row = await stored(services, match.id)
                await asyncio.to_thread(driver.get, f"{base}m/{row.web_key}")
                await shows(driver, "version", str(row.version), f"the board, {options}")
                assert cube_drawn(driver) is None, options
                assert crawford_label(driver) is None, options
                await session.resign(channel, BOB, ResultKind.SINGLE)
                await session.answer_resignation(channel, ALICE, True)
            # A 2-point match: alice wins game 1, so game 2 is the Crawford game.
            await session.challenge(GUILD, 12, ALICE, BOB, MatchOptions(length=2))
            roller.extend((3, 1))
            match = (await session.accept(12, BOB)).match
            await session.move(12, ALICE, "8/5 6/5")
            await asyncio.to_thread(driver.get, f"{base}m/{match.web_key}")
            assert cube_drawn(driver) == {"value": "64", "end": "middle", "offered": False}
            await session.resign(12, BOB, ResultKind.SINGLE)
            roller.extend((5, 6))
            await session.answer_resignation(12, ALICE, True)
            row = await stored(services, match.id)
            assert row.game is not None and row.game.crawford
            await shows(driver, "version", str(row.version), "the Crawford game")
            assert cube_drawn(driver) is None
            assert crawford_label(driver) == "CRAWFORD"
            keep_screenshot(driver, "crawford-phone")
            # Bob wins the Crawford game: 1-1, and the cube is back.
            await session.move(12, BOB, "24/13")
            await session.resign(12, ALICE, ResultKind.SINGLE)
            roller.extend((3, 1))
            await session.answer_resignation(12, BOB, True)
            row = await stored(services, match.id)
            assert row.game is not None and row.game.post_crawford
            await shows(driver, "version", str(row.version), "the game after the Crawford game")
            assert cube_drawn(driver) == {"value": "64", "end": "middle", "offered": False}
            assert crawford_label(driver) is None


async def test_a_double_shows_the_value_offered_at_the_taker_s_end(tmp_path: Path) -> None:
    """As the picture draws it: while a double waits for its answer, the cube shows the
    value offered, glowing at the end of the player doubled; taken, it is the stake at its
    owner's end. The glow covers no point and no checker either."""
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        session = services.session
        await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=5))
        roller.extend((3, 1))
        match = (await session.accept(CHANNEL, BOB)).match
        await session.move(CHANNEL, ALICE, "8/5 6/5")
        with browser() as driver:
            viewport(driver, PHONE, mobile=True)
            await asyncio.to_thread(driver.get, f"{base}m/{match.web_key}")
            steps = (
                ("bob doubles", {"value": "2", "end": "near", "offered": True}),
                ("alice takes", {"value": "2", "end": "near", "offered": False}),
                ("alice redoubles", {"value": "4", "end": "far", "offered": True}),
                ("bob takes", {"value": "4", "end": "far", "offered": False}),
            )
            for step, drawn in steps:
                if step == "bob doubles":
                    await session.double(CHANNEL, BOB)
                elif step == "alice takes":
                    await session.take(CHANNEL, ALICE)
                elif step == "alice redoubles":
                    roller.extend((6, 4))
                    await session.roll(CHANNEL, BOB)
                    await session.move(CHANNEL, BOB, "24/14")
                    await session.double(CHANNEL, ALICE)
                else:
                    await session.take(CHANNEL, BOB)
                row = await stored(services, match.id)
                await shows(driver, "version", str(row.version), step)
                assert cube_drawn(driver) == drawn, step
                assert cube_covers(driver) == {"points": 0, "checkers": 0}, step
                if step == "alice redoubles":
                    keep_screenshot(driver, "double-phone")


async def test_the_opening_roll_is_one_die_each_in_its_roller_s_colours(
    tmp_path: Path,
) -> None:
    """The starter moves with both numbers, but one die is the other player's: alice wins
    the opening with her 3 against bob's 1, and the 1 is bob's colour; her next roll is
    both hers."""
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        session = services.session
        match = await start_match(services, roller, (3, 1))
        with browser() as driver:
            viewport(driver, PHONE, mobile=True)
            await asyncio.to_thread(driver.get, f"{base}m/{match.web_key}")
            await shows(driver, "version", str(match.version), "the opening roll")
            assert dice_colours(driver) == [0, 1]  # alice's 3, bob's 1
            keep_screenshot(driver, "opening-phone")
            await session.move(CHANNEL, ALICE, "8/5 6/5")
            roller.extend((6, 4))
            await session.roll(CHANNEL, BOB)
            row = await stored(services, match.id)
            await shows(driver, "version", str(row.version), "bob's roll")
            assert dice_colours(driver) == [1, 1]


async def finished_match(services: Services, roller: ScriptedRoller) -> MatchRow:
    """A 3-point match alice wins 3-1 in three games, with three blunders (moves 2, 3 and
    7 of the match, as the analysis says)."""
    session = services.session
    await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=3))
    roller.extend((3, 1))
    match = (await session.accept(CHANNEL, BOB)).match
    # Game 1: 1. alice 8/5 6/5, 2. bob 13/3 (a blunder), 3. alice 6/3 (a blunder), then
    # bob resigns (4) and alice accepts (5): alice 1-0.
    await session.move(CHANNEL, ALICE, "8/5 6/5")
    roller.extend((6, 4))
    await session.roll(CHANNEL, BOB)
    await session.move(CHANNEL, BOB, "13/3")
    roller.extend((2, 1))
    await session.roll(CHANNEL, ALICE)
    await session.move(CHANNEL, ALICE, "6/3")
    await session.resign(CHANNEL, BOB, ResultKind.SINGLE)
    roller.extend((5, 6))
    await session.answer_resignation(CHANNEL, ALICE, True)
    # Game 2: 6. bob 24/13, 7. alice 6/5 6/4 (a blunder), alice resigns (8), bob accepts (9).
    await session.move(CHANNEL, BOB, "24/13")
    roller.extend((2, 1))
    await session.roll(CHANNEL, ALICE)
    await session.move(CHANNEL, ALICE, "6/5 6/4")
    await session.resign(CHANNEL, ALICE, ResultKind.SINGLE)
    roller.extend((4, 2))
    await session.answer_resignation(CHANNEL, BOB, True)
    # Game 3: 10. alice 8/4 6/4, bob resigns a gammon (11), alice accepts (12): 3-1.
    await session.move(CHANNEL, ALICE, "8/4 6/4")
    await session.resign(CHANNEL, BOB, ResultKind.GAMMON)
    await session.answer_resignation(CHANNEL, ALICE, True)
    row = await session.match(match.id)
    assert row is not None and row.winner == 0 and row.final_score == (3, 1)
    return row


async def click(driver: Any, button: str) -> None:
    await asyncio.to_thread(driver.find_element("id", button).click)


async def test_the_replay_opens_at_the_start_names_the_winner_and_finds_blunders(
    tmp_path: Path,
) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        row = await finished_match(services, roller)
        page = f"{base}r/{row.web_key}"
        with browser() as driver:
            viewport(driver, PHONE, mobile=True)
            await asyncio.to_thread(driver.get, page)
            await shows(driver, "ready", "1", "the replay and its analysis", 60)
            # The start of the match, not its end; moves counted, not events.
            assert (body_data(driver, "step"), body_data(driver, "move")) == ("0", "start")
            assert text(driver, "position") == "Game 1: start"
            assert "alice 0 – 0 bob" in text(driver, "headline")
            assert checkers_on(driver, 5) == 0
            assert dice_colours(driver) == [0, 1]  # the opening: alice's 3, bob's 1
            # Who won the match, and by how much, from the first look.
            assert text(driver, "winner") == "alice wins the match 3–1."
            assert "The Club" in text(driver, "site")
            await click(driver, "forward")
            assert body_data(driver, "move") == "1"
            assert text(driver, "position") == "Move 1 of 12 · Game 1"
            assert text(driver, "step") == "alice 3-1: 8/5 6/5"
            assert checkers_on(driver, 5) == 2
            assert dice_colours(driver) == [0, 1]  # played with the opening roll
            await click(driver, "forward")
            assert dice_colours(driver) == [1, 1]  # bob's own 6-4
            await click(driver, "back")
            assert driver.current_url.endswith("?at=1")  # each position has its address
            # Whose chance the chart and the note give.
            note = text(driver, "analysis")
            assert re.search(r"Chance of winning: alice \d+% · bob \d+%", note), note
            assert "alice" in (driver.find_element("id", "chart").get_attribute("alt") or "")
            # Each game's winner in the move list, with the score after it.
            results = [r.text for r in driver.find_elements("css selector", "#moves li.result")]
            assert results == [
                "alice wins 1 point · 1–0",
                "bob wins 1 point · 1–1",
                "alice wins 2 points · 3–1",
                "alice wins the match 3–1.",
            ], results
            keep_screenshot(driver, "replay-phone")
            # The next blunder, and the next, as the analysis marks them.
            assert body_data(driver, "blunders") == "2,3,7"
            for move in ("2", "3", "7"):
                await click(driver, "next-blunder")
                assert body_data(driver, "move") == move
                assert driver.find_element("id", "analysis").get_attribute("data-blunder") == "1"
            await click(driver, "next-blunder")
            assert body_data(driver, "move") == "7"  # none after: it says so, and stays
            assert text(driver, "analysis") == "No blunder after this position."
            # The next game, from anywhere in the one before.
            await click(driver, "first")
            await click(driver, "next-game")
            assert (body_data(driver, "move"), body_data(driver, "game")) == ("start", "2")
            assert driver.current_url.endswith("?game=2")
            assert dice_colours(driver) == [1, 0]  # game 2's opening: bob's 6, alice's 5
            assert "alice 1 – 0 bob" in text(driver, "headline")
            # The end: the last header gives the final score, and who won.
            await click(driver, "last")
            assert body_data(driver, "move") == "12"
            assert "alice 3 – 1 bob" in text(driver, "headline")
            assert text(driver, "result") == (
                "alice wins 2 points · 3–1. alice wins the match 3–1."
            )
            bottom, height, width, screen = fills_the_screen(driver)
            assert bottom >= 0.9 * height and width <= screen, (bottom, height, width, screen)
            # A link opens at its position.
            await asyncio.to_thread(driver.get, f"{page}?at=7")
            await shows(driver, "ready", "1", "the linked replay", 60)
            assert body_data(driver, "move") == "7"
            assert text(driver, "step") == "alice 2-1: 6/5 6/4"
            viewport(driver, DESKTOP, mobile=False)
            keep_screenshot(driver, "replay-desktop")
            await click(driver, "copy-link")
            # The copy awaits the clipboard (or its fallback) before it says so: wait for it.
            await asyncio.to_thread(
                wait_until,
                lambda: (body_data(driver, "copied") or "").endswith("?at=7"),
                10.0,
                "the link copied at its position",
            )


async def test_the_landing_page_in_a_browser(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        await start_match(services, roller, (3, 1))
        with browser() as driver:
            for name, size, mobile in (("phone", PHONE, True), ("desktop", DESKTOP, False)):
                viewport(driver, size, mobile=mobile)
                await asyncio.to_thread(driver.get, base)
                assert body_data(driver, "page") == "landing"
                assert "web board" in text(driver, "app")
                keep_screenshot(driver, f"landing-{name}")
    assert (ARTIFACTS / "landing-phone.png").stat().st_size > 0
