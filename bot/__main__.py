"""``python -m bot``: start the Discord bot; ``python -m bot play``: play in the terminal.

Settings problems print one line and exit with status 2, never a traceback, and never the
token. SIGINT and SIGTERM finish the action in flight, close the database and exit.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Sequence

from bot.config import Settings, SettingsError
from bot.session import SessionService, SessionSettings
from bot.store import Store

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


async def run_bot(settings: Settings, token: str) -> int:
    """Run until Discord closes the connection or a signal asks us to stop."""
    import discord

    from bot.client import GammonBot, point_discord_at

    # Boards are drawn and SQLite runs in worker threads; with CPython's default 5 ms GIL
    # switch interval the event loop waits behind them on every hand-off. 0.5 ms cut the
    # median reply under load from ~250 ms to ~30 ms (benchmarks/e2e.py).
    sys.setswitchinterval(0.0005)
    point_discord_at(settings)
    store = await Store.open(settings.database_path)
    service = SessionService(store, settings=session_settings(settings))
    bot = GammonBot(settings, service)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    status = 0
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(token), name="discord")
            stopper = asyncio.create_task(stop.wait(), name="stop")
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
            "Discord rejected DISCORD_TOKEN: reset the token in the Developer Portal "
            "(Bot > Reset Token) and put the new one in .env.",
            file=sys.stderr,
        )
        status = 2
    finally:
        await store.close()
        log.info("database closed")
    return status


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    sub = parser.add_subparsers(dest="mode")
    sub.add_parser("run", help="start the Discord bot (the default)")
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
    play.add_argument("--db", default=None, help="database file (default: DATABASE_PATH)")
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
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        settings = Settings.from_env()
        if args.mode == "play":
            setup_logging("WARNING")
            from bot.offline import run_offline

            return asyncio.run(run_offline(settings, args))
        token = settings.require_token()
    except SettingsError as exc:
        print(f"gammon-bot: {exc}", file=sys.stderr)
        return 2
    setup_logging(settings.log_level)
    return asyncio.run(run_bot(settings, token))


if __name__ == "__main__":
    sys.exit(main())
