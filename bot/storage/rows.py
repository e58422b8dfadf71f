"""Stored rows to records and back: the column lists and how each column reads.

A match row keeps the engine state as JSON (:mod:`bot.codec`); parsing it is the costly part
of a read, so a caller that already holds the game can pass it in. A row whose state no
longer parses becomes an :class:`~bot.errors.UnreadableMatchError` carrying what could be
read, so the session can set it aside and say which match it was.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from bot import codec
from bot.engine import Game, MatchOptions
from bot.errors import UnreadableMatchError
from bot.records import UNREADABLE, Action, DiceSeal, EventRecord, MatchRow, Status


class _Unset:
    pass


_UNSET = _Unset()


MATCH_COLUMNS = (
    "id, guild_id, channel_id, status, player0_id, player0_name, player1_id, player1_name, "
    "options, rated, computer_level, state, version, created_at, updated_at, last_action_at, "
    "expires_at, winner, score0, score1, end_reason, dice_secret, dice_commitment, "
    "dice_public, dice_drawn, home_channel_id, board_channel_id, board_message_id, "
    "notified_version"
)
# The same, for a query that names the matches table ``m`` (and joins another).
MATCH_COLUMNS_OF_M = ", ".join(f"m.{column}" for column in MATCH_COLUMNS.split(", "))
PLAYER_COLUMNS = (
    "guild_id, user_id, name, rating, experience, rated_matches, games, game_wins, "
    "game_losses, matches, match_wins, match_losses, gammons, backgammons, points_won, "
    "points_lost, streak, best_streak"
)
COMPUTER_COLUMNS = "level, games, game_wins, matches, match_wins, points_won, points_lost"


@functools.lru_cache(maxsize=256)
def _auto_play(text: str) -> bool:
    # Table options that are not rules ride along in the options JSON.
    return bool(codec.loads(text).get("auto_play", False))


@functools.lru_cache(maxsize=256)
def _options(text: str) -> MatchOptions:
    # A handful of distinct option sets cover every row; MatchOptions is immutable.
    return codec.options_from_dict(codec.loads(text))


def match_from_row(row: Sequence[Any], game: Game | _Unset | None = _UNSET) -> MatchRow:
    """A row of ``MATCH_COLUMNS``; ``game`` spares parsing a state the caller already has."""
    (
        id_,
        guild_id,
        channel_id,
        status,
        p0,
        n0,
        p1,
        n1,
        options,
        rated,
        level,
        state,
        version,
        created,
        updated,
        last_action,
        expires,
        winner,
        score0,
        score1,
        reason,
        dice_secret,
        dice_commitment,
        dice_public,
        dice_drawn,
        home_channel_id,
        board_channel_id,
        board_message_id,
        notified_version,
    ) = row
    return MatchRow(
        id=id_,
        guild_id=guild_id,
        channel_id=channel_id,
        status=Status(status),
        player_ids=(p0, p1),
        player_names=(n0, n1),
        options=_options(options),
        rated=bool(rated),
        computer_level=level,
        game=(
            (codec.game_from_dict(codec.loads(state)) if state else None)
            if isinstance(game, _Unset)
            else game
        ),
        version=version,
        created_at=created,
        updated_at=updated,
        last_action_at=last_action,
        expires_at=expires,
        winner=winner,
        final_score=(score0, score1) if score0 is not None else None,
        end_reason=reason,
        auto_play=_auto_play(options),
        dice=(
            DiceSeal(dice_secret, dice_commitment, dice_public, dice_drawn) if dice_secret else None
        ),
        home_channel_id=home_channel_id,
        board=(board_channel_id, board_message_id) if board_message_id else None,
        notified_version=notified_version,
    )


def parse_match(raw: Sequence[Any]) -> MatchRow:
    """A stored row as a :class:`MatchRow`, or :class:`UnreadableMatchError` naming it."""
    try:
        return match_from_row(raw)
    except Exception as exc:  # any parse failure: bad JSON, a missing key, a bad value
        error = UnreadableMatchError(int(raw[0]), int(raw[2]), repr(exc))
        # What can still be read (ids and names are plain columns), so the session can say
        # which match it set aside; the game and options are not trusted.
        error.shell = MatchRow(
            id=raw[0],
            guild_id=raw[1],
            channel_id=raw[2],
            status=Status.CANCELLED,
            player_ids=(raw[4], raw[6]),
            player_names=(str(raw[5]), str(raw[7])),
            options=MatchOptions(),
            rated=bool(raw[9]),
            computer_level=raw[10],
            game=None,
            version=raw[12],
            created_at=raw[13],
            updated_at=raw[14],
            last_action_at=raw[15],
            expires_at=raw[16],
            winner=None,
            final_score=None,
            end_reason=UNREADABLE,
        )
        raise error from exc


def event_from_row(row: Sequence[Any]) -> EventRecord:
    return EventRecord(
        seq=row[0],
        game_number=row[1],
        actor_id=row[2],
        player=row[3],
        action=Action(row[4]),
        notation=row[5],
        dice=parse_dice(row[6]),
        position_id=row[7],
        gnu_match_id=row[8],
        created_at=row[9],
    )


def parse_dice(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    first, second = text.split("-")
    return int(first), int(second)


__all__ = [
    "COMPUTER_COLUMNS",
    "MATCH_COLUMNS",
    "PLAYER_COLUMNS",
    "event_from_row",
    "match_from_row",
    "parse_dice",
    "parse_match",
]
