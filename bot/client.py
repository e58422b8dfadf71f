"""The Bot subclass and the one error handler: what a player sees when anything fails.

The bot opens nothing itself; its dependencies are made in ``main`` and passed in.
``setup_hook`` loads the cog, registers the restart-proof buttons and syncs the commands
(to DEV_GUILD_ID when set, which is instant; otherwise globally), retrying what is
transient; a sync Discord refuses, or never takes, raises :class:`CommandSyncError`, which
ends the process with one line saying why (a bot without commands is no use to anyone).

:func:`explain` is the only place that maps an error to the player's answer. discord.py
calls it through :meth:`GammonTree.on_error` for command errors (bad options, failed
checks, anything a handler raises); the cog's guard and the buttons hand their errors to the
same ``tree.on_error`` themselves. Errors are always private.

May import: discord, :mod:`bot.config`, :mod:`bot.core.errors`, :mod:`bot.core.session`, ``cogs``,
:mod:`renderers` (warm-up). Nothing imports this module but ``bot.__main__`` (and tests).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import present
from bot.config import Settings
from bot.core.errors import StoreUnavailableError, UserError
from bot.i18n import Text, say
from bot.present import notices
from bot.present.notices import NO_DMS, NOT_HERE, SAVED_TEXT, SORRY_TEXT
from bot.services import Services
from bot.workers import quiet_collector
from cogs.kit import Kit
from cogs.publishing import Publisher
from cogs.replies import Reply, safe_name
from cogs.translator import CommandTranslator
from renderers import warm_up
from renderers.standings_warm import warm_up as warm_up_standings

log = logging.getLogger(__name__)

# The cogs, each an extension loaded on its own (a failure is logged and the rest still run).
EXTENSIONS = (
    "cogs.backgammon",
    "cogs.tournament",
    "cogs.ladder",
    "cogs.puzzle",
    "cogs.chouette",
)

# Guilds is all the bot needs: commands, buttons and autocomplete arrive as interactions,
# which carry the users and members they mention.
INTENTS = discord.Intents.none()
INTENTS.guilds = True

# What the invite URL asks for (README, "Connecting it to Discord"; tests/test_install.py
# checks its number): to see its channels and post boards (files) and embeds (stats, help)
# there and in the game threads it opens. cogs/publishing.py checks the two thread
# permissions before opening a thread. No Read Message History: every input arrives as an
# interaction, and the bot edits and archives only its own messages and threads.
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
)

# The bot never joins voice: no start-up warnings about voice libraries it does not need.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


SORRY, SAVED = str(SORRY_TEXT), str(SAVED_TEXT)  # the English words, for logs and tests

# Errors whose message is meant for the player: a refused action, a bad option, a check.
PLAYER_ERRORS = (UserError, app_commands.TransformerError, app_commands.CheckFailure)

Interaction = discord.Interaction[Any]


async def explain(interaction: Interaction, error: BaseException) -> None:
    """Answer a failed interaction privately: the one place deciding what the player sees.

    A player's mistake (:class:`~bot.core.errors.UserError`, a bad option, a failed check) shows
    its own message and changed nothing; so does a database that cannot be reached
    (:class:`~bot.core.errors.StoreUnavailableError`, which says whether the action may have
    been stored), unless the action was stored before it went. Anything else is a bug:
    logged, and answered with an apology, or, when the action was already stored (the
    Reply's ``committed`` flag), with a note that it was saved and how to see the game.
    """
    original = getattr(error, "original", error)  # CommandInvokeError wraps the real one
    reply = Reply.of(interaction)
    language = interaction.locale  # errors are private: the reader's own language
    if isinstance(original, StoreUnavailableError) and reply.committed:
        # The database went away after the action was stored (publishing it read the
        # server's settings): "nothing changed" would be false.
        log.warning("could not post the result of %s: %s", _describe(interaction), original)
        await reply.error(say(SAVED_TEXT, language))
    elif isinstance(original, PLAYER_ERRORS):
        await reply.error(say(_player_words(original), language))
    elif reply.committed:
        log.error("could not post the result of %s", _describe(interaction), exc_info=original)
        await reply.error(say(SAVED_TEXT, language))
    else:
        log.error("unexpected error in %s", _describe(interaction), exc_info=original)
        await reply.error(say(SORRY_TEXT, language))


def _player_words(error: BaseException) -> Text | str:
    """What a player's mistake says: the session's words, or ours for discord.py's checks."""
    if isinstance(error, UserError):
        return present.refusal(error, display=safe_name)
    if isinstance(error, app_commands.NoPrivateMessage):
        return NO_DMS
    if isinstance(error, app_commands.TransformerError):
        value = discord.utils.escape_markdown(str(error.value))[:100]
        return notices.invalid_option(value)
    if isinstance(error, app_commands.CheckFailure):
        return NOT_HERE
    return str(error)


def _describe(interaction: Interaction) -> str:
    command = interaction.command.qualified_name if interaction.command else "component"
    return f"{command} (channel {interaction.channel_id}, user {interaction.user.id})"


# Pauses between tries of the command sync at start-up (discord.py already retries a 500
# itself, for 16 s): 5 tries over 15 s more, then the process stops and says why.
SYNC_PAUSES = (1.0, 2.0, 4.0, 8.0)
TRANSIENT = (aiohttp.ClientError, OSError, TimeoutError)


PRIMARY_ENTRY_POINT = 4  # the application command type of an Activity's "Launch" command
# What a bulk overwrite may carry of a command (ApplicationCommandUpdateRequest).
ENTRY_POINT_FIELDS = frozenset(
    {
        "id",
        "type",
        "name",
        "name_localizations",
        "description",
        "description_localizations",
        "contexts",
        "integration_types",
        "handler",
        "default_member_permissions",
    }
)


class CommandSyncError(Exception):
    """The commands could not be registered: the bot must not run without them."""


def _sync_reason(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return str(exc).replace("\n", "; ")  # "400 Bad Request (error code: 50035): ..."
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


class GammonTree(app_commands.CommandTree[Any]):
    """The command tree, with :func:`explain` as its one error handler."""

    async def on_error(
        self, interaction: Interaction, error: app_commands.AppCommandError | Exception, /
    ) -> None:
        await explain(interaction, error)


def point_discord_at(settings: Settings) -> None:
    """Send REST calls and the gateway connection to another host (a proxy or a fake)."""
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


class GammonBot(commands.Bot):
    def __init__(self, settings: Settings, services: Services) -> None:
        sharding: dict[str, Any] = {}
        if isinstance(self, commands.AutoShardedBot):
            sharding = {"shard_count": settings.shard_count, "shard_ids": settings.shard_ids}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            tree_cls=GammonTree,
            # Nobody is pinged unless a message names the users it pings.
            allowed_mentions=discord.AllowedMentions.none(),
            **sharding,
        )
        self.settings = settings
        self.services = services
        self.kit: Kit | None = None  # the front-end kit, made in setup_hook
        self.synced = asyncio.Event()
        self.logged_in = asyncio.Event()  # Discord took the token: setup_hook has begun

    async def setup_hook(self) -> None:
        self.logged_in.set()
        if self.kit is None:
            # Loaded before the bot syncs its commands: the names go out translated.
            await self.tree.set_translator(CommandTranslator())
            publisher = Publisher(self, self.services, game_reviews=self.settings.game_reviews)
            self.kit = Kit(self, self.services, publisher)
            publisher.start_reminders()
            for extension in EXTENSIONS:
                try:
                    await self.load_extension(extension)
                except commands.ExtensionError:
                    # One feature's failure is that feature's: the others still run.
                    log.exception("could not load %s; the bot runs without it", extension)
            if self.services.workers.in_process:
                # Fonts, sprites and palettes take ~0.3 s the first time; pay it before any
                # player (worker processes warm themselves when they start).
                await asyncio.to_thread(warm_up)
            # The competition pictures are drawn in this process: their fonts, palettes,
            # medals and figure tiles now, not on the first table after a start.
            await asyncio.to_thread(warm_up_standings)
            quiet_collector()
        # A retried login runs the hook again: the cogs are there, but a sync that failed
        # must still happen (never run on with no commands).
        if not self.synced.is_set():
            await self.sync_commands()
            self.synced.set()

    async def sync_commands(self) -> None:
        """Register the command tree with Discord, or raise :class:`CommandSyncError`.

        What is transient (a 5xx, a rate limit, Discord unreachable) is tried again after
        :data:`SYNC_PAUSES`; a refusal (a 4xx such as 50035 Invalid Form Body) is not, as the
        same commands would be refused again. Either way the caller learns of it: a bot
        without its commands must not start quietly.
        """
        if not self.settings.syncs_commands:
            # Several shard processes: the one running shard 0 registers the commands (they
            # belong to the application, not to a shard); the others would only race it.
            log.info("commands are synced by the process running shard 0")
            return
        guild: discord.Object | None = None
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
        where = f"guild {guild.id}" if guild else "globally"
        for attempt, pause in enumerate((*SYNC_PAUSES, None), start=1):
            try:
                commands_ = await self._sync(guild)
            except (discord.DiscordServerError, discord.RateLimited, *TRANSIENT) as exc:
                reason = _sync_reason(exc)
                if pause is None:
                    raise CommandSyncError(
                        f"Discord did not take the commands after {attempt} tries: {reason}"
                    ) from exc
                log.warning("syncing commands failed (%s); retrying in %.0f s", reason, pause)
                await asyncio.sleep(pause)
            except discord.HTTPException as exc:
                raise CommandSyncError(
                    f"Discord refused the commands: {_sync_reason(exc)}"
                ) from exc
            else:
                log.info("synced %d commands %s", len(commands_), where)
                return

    async def _sync(self, guild: discord.Object | None) -> list[Any]:
        """``tree.sync``, except that a global sync keeps the Entry Point command.

        Discord creates an Entry Point command (type 4, "Launch") when the app's Activity is
        enabled and refuses a bulk overwrite that leaves it out (50240); discord.py's tree
        knows only types 1-3. So a global sync sends the tree's commands plus the Entry
        Point command as Discord holds it (same id, name and handler).
        """
        if guild is not None or self.application_id is None:
            return await self.tree.sync(guild=guild)
        held = await self.http.get_global_commands(self.application_id)
        entries = [
            {key: value for key, value in command.items() if key in ENTRY_POINT_FIELDS}
            for command in held
            if command.get("type") == PRIMARY_ENTRY_POINT
        ]
        if not entries:
            return await self.tree.sync()
        tree = self.tree
        commands = tree._get_all_commands(guild=None)  # what tree.sync sends, translated
        translator = tree.translator
        payload: list[Any] = [
            await command.get_translated_payload(tree, translator)
            if translator
            else command.to_dict(tree)
            for command in commands
        ]
        data = await self.http.bulk_upsert_global_commands(
            self.application_id, payload=payload + entries
        )
        return list(data)

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, self.user.id if self.user else "?")
        if self.kit is not None:
            # Channels are known now: finish and post computer turns a crash left open,
            # then the game reviews still owed.
            publisher = self.kit.publisher
            try:
                await publisher.resume_computer_turns()
            except Exception:
                log.exception("could not resume the computer's turns")
            finally:
                await publisher.resume_reviews()

    async def drain(self, timeout: float = 4.0) -> None:
        """Stop taking new actions and wait for the ones in flight (every cog's: they all run
        in the kit's guard), then for the news they left to tell."""
        if self.kit is None:
            return
        if not await self.kit.drain(timeout):
            log.warning("shutting down with %d action(s) still running", self.kit.in_flight)
        try:
            await asyncio.wait_for(self.services.facts.settled(), timeout)
        except TimeoutError:
            log.warning("shutting down with news still being told")

    async def close(self) -> None:
        if self.kit is not None:
            publisher = self.kit.publisher
            publisher.stop_listening()
            publisher.stop_reminders()
            publisher.stop_reviews()
        await super().close()


class ShardedGammonBot(GammonBot, commands.AutoShardedBot):
    """The bot as one of several processes: it runs SHARD_IDS of SHARD_COUNT gateway shards.

    Discord sends each server's events and interactions to the shard ``(guild_id >> 22) %
    SHARD_COUNT``; the processes share one PostgreSQL, whose per-channel lock keeps their
    actions in a channel one at a time.
    """


def make_bot(settings: Settings, services: Services) -> GammonBot:
    """The bot for these settings: sharded when SHARD_COUNT is set, else one plain client."""
    if settings.shard_count is None:
        return GammonBot(settings, services)
    return ShardedGammonBot(settings, services)
