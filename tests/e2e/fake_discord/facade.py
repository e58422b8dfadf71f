"""``FakeDiscord``: builds the fake's collaborators once, hands each the others it needs, and
gives tests one object to drive (the API in the package docstring).

Why a facade: tests speak to "the fake", not to its parts; each part keeps one job (see the
package's map) and this class only composes them. Imports every part.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence

from aiohttp import web

from tests.e2e.fake_discord.cdn import Cdn
from tests.e2e.fake_discord.channel_access import ChannelAccess
from tests.e2e.fake_discord.clock import Snowflakes
from tests.e2e.fake_discord.commands import Commands
from tests.e2e.fake_discord.faults import Faults
from tests.e2e.fake_discord.gateway import Gateway, GatewaySession
from tests.e2e.fake_discord.interactions import InteractionRules, Interactions
from tests.e2e.fake_discord.messages import MessageStore
from tests.e2e.fake_discord.permissions import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    permissions_for,
)
from tests.e2e.fake_discord.rest_channels import ChannelRoutes
from tests.e2e.fake_discord.rest_commands import CommandRoutes
from tests.e2e.fake_discord.rest_guilds import GuildRoutes
from tests.e2e.fake_discord.rest_identity import IdentityRoutes
from tests.e2e.fake_discord.rest_interactions import InteractionRoutes
from tests.e2e.fake_discord.rest_threads import ThreadRoutes
from tests.e2e.fake_discord.routes import Routes
from tests.e2e.fake_discord.server import Listener, RequestGate
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.user_actions import UserActions
from tests.e2e.fake_discord.world import FakeChannel, FakeGuild, FakeMember, FakeUser, World
from tests.e2e.fake_discord.world_setup import WorldSetup
from tests.e2e.fake_ratelimit import RateLimits


class FakeDiscord:
    """Fake Discord REST API + gateway on 127.0.0.1. See the package docstring for the API.

    The verbs (``slash``, ``wait_for``, ``add_member``...) are the owning part's own bound
    methods, so each signature and docstring lives in one place; the logs and records
    (``errors``, ``interactions``...) are the owning part's own lists, never replaced.
    """

    def __init__(
        self,
        guilds: Sequence[str] = ("Test Guild",),
        *,
        token: str = "fake-bot-token",
        bot_name: str = "GammonBot",
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int = DEFAULT_EVERYONE_PERMISSIONS,
        interaction_deadline: float | None = 3.0,
        interaction_token_lifetime: float = 15 * 60,
        rate_limits: RateLimits | None = None,
        heartbeat_interval_ms: int = 41_250,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self._token = token
        traffic = Traffic()
        world = World(Snowflakes(), bot_name=bot_name)
        listener = Listener(host, port)
        interactions = Interactions(
            InteractionRules(interaction_deadline, interaction_token_lifetime)
        )
        faults = Faults()
        gateway = Gateway(
            world, traffic, listener, token=token, heartbeat_interval_ms=heartbeat_interval_ms
        )
        setup = WorldSetup(
            world,
            gateway,
            bot_permissions=bot_permissions,
            everyone_permissions=everyone_permissions,
        )
        store = MessageStore(world, traffic, listener)
        commands = Commands(world, traffic)
        actions = UserActions(world, commands, store, interactions, gateway, traffic)
        access = ChannelAccess(world, store)
        self._world = world
        self._listener = listener
        self._interactions = interactions
        self._gateway = gateway
        self._setup = setup
        self._gate = RequestGate(
            token=token,
            traffic=traffic,
            faults=faults,
            rate_limits=rate_limits if rate_limits is not None else RateLimits(),
            interactions=interactions,
        )
        self._routes = Routes(
            identity=IdentityRoutes(world, listener),
            commands=CommandRoutes(commands, world, traffic),
            interactions=InteractionRoutes(interactions, world, store, gateway, traffic),
            channels=ChannelRoutes(world, store, gateway, traffic, access),
            threads=ThreadRoutes(world, store, gateway, traffic, access),
            guilds=GuildRoutes(world),
            gateway=gateway,
            cdn=Cdn(store),
        )

        # The world.
        self.users = world.users
        self.guilds = world.guilds
        self.bot_user = world.bot_user
        self.owner = world.owner
        self.application_id = world.application_id
        self.create_user = world.create_user
        self.dm_channel = world.dm_channel
        self.private_dm = world.private_dm
        self.group_dm = world.group_dm
        self.install_for_user = world.install_for_user
        self.user_installs = world.user_installs
        self.channel = world.channel
        self.channel_id = world.channel_id
        self.add_guild = setup.add_guild
        self.add_channel = setup.add_channel
        self.add_role = setup.add_role
        self.add_member = setup.add_member
        self.create_member = setup.create_member

        # What the fake saw, and waiting for it.
        self.requests = traffic.requests
        self.unknown_routes = traffic.unknown_routes
        self.errors = traffic.errors
        self.server_errors = traffic.server_errors
        self.gateway_log = traffic.gateway_log
        self.injected = traffic.injected
        self.rate_limited = traffic.rate_limited
        self.wait_for = traffic.wait_for

        # Fault injection.
        self.fault_rules = faults.rules
        self.fail_requests = faults.fail_requests
        self.clear_faults = faults.clear_faults

        # The gateway.
        self.wait_until_ready = gateway.wait_until_ready
        self.dispatch = gateway.dispatch
        self.force_reconnect = gateway.force_reconnect

        # Commands, interactions and what people do.
        self.commands = commands.commands
        self.wait_for_commands = commands.wait_for_commands
        self.add_command = commands.add
        self.interactions = interactions.results
        self.slash = actions.slash
        self.autocomplete = actions.autocomplete
        self.user_command = actions.user_command
        self.message_command = actions.message_command
        self.click = actions.click
        self.submit_modal = actions.submit_modal
        self.send_user_message = actions.send_user_message

        # Messages and mentions.
        self.message_requests = store.message_requests
        self.message = store.message
        self.messages_in = store.messages_in
        self.last_message = store.last_message
        self.wait_for_message = store.wait_for_message
        self.visible_messages = store.visible_messages
        self.would_ping = store.would_ping

        for name in guilds:
            self.add_guild(name)

    # ----- lifecycle -------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(middlewares=[self._gate.handle], client_max_size=64 * 1024 * 1024)
        self._routes.add_to(app)
        await self._listener.start(app)
        return self

    async def stop(self) -> None:
        """Close gateway sockets (code 1001, so a still-running client gives up) and the server."""
        await self._gateway.close()
        await self._listener.stop()

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def token(self) -> str:
        return self._token

    @property
    def port(self) -> int:
        return self._listener.port

    @property
    def base_url(self) -> str:
        return self._listener.base_url

    @property
    def http_base(self) -> str:
        return self._listener.http_base

    @property
    def gateway_url(self) -> str:
        return self._listener.gateway_url

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py (this process) at the fake; restores the originals afterwards."""
        import discord.gateway
        import discord.http
        import yarl

        old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.http_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield
        finally:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old

    # ----- what a test may tune --------------------------------------------------------------

    @property
    def rate_limits(self) -> RateLimits:
        """The rate limits applied to every request (change their numbers, or ``enabled``)."""
        return self._gate.rate_limits

    @property
    def interaction_deadline(self) -> float | None:
        return self._interactions.rules.interaction_deadline

    @interaction_deadline.setter
    def interaction_deadline(self, seconds: float | None) -> None:
        self._interactions.rules.interaction_deadline = seconds

    @property
    def interaction_token_lifetime(self) -> float:
        return self._interactions.rules.interaction_token_lifetime

    @interaction_token_lifetime.setter
    def interaction_token_lifetime(self, seconds: float) -> None:
        self._interactions.rules.interaction_token_lifetime = seconds

    @property
    def launch_activity(self) -> Callable[[int, int], str] | None:
        return self._interactions.rules.launch_activity

    @launch_activity.setter
    def launch_activity(self, launch: Callable[[int, int], str] | None) -> None:
        self._interactions.rules.launch_activity = launch

    @property
    def app_integration_types(self) -> set[int]:
        """The installation contexts the app supports (0 GUILD_INSTALL, 1 USER_INSTALL; both
        by default): what a global command gets when it names none, and all it may name."""
        return self._world.app_integration_types

    @app_integration_types.setter
    def app_integration_types(self, types: set[int]) -> None:
        self._world.app_integration_types = set(types)

    @property
    def interaction_routing(self) -> str:
        return self._gateway.interaction_routing

    @interaction_routing.setter
    def interaction_routing(self, routing: str) -> None:
        self._gateway.interaction_routing = routing

    @property
    def heartbeat_interval_ms(self) -> int:
        return self._gateway.heartbeat_interval_ms

    @heartbeat_interval_ms.setter
    def heartbeat_interval_ms(self, interval: int) -> None:
        self._gateway.heartbeat_interval_ms = interval

    @property
    def bot_permissions(self) -> int:
        return self._setup.bot_permissions

    @property
    def everyone_permissions(self) -> int:
        return self._setup.everyone_permissions

    # ----- reading the world and the gateway -------------------------------------------------

    @property
    def guild(self) -> FakeGuild:
        """The first guild (most tests need just one)."""
        return self._world.guild

    def permissions_for(self, user: FakeUser | FakeMember | int, channel: FakeChannel) -> int:
        """Discord's permission algorithm: roles, administrator, then channel overwrites."""
        return permissions_for(self._world, user, channel)

    def snowflake(self) -> int:
        """A new id, as Discord makes them (for things a test makes beside the fake, such as
        an Activity's launch in ``fake_oauth``)."""
        return self._world.ids.next()

    @property
    def sessions(self) -> list[GatewaySession]:
        """The live gateway sessions."""
        return self._gateway.sessions

    @property
    def ready_count(self) -> int:
        return self._gateway.ready_count

    @property
    def identify_count(self) -> int:
        return self._gateway.identify_count

    # ----- judging the bot -------------------------------------------------------------------

    def assert_clean(self) -> None:
        """Fail if the bot hit unknown routes, got 4xx answers, or the fake itself crashed."""
        problems = []
        if self.unknown_routes:
            problems.append("unknown routes: " + "; ".join(map(str, self.unknown_routes)))
        if self.errors:
            problems.append("error answers: " + "; ".join(map(str, self.errors)))
        if self.server_errors:
            problems.append("fake server errors: " + "; ".join(map(str, self.server_errors)))
        late = [r.id for r in self.interactions if r.late]
        if late:
            problems.append(f"late interaction responses: {late}")
        if problems:
            raise AssertionError("\n".join(problems))
