"""The fake Discord's OAuth2 answers as Discord documents them: the shapes of its answers
against the vendored OpenAPI description, and what it refuses (the bot's own client,
bot/web/discord_api.py, speaks to it)."""

from __future__ import annotations

import aiohttp
import pytest

from bot.web.discord_api import DiscordOAuth, DiscordRefused
from tests.e2e.discord_contract import _validator
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.fake_oauth import FakeOAuth


async def test_answers_fit_discord_s_schemas_and_the_client_reads_them(fake: FakeDiscord) -> None:
    alice = fake.create_member("alice", global_name="Alice")
    oauth = await FakeOAuth(fake).start()
    client = DiscordOAuth(
        client_id=oauth.client_id,
        client_secret=oauth.client_secret,
        bot_token=fake.token,
        api_base=oauth.http_base,
    )
    try:
        instance_id = oauth.launch("games", alice)
        async with aiohttp.ClientSession() as http:
            url = f"{oauth.http_base}/applications/{oauth.client_id}/activity-instances/"
            headers = {"Authorization": f"Bot {fake.token}"}
            async with http.get(url + instance_id, headers=headers) as response:
                _validator("#/components/schemas/EmbeddedActivityInstance").validate(
                    await response.json()
                )
            token = await client.exchange(oauth.code_for(alice))
            async with http.get(
                f"{oauth.http_base}/users/@me", headers={"Authorization": f"Bearer {token}"}
            ) as response:
                _validator("#/components/schemas/UserPIIResponse").validate(await response.json())
        user = await client.user(token)
        assert (user.id, user.name) == (alice.id, "Alice")
        instance = await client.instance(instance_id)
        assert instance.channel_id == fake.channel_id("games")
        assert instance.guild_id == fake.guild.id and instance.users == {alice.id}
    finally:
        await client.close()
        await oauth.stop()


async def test_what_discord_refuses_the_fake_refuses(fake: FakeDiscord) -> None:
    alice = fake.create_member("alice")
    oauth = await FakeOAuth(fake).start()
    app, secret = oauth.client_id, oauth.client_secret
    clients = [
        DiscordOAuth(
            client_id=app, client_secret=secret, bot_token=fake.token, api_base=oauth.http_base
        ),
        DiscordOAuth(
            client_id=app, client_secret="wrong", bot_token=fake.token, api_base=oauth.http_base
        ),
        DiscordOAuth(
            client_id=app, client_secret=secret, bot_token="not-the-bot", api_base=oauth.http_base
        ),
    ]
    right, wrong_secret, wrong_bot = clients
    try:
        code = oauth.code_for(alice)
        with pytest.raises(DiscordRefused) as refused:
            await wrong_secret.exchange(code)
        assert refused.value.status == 401  # invalid_client, and the code is still good
        await right.exchange(code)
        with pytest.raises(DiscordRefused) as reused:
            await right.exchange(code)  # a code works once
        assert reused.value.status == 400
        no_scope = await right.exchange(oauth.code_for(alice, scopes=("guilds",)))
        with pytest.raises(DiscordRefused):
            await right.user(no_scope)  # /users/@me needs `identify`
        with pytest.raises(DiscordRefused):
            await wrong_bot.instance(oauth.launch("games", alice))
    finally:
        for client in clients:
            await client.close()
        await oauth.stop()
