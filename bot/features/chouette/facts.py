"""The facts the chouette service publishes on the core's bus (:class:`~bot.core.facts.FactBus`).

A :class:`ChouetteChanged` follows every stored change of a session, whoever made it: a
player's press (the front end that asked also has the report), the computer's turn
finished by the session's clock, a member idle past the limit following the captain. A
front end that did not ask (``background``) tells it where the session is played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.facts import FeatureFact

if TYPE_CHECKING:  # the report carries its facts
    from bot.features.chouette.service import ChouetteReport


@dataclass(frozen=True, slots=True)
class ChouetteChanged(FeatureFact):
    """A session was stored changed; ``background``: nobody's request made it."""

    report: ChouetteReport
    background: bool = False


__all__ = ["ChouetteChanged"]
