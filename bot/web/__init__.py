"""The web board and the Discord Activity, served from inside the bot's process.

Off unless ``WEB_URL`` is set. :func:`start_web` builds the server from the settings and the
services; :mod:`bot.web.app` holds the routes, :mod:`bot.web.hub` feeds live boards from the
session's facts, :mod:`bot.web.activity` plays taps through the session,
:mod:`bot.web.discord_api` proves an Activity's player with Discord. No discord.py import:
the server talks to Discord's HTTP API for the Activity login only.

The browser client's sources are in the repository's ``web/`` folder; its built files are
committed in ``bot/web/static/`` so the bot needs no node to run.
"""

from __future__ import annotations

from bot.config import Settings
from bot.services import Services
from bot.storage import database_of, is_postgres_url
from bot.web.app import WebConfig, WebServer
from bot.web.directory import DiscordDirectory, WebReaders
from bot.web.discord_api import DiscordOAuth


def web_server(
    settings: Settings, services: Services, *, origin: str = "", activity: bool = True
) -> WebServer | None:
    """The web server these settings ask for (None when ``WEB_URL`` is not set).

    With the app's OAuth2 client (``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET``) and
    the bot token, visitors can sign in with Discord, and the Activity's login works
    (only with ``activity``: a web-only process has no Discord connection to post the
    Activity's boards with). With the bot token, who may see a match is asked of Discord
    (:mod:`bot.web.directory`); without it only shared replays open. On PostgreSQL it also
    hears the changes made in the other processes (:mod:`bot.relay`; ``origin`` names this
    process's own notifications, which it hears on its bus)."""
    if settings.web_url is None:
        return None
    oauth = None
    if settings.activity and settings.token is not None:
        assert settings.client_id is not None and settings.client_secret is not None
        oauth = DiscordOAuth(
            client_id=settings.client_id,
            client_secret=settings.client_secret,
            bot_token=settings.token,
            api_base=settings.api_base,
        )
    readers = None
    if settings.token is not None:
        readers = WebReaders(DiscordDirectory(bot_token=settings.token, api_base=settings.api_base))
    config = WebConfig(
        url=settings.web_url,
        host=settings.web_host,
        port=settings.web_port,
        leaderboard_min_matches=settings.leaderboard_min_matches,
        trusted_proxies=settings.web_trusted_proxies,
    )
    database = str(database_of(settings))
    listen_url = database if is_postgres_url(database) else None
    return WebServer(
        services,
        config,
        oauth=oauth,
        readers=readers,
        activity=activity,
        listen_url=listen_url,
        origin=origin,
    )


__all__ = ["WebConfig", "WebServer", "web_server"]
