"""One action's statements, inside the transaction a backend opened: written once for both.

:func:`write_action` is the body of every ``apply``: the versioned update of the match row,
its events, and, when the action finished a game or decided the match, the results and
what they add to the players' records (the policy is plain code, :mod:`.stats`). How the
transaction around it is opened and committed is the backend's: SQLite's group commit
(several actions, each in a savepoint, one fsync), PostgreSQL's truthful failures.

``fault`` is the test seam of the stores (``fault_hook``): called with a label before each
write statement, so a test can fail or kill the process at any point of an action.

Imports the records, :mod:`.rows`, :mod:`.stats` and :mod:`.dialect`; never a driver.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.errors import ConflictError
from bot.core.records import Change, ComputerResults, MatchRow, PlayerStats
from bot.storage.dialect import Tx
from bot.storage.rows import (
    COMPUTER_COLUMNS,
    GAME_RESULT_COLUMNS,
    MATCH_COLUMNS,
    PLAYER_COLUMNS,
    computer_values,
    event_values,
    game_result_values,
    match_from_row,
    player_values,
    state_text,
)
from bot.storage.stats import counts, human_ids, settle

# The columns a record's update sets, after the ones that find its row ($1, $2[, $3]).
_PLAYER_UPDATE = ", ".join(
    f"{name} = ${n}" for n, name in enumerate(PLAYER_COLUMNS.split(", "), 1) if n > 2
)
_COMPUTER_UPDATE = ", ".join(
    f"{name} = ${n}" for n, name in enumerate(COMPUTER_COLUMNS.split(", "), 3) if n > 3
)


async def write_action(tx: Tx, change: Change, fault: Callable[[str], None]) -> MatchRow:
    """The statements of one action, inside the caller's transaction; the new row.

    Raises :class:`ConflictError` when the row's version is no longer the expected one.
    Few round trips on purpose: the update returns the new row, and all the events go
    in one ``executemany`` whose statement numbers each event after the last one (the
    update has locked the match row, so the numbering cannot race).
    """
    outcome = change.outcome
    fault("update")
    updated = await tx.fetch(
        "UPDATE matches SET status = $1, state = $2, version = version + 1, "
        "updated_at = $3, last_action_at = CASE WHEN $4 THEN $3 ELSE last_action_at END, "
        "winner = $5, score0 = $6, score1 = $7, end_reason = $8, "
        "dice_public = COALESCE($9, dice_public), dice_drawn = COALESCE($10, dice_drawn) "
        f"WHERE id = $11 AND version = $12 RETURNING {MATCH_COLUMNS}",
        str(change.status),
        state_text(change.game),
        change.now,
        bool(change.touch),
        outcome.winner if outcome else None,
        outcome.final_score[0] if outcome else None,
        outcome.final_score[1] if outcome else None,
        str(outcome.reason) if outcome else None,
        change.dice_public,
        change.dice_drawn,
        change.match_id,
        change.expected_version,
    )
    if len(updated) != 1:
        raise ConflictError()
    match = match_from_row(updated[0], change.game)
    if change.events:
        for _event in change.events:
            fault("event")
        await tx.executemany(
            "INSERT INTO events (match_id, seq, game_number, actor_id, player, action, "
            "notation, dice, position_id, gnu_match_id, created_at) "
            "SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9, $10 "
            "FROM events WHERE match_id = $1",
            [event_values(change.match_id, event, change.now) for event in change.events],
        )
    if counts(change.finished_games, outcome):
        for _finished in change.finished_games:
            fault("game_result")
        if outcome is not None and outcome.winner is not None:
            fault("match_result")
        await _settle(tx, match, change)
    return match


async def _settle(tx: Tx, match: MatchRow, change: Change) -> None:
    """Finished games and what they add to the records (the policy is in :mod:`.stats`).

    Each record is read with an upsert that returns it: that creates a missing one and,
    on PostgreSQL, locks it until the commit. Players are locked in user-id order
    (:func:`.stats.human_ids`), so two matches sharing a player finish one after the
    other, never deadlock, and no rating is lost.
    """
    if change.finished_games:
        await tx.executemany(
            f"INSERT INTO game_results (match_id, {GAME_RESULT_COLUMNS}, finished_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [game_result_values(match.id, f, change.now) for f in change.finished_games],
        )
    if match.computer_level is not None:
        [row] = await tx.fetch(
            "INSERT INTO computer_results (guild_id, user_id, level) VALUES ($1, $2, $3) "
            "ON CONFLICT (guild_id, user_id, level) DO UPDATE SET level = excluded.level "
            f"RETURNING {COMPUTER_COLUMNS}",
            match.guild_id,
            match.player_ids[0],
            match.computer_level,
        )
        record = settle(
            match, change.finished_games, change.outcome, computer=ComputerResults(*row)
        ).computer
        assert record is not None
        await tx.execute(
            f"UPDATE computer_results SET {_COMPUTER_UPDATE} "
            "WHERE guild_id = $1 AND user_id = $2 AND level = $3",
            match.guild_id,
            match.player_ids[0],
            *computer_values(record),
        )
        return
    names = dict(zip(match.player_ids, match.player_names, strict=True))
    players: dict[int, PlayerStats] = {}
    for user_id in human_ids(match):  # in user-id order, always: no deadlock
        [row] = await tx.fetch(
            "INSERT INTO players (guild_id, user_id, name) VALUES ($1, $2, $3) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name "
            f"RETURNING {PLAYER_COLUMNS}",
            match.guild_id,
            user_id,
            names[user_id],
        )
        players[user_id] = PlayerStats(*row)
    settled = settle(match, change.finished_games, change.outcome, players=players)
    await tx.executemany(
        f"UPDATE players SET {_PLAYER_UPDATE} WHERE guild_id = $1 AND user_id = $2",
        [player_values(record) for record in settled.players],
    )
    if settled.history:
        await tx.executemany(
            "INSERT INTO rating_history (guild_id, user_id, match_id, rated_at, rating) "
            "VALUES ($1, $2, $3, $4, $5)",
            [
                (match.guild_id, user_id, match.id, match.updated_at, rating)
                for user_id, rating in settled.history
            ],
        )


__all__ = ["write_action"]
