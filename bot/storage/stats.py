"""What finished games and matches add to the players' records, in the writer's transaction.

Statistics, streaks, the record against the computer and FIBS ratings (with their history),
each updated inside the same transaction as the action that finished the game, so they are
counted exactly once.
"""

from __future__ import annotations

import aiosqlite

from bot.engine import ResultKind
from bot.ratings import Rated, fibs_update
from bot.records import FinishedGame, MatchOutcome, MatchRow


async def _ensure_players(db: aiosqlite.Connection, match: MatchRow) -> None:
    await db.executemany(
        "INSERT INTO players (guild_id, user_id, name) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name",
        [
            (match.guild_id, user_id, name)
            for user_id, name in zip(match.player_ids, match.player_names, strict=True)
        ],
    )


async def record_game(
    db: aiosqlite.Connection, match: MatchRow, finished: FinishedGame, now: float
) -> None:
    """What a finished game adds to the players' records (or to the record against the computer)."""
    result = finished.result
    await db.execute(
        "INSERT INTO game_results (match_id, game_number, winner, kind, cube, points, "
        "reason, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            match.id,
            finished.game_number,
            result.winner,
            int(result.kind),
            result.cube,
            result.points,
            result.reason.value,
            now,
        ),
    )
    if match.computer_level is not None:
        # Games against the computer stay out of the human statistics; the human
        # (always player 0) gets a tally of their own per level.
        human_won = int(result.winner == 0)
        await db.execute(
            "INSERT INTO computer_results (guild_id, user_id, level, games, game_wins, "
            "points_won, points_lost) VALUES (?, ?, ?, 1, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id, level) DO UPDATE SET "
            "games = games + 1, game_wins = game_wins + excluded.game_wins, "
            "points_won = points_won + excluded.points_won, "
            "points_lost = points_lost + excluded.points_lost",
            (
                match.guild_id,
                match.player_ids[0],
                match.computer_level,
                human_won,
                result.points * human_won,
                result.points * (1 - human_won),
            ),
        )
        return
    await _ensure_players(db, match)
    winner_id = match.player_ids[result.winner]
    loser_id = match.player_ids[1 - result.winner]
    gammon = int(result.kind == ResultKind.GAMMON)
    backgammon = int(result.kind == ResultKind.BACKGAMMON)
    await db.execute(
        "UPDATE players SET games = games + 1, game_wins = game_wins + 1, "
        "gammons = gammons + ?, backgammons = backgammons + ?, "
        "points_won = points_won + ? WHERE guild_id = ? AND user_id = ?",
        (gammon, backgammon, result.points, match.guild_id, winner_id),
    )
    await db.execute(
        "UPDATE players SET games = games + 1, game_losses = game_losses + 1, "
        "points_lost = points_lost + ? WHERE guild_id = ? AND user_id = ?",
        (result.points, match.guild_id, loser_id),
    )


async def record_match(db: aiosqlite.Connection, match: MatchRow, outcome: MatchOutcome) -> None:
    """What a finished match adds: wins, streaks, and for rated matches the FIBS ratings."""
    if outcome.winner is None:
        return
    if match.computer_level is not None:
        await db.execute(
            "INSERT INTO computer_results (guild_id, user_id, level, matches, match_wins) "
            "VALUES (?, ?, ?, 1, ?) ON CONFLICT (guild_id, user_id, level) DO UPDATE SET "
            "matches = matches + 1, match_wins = match_wins + excluded.match_wins",
            (
                match.guild_id,
                match.player_ids[0],
                match.computer_level,
                int(outcome.winner == 0),
            ),
        )
        return
    await _ensure_players(db, match)
    winner_id = match.player_ids[outcome.winner]
    loser_id = match.player_ids[1 - outcome.winner]
    await db.execute(
        "UPDATE players SET matches = matches + 1, match_wins = match_wins + 1, "
        "streak = streak + 1, best_streak = MAX(best_streak, streak + 1) "
        "WHERE guild_id = ? AND user_id = ?",
        (match.guild_id, winner_id),
    )
    await db.execute(
        "UPDATE players SET matches = matches + 1, match_losses = match_losses + 1, "
        "streak = 0 WHERE guild_id = ? AND user_id = ?",
        (match.guild_id, loser_id),
    )
    if not match.rated:
        return
    rows = await db.execute_fetchall(
        "SELECT user_id, rating, experience FROM players WHERE guild_id = ? AND user_id IN (?, ?)",
        (match.guild_id, winner_id, loser_id),
    )
    ratings = {row[0]: Rated(float(row[1]), int(row[2])) for row in rows}
    new_winner, new_loser = fibs_update(ratings[winner_id], ratings[loser_id], match.options.length)
    for user_id, rated in ((winner_id, new_winner), (loser_id, new_loser)):
        await db.execute(
            "UPDATE players SET rating = ?, experience = ?, "
            "rated_matches = rated_matches + 1 WHERE guild_id = ? AND user_id = ?",
            (rated.rating, rated.experience, match.guild_id, user_id),
        )
    await db.executemany(
        "INSERT INTO rating_history (guild_id, user_id, match_id, rated_at, rating) "
        "VALUES (?, ?, ?, ?, ?)",
        [
            (match.guild_id, user_id, match.id, match.updated_at, rated.rating)
            for user_id, rated in ((winner_id, new_winner), (loser_id, new_loser))
        ],
    )


__all__ = ["record_game", "record_match"]
