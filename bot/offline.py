"""Offline play: a game in the terminal through the same session layer and database.

Two people share one keyboard, or one person plays the computer (``--computer``). Commands
come from standard input, one a line, so a game can be scripted; after every action the
board is printed as text with a status line under it (pips, cube, score, dice) and written
as a PNG to a folder of its match in the output folder (``out/match-12/``), numbered on from
the pictures already there, so nothing is written over. A game left unfinished is saved and
resumed on the next run; a run for other players or options asks first (``y`` resumes the
saved game, ``n`` cancels it with no result and starts the one asked for). ``--lang fr``
speaks French throughout (the commands typed stay the English words).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot import present
from bot.config import Settings
from bot.core.dice import DiceExhausted, Roller, ScriptedRoller, SystemRoller
from bot.core.errors import UserError
from bot.core.records import Action, MatchRow, Status
from bot.core.reports import NO_CONTEXT
from bot.core.session import Player, Report, SessionSettings
from bot.engine import EngineError, Game, MatchOptions, ResultKind
from bot.i18n import Text, join, language_of, say
from bot.present import notices
from bot.present.notices import COMMANDS, GAME_SAVED
from bot.services import Services, build_services
from bot.storage import open_store
from renderers import BoardWords, render_board
from renderers.panels import ENGLISH

if TYPE_CHECKING:  # the web server is imported only when WEB_URL asks for it
    from bot.web import WebServer

# The terminal is its own little "server": one guild, one channel.
OFFLINE_GUILD = 0
OFFLINE_CHANNEL = 0
COMPUTER_ID = 3
COMPUTER_NAME = "GammonBot"


# The words typed, as the game actions they run (a play may also be typed on its own).
COMMAND_ACTIONS = {
    "move": Action.MOVE,
    "roll": Action.ROLL,
    "double": Action.DOUBLE,
    "take": Action.TAKE,
    "drop": Action.DROP,
    "pass": Action.DROP,
    "beaver": Action.BEAVER,
    "resign": Action.RESIGN,
    "accept": Action.RESIGN_ACCEPT,
    "reject": Action.RESIGN_REJECT,
}
# The answers to a yes-or-no question (French readers may answer o/oui).
YES = {"y", "yes", "o", "oui"}
NO = {"n", "no", "non"}


def _board_words(language: str) -> BoardWords:
    """The board picture's words in ``language``: English is the renderer's own default."""
    if language == "en":
        return ENGLISH
    return present.board_words(language)


class Terminal:
    def __init__(
        self,
        services: Services,
        players: tuple[Player, Player],
        out: Path,
        stdout: TextIO,
        language: str = "en",
    ) -> None:
        self.services = services
        self.service = services.session
        self.players = players
        self.out = out
        self.stdout = stdout
        self.language = language_of(language)
        self.images: dict[int, int] = {}  # match id -> the number of its latest picture

    def say(self, text: Text | str) -> None:
        print(say(text, self.language), file=self.stdout, flush=True)

    def show(self, report: Report) -> None:
        self.say(join(present.tell(report)))
        for game in report.boards:
            self.write_png(report.match, game)
        row = report.match
        if row.game is not None and row.status == Status.PLAYING:
            game = row.game
            viewer = present.perspective(game)
            self.say(game.position_for(viewer).ascii())
            self.say(notices.sides_line(row.player_names[viewer], row.player_names[1 - viewer]))
            self.say(notices.status_line(game, row.player_names))
        step = present.next_step(row, commands=False, language=self.language)
        if step:
            self.say(step)

    def write_png(self, row: MatchRow, game: Game) -> None:
        """The board as a picture in its match's folder, numbered after any already there
        (a resumed match goes on; a database started afresh reuses ids but never files)."""
        folder = self.out / f"match-{row.id}"
        number = self.images.get(row.id)
        if number is None:
            folder.mkdir(parents=True, exist_ok=True)
            taken = (_picture_number(p.name) for p in folder.glob("board-*.png"))
            number = max((n for n in taken if n is not None), default=0)
        number += 1
        self.images[row.id] = number
        path = folder / f"board-{number:04d}.png"
        png = render_board(
            game,
            perspective=present.perspective(game),
            names=row.player_names,
            words=_board_words(self.language),
        )
        path.write_bytes(png)
        self.say(notices.board_image_line(path))

    async def read_line(self, prompt: str = "") -> str | None:
        """One line typed (echoed when it comes from a pipe), or None at the end of input."""
        print(prompt, end="", file=self.stdout, flush=True)
        line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        if not line:
            return None
        if not sys.stdin.isatty():
            self.say(line.rstrip())
        return line

    async def ask(self, question: Text) -> bool | None:
        """A yes-or-no question, asked again until answered; None at the end of input."""
        self.say(question)
        while True:
            line = await self.read_line("> ")
            if line is None:
                return None
            answer = line.strip().lower()
            if answer in YES or answer in NO:
                return answer in YES
            self.say(notices.ANSWER_YES_OR_NO)

    def actor(self, row: MatchRow) -> Player:
        """Who types next: the player the game is waiting for."""
        if row.status == Status.CHALLENGE:
            return self.players[1]
        assert row.game is not None and row.game.actor is not None
        return self.players[row.game.actor]

    async def handle(self, line: str) -> bool:
        """Run one command line; False when the session should end."""
        words = line.strip().split(maxsplit=1)
        if not words:
            return True
        word, rest = words[0].lower(), (words[1] if len(words) > 1 else "")
        if word in ("quit", "exit"):
            return False
        if word == "help":
            self.say(COMMANDS)
            return True
        row = await self.service.current(OFFLINE_CHANNEL)
        if row is None:
            self.say(notices.NO_GAME_RUNNING)
            return False
        if word == "history":
            row, events = await self.service.history(OFFLINE_CHANNEL)
            self.say("\n".join(present.history_lines(row, events, language=self.language)))
            return True
        if word == "board":
            if row.game is not None:
                self.show(Report(Action.BOARD, row, [row.game]))
            return True
        user = self.actor(row)
        if word == "hint":
            advice = (await self.services.reviews.hint(OFFLINE_CHANNEL, user))[1]
            self.say(present.hint_text(advice, language=self.language))
            return True
        action = Action.MOVE if "/" in word else COMMAND_ACTIONS.get(word)
        if action is None:
            self.say(notices.unknown_command(word))
            return True
        report = await self.act(action, row, user, line if "/" in word else rest)
        self.show(report)
        return report.match.status == Status.PLAYING

    async def act(self, action: Action, row: MatchRow, user: Player, rest: str) -> Report:
        """Run one game action for the player typing (``rest``: the words after it), through
        the session's one entry, as every front end does."""
        params: dict[str, Any] = {}
        if action is Action.MOVE:
            params["play"] = rest
        elif action is Action.RESIGN:
            params["kind"] = ResultKind[(rest or "single").strip().upper()]
            if row.computer_level is not None:
                user = self.players[0]  # the person, never the computer
            elif row.game is not None:
                user = self.players[row.game.on_roll]
        return await self.service.act(OFFLINE_CHANNEL, user, action, NO_CONTEXT, **params)


async def run_offline(settings: Settings, args: argparse.Namespace) -> int:
    language = getattr(args, "lang", None) or "en"
    names = [n.strip() for n in str(args.names).split(",")]
    if args.computer and len(names) == 1:
        names.append(COMPUTER_NAME)
    if len(names) != 2 or not all(names) or names[0] == names[1]:
        print("gammon-bot: --names takes two different names, like alice,bob", file=sys.stderr)
        return 2
    roller: Roller = SystemRoller()
    if args.dice:
        try:
            roller = ScriptedRoller(int(d) for d in str(args.dice).split(","))
        except ValueError:
            print("gammon-bot: --dice takes numbers 1-6, like 3,1,6,5", file=sys.stderr)
            return 2
    try:
        options = MatchOptions(length=args.length, cube=not args.no_cube)
    except EngineError as exc:
        print(f"gammon-bot: {say(present.engine_error(exc), language)}", file=sys.stderr)
        return 2
    store = await open_store(args.db or settings)
    web: WebServer | None = None
    try:
        services = build_services(
            store,
            roller=roller,
            settings=SessionSettings(challenge_timeout=365 * 24 * 3600.0),
        )
        web = await _serve_board(settings, services)
        service = services.session
        players = (Player(1, names[0]), Player(2, names[1]))
        terminal = Terminal(services, players, Path(args.out), sys.stdout, language)
        row = await service.current(OFFLINE_CHANNEL)
        if row is not None and args.new:
            await service.act(OFFLINE_CHANNEL, Player(0, "you"), Action.CANCEL)
            row = None
        wanted = (players[0].name, COMPUTER_NAME if args.computer else players[1].name)
        if (
            row is not None
            and row.status == Status.PLAYING
            and (row.player_names, row.computer_level, row.options)
            != (wanted, args.computer, options)
        ):
            question = notices.saved_game_question(
                row.player_names, row.options, row.computer_level
            )
            resume = await terminal.ask(question)
            if resume is None:
                terminal.say("\n" + say(GAME_SAVED, terminal.language))
                return 0
            if not resume:
                await service.act(OFFLINE_CHANNEL, Player(0, "you"), Action.CANCEL)
                terminal.say(notices.SAVED_GAME_ABANDONED)
                row = None
        if row is not None and row.status == Status.PLAYING:
            terminal.players = (
                Player(row.player_ids[0], row.player_names[0]),
                Player(row.player_ids[1], row.player_names[1], row.computer_level is not None),
            )
            terminal.say(notices.RESUMING)
            if row.game is not None:
                terminal.show(Report(Action.BOARD, row, [row.game]))
        else:
            if row is not None:
                await service.act(OFFLINE_CHANNEL, Player(0, "you"), Action.CANCEL)
            if args.computer:
                computer = Player(COMPUTER_ID, COMPUTER_NAME, is_bot=True)
                terminal.players = (players[0], computer)
                terminal.show(
                    await service.play_computer(
                        OFFLINE_GUILD,
                        OFFLINE_CHANNEL,
                        players[0],
                        computer,
                        options,
                        level=args.computer,
                    )
                )
            else:
                await service.challenge(
                    OFFLINE_GUILD,
                    OFFLINE_CHANNEL,
                    players[0],
                    players[1],
                    options,
                    rated=False,
                )
                terminal.show(await service.act(OFFLINE_CHANNEL, players[1], Action.ACCEPT))
        if web is not None:
            await _tell_board(terminal, web)
        terminal.say(COMMANDS)
        return await _loop(terminal)
    finally:
        if web is not None:
            await web.stop()
        await store.close()


async def _serve_board(settings: Settings, services: Services) -> WebServer | None:
    """With ``WEB_URL`` set, the terminal game's live board in the browser too (the web
    board with no Discord at all): only this terminal's matches open there."""
    if settings.web_url is None:
        return None
    from bot.web import WebConfig, WebServer
    from bot.web.access import TerminalAccess

    config = WebConfig(url=settings.web_url, host=settings.web_host, port=settings.web_port)
    web = WebServer(
        services, config, activity=False, access=TerminalAccess(OFFLINE_GUILD, OFFLINE_CHANNEL)
    )
    await web.start()
    return web


async def _tell_board(terminal: Terminal, web: WebServer) -> None:
    """Where the game can be watched (its page's key is in its row)."""
    row = await terminal.service.current(OFFLINE_CHANNEL)
    if row is not None and row.web_key:
        url = f"{web.config.url.rstrip('/')}/m/{row.web_key}"
        terminal.say(notices.watch_in_browser(url))


async def _loop(terminal: Terminal) -> int:
    while True:
        row = await terminal.service.current(OFFLINE_CHANNEL)
        if row is None or row.status != Status.PLAYING:
            terminal.say(notices.GAME_OVER)
            return 0
        line = await terminal.read_line(f"{terminal.actor(row).name}> ")
        if line is None:
            terminal.say("\n" + say(GAME_SAVED, terminal.language))
            return 0
        try:
            keep_going = await terminal.handle(line)
        except UserError as exc:
            terminal.say(present.refusal(exc))
            continue
        except KeyError:
            terminal.say(notices.RESIGN_HOW)
            continue
        except DiceExhausted:
            terminal.say(notices.DICE_RAN_OUT)
            return 0
        if not keep_going:
            row = await terminal.service.current(OFFLINE_CHANNEL)
            if row is not None and row.status == Status.PLAYING:
                terminal.say(GAME_SAVED)
                return 0
            terminal.say(notices.GAME_OVER)
            return 0


def _picture_number(name: str) -> int | None:
    """The number of a picture named ``board-0007.png``; None for any other name."""
    digits = name.removeprefix("board-").removesuffix(".png")
    return int(digits) if digits.isdigit() else None
