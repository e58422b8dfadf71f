"""Proves the fake Discord's user installs against the unmodified discord.py: where a command
is offered (guild install, user install, both), the interaction's ``context``,
``authorizing_integration_owners`` and ``app_permissions`` in a guild with the bot, the bot's
DM, a DM between people, a group DM and a guild without the bot; that the bot's token and
gateway reach none of the last three; the answers Discord forces ephemeral without "Use
External Apps"; the cap of 5 followups; user commands; and the command contract.

Each expectation is Discord's documentation (see ``fake_discord.installs``), asserted on exact
values. A demo bot defined here answers; raw HTTP checks the bot-token routes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from tests.e2e.fake_discord import (
    CHANNEL_DM,
    CHANNEL_GROUP_DM,
    PERM_ATTACH_FILES,
    PERM_EMBED_LINKS,
    PERM_MENTION_EVERYONE,
    PERM_SEND_MESSAGES,
    PERM_USE_EXTERNAL_APPS,
    PERM_USE_EXTERNAL_EMOJIS,
    PERM_VIEW_CHANNEL,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    InteractionResult,
)

GDM_PERMISSIONS = PERM_ATTACH_FILES | PERM_EMBED_LINKS | PERM_MENTION_EVERYONE
BOT_DM_PERMISSIONS = GDM_PERMISSIONS | PERM_USE_EXTERNAL_EMOJIS

# ---------------------------------------------------------------------------------------------
# The demo bot: one command per installation rule
# ---------------------------------------------------------------------------------------------


class PressMe(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ui:press"):
    """A stateless button anyone who sees the message may press."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label="Press", custom_id="ui:press"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> PressMe:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"pressed by {interaction.user.name}")


def press_view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PressMe())
    return view


class NameModal(discord.ui.Modal, title="Your name"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="form:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {self.name.value}")


def where_of(interaction: discord.Interaction) -> dict[str, Any]:
    """What discord.py made of the interaction (it must parse every context)."""
    ctx = interaction.context
    return {
        "context": (ctx.guild, ctx.dm_channel, ctx.private_channel),
        "channel": type(interaction.channel).__name__,
        "guild_id": interaction.guild_id,
        "user_integration": interaction.is_user_integration(),
        "guild_integration": interaction.is_guild_integration(),
        "use_external_apps": interaction.permissions.use_external_apps,
    }


@app_commands.command(name="where", description="Says where, with a button")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def where(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, InstallBot)
    bot.seen.append(where_of(interaction))
    await interaction.response.send_message("here", view=press_view())


@app_commands.command(name="guildonly", description="Guild install only")
@app_commands.guild_install()
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
async def guildonly(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("guild install")


@app_commands.command(name="mine", description="User install only")
@app_commands.user_install()
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def mine(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("user install")


@app_commands.command(name="plain", description="Says nothing of installs or contexts")
async def plain(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("plain")


@app_commands.command(name="shout", description="A public answer and a public followup")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def shout(interaction: discord.Interaction, later: bool = False) -> None:
    if later:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("heard later")
    else:
        await interaction.response.send_message("heard")
    await interaction.followup.send("heard again")


@app_commands.command(name="flood", description="Defers, then tries six followups")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def flood(interaction: discord.Interaction) -> None:
    bot = interaction.client
    assert isinstance(bot, InstallBot)
    await interaction.response.defer(thinking=True)
    for i in range(6):
        try:
            await interaction.followup.send(f"followup {i}", wait=True)
        except discord.HTTPException as refused:
            bot.refusals.append((i, refused.status, refused.code))


@app_commands.command(name="form", description="Opens a modal")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def form(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@app_commands.context_menu(name="Profile")
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def profile(interaction: discord.Interaction, user: discord.User | discord.Member) -> None:
    bot = interaction.client
    assert isinstance(bot, InstallBot)
    bot.seen.append({"profile": (type(user).__name__, user.id)})
    await interaction.response.send_message(f"profile of {user.name}")


@app_commands.command(name="local", description="A command of one guild")
async def local(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("local")


class InstallBot(commands.Bot):
    """Records every gateway dispatch it receives (``events``), what it made of each
    ``/where`` (``seen``) and the followups Discord refused it (``refusals``)."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
            enable_debug_events=True,
        )
        self.guild_id = guild_id
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.seen: list[dict[str, Any]] = []
        self.refusals: list[tuple[int, int, int]] = []

    async def on_socket_raw_receive(self, raw: str) -> None:
        packet = json.loads(raw)
        if packet.get("op") == 0:
            self.events.append((packet["t"], packet["d"]))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(PressMe)
        global_commands: list[app_commands.Command[Any, ..., Any] | app_commands.ContextMenu] = [
            where,
            guildonly,
            mine,
            plain,
            shout,
            flood,
            form,
            profile,
        ]
        for command in global_commands:
            self.tree.add_command(command)
        guild = discord.Object(self.guild_id)
        self.tree.add_command(local, guild=guild)
        await self.tree.sync(guild=guild)
        await self.tree.sync()


# ---------------------------------------------------------------------------------------------
# Fixtures: a guild with the bot, one without, two DMs between people
# ---------------------------------------------------------------------------------------------


@dataclass
class Place:
    """The world every test here starts from."""

    fake: FakeDiscord
    bot: InstallBot
    alice: FakeMember
    bob: FakeMember
    carol: FakeMember
    dave: FakeMember  # in the guild with the bot only
    elsewhere: FakeGuild  # without the bot
    pdm: FakeChannel  # alice and bob
    gdm: FakeChannel  # alice (owner), bob and carol

    @property
    def games(self) -> FakeChannel:
        return self.fake.channel("games")

    @property
    def lounge(self) -> FakeChannel:
        return self.elsewhere.channel("lounge")

    @property
    def bot_dm(self) -> FakeChannel:
        return self.fake.dm_channel(self.alice)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        with fake.patch_discord():
            yield fake


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord) -> AsyncIterator[InstallBot]:
    after = fake.ready_count
    bot = InstallBot(fake.guild.id)
    task = asyncio.create_task(bot.start(fake.token))
    try:
        await fake.wait_until_ready(after=after)
        await fake.wait_for_commands(None, names=["where", "Profile"])
        await fake.wait_for_commands(fake.guild.id, names=["local"])
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


@pytest.fixture
async def place(fake: FakeDiscord) -> AsyncIterator[Place]:
    alice = fake.create_member("alice")
    bob = fake.create_member("bob")
    carol = fake.create_member("carol")
    dave = fake.create_member("dave")
    elsewhere = fake.add_guild("Elsewhere", channels=("lounge",), with_bot=False)
    for who in (alice, bob, carol):
        fake.add_member(elsewhere, who.user)
    pdm = fake.private_dm(alice, bob)
    gdm = fake.group_dm(alice, bob, carol, name="trio")
    async with running(fake) as bot:
        yield Place(fake, bot, alice, bob, carol, dave, elsewhere, pdm, gdm)


async def bot_request(
    fake: FakeDiscord, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    """A request with the bot's token, as the bot would make it: (status, JSON body)."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, fake.http_base + path, json=body, headers=headers) as response,
    ):
        data = await response.json() if response.status != 204 else {}
        return response.status, data


# ---------------------------------------------------------------------------------------------
# Contexts and owners
# ---------------------------------------------------------------------------------------------


async def test_a_guild_install_reaches_the_guild_and_the_bots_dm_only(place: Place) -> None:
    p, fake = place, place.fake
    in_guild = await fake.slash(p.alice, p.games, "where")
    assert (await in_guild.answer()).content == "here"
    assert in_guild.context == 0
    assert in_guild.owners == {"0": str(fake.guild.id)}
    assert in_guild.payload["app_permissions"] == str(fake.permissions_for(fake.bot_user, p.games))
    in_dm = await fake.slash(p.alice, p.bot_dm, "where")
    assert (await in_dm.answer()).content == "here"
    assert in_dm.context == 1
    assert in_dm.owners == {"0": "0"}
    # The docs' own sample: "442368", ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE |
    # USE_EXTERNAL_EMOJIS.
    assert in_dm.payload["app_permissions"] == str(BOT_DM_PERMISSIONS) == "442368"
    for channel in (p.pdm, p.gdm, p.lounge):
        with pytest.raises(LookupError, match="has not installed it"):
            await fake.slash(p.alice, channel, "where")
    assert p.bot.seen == [
        {
            "context": (True, False, False),
            "channel": "TextChannel",
            "guild_id": fake.guild.id,
            "user_integration": False,
            "guild_integration": True,
            "use_external_apps": True,
        },
        {
            "context": (False, True, False),
            "channel": "DMChannel",
            "guild_id": None,
            "user_integration": False,
            "guild_integration": False,
            "use_external_apps": False,
        },
    ]
    fake.assert_clean()


async def test_a_user_install_follows_the_user_everywhere(place: Place) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    assert fake.user_installs == {p.alice.id}
    alice = str(p.alice.id)
    expected = [
        (p.games, 0, {"0": str(fake.guild.id), "1": alice}),
        (p.bot_dm, 1, {"0": "0", "1": alice}),
        (p.pdm, 2, {"1": alice}),
        (p.gdm, 2, {"1": alice}),
        (p.lounge, 0, {"1": alice}),
    ]
    results: list[InteractionResult] = []
    for channel, context, owners in expected:
        r = await fake.slash(p.alice, channel, "where")
        assert (await r.answer()).content == "here"
        assert (r.context, r.owners) == (context, owners), channel
        results.append(r)
    guild, bot_dm, pdm, gdm, lounge = (r.payload for r in results)

    # A DM between people: the invoking user, no guild fields, both recipients.
    assert pdm["user"]["id"] == alice
    assert not {"member", "guild_id", "guild", "guild_locale"} & pdm.keys()
    assert pdm["channel"]["type"] == CHANNEL_DM
    assert {u["id"] for u in pdm["channel"]["recipients"]} == {alice, str(p.bob.id)}
    # A group DM: its name and owner too.
    assert gdm["channel"]["type"] == CHANNEL_GROUP_DM
    assert (gdm["channel"]["name"], gdm["channel"]["owner_id"]) == ("trio", alice)
    assert len(gdm["channel"]["recipients"]) == 3
    # A guild without the bot: guild fields and the member with permissions.
    assert lounge["guild_id"] == str(p.elsewhere.id)
    assert lounge["guild"]["id"] == str(p.elsewhere.id) and lounge["guild_locale"] == "en-US"
    assert lounge["member"]["user"]["id"] == alice and "permissions" in lounge["member"]
    assert "user" not in lounge
    # app_permissions: documented for (G)DMs, inferred (the same) for the guild without it.
    for payload in (pdm, gdm, lounge):
        assert payload["app_permissions"] == str(GDM_PERMISSIONS) == "180224"
    assert guild["app_permissions"] == str(fake.permissions_for(fake.bot_user, p.games))
    assert bot_dm["app_permissions"] == "442368"

    # discord.py parsed each of them.
    assert [(s["context"], s["channel"], s["user_integration"]) for s in p.bot.seen] == [
        ((True, False, False), "TextChannel", True),
        ((False, True, False), "DMChannel", True),
        ((False, False, True), "DMChannel", True),
        ((False, False, True), "GroupChannel", True),
        ((True, False, False), "TextChannel", True),
    ]
    assert [s["guild_integration"] for s in p.bot.seen] == [True, False, False, False, False]
    fake.assert_clean()


@pytest.mark.parametrize(
    ("channel_name", "installed", "offered"),
    [
        ("games", False, {"0": "guild"}),
        ("games", True, {"0": "guild"}),  # the command does not support USER_INSTALL
        ("bot_dm", True, {"0": "0"}),
        ("pdm", True, None),  # its contexts leave out PRIVATE_CHANNEL
        ("lounge", True, None),  # a guild install does not reach a guild without the bot
    ],
)
async def test_a_guild_install_only_command(
    place: Place, channel_name: str, installed: bool, offered: dict[str, str] | None
) -> None:
    p, fake = place, place.fake
    (stored,) = [c for c in fake.commands() if c["name"] == "guildonly"]
    assert (stored["integration_types"], stored["contexts"]) == ([0], [0, 1])
    if installed:
        fake.install_for_user(p.alice)
    channel = getattr(p, channel_name)
    if offered is None:
        with pytest.raises(LookupError):
            await fake.slash(p.alice, channel, "guildonly")
        return
    r = await fake.slash(p.alice, channel, "guildonly")
    assert (await r.answer()).content == "guild install"
    owners = {k: str(fake.guild.id) if v == "guild" else v for k, v in offered.items()}
    assert r.owners == owners
    fake.assert_clean()


async def test_a_user_install_only_command(place: Place) -> None:
    p, fake = place, place.fake
    (stored,) = [c for c in fake.commands() if c["name"] == "mine"]
    assert stored["integration_types"] == [1]
    for channel in (p.games, p.bot_dm, p.pdm, p.lounge):
        with pytest.raises(LookupError, match="integration_types are \\[1\\]"):
            await fake.slash(p.alice, channel, "mine")
    fake.install_for_user(p.alice)
    in_guild = await fake.slash(p.alice, p.games, "mine")
    assert (await in_guild.answer()).content == "user install"
    # The guild has the bot, but this command is not guild-installed: "1" alone.
    assert in_guild.owners == {"1": str(p.alice.id)}
    in_dm = await fake.slash(p.alice, p.bot_dm, "mine")
    assert in_dm.owners == {"1": str(p.alice.id)}
    # bob did not install it.
    with pytest.raises(LookupError, match="bob has not installed it"):
        await fake.slash(p.bob, p.pdm, "mine")
    fake.assert_clean()


async def test_guild_commands_only_in_their_guild_with_the_bot(place: Place) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    r = await fake.slash(p.alice, p.games, "local")
    assert (await r.answer()).content == "local"
    assert r.owners == {"0": str(fake.guild.id)}  # no user install key for a guild command
    assert r.payload["data"]["guild_id"] == str(fake.guild.id)
    for channel in (p.lounge, p.bot_dm, p.pdm):
        with pytest.raises(LookupError, match="is a command of guild"):
            await fake.slash(p.alice, channel, "local", guild_id=fake.guild.id)
    # A guild command in a guild without the bot is never offered.
    fake.add_command({"name": "lost", "description": "d"}, guild_id=p.elsewhere.id)
    with pytest.raises(LookupError, match="has not installed the app"):
        await fake.slash(p.alice, p.lounge, "lost")
    fake.assert_clean()


async def test_one_must_be_in_the_dm_or_the_guild(place: Place) -> None:
    p, fake = place, place.fake
    for who in (p.alice, p.bob, p.carol, p.dave):
        fake.install_for_user(who)
    with pytest.raises(LookupError, match="carol is not a recipient"):
        await fake.slash(p.carol, p.pdm, "where")
    with pytest.raises(LookupError, match="dave is not a recipient"):
        await fake.slash(p.dave, p.gdm, "where")
    with pytest.raises(LookupError, match="dave is not a member"):
        await fake.slash(p.dave, p.lounge, "where")


async def test_stored_integration_types_default_to_the_apps(fake: FakeDiscord) -> None:
    status, made = await bot_request(
        fake,
        "POST",
        f"/applications/{fake.application_id}/commands",
        {"name": "a", "description": "d"},
    )
    assert status == 201 and made["integration_types"] == [0, 1] and made["contexts"] is None
    fake.app_integration_types = {0}
    status, made = await bot_request(
        fake,
        "POST",
        f"/applications/{fake.application_id}/commands",
        {"name": "b", "description": "d"},
    )
    assert status == 201 and made["integration_types"] == [0]
    with pytest.raises(ValueError, match="does not support user installs"):
        fake.install_for_user(fake.create_user("zed"))


async def test_plain_commands_from_discord_py_get_both_installs(place: Place) -> None:
    p, fake = place, place.fake
    (stored,) = [c for c in fake.commands() if c["name"] == "plain"]
    assert (stored["integration_types"], stored["contexts"]) == ([0, 1], None)
    fake.install_for_user(p.bob)
    r = await fake.slash(p.bob, p.gdm, "plain")
    assert (await r.answer()).content == "plain" and r.owners == {"1": str(p.bob.id)}
    fake.assert_clean()


# ---------------------------------------------------------------------------------------------
# Components and modals on a user install's messages
# ---------------------------------------------------------------------------------------------


async def test_anyone_who_sees_a_message_presses_it_as_its_interaction_was_authorised(
    place: Place,
) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    alice = str(p.alice.id)
    for channel, context, owners in [
        (p.gdm, 2, {"1": alice}),
        (p.lounge, 0, {"1": alice}),
        (p.games, 0, {"0": str(fake.guild.id), "1": alice}),
    ]:
        message = await (await fake.slash(p.alice, channel, "where")).answer()
        assert message.authorizing_integration_owners == owners
        assert message.interaction_metadata is not None
        assert message.interaction_metadata["authorizing_integration_owners"] == owners
        press = await fake.click(p.bob, message, "ui:press")  # bob never installed it
        assert (await press.answer()).content == "pressed by bob"
        assert (press.context, press.owners) == (context, owners)
        if context == 2:
            assert press.payload["user"]["id"] == str(p.bob.id)
        else:
            assert press.payload["member"]["user"]["id"] == str(p.bob.id)
        answer = await press.answer()
        assert answer.authorizing_integration_owners == owners
    fake.assert_clean()


async def test_who_cannot_see_a_message_cannot_press_it(place: Place) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    in_pdm = await (await fake.slash(p.alice, p.pdm, "where")).answer()
    with pytest.raises(PermissionError, match="carol cannot see channel"):
        await fake.click(p.carol, in_pdm, "ui:press")
    in_lounge = await (await fake.slash(p.alice, p.lounge, "where")).answer()
    with pytest.raises(PermissionError, match="dave cannot see channel"):
        await fake.click(p.dave, in_lounge, "ui:press")  # not a member there
    hidden = fake.add_channel(
        p.elsewhere,
        "hidden",
        permission_overwrites=[
            {"id": str(p.carol.id), "type": 1, "allow": "0", "deny": str(PERM_VIEW_CHANNEL)}
        ],
    )
    in_hidden = await (await fake.slash(p.alice, hidden, "where")).answer()
    with pytest.raises(PermissionError, match="carol cannot see channel"):
        await fake.click(p.carol, in_hidden, "ui:press")
    with pytest.raises(PermissionError):
        fake.visible_messages(p.carol, hidden)
    assert fake.visible_messages(p.bob, hidden) == [in_hidden]
    fake.assert_clean()


async def test_a_modal_submit_is_authorised_as_the_command_that_opened_it(place: Place) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    opened = await fake.slash(p.alice, p.gdm, "form")
    await opened.response()
    submitted = await fake.submit_modal(p.alice, opened, {"form:name": "Alice"})
    assert (await submitted.answer()).content == "hello Alice"
    assert (submitted.context, submitted.owners) == (2, {"1": str(p.alice.id)})
    fake.assert_clean()


# ---------------------------------------------------------------------------------------------
# What the bot's token and gateway do not reach
# ---------------------------------------------------------------------------------------------


async def test_the_bots_token_reaches_no_dm_between_people_nor_a_guild_without_it(
    place: Place,
) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    in_pdm = await (await fake.slash(p.alice, p.pdm, "where")).answer()
    in_lounge = await (await fake.slash(p.alice, p.lounge, "where")).answer()
    app, noguild = fake.application_id, p.elsewhere.id
    refused: list[tuple[str, str, Any]] = [
        ("GET", f"/channels/{p.pdm.id}", None),
        ("POST", f"/channels/{p.pdm.id}/messages", {"content": "hi"}),
        ("PATCH", f"/channels/{p.pdm.id}/messages/{in_pdm.id}", {"content": "edited"}),
        ("DELETE", f"/channels/{p.pdm.id}/messages/{in_pdm.id}", None),
        ("GET", f"/channels/{p.pdm.id}/messages", None),
        ("POST", f"/channels/{p.gdm.id}/typing", None),
        ("DELETE", f"/channels/{p.gdm.id}", None),
        ("POST", f"/channels/{p.gdm.id}/threads", {"name": "t", "type": 11}),
        ("GET", f"/channels/{p.lounge.id}", None),
        ("POST", f"/channels/{p.lounge.id}/messages", {"content": "hi"}),
        ("DELETE", f"/channels/{p.lounge.id}/messages/{in_lounge.id}", None),
        ("POST", f"/channels/{p.lounge.id}/messages/{in_lounge.id}/threads", {"name": "t"}),
        ("GET", f"/guilds/{noguild}", None),
        ("GET", f"/guilds/{noguild}/channels", None),
        ("GET", f"/guilds/{noguild}/members/{p.alice.id}", None),
        ("PUT", f"/applications/{app}/guilds/{noguild}/commands", []),
    ]
    for method, path, body in refused:
        status, answer = await bot_request(fake, method, path, body)
        assert (status, answer) == (403, {"message": "Missing Access", "code": 50001}), path
    assert not in_pdm.deleted and in_pdm.content == "here"
    assert fake.messages_in(p.pdm) == [in_pdm]
    # The bot's own DM is as before.
    status, dm = await bot_request(fake, "GET", f"/channels/{p.bot_dm.id}")
    assert status == 200 and dm["type"] == CHANNEL_DM


async def test_the_gateway_says_nothing_of_them(place: Place) -> None:
    p, fake, bot = place, place.fake, place.bot
    fake.install_for_user(p.alice)
    assert bot.get_guild(p.elsewhere.id) is None
    for channel in (p.pdm, p.gdm, p.lounge):
        r = await fake.slash(p.alice, channel, "where")
        message = await r.answer()
        press = await fake.click(p.bob, message, "ui:press")
        await press.answer()
    await fake.send_user_message(p.bob, p.lounge, "a human in the lounge")
    late = fake.add_guild("Late", with_bot=False)
    fake.add_channel(p.elsewhere, "new")
    fake.add_member(p.elsewhere, p.dave.user)
    # A sentinel after all that: once the bot has it, it had everything sent before.
    sentinel = await fake.send_user_message(p.alice, p.games, "sentinel")
    await fake.wait_for(
        lambda: any(d.get("id") == str(sentinel.id) for _, d in bot.events), 5, "the sentinel"
    )
    quiet = {str(c.id) for c in (p.pdm, p.gdm, p.lounge)}
    quiet_guilds = {str(p.elsewhere.id), str(late.id)}
    heard = [
        (event, data.get("channel_id"), data.get("guild_id") or data.get("id"))
        for event, data in bot.events
        if event != "INTERACTION_CREATE"
        and (
            data.get("channel_id") in quiet
            or (data.get("guild_id") or data.get("id")) in quiet_guilds
        )
    ]
    assert heard == []
    interactions = [d["channel_id"] for e, d in bot.events if e == "INTERACTION_CREATE"]
    assert interactions == [str(c.id) for c in (p.pdm, p.pdm, p.gdm, p.gdm, p.lounge, p.lounge)]
    (ready,) = [d for e, d in bot.events if e == "READY"]
    assert [g["id"] for g in ready["guilds"]] == [str(fake.guild.id)]
    assert bot.get_guild(p.elsewhere.id) is None and bot.get_guild(late.id) is None


# ---------------------------------------------------------------------------------------------
# Use External Apps, and the cap of 5 followups
# ---------------------------------------------------------------------------------------------


def strict_channel(fake: FakeDiscord, guild: FakeGuild) -> FakeChannel:
    """A channel where @everyone may not use external apps."""
    return fake.add_channel(
        guild,
        "strict",
        permission_overwrites=[
            {"id": str(guild.id), "type": 0, "allow": "0", "deny": str(PERM_USE_EXTERNAL_APPS)}
        ],
    )


@pytest.mark.parametrize("later", [False, True])
async def test_without_use_external_apps_every_answer_is_ephemeral(
    place: Place, later: bool
) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    strict = strict_channel(fake, p.elsewhere)
    r = await fake.slash(p.alice, strict, "shout", options={"later": later})
    cb = await r.response()
    second = await r.followup(1 if later else 0)
    assert second.content == "heard again" and second.ephemeral
    first = await r.answer()
    assert first.content == ("heard later" if later else "heard")
    assert first.ephemeral and cb.ephemeral
    assert fake.messages_in(strict, ephemeral=False) == []
    assert fake.visible_messages(p.bob, strict) == []
    assert fake.visible_messages(p.alice, strict) == [first, second]
    fake.assert_clean()


async def test_with_use_external_apps_or_the_guilds_install_answers_stay_public(
    place: Place,
) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    strict = strict_channel(fake, p.elsewhere)
    allowed = fake.add_role(p.elsewhere, "apps", PERM_USE_EXTERNAL_APPS)
    fake.add_channel(p.elsewhere, "open")  # defaults: @everyone has it
    strict.permission_overwrites.append(
        {"id": str(allowed.id), "type": 0, "allow": str(PERM_USE_EXTERNAL_APPS), "deny": "0"}
    )
    p.elsewhere.member(p.alice).roles.append(allowed.id)
    here = await fake.slash(p.alice, strict, "shout")
    assert not (await here.answer()).ephemeral and not (await here.followup(0)).ephemeral
    fake.install_for_user(p.bob)
    opened = await fake.slash(p.bob, p.elsewhere.channel("open"), "shout")
    assert not (await opened.answer()).ephemeral
    # The guild that has the bot: its own install, or "only apps not also installed to the
    # server", whatever the command's installs.
    strict_home = strict_channel(fake, fake.guild)
    both = await fake.slash(p.alice, strict_home, "shout")
    assert "0" in both.owners and not (await both.answer()).ephemeral
    user_only = await fake.slash(p.alice, strict_home, "mine")
    assert user_only.owners == {"1": str(p.alice.id)}
    assert not (await user_only.answer()).ephemeral
    fake.assert_clean()


async def test_a_user_installs_interaction_gets_five_followups(place: Place) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    r = await fake.slash(p.alice, p.pdm, "flood")
    await r.wait_for(lambda r: p.bot.refusals or None, 5, "the sixth followup's refusal")
    assert p.bot.refusals == [(5, 400, 40094)]
    assert [(e.status, e.code) for e in r.errors] == [(400, 40094)]
    assert (
        r.errors[0].message == "This interaction has hit the maximum number of follow up messages"
    )
    # The first followup filled in the "thinking" message, and counted.
    assert [m.content for m in r.followups] == [f"followup {i}" for i in range(5)]
    assert r.followups[0] is r.original
    assert [m.content for m in fake.messages_in(p.pdm)] == [f"followup {i}" for i in range(5)]
    fake.errors.clear()


async def test_a_guild_installs_interaction_has_no_followup_cap(place: Place) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    r = await fake.slash(p.alice, p.games, "flood")  # owners {"0", "1"}
    await r.wait_for(lambda r: len(r.followups) == 6 or None, 5, "six followups")
    assert p.bot.refusals == [] and r.errors == []
    fake.assert_clean()


async def test_a_user_installs_token_expires_too(place: Place) -> None:
    p, fake = place, place.fake
    fake.install_for_user(p.alice)
    fake.interaction_token_lifetime = 0.0
    r = await fake.slash(p.alice, p.gdm, "flood")
    await r.wait_for(lambda r: len(p.bot.refusals) == 6 or None, 5, "every followup refused")
    assert {(status, code) for _, status, code in p.bot.refusals} == {(401, 50027)}
    assert r.followups == []
    fake.errors.clear()


# ---------------------------------------------------------------------------------------------
# User commands
# ---------------------------------------------------------------------------------------------


async def test_a_user_commands_payload_in_a_guild(place: Place) -> None:
    p, fake = place, place.fake
    (stored,) = [c for c in fake.commands() if c["name"] == "Profile"]
    assert (stored["type"], stored["description"], stored["options"]) == (2, "", [])
    r = await fake.user_command(p.alice, p.games, "Profile", p.bob)
    answer = await r.answer()
    assert answer.content == "profile of bob"
    data = r.payload["data"]
    assert (data["type"], data["name"], data["id"]) == (2, "Profile", stored["id"])
    assert data["target_id"] == str(p.bob.id)
    assert data["resolved"]["users"] == {str(p.bob.id): p.bob.user.payload()}
    (member,) = data["resolved"]["members"].values()
    assert "user" not in member
    assert member["permissions"] == str(fake.permissions_for(p.bob, p.games))
    assert (r.context, r.owners) == (0, {"0": str(fake.guild.id)})
    assert p.bot.seen == [{"profile": ("Member", p.bob.id)}]
    assert answer.type == 23  # CONTEXT_MENU_COMMAND
    assert answer.interaction_metadata is not None
    assert answer.interaction_metadata["command_type"] == 2
    assert answer.interaction_metadata["target_user"]["id"] == str(p.bob.id)
    fake.assert_clean()


async def test_a_user_command_in_a_dm_between_people(place: Place) -> None:
    p, fake = place, place.fake
    with pytest.raises(LookupError):
        await fake.user_command(p.alice, p.pdm, "Profile", p.bob)
    fake.install_for_user(p.alice)
    r = await fake.user_command(p.alice, p.pdm, "Profile", p.bob)
    assert (await r.answer()).content == "profile of bob"
    assert set(r.payload["data"]["resolved"]) == {"users"}
    assert (r.context, r.owners) == (2, {"1": str(p.alice.id)})
    assert p.bot.seen == [{"profile": ("User", p.bob.id)}]
    with pytest.raises(LookupError, match="dave is not in DM channel"):
        await fake.user_command(p.alice, p.pdm, "Profile", p.dave)
    fake.assert_clean()


async def test_a_user_command_needs_send_messages(place: Place) -> None:
    p, fake = place, place.fake
    mute = fake.add_channel(
        fake.guild,
        "mute",
        permission_overwrites=[
            {"id": str(fake.guild.id), "type": 0, "allow": "0", "deny": str(PERM_SEND_MESSAGES)}
        ],
    )
    with pytest.raises(PermissionError, match="may not send messages"):
        await fake.user_command(p.alice, mute, "Profile", p.bob)
    assert [r.command_name for r in fake.interactions] == []


# ---------------------------------------------------------------------------------------------
# The command contract
# ---------------------------------------------------------------------------------------------


async def test_private_channel_needs_user_install(fake: FakeDiscord) -> None:
    path = f"/applications/{fake.application_id}/commands"
    bad = {"name": "x", "description": "d", "contexts": [0, 2], "integration_types": [0]}
    status, answer = await bot_request(fake, "PUT", path, [bad])
    assert status == 400 and answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    assert list(answer["errors"]) == ["contexts"]
    status, _ = await bot_request(fake, "POST", path, {**bad, "integration_types": None})
    assert status == 201  # defaults to the app's installs, which include USER_INSTALL
    fake.app_integration_types = {0}
    status, answer = await bot_request(
        fake, "POST", path, {**bad, "name": "y", "integration_types": None}
    )
    assert (status, list(answer["errors"])) == (400, ["contexts"])
    status, answer = await bot_request(
        fake, "POST", path, {"name": "z", "description": "d", "integration_types": [0, 1]}
    )
    assert (status, answer["code"], list(answer["errors"])) == (400, 50035, ["integration_types"])
    assert [c["name"] for c in fake.commands()] == ["x"]
    # A guild command's contexts mean nothing: not checked.
    guild_path = f"/applications/{fake.application_id}/guilds/{fake.guild.id}/commands"
    status, made = await bot_request(
        fake, "POST", guild_path, {"name": "g", "description": "d", "contexts": [2]}
    )
    assert status == 201 and made["integration_types"] == [0]


async def test_context_menus_take_no_description_and_no_options(fake: FakeDiscord) -> None:
    path = f"/applications/{fake.application_id}/commands"
    status, made = await bot_request(
        fake, "PUT", path, [{"name": "Profile", "type": 2}, {"name": "Quote", "type": 3}]
    )
    assert status == 200 and [(c["type"], c["description"]) for c in made] == [(2, ""), (3, "")]
    status, answer = await bot_request(
        fake, "POST", path, {"name": "Profile", "type": 2, "description": "no"}
    )
    assert (status, list(answer["errors"])) == (400, ["description"])
