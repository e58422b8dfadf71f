"""Issue 41: no input answers 500. Arbitrary paths, queries, headers and bodies, thrown at
every route of the web server (the pages, the APIs, the sign-in, the Activity's), get a
4xx or a page, never a server error; and the requests the issue found answering 500 (a
5,000-digit id, a 20-digit id, deeply nested JSON, ``1e999``) are among them by name."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.core.dice import ScriptedRoller
from bot.core.reports import Player
from bot.engine import ResultKind
from bot.web.activity import Seat
from bot.web.discord_api import DiscordOAuth
from tests.web.support import ALICE, BOB, CHANNEL, GUILD, serving, start_match

PREFIXES = [
    "",
    "m",
    "r",
    "s",
    "g",
    "api/m",
    "api/r",
    "api/s",
    "auth/login",
    "auth/callback",
    "auth/logout",
    "api/token",
    "api/activity/session",
    "api/activity/taps",
    "api/activity/act",
    "api/activity/ws",
    "static",
]
SUFFIXES = ["", "/ws", "/analysis", "/moves", "/chart/1.png", "/chart/99999.png", "/chart/x.png"]

Json = Any
json_values: st.SearchStrategy[Json] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False)
    | st.text(max_size=50),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=20,
)
FIELDS = st.sampled_from(["verb", "match", "version", "steps", "source", "code", "access_token"])
bodies = st.one_of(
    st.none(),
    st.binary(max_size=300),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.dictionaries(FIELDS, json_values, max_size=6).map(lambda v: json.dumps(v).encode()),
)


class World:
    """The running server, its event loop, and the keys a visitor could hold."""

    def __init__(self, loop: asyncio.AbstractEventLoop, base: str, keys: list[str]) -> None:
        self.loop = loop
        self.base = base
        self.keys = keys
        self.http: aiohttp.ClientSession | None = None

    async def send(
        self, method: str, path: str, query: dict[str, str], headers: dict[str, str], body: Any
    ) -> int:
        if self.http is None:
            self.http = aiohttp.ClientSession()
        url = self.base + path
        if query:
            url += "?" + "&".join(
                f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in query.items()
            )
        async with self.http.request(
            method,
            aiohttp.client.URL(url, encoded=True),
            headers=headers,
            data=body,
            allow_redirects=False,
        ) as response:
            await response.read()
            return response.status


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    loop = asyncio.new_event_loop()
    path: Path = tmp_path_factory.mktemp("fuzz")
    oauth = DiscordOAuth(
        client_id=42, client_secret="s", bot_token="t", api_base="http://127.0.0.1:9/api"
    )
    roller = ScriptedRoller()
    context = serving(path, oauth=oauth, roller=roller)

    async def start() -> World:
        server, services, base = await context.__aenter__()
        live = await start_match(services, roller, (3, 1))
        session = services.session
        await session.resign(CHANNEL, BOB, ResultKind.SINGLE)
        await session.answer_resignation(CHANNEL, ALICE, True)
        finished = await session.latest(CHANNEL)
        assert finished is not None and live.web_key is not None
        share = await services.session.store.share_replay(finished.id, ALICE.id, 1.0)
        guild = await services.session.store.guild_web_key(GUILD)
        seat = server.activity_routes.open_seat(Seat(Player(ALICE.id, "alice"), GUILD, CHANNEL))
        world = World(loop, base, [live.web_key, share, guild, seat])
        return world

    world = loop.run_until_complete(start())
    try:
        yield world
    finally:

        async def stop() -> None:
            if world.http is not None:
                await world.http.close()
            await context.__aexit__(None, None, None)

        loop.run_until_complete(stop())
        loop.close()


segments = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="0123456789", min_size=1, max_size=30),
    st.just("9" * 5000),
    st.just("1" * 20),
    st.sampled_from(["A" * 22, "..", "%00", "../../etc/passwd", "1e999", "-1", "0"]),
)


@st.composite
def requests(
    draw: st.DrawFn, keys: list[str]
) -> tuple[str, str, dict[str, str], dict[str, str], Any]:
    method = draw(st.sampled_from(["GET", "POST", "PUT", "DELETE", "HEAD", "PATCH"]))
    prefix = draw(st.sampled_from(PREFIXES))
    segment = draw(st.one_of(segments, st.sampled_from(keys)))
    suffix = draw(st.sampled_from(SUFFIXES))
    path = f"{prefix}/{quote(segment, safe='')}{suffix}" if prefix else quote(segment, safe="")
    query = draw(
        st.dictionaries(
            st.sampled_from(
                ["lang", "next", "code", "state", "session", "frame_id", "instance_id", "at", "x"]
            ),
            st.one_of(st.text(max_size=40), st.sampled_from(keys)),
            max_size=3,
        )
    )
    headers: dict[str, str] = {}
    if draw(st.booleans()):
        token = draw(st.one_of(st.sampled_from(keys), segments))
        headers["Authorization"] = "Bearer " + quote(token, safe="")[:8000]
    if draw(st.booleans()):
        headers["Cookie"] = "gammon_session=" + quote(draw(st.text(max_size=60)), safe="")
    if draw(st.booleans()):
        headers["Accept-Language"] = quote(draw(st.text(max_size=60)), safe=",;=")
    if draw(st.booleans()):
        headers["X-Forwarded-For"] = quote(draw(st.text(max_size=40)), safe=",.:")
    if draw(st.booleans()):
        headers["Content-Type"] = "application/json"
    body = draw(bodies)
    return method, path, query, headers, body


def _run(world: World, request: tuple[str, str, dict[str, str], dict[str, str], Any]) -> int:
    method, path, query, headers, body = request
    return world.loop.run_until_complete(world.send(method, path, query, headers, body))


def test_the_issues_requests_answer_4xx_not_500(world: World) -> None:
    seat = {"Authorization": f"Bearer {world.keys[3]}", "Content-Type": "application/json"}
    nested = b"[" * 100_000 + b"]" * 100_000
    cases: list[tuple[str, str, dict[str, str], dict[str, str], bytes | None]] = [
        ("GET", "m/" + "9" * 5000, {}, {}, None),
        ("GET", "api/r/" + "1" * 20, {}, {}, None),
        ("GET", "g/" + "1" * 20, {}, {}, None),
        ("GET", "static/" + "9" * 5000, {}, {}, None),
        ("GET", f"r/{world.keys[0]}/chart/" + "9" * 4, {}, {}, None),
        ("POST", "api/activity/act", {}, seat, b'{"verb":"roll","match":"x","version":1e999}'),
        ("POST", "api/activity/act", {}, seat, nested[:60_000]),
        ("POST", "api/activity/taps", {}, seat, b'{"steps":"","source":1e999}'),
        ("POST", "api/activity/taps", {}, seat, b'{"steps":"","source":' + b"9" * 5000 + b"}"),
        ("POST", "api/token", {}, {"Content-Type": "application/json"}, nested[:60_000]),
        ("POST", "api/activity/act", {}, seat, b"x" * 70_000),
    ]
    for case in cases:
        status = _run(world, case)
        assert 400 <= status < 500, (case[:2], status)


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
@example(data=None)
def test_no_request_answers_a_server_error(world: World, data: Any) -> None:
    if data is None:
        request: Any = ("GET", "m/" + "1" * 5000, {}, {}, None)
    else:
        request = data.draw(requests(world.keys))
    status = _run(world, request)
    assert status < 500 or status in (502, 503), (request[:3], status)
