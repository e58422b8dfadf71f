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
from bot.web.app import WebConfig, WebServer
from bot.web.discord_api import DiscordOAuth


def web_server(settings: Settings, services: Services) -> WebServer | None:
    """The web server these settings ask for (None when ``WEB_URL`` is not set); the
    Activity's login only when the app's client id and secret are set too."""
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
    config = WebConfig(
        url=settings.web_url,
        host=settings.web_host,
        port=settings.web_port,
        leaderboard_min_matches=settings.leaderboard_min_matches,
    )
    return WebServer(services, config, oauth=oauth)


__all__ = ["WebConfig", "WebServer", "web_server"]
