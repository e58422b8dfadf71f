"""Playing from the Activity: who may act, the legal taps, and the action itself.

Taps follow exactly the tap picker's logic (:class:`bot.engine.steps.PartialPlay`): the
browser holds only the steps taken so far, as the picker's compact text, and asks which
checkers and destinations are legal next; a whole play goes through the session's ``move``
like ``/backgammon move``, every other action through the same session call as its slash
command, with the version the browser saw (a stale board is refused, as a stale button).
The report is then posted to the channel by whoever the session tells of background
reports (the Discord publisher), so the chat sees every move made in the Activity.

Pure of Discord and of aiohttp.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.actions import MoveCheck, may_move
from bot.core.errors import Refusal, StaleButtonError, UserError
from bot.core.records import Action, MatchRow
from bot.core.reports import ActionContext, Player, Report
from bot.core.session import SessionService
from bot.engine.steps import PartialPlay, StepError, decode_steps, encode_steps
from bot.web.state import Json, board_json, to_absolute

# What an Activity player may do: the actions of its buttons (each the slash command or
# button of its name in the chat), as the action table names them.
VERBS = frozenset(
    {
        Action.ROLL,
        Action.MOVE,
        Action.DOUBLE,
        Action.TAKE,
        Action.BEAVER,
        Action.DROP,
        Action.RESIGN_ACCEPT,
        Action.RESIGN_REJECT,
    }
)


@dataclass(frozen=True, slots=True)
class Seat:
    """A player proven by Discord, in the channel Discord says their instance runs in."""

    user: Player
    guild_id: int | None
    channel_id: int


@dataclass(frozen=True, slots=True)
class Placed:
    """The game an Activity plays: its row (None: no game, and ``why``) and the channel it
    is played in (a thread, when the game moved to one from the Activity's channel)."""

    row: MatchRow | None
    channel_id: int
    why: Refusal | None = None


async def game_for(session: SessionService, seat: Seat) -> Placed:
    """The channel's game; else the game that moved from this channel to a thread (the
    Activity opens in the channel a board was posted in, the game goes on in its thread):
    the only one, or the only one this player plays; several and none of them clearly
    theirs: no game, and why."""
    row = await session.current(seat.channel_id)
    if row is not None or seat.guild_id is None:
        return Placed(row, seat.channel_id, None if row is not None else Refusal.NO_GAME)
    live = await session.live_in(seat.guild_id)
    moved = [r for r in live if r.home_channel_id == seat.channel_id]
    mine = [r for r in moved if seat.user.id in r.player_ids]
    chosen = moved if len(moved) == 1 else mine if len(mine) == 1 else []
    if chosen:
        thread = chosen[0].channel_id
        row = await session.current(thread)
        if row is not None and row.home_channel_id == seat.channel_id:
            return Placed(row, thread)
    return Placed(None, seat.channel_id, Refusal.GAMES_IN_THREADS if moved else Refusal.NO_GAME)


def partial_for(row: MatchRow, user_id: int, steps: str) -> tuple[PartialPlay, int]:
    """The play ``user_id`` is building in ``row``'s game, and whose it is; refused unless
    they are on roll with dice out (the picker's own checks)."""
    check = may_move(row, user_id)
    if check is MoveCheck.NO_TURN:
        raise StaleButtonError(Refusal.NOT_YOUR_MOVE)
    if check is MoveCheck.NOT_YOURS:
        raise UserError(Refusal.NOT_YOUR_MOVE)
    game = row.game
    assert game is not None and game.dice is not None
    mover = game.on_roll
    try:
        return PartialPlay(game.position, game.dice, decode_steps(steps)), mover
    except StepError as exc:
        raise StaleButtonError(Refusal.MOVE_NOT_LEGAL_NOW) from exc


def taps(row: MatchRow, user_id: int, steps: str, source: int | None) -> Json:
    """The legal next taps after ``steps``: the sources, and for ``source`` (a point in
    player 0's numbering, 25 the bar) its destinations, each with the group it adds."""
    partial, mover = partial_for(row, user_id, steps)
    sources = {to_absolute(s.point, mover): s.point for s in partial.sources()}
    destinations: list[Json] = []
    if source is not None:
        if source not in sources:
            raise StaleButtonError(Refusal.MOVE_NOT_LEGAL_NOW)
        for destination in partial.destinations(sources[source]):
            destinations.append(
                {
                    "target": to_absolute(destination.target, mover),
                    "steps": encode_steps((destination.group,)),
                    "dice": list(destination.dice),
                }
            )
    return {
        "steps": encode_steps(partial.groups),
        "mover": mover,
        "sources": sorted(sources),
        "source": source,
        "destinations": destinations,
        "complete": partial.complete,
        "play": str(partial.play()) if partial.complete else None,
        "remaining": list(partial.remaining),
        "board": board_json(partial.board, mover),
    }


def extend(steps: str, group: str) -> str:
    """The steps with one more group (both as the picker's text)."""
    return f"{steps}.{group}" if steps else group


Publish = Callable[[Report], Awaitable[None]]


async def act(
    session: SessionService,
    seat: Seat,
    action: Action,
    *,
    match_key: str,
    version: int,
    steps: str = "",
) -> Report:
    """Run one action for a seated player through the session's one entry, as its slash
    command would (``match_key``: the web key of the match the page showed; a move is the
    :class:`~bot.engine.Play` its steps build, never text)."""
    if action not in VERBS:
        raise UserError(Refusal.NOT_YOUR_MOVE)
    placed = await game_for(session, seat)
    row = placed.row
    if row is None or row.web_key != match_key:
        raise StaleButtonError(placed.why or Refusal.NO_GAME)
    if row.version != version:
        raise StaleButtonError(Refusal.BOARD_CHANGED)
    ctx = ActionContext(match_id=row.id, version=version, elsewhere=True)
    params: dict[str, object] = {}
    if action is Action.MOVE:
        partial, _mover = partial_for(row, seat.user.id, steps)
        if not partial.complete:
            raise UserError(Refusal.MOVE_NOT_LEGAL_NOW)
        params["play"] = partial.play()
    return await session.act(placed.channel_id, seat.user, action, ctx, **params)


__all__ = ["VERBS", "Placed", "Seat", "act", "extend", "game_for", "partial_for", "taps"]
