"""The session's services, composed once at start-up and handed to the front ends.

:class:`Services` holds them: the session (game actions under the channel's lock, with
the computer opponent it owns), reviews (hints, analyses, dice), club life (rematches,
threads, settings, reminders, match files), puzzles (made from the server's finished
games), tournaments and ladders (these listen to the session's facts to learn results),
any position analysed (``positions``), the PR ladder (``performance``, which hears that a
match has been analysed) and chouettes (on the session's lock, dice, workers and facts).
:func:`build_services` is the one place they are
made, from the store, the workers, the roller, the settings and the clock; the bot's
start-up, offline play and the tests all call it. Pure of Discord.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.computer.position_service import PositionService
from bot.computer.reviews import ReviewService
from bot.core.club import ClubService
from bot.core.dice import Roller
from bot.core.facts import FactBus
from bot.core.records import MatchRow
from bot.core.reports import SessionSettings
from bot.core.session import SessionService
from bot.features.chouette.service import ChouetteService
from bot.features.performance.service import PerformanceService
from bot.features.puzzles.rules.selection import TournamentStage
from bot.features.puzzles.service import PuzzleService
from bot.features.tournaments.ladders import LadderService
from bot.features.tournaments.rules.lifecycle import OVER
from bot.features.tournaments.service import TournamentService
from bot.storage import Storage
from bot.storage.chouette import ChouetteStore
from bot.storage.competitions import CompetitionStore
from bot.storage.performance import PerformanceStore
from bot.workers import Workers


@dataclass(frozen=True, slots=True)
class Services:
    """What a front end is given: each service with its declared interface."""

    session: SessionService
    reviews: ReviewService
    club: ClubService
    puzzles: PuzzleService
    tournaments: TournamentService
    ladders: LadderService
    positions: PositionService
    performance: PerformanceService
    chouette: ChouetteService

    @property
    def facts(self) -> FactBus:
        """Where every stored change's facts are published (subscribe here)."""
        return self.session.facts

    @property
    def workers(self) -> Workers:
        """Where boards are drawn (the session's workers)."""
        return self.session.workers


def build_services(
    store: Storage,
    *,
    roller: Roller | None = None,
    settings: SessionSettings | None = None,
    clock: Callable[[], float] = time.time,
    computer: Callable[[str], Any] | None = None,
    workers: Workers | None = None,
) -> Services:
    """The services over one store, one set of workers and one clock.

    ``roller``: scripted dice (tests, demos); without one every match commits to its dice.
    ``computer(level)``: a stand-in computer player, run in threads (tests, offline play).
    """
    session = SessionService(
        store,
        roller=roller,
        settings=settings,
        clock=clock,
        computer=computer,
        workers=workers,
    )
    reviews = ReviewService(
        store,
        session.workers,
        session,
        settings=session.settings,
        clock=clock,
        facts=session.facts,
    )
    positions = PositionService(session.workers, session, settings=session.settings, clock=clock)
    performance = PerformanceService(PerformanceStore(store), session, session.facts)
    club = ClubService(store, session, clock=clock)
    competitions = CompetitionStore(store)

    async def stage(row: MatchRow) -> TournamentStage | None:
        """Whether ``row`` is a tournament's match, and whether that tournament is over."""
        found = await competitions.pairing_of_match(row.id)
        if found is None:
            return None
        event = await competitions.tournament(found[0])
        running = event is not None and event.phase not in OVER
        return TournamentStage.RUNNING if running else TournamentStage.ENDED

    puzzles = PuzzleService(
        store, session.workers, session.facts, clock=clock, tournament_stage=stage, reader=session
    )
    tournaments = TournamentService(competitions, session, clock=clock)
    ladders = LadderService(competitions, session, clock=clock)
    chouette = ChouetteService(ChouetteStore(store), session, clock=clock, computer=computer)
    return Services(
        session, reviews, club, puzzles, tournaments, ladders, positions, performance, chouette
    )


__all__ = ["Services", "build_services"]
