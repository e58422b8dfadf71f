"""Chouette (issue 39): the pure rules of one box against a team, a cube for every member.

Like :mod:`bot.engine` this package is pure: the standard library and the engine only, no
discord, no database, no clock, no I/O. Players are plain ints; dice are an input. The
checkers are the engine's own :class:`~bot.engine.Game` (never a copy of its rules); each
team member's cube sits beside the board, as GNU Backgammon's ``cubeinfo`` does.

- :mod:`.options`: the house-rule switches (:class:`ChouetteOptions`);
- :mod:`.state`: the values (seats, cubes, the game, the session, a game's record);
- :mod:`.seats`: the order by the dice (C1) and the rotation (C8);
- :mod:`.settle`: what a game pays each member and the box (C6, C8);
- :mod:`.play`: the verbs (C2-C8 and the edge cases), each returning the new session and its
  events (:mod:`.events`) or raising :class:`ChouetteError` (:mod:`.errors`);
- :mod:`.actions`: the verb table, :data:`RULES`, every front end's one way in.

The words players read about a chouette live in :mod:`bot.present.chouette`, the pictures
in :mod:`renderers.chouette`.
"""

from bot.features.chouette.rules.actions import RULES, ChouetteAction, apply
from bot.features.chouette.rules.errors import ChouetteError, Code
from bot.features.chouette.rules.events import Event, Kind
from bot.features.chouette.rules.options import (
    MAX_PLAYERS,
    MIN_TO_BEGIN,
    PARTNER_FROM,
    AnswerOrder,
    ChouetteOptions,
    Consultation,
    Rotation,
)
from bot.features.chouette.rules.play import Applied, can_double, cube_view, window_decided
from bot.features.chouette.rules.seats import order_by_dice, rotate
from bot.features.chouette.rules.state import (
    Answer,
    Chouette,
    ChouetteGame,
    Cube,
    GameRecord,
    Offer,
    Seat,
    Settled,
    Side,
    Stage,
    Status,
)

__all__ = [
    "MAX_PLAYERS",
    "MIN_TO_BEGIN",
    "PARTNER_FROM",
    "RULES",
    "Answer",
    "AnswerOrder",
    "Applied",
    "Chouette",
    "ChouetteAction",
    "ChouetteError",
    "ChouetteGame",
    "ChouetteOptions",
    "Code",
    "Consultation",
    "Cube",
    "Event",
    "GameRecord",
    "Kind",
    "Offer",
    "Rotation",
    "Seat",
    "Settled",
    "Side",
    "Stage",
    "Status",
    "apply",
    "can_double",
    "cube_view",
    "order_by_dice",
    "rotate",
    "window_decided",
]
