"""Issue 41: what is private in Discord stays private on the web.

Tried as a hostile visitor would, with the real bot against the fake Discord and the web
server over its services, whose permission checks ask the fake Discord's REST API with the
bot token: a staff-only channel's match, live and finished, on every page, API, socket and
picture, for an anonymous visitor, a member who cannot see the channel, a signed-in
stranger, a member who can and a player; a public channel's match from its link, until the
server says members only; ids counted 1..N; a socket from another site; the leaderboard; a
replay shared on purpose; puzzles from the staff channel. On the code before, every one of
these pages was served to anyone by its number.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot.computer import computer_available
from bot.config import Settings
from bot.core.records import MatchRow, WebLinkRule
from tests.e2e.activity_support import Activity, activity
from tests.e2e.conftest import Harness
from tests.e2e.fake_discord import (
    PERM_MANAGE_GUILD,
    PERM_VIEW_CHANNEL,
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeUser,
)

WEB = "https://gammon.example"
Who = FakeMember | FakeUser | None


@dataclass
class WebHarness(Harness):
    """The bot with WEB_URL, so that its messages carry the web board's links."""

    @property
    def settings(self) -> Settings:
        return replace(super().settings, web_url=WEB)


@pytest.fixture
async def web_harness(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[WebHarness]:
    h = WebHarness(fake, tmp_path / "gammon.db")
    await h.start()
    try:
        yield h
    finally:
        await h.stop()


def staff_room(h: Harness, *also: FakeMember) -> FakeChannel:
    """A channel only alice, bob, ``also`` and the bot can see."""
    guild = h.fake.guild
    allowed = [h.alice.id, h.bob.id, h.fake.bot_user.id, *(m.id for m in also)]
    return h.fake.add_channel(
        guild,
        "staff",
        permission_overwrites=[
            {"id": str(guild.id), "type": 0, "allow": "0", "deny": str(PERM_VIEW_CHANNEL)},
            *(
                {"id": str(uid), "type": 1, "allow": str(PERM_VIEW_CHANNEL), "deny": "0"}
                for uid in allowed
            ),
        ],
    )


async def known(h: Harness, channel: FakeChannel) -> None:
    bot = h.bot
    assert bot is not None
    await h.fake.wait_for(lambda: bot.get_channel(channel.id) is not None, 5, "the channel")


async def live_match(h: Harness, channel: str) -> MatchRow:
    h.roller.extend([3, 1])
    challenge = await (
        await h.slash(h.alice, "challenge", channel=channel, opponent=h.bob.id)
    ).original_message()
    await h.board_after(await h.press(h.bob, challenge, "accept"))
    row = await h.live(channel)
    assert row is not None and row.web_key
    return row


async def finish(h: Harness, channel: str) -> MatchRow:
    offer = await h.board_after(await h.slash(h.bob, "resign", channel=channel, kind="single"))
    await h.board_after(await h.press(h.alice, offer, "resign_accept"))
    row = await h.service.store.latest_match(h.fake.channel_id(channel))
    assert row is not None and not row.live
    return row


@contextlib.asynccontextmanager
async def visitor(a: Activity, who: Who) -> AsyncIterator[aiohttp.ClientSession]:
    """A browser: anonymous (None), or signed in with Discord as ``who`` through the web
    sign-in, as a browser does it (the consent page's code handed to the callback)."""
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        if who is not None:
            async with http.get(a.base + "auth/login?next=/", allow_redirects=False) as response:
                assert response.status == 302
                location = response.headers["Location"]
            query = parse_qs(urlsplit(location).query)
            assert query["scope"] == ["identify"]
            assert query["redirect_uri"] == [a.server.config.redirect_uri]
            code = a.oauth.code_for(who, redirect_uri=a.server.config.redirect_uri)
            state = query["state"][0]
            async with http.get(
                a.base + f"auth/callback?code={code}&state={state}", allow_redirects=False
            ) as response:
                assert response.status == 302, await response.text()
                assert response.headers["Location"] == "/"
        yield http


async def status_of(http: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with http.get(url, allow_redirects=False) as response:
        return response.status, (await response.read()).decode(errors="replace")


def clean_but_strangers(h: Harness, *strangers: FakeUser) -> None:
    """``assert_clean``, once the expected answers are taken out: Discord's 404 "Unknown
    Member" for someone who is not a member, which is how the web learns they are not."""
    ours = {f"/members/{user.id}" for user in strangers}
    h.fake.errors[:] = [
        e for e in h.fake.errors if not (e.code == 10007 and e.path.endswith(tuple(ours)))
    ]
    h.fake.assert_clean()


def match_paths(key: str) -> list[str]:
    return [
        f"m/{key}",
        f"api/m/{key}",
        f"api/m/{key}/moves",
        f"r/{key}",
        f"api/r/{key}",
        f"api/r/{key}/analysis",
    ]


async def socket_status(a: Activity, http: aiohttp.ClientSession, key: str, **headers: str) -> int:
    """101 when the live socket opens (and sends the state), else the refusal's status."""
    origin = {"Origin": f"http://127.0.0.1:{a.server.port}", **headers}
    try:
        async with http.ws_connect(f"{a.base}m/{key}/ws", headers=origin) as socket:
            message = await socket.receive(5)
            assert json.loads(message.data)["type"] == "state"
            return 101
    except aiohttp.WSServerHandshakeError as refused:
        return refused.status


async def test_a_staff_channels_match_opens_only_for_who_can_see_that_channel(
    harness: Harness,
) -> None:
    h = harness
    erin = h.fake.create_member("erin")  # a member who may see the staff channel
    stranger = h.fake.create_user("zed")  # signed in with Discord, not a member
    staff = staff_room(h, erin)
    await known(h, staff)
    row = await live_match(h, "staff")
    key = row.web_key
    assert key is not None
    async with activity(h) as a:
        expected = {None: 401, h.carol: 403, stranger: 403, erin: 200, h.alice: 200}
        for who, status in expected.items():
            async with visitor(a, who) as http:
                for path in match_paths(key):
                    got, text = await status_of(http, a.base + path)
                    assert got == status, (who, path, got, text[:200])
                    if status == 200:
                        assert str(h.alice.id) not in text and str(h.bob.id) not in text
                    else:
                        assert "alice" not in text and "bob" not in text, (who, path)
                _page, text = await status_of(http, a.base + f"m/{key}")
                if who is None:
                    assert 'id="sign-in"' in text and "auth/login?next=" in text
                assert await socket_status(a, http, key) == (101 if status == 200 else status)
        # Finished: every page again, and the pictures too.
        await finish(h, "staff")
        for who, status in expected.items():
            async with visitor(a, who) as http:
                for path in [*match_paths(key), f"r/{key}/chart/1.png"]:
                    got, _ = await status_of(http, a.base + path)
                    assert got == status, (who, path, got)
    clean_but_strangers(h, stranger)


async def test_a_staff_channels_chouette_opens_only_for_who_can_see_that_channel(
    harness: Harness,
) -> None:
    """A chouette's table (every member's cube) leaves its thread by the same rule as a
    match: its players and who can see the staff channel it started from, nobody else, not
    by its number either (issue 39)."""
    h = harness
    erin = h.fake.create_member("erin")  # a member who may see the staff channel
    stranger = h.fake.create_user("zed")  # signed in with Discord, not a member
    staff = staff_room(h, erin)
    await known(h, staff)
    await (await h.fake.slash(h.alice, "staff", "chouette", "start")).answer()
    (thread,) = [c for c in h.fake.guild.channels.values() if c.is_thread]
    found = await h.services.chouette.current(thread.id)
    assert found is not None
    key = found[0].web_key
    async with activity(h) as a:
        expected = {None: 401, h.carol: 403, stranger: 403, erin: 200, h.alice: 200}
        for who, status in expected.items():
            async with visitor(a, who) as http:
                for path in (f"c/{key}", f"c/{key}/board.png"):
                    got, text = await status_of(http, a.base + path)
                    assert got == status, (who, path, got, text[:200])
                    if status != 200:
                        assert "alice" not in text, (who, path)
                assert (await status_of(http, a.base + f"c/{found[0].id}"))[0] == 404
    clean_but_strangers(h, stranger)


async def test_a_public_channels_match_opens_from_its_link_until_the_server_says_members(
    harness: Harness,
) -> None:
    h = harness
    stranger = h.fake.create_user("zed")
    row = await live_match(h, "games")
    key = row.web_key
    assert key is not None
    async with activity(h) as a:
        async with visitor(a, None) as http:
            for path in match_paths(key):
                got, text = await status_of(http, a.base + path)
                assert got == 200, (path, text[:200])
                # Names, never Discord ids, for a spectator.
                assert str(h.alice.id) not in text and str(h.bob.id) not in text
            assert await socket_status(a, http, key) == 101
        done = await h.slash(h.mod, "settings", web_links="members")
        assert (await done.answer()).ephemeral
        chosen = await h.services.club.guild_settings(h.fake.guild.id)
        assert chosen.web_links is WebLinkRule.MEMBERS
        refused = await h.slash(h.carol, "settings", web_links="link")
        assert "Manage Messages" in await h.error_of(refused)
        for who, status in {None: 401, stranger: 403, h.carol: 200}.items():
            async with visitor(a, who) as http:
                got, _ = await status_of(http, a.base + f"m/{key}")
                assert got == status, (who, got)
                assert await socket_status(a, http, key) == (101 if status == 200 else status)
    clean_but_strangers(h, stranger)


async def test_nothing_is_reachable_by_counting_or_guessing(harness: Harness) -> None:
    h = harness
    staff = staff_room(h)
    await known(h, staff)
    rows = [await live_match(h, "staff")]
    await finish(h, "staff")
    rows.append(await live_match(h, "games"))
    async with activity(h) as a, visitor(a, h.alice) as http:
        for number in range(1, 8):
            for page in ("m", "r", "api/m", "api/r", "s", "g"):
                got, _ = await status_of(http, f"{a.base}{page}/{number}")
                assert got == 404, (page, number, got)
        for guessed in (str(h.fake.guild.id), "A" * 22, "0" * 32, rows[0].web_key[:-1] + "x"):  # type: ignore[index]
            for page in ("m", "r", "api/r", "g", "s"):
                got, _ = await status_of(http, f"{a.base}{page}/{guessed}")
                assert got == 404, (page, guessed, got)
    h.fake.assert_clean()


async def test_a_socket_from_another_site_is_refused(harness: Harness) -> None:
    h = harness
    row = await live_match(h, "games")
    assert row.web_key is not None
    async with activity(h) as a, visitor(a, None) as http:
        assert await socket_status(a, http, row.web_key, Origin="https://evil.example") == 403
        assert await socket_status(a, http, row.web_key) == 101
    h.fake.assert_clean()


async def test_the_leaderboard_page_is_for_members_unless_made_public(harness: Harness) -> None:
    h = harness
    stranger = h.fake.create_user("zed")
    key = await h.services.club.leaderboard_key(h.fake.guild.id)
    async with activity(h) as a:
        url = f"{a.base}g/{key}"
        for who, status in {None: 401, stranger: 403, h.carol: 200}.items():
            async with visitor(a, who) as http:
                got, text = await status_of(http, url)
                assert got == status, (who, got)
                if status == 200:
                    assert h.fake.guild.name in text  # the page names its server
        await (await h.slash(h.mod, "settings", web_leaderboard="public")).answer()
        async with visitor(a, None) as http:
            assert (await status_of(http, url))[0] == 200
    clean_but_strangers(h, stranger)


async def test_a_replay_is_shared_only_on_purpose_and_withdrawn(
    web_harness: WebHarness,
) -> None:
    h = web_harness
    staff = staff_room(h)
    await known(h, staff)
    row = await live_match(h, "staff")
    early = await h.slash(h.alice, "share", channel="staff")
    assert "Only a match that is over can be shared" in await h.error_of(early)
    await finish(h, "staff")
    hidden = await h.slash(h.carol, "share", match=row.id)
    assert f"no match #{row.id}" in await h.error_of(hidden)  # carol cannot see the channel
    shared = await (await h.slash(h.alice, "share", channel="staff")).answer()
    assert shared.ephemeral
    found = re.search(rf"{re.escape(WEB)}/s/([A-Za-z0-9_-]+)", shared.content or "")
    assert found is not None and found.group(1) != row.web_key
    token = found.group(1)
    async with activity(h) as a, visitor(a, None) as http:
        for path in (f"s/{token}", f"api/s/{token}", f"api/s/{token}/analysis"):
            got, text = await status_of(http, a.base + path)
            assert got == 200, (path, got)
            assert str(h.alice.id) not in text
        assert (await status_of(http, f"{a.base}r/{row.web_key}"))[0] == 401  # still private
        stop = await (await h.slash(h.bob, "share", channel="staff", stop="on")).answer()
        assert "withdrawn" in (stop.content or "")
        assert (await status_of(http, f"{a.base}s/{token}"))[0] == 404
    h.fake.assert_clean()


async def test_sign_in_refuses_a_forged_cookie_a_foreign_state_and_open_redirects(
    harness: Harness,
) -> None:
    h = harness
    staff = staff_room(h)
    await known(h, staff)
    row = await live_match(h, "staff")
    jar = aiohttp.CookieJar(unsafe=True)
    async with activity(h) as a, aiohttp.ClientSession(cookie_jar=jar) as http:
        http.cookie_jar.update_cookies({"gammon_session": "e30.AAAA"})
        assert (await status_of(http, f"{a.base}m/{row.web_key}"))[0] == 401
        # A code for a state this browser never started: refused, nobody signed in.
        code = a.oauth.code_for(h.alice, redirect_uri=a.server.config.redirect_uri)
        got, _ = await status_of(http, f"{a.base}auth/callback?code={code}&state=forged")
        assert got == 400
        assert (await status_of(http, f"{a.base}m/{row.web_key}"))[0] == 401
        # After signing in, the browser goes back to this site only.
        async with http.get(
            a.base + "auth/login?next=//evil.example/x", allow_redirects=False
        ) as response:
            state = parse_qs(urlsplit(response.headers["Location"]).query)["state"][0]
        code = a.oauth.code_for(h.alice, redirect_uri=a.server.config.redirect_uri)
        async with http.get(
            f"{a.base}auth/callback?code={code}&state={state}", allow_redirects=False
        ) as response:
            assert response.headers["Location"] == "/"
        assert (await status_of(http, f"{a.base}m/{row.web_key}"))[0] == 200
        async with http.post(a.base + "auth/logout", allow_redirects=False) as response:
            assert response.status == 303
        assert (await status_of(http, f"{a.base}m/{row.web_key}"))[0] == 401
    h.fake.assert_clean()


@pytest.mark.skipif(not computer_available(), reason="needs bgsage")
async def test_a_staff_channels_puzzle_never_reaches_who_cannot_see_it(harness: Harness) -> None:
    h = harness
    staff = staff_room(h)
    await known(h, staff)
    h.roller.extend([3, 1])
    challenge = await (
        await h.slash(h.alice, "challenge", channel="staff", opponent=h.bob.id)
    ).original_message()
    board = await h.board_after(await h.press(h.bob, challenge, "accept"))
    board = await h.board_after(await h.slash(h.alice, "move", channel="staff", play="24/23 24/21"))
    board = await h.board_after(await h.press(h.bob, board, "double"))
    await h.board_after(await h.press(h.alice, board, "drop"))
    await h.services.puzzles.idle()
    assert await h.services.puzzles.puzzles.pool(h.fake.guild.id), "the blunder made puzzles"
    carol = await h.fake.slash(h.carol, "games", "puzzle", "get")
    assert "no puzzles yet" in await h.error_of(carol)
    alice = await (await h.fake.slash(h.alice, "games", "puzzle", "get")).response()
    assert alice.ephemeral and alice.message is not None  # she played it: hers to solve
    admin = h.fake.create_member("admin", permissions=PERM_MANAGE_GUILD)
    await (
        await h.fake.slash(
            admin, "games", "puzzle", "daily", options={"channel": "general", "names": "on"}
        )
    ).answer()
    assert h.bot is not None
    cog = h.bot.get_cog("Puzzles")
    h.clock.advance(2 * 24 * 3600)
    assert await cog.daily_tick() == (0, 0)  # type: ignore[union-attr]
    posted = [m for m in h.fake.messages_in("general") if m.attachments]
    assert posted == []
    h.fake.assert_clean()
