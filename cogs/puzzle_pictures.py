"""The pictures of puzzles, drawn once and kept: a puzzle's board never changes.

``/puzzle get`` answers with a picture, and a worker drawing it waits behind the boards of
the games being played (the workers are shared). Yet a server's puzzles are few and each is
seen by many solvers, the same way (one of a few themes and sides, one of two languages),
and a picker's redraws repeat too (the plays a solver may pick). So each picture is kept,
by what it shows, in a bounded cache of the most recent: only a picture not seen lately
waits for a worker. Nothing here can go stale: a puzzle's position, dice, score and cube are
fixed when it is made (only its rating moves, which the picture does not show).

May import: discord, :mod:`bot.services`, :mod:`bot.engine`, :mod:`bot.i18n` and
:mod:`bot.present`.
"""

from __future__ import annotations

import dataclasses
import io
from collections import OrderedDict
from typing import Any

import discord

from bot.core.records import UserSettings
from bot.engine import Game, Play
from bot.engine.steps import PartialPlay, encode_steps
from bot.i18n import say
from bot.present import board_words
from bot.present import puzzle_words as words
from bot.services import Services

__all__ = ["FILENAME", "PuzzlePictures"]

FILENAME = "puzzle.png"
KEPT = 128  # pictures kept (tens of kB each): a server's puzzles in its usual looks

# (puzzle id, the choices so far, theme, side of the home board, language)
Key = tuple[int, str, str | None, str | None, str]


class PuzzlePictures:
    """Draws a puzzle's board (in a worker) unless the same picture was drawn lately."""

    def __init__(self, services: Services, kept: int = KEPT) -> None:
        self.services = services
        self.kept = kept
        self._pictures: OrderedDict[Key, bytes] = OrderedDict()
        self.drawn = 0  # pictures a worker drew (the rest came from the cache)

    async def picture(
        self,
        puzzle_id: int,
        game: Game,
        user_id: int | None,
        language: str,
        partial: PartialPlay | None = None,
        *,
        settings: UserSettings | None = None,
    ) -> discord.File:
        """The puzzle as ``user_id`` sees it (their theme and side; None: the server's
        defaults, for the daily post), with ``partial``'s moves drawn when there are any."""
        theme = home = None
        if user_id is not None:
            if settings is None:
                settings = await self.services.club.user_settings(user_id)
            theme, home = str(settings.theme), str(settings.board_side)
        moved = partial is not None and bool(partial.moves)
        steps = encode_steps(partial.groups) if partial is not None and moved else ""
        key: Key = (puzzle_id, steps, theme, home, language)
        png = self._pictures.get(key)
        if png is None:
            png = await self._draw(game, language, partial if moved else None, settings)
            self._pictures[key] = png
            if len(self._pictures) > self.kept:
                self._pictures.popitem(last=False)
        else:
            self._pictures.move_to_end(key)
        return discord.File(io.BytesIO(png), filename=FILENAME)

    async def _draw(
        self,
        game: Game,
        language: str,
        partial: PartialPlay | None,
        settings: UserSettings | None,
    ) -> bytes:
        if partial is not None:
            shown = dataclasses.replace(
                game,
                position=partial.board,
                last_play=Play(partial.moves),
                last_player=0,
                last_position=game.position,
            )
        else:
            shown = dataclasses.replace(game, last_play=None)
        options: dict[str, Any] = {
            "perspective": 0,
            "names": tuple(say(name, language) for name in words.BOARD_NAMES),
            "words": board_words(language),
        }
        if settings is not None:
            options["theme"] = settings.theme
            options["home"] = settings.board_side
        self.drawn += 1
        return await self.services.workers.render(shown, **options)
