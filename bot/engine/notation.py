"""Standard backgammon notation, both ways.

Formatting follows GNU Backgammon's ``FormatMove``: moves sorted by source point, the
moves of one checker joined (keeping an intermediate point only where it hits), identical
moves counted as ``(2)``, and a hit marked once per point.

Parsing accepts what people type (``13/7 8/7``, ``24/13``, ``24/18*/13``, ``8/5(2) 6/5(2)``,
``bar/22``, ``25/22``, ``6/off``, ``6/0``, any case, commas or spaces) and resolves it against
the legal plays: any text that identifies exactly one legal play is accepted, in any order.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from bot.engine.errors import IllegalPlayError, InvalidNotationError
from bot.engine.moves import Dice, LegalPlays, Move, Play, check_dice, legal_plays, step, undo
from bot.engine.position import BAR, OFF, Position

MAX_TEXT = 200

_POINT = r"(?:bar|b|off|o|\d{1,2})"
_PATH_RE = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$")


def format_point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def format_moves(moves: tuple[Move, ...] | list[Move]) -> str:
    """Format single-die moves the way GNU Backgammon writes a play.

    >>> format_moves([Move(24, 18), Move(18, 13)])
    '24/13'
    >>> format_moves([Move(8, 5), Move(6, 5), Move(8, 5), Move(6, 5)])
    '8/5(2) 6/5(2)'
    """
    if not moves:
        return "(no move)"
    ordered = sorted(moves, key=lambda m: (m.source, m.target), reverse=True)
    # Each path: [source, (point, hit), (point, hit), ...]
    paths: list[list | None] = [[m.source, (m.target, m.hit)] for m in ordered]
    for i in range(len(paths)):
        for j in range(i + 1, len(paths)):
            first, second = paths[i], paths[j]
            if first is None or second is None:
                continue
            end, hit = first[-1]
            if end == second[0] and end != OFF:
                if hit:
                    first.extend(second[1:])
                else:
                    first[-1:] = second[1:]
                paths[j] = None
    compact = [p for p in paths if p is not None]
    marked: set[int] = set()
    groups: list[tuple[tuple, int]] = []
    for path in compact:
        key = (path[0], *(point for point, _ in path[1:]))
        if groups and groups[-1][0][0] == key:
            groups[-1] = ((key, groups[-1][0][1] or path), groups[-1][1] + 1)
        else:
            groups.append(((key, path), 1))
    parts = []
    for (key, path), count in groups:
        text = format_point(path[0])
        hits_here = [hit for _, hit in path[1:]]
        for point, hit in zip(key[1:], hits_here, strict=True):
            text += "/" + format_point(point)
            if hit and point not in marked:
                text += "*"
                marked.add(point)
        if count > 1:
            text += f"({count})"
        parts.append(text)
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class _Hop:
    """One written segment ``a/b``: a checker travels from a to b with one or more dice."""

    source: int
    target: int
    marked_hit: bool


def _parse_point(token: str, text: str) -> int:
    if token in ("bar", "b"):
        return BAR
    if token in ("off", "o"):
        return OFF
    value = int(token)
    if not 0 <= value <= 25:
        raise InvalidNotationError(f"{text!r}: there is no point {value} (use 1-24, bar or off)")
    return value


def parse_hops(text: str) -> list[_Hop]:
    """Split typed notation into written segments, expanding counts like ``(2)``."""
    if len(text) > MAX_TEXT:
        raise InvalidNotationError("That is too long to be a backgammon play.")
    cleaned = text.strip().lower().replace(",", " ").replace("\\", "/")
    cleaned = re.sub(r"\s*/\s*", "/", cleaned)
    cleaned = re.sub(r"\s*\*", "*", cleaned)
    cleaned = re.sub(r"\s*\(\s*(\d)\s*\)", r"(\1)", cleaned)
    if not cleaned:
        raise InvalidNotationError("Write a play like 13/7 8/7 (from/to for each checker).")
    hops: list[_Hop] = []
    for token in cleaned.split():
        match = _PATH_RE.match(token)
        if not match:
            raise InvalidNotationError(
                f"{token!r} is not a move: write from/to points, like 13/7, bar/22 or 6/off."
            )
        count = int(match.group(2) or 1)
        if not 1 <= count <= 4:
            raise InvalidNotationError(f"{token!r}: a move can be repeated 1 to 4 times.")
        points = match.group(1).split("/")
        parsed = [(_parse_point(p.rstrip("*"), text), p.endswith("*")) for p in points]
        segment: list[_Hop] = []
        for (source, _), (target, hit) in itertools.pairwise(parsed):
            if target == BAR:
                raise InvalidNotationError(f"{token!r}: a checker never moves to the bar.")
            if source == OFF:
                raise InvalidNotationError(f"{token!r}: a borne-off checker cannot move.")
            if target >= source:
                raise InvalidNotationError(
                    f"{token!r}: checkers move from higher points to lower ones, like 13/7."
                )
            segment.append(_Hop(source, target, hit))
        hops.extend(segment * count)
    if len(hops) > 8:
        raise InvalidNotationError("That is more moves than one roll allows.")
    return hops


@dataclass(slots=True)
class _Realisation:
    result: tuple[int, ...]
    moves: tuple[Move, ...]
    strict: bool  # the hits match the written asterisks exactly


def _realise(
    position: Position, dice: Dice, hops: list[_Hop]
) -> tuple[list[_Realisation], str | None]:
    """Every way the written hops can be played step by step with the roll's dice.

    Returns the realisations and, when there are none, the reason the first failing
    attempt gave (for the error message).
    """
    d1, d2 = dice
    all_dice = [d1] * 4 if d1 == d2 else [d1, d2]
    board = list(position.board)
    out: list[_Realisation] = []
    seen: set[tuple[tuple[int, ...], tuple[Move, ...]]] = set()
    first_reason: list[str] = []

    def fail(reason: str) -> None:
        if not first_reason:
            first_reason.append(reason)

    def play_hops(
        order: tuple[_Hop, ...], remaining: list[int], moves: tuple[Move, ...], strict: bool
    ) -> None:
        if not order:
            key = (tuple(board), moves)
            if key not in seen:
                seen.add(key)
                out.append(_Realisation(tuple(board), moves, strict))
            return
        hop, rest = order[0], order[1:]
        play_hop(hop, hop.source, remaining, moves, strict, rest)

    def play_hop(
        hop: _Hop,
        at: int,
        remaining: list[int],
        moves: tuple[Move, ...],
        strict: bool,
        rest: tuple[_Hop, ...],
    ) -> None:
        if not remaining:
            fail(f"it needs more than the {d1}-{d2} you rolled")
            return
        if board[at] <= 0:
            where = "on the bar" if at == BAR else f"on the {at}-point"
            fail(f"you have no checker {where}")
            return
        if board[BAR] and at != BAR:
            fail("you must enter from the bar first")
            return
        attempted = False
        for index, die in enumerate(remaining):
            if die in remaining[:index]:
                continue
            if hop.target != OFF and at - die < hop.target:
                continue  # this die would overshoot the written point
            attempted = True
            move = step(board, at, die)
            if move is None:
                fail(_why_not(board, at, die))
                continue
            left = remaining[:index] + remaining[index + 1 :]
            done = move.target == hop.target
            hit_ok = strict and move.hit == (hop.marked_hit and done)
            if done:
                play_hops(rest, left, (*moves, move), hit_ok)
            else:
                play_hop(hop, move.target, left, (*moves, move), hit_ok, rest)
            undo(board, move)
        if not attempted:
            fail(
                f"{format_point(hop.source)}/{format_point(hop.target)} does not fit "
                f"the dice {d1}-{d2}"
            )

    orders = set(itertools.permutations(hops))
    for order in sorted(orders, key=lambda o: [hops.index(h) for h in o]):
        play_hops(order, list(all_dice), (), True)
    return out, (first_reason[0] if first_reason else None)


def _why_not(board: list[int], source: int, die: int) -> str:
    """Why one checker cannot move ``die`` pips from ``source`` (board known to refuse)."""
    target = source - die
    if target >= 1:
        return f"the {target}-point is blocked"
    if any(board[p] > 0 for p in range(7, 26)):
        return "you can bear off only when all your checkers are home"
    return f"a {die} bears off from the {source}-point only when no checker is on a higher point"


def _dice_text(dice: Dice) -> str:
    return f"{dice[0]}-{dice[1]}"


def _unplayed(dice: Dice, used: tuple[Move, ...], best: int) -> str:
    d1, d2 = dice
    if d1 == d2:
        return f"you can play {best} of your {d1}s, not {len(used)}"
    if not used:
        return "you must move"
    played = used[0].source - used[0].target
    other = d2 if played == d1 else d1 if played == d2 else min(d1, d2)
    return f"{format_moves(used)} alone leaves the {other} unplayed"


def parse_play(position: Position, dice: Dice, text: str, plays: LegalPlays | None = None) -> Play:
    """Resolve typed notation to the single legal play it describes.

    >>> parse_play(Position.start(), (6, 5), '24/13')
    Play(moves=(Move(source=24, target=18, hit=False), Move(source=18, target=13, hit=False)))
    """
    dice = check_dice(dice)
    plays = plays if plays is not None else legal_plays(position, dice)
    hops = parse_hops(text)
    shown = text.strip()
    if plays.max_dice == 0:
        raise IllegalPlayError(f"You cannot move with {_dice_text(dice)}: no checker can move.")
    realisations, reason = _realise(position, dice, hops)
    if not realisations:
        if position.bar and hops and hops[0].source != BAR and all(h.source != BAR for h in hops):
            raise IllegalPlayError("You must enter from the bar first.")
        raise IllegalPlayError(
            f"{shown} is not legal with {_dice_text(dice)}: {reason or 'it does not fit'}."
            f"{_suggest(plays)}"
        )
    legal_strict = {r.result for r in realisations if r.strict and r.result in plays._by_result}
    legal_loose = {r.result for r in realisations if r.result in plays._by_result}
    for candidates in (legal_strict, legal_loose):
        if len(candidates) == 1:
            (result,) = candidates
            return plays._by_result[result]
    if len(legal_loose) > 1:
        options = ", ".join(sorted(str(plays._by_result[r]) for r in legal_loose))
        raise IllegalPlayError(
            f"{shown} could mean more than one play: {options}. Write the one you mean."
        )
    used = max(realisations, key=lambda r: len(r.moves))
    if len(used.moves) < plays.max_dice:
        if dice[0] != dice[1] and plays.max_dice == 2:
            raise IllegalPlayError(f"Use both dice: {_unplayed(dice, used.moves, 2)}.")
        raise IllegalPlayError(
            f"{shown} is not legal with {_dice_text(dice)}: "
            f"{_unplayed(dice, used.moves, plays.max_dice)}.{_suggest(plays)}"
        )
    if plays.max_dice == 1 and dice[0] != dice[1]:
        raise IllegalPlayError(
            f"{shown} is not legal with {_dice_text(dice)}: only one die can be played, so "
            f"you must play the {max(dice)}.{_suggest(plays)}"
        )
    raise IllegalPlayError(f"{shown} is not legal with {_dice_text(dice)}.{_suggest(plays)}")


def _suggest(plays: LegalPlays, limit: int = 3) -> str:
    names = [str(p) for p in plays][:limit]
    more = " …" if len(plays) > limit else ""
    return f" Legal: {', '.join(names)}{more}"


def format_play(play: Play) -> str:
    return format_moves(play.moves)
