"""Where competitions are kept: tournaments, entrants, pairings and their results, ladders.

A class of its own (:class:`CompetitionStore`, declared by the :class:`CompetitionStorage`
protocol) composed over the store's public primitives (:class:`bot.storage.base.Database`):
one SQL text in ``$n`` placeholders for both backends, each batch in one transaction of the
store's, whose failures read as every action's do (a database that went away: "unavailable,
nothing changed", or "may or may not have been stored" when only COMMIT's answer was lost).

Results are written once: a pairing's result columns are set only while they are empty
(``... WHERE result_kind IS NULL``), so two processes that both learn a match is over, or
a TD deciding it while it finishes, record it exactly once and only the first is told it
did. Opening a match is claimed the same way (``match_id`` set only while empty).

May import the competition core and the records; never Discord or the services.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from bot.core.errors import ConflictError
from bot.features.tournaments.rules import Format, Phase, Result
from bot.storage.base import Database
from bot.storage.competition_rows import (
    COPY_TABLES,
    ENTRANT_COLUMNS,
    PAIRING_COLUMNS,
    TOURNAMENT_COLUMNS,
    EntrantRow,
    PairingRow,
    TournamentOptions,
    TournamentRow,
    parse_entrant,
    parse_pairing,
    parse_tournament,
    result_columns,
)

Statement = tuple[str, Sequence[Any]]


async def _select(db: Database, sql: str, params: Sequence[Any] = ()) -> list[Any]:
    return await db.fetch(sql, *params)


async def _run(
    db: Database, statements: Sequence[Statement], *, versioned: bool = False
) -> list[list[Any]]:
    """Every statement in one transaction of the store's; the rows each returned.
    ``versioned``: the first is a versioned update, and when it finds no row the whole batch
    is undone and :class:`~bot.core.errors.ConflictError` raised."""
    out: list[list[Any]] = []
    async with db.transaction() as tx:
        for sql, params in statements:
            out.append(list(await tx.fetch(sql, *params)))
            if versioned and len(out) == 1 and not out[0]:
                raise ConflictError()
    return out


# --- the interface ---------------------------------------------------------------------------


class CompetitionStorage(Protocol):
    """What the tournament and ladder services need of the database."""

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        format: Format,
        options: TournamentOptions,
        created_by: int,
        now: float,
        rng_seed: int,
    ) -> TournamentRow: ...

    async def tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def tournaments(
        self, guild_id: int | None = None, phases: Sequence[Phase] | None = None
    ) -> list[TournamentRow]: ...

    async def update_tournament(self, row: TournamentRow, **changes: Any) -> TournamentRow: ...

    async def entrants(self, tournament_id: int) -> list[EntrantRow]: ...

    async def add_entrant(self, tournament_id: int, entrant: EntrantRow) -> bool: ...

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool: ...

    async def update_entrant(self, tournament_id: int, user_id: int, **changes: Any) -> None: ...

    async def draw(
        self, row: TournamentRow, seeds: Sequence[int], dropped: Sequence[int], **changes: Any
    ) -> TournamentRow: ...

    async def add_pairings(self, tournament_id: int, pairings: Sequence[PairingRow]) -> None: ...

    async def pairings(self, tournament_id: int) -> list[PairingRow]: ...

    async def claim_pairing(
        self, tournament_id: int, key: str, *, channel_id: int, opened_at: float, deadline: float
    ) -> bool: ...

    async def attach_match(self, tournament_id: int, key: str, match_id: int) -> None: ...

    async def pairing_of_match(self, match_id: int) -> tuple[int, PairingRow] | None: ...

    async def pairing_in_channel(self, channel_id: int) -> tuple[int, PairingRow] | None: ...

    async def record_result(
        self,
        tournament_id: int,
        key: str,
        result: Result,
        *,
        now: float,
        decided_by: int | None = None,
        reason: str | None = None,
    ) -> bool: ...

    async def note_reminders(
        self, tournament_id: int, key: str, before: tuple[float, ...], after: tuple[float, ...]
    ) -> bool: ...

    async def replace_entrant(
        self, tournament_id: int, old: int, new: EntrantRow, seed: int | None
    ) -> bool: ...

    async def update_pairing(self, tournament_id: int, key: str, **changes: Any) -> None: ...

    async def td_role(self, guild_id: int) -> int | None: ...

    async def set_td_role(self, guild_id: int, role_id: int | None) -> None: ...

    async def ladder_state(self, guild_id: int) -> tuple[int, str, int] | None: ...

    async def save_ladder(
        self, guild_id: int, channel_id: int, state: str, expected_version: int | None
    ) -> int: ...


TOURNAMENT_FIELDS = frozenset(TOURNAMENT_COLUMNS.split(", ")) - {"id", "version"}
ENTRANT_FIELDS = frozenset({"name", "rating", "checked_in", "seed", "withdrawn"})
PAIRING_FIELDS = frozenset(
    {"player_a", "player_b", "deadline", "reminders", "channel_id", "opened_at", "match_id"}
)


def _value(value: Any) -> Any:
    """A Python value as a column holds it (enums as text, flags as 0/1)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, TournamentOptions):
        return value.dumps()
    if isinstance(value, Format | Phase):
        return str(value)
    if isinstance(value, tuple):
        return ",".join(repr(float(v)) for v in value)
    return value


class CompetitionStore:
    """The competition tables of an open store (either backend)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # --- tournaments ---------------------------------------------------------------------

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        name: str,
        format: Format,
        options: TournamentOptions,
        created_by: int,
        now: float,
        rng_seed: int,
    ) -> TournamentRow:
        """A new event in the draft phase. Ids are the highest plus one, taken inside the
        insert (no sequence: a copied database carries on from its rows); two processes
        racing for one id collide on the key, and the loser tries again."""
        for _attempt in range(5):
            try:
                [rows] = await _run(
                    self._db,
                    [
                        (
                            "INSERT INTO tournaments (id, guild_id, channel_id, name, format, "
                            "phase, options, created_by, created_at, rng_seed) "
                            "SELECT COALESCE(MAX(id), 0) + 1, $1, $2, $3, $4, $5, $6, $7, $8, $9 "
                            f"FROM tournaments RETURNING {TOURNAMENT_COLUMNS}",
                            (
                                guild_id,
                                channel_id,
                                name,
                                str(format),
                                str(Phase.DRAFT),
                                options.dumps(),
                                created_by,
                                now,
                                rng_seed,
                            ),
                        )
                    ],
                )
                return parse_tournament(rows[0])
            except Exception as exc:  # a unique violation on either backend
                if "unique" not in str(exc).lower():
                    raise
        raise ConflictError()

    async def tournament(self, tournament_id: int) -> TournamentRow | None:
        rows = await _select(
            self._db,
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1",
            (tournament_id,),
        )
        return parse_tournament(rows[0]) if rows else None

    async def tournaments(
        self, guild_id: int | None = None, phases: Sequence[Phase] | None = None
    ) -> list[TournamentRow]:
        """Events of a server (or of all), optionally only in ``phases``, oldest first."""
        where: list[str] = []
        params: list[Any] = []
        if guild_id is not None:
            params.append(guild_id)
            where.append(f"guild_id = ${len(params)}")
        if phases is not None:
            marks = []
            for phase in phases:
                params.append(str(phase))
                marks.append(f"${len(params)}")
            where.append(f"phase IN ({', '.join(marks)})")
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = await _select(
            self._db, f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments{clause} ORDER BY id", params
        )
        return [parse_tournament(r) for r in rows]

    def _update_statement(self, row: TournamentRow, changes: dict[str, Any]) -> Statement:
        unknown = set(changes) - TOURNAMENT_FIELDS
        if unknown:
            raise ValueError(f"not a tournament field: {sorted(unknown)}")
        sets = "".join(f"{name} = ${n}, " for n, name in enumerate(changes, start=1))
        after = len(changes)
        return (
            f"UPDATE tournaments SET {sets}version = version + 1 WHERE id = ${after + 1} "
            f"AND version = ${after + 2} "
            f"RETURNING {TOURNAMENT_COLUMNS}",
            (*(_value(v) for v in changes.values()), row.id, row.version),
        )

    async def update_tournament(self, row: TournamentRow, **changes: Any) -> TournamentRow:
        """Change fields of ``row`` if nobody changed it since it was read (its version);
        else :class:`~bot.core.errors.ConflictError` and nothing is written."""
        [rows] = await _run(self._db, [self._update_statement(row, changes)], versioned=True)
        return parse_tournament(rows[0])

    # --- entrants ------------------------------------------------------------------------

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        rows = await _select(
            self._db,
            f"SELECT {ENTRANT_COLUMNS} FROM tournament_entrants WHERE tournament_id = $1 "
            "ORDER BY joined_at, user_id",
            (tournament_id,),
        )
        return [parse_entrant(r) for r in rows]

    async def add_entrant(self, tournament_id: int, entrant: EntrantRow) -> bool:
        """Whether the player was added (False: already there)."""
        [rows] = await _run(
            self._db,
            [
                (
                    f"INSERT INTO tournament_entrants (tournament_id, {ENTRANT_COLUMNS}) "
                    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING "
                    "RETURNING user_id",
                    (
                        tournament_id,
                        entrant.user_id,
                        entrant.name,
                        entrant.rating,
                        entrant.joined_at,
                        int(entrant.checked_in),
                        entrant.seed,
                        int(entrant.withdrawn),
                    ),
                )
            ],
        )
        return bool(rows)

    async def remove_entrant(self, tournament_id: int, user_id: int) -> bool:
        [rows] = await _run(
            self._db,
            [
                (
                    "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2 "
                    "RETURNING user_id",
                    (tournament_id, user_id),
                )
            ],
        )
        return bool(rows)

    async def update_entrant(self, tournament_id: int, user_id: int, **changes: Any) -> None:
        unknown = set(changes) - ENTRANT_FIELDS - {"user_id"}
        if unknown:
            raise ValueError(f"not an entrant field: {sorted(unknown)}")
        sets = ", ".join(f"{name} = ${n}" for n, name in enumerate(changes, start=1))
        after = len(changes)
        await _run(
            self._db,
            [
                (
                    f"UPDATE tournament_entrants SET {sets} "
                    f"WHERE tournament_id = ${after + 1} AND user_id = ${after + 2}",
                    (*(_value(v) for v in changes.values()), tournament_id, user_id),
                )
            ],
        )

    async def draw(
        self, row: TournamentRow, seeds: Sequence[int], dropped: Sequence[int], **changes: Any
    ) -> TournamentRow:
        """The draw, in one transaction: the dropped entrants removed, the seeds written, and
        the event's own changes (its phase), checked against its version."""
        statements: list[Statement] = [
            (
                "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2",
                (row.id, user),
            )
            for user in dropped
        ]
        statements += [
            (
                "UPDATE tournament_entrants SET seed = $1 WHERE tournament_id = $2 "
                "AND user_id = $3",
                (number, row.id, user),
            )
            for number, user in enumerate(seeds, start=1)
        ]
        # The version check goes first: a lost race writes nothing.
        statements.insert(0, self._update_statement(row, changes))
        out = await _run(self._db, statements, versioned=True)
        return parse_tournament(out[0][0])

    # --- pairings ------------------------------------------------------------------------

    async def add_pairings(self, tournament_id: int, pairings: Sequence[PairingRow]) -> None:
        """Write pairings not written yet (the same key twice is kept once: another process
        pairing the same round writes the same rows)."""
        statements: list[Statement] = []
        for p in pairings:
            kind, winner, loser, won, lost = (
                result_columns(p.result) if p.result else (None, None, None, None, None)
            )
            statements.append(
                (
                    "INSERT INTO tournament_matches (tournament_id, match_key, round, player_a, "
                    "player_b, length, result_kind, winner, loser, score_won, score_lost, "
                    "decided_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) "
                    "ON CONFLICT DO NOTHING",
                    (
                        tournament_id,
                        p.key,
                        p.round,
                        p.a,
                        p.b,
                        p.length,
                        kind,
                        winner,
                        loser,
                        won,
                        lost,
                        p.decided_at,
                    ),
                )
            )
        if statements:
            await _run(self._db, statements)

    async def pairings(self, tournament_id: int) -> list[PairingRow]:
        rows = await _select(
            self._db,
            f"SELECT {PAIRING_COLUMNS} FROM tournament_matches WHERE tournament_id = $1 "
            "ORDER BY round, match_key",
            (tournament_id,),
        )
        return [parse_pairing(r) for r in rows]

    async def claim_pairing(
        self, tournament_id: int, key: str, *, channel_id: int, opened_at: float, deadline: float
    ) -> bool:
        """Take the pairing to open its match: True for the one caller that got it."""
        [rows] = await _run(
            self._db,
            [
                (
                    "UPDATE tournament_matches SET channel_id = $1, opened_at = $2, deadline = $3 "
                    "WHERE tournament_id = $4 AND match_key = $5 AND opened_at IS NULL "
                    "AND result_kind IS NULL RETURNING match_key",
                    (channel_id, opened_at, deadline, tournament_id, key),
                )
            ],
        )
        return bool(rows)

    async def attach_match(self, tournament_id: int, key: str, match_id: int) -> None:
        await _run(
            self._db,
            [
                (
                    "UPDATE tournament_matches SET match_id = $1 "
                    "WHERE tournament_id = $2 AND match_key = $3",
                    (match_id, tournament_id, key),
                )
            ],
        )

    async def pairing_of_match(self, match_id: int) -> tuple[int, PairingRow] | None:
        rows = await _select(
            self._db,
            f"SELECT tournament_id, {PAIRING_COLUMNS} FROM tournament_matches WHERE match_id = $1",
            (match_id,),
        )
        return (int(rows[0][0]), parse_pairing(rows[0][1:])) if rows else None

    async def pairing_in_channel(self, channel_id: int) -> tuple[int, PairingRow] | None:
        """The latest event match opened in this thread (or channel), if any."""
        rows = await _select(
            self._db,
            f"SELECT tournament_id, {PAIRING_COLUMNS} FROM tournament_matches "
            "WHERE channel_id = $1 ORDER BY opened_at DESC LIMIT 1",
            (channel_id,),
        )
        return (int(rows[0][0]), parse_pairing(rows[0][1:])) if rows else None

    async def record_result(
        self,
        tournament_id: int,
        key: str,
        result: Result,
        *,
        now: float,
        decided_by: int | None = None,
        reason: str | None = None,
    ) -> bool:
        """Write the pairing's result unless it has one: True when this call wrote it."""
        kind, winner, loser, won, lost = result_columns(result)
        [rows] = await _run(
            self._db,
            [
                (
                    "UPDATE tournament_matches SET result_kind = $1, winner = $2, loser = $3, "
                    "score_won = $4, score_lost = $5, decided_by = $6, reason = $7, "
                    "decided_at = $8 "
                    "WHERE tournament_id = $9 AND match_key = $10 AND result_kind IS NULL "
                    "RETURNING match_key",
                    (kind, winner, loser, won, lost, decided_by, reason, now, tournament_id, key),
                )
            ],
        )
        return bool(rows)

    async def replace_entrant(
        self, tournament_id: int, old: int, new: EntrantRow, seed: int | None
    ) -> bool:
        """``new`` takes ``old``'s place: their entry (and seed) and their undecided
        pairings, unopened again; in one transaction. False when ``new`` is already in."""
        statements: list[Statement] = [
            (
                "INSERT INTO tournament_entrants (tournament_id, user_id, name, rating, "
                "joined_at, checked_in, seed, withdrawn) VALUES ($1, $2, $3, $4, $5, 1, $6, 0) "
                "ON CONFLICT DO NOTHING RETURNING user_id",
                (tournament_id, new.user_id, new.name, new.rating, new.joined_at, seed),
            ),
            (
                "DELETE FROM tournament_entrants WHERE tournament_id = $1 AND user_id = $2",
                (tournament_id, old),
            ),
        ]
        for column in ("player_a", "player_b"):
            statements.append(
                (
                    f"UPDATE tournament_matches SET {column} = $1, opened_at = NULL, "
                    "match_id = NULL, channel_id = NULL, deadline = NULL, reminders = '' "
                    f"WHERE tournament_id = $2 AND {column} = $3 AND result_kind IS NULL",
                    (new.user_id, tournament_id, old),
                )
            )
        try:
            await _run(self._db, statements, versioned=True)
        except ConflictError:
            return False
        return True

    async def note_reminders(
        self, tournament_id: int, key: str, before: tuple[float, ...], after: tuple[float, ...]
    ) -> bool:
        """Replace the pairing's sent reminders if they are still ``before``: True for the
        one caller (of several processes keeping time) that gets to send the reminder."""
        [rows] = await _run(
            self._db,
            [
                (
                    "UPDATE tournament_matches SET reminders = $1 WHERE tournament_id = $2 "
                    "AND match_key = $3 AND reminders = $4 AND result_kind IS NULL "
                    "RETURNING match_key",
                    (_value(after), tournament_id, key, _value(before)),
                )
            ],
        )
        return bool(rows)

    async def update_pairing(self, tournament_id: int, key: str, **changes: Any) -> None:
        unknown = set(changes) - PAIRING_FIELDS
        if unknown:
            raise ValueError(f"not a pairing field: {sorted(unknown)}")
        sets = ", ".join(f"{name} = ${n}" for n, name in enumerate(changes, start=1))
        after = len(changes)
        await _run(
            self._db,
            [
                (
                    f"UPDATE tournament_matches SET {sets} WHERE tournament_id = ${after + 1} "
                    f"AND match_key = ${after + 2}",
                    (*(_value(v) for v in changes.values()), tournament_id, key),
                )
            ],
        )

    # --- settings and ladders ------------------------------------------------------------

    async def td_role(self, guild_id: int) -> int | None:
        rows = await _select(
            self._db, "SELECT td_role_id FROM competition_settings WHERE guild_id = $1", (guild_id,)
        )
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def set_td_role(self, guild_id: int, role_id: int | None) -> None:
        await _run(
            self._db,
            [
                (
                    "INSERT INTO competition_settings (guild_id, td_role_id) VALUES ($1, $2) "
                    "ON CONFLICT (guild_id) DO UPDATE SET td_role_id = excluded.td_role_id",
                    (guild_id, role_id),
                )
            ],
        )

    async def ladder_state(self, guild_id: int) -> tuple[int, str, int] | None:
        """(channel, state JSON, version) of the server's ladder, if it has one."""
        rows = await _select(
            self._db,
            "SELECT channel_id, state, version FROM ladders WHERE guild_id = $1",
            (guild_id,),
        )
        return (int(rows[0][0]), rows[0][1], int(rows[0][2])) if rows else None

    async def save_ladder(
        self, guild_id: int, channel_id: int, state: str, expected_version: int | None
    ) -> int:
        """Write the ladder if its version is still ``expected_version`` (None: a new
        ladder); the new version, or :class:`~bot.core.errors.ConflictError`."""
        if expected_version is None:
            sql = (
                "INSERT INTO ladders (guild_id, channel_id, state, version) VALUES ($1, $2, $3, 1) "
                "ON CONFLICT DO NOTHING RETURNING version"
            )
            params: tuple[Any, ...] = (guild_id, channel_id, state)
        else:
            sql = (
                "UPDATE ladders SET state = $1, channel_id = $2, version = version + 1 "
                "WHERE guild_id = $3 AND version = $4 RETURNING version"
            )
            params = (state, channel_id, guild_id, expected_version)
        [rows] = await _run(self._db, [(sql, params)])
        if not rows:
            raise ConflictError()
        return int(rows[0][0])


__all__ = [
    "COPY_TABLES",
    "CompetitionStorage",
    "CompetitionStore",
    "EntrantRow",
    "PairingRow",
    "TournamentOptions",
    "TournamentRow",
]
