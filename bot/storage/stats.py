"""What finished games and matches add to the players' records: plain code, no SQL.

Every backend does the same three steps inside the transaction of the action that finished
the game: read (and lock) the records :func:`settle` needs, call it, write what it returns.
So statistics, streaks, the record against the computer and the FIBS ratings (with their
history) follow one policy whatever the database, and are counted exactly once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.core.ratings import START_RATING, Rated, fibs_update
from bot.core.records import ComputerResults, FinishedGame, MatchOutcome, MatchRow, PlayerStats
from bot.engine import EndReason, ResultKind


@dataclass(frozen=True, slots=True)
class Settlement:
    """What to write: whole new records, and each rated player's new rating for the history."""

    players: tuple[PlayerStats, ...] = ()
    computer: ComputerResults | None = None
    history: tuple[tuple[int, float], ...] = ()  # (user_id, rating after the match)


def counts(finished_games: Sequence[FinishedGame], outcome: MatchOutcome | None) -> bool:
    """Whether an action changes any record: it finished a game or decided the match."""
    return bool(finished_games) or (outcome is not None and outcome.winner is not None)


def rates(outcome: MatchOutcome) -> bool:
    """Whether a decided match moves ratings: not when it was won by forfeit (a claim for
    inactivity). Leagues record forfeits and walkovers as results but never rate them, so
    waiting out an opponent earns no rating points, least of all a whole match's worth."""
    return outcome.reason != EndReason.FORFEIT


def human_ids(match: MatchRow) -> tuple[int, ...]:
    """The players whose records an ending changes, in the order rows are locked (user id).

    Empty against the computer: those games stay out of the human statistics.
    """
    if match.computer_level is not None:
        return ()
    return tuple(sorted(set(match.player_ids)))


def new_player(guild_id: int, user_id: int, name: str) -> PlayerStats:
    return PlayerStats(
        guild_id, user_id, name, START_RATING, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )


def new_computer_results(level: str) -> ComputerResults:
    return ComputerResults(level, 0, 0, 0, 0, 0, 0)


def settle(
    match: MatchRow,
    finished_games: Sequence[FinishedGame],
    outcome: MatchOutcome | None,
    *,
    players: Mapping[int, PlayerStats] | None = None,
    computer: ComputerResults | None = None,
) -> Settlement:
    """The new records after an action's finished games and match outcome.

    ``players``: the current records of :func:`human_ids` (missing ones are new players);
    ``computer``: the human's current record against this match's computer level (None:
    none yet). ``match`` is the row as the action left it (its ``updated_at`` dates the
    ratings).
    """
    decided = outcome is not None and outcome.winner is not None
    if match.computer_level is not None:
        record = computer or new_computer_results(match.computer_level)
        for finished in finished_games:
            result = finished.result
            won = int(result.winner == 0)  # the human is always player 0
            record = dataclasses.replace(
                record,
                games=record.games + 1,
                game_wins=record.game_wins + won,
                points_won=record.points_won + result.points * won,
                points_lost=record.points_lost + result.points * (1 - won),
            )
        if decided:
            assert outcome is not None and outcome.winner is not None
            record = dataclasses.replace(
                record,
                matches=record.matches + 1,
                match_wins=record.match_wins + int(outcome.winner == 0),
            )
        return Settlement(computer=record)

    names = dict(zip(match.player_ids, match.player_names, strict=True))
    known = players or {}
    records = {
        user_id: dataclasses.replace(known[user_id], name=names[user_id])
        if user_id in known
        else new_player(match.guild_id, user_id, names[user_id])
        for user_id in human_ids(match)
    }

    def change(user_id: int, **steps: int) -> None:
        record = records[user_id]
        records[user_id] = dataclasses.replace(
            record, **{key: getattr(record, key) + step for key, step in steps.items()}
        )

    for finished in finished_games:
        result = finished.result
        winner_id = match.player_ids[result.winner]
        loser_id = match.player_ids[1 - result.winner]
        change(
            winner_id,
            games=1,
            game_wins=1,
            gammons=int(result.kind == ResultKind.GAMMON),
            backgammons=int(result.kind == ResultKind.BACKGAMMON),
            points_won=result.points,
        )
        change(loser_id, games=1, game_losses=1, points_lost=result.points)

    history: tuple[tuple[int, float], ...] = ()
    if decided:
        assert outcome is not None and outcome.winner is not None
        winner_id = match.player_ids[outcome.winner]
        loser_id = match.player_ids[1 - outcome.winner]
        change(winner_id, matches=1, match_wins=1, streak=1)
        winner = records[winner_id]
        records[winner_id] = dataclasses.replace(
            winner, best_streak=max(winner.best_streak, winner.streak)
        )
        change(loser_id, matches=1, match_losses=1)
        records[loser_id] = dataclasses.replace(records[loser_id], streak=0)
        if match.rated and rates(outcome):
            before_w, before_l = records[winner_id], records[loser_id]
            new_winner, new_loser = fibs_update(
                Rated(before_w.rating, before_w.experience),
                Rated(before_l.rating, before_l.experience),
                match.options.length,
            )
            for user_id, rated in ((winner_id, new_winner), (loser_id, new_loser)):
                stats = records[user_id]
                records[user_id] = dataclasses.replace(
                    stats,
                    rating=rated.rating,
                    experience=rated.experience,
                    rated_matches=stats.rated_matches + 1,
                )
            history = ((winner_id, new_winner.rating), (loser_id, new_loser.rating))
    ordered = tuple(records[user_id] for user_id in sorted(records))
    return Settlement(players=ordered, history=history)


__all__ = [
    "Settlement",
    "counts",
    "human_ids",
    "new_computer_results",
    "new_player",
    "rates",
    "settle",
]
