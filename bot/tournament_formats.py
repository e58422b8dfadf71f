"""One face over every tournament format: the pure event rebuilt from the stored rows.

The tournament service (:mod:`bot.tournaments`) keeps rows: the entrants with their seeds,
and one pairing row per match with its result once known. :func:`rebuild` turns those back
into the competition core's value (a :class:`~bot.competitions.Knockout`,
:class:`~bot.competitions.Swiss` or :class:`~bot.competitions.RoundRobin`) and wraps it in
:class:`Event`, which answers the few questions the service asks of any format: which
pairings exist now that are not stored yet, how many rounds are complete, whether it is
over, and its podium (its pictures are drawn by the front end). Pure: no database, no
Discord, no clock.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.competitions import (
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
from bot.records import Action, EventRecord, MatchRow
from bot.storage.competition_rows import EntrantRow, PairingRow, TournamentRow

Value = Knockout | Swiss | RoundRobin


def seeded(entrants: Sequence[EntrantRow]) -> tuple[PlayerId, ...]:
    """The players in seed order (entrants without a seed, never drawn, are left out)."""
    return tuple(e.user_id for e in sorted(entrants, key=lambda e: e.seed or 0) if e.seed)


def first_value(row: TournamentRow, entrants: Sequence[EntrantRow]) -> Value:
    """The event at its draw, before any result."""
    return rebuild(row, entrants, ()).value


def planned_rounds(row: TournamentRow, players: int) -> int | None:
    """A Swiss's rounds, fixed at the draw (the director's choice, else the default)."""
    if row.format is not Format.SWISS:
        return None
    return row.options.rounds or default_rounds(players)


@dataclass(frozen=True)
class Event:
    """A stored event as its format sees it."""

    row: TournamentRow
    value: Value
    pairings: tuple[PairingRow, ...]

    # --- what to store and play -------------------------------------------------------------

    def new_pairings(self) -> tuple[PairingRow, ...]:
        """Matches the format has now that no row holds yet: the ready ones of a knockout,
        the next round of a Swiss once the last is complete (its bye decided), and a round
        robin's rounds one after the other."""
        known = {p.key for p in self.pairings}
        value = self.value
        out: list[PairingRow] = []
        if isinstance(value, Knockout):
            for match in value.ready():
                key = str(match.key)
                if key not in known:
                    top, bottom = match.top.player, match.bottom.player
                    assert top is not None and bottom is not None
                    out.append(PairingRow(key, match.key.round, top, bottom, match.length))
        elif isinstance(value, Swiss):
            number = value.current_round
            for index, pairing in enumerate(value.pairings[number - 1] if number else ()):
                key = str(RoundKey(number, index))
                if key not in known:
                    result = value.results.get(RoundKey(number, index))
                    out.append(
                        PairingRow(
                            key, number, pairing.a, pairing.b, value.length(number), result=result
                        )
                    )
        else:
            open_rounds = [m.key.round for m in value.open_matches()]
            if open_rounds:
                current = min(open_rounds)
                for group_match in value.matches():
                    key = str(group_match.key)
                    waiting = group_match.result is None and key not in known
                    if group_match.key.round == current and waiting:
                        pairing = group_match.pairing
                        out.append(
                            PairingRow(key, current, pairing.a, pairing.b, group_match.length)
                        )
        return tuple(out)

    def next_round(self) -> Event | None:
        """A Swiss whose round is complete, with the next one paired (or cut short when no
        pairing without a rematch exists); None for other formats or mid-round."""
        value = self.value
        if not isinstance(value, Swiss) or value.finished:
            return None
        if value.current_round and not value.round_complete(value.current_round):
            return None
        return Event(self.row, value.pair_next(), self.pairings)

    # --- reading ----------------------------------------------------------------------------

    @property
    def rounds_complete(self) -> int:
        """Rounds fully decided (knockout: of the main bracket), for the picture after each."""
        value = self.value
        if isinstance(value, Knockout):
            done = 0
            for round_ in value.section(Section.MAIN):
                if any(m.status not in (Status.DONE, Status.VOID) for m in round_):
                    break
                done += 1
            return done
        if isinstance(value, Swiss):
            return value.rounds_completed
        rounds = {m.key.round for m in value.matches()}
        open_rounds = {m.key.round for m in value.open_matches()}
        return len([r for r in sorted(rounds) if not any(o <= r for o in open_rounds)])

    @property
    def finished(self) -> bool:
        return self.value.finished

    def placings(self) -> tuple[tuple[int, PlayerId], ...]:
        """(place, player) for the podium."""
        value = self.value
        if isinstance(value, Knockout):
            return value.placings()
        if isinstance(value, Swiss):
            return tuple((s.rank, s.player) for s in value.standings() if s.rank <= 3)
        if len(value.groups) == 1:
            return tuple((s.rank, s.player) for s in value.standings(0) if s.rank <= 3)
        return tuple(
            (1, s.player) for g in range(len(value.groups)) for s in value.standings(g)[:1]
        )

    def pairing(self, key: str) -> PairingRow | None:
        return next((p for p in self.pairings if p.key == key), None)


def rebuild(
    row: TournamentRow, entrants: Sequence[EntrantRow], pairings: Sequence[PairingRow]
) -> Event:
    """The event as its format sees it, from its rows."""
    seeds = seeded(entrants)
    withdrawn = frozenset(e.user_id for e in entrants if e.withdrawn)
    ratings = {e.user_id: e.rating for e in entrants}
    options = row.options
    decided = [p for p in pairings if p.result is not None]
    value: Value
    if row.format is Format.KNOCKOUT:
        results = {MatchKey.parse(p.key): _known(p) for p in decided}
        value = Knockout(
            seeds,
            consolation=options.consolation,
            lengths=options.lengths,
            consolation_lengths=options.lengths[:1],
            results=results,
            withdrawn=withdrawn,
        )
    elif row.format is Format.SWISS:
        rounds: dict[int, dict[int, Pairing]] = defaultdict(dict)
        for p in pairings:
            key = RoundKey.parse(p.key)
            rounds[key.round][key.index] = Pairing(p.a, p.b)
        drawn = tuple(
            tuple(rounds[r][i] for i in sorted(rounds[r])) for r in range(1, len(rounds) + 1)
        )
        planned = planned_rounds(row, len(seeds)) or 1
        value = Swiss(
            seeds,
            planned,
            options.lengths,
            ratings,
            pairings=drawn,
            results={RoundKey.parse(p.key): _known(p) for p in decided},
            withdrawn=withdrawn,
        )
        if not drawn:
            value = value.pair_next()
    else:
        value = RoundRobin.draw(seeds, lengths=options.lengths, ratings=ratings)
        for p in decided:
            value = value.record(GroupKey.parse(p.key), _known(p))
        for player in sorted(withdrawn):
            value = value.withdraw(player)
    return Event(row, value, tuple(pairings))


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


__all__ = ["Event", "activity_of", "first_value", "planned_rounds", "rebuild", "result_of_match"]
