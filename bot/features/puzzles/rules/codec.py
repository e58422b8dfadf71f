"""A puzzle as JSON and back, and its key as one line of text: what the store keeps.

The store holds a :class:`~bot.features.puzzles.rules.Puzzle` as this JSON (it never changes once
published, so one column is enough) and its :class:`~bot.features.puzzles.rules.PuzzleKey` as
:func:`key_text`, on which a server's puzzles are unique. Pure, stdlib only.
"""

from __future__ import annotations

import json
from typing import Any

from bot.features.puzzles.rules.model import (
    Candidate,
    CubeOwner,
    Puzzle,
    PuzzleKey,
    PuzzleKind,
    Situation,
)

__all__ = ["key_text", "puzzle_from_text", "puzzle_to_text"]

VERSION = 1


def key_text(key: PuzzleKey) -> str:
    """The key as a line: equal keys give equal lines, different keys different ones."""
    dice = "-" if key.dice is None else f"{key.dice[0]}{key.dice[1]}"
    flags = "".join(
        "1" if flag else "0" for flag in (key.crawford, key.cube_live, key.jacoby, key.beavers)
    )
    return (
        f"{key.kind}|{key.position_id}|{dice}|{key.score[0]}-{key.score[1]}/{key.length}|"
        f"{key.cube}{key.cube_owner}|{flags}"
    )


def puzzle_to_text(puzzle: Puzzle) -> str:
    s = puzzle.situation
    data: dict[str, Any] = {
        "v": VERSION,
        "kind": str(puzzle.kind),
        "situation": {
            "position_id": s.position_id,
            "match_id": s.match_id,
            "dice": list(s.dice) if s.dice is not None else None,
            "score": list(s.score),
            "length": s.length,
            "cube": s.cube,
            "cube_owner": str(s.cube_owner),
            "crawford": s.crawford,
            "cube_live": s.cube_live,
            "jacoby": s.jacoby,
            "beavers": s.beavers,
        },
        "candidates": [[c.answer, c.notation, c.equity] for c in puzzle.candidates],
        "made": puzzle.made,
        "match_id": puzzle.match_id,
        "game_number": puzzle.game_number,
        "owner_id": puzzle.owner_id,
        "level": puzzle.level,
        "confirmed_level": puzzle.confirmed_level,
    }
    return json.dumps(data, separators=(",", ":"))


def puzzle_from_text(text: str) -> Puzzle:
    """The puzzle stored as ``text``; ValueError when it does not read as one."""
    try:
        data = json.loads(text)
        s = data["situation"]
        dice = s["dice"]
        situation = Situation(
            position_id=str(s["position_id"]),
            match_id=str(s["match_id"]),
            dice=None if dice is None else (int(dice[0]), int(dice[1])),
            score=(int(s["score"][0]), int(s["score"][1])),
            length=int(s["length"]),
            cube=int(s["cube"]),
            cube_owner=CubeOwner(s["cube_owner"]),
            crawford=bool(s["crawford"]),
            cube_live=bool(s["cube_live"]),
            jacoby=bool(s["jacoby"]),
            beavers=bool(s["beavers"]),
        )
        owner = data["owner_id"]
        return Puzzle(
            kind=PuzzleKind(data["kind"]),
            situation=situation,
            candidates=tuple(Candidate(str(a), str(n), float(e)) for a, n, e in data["candidates"]),
            made=str(data["made"]),
            match_id=int(data["match_id"]),
            game_number=int(data["game_number"]),
            owner_id=None if owner is None else int(owner),
            level=str(data["level"]),
            confirmed_level=data["confirmed_level"],
        )
    except (KeyError, TypeError, IndexError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a stored puzzle: {exc}") from exc
