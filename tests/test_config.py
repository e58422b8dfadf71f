"""Settings come from the environment and .env, and bad values give one actionable line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import Settings, SettingsError, read_env_file

GOOD_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345"


def test_defaults_without_any_setting(tmp_path: Path) -> None:
    settings = Settings.from_env({}, env_file=tmp_path / "missing.env")
    assert settings.token is None
    assert settings.database_path == Path("data/gammon.db")
    assert settings.log_level == "INFO"
    assert settings.challenge_timeout_minutes == 15.0
    assert settings.inactivity_timeout_minutes == 60.0
    assert settings.dev_guild_id is None


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text(
        "# comment\nexport DISCORD_TOKEN='from-file'\nDEV_GUILD_ID=42\n"
        'DATABASE_PATH="x/y.db"\nLOG_LEVEL=debug # trailing comment\n',
        encoding="utf-8",
    )
    settings = Settings.from_env({"DEV_GUILD_ID": "7"}, env_file=env)
    assert settings.token == "from-file"
    assert settings.dev_guild_id == 7
    assert settings.database_path == Path("x/y.db")
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(
    ("key", "value", "fragment"),
    [
        ("DEV_GUILD_ID", "abc", "DEV_GUILD_ID must be a whole number"),
        ("LOG_LEVEL", "loud", "LOG_LEVEL must be one of"),
        ("CHALLENGE_TIMEOUT_MINUTES", "-3", "CHALLENGE_TIMEOUT_MINUTES must be between"),
        ("INACTIVITY_TIMEOUT_MINUTES", "soon", "must be a number of minutes"),
        ("DISCORD_API_BASE", "ftp://x", "DISCORD_API_BASE must be a http or https URL"),
        ("DISCORD_GATEWAY_URL", "http://x", "DISCORD_GATEWAY_URL must be a ws or wss URL"),
    ],
)
def test_invalid_values_name_the_key(key: str, value: str, fragment: str, tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match=fragment):
        Settings.from_env({key: value}, env_file=tmp_path / "none")


def test_missing_token_says_where_to_get_one(tmp_path: Path) -> None:
    settings = Settings.from_env({}, env_file=tmp_path / "none")
    with pytest.raises(SettingsError) as info:
        settings.require_token()
    message = str(info.value)
    assert "discord.com/developers/applications" in message
    assert ".env" in message
    assert "python -m bot play" in message
    assert "\n" not in message


def test_malformed_token_is_refused_without_echoing_it(tmp_path: Path) -> None:
    secret = "not-a-token-but-secret-ish"
    settings = Settings.from_env({"DISCORD_TOKEN": secret}, env_file=tmp_path / "none")
    with pytest.raises(SettingsError) as info:
        settings.require_token()
    assert secret not in str(info.value)
    assert secret not in repr(settings)


def test_well_formed_token_is_accepted(tmp_path: Path) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": GOOD_TOKEN}, env_file=tmp_path / "none")
    assert settings.require_token() == GOOD_TOKEN
    assert GOOD_TOKEN not in repr(settings)


def test_env_file_syntax_error_names_the_line(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("GOOD=1\nthis is not a setting\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"\.env:2: expected KEY=value"):
        read_env_file(env)


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ('A="abc" # note', "abc"),
        ("A='a b' # note", "a b"),
        ('A="x # not a comment"', "x # not a comment"),
        ("A=abc # note", "abc"),
        ("A=abc#kept", "abc#kept"),
        ('export A="quoted"', "quoted"),
        ("A=", ""),
    ],
)
def test_env_file_values_read_as_dotenv_does(tmp_path: Path, line: str, value: str) -> None:
    env = tmp_path / ".env"
    env.write_text(f"# settings\n{line}\n", encoding="utf-8")
    assert read_env_file(env) == {"A": value}


@pytest.mark.parametrize("line", ['A="abc', 'A="abc" trailing'])
def test_env_file_unbalanced_quote_names_the_line(tmp_path: Path, line: str) -> None:
    env = tmp_path / ".env"
    env.write_text(f"{line}\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"\.env:1: unbalanced quote"):
        read_env_file(env)


PG = {"DATABASE_URL": "postgresql://bot@db/gammon"}


@pytest.mark.parametrize(
    ("env", "count", "ids", "syncs"),
    [
        ({}, None, None, True),
        ({"SHARD_COUNT": "2"}, 2, (0, 1), True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-3"}, 4, (0, 1, 2, 3), True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "0-1", **PG}, 4, (0, 1), True),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "2-3", **PG}, 4, (2, 3), False),
        ({"SHARD_COUNT": "8", "SHARD_IDS": " 5, 1-2 ,2", **PG}, 8, (1, 2, 5), False),
    ],
)
def test_shards_name_the_process_share_and_only_shard_zero_syncs(
    env: dict[str, str], count: int | None, ids: tuple[int, ...] | None, syncs: bool, tmp_path: Path
) -> None:
    settings = Settings.from_env(env, env_file=tmp_path / "none")
    assert (settings.shard_count, settings.shard_ids, settings.syncs_commands) == (
        count,
        ids,
        syncs,
    )


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be at least 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "shards 0 to 1 of SHARD_COUNT=2, not '2'"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "3-1"}, "not '3-1'"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "a-b"}, "like 0-3 or 0,2"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "set DATABASE_URL to one PostgreSQL"),
    ],
)
def test_bad_shard_settings_name_the_key(
    env: dict[str, str], fragment: str, tmp_path: Path
) -> None:
    with pytest.raises(SettingsError, match=re.escape(fragment)):
        Settings.from_env(env, env_file=tmp_path / "none")


def test_a_database_url_chooses_postgresql_and_keeps_its_password_private(tmp_path: Path) -> None:
    url = "postgresql://gammon:s3cret@db:5432/gammon"
    settings = Settings.from_env({"DATABASE_URL": url}, env_file=tmp_path / "missing.env")
    assert settings.database_url == url
    assert "s3cret" not in repr(settings)
    assert Settings.from_env({}, env_file=tmp_path / "missing.env").database_url is None
    with pytest.raises(SettingsError, match="DATABASE_URL") as caught:
        Settings.from_env({"DATABASE_URL": "mysql://u:s3cret@h/db"}, env_file=None)
    assert "s3cret" not in str(caught.value)


def test_the_pr_ladder_ranks_from_a_number_of_decisions_one_may_set(tmp_path: Path) -> None:
    assert Settings.from_env({}, env_file=tmp_path / "none").pr_min_decisions == 100
    chosen = Settings.from_env({"PR_MIN_DECISIONS": "250"}, env_file=tmp_path / "none")
    assert chosen.pr_min_decisions == 250
    with pytest.raises(SettingsError, match="PR_MIN_DECISIONS"):
        Settings.from_env({"PR_MIN_DECISIONS": "0"}, env_file=tmp_path / "none")
