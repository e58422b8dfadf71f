"""WEB_URL switches the web board on; the Activity needs the app's client id and secret."""

from __future__ import annotations

import pytest

from bot.config import Settings, SettingsError
from bot.web import web_server
from bot.web.discord_api import LoginGate


def test_the_web_board_is_off_without_web_url() -> None:
    settings = Settings.from_env({}, env_file=None)
    assert settings.web_url is None and not settings.activity


def test_web_url_is_checked_and_the_activity_needs_its_client() -> None:
    env = {"WEB_URL": "https://gammon.example/", "WEB_PORT": "9000"}
    settings = Settings.from_env(env, env_file=None)
    assert settings.web_url == "https://gammon.example" and settings.web_port == 9000
    assert not settings.activity
    full = Settings.from_env(
        {**env, "DISCORD_CLIENT_ID": "123", "DISCORD_CLIENT_SECRET": "s3cret"}, env_file=None
    )
    assert full.activity and "s3cret" not in repr(full)
    with pytest.raises(SettingsError):
        Settings.from_env({"WEB_URL": "gammon.example"}, env_file=None)


def test_no_server_is_built_when_off() -> None:
    assert web_server(Settings(), object()) is None  # type: ignore[arg-type]


def test_the_login_gate_limits_each_address_and_all_and_pauses() -> None:
    now = [0.0]
    gate = LoginGate(per_address=2, overall=3, window=60, clock=lambda: now[0])
    assert [gate.admit("a"), gate.admit("a"), gate.admit("a")] == [True, True, False]
    assert gate.admit("b") and not gate.admit("c")  # three in all this minute
    now[0] = 61
    assert gate.admit("a")
    gate.pause(30)
    assert not gate.admit("d")
    now[0] = 92
    assert gate.admit("d")
