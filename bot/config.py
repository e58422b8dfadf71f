"""Settings: the only reader of the environment and the ``.env`` file.

Environment variables win over ``.env``; ``.env`` is read from the working directory. A bad
value raises :class:`SettingsError` with one line the operator can act on. The token is never
put in a message, a log line or ``repr``.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypedDict

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

TOKEN_HELP = (
    "Create a bot at https://discord.com/developers/applications (Bot > Reset Token), "
    "put DISCORD_TOKEN=<token> in .env (see .env.example), or try the game offline "
    "with: python -m bot play"
)
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}$")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class SettingsError(Exception):
    """A missing or invalid setting; the message is one line meant for the operator."""


class Shards(TypedDict, total=False):
    """The sharding fields of :class:`Settings` that SHARD_COUNT and SHARD_IDS set."""

    shard_count: int
    shard_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None = field(default=None, repr=False)
    dev_guild_id: int | None = None
    database_path: Path = Path("data/gammon.db")
    # PostgreSQL instead of the SQLite file (None: SQLite). May hold a password: kept out of
    # repr, and messages name it without one.
    database_url: str | None = field(default=None, repr=False)
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    challenge_timeout_minutes: float = 15.0
    inactivity_timeout_minutes: float = 60.0
    leaderboard_min_matches: int = 1
    pr_min_decisions: int = 100  # counted decisions a player needs on the PR ladder
    game_reviews: bool = True  # post each finished game's PR and luck
    workers: int | None = None  # processes drawing boards and thinking (None: cores - 1)
    # Sharding: how many gateway shards the bot has in all, and which this process runs
    # (None: one process, no sharding). The process running shard 0 syncs the commands.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # The web board and the Activity (off while web_url is None): the public base URL that
    # links point at, and the address the server listens on.
    web_url: str | None = None
    web_host: str = "127.0.0.1"
    web_port: int = 8080
    # Proxies whose X-Forwarded-For is believed (a TLS proxy in front of the web board):
    # from anyone else the header is ignored, since anyone can write it.
    web_trusted_proxies: tuple[Network, ...] = ()
    # The Activity's OAuth2 code exchange (Discord's client id and secret of the app).
    client_id: int | None = None
    client_secret: str | None = field(default=None, repr=False)

    @property
    def activity(self) -> bool:
        """The Activity's login needs the web server and the app's OAuth2 client."""
        return self.web_url is not None and self.client_id is not None and bool(self.client_secret)

    @property
    def syncs_commands(self) -> bool:
        """Only one process registers the application commands: the one with shard 0."""
        return self.shard_ids is None or 0 in self.shard_ids

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env"
    ) -> Settings:
        """Read settings from ``.env`` and the environment (the environment wins)."""
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            values.update(read_env_file(Path(env_file)))
        values.update(os.environ if environ is None else environ)

        def get(key: str) -> str | None:
            value = values.get(key, "").strip()
            return value or None

        shards = _shards(get("SHARD_COUNT"), get("SHARD_IDS"))
        ids, count = shards.get("shard_ids"), shards.get("shard_count")
        partial = isinstance(ids, tuple) and isinstance(count, int) and len(ids) < count
        if partial and get("DATABASE_URL") is None:
            # Each process would keep its own SQLite file: games in one shard's servers would
            # be invisible to the process that takes them over, and nothing would serialise
            # a channel's actions across processes.
            raise SettingsError(
                "SHARD_IDS runs only some of the shards, so the other processes must share "
                "the games: set DATABASE_URL to one PostgreSQL for all of them"
            )
        return cls(
            token=get("DISCORD_TOKEN"),
            dev_guild_id=_int(get("DEV_GUILD_ID"), "DEV_GUILD_ID", minimum=1),
            database_path=Path(get("DATABASE_PATH") or "data/gammon.db"),
            database_url=_database_url(get("DATABASE_URL")),
            log_level=_log_level(get("LOG_LEVEL") or "INFO"),
            api_base=_url(get("DISCORD_API_BASE"), "DISCORD_API_BASE", ("http", "https")),
            gateway_url=_url(get("DISCORD_GATEWAY_URL"), "DISCORD_GATEWAY_URL", ("ws", "wss")),
            challenge_timeout_minutes=_minutes(
                get("CHALLENGE_TIMEOUT_MINUTES"), "CHALLENGE_TIMEOUT_MINUTES", 15.0
            ),
            inactivity_timeout_minutes=_minutes(
                get("INACTIVITY_TIMEOUT_MINUTES"), "INACTIVITY_TIMEOUT_MINUTES", 60.0
            ),
            leaderboard_min_matches=_int(
                get("LEADERBOARD_MIN_MATCHES"), "LEADERBOARD_MIN_MATCHES", minimum=1
            )
            or 1,
            pr_min_decisions=_int(get("PR_MIN_DECISIONS"), "PR_MIN_DECISIONS", minimum=1) or 100,
            game_reviews=_bool(get("GAME_REVIEWS"), "GAME_REVIEWS", True),
            workers=_int(get("WORKERS"), "WORKERS", minimum=0),
            **shards,
            web_url=_url(get("WEB_URL"), "WEB_URL", ("http", "https")),
            web_host=get("WEB_HOST") or "127.0.0.1",
            web_port=_int(get("WEB_PORT"), "WEB_PORT", minimum=1) or 8080,
            web_trusted_proxies=_networks(get("WEB_TRUSTED_PROXIES"), "WEB_TRUSTED_PROXIES"),
            client_id=_int(get("DISCORD_CLIENT_ID"), "DISCORD_CLIENT_ID", minimum=1),
            client_secret=get("DISCORD_CLIENT_SECRET"),
        )

    def require_token(self) -> str:
        """The bot token, or a :class:`SettingsError` that says how to get one."""
        if self.token is None:
            raise SettingsError(f"DISCORD_TOKEN is not set. {TOKEN_HELP}")
        if not _TOKEN_RE.match(self.token):
            raise SettingsError(
                "DISCORD_TOKEN does not look like a bot token (three dot-separated parts). "
                + TOKEN_HELP
            )
        return self.token


def read_env_file(path: Path) -> dict[str, str]:
    """Parse ``KEY=value`` lines; ``#`` comments, ``export`` and quotes are allowed."""
    values: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].strip()
        key, sep, value = line.partition("=")
        if not sep or not key.strip().isidentifier():
            raise SettingsError(f"{path}:{number}: expected KEY=value")
        values[key.strip()] = _env_value(value.strip(), f"{path}:{number}")
    return values


def _env_value(text: str, where: str) -> str:
    """One value of a ``.env`` line, as python-dotenv reads it.

    A quoted value ends at its closing quote (a ``#`` inside is kept, a comment may follow);
    an unquoted value ends at `` #``, so ``A="abc" # note`` and ``A=abc # note`` both give
    ``abc``.
    """
    if text[:1] in ("'", '"'):
        quote = text[0]
        closing = text.find(quote, 1)
        rest = text[closing + 1 :].strip() if closing > 0 else ""
        if closing < 0 or (rest and not rest.startswith("#")):
            raise SettingsError(f"{where}: unbalanced quote {quote} in the value")
        return text[1:closing]
    return text.split(" #", 1)[0].rstrip()


def _int(value: str | None, key: str, *, minimum: int) -> int | None:
    if value is None:
        return None
    try:
        number = int(value)
    except ValueError:
        raise SettingsError(f"{key} must be a whole number, not {value!r}") from None
    if number < minimum:
        raise SettingsError(f"{key} must be at least {minimum}, not {number}")
    return number


def _minutes(value: str | None, key: str, default: float) -> float:
    if value is None:
        return default
    try:
        minutes = float(value)
    except ValueError:
        raise SettingsError(f"{key} must be a number of minutes, not {value!r}") from None
    if not 0 < minutes <= 60 * 24 * 30:
        raise SettingsError(f"{key} must be between 0 and 43200 minutes, not {value}")
    return minutes


def _bool(value: str | None, key: str, default: bool) -> bool:
    if value is None:
        return default
    text = value.lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise SettingsError(f"{key} must be on or off, not {value!r}")


def _log_level(value: str) -> str:
    level = value.upper()
    if level not in LOG_LEVELS:
        raise SettingsError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {value!r}")
    return level


def _shards(count_text: str | None, ids_text: str | None) -> Shards:
    """``SHARD_COUNT`` and ``SHARD_IDS`` (``0-3``, ``0,2``; empty: every shard)."""
    count = _int(count_text, "SHARD_COUNT", minimum=1)
    if count is None:
        if ids_text is not None:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (how many shards in all)")
        return Shards()
    if ids_text is None:
        return Shards(shard_count=count, shard_ids=tuple(range(count)))
    ids: set[int] = set()
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise SettingsError(
                f"SHARD_IDS must list shard numbers like 0-3 or 0,2, not {ids_text!r}"
            ) from None
        if low > high or low < 0 or high >= count:
            raise SettingsError(
                f"SHARD_IDS must be shards 0 to {count - 1} of SHARD_COUNT={count}, "
                f"not {part.strip()!r}"
            )
        ids.update(range(low, high + 1))
    return Shards(shard_count=count, shard_ids=tuple(sorted(ids)))


def _database_url(value: str | None) -> str | None:
    if value is None:
        return None
    if not value.startswith(("postgresql://", "postgres://")):
        scheme = value.partition("://")[0] if "://" in value else value[:20]
        raise SettingsError(
            f"DATABASE_URL must be a postgresql:// URL (or empty for SQLite), not {scheme!r}..."
        )
    return value


def _networks(value: str | None, key: str) -> tuple[Network, ...]:
    """Addresses or networks separated by commas (``127.0.0.1, 10.0.0.0/8``)."""
    if value is None:
        return ()
    try:
        parts = [part.strip() for part in value.split(",")]
        return tuple(ipaddress.ip_network(part, strict=False) for part in parts if part)
    except ValueError:
        raise SettingsError(
            f"{key} must be IP addresses or networks separated by commas, not {value!r}"
        ) from None


def _url(value: str | None, key: str, schemes: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    scheme, sep, rest = value.partition("://")
    if not sep or scheme not in schemes or not rest:
        raise SettingsError(f"{key} must be a {' or '.join(schemes)} URL, not {value!r}")
    return value.rstrip("/")
