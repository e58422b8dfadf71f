"""The rules of backgammon as a pure library: no I/O, no randomness, no discord.

>>> from bot.engine import Position, legal_plays
>>> plays = legal_plays(Position.start(), (6, 5))
>>> sorted(str(p) for p in plays)[:3]
['13/2', '13/7 8/3', '13/8 13/7']
"""

from bot.engine.errors import (
    EngineError,
    EngineErrorCode,
    IllegalPlayError,
    InvalidIdError,
    InvalidNotationError,
    InvalidPositionError,
    NotAllowedNowError,
)
from bot.engine.game import (
    EndReason,
    Game,
    GameResult,
    MatchOptions,
    Phase,
    Resignation,
    ResultKind,
)
from bot.engine.match_id import MatchIdFields
from bot.engine.moves import Dice, LegalPlays, Move, Play, legal_plays
from bot.engine.notation import format_moves, parse_play
from bot.engine.position import Position
from bot.engine.record import CubeOffer, PositionRecord, parse_dice
from bot.engine.xgid import XgidFields

__all__ = [
    "CubeOffer",
    "Dice",
    "EndReason",
    "EngineError",
    "EngineErrorCode",
    "Game",
    "GameResult",
    "IllegalPlayError",
    "InvalidIdError",
    "InvalidNotationError",
    "InvalidPositionError",
    "LegalPlays",
    "MatchIdFields",
    "MatchOptions",
    "Move",
    "NotAllowedNowError",
    "Phase",
    "Play",
    "Position",
    "PositionRecord",
    "Resignation",
    "ResultKind",
    "XgidFields",
    "format_moves",
    "legal_plays",
    "parse_dice",
    "parse_play",
]
