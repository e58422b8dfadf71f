"""Proves FakeDiscord against the unmodified discord.py: a tiny demo bot defined here logs in,
syncs an ``app_commands.Group``, and answers slash commands, autocomplete, buttons and modals.

The real bot's e2e tests will use the same fixtures/patterns, so keep this file a good example.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.e2e.fake_discord import (
    CALLBACK_AUTOCOMPLETE_RESULT,
    CALLBACK_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_CHANNEL_MESSAGE,
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_MODAL,
    CALLBACK_UPDATE_MESSAGE,
    PERM_MANAGE_MESSAGES,
    FakeDiscord,
    FakeDiscordTimeout,
    would_ping,
)


def make_png(color: str = "red") -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 3), color).save(buf, "PNG")
    return buf.getvalue()


PNG = make_png()


def png_file(name: str) -> discord.File:
    return discord.File(io.BytesIO(PNG), filename=name)


def assert_png(data: bytes) -> None:
    with Image.open(io.BytesIO(data)) as img:
        img.verify()
        assert img.format == "PNG"


# ---------------------------------------------------------------------------------------------
# The demo bot
# ---------------------------------------------------------------------------------------------


class RollButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:roll:(?P<n>\d+)"):
    """A stateless (restart-proof) button: its state lives in the custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Roll {n}", style=discord.ButtonStyle.primary, custom_id=f"demo:roll:{n}"
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> RollButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(RollButton(self.n + 1))
        await interaction.response.edit_message(content=f"rolled {self.n}", view=view)


class ConfirmView(discord.ui.View):
    """A regular (message-bound) view: relies on the callback returning the message id."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.add_item(RollButton(1))

    @discord.ui.button(label="Confirm", custom_id="demo:confirm", style=discord.ButtonStyle.success)
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()  # type 6: deferred update of the clicked message
        button.disabled = True
        await interaction.edit_original_response(content="confirmed", view=self)


class ResignModal(discord.ui.Modal, title="Resign the game?"):
    confirm: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Type RESIGN", custom_id="demo:resign:text", max_length=10
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"resigned: {self.confirm.value}", ephemeral=True)


MOVES = ["13/7 8/7", "13/11 6/5", "24/18 13/11", "8/2 6/2"]


def build_group(seen: dict[str, Any]) -> app_commands.Group:
    group = app_commands.Group(name="demo", description="Demo commands")

    @group.command(name="board", description="Post a board with buttons")
    async def board(interaction: discord.Interaction) -> None:
        resp = await interaction.response.send_message(
            "board", file=png_file("board.png"), view=ConfirmView()
        )
        seen["board_message_id"] = resp.message_id

    @group.command(name="slow", description="Defer, then follow up")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        first = await interaction.followup.send("done", file=png_file("late.png"), wait=True)
        second = await interaction.followup.send("only you", ephemeral=True, wait=True)
        seen["slow"] = (first.id, second.id)

    @group.command(name="edit", description="Defer ephemerally, then edit the original")
    async def edit(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.edit_original_response(
            content="edited", attachments=[png_file("edit.png")]
        )
        original = await interaction.original_response()
        seen["edit"] = (original.id, original.content, [a.filename for a in original.attachments])

    @group.command(name="fail", description="Ephemeral error")
    async def fail(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("That move is illegal.", ephemeral=True)

    async def play_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=m, value=m) for m in MOVES if m.startswith(current)]

    @group.command(name="move", description="Make a move")
    @app_commands.describe(play="Your move, e.g. 13/7 8/7")
    @app_commands.autocomplete(play=play_autocomplete)
    async def move(interaction: discord.Interaction, play: str) -> None:
        await interaction.response.send_message(f"{interaction.user.name} played {play}")

    @group.command(name="challenge", description="Challenge someone")
    async def challenge(
        interaction: discord.Interaction,
        opponent: discord.Member,
        points: app_commands.Range[int, 1, 25] = 1,
    ) -> None:
        user = interaction.user
        assert isinstance(user, discord.Member)
        perms = (interaction.permissions.manage_messages, user.guild_permissions.manage_messages)
        seen["challenge"] = (opponent, perms, points)
        await interaction.response.send_message(
            f"{interaction.user.mention} challenges {opponent.mention} to {points}"
        )

    @group.command(name="resign", description="Opens a modal")
    async def resign(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(ResignModal())

    @group.command(name="sleepy", description="Responds too late")
    async def sleepy(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.4)
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as exc:
            seen["sleepy"] = exc.code

    return group


class DemoBot(commands.Bot):
    def __init__(self, guild_id: int, seen: dict[str, Any], **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        # on_ready fires guild_ready_timeout after the last GUILD_CREATE (discord.py default: 2 s)
        super().__init__(
            command_prefix=commands.when_mentioned, guild_ready_timeout=0.05, **options
        )
        self.guild_id = guild_id
        self.seen = seen

    async def setup_hook(self) -> None:
        self.add_dynamic_items(RollButton)
        guild = discord.Object(self.guild_id)
        self.tree.add_command(build_group(self.seen), guild=guild)
        self.tree.add_command(ping)  # global: usable in DMs too
        self.seen["synced"] = await self.tree.sync(guild=guild)
        await self.tree.sync()


@app_commands.command(name="ping", description="Replies, and DMs you when used in a guild")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong", ephemeral=interaction.guild is not None)
    if interaction.guild is not None:
        await interaction.user.send("psst")


# ---------------------------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------------------------


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        with fake.patch_discord():
            yield fake


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord, **options: Any) -> AsyncIterator[DemoBot]:
    """Start a fresh DemoBot against the fake; wait for its own READY; close it afterwards."""
    after = fake.ready_count
    bot = DemoBot(fake.guild.id, {}, **options)
    task = asyncio.create_task(bot.start(fake.token))
    try:
        ready = asyncio.create_task(fake.wait_until_ready(after=after))
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            ready.cancel()
            task.result()  # surfaces login/connect errors
            raise AssertionError("bot stopped before becoming ready")
        ready.result()
        yield bot
    finally:
        await bot.close()
        await asyncio.wait_for(task, 5)


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[DemoBot]:
    async with running_bot(fake) as bot:
        yield bot


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------


async def test_login_sync_and_guild_state(fake: FakeDiscord, bot: DemoBot) -> None:
    cmds = await fake.wait_for_commands(fake.guild.id, names=["demo"])
    (demo,) = cmds
    assert demo["guild_id"] == str(fake.guild.id)
    subs = {o["name"]: o for o in demo["options"]}
    assert subs.keys() >= {"board", "slow", "move", "challenge", "resign"}
    assert all(o["type"] == 1 for o in subs.values())
    assert [a.id for a in bot.seen["synced"]] == [int(demo["id"])]
    assert [c["name"] for c in fake.commands()] == ["ping"]  # the global command

    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None and guild.me is not None
    games = guild.get_channel(fake.channel_id("games"))
    assert isinstance(games, discord.TextChannel)
    assert games.permissions_for(guild.me).create_public_threads
    assert ("CONNECT", {"v": "10", "encoding": "json", "compress": "zlib-stream"}) in (
        fake.gateway_log
    )
    fake.assert_clean()


async def test_slash_reply_with_file_and_buttons(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.create_member("alice")
    result = await fake.slash(alice, "games", "demo", "board")
    cb = await result.response()
    assert cb.type == CALLBACK_CHANNEL_MESSAGE and not cb.ephemeral
    assert cb.content == "board"
    assert [f.filename for f in cb.files] == ["board.png"]
    assert_png(cb.files[0].data)
    assert sorted(cb.custom_ids) == ["demo:confirm", "demo:roll:1"]

    msg = fake.last_message("games")
    assert msg is not None and msg is result.original and msg is cb.message
    assert msg.attachments[0].data == PNG and msg.attachments[0].width == 4
    assert msg.interaction_metadata and msg.interaction_metadata["name"] == "demo board"
    # with_response=true gave discord.py the message id, so the View is bound to it.
    assert bot.seen["board_message_id"] == msg.id

    # DynamicItem: type 7 update of the clicked message.
    click = await fake.click(alice, msg, "demo:roll:1")
    cb2 = await click.response()
    assert cb2.type == CALLBACK_UPDATE_MESSAGE
    assert msg.content == "rolled 1" and msg.custom_ids == ["demo:roll:2"]
    assert [a.filename for a in msg.attachments] == ["board.png"]  # untouched by the edit
    assert msg.history[0]["content"] == "board"


async def test_view_button_deferred_update_then_edit(fake: FakeDiscord, bot: DemoBot) -> None:
    bob = fake.create_member("bob")
    board = await (await fake.slash(bob, "games", "demo", "board")).original_message()
    click = await fake.click(bob, board, "demo:confirm")
    assert (await click.response()).type == CALLBACK_DEFERRED_UPDATE_MESSAGE
    edited = await click.wait_for(lambda r: r.original if ("edit", board.id) in r.log else None)
    assert edited is board
    assert board.content == "confirmed"
    assert board.component("demo:confirm").disabled
    with pytest.raises(ValueError, match="disabled"):
        await fake.click(bob, board, "demo:confirm")
    fake.assert_clean()


async def test_defer_then_followups(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.create_member("alice")
    result = await fake.slash(alice, "games", "demo", "slow")
    cb = await result.response()
    assert cb.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE and not cb.ephemeral
    first = await result.followup(0)
    second = await result.followup(1)
    # Discord: the first followup after a defer edits the "thinking" message in place.
    assert first is result.original and not first.loading
    assert first.content == "done" and first.attachments[0].filename == "late.png"
    assert_png(first.attachments[0].data)
    assert second.ephemeral and second.content == "only you" and second is not first
    await result.wait_for(lambda r: "slow" in bot.seen)
    assert bot.seen["slow"] == (first.id, second.id)
    assert fake.messages_in("games", ephemeral=False) == [first]
    fake.assert_clean()


async def test_defer_ephemeral_then_edit_original(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.create_member("alice")
    result = await fake.slash(alice, "general", "demo", "edit")
    cb = await result.response()
    assert cb.type == CALLBACK_DEFERRED_CHANNEL_MESSAGE and cb.ephemeral
    msg = await result.original_message()
    assert msg.ephemeral and msg.content == "edited"
    assert_png(msg.attachment("edit.png").data)
    await result.wait_for(lambda r: "edit" in bot.seen)
    assert bot.seen["edit"] == (msg.id, "edited", ["edit.png"])
    fake.assert_clean()


async def test_ephemeral_error_reply(fake: FakeDiscord, bot: DemoBot) -> None:
    alice, bob = fake.create_member("alice"), fake.create_member("bob")
    result = await fake.slash(alice, "games", "demo", "fail")
    cb = await result.response()
    assert cb.type == CALLBACK_CHANNEL_MESSAGE and cb.ephemeral and cb.flags & 64
    assert cb.content == "That move is illegal."
    assert fake.messages_in("games", ephemeral=False) == []
    assert fake.messages_in("games", ephemeral=True) == [cb.message]
    assert cb.message is not None and cb.message.interaction_user_id == alice.id
    assert bob.id != alice.id


async def test_autocomplete_and_string_option(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.create_member("alice")
    choices = await fake.autocomplete(alice, "games", "demo", "move", focused="play", value="13/")
    assert [c["value"] for c in choices] == ["13/7 8/7", "13/11 6/5"]
    assert fake.interactions[-1].callback is not None
    assert fake.interactions[-1].callback.type == CALLBACK_AUTOCOMPLETE_RESULT

    result = await fake.slash(alice, "games", "demo", "move", options={"play": "13/7 8/7"})
    assert (await result.response()).content == "alice played 13/7 8/7"
    with pytest.raises(ValueError, match="missing required"):
        await fake.slash(alice, "games", "demo", "move")
    with pytest.raises(LookupError, match="unknown option"):
        await fake.slash(alice, "games", "demo", "move", options={"nope": 1})


async def test_user_option_and_permissions(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.create_member("alice", global_name="Alice")
    bob = fake.create_member("bob")
    mod = fake.create_member("mod", permissions=PERM_MANAGE_MESSAGES)

    result = await fake.slash(alice, "games", "demo", "challenge", options={"opponent": bob})
    cb = await result.response()
    assert cb.content == f"<@{alice.id}> challenges <@{bob.id}> to 1"
    opponent, can_manage, points = bot.seen["challenge"]
    assert isinstance(opponent, discord.Member) and opponent.id == bob.id
    assert opponent.name == "bob" and can_manage == (False, False) and points == 1

    opts = {"opponent": alice, "points": 7}
    await (await fake.slash(mod, "games", "demo", "challenge", options=opts)).response()
    opponent, can_manage, points = bot.seen["challenge"]
    assert opponent.global_name == "Alice" and can_manage == (True, True) and points == 7

    with pytest.raises(ValueError, match="outside"):
        await fake.slash(mod, "games", "demo", "challenge", options={"opponent": bob, "points": 99})


async def test_modal_round_trip(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.create_member("alice")
    opened = await fake.slash(alice, "games", "demo", "resign")
    cb = await opened.response()
    assert cb.type == CALLBACK_MODAL and cb.title == "Resign the game?"
    assert [t["custom_id"] for t in cb.text_inputs] == ["demo:resign:text"]
    submitted = await fake.submit_modal(alice, opened, {"demo:resign:text": "RESIGN"})
    reply = await submitted.response()
    assert reply.ephemeral and reply.content == "resigned: RESIGN"


async def test_channel_messages_threads_and_cdn(fake: FakeDiscord, bot: DemoBot) -> None:
    channel = bot.get_channel(fake.channel_id("games"))
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("hello", file=png_file("a.png"))
    assert sent.attachments[0].filename == "a.png"
    assert await sent.attachments[0].read() == PNG  # served by the fake "CDN"
    await sent.edit(content="hello again")
    await sent.add_reaction("🎲")
    stored = fake.message(sent.id)
    assert stored.content == "hello again" and stored.attachments[0].data == PNG
    assert stored.reactions == {"🎲": {fake.bot_user.id}}

    thread = await channel.create_thread(name="game-1", type=discord.ChannelType.public_thread)
    in_thread = await thread.send("inside", view=discord.ui.View().add_item(RollButton(5)))
    assert fake.channel("game-1").is_thread
    assert fake.last_message("game-1") is fake.message(in_thread.id)
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "hello again"
    await sent.delete()
    assert fake.message(sent.id).deleted and fake.messages_in("games") == []

    # A user clicks the button on the thread message; the DynamicItem handles it.
    alice = fake.create_member("alice")
    click = await fake.click(alice, fake.message(in_thread.id), "demo:roll:5")
    assert (await click.response()).type == CALLBACK_UPDATE_MESSAGE
    assert fake.message(in_thread.id).content == "rolled 5"
    fake.assert_clean()


async def test_unknown_routes_are_recorded(fake: FakeDiscord, bot: DemoBot) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/definitely/not/a/route"))
    assert [str(r).split(" ->")[0] for r in fake.unknown_routes] == [
        "GET /api/v10/definitely/not/a/route"
    ]
    with pytest.raises(AssertionError, match="unknown routes"):
        fake.assert_clean()


async def test_late_response_is_rejected() -> None:
    async with FakeDiscord(interaction_deadline=0.2) as fake:
        with fake.patch_discord():
            async with running_bot(fake) as bot:
                alice = fake.create_member("alice")
                result = await fake.slash(alice, "games", "demo", "sleepy")
                await result.wait_for(lambda r: r.late and "sleepy" in bot.seen)
                assert result.callback is None
                assert bot.seen["sleepy"] == 10062
                with pytest.raises(FakeDiscordTimeout, match="deadline"):
                    await result.response()
                with pytest.raises(AssertionError, match="late interaction responses"):
                    fake.assert_clean()


async def test_many_parallel_interactions(fake: FakeDiscord, bot: DemoBot) -> None:
    players = [fake.create_member(f"p{i}") for i in range(30)]
    results = await asyncio.gather(
        *(
            fake.slash(p, "games", "demo", "move", options={"play": MOVES[i % 4]})
            for i, p in enumerate(players)
        )
    )
    callbacks = await asyncio.gather(*(r.response() for r in results))
    for i, (p, cb) in enumerate(zip(players, callbacks, strict=True)):
        assert cb.content == f"{p.username} played {MOVES[i % 4]}"
    assert len(fake.messages_in("games")) == 30
    fake.assert_clean()


async def test_restart_new_client_gets_ready_again(fake: FakeDiscord) -> None:
    alice = fake.create_member("alice")
    async with running_bot(fake):
        board = await (await fake.slash(alice, "games", "demo", "board")).original_message()
    assert fake.sessions == []
    first_ready = fake.ready_count

    async with running_bot(fake) as bot2:
        assert fake.ready_count == first_ready + 1 and len(fake.sessions) == 1
        result = await fake.slash(alice, "games", "demo", "move", options={"play": "8/2 6/2"})
        assert (await result.response()).content == "alice played 8/2 6/2"
        # The stateless DynamicItem survives the restart.
        click = await fake.click(alice, board, "demo:roll:1")
        assert (await click.response()).type == CALLBACK_UPDATE_MESSAGE
        await asyncio.wait_for(bot2.wait_until_ready(), 5)
    assert fake.identify_count == 2
    fake.assert_clean()


async def test_members_intent_triggers_chunking(fake: FakeDiscord) -> None:
    alice = fake.create_member("alice")
    intents = discord.Intents.default()
    intents.members = True
    async with running_bot(fake, intents=intents) as bot:
        await asyncio.wait_for(bot.wait_until_ready(), 5)  # on_ready follows the chunk
        guild = bot.get_guild(fake.guild.id)
        assert guild is not None and guild.chunked
        member = guild.get_member(alice.id)
        assert member is not None and member.name == "alice"
    assert any(event == "op8" for event, _ in fake.gateway_log)


async def test_dm_command_and_bot_dm(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.create_member("alice")
    result = await fake.slash(alice, "games", "ping")
    assert (await result.response()).ephemeral
    dm = await fake.wait_for_message(fake.dm_channel(alice))
    assert dm.content == "psst" and dm.guild_id is None

    in_dm = await fake.slash(alice, fake.dm_channel(alice), "ping")
    cb = await in_dm.response()
    assert cb.content == "pong" and not cb.ephemeral
    assert [m.content for m in fake.messages_in(fake.dm_channel(alice))] == ["psst", "pong"]
    # The bot's DM: BOT_DM (1), authorised by the app's guild install ("0": "0").
    assert (result.context, result.owners) == (0, {"0": str(fake.guild.id)})
    assert (in_dm.context, in_dm.owners) == (1, {"0": "0"})
    fake.assert_clean()


async def test_a_guild_only_command_is_not_offered_in_the_bots_dm(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    """``/demo`` is synced to the guild: Discord shows it nowhere else, and a global command
    marked guild-only (``contexts`` [0]) not in the bot's DM."""
    alice = fake.create_member("alice")
    with pytest.raises(LookupError, match="is a command of guild"):
        await fake.slash(alice, fake.dm_channel(alice), "demo", "board", guild_id=fake.guild.id)
    fake.add_command({"name": "onlyhere", "description": "d", "contexts": [0]})
    with pytest.raises(LookupError, match="not offered in interaction context 1"):
        await fake.slash(alice, fake.dm_channel(alice), "onlyhere")
    assert fake.interactions == []


async def test_gateway_reconnect_resumes(fake: FakeDiscord, bot: DemoBot) -> None:
    alice = fake.create_member("alice")
    session_id = fake.sessions[0].session_id
    await fake.force_reconnect()
    await fake.wait_for(lambda: any(e == "op6" for e, _ in fake.gateway_log), what="RESUME")
    result = await fake.slash(alice, "games", "demo", "fail")
    assert (await result.response()).ephemeral
    assert [s.session_id for s in fake.sessions] == [session_id]
    assert fake.identify_count == 1


# ---------------------------------------------------------------------------------------------
# Fault injection, allowed mentions, several bot processes
# ---------------------------------------------------------------------------------------------

FOLLOWUP = r"/webhooks/\d+/[^/]+$"
CALLBACK = r"/interactions/\d+/[^/]+/callback$"
CHANNEL_MESSAGES = r"/channels/\d+/messages$"


async def test_injected_404_has_no_effect_and_keeps_assert_clean(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    """An injected 404 on the followup reaches discord.py as NotFound; nothing is posted."""
    alice = fake.create_member("alice")
    rule = fake.fail_requests("POST", FOLLOWUP, 404, code=10015, message="Unknown Webhook")
    result = await fake.slash(alice, "games", "demo", "slow")
    await result.wait_for(lambda r: r.injected)
    assert rule.hits == 1 and rule.remaining == 0
    (record,) = fake.injected
    assert record.path == f"/api/v10/webhooks/{fake.application_id}/{result.token}"
    assert (record.method, record.status, record.code) == ("POST", 404, 10015)
    assert result.followups == [] and result.original is not None and result.original.loading
    fake.assert_clean()  # injected answers are not the bot's errors
    # Spent: the next followup goes through.
    again = await fake.slash(alice, "games", "demo", "slow")
    assert (await again.followup(0)).content == "done"
    assert rule.hits == 1


async def test_injected_429_is_retried_by_discord_py(fake: FakeDiscord, bot: DemoBot) -> None:
    """A realistic 429 (body retry_after, Via header) makes discord.py sleep and retry."""
    alice = fake.create_member("alice")
    on_callback = fake.fail_requests("POST", CALLBACK, 429, retry_after=0.05)
    result = await fake.slash(alice, "games", "demo", "fail")
    assert (await result.response()).content == "That move is illegal."
    assert on_callback.hits == 1 and result.injected == on_callback.records

    channel = bot.get_channel(fake.channel_id("games"))
    assert isinstance(channel, discord.TextChannel)
    on_send = fake.fail_requests("POST", CHANNEL_MESSAGES, 429, count=2, retry_after=0.01)
    sent = await channel.send("after two 429s")
    assert fake.message(sent.id).content == "after two 429s"
    assert on_send.hits == 2 and len(fake.messages_in("games", ephemeral=False)) == 1
    assert fake.injected == [*on_callback.records, *on_send.records]
    fake.assert_clean()


async def test_injected_503_on_a_bot_route_raises_and_cancel_stops_a_rule(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    channel = bot.get_channel(fake.channel_id("games"))
    assert isinstance(channel, discord.TextChannel)
    rule = fake.fail_requests("*", CHANNEL_MESSAGES, 503, count=10)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("lost")
    assert rule.hits == 1 and fake.messages_in("games") == []
    rule.cancel()
    assert rule.remaining == 0
    await channel.send("kept")
    assert [m.content for m in fake.messages_in("games")] == ["kept"]
    with pytest.raises(ValueError, match="error status"):
        fake.fail_requests("GET", "x", 200)
    fake.assert_clean()


@pytest.mark.parametrize(
    ("content", "allowed", "expected"),
    [
        ("hi @everyone and @here", None, {"everyone", "here"}),
        ("<@123> <@!456> <@&789>", None, {"user:123", "user:456", "role:789"}),
        ("@\u200beveryone <@\u200b123> <@\u200b&789>", None, set()),
        ("@everyone <@123> <@&789>", {"parse": []}, set()),
        ("@everyone <@123> <@&789>", {"parse": ["everyone"]}, {"everyone"}),
        ("<@123> <@456>", {"parse": ["users"]}, {"user:123", "user:456"}),
        ("<@123> <@456>", {"parse": [], "users": ["456"]}, {"user:456"}),
        ("<@&7> <@&8>", {"parse": [], "roles": ["8"]}, {"role:8"}),
        ("<@&7> <@&8> @here", {"parse": ["roles"]}, {"role:7", "role:8"}),
        ("no mentions at all", None, set()),
    ],
)
def test_would_ping_follows_discords_rules(
    content: str, allowed: dict[str, Any] | None, expected: set[str]
) -> None:
    assert would_ping(content, allowed) == expected


async def test_allowed_mentions_are_recorded_for_every_message_request(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    alice = fake.create_member("alice")
    bob = fake.create_member("bob")
    result = await fake.slash(alice, "games", "demo", "challenge", options={"opponent": bob})
    message = await result.original_message()
    # The demo bot sets no allowed_mentions: Discord's default parses everything.
    assert message.allowed_mentions is None
    assert fake.would_ping(message) == {f"user:{alice.id}", f"user:{bob.id}"}

    slow = await fake.slash(alice, "games", "demo", "slow")
    await slow.followup(1)
    channel = bot.get_channel(fake.channel_id("games"))
    assert isinstance(channel, discord.TextChannel)
    none = discord.AllowedMentions.none()
    sent = await channel.send(f"@everyone {bob.mention}", allowed_mentions=none)
    only_bob = discord.AllowedMentions(
        everyone=False, users=[discord.Object(bob.id)], roles=False, replied_user=False
    )
    await sent.edit(content=f"@here {bob.mention} {alice.mention}", allowed_mentions=only_bob)

    kinds = [(r.method, r.path.split("/")[3], r.ephemeral) for r in fake.message_requests]
    assert kinds == [
        ("POST", "interactions", False),  # type 4 response
        ("POST", "webhooks", False),  # first followup edits the deferred message
        ("POST", "webhooks", True),
        ("POST", "channels", False),
        ("PATCH", "channels", False),
    ]
    create, edit = fake.message_requests[-2:]
    assert create.allowed_mentions == {"parse": []} and fake.would_ping(create) == set()
    assert edit.allowed_mentions == {"parse": [], "users": [bob.id]}
    assert edit.content == f"@here {bob.mention} {alice.mention}"
    assert fake.would_ping(edit) == {f"user:{bob.id}"}
    assert fake.message(sent.id).allowed_mentions == edit.allowed_mentions
    fake.assert_clean()


async def test_invalid_allowed_mentions_are_rejected_like_discord(
    fake: FakeDiscord, bot: DemoBot
) -> None:
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=fake.channel_id("games")
    )
    body = {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}
    with pytest.raises(discord.HTTPException) as excinfo:
        await bot.http.request(route, json=body)
    assert excinfo.value.status == 400 and excinfo.value.code == 50035
    assert fake.messages_in("games") == [] and fake.message_requests == []


async def test_round_robin_and_explicit_session_routing(fake: FakeDiscord) -> None:
    """Two bot processes on one application: interactions alternate, or go where told."""
    alice = fake.create_member("alice")
    async with running_bot(fake) as first, running_bot(fake) as second:
        assert len(fake.sessions) == 2
        newest = await fake.slash(alice, "games", "demo", "fail")
        assert newest.session_index == 1
        fake.interaction_routing = "round_robin"
        results = [
            await fake.slash(alice, "games", "demo", "move", options={"play": "8/2 6/2"})
            for _ in range(4)
        ]
        assert [r.session_index for r in results] == [0, 1, 0, 1]
        pinned = await fake.slash(alice, "games", "demo", "fail", session=0)
        assert pinned.session_index == 0
        for r in [newest, *results, pinned]:
            await r.response()
        assert first.user is not None and second.user is not None
    fake.assert_clean()


async def test_each_shard_gets_only_its_own_guilds(fake: FakeDiscord) -> None:
    """Two processes as shards 0 and 1 of 2: a guild's GUILD_CREATE and interactions reach
    only the process whose shard is ``(guild_id >> 22) % 2``, as on Discord."""
    home = (fake.guild.id >> 22) % 2
    other = fake.add_guild("elsewhere")
    while (other.id >> 22) % 2 == home:
        other = fake.add_guild("elsewhere")
    alice = fake.create_member("alice")
    async with (
        running_bot(fake, shard_id=0, shard_count=2) as zero,
        running_bot(fake, shard_id=1, shard_count=2) as one,
    ):
        owner, stranger = (zero, one) if home == 0 else (one, zero)
        assert owner.get_guild(fake.guild.id) is not None
        assert stranger.get_guild(fake.guild.id) is None
        assert stranger.get_guild(other.id) is not None and owner.get_guild(other.id) is None
        live = sorted(fake.sessions, key=lambda s: s.ready_index)
        for _ in range(3):
            result = await fake.slash(alice, "games", "demo", "fail")
            await result.response()
            assert result.session_index is not None
            assert live[result.session_index].shard == (home, 2)
    fake.assert_clean()


async def test_request_guild_members_keeps_discords_limits(fake: FakeDiscord, bot: DemoBot) -> None:
    """Request Guild Members (op 8) by user ids: found members come back, the absent ones in
    ``not_found``; more than 100 ids, or the whole list without the GUILD_MEMBERS intent, get
    no chunk and are recorded as errors (the gateway docs' limits)."""
    guild = bot.get_guild(fake.guild.id)
    assert guild is not None
    alice = fake.create_member("alice")
    found = await guild.query_members(user_ids=[alice.id, 999_999], limit=100, cache=False)
    assert [m.id for m in found] == [alice.id]
    fake.assert_clean()
    ws = bot._get_websocket(guild.id)  # the shard's socket, to send what discord.py will not
    await ws.request_chunks(guild.id, user_ids=list(range(1, 102)), limit=100)
    await ws.request_chunks(guild.id, query="", limit=0)  # DemoBot runs without GUILD_MEMBERS
    await fake.wait_for(lambda: len(fake.errors) == 2, 5, "the two refusals")
    assert [e.message for e in fake.errors] == [
        "101 user_ids (at most 100)",
        "the whole member list without the GUILD_MEMBERS intent",
    ]
    fake.errors.clear()
