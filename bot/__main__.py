"""``python -m bot``: start the Discord bot; ``python -m bot play``: play in the terminal;
``python -m bot web``: the web board alone, beside the bot's processes on PostgreSQL.

Settings problems print one line and exit with status 2, never a traceback, and never the
token. SIGINT and SIGTERM finish the action in flight, close the database and exit.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Settings, SettingsError
from bot.core.errors import StoreOpenError
from bot.core.session import SessionSettings
from bot.i18n import LANGUAGES
from bot.relay import FactNotifier, new_origin
from bot.services import Services, build_services
from bot.storage import Storage, database_of, is_postgres_url, open_store
from bot.workers import WorkerError, Workers

if TYPE_CHECKING:
    from bot.client import GammonBot

log = logging.getLogger("bot")


def setup_logging(level: str) -> None:
    logging.basicConfig(
        level=level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        datefmt="%Y-%m-%d %H:%M:%S",
    )


def session_settings(settings: Settings) -> SessionSettings:
    return SessionSettings(
        challenge_timeout=settings.challenge_timeout_minutes * 60,
        inactivity_timeout=settings.inactivity_timeout_minutes * 60,
    )


LOGIN_ATTEMPTS = 4  # reaching Discord at start: tries, with a doubling pause between them
LOGIN_TIMEOUT = 10.0  # seconds for one try


class StartupError(Exception):
    """The bot cannot start; the message is the one line the operator reads."""


async def login(bot: GammonBot, token: str, api_base: str) -> None:
    """Log in, retrying what is transient: Discord unreachable, timing out or answering 5xx.

    discord.py already retries a few 5xx answers itself; this covers the connection level.
    A rejected token is not retried (``discord.LoginFailure`` goes to the caller).
    """
    import aiohttp
    import discord

    pause = 1.0
    for attempt in range(1, LOGIN_ATTEMPTS + 1):
        try:
            await _login_once(bot, token)
            return
        except discord.LoginFailure:
            raise
        except (aiohttp.ClientError, OSError, TimeoutError, discord.DiscordServerError) as exc:
            # Each try opens a new HTTP session: close this one (and its connector, which a
            # closed session cannot reuse), or it is left dangling at exit.
            await bot.http.close()
            bot.http.connector = discord.utils.MISSING
            reason = _reason(exc)
            if attempt == LOGIN_ATTEMPTS:
                raise StartupError(f"cannot reach Discord at {api_base}: {reason}") from exc
            log.info("Discord unreachable (%s); retrying in %.0f s", reason, pause)
            await asyncio.sleep(pause)
            pause *= 2


async def _login_once(bot: GammonBot, token: str) -> None:
    """One login; :data:`LOGIN_TIMEOUT` bounds reaching Discord, not the start-up after it.

    ``bot.login`` goes on to run ``setup_hook``, whose command sync has its own bounded
    retries (15 s): timing it here would cut them short and blame the wrong thing.
    """
    attempt = asyncio.create_task(bot.login(token), name="login-once")
    reached = asyncio.create_task(bot.logged_in.wait(), name="logged-in")
    try:
        done, _ = await asyncio.wait(
            {attempt, reached}, timeout=LOGIN_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if not done:
            raise TimeoutError
        await attempt
    finally:
        reached.cancel()
        if not attempt.done():
            attempt.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await attempt


def _reason(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return f"no answer within {LOGIN_TIMEOUT:.0f} s"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


async def run_bot(settings: Settings, token: str) -> int:
    """Run until Discord closes the connection or a signal asks us to stop.

    Any failure to start (the database, Discord) ends the process promptly with one line on
    stderr and a non-zero status; the database is closed on every path.
    """

    async def serve(store: Storage, workers: Workers) -> int:
        return await _serve(settings, token, store, workers)

    return await _with_store_and_workers(settings, serve)


async def _with_store_and_workers(
    settings: Settings, serve: Callable[[Storage, Workers], Awaitable[int]]
) -> int:
    """Open the database, start the workers and ``serve`` with them: the bot's and the web
    process's start alike. A failure to open or start either ends with one line on stderr
    and status 1, and both are closed on every path."""
    try:
        store = await open_store(settings)
    except StoreOpenError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 1
    workers = make_workers(settings)
    try:
        await workers.start()
        return await serve(store, workers)
    except WorkerError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 1
    finally:
        await workers.close()
        await store.close()
        log.info("database closed")


def make_workers(settings: Settings) -> Workers:
    """The processes that draw boards and think (WORKERS=0: this process, in threads)."""
    if settings.workers == 0:
        return Workers.inline()
    return Workers(settings.workers)


async def _serve(settings: Settings, token: str, store: Storage, workers: Workers) -> int:
    from bot.client import make_bot, point_discord_at
    from bot.web import web_server

    # SQLite still runs in a thread (and boards too with WORKERS=0); with CPython's default
    # 5 ms GIL switch interval the event loop waits behind them on every hand-off.
    sys.setswitchinterval(0.0005)
    point_discord_at(settings)
    services = build_services(store, settings=session_settings(settings), workers=workers)
    bot = make_bot(settings, services)
    origin = new_origin()
    notifier = await start_notifier(settings, services, origin)
    web = web_server(settings, services, origin=origin)  # None unless WEB_URL is set
    try:
        if web is not None:
            try:
                await web.start()
            except OSError as exc:
                print(f"gammon-bot: cannot serve the web board: {exc}", file=sys.stderr)
                return 1
        return await _connect(settings, token, bot)
    finally:
        if web is not None:
            await web.stop()
        if notifier is not None:
            await notifier.close()


async def start_notifier(
    settings: Settings, services: Services, origin: str
) -> FactNotifier | None:
    """On PostgreSQL, every stored change told to the other processes (their live boards
    follow this process's games); on SQLite (one process) nothing to tell."""
    database = str(database_of(settings))
    if not is_postgres_url(database):
        return None
    notifier = FactNotifier(database, origin)
    await notifier.start(services.facts)
    return notifier


async def run_web(settings: Settings) -> int:
    """``python -m bot web``: the web board alone, beside the bot's processes on the same
    PostgreSQL: its pages, and live boards that follow every process's games. No Discord
    connection, so no Activity here (it posts boards to the channel): serve the Activity
    from a bot process."""
    from bot.web import web_server

    if settings.web_url is None:
        print(
            "gammon-bot: python -m bot web needs WEB_URL (the board's public address)",
            file=sys.stderr,
        )
        return 2
    if not is_postgres_url(str(database_of(settings))):
        log.warning("the web process follows other processes only on PostgreSQL (DATABASE_URL)")
    if settings.activity:
        log.info("the Activity is served by the bot's processes, not by python -m bot web")

    async def serve(store: Storage, workers: Workers) -> int:
        services = build_services(store, settings=session_settings(settings), workers=workers)
        web = web_server(settings, services, activity=False)
        assert web is not None
        try:
            await web.start()
        except OSError as exc:
            print(f"gammon-bot: cannot serve the web board: {exc}", file=sys.stderr)
            return 1
        try:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, stop.set)
            await stop.wait()
        finally:
            await web.stop()
        return 0

    return await _with_store_and_workers(settings, serve)


async def _connect(settings: Settings, token: str, bot: GammonBot) -> int:
    import discord

    from bot.client import CommandSyncError

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    api_base = settings.api_base or "https://discord.com/api"
    try:
        async with bot:
            starting = asyncio.create_task(login(bot, token, api_base), name="login")
            stopper = asyncio.create_task(stop.wait(), name="stop")
            await asyncio.wait({starting, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if not starting.done():
                starting.cancel()
                return 0
            starting.result()
            runner = asyncio.create_task(bot.connect(), name="discord")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                stopper.cancel()
                runner.result()
            else:
                log.info("stopping: finishing the action in flight")
                await bot.drain()
                await bot.close()
                runner.cancel()
    except discord.LoginFailure:
        print(
            "gammon-bot: Discord rejected DISCORD_TOKEN: reset the token in the Developer "
            "Portal (Bot > Reset Token) and put the new one in .env.",
            file=sys.stderr,
        )
        return 2
    except StartupError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 1
    except CommandSyncError as exc:
        log.error("cannot start without commands: %s", exc)
        print(f"gammon-bot: cannot register the slash commands: {exc}", file=sys.stderr)
        return 1
    except discord.HTTPException as exc:
        print(f"gammon-bot: Discord refused the bot at start-up: {exc}", file=sys.stderr)
        return 1
    return 0


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="mode")
    sub.add_parser("run", help="start the Discord bot (the default)")
    sub.add_parser(
        "web",
        help="serve the web board alone, beside the bot's processes on the same PostgreSQL",
    )
    sub.add_parser(
        "verify", help="check a finished match's dice: python -m bot verify SECRET PUBLIC"
    )
    sub.add_parser("export", help="write a match for GNU Backgammon: python -m bot export MATCH")
    sub.add_parser("migrate", help="create or migrate the database and print its schema version")
    sub.add_parser("copy-db", help="copy a database to another: python -m bot copy-db SRC DEST")
    play = sub.add_parser("play", help="play a game in the terminal, no Discord needed")
    play.add_argument(
        "--names", default="Player 1,Player 2", help="the two players' names, comma-separated"
    )
    play.add_argument(
        "--length",
        type=int,
        default=0,
        help="0 for a money game (default) or a match to 1-25 points",
    )
    play.add_argument("--no-cube", action="store_true", help="play without the doubling cube")
    play.add_argument("--out", default="out", help="folder for the board PNGs (default: out)")
    play.add_argument(
        "--db",
        default=None,
        help="database file or postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)",
    )
    play.add_argument(
        "--dice", default=None, help="scripted dice, e.g. 3,1,6,5 (for demos and tests)"
    )
    play.add_argument(
        "--computer",
        nargs="?",
        const="expert",
        default=None,
        metavar="LEVEL",
        help="play the computer: beginner, intermediate, advanced, expert (default) or world-class",
    )
    play.add_argument(
        "--new", action="store_true", help="abandon a saved terminal game and start afresh"
    )
    play.add_argument(
        "--lang",
        choices=LANGUAGES,
        default="en",
        help="the language the terminal speaks: en (default) or fr",
    )
    return parser.parse_args(argv)


def export_command(argv: Sequence[str]) -> int:
    """``python -m bot export MATCH [--format sgf] > file.mat``: a match for GNU Backgammon."""
    from bot.core.matfile import FORMATS, export_from_database

    parser = argparse.ArgumentParser(
        prog="python -m bot export",
        description="Write a match as a Jellyfish .mat (or GNU Backgammon SGF) file to stdout.",
    )
    parser.add_argument("match", type=int, help="the match number (shown by /backgammon export)")
    parser.add_argument("--format", choices=FORMATS, default="mat")
    parser.add_argument(
        "--db",
        default=None,
        help="database file or postgresql:// URL (default: DATABASE_URL, else DATABASE_PATH)",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 2
    path = args.db or database_of(settings)
    if not is_postgres_url(path) and not Path(path).exists():
        print(f"gammon-bot: there is no database at {path}", file=sys.stderr)
        return 2
    try:
        text = asyncio.run(export_from_database(path, args.match, args.format))
    except LookupError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 1
    except StoreOpenError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def verify_command(argv: Sequence[str], settings: Settings) -> int:
    """``python -m bot verify SECRET PUBLIC``: check a match's dice against this database."""
    from bot.core import fairdice

    def lookup(public: str) -> fairdice.RecordedMatch | None:
        database = database_of(settings)
        if not is_postgres_url(database) and not Path(database).exists():
            return None  # never create a database just to look something up

        async def find() -> fairdice.RecordedMatch | None:
            store = await open_store(database)
            try:
                row = await store.match_by_dice_public(public)
                if row is None or row.dice is None:
                    return None
                events = await store.events(row.id)
            finally:
                await store.close()
            names = " vs ".join(row.player_names)
            return fairdice.RecordedMatch(
                fairdice.recorded_dice(events), row.dice.commitment, f"match {row.id} ({names})"
            )

        return asyncio.run(find())

    return fairdice.main(argv, lookup=lookup, prog="python -m bot verify")


def migrate_command(argv: Sequence[str]) -> int:
    """``python -m bot migrate``: bring the configured database's schema up to date."""
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate",
        description="Create or migrate the database (DATABASE_URL, else DATABASE_PATH) and "
        "print its schema version. The bot does this itself at start; run it before starting "
        "several processes, or to check a database.",
    )
    parser.parse_args(argv)
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 2

    async def migrate() -> str:
        store = await open_store(settings)
        try:
            return f"{store.path}: schema version {await store.schema_version()}"
        finally:
            await store.close()

    try:
        print(asyncio.run(migrate()))
    except StoreOpenError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 2
    return 0


def copy_db_command(argv: Sequence[str]) -> int:
    """``python -m bot copy-db SRC DEST``: copy every table to an empty database, then check."""
    from bot.storage.copy import CopyError, copy_database

    parser = argparse.ArgumentParser(
        prog="python -m bot copy-db",
        description="Copy everything (matches, events, results, players, ratings, settings) "
        "from one database to a new, empty one, keeping ids, then replay every copied match "
        "to check it. Each is an SQLite file or a postgresql:// URL. Stop the bot first.",
    )
    parser.add_argument("source", help="the database to copy: a file or a postgresql:// URL")
    parser.add_argument("destination", help="an empty (or missing) database to copy into")
    args = parser.parse_args(argv)
    if not is_postgres_url(args.source) and not Path(args.source).is_file():
        print(f"gammon-bot: there is no database at {args.source}", file=sys.stderr)
        return 2

    async def copy() -> str:
        source = await open_store(args.source)
        try:
            destination = await open_store(args.destination)
            try:
                report = await copy_database(source, destination)  # type: ignore[arg-type]
                return report.summary(source.path, destination.path)
            finally:
                await destination.close()
        finally:
            await source.close()

    try:
        print(asyncio.run(copy()))
    except StoreOpenError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 2
    except CopyError as exc:
        print(f"gammon-bot: copy-db: {exc}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["export"]:
        return export_command(arguments[1:])
    if arguments[:1] == ["migrate"]:
        return migrate_command(arguments[1:])
    if arguments[:1] == ["copy-db"]:
        return copy_db_command(arguments[1:])
    if arguments[:1] == ["verify"]:
        try:
            settings = Settings.from_env()
        except SettingsError as exc:
            print(f"gammon-bot: {exc}", file=sys.stderr)
            return 2
        return verify_command(arguments[1:], settings)
    args = parse_args(arguments)
    try:
        settings = Settings.from_env()
        if args.mode == "play":
            setup_logging("WARNING")
            from bot.offline import run_offline

            return asyncio.run(run_offline(settings, args))
        if args.mode == "web":
            setup_logging(settings.log_level)
            return asyncio.run(run_web(settings))
        token = settings.require_token()
    except SettingsError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 2
    setup_logging(settings.log_level)
    return asyncio.run(run_bot(settings, token))


if __name__ == "__main__":
    sys.exit(main())
