"""A chouette's page on the web board: every seat and every member's cube for spectators, by
the session's unguessable key only, and only for who can see its channel in Discord."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import aiohttp
from PIL import Image

from bot.core.dice import ScriptedRoller
from bot.core.records import GuildSettings, WebLinkRule
from bot.core.session import Player
from bot.features.chouette.rules import ChouetteAction, ChouetteOptions
from bot.services import Services
from bot.storage.chouette import ChouetteRow
from tests.channel_readers import Readers
from tests.web.support import ALICE, BOB, CHANNEL, GUILD, serving

CAROL = Player(103, "<b>carol</b>")


async def get(url: str) -> tuple[int, bytes]:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        return response.status, await response.read()


async def three_at_the_table(services: Services, roller: ScriptedRoller) -> ChouetteRow:
    """alice in the box, bob captain, carol in line; carol doubles in the team's window."""
    chouette = services.chouette
    await chouette.start(GUILD, CHANNEL, ALICE, ChouetteOptions())
    for player in (BOB, CAROL):
        await chouette.act(CHANNEL, player, ChouetteAction.JOIN)
    roller.extend([6, 5, 4, 1, 3])  # the order; bob wins the opening 3-1 and plays it
    await chouette.act(CHANNEL, ALICE, ChouetteAction.BEGIN)
    await chouette.act(CHANNEL, BOB, ChouetteAction.MOVE, play="8/5 6/5")
    roller.extend([5, 2])
    await chouette.act(CHANNEL, ALICE, ChouetteAction.ROLL)
    await chouette.act(CHANNEL, ALICE, ChouetteAction.MOVE, play="13/8 13/11")
    report = await chouette.act(CHANNEL, CAROL, ChouetteAction.DOUBLE)
    return report.row


async def test_the_page_shows_every_seat_and_cube_by_its_key_only(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        row = await three_at_the_table(services, roller)
        assert len(row.web_key) >= 22  # 128 random bits, never the session's number
        status, body = await get(f"{base}c/{row.web_key}")
        page = body.decode()
        assert status == 200 and "Chouette #1" in page
        for role, name in (("Box", "alice"), ("Captain", "bob"), ("Line 2", "carol")):
            assert f"<td>{role}</td>" in page and name in page
        assert "doubles to 2" in page  # carol's cube, offered: every cube is shown
        assert "<b>carol" not in page and "&lt;b&gt;carol" in page  # names escaped
        assert 'http-equiv="refresh"' in page  # it follows the table
        status, png = await get(f"{base}c/{row.web_key}/board.png")
        assert status == 200 and Image.open(io.BytesIO(png)).format == "PNG"
        # A number is no address; nor is another key.
        assert (await get(f"{base}c/1"))[0] == 404
        assert (await get(f"{base}c/{'A' * 22}"))[0] == 404
        assert (await get(f"{base}c/{'A' * 22}/board.png"))[0] == 404


async def test_the_page_is_only_for_who_can_see_the_channel(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (server, services, base):
        row = await three_at_the_table(services, roller)
        readers = server.readers
        assert isinstance(readers, Readers)
        readers.hidden.add(CHANNEL)
        status, body = await get(f"{base}c/{row.web_key}")
        assert status == 401 and "carol" not in body.decode()
        assert (await get(f"{base}c/{row.web_key}/board.png"))[0] == 401
        # A channel everyone reads, but the server wants members signed in.
        readers.hidden.clear()
        await services.session.store.save_guild_settings(
            GUILD, GuildSettings(web_links=WebLinkRule.MEMBERS)
        )
        assert (await get(f"{base}c/{row.web_key}"))[0] == 401


async def test_a_picture_is_drawn_once_per_version_however_many_watch(tmp_path: Path) -> None:
    roller = ScriptedRoller()
    async with serving(tmp_path, roller=roller) as (_server, services, base):
        row = await three_at_the_table(services, roller)
        drawn: list[object] = []
        call = services.workers.call

        async def counted(job: Any) -> Any:
            drawn.append(job)
            return await call(job)

        services.workers.call = counted  # type: ignore[method-assign,assignment]
        address = f"{base}c/{row.web_key}/board.png"
        pictures = {(await get(address))[1] for _ in range(5)}
        assert len(pictures) == 1 and len(drawn) == 1
        # The next action is a new version: drawn anew, once.
        await services.chouette.act(CHANNEL, BOB, ChouetteAction.NO_DOUBLE)
        after = {(await get(address))[1] for _ in range(3)}
        assert len(drawn) == 2 and len(after) == 1
