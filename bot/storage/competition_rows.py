"""The competition tables' records and how their rows read: events, entrants, pairings.

Values only, shared by :mod:`bot.storage.competitions` (which reads and writes them) and the
services that use them. May import the competition core; nothing else of the bot.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.features.tournaments.rules import (
    Format,
    OutcomeKind,
    Pace,
    Phase,
    PlayerId,
    Result,
    Seeding,
)

# --- records -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TournamentOptions:
    """How an event is run, chosen by its director at creation (stored as JSON).

    ``lengths`` read back from the final (see :func:`bot.features.tournaments.rules.match_length`);
    ``rounds`` is a Swiss's planned rounds (None: decided at the draw); ``round_hours`` a
    correspondence round's time, ``per_point_minutes`` a live match's budget per point.
    """

    lengths: tuple[int, ...] = (5,)
    seeding: Seeding = Seeding.RANDOM
    consolation: bool = False
    rounds: int | None = None
    pace: Pace = Pace.CORRESPONDENCE
    round_hours: float = 168.0
    per_point_minutes: float = 3.0
    stall_hours: float = 24.0
    idle_minutes: float = 10.0  # live events: the most a decision may keep the match waiting
    starts_at: float | None = None  # when the draw is made by itself (None: a director starts)
    check_in: bool = False
    max_players: int | None = None

    def dumps(self) -> str:
        data = {
            "lengths": list(self.lengths),
            "seeding": str(self.seeding),
            "consolation": self.consolation,
            "rounds": self.rounds,
            "pace": str(self.pace),
            "round_hours": self.round_hours,
            "per_point_minutes": self.per_point_minutes,
            "stall_hours": self.stall_hours,
            "idle_minutes": self.idle_minutes,
            "starts_at": self.starts_at,
            "check_in": self.check_in,
            "max_players": self.max_players,
        }
        return json.dumps(data, sort_keys=True)

    @classmethod
    def loads(cls, text: str) -> TournamentOptions:
        data = json.loads(text)
        return cls(
            lengths=tuple(int(n) for n in data["lengths"]),
            seeding=Seeding(data["seeding"]),
            consolation=bool(data["consolation"]),
            rounds=data.get("rounds"),
            pace=Pace(data["pace"]),
            round_hours=float(data["round_hours"]),
            per_point_minutes=float(data["per_point_minutes"]),
            stall_hours=float(data.get("stall_hours", 24.0)),
            idle_minutes=float(data.get("idle_minutes", 10.0)),
            starts_at=data.get("starts_at"),
            check_in=bool(data["check_in"]),
            max_players=data.get("max_players"),
        )


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    name: str
    format: Format
    phase: Phase
    options: TournamentOptions
    created_by: int
    created_at: float
    announcement_id: int | None
    rng_seed: int
    version: int
    round_number: int  # the last round whose picture was posted (knockout: main rounds)
    paused_at: float | None  # when the director paused it; None while it runs

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    user_id: int
    name: str
    rating: float | None
    joined_at: float
    checked_in: bool = False
    seed: int | None = None
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class PairingRow:
    """A match of the event: its key in the format's own notation (``main:1:0``, ``2:3``),
    its players (``b`` None: a bye), the bot's match once opened and its result once known."""

    key: str
    round: int
    a: PlayerId
    b: PlayerId | None
    length: int
    match_id: int | None = None
    channel_id: int | None = None
    opened_at: float | None = None
    deadline: float | None = None
    reminders: tuple[float, ...] = ()
    result: Result | None = None
    decided_by: int | None = None
    reason: str | None = None
    decided_at: float | None = None
    players: tuple[PlayerId, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", (self.a,) if self.b is None else (self.a, self.b))


TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, name, format, phase, options, created_by, created_at, "
    "announcement_id, rng_seed, version, round_number, paused_at"
)
ENTRANT_COLUMNS = "user_id, name, rating, joined_at, checked_in, seed, withdrawn"
PAIRING_COLUMNS = (
    "match_key, round, player_a, player_b, length, match_id, channel_id, opened_at, "
    "deadline, reminders, result_kind, winner, loser, score_won, score_lost, decided_by, "
    "reason, decided_at"
)
# What bot/storage/copy.py copies: every competition table with every column.
COPY_TABLES: tuple[tuple[str, str], ...] = (
    ("tournaments", TOURNAMENT_COLUMNS),
    ("tournament_entrants", "tournament_id, " + ENTRANT_COLUMNS),
    ("tournament_matches", "tournament_id, " + PAIRING_COLUMNS),
    ("competition_settings", "guild_id, td_role_id"),
    ("ladders", "guild_id, channel_id, state, version"),
)


def parse_tournament(row: Sequence[Any]) -> TournamentRow:
    return TournamentRow(
        id=int(row[0]),
        guild_id=int(row[1]),
        channel_id=int(row[2]),
        name=row[3],
        format=Format(row[4]),
        phase=Phase(row[5]),
        options=TournamentOptions.loads(row[6]),
        created_by=int(row[7]),
        created_at=float(row[8]),
        announcement_id=None if row[9] is None else int(row[9]),
        rng_seed=int(row[10]),
        version=int(row[11]),
        round_number=int(row[12]),
        paused_at=None if row[13] is None else float(row[13]),
    )


def parse_entrant(row: Sequence[Any]) -> EntrantRow:
    return EntrantRow(
        user_id=int(row[0]),
        name=row[1],
        rating=None if row[2] is None else float(row[2]),
        joined_at=float(row[3]),
        checked_in=bool(row[4]),
        seed=None if row[5] is None else int(row[5]),
        withdrawn=bool(row[6]),
    )


def result_columns(result: Result) -> tuple[str, int | None, int | None, int | None, int | None]:
    won, lost = result.score if result.score is not None else (None, None)
    return str(result.kind), result.winner, result.loser, won, lost


def parse_result(row: Sequence[Any]) -> Result | None:
    kind, winner, loser, won, lost = row
    if kind is None:
        return None
    score = None if won is None else (int(won), int(lost))
    return Result(
        OutcomeKind(kind),
        None if winner is None else int(winner),
        None if loser is None else int(loser),
        score,
    )


def parse_pairing(row: Sequence[Any]) -> PairingRow:
    reminders = tuple(float(t) for t in row[9].split(",") if t)
    return PairingRow(
        key=row[0],
        round=int(row[1]),
        a=int(row[2]),
        b=None if row[3] is None else int(row[3]),
        length=int(row[4]),
        match_id=None if row[5] is None else int(row[5]),
        channel_id=None if row[6] is None else int(row[6]),
        opened_at=None if row[7] is None else float(row[7]),
        deadline=None if row[8] is None else float(row[8]),
        reminders=reminders,
        result=parse_result(row[10:15]),
        decided_by=None if row[15] is None else int(row[15]),
        reason=row[16],
        decided_at=None if row[17] is None else float(row[17]),
    )
