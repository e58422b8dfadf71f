"""One face over every tournament format: the pure event rebuilt from the stored rows.

The tournament service (:mod:`bot.features.tournaments.service`) keeps rows: the entrants
with their seeds, and one pairing row per match with its result once known. Each format's
rules (:data:`FORMATS`, one object per :class:`~bot.features.tournaments.rules.Format`, as
python-chess keeps its variants) turn those back into the competition core's value and
answer the few questions the service asks of any format; :class:`Event` wraps the value
with its rows: which pairings exist now that are not stored yet, how many rounds are
complete, whether it is over, and its podium (its pictures are drawn by the front end,
keyed by the same format). Pure: no database, no Discord, no clock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol

from bot.core.records import Action, EventRecord, MatchRow
from bot.features.tournaments.rules import (
    Activity,
    Format,
    GroupKey,
    Knockout,
    MatchKey,
    Pairing,
    PlayerId,
    Result,
    RoundKey,
    RoundRobin,
    Section,
    Status,
    Swiss,
    default_rounds,
)
from bot.storage.competition_rows import EntrantRow, PairingRow, TournamentRow

Value = Knockout | Swiss | RoundRobin


def seeded(entrants: Sequence[EntrantRow]) -> tuple[PlayerId, ...]:
    """The players in seed order (entrants without a seed, never drawn, are left out)."""
    return tuple(e.user_id for e in sorted(entrants, key=lambda e: e.seed or 0) if e.seed)


@dataclass(frozen=True)
class Drawn:
    """What every format rebuilds from: the event's row, the players in seed order, the
    withdrawn, the ratings, every stored pairing and the decided ones."""

    row: TournamentRow
    seeds: tuple[PlayerId, ...]
    withdrawn: frozenset[PlayerId]
    ratings: dict[PlayerId, float | None]
    pairings: tuple[PairingRow, ...]

    @property
    def decided(self) -> list[PairingRow]:
        return [p for p in self.pairings if p.result is not None]


class FormatRules(Protocol):
    """What the service asks of a tournament format, whatever it is: one object per format
    in :data:`FORMATS` (python-chess's ``VARIANTS`` is the model). A new format is one more
    class here and its words and pictures in the front end, keyed by its :class:`Format`."""

    format: Format

    def planned_rounds(self, row: TournamentRow, players: int) -> int | None:
        """Rounds fixed at the draw (None: the format decides as it goes)."""
        ...

    def rebuild(self, drawn: Drawn) -> Value: ...

    def new_pairings(self, value: Value, known: set[str]) -> list[PairingRow]:
        """Matches the format has now that no row holds yet."""
        ...

    def next_round(self, value: Value) -> Value | None:
        """The event with its next round paired, when its round is complete (None when the
        format pairs nothing more itself)."""
        ...

    def rounds_complete(self, value: Value) -> int: ...

    def placings(self, value: Value) -> tuple[tuple[int, PlayerId], ...]: ...


class KnockoutRules:
    """A knockout, with a progressive consolation bracket and a playoff for second place."""

    format = Format.KNOCKOUT

    def planned_rounds(self, row: TournamentRow, players: int) -> int | None:
        return None

    def rebuild(self, drawn: Drawn) -> Value:
        options = drawn.row.options
        return Knockout(
            drawn.seeds,
            consolation=options.consolation,
            lengths=options.lengths,
            consolation_lengths=options.lengths[:1],
            results={MatchKey.parse(p.key): _known(p) for p in drawn.decided},
            withdrawn=drawn.withdrawn,
        )

    def new_pairings(self, value: Value, known: set[str]) -> list[PairingRow]:
        assert isinstance(value, Knockout)
        out: list[PairingRow] = []
        for match in value.ready():
            key = str(match.key)
            if key not in known:
                top, bottom = match.top.player, match.bottom.player
                assert top is not None and bottom is not None
                out.append(PairingRow(key, match.key.round, top, bottom, match.length))
        return out

    def next_round(self, value: Value) -> Value | None:
        return None  # a knockout's matches are ready as soon as both players are known

    def rounds_complete(self, value: Value) -> int:
        assert isinstance(value, Knockout)
        done = 0
        for round_ in value.section(Section.MAIN):
            if any(m.status not in (Status.DONE, Status.VOID) for m in round_):
                break
            done += 1
        return done

    def placings(self, value: Value) -> tuple[tuple[int, PlayerId], ...]:
        assert isinstance(value, Knockout)
        return value.placings()


class SwissRules:
    """A Swiss: rounds paired one after the other, never a rematch, a bye by the rules."""

    format = Format.SWISS

    def planned_rounds(self, row: TournamentRow, players: int) -> int | None:
        return row.options.rounds or default_rounds(players)

    def rebuild(self, drawn: Drawn) -> Value:
        options = drawn.row.options
        rounds: dict[int, dict[int, Pairing]] = defaultdict(dict)
        for p in drawn.pairings:
            key = RoundKey.parse(p.key)
            rounds[key.round][key.index] = Pairing(p.a, p.b)
        paired = tuple(
            tuple(rounds[r][i] for i in sorted(rounds[r])) for r in range(1, len(rounds) + 1)
        )
        value = Swiss(
            drawn.seeds,
            self.planned_rounds(drawn.row, len(drawn.seeds)) or 1,
            options.lengths,
            drawn.ratings,
            pairings=paired,
            results={RoundKey.parse(p.key): _known(p) for p in drawn.decided},
            withdrawn=drawn.withdrawn,
        )
        return value if paired else value.pair_next()

    def new_pairings(self, value: Value, known: set[str]) -> list[PairingRow]:
        assert isinstance(value, Swiss)
        number = value.current_round
        out: list[PairingRow] = []
        for index, pairing in enumerate(value.pairings[number - 1] if number else ()):
            key = str(RoundKey(number, index))
            if key not in known:
                result = value.results.get(RoundKey(number, index))
                out.append(
                    PairingRow(
                        key, number, pairing.a, pairing.b, value.length(number), result=result
                    )
                )
        return out

    def next_round(self, value: Value) -> Value | None:
        assert isinstance(value, Swiss)
        if value.finished:
            return None
        if value.current_round and not value.round_complete(value.current_round):
            return None
        return value.pair_next()

    def rounds_complete(self, value: Value) -> int:
        assert isinstance(value, Swiss)
        return value.rounds_completed

    def placings(self, value: Value) -> tuple[tuple[int, PlayerId], ...]:
        assert isinstance(value, Swiss)
        return tuple((s.rank, s.player) for s in value.standings() if s.rank <= 3)


class RoundRobinRules:
    """A round robin (in groups when the field is large), its rounds one after the other."""

    format = Format.ROUND_ROBIN

    def planned_rounds(self, row: TournamentRow, players: int) -> int | None:
        return None

    def rebuild(self, drawn: Drawn) -> Value:
        value = RoundRobin.draw(
            drawn.seeds, lengths=drawn.row.options.lengths, ratings=drawn.ratings
        )
        for p in drawn.decided:
            value = value.record(GroupKey.parse(p.key), _known(p))
        for player in sorted(drawn.withdrawn):
            value = value.withdraw(player)
        return value

    def new_pairings(self, value: Value, known: set[str]) -> list[PairingRow]:
        assert isinstance(value, RoundRobin)
        out: list[PairingRow] = []
        open_rounds = [m.key.round for m in value.open_matches()]
        if open_rounds:
            current = min(open_rounds)
            for group_match in value.matches():
                key = str(group_match.key)
                waiting = group_match.result is None and key not in known
                if group_match.key.round == current and waiting:
                    pairing = group_match.pairing
                    out.append(PairingRow(key, current, pairing.a, pairing.b, group_match.length))
        return out

    def next_round(self, value: Value) -> Value | None:
        return None  # every round is drawn at the start; the next opens when one ends

    def rounds_complete(self, value: Value) -> int:
        assert isinstance(value, RoundRobin)
        rounds = {m.key.round for m in value.matches()}
        open_rounds = {m.key.round for m in value.open_matches()}
        return len([r for r in sorted(rounds) if not any(o <= r for o in open_rounds)])

    def placings(self, value: Value) -> tuple[tuple[int, PlayerId], ...]:
        assert isinstance(value, RoundRobin)
        if len(value.groups) == 1:
            return tuple((s.rank, s.player) for s in value.standings(0) if s.rank <= 3)
        return tuple(
            (1, s.player) for g in range(len(value.groups)) for s in value.standings(g)[:1]
        )


# Every format the bot runs, in the order the commands offer them.
FORMATS: dict[Format, FormatRules] = {
    rules.format: rules for rules in (KnockoutRules(), SwissRules(), RoundRobinRules())
}


def rules_of(format: Format) -> FormatRules:
    """The rules of ``format`` (python-chess's ``find_variant``)."""
    return FORMATS[format]


def first_value(row: TournamentRow, entrants: Sequence[EntrantRow]) -> Value:
    """The event at its draw, before any result."""
    return rebuild(row, entrants, ()).value


def planned_rounds(row: TournamentRow, players: int) -> int | None:
    """Rounds fixed at the draw (a Swiss's: the director's choice, else the default)."""
    return rules_of(row.format).planned_rounds(row, players)


@dataclass(frozen=True)
class Event:
    """A stored event as its format sees it."""

    row: TournamentRow
    value: Value
    pairings: tuple[PairingRow, ...]

    @property
    def rules(self) -> FormatRules:
        return rules_of(self.row.format)

    # --- what to store and play -------------------------------------------------------------

    def new_pairings(self) -> tuple[PairingRow, ...]:
        """Matches the format has now that no row holds yet: the ready ones of a knockout,
        the next round of a Swiss once the last is complete (its bye decided), and a round
        robin's rounds one after the other."""
        known = {p.key for p in self.pairings}
        return tuple(self.rules.new_pairings(self.value, known))

    def next_round(self) -> Event | None:
        """The event with its next round paired (a Swiss whose round is complete, or cut
        short when no pairing without a rematch exists); None for other formats or
        mid-round."""
        value = self.rules.next_round(self.value)
        return None if value is None else Event(self.row, value, self.pairings)

    # --- reading ----------------------------------------------------------------------------

    @property
    def rounds_complete(self) -> int:
        """Rounds fully decided (knockout: of the main bracket), for the picture after each."""
        return self.rules.rounds_complete(self.value)

    @property
    def finished(self) -> bool:
        return self.value.finished

    def placings(self) -> tuple[tuple[int, PlayerId], ...]:
        """(place, player) for the podium."""
        return self.rules.placings(self.value)

    def pairing(self, key: str) -> PairingRow | None:
        return next((p for p in self.pairings if p.key == key), None)


def rebuild(
    row: TournamentRow, entrants: Sequence[EntrantRow], pairings: Sequence[PairingRow]
) -> Event:
    """The event as its format sees it, from its rows."""
    drawn = Drawn(
        row,
        seeded(entrants),
        frozenset(e.user_id for e in entrants if e.withdrawn),
        {e.user_id: e.rating for e in entrants},
        tuple(pairings),
    )
    return Event(row, rules_of(row.format).rebuild(drawn), tuple(pairings))


# What counts as playing at a deadline: a player's own decisions (the opening roll is the
# bot's, made when the match opened by itself).
PLAYER_ACTIONS = frozenset(
    {
        Action.ROLL,
        Action.MOVE,
        Action.PASS,
        Action.DOUBLE,
        Action.TAKE,
        Action.BEAVER,
        Action.DROP,
        Action.RESIGN,
        Action.RESIGN_ACCEPT,
        Action.RESIGN_REJECT,
    }
)


def activity_of(
    match: MatchRow, events: Sequence[EventRecord], since: float
) -> tuple[Activity, Activity]:
    """Both players' side of an unfinished match, as the deadline rule reads it: whether
    they made a decision since ``since``, their points, and since when the match waits on
    them (its last action, when it is their turn)."""
    game = match.game
    score = game.score if game is not None else (0, 0)
    actor = game.actor if game is not None else None
    sides = []
    for index, player in enumerate(match.player_ids):
        moved = any(
            e.actor_id == player and e.created_at >= since and e.action in PLAYER_ACTIONS
            for e in events
        )
        waiting = match.last_action_at if actor == index else None
        waiting_since = None if waiting is None else datetime.fromtimestamp(waiting, UTC)
        sides.append(Activity(player, moved, score[index], waiting_since))
    return sides[0], sides[1]


def _known(pairing: PairingRow) -> Result:
    assert pairing.result is not None
    return pairing.result


def result_of_match(
    pairing: PairingRow,
    winner: PlayerId,
    final_score: tuple[int, int],
    reason: str,
    first: PlayerId,
) -> Result:
    """A finished match as the event records it. ``final_score`` is in the match's player
    order (``first`` is its player 0). Won on the board: a played result; won because the
    other player forfeited or stalled with fewer points: the winner gets the match length,
    the loser keeps the points won (a timeout, as leagues write it)."""
    loser = pairing.b if winner == pairing.a else pairing.a
    assert loser is not None
    mine, theirs = final_score if winner == first else final_score[::-1]
    if mine > theirs and reason != "forfeit":
        return Result.played(winner, loser, (mine, theirs))
    return Result.timeout(winner, loser, (pairing.length, min(theirs, pairing.length - 1)))


__all__ = [
    "FORMATS",
    "Event",
    "FormatRules",
    "activity_of",
    "first_value",
    "planned_rounds",
    "rebuild",
    "result_of_match",
    "rules_of",
]
