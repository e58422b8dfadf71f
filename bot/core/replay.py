"""A match's event log replayed into games: the record format beside the board.

As python-chess keeps PGN beside its Board, the log (:class:`bot.core.records.EventRecord`) is the
record of a match and the engine's :class:`~bot.engine.Game` its state. :func:`replay`
rebuilds the state from the log alone, checking every step against the Position and Match
IDs logged with it, so a match can be audited, exported (``.mat``), analysed or recovered
from its events. Pure: the engine and the records, nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.computer import CubeDecision
from bot.core.records import Action, ClaimRule, EventRecord
from bot.engine import Game, MatchOptions, Play, PositionRecord, ResultKind

Decision = Play | CubeDecision


def replay(options: MatchOptions, events: Sequence[EventRecord]) -> Game | None:
    """Rebuild a match's current state from its event log (None before it started).

    The store keeps the state too; replaying proves the log alone is enough, so a game can
    be audited or recovered from its events.
    """
    game: Game | None = None
    for event in events:
        game = replay_event(options, game, event)
    return game


def replay_event(options: MatchOptions, game: Game | None, event: EventRecord) -> Game:
    """The state after one logged event; raises ValueError when it disagrees with the log."""
    action = event.action
    if action == Action.START:
        if event.notation:  # a game played on from a position (its XGID): no opening roll
            game = PositionRecord.parse(event.notation).to_game()
            _check(game, event)
            return game
        return Game.new(options)
    if game is None:
        raise ValueError(f"event {event.seq} ({action}) comes before the game started")
    match action:
        case Action.OPENING:
            assert event.dice is not None
            game = game.opening_roll(*event.dice)
        case Action.ROLL:
            assert event.dice is not None
            game = game.roll(event.dice)
        case Action.MOVE:
            assert event.notation is not None
            game = game.move(event.notation)
        case Action.PASS:
            game = game.pass_turn()
        case Action.DOUBLE:
            game = game.double()
        case Action.TAKE:
            game = game.take()
        case Action.BEAVER:
            game = game.beaver()
        case Action.DROP:
            game = game.drop()
        case Action.RESIGN:
            assert event.player is not None and event.notation is not None
            game = game.offer_resignation(event.player, ResultKind[event.notation.upper()])
        case Action.RESIGN_ACCEPT:
            game = game.accept_resignation()
        case Action.RESIGN_REJECT:
            game = game.reject_resignation()
        case Action.CLAIM:
            assert event.player is not None
            if event.notation == ClaimRule.GAME:
                game = game.forfeit(event.player, whole_match=False)
            elif event.notation != ClaimRule.MATCH:  # logged before the rule: the whole match
                game = game.forfeit(event.player)
            # ClaimRule.MATCH: the match was forfeited; the game stays as it was left.
        case Action.NEXT_GAME:
            game = game.next_game()
        case Action.CANCEL:
            pass
        case _:
            raise ValueError(f"unknown event action {action!r}")
    _check(game, event)
    return game


def _check(game: Game, event: EventRecord) -> None:
    if game.position_id() != event.position_id or game.match_id() != event.gnu_match_id:
        raise ValueError(f"replay diverges from the log at event {event.seq} ({event.action})")


def decisions_from_events(
    options: MatchOptions, events: Sequence[EventRecord]
) -> list[tuple[Game, Decision]]:
    """Every decision of a match, as (the game just before it, what was decided).

    Checker plays are :class:`~bot.engine.Play` objects and cube actions are
    :class:`bot.computer.CubeDecision` values; a roll counts as "no double" only when the
    player could have doubled. Built by replaying the log, so it needs nothing else.
    """
    cube_actions = {
        Action.DOUBLE: CubeDecision.DOUBLE,
        Action.TAKE: CubeDecision.TAKE,
        Action.DROP: CubeDecision.DROP,
        Action.BEAVER: CubeDecision.BEAVER,
    }
    decisions: list[tuple[Game, Decision]] = []
    before: Game | None = None
    for event in events:
        after = replay_event(options, before, event)
        if before is not None and event.actor_id is not None:
            if event.action == Action.MOVE and after is not None and after.last_play is not None:
                decisions.append((before, after.last_play))
            elif event.action in cube_actions:
                decisions.append((before, cube_actions[event.action]))
            elif event.action == Action.ROLL and before.can_double():
                decisions.append((before, CubeDecision.NO_DOUBLE))
        before = after
    return decisions


__all__ = ["Decision", "decisions_from_events", "replay", "replay_event"]
