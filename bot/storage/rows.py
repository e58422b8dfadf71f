"""Stored rows to records and back: the column lists, how each column reads and is written.

The one place both backends turn a row into a record (:class:`MatchRow`, :class:`EventRecord`,
settings, results) and a record into the values a statement binds: a column added or
re-encoded changes here, for SQLite and PostgreSQL at once. A row is anything indexable in
column order (an SQLite tuple, an asyncpg ``Record``).

A match row keeps the engine state as JSON (:mod:`bot.core.codec`); parsing it is the costly part
of a read, so a caller that already holds the game can pass it in. A row whose state no
longer parses becomes an :class:`~bot.core.errors.UnreadableMatchError` carrying what could be
read, so the session can set it aside and say which match it was.

Imports the engine, the records and the codec; no database driver.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from bot.core import codec
from bot.core.errors import UnreadableMatchError
from bot.core.records import (
    UNREADABLE,
    Action,
    BoardSide,
    ClaimRule,
    ComputerResults,
    DiceSeal,
    EventRecord,
    FinishedGame,
    GuildSettings,
    MatchRow,
    NewEvent,
    Notify,
    PlayerStats,
    Status,
    ThemeName,
    UserSettings,
    Venue,
    WebLinkRule,
)
from bot.core.records import EndReason as MatchEnd
from bot.engine import EndReason, Game, GameResult, MatchOptions, ResultKind


class _Unset:
    pass


_UNSET = _Unset()


MATCH_COLUMNS = (
    "id, guild_id, channel_id, status, player0_id, player0_name, player1_id, player1_name, "
    "options, rated, computer_level, state, version, created_at, updated_at, last_action_at, "
    "expires_at, winner, score0, score1, end_reason, dice_secret, dice_commitment, "
    "dice_public, dice_drawn, home_channel_id, board_channel_id, board_message_id, "
    "notified_version, web_key, venue"
)
# The same, for a query that names the matches table ``m`` (and joins another).
MATCH_COLUMNS_OF_M = ", ".join(f"m.{column}" for column in MATCH_COLUMNS.split(", "))
PLAYER_COLUMNS = (
    "guild_id, user_id, name, rating, experience, rated_matches, games, game_wins, "
    "game_losses, matches, match_wins, match_losses, gammons, backgammons, points_won, "
    "points_lost, streak, best_streak"
)
COMPUTER_COLUMNS = "level, games, game_wins, matches, match_wins, points_won, points_lost"
EVENT_COLUMNS = (
    "seq, game_number, actor_id, player, action, notation, dice, position_id, gnu_match_id, "
    "created_at"
)
GAME_RESULT_COLUMNS = "game_number, winner, kind, cube, points, reason"
GUILD_SETTINGS_COLUMNS = "threads, language, claim, web_links, public_leaderboard"
USER_SETTINGS_COLUMNS = "notify, notify_minutes, board_side, theme"

_PLAYER_FIELDS = tuple(PLAYER_COLUMNS.split(", "))
_COMPUTER_FIELDS = tuple(COMPUTER_COLUMNS.split(", "))


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
        web_key,
        venue,
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
        end_reason=MatchEnd(reason) if reason else None,
        auto_play=_auto_play(options),
        dice=(
            DiceSeal(dice_secret, dice_commitment, dice_public, dice_drawn) if dice_secret else None
        ),
        home_channel_id=home_channel_id,
        board=(board_channel_id, board_message_id) if board_message_id else None,
        notified_version=notified_version,
        web_key=web_key,
        venue=Venue(venue),
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


def dice_text(dice: tuple[int, int] | None) -> str | None:
    """The ``dice`` column of an event: ``"6-5"``, as :func:`parse_dice` reads it."""
    return f"{dice[0]}-{dice[1]}" if dice else None


def options_text(options: MatchOptions, auto_play: bool) -> str:
    """The ``options`` column: the rules, with the table options that are not rules."""
    return codec.dumps({**codec.options_to_dict(options), "auto_play": auto_play})


def state_text(game: Game | None) -> str | None:
    """The ``state`` column: the engine state as JSON (None before the match starts)."""
    return codec.dumps(codec.game_to_dict(game)) if game else None


def event_values(match_id: int, event: NewEvent, now: float) -> tuple[Any, ...]:
    """An event as the insert binds it: match, game, actor, player, action, notation, dice,
    position, gnu match id, time (the sequence number is the statement's to give)."""
    return (
        match_id,
        event.game_number,
        event.actor_id,
        event.player,
        str(event.action),
        event.notation,
        dice_text(event.dice),
        event.position_id,
        event.gnu_match_id,
        now,
    )


def game_result_values(match_id: int, finished: FinishedGame, now: float) -> tuple[Any, ...]:
    """A finished game as the insert binds it: match, game, then the columns of
    ``GAME_RESULT_COLUMNS`` after the game number, then the time."""
    result = finished.result
    return (
        match_id,
        finished.game_number,
        result.winner,
        int(result.kind),
        result.cube,
        result.points,
        result.reason.value,
        now,
    )


def finished_game_from_row(row: Sequence[Any]) -> FinishedGame:
    """A row of ``GAME_RESULT_COLUMNS``."""
    return FinishedGame(
        row[0], GameResult(row[1], ResultKind(row[2]), row[3], row[4], EndReason(row[5]))
    )


def player_values(record: PlayerStats) -> tuple[Any, ...]:
    """A player's record in ``PLAYER_COLUMNS`` order."""
    return tuple(getattr(record, name) for name in _PLAYER_FIELDS)


def computer_values(record: ComputerResults) -> tuple[Any, ...]:
    """A record against the computer in ``COMPUTER_COLUMNS`` order."""
    return tuple(getattr(record, name) for name in _COMPUTER_FIELDS)


def guild_settings_from_row(row: Sequence[Any] | None) -> GuildSettings:
    """A row of ``GUILD_SETTINGS_COLUMNS`` (None: the server never chose anything)."""
    if row is None:
        return GuildSettings()
    threads, language, claim, web_links, public_leaderboard = row
    return GuildSettings(
        threads=bool(threads),
        language=language,
        claim=ClaimRule(claim),
        web_links=WebLinkRule(web_links),
        public_leaderboard=bool(public_leaderboard),
    )


def guild_settings_values(settings: GuildSettings) -> tuple[Any, ...]:
    """Settings in ``GUILD_SETTINGS_COLUMNS`` order."""
    return (
        bool(settings.threads),
        settings.language,
        str(settings.claim),
        str(settings.web_links),
        bool(settings.public_leaderboard),
    )


def user_settings_from_row(row: Sequence[Any] | None) -> UserSettings:
    """A row of ``USER_SETTINGS_COLUMNS`` (None: the player never chose anything)."""
    if row is None:
        return UserSettings()
    notify, minutes, side, theme = row
    return UserSettings(Notify(notify), int(minutes), BoardSide(side), ThemeName(theme))


def user_settings_values(settings: UserSettings) -> tuple[Any, ...]:
    """Settings in ``USER_SETTINGS_COLUMNS`` order."""
    return (
        str(settings.notify),
        settings.notify_minutes,
        str(settings.board_side),
        str(settings.theme),
    )


__all__ = [
    "COMPUTER_COLUMNS",
    "EVENT_COLUMNS",
    "GAME_RESULT_COLUMNS",
    "GUILD_SETTINGS_COLUMNS",
    "MATCH_COLUMNS",
    "MATCH_COLUMNS_OF_M",
    "PLAYER_COLUMNS",
    "USER_SETTINGS_COLUMNS",
    "computer_values",
    "dice_text",
    "event_from_row",
    "event_values",
    "finished_game_from_row",
    "game_result_values",
    "guild_settings_from_row",
    "guild_settings_values",
    "match_from_row",
    "options_text",
    "parse_dice",
    "parse_match",
    "player_values",
    "state_text",
    "user_settings_from_row",
    "user_settings_values",
]
