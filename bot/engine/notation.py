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

from bot.engine.errors import EngineErrorCode, IllegalPlayError, InvalidNotationError
from bot.engine.errors import EngineErrorCode as Code
from bot.engine.moves import Dice, LegalPlays, Move, Play, check_dice, legal_plays, step, undo
from bot.engine.position import BAR, OFF, Position

MAX_TEXT = 200

_POINT = r"(?:bar|b|off|o|\d{1,2})"
_PATH_RE = re.compile(rf"^({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?$")


def format_point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def format_moves(moves: tuple[Move, ...] | list[Move]) -> str:
    """Format single-die moves the way GNU Backgammon's ``FormatMove`` writes a play.

    Moves are sorted by source point, then target, both descending; a move that starts where
    an earlier one ended continues that checker's path, keeping the intermediate point only
    when it hits; identical paths are counted as ``(2)``; a hit is marked once per point
    (an intermediate hit always).

    >>> format_moves([Move(24, 18), Move(18, 13)])
    '24/13'
    >>> format_moves([Move(24, 18, True), Move(18, 13)])
    '24/18*/13'
    >>> format_moves([Move(8, 5), Move(6, 5), Move(8, 5), Move(6, 5)])
    '8/5(2) 6/5(2)'
    """
    if not moves:
        return "(no move)"
    # Each point where a move hits had an opponent's blot before the play (and no other
    # point did), which is what GNU Backgammon looks up on the board.
    hit_points = {m.target for m in moves if m.hit}
    ordered = sorted(moves, key=lambda m: (m.source, m.target), reverse=True)
    paths: list[list[int]] = []
    for move in ordered:
        for path in paths:
            if path[-1] == move.source:
                if path[-1] in hit_points:
                    path.append(move.target)
                else:
                    path[-1] = move.target
                break
        else:
            paths.append([move.source, move.target])
    counted: list[tuple[list[int], int]] = []
    for path in paths:
        for index, (seen, count) in enumerate(counted):
            if seen == path:
                counted[index] = (seen, count + 1)
                break
        else:
            counted.append((path, 1))
    marked: set[int] = set()
    parts = []
    for path, count in counted:
        text = format_point(path[0])
        for point in path[1:-1]:
            text += f"/{format_point(point)}*"
            marked.add(point)
        end = path[-1]
        text += "/" + format_point(end)
        if end in hit_points and end not in marked:
            text += "*"
            marked.add(end)
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
        raise InvalidNotationError(
            f"{text!r}: there is no point {value} (use 1-24, bar or off)",
            Code.NO_SUCH_POINT,
            text=text,
            point=value,
        )
    return value


def parse_hops(text: str) -> list[_Hop]:
    """Split typed notation into written segments, expanding counts like ``(2)``.

    A pass (``(no move)``, ``pass``) gives no segments.
    """
    if len(text) > MAX_TEXT:
        raise InvalidNotationError("That is too long to be a backgammon play.", Code.TOO_LONG)
    cleaned = text.strip().lower().replace(",", " ").replace("\\", "/")
    cleaned = re.sub(r"\s*/\s*", "/", cleaned)
    cleaned = re.sub(r"\s*\*", "*", cleaned)
    cleaned = re.sub(r"\s*\(\s*(\d)\s*\)", r"(\1)", cleaned)
    if not cleaned:
        raise InvalidNotationError(
            "Write a play like 13/7 8/7 (from/to for each checker).", Code.EMPTY_PLAY
        )
    if " ".join(cleaned.split()) in PASS_WORDS:
        return []
    hops: list[_Hop] = []
    for token in cleaned.split():
        match = _PATH_RE.match(token)
        if not match:
            raise InvalidNotationError(
                f"{token!r} is not a move: write from/to points, like 13/7, bar/22 or 6/off.",
                Code.NOT_A_MOVE,
                token=token,
            )
        count = int(match.group(2) or 1)
        if not 1 <= count <= 4:
            raise InvalidNotationError(
                f"{token!r}: a move can be repeated 1 to 4 times.", Code.BAD_REPEAT, token=token
            )
        points = match.group(1).split("/")
        parsed = [(_parse_point(p.rstrip("*"), text), p.endswith("*")) for p in points]
        segment: list[_Hop] = []
        for (source, _), (target, hit) in itertools.pairwise(parsed):
            if target == BAR:
                raise InvalidNotationError(
                    f"{token!r}: a checker never moves to the bar.", Code.TO_THE_BAR, token=token
                )
            if source == OFF:
                raise InvalidNotationError(
                    f"{token!r}: a borne-off checker cannot move.", Code.FROM_OFF, token=token
                )
            if target >= source:
                raise InvalidNotationError(
                    f"{token!r}: checkers move from higher points to lower ones, like 13/7.",
                    Code.WRONG_DIRECTION,
                    token=token,
                )
            segment.append(_Hop(source, target, hit))
        hops.extend(segment * count)
    if len(hops) > 8:
        raise InvalidNotationError("That is more moves than one roll allows.", Code.TOO_MANY_MOVES)
    return hops


@dataclass(frozen=True, slots=True)
class _Realisation:
    """One way to play the written hops: the moves made and the dice left over."""

    moves: tuple[Move, ...]
    unused: tuple[int, ...]


# Why a written play could not be made: its code, the words for developers, the facts.
_Reason = tuple[EngineErrorCode, str, dict[str, object]]

# Why a written play could not be made, most useful first: a rule that stopped a checker
# beats "needs more dice", which beats "does not fit the dice".
_RULE, _TOO_MANY, _NO_FIT = 0, 1, 2


def _realise(
    position: Position, dice: Dice, hops: list[_Hop]
) -> tuple[dict[tuple[int, ...], _Realisation], _Reason | None]:
    """Every result the written hops can reach, played a die at a time with the roll.

    The hops may interleave (with two checkers on the bar, ``bar/19(2)`` enters both before
    either moves on). Returns one realisation per result and, when there are none, the
    reason for the failure most worth telling the player.

    With a doublet, as in the generator, single-die steps are taken from non-increasing
    points (any order of the steps that works can be sorted that way), so only a hop
    furthest from home moves next; this spares trying every interleaving of four hops.
    """
    d1, d2 = dice
    board = list(position.board)
    found: dict[tuple[int, ...], _Realisation] = {}
    doublet = d1 == d2
    seen: set[tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...]]] = set()
    reasons: list[tuple[int, _Reason]] = []

    def fail(rank: int, reason: _Reason) -> None:
        if not reasons or rank < reasons[0][0]:
            reasons[:] = [(rank, reason)]

    def search(
        pending: tuple[tuple[int, int], ...], remaining: tuple[int, ...], moves: tuple[Move, ...]
    ) -> None:
        # pending: (where the checker is now, where the hop ends) for each unfinished hop.
        if not pending:
            found.setdefault(tuple(board), _Realisation(moves, remaining))
            return
        state = (tuple(board), tuple(sorted(pending)), remaining)
        if state in seen:
            return
        seen.add(state)
        if not remaining:
            why = f"it needs more than the {d1}-{d2} you rolled"
            fail(_TOO_MANY, (Code.NEEDS_MORE_DICE, why, {}))
            return
        furthest = max(at for at, _ in pending) if doublet else OFF
        for index, (at, target) in enumerate(pending):
            if at < furthest or (at, target) in pending[:index]:
                continue  # not next in order, or the same hop as an earlier one covers it
            if board[at] <= 0:
                if at == BAR:
                    fail(_RULE, (Code.NO_CHECKER_ON_BAR, "you have no checker on the bar", {}))
                else:
                    why = f"you have no checker on the {at}-point"
                    fail(_RULE, (Code.NO_CHECKER, why, {"point": at}))
                continue
            if board[BAR] and at != BAR:
                fail(_RULE, (Code.MUST_ENTER_FIRST, "you must enter from the bar first", {}))
                continue
            fits = False
            for die in sorted(set(remaining), reverse=True):
                if target != OFF and at - die < target:
                    continue  # this die would overshoot the written point
                fits = True
                move = step(board, at, die)
                if move is None:
                    fail(_RULE, _why_not(board, at, die))
                    continue
                left = list(remaining)
                left.remove(die)
                if move.target == target:
                    after = pending[:index] + pending[index + 1 :]
                else:
                    after = (*pending[:index], (move.target, target), *pending[index + 1 :])
                search(after, tuple(left), (*moves, move))
                undo(board, move)
            if not fits:
                move_text = f"{format_point(at)}/{format_point(target)}"
                why = f"{move_text} does not fit {d1}-{d2}"
                fail(_NO_FIT, (Code.DOES_NOT_FIT, why, {"move": move_text}))

    dice_left = (d1,) * 4 if doublet else (d1, d2)
    search(tuple((hop.source, hop.target) for hop in hops), dice_left, ())
    return found, (reasons[0][1] if reasons else None)


def _why_not(board: list[int], source: int, die: int) -> _Reason:
    """Why one checker cannot move ``die`` pips from ``source`` (board known to refuse)."""
    target = source - die
    if target >= 1:
        return Code.POINT_BLOCKED, f"the {target}-point is blocked", {"point": target}
    if any(board[p] > 0 for p in range(7, 26)):
        return (
            Code.BEAR_OFF_NOT_HOME,
            "you can bear off only when all your checkers are home",
            {},
        )
    return (
        Code.BEAR_OFF_HIGHER_POINT,
        f"a {die} bears off from the {source}-point only when no checker is on a higher point",
        {"die": die, "point": source},
    )


def _hit_points(before: tuple[int, ...], after: tuple[int, ...]) -> set[int]:
    """The points where the play between two boards hit a blot."""
    return {p for p in range(1, BAR) if before[p] == -1 and after[p] != -1}


def _dice_text(dice: Dice) -> str:
    return f"{dice[0]}-{dice[1]}"


PASS_WORDS = frozenset({"pass", "no move", "(no move)"})


def parse_play(position: Position, dice: Dice, text: str, plays: LegalPlays | None = None) -> Play:
    """Resolve typed notation to the single legal play it describes.

    ``plays`` may be given when the legal plays are already at hand. A forced pass is
    written ``(no move)`` (or ``pass``), as :func:`format_moves` writes it.

    >>> str(parse_play(Position.start(), (6, 5), '24/18 18/13'))
    '24/13'
    >>> parse_play(Position.start(), (6, 5), '24/18')
    Traceback (most recent call last):
    ...
    bot.engine.errors.IllegalPlayError: Use both dice: 24/18 alone leaves the 5 unplayed.
    """
    dice = check_dice(dice)
    hops = parse_hops(text)
    plays = plays if plays is not None else legal_plays(position, dice)
    shown = text.strip()
    rolled = _dice_text(dice)
    if plays.max_dice == 0:
        if not hops:
            return Play(())
        raise IllegalPlayError(
            f"You cannot move with {rolled}: no checker can move. Pass.",
            Code.NO_LEGAL_MOVE,
            dice=rolled,
        )
    if not hops:
        raise IllegalPlayError(
            f"You can move with {rolled}, so you must.{_suggest(plays)}",
            Code.MUST_MOVE,
            dice=rolled,
            **_legal(plays),
        )

    realised, reason = _realise(position, dice, hops)
    if not realised:
        if position.bar and all(hop.source != BAR for hop in hops):
            raise IllegalPlayError("You must enter from the bar first.", Code.ENTER_FIRST)
        code, why, facts = reason or (Code.NOT_LEGAL, "it does not fit", {})
        raise IllegalPlayError(
            f"{shown} is not legal with {rolled}: {why}.{_suggest(plays)}",
            code,
            play=shown,
            dice=rolled,
            **facts,
            **_legal(plays),
        )

    legal = [result for result in realised if result in plays._raw]
    # Prefer the play whose hits are exactly the points marked with *: "24/13" past a blot
    # on 18 means the quiet 24/19/13 when that is possible, and "24/18*/13" means the hit.
    starred = {hop.target for hop in hops if hop.marked_hit}
    exact = [r for r in legal if _hit_points(position.board, r) == starred]
    for candidates in (exact, legal):
        if len(candidates) == 1:
            play = plays._play_for_board(candidates[0])
            assert play is not None
            return play
    if legal:
        options = ", ".join(sorted(str(plays._play_for_board(r)) for r in legal))
        raise IllegalPlayError(
            f"{shown} could mean more than one play: {options}. Write the one you mean.",
            Code.AMBIGUOUS,
            play=shown,
            options=options,
        )

    longest = max(realised.values(), key=lambda r: len(r.moves))
    if len(longest.moves) < plays.max_dice:
        if dice[0] != dice[1]:
            raise IllegalPlayError(
                f"Use both dice: {format_moves(longest.moves)} alone leaves the "
                f"{longest.unused[0]} unplayed.",
                Code.USE_BOTH_DICE,
                moves=format_moves(longest.moves),
                die=longest.unused[0],
            )
        raise IllegalPlayError(
            f"{shown} is not legal with {rolled}: you can play {plays.max_dice} of your "
            f"{dice[0]}s, not {len(longest.moves)}.{_suggest(plays)}",
            Code.PLAY_MORE_DICE,
            play=shown,
            dice=rolled,
            count=plays.max_dice,
            die=dice[0],
            played=len(longest.moves),
            **_legal(plays),
        )
    if plays.max_dice == 1 and dice[0] != dice[1]:
        raise IllegalPlayError(
            f"{shown} is not legal with {rolled}: only one die can be played, so you must "
            f"play the {max(dice)}.{_suggest(plays)}",
            Code.PLAY_LARGER_DIE,
            play=shown,
            dice=rolled,
            die=max(dice),
            **_legal(plays),
        )
    raise IllegalPlayError(
        f"{shown} is not legal with {rolled}.{_suggest(plays)}",
        Code.NOT_LEGAL,
        play=shown,
        dice=rolled,
        **_legal(plays),
    )


def _legal(plays: LegalPlays, limit: int = 3) -> dict[str, object]:
    """The first few legal plays (``legal``) and whether there are more (``more``)."""
    names = sorted(str(p) for p in plays)
    return {"legal": tuple(names[:limit]), "more": len(names) > limit}


def _suggest(plays: LegalPlays, limit: int = 3) -> str:
    names = sorted(str(p) for p in plays)
    more = " …" if len(names) > limit else ""
    return f" Legal: {', '.join(names[:limit])}{more}"
