"""Match files for GNU Backgammon: a stored match as Jellyfish ``.mat`` text or as SGF.

GNU Backgammon, eXtreme Gammon and most other programs read ``.mat`` (``import mat``);
GNU Backgammon's own SGF (``load match``) can also state the Jacoby rule and automatic
doubles. Both are built from the event log alone, replayed through the engine, so they hold
exactly what was played: every roll and play (in ``.mat`` points numbered from the mover's
own side, bar 25, off 0, ``*`` for a hit, one move per die), cube actions, resignations and
scores.

What GNU Backgammon makes of the ``.mat`` text, checked by importing it
(``tests/test_matfile.py``):

* ``Wins n points`` after a resignation is a resignation of ``n / cube`` games (1 single,
  2 gammon, 3 backgammon); after a bear-off or a drop it is only a comment.
* A beaver is ``Beavers => n`` in the beaverer's column, and the doubler's next roll means
  they took it. GNU Backgammon remembers a pending beaver between imports, so a beaver that
  is dropped (or taken with no roll after it) is written as ``Doubles => n`` followed by an
  explicit ``Drops`` / ``Takes``: it imports as the same beaver and leaves no state behind.
* A roll that was never played (the player resigned instead) is the bare dice, unless the
  roll had a single legal play: GNU Backgammon would play it, so the roll is left out.
* The Jacoby rule, the cube being off and automatic doubles cannot be stated in the format
  (GNU Backgammon uses its own settings when importing); the header comments record them.
* A game won by a claim for inactivity is written as a resignation of the smallest size that
  gives the claimant their points (at most a backgammon). A match forfeited by a claim
  (:class:`bot.core.records.ClaimRule`) ends with its last game unfinished and a comment saying
  who won it by forfeit at which score.

In SGF (one game tree per game) a resignation is the game's result (``RE[W+2R]``), a beaver
is a second ``double``, dice never played are ``PL[W]DI[61]``, the Jacoby rule is
``RU[Jacoby]`` and automatic doubles are the starting cube ``CV[2]``.

>>> clean_name("a, b:\\nc")
'a b c'
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.core.records import Action, ClaimRule, EventRecord, MatchRow
from bot.core.replay import replay_event
from bot.engine import EndReason, Game, Phase
from bot.engine.game import MAX_CUBE
from bot.storage import Storage, open_store

# GNU Backgammon keeps at most 31 bytes of a player's name.
MAX_NAME_BYTES = 31
# Where the right-hand column starts, as GNU Backgammon's own export lays it out.
LEFT_WIDTH = 28
NAME_WIDTH = 31


def clean_name(name: str, fallback: str = "Player") -> str:
    """A player's name that the ``.mat`` format can hold.

    Commas (GamesGrid puts ratings after them), colons (they end the name in a game's score
    line) and control characters such as newlines become spaces, backslashes slashes; runs of
    white space shrink to one space; the result is cut to 31 bytes of UTF-8 on a character
    boundary.

    >>> clean_name("  Ann  Smith,1800 ")
    'Ann Smith 1800'
    >>> clean_name(":::", "Player 2")
    'Player 2'
    """
    chars = []
    # GNU Backgammon reads a backslash in an SGF name back doubled: it becomes a slash.
    for char in unicodedata.normalize("NFC", name).replace("\\", "/"):
        if char in ",:" or unicodedata.category(char).startswith(("C", "Z")):
            chars.append(" ")
        else:
            chars.append(char)
    text = " ".join("".join(chars).split())
    encoded = text.encode("utf-8")[:MAX_NAME_BYTES]
    text = encoded.decode("utf-8", errors="ignore").strip()
    return text or fallback


def _header_value(text: str) -> str:
    return " ".join(text.replace('"', "'").replace("]", ")").split())


def _points(points: int) -> str:
    return f"{points} point{'s' if points != 1 else ''}"


@dataclass(frozen=True, slots=True)
class _Entry:
    """One action in a player's column, for either format to write.

    ``kind`` is move (a play, or a dance when ``moves`` is empty), roll (dice never
    played), double, beaver, take, drop or wins; ``value`` is the cube offered or the
    points won.
    """

    player: int
    kind: str
    dice: tuple[int, int] = (0, 0)
    moves: tuple[tuple[int, int, bool], ...] = ()
    value: int = 0
    match_won: bool = False


@dataclass(slots=True)
class _GameRecord:
    number: int
    score: tuple[int, int]
    crawford: bool
    cube: int = 1  # at the first roll (automatic doubles turn it on tied openings)
    entries: list[_Entry] = field(default_factory=list)
    result: tuple[int, int, bool] | None = None  # winner, points, resigned
    notes: list[str] = field(default_factory=list)


class _Builder:
    """Walks the event log (replaying it through the engine) and records each game."""

    def __init__(self, row: MatchRow) -> None:
        self.row = row
        self.games: list[_GameRecord] = []
        self.game: Game | None = None
        self.pending: Game | None = None  # rolled, not yet played
        self.notes: list[str] = []

    @property
    def current(self) -> _GameRecord:
        return self.games[-1]

    def add(self, player: int, kind: str, **fields: Any) -> None:
        self.current.entries.append(_Entry(player, kind, **fields))

    def flush_roll(self) -> None:
        """Keep a roll that was never played, unless it had a single legal play.

        GNU Backgammon plays a roll's only legal play when it reads the bare dice, so such a
        roll is left out rather than have a play appear that was never made.
        """
        rolled, self.pending = self.pending, None
        if rolled is None or rolled.dice is None:
            return
        if len(rolled.legal_plays()) > 1:
            self.add(rolled.on_roll, Action.ROLL, dice=rolled.dice)

    def finish(self, game: Game) -> None:
        result = game.result
        assert result is not None
        resigned = result.reason in (EndReason.RESIGNED, EndReason.FORFEIT)
        points = result.points
        if result.reason is EndReason.FORFEIT:
            # Only resignations of up to a backgammon exist: the smallest that covers it.
            points = min(3, -(-points // result.cube)) * result.cube
        self.current.result = (result.winner, points, resigned)
        match_won = bool(game.options.length) and game.match_over
        self.add(result.winner, "wins", value=result.points, match_won=match_won)

    def feed(self, event: EventRecord) -> None:
        before = self.game
        game = self.game = replay_event(self.row.options, before, event)
        action = event.action
        if action in (Action.START, Action.NEXT_GAME):
            self.flush_roll()
            self.games.append(_GameRecord(game.game_number, game.score, game.crawford))
            return
        if action == Action.OPENING:
            self.current.cube = game.cube
            if game.cube > 1 and game.phase is Phase.MOVE:
                self.current.notes.append(
                    f"Game {game.game_number}: tied opening rolls turned the cube to "
                    f"{game.cube} (automatic doubles)."
                )
            if game.phase is Phase.MOVE:
                self.pending = game
        elif action == Action.ROLL:
            self.pending = game
        elif action in (Action.MOVE, Action.PASS):
            assert before is not None and before.dice is not None
            self.pending = None
            moves: tuple[tuple[int, int, bool], ...] = ()
            if action == Action.MOVE:
                assert game.last_play is not None
                moves = tuple((m.source, m.target, m.hit) for m in game.last_play.moves)
            self.add(before.on_roll, Action.MOVE, dice=before.dice, moves=moves)
            if game.phase is Phase.OVER:
                self.finish(game)
        elif action == Action.DOUBLE:
            assert before is not None
            self.add(before.on_roll, Action.DOUBLE, value=before.cube * 2)
        elif action == Action.BEAVER:
            assert before is not None
            self.add(1 - before.on_roll, Action.BEAVER, value=game.cube * 2)
        elif action in (Action.TAKE, Action.DROP):
            assert before is not None and before.actor is not None
            self.add(before.actor, action)
            if action == Action.DROP:
                self.finish(game)
        elif action == Action.CLAIM and event.notation == ClaimRule.MATCH:
            # The match was forfeited at the score reached: its last game stays unfinished.
            self.flush_roll()
            assert event.player is not None
            names = self.row.player_names
            score = game.score
            self.notes.append(
                f"{clean_name(names[event.player])} won the match by forfeit: "
                f"{clean_name(names[1 - event.player])} timed out at {score[0]}-{score[1]} "
                "and keeps the points won (game "
                f"{game.game_number} unfinished). A forfeit is not rated."
            )
        elif action in (Action.RESIGN_ACCEPT, Action.CLAIM):
            self.flush_roll()
            self.finish(game)
            if action == Action.CLAIM:
                assert game.result is not None
                names = self.row.player_names
                self.current.notes.append(
                    f"{clean_name(names[game.result.winner])} won game {game.game_number} "
                    f"by a claim for inactivity ({_points(game.result.points)})."
                )
        elif action == Action.CANCEL:
            self.flush_roll()
            self.notes.append("The match was cancelled by a moderator: no result.")

    def close(self) -> list[_GameRecord]:
        self.flush_roll()
        return self.games


def _build(row: MatchRow, events: Sequence[EventRecord]) -> _Builder:
    builder = _Builder(row)
    for event in events:
        builder.feed(event)
    builder.close()
    return builder


# --- Jellyfish .mat ------------------------------------------------------------------------


def _beaver_read_from_roll(entries: Sequence[_Entry], index: int) -> bool:
    """Whether the beaver at ``index`` is taken and the doubler rolls next.

    Only then is it written ``Beavers => n`` with the take left to the roll, as GNU
    Backgammon's own export does; otherwise GNU Backgammon would carry the pending beaver
    into the next file it imports.
    """
    answer = entries[index + 1] if index + 1 < len(entries) else None
    after = entries[index + 2] if index + 2 < len(entries) else None
    return (
        answer is not None
        and answer.kind == Action.TAKE
        and after is not None
        and after.player == answer.player
        and after.kind in (Action.MOVE, Action.ROLL)
    )


def _mat_texts(entries: Sequence[_Entry]) -> list[tuple[int, str]]:
    """Each entry as (column, text) in the .mat wording."""
    texts: list[tuple[int, str]] = []
    skip = -1
    for index, entry in enumerate(entries):
        if index == skip:
            continue
        kind = entry.kind
        dice = f"{entry.dice[0]}{entry.dice[1]}:"
        if kind == Action.MOVE and entry.moves:
            moves = " ".join(f"{a}/{b}{'*' if hit else ''}" for a, b, hit in entry.moves)
            text = f"{dice} {moves}"
        elif kind in (Action.MOVE, Action.ROLL):
            text = dice  # a dance, or dice never played
        elif kind == Action.DOUBLE:
            text = f"Doubles => {entry.value}"
        elif kind == Action.BEAVER:
            if _beaver_read_from_roll(entries, index):
                text = f"Beavers => {entry.value}"
                skip = index + 1
            else:
                text = f"Doubles => {entry.value}"
        elif kind == Action.TAKE:
            text = "Takes"
        elif kind == Action.DROP:
            text = "Drops"
        else:
            text = f"Wins {_points(entry.value)}{' and the match' if entry.match_won else ''}"
        texts.append((entry.player, text))
    return texts


def _lines(texts: Sequence[tuple[int, str]]) -> list[str]:
    """Lay the texts out in two columns, a new numbered line whenever the left one acts."""
    rows: list[list[str | None]] = []
    for player, text in texts:
        if player == 0 or not rows or rows[-1][1] is not None:
            rows.append([None, None])
        rows[-1][player] = text
    lines = []
    for number, (left, right) in enumerate(rows, start=1):
        head = f"{number:3d}) "
        if right is None:
            lines.append((head + (left or "")).rstrip())
            continue
        left_text = left or ""
        pad = max(LEFT_WIDTH - len(left_text), 2)
        lines.append(f"{head}{left_text}{' ' * pad}{right}".rstrip())
    return lines


def _score_line(names: tuple[str, str], score: tuple[int, int]) -> str:
    first = f"{names[0]} : {score[0]}"
    return f" {first.ljust(NAME_WIDTH - 1)}  {names[1]} : {score[1]}".rstrip()


def _names(row: MatchRow) -> tuple[str, str]:
    return (
        clean_name(row.player_names[0], "Player 1"),
        clean_name(row.player_names[1], "Player 2"),
    )


def _when(row: MatchRow, date: _dt.datetime | None) -> _dt.datetime:
    return date or _dt.datetime.fromtimestamp(row.created_at, _dt.UTC)


def match_to_mat(
    row: MatchRow,
    events: Sequence[EventRecord],
    *,
    site: str = "gammon-bot",
    date: _dt.datetime | None = None,
) -> str:
    """The ``.mat`` text of a stored match (finished, running or cancelled).

    ``date`` defaults to when the match was created (UTC).
    """
    builder = _build(row, events)
    options = row.options
    names = _names(row)
    when = _when(row, date)
    money = options.is_money
    header = [
        f'; [Site "{_header_value(site)}"]',
        f'; [Match ID "{row.id}"]',
        f'; [Player 1 "{_header_value(names[0])}"]',
        f'; [Player 2 "{_header_value(names[1])}"]',
        f'; [EventDate "{when:%Y.%m.%d}"]',
        f'; [EventTime "{when:%H.%M}"]',
        '; [Variation "Backgammon"]',
        f'; [Unrated "{"Off" if row.rated else "On"}"]',
        f'; [Crawford "{"Off" if money else "On"}"]',
        f'; [Jacoby "{"On" if options.jacoby else "Off"}"]',
        f'; [Beaver "{"On" if options.beavers else "Off"}"]',
        f'; [CubeLimit "{MAX_CUBE if options.cube else 1}"]',
    ]
    if not options.cube:
        header.append("; Played without the doubling cube.")
    for game in builder.games:
        header.extend(f"; {note}" for note in game.notes)
    header.extend(f"; {note}" for note in builder.notes)

    out = [*header, "", f" {options.length} point match", ""]
    for game in builder.games:
        out.append(f" Game {game.number}")
        out.append(_score_line(names, game.score))
        out.extend(_lines(_mat_texts(game.entries)))
        out.append("")
    return "\n".join(out) + "\n"


# --- GNU Backgammon's SGF ------------------------------------------------------------------


def _sgf_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _sgf_point(point: int, player: int) -> str:
    """A point in SGF letters: a-x from player 0's side (x-a for player 1), bar y, off z."""
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - point + 1)


def _sgf_node(entry: _Entry) -> str | None:
    colour = "W" if entry.player == 0 else "B"
    kind = entry.kind
    dice = f"{entry.dice[0]}{entry.dice[1]}"
    if kind == Action.MOVE:
        moves = "".join(
            _sgf_point(a, entry.player) + _sgf_point(b, entry.player) for a, b, _ in entry.moves
        )
        return f"{colour}[{dice}{moves}]"
    if kind == Action.ROLL:
        return f"PL[{colour}]DI[{dice}]"
    if kind in (Action.DOUBLE, Action.BEAVER):
        return f"{colour}[double]"  # a beaver is a double while doubled
    if kind in (Action.TAKE, Action.DROP):
        return f"{colour}[{kind}]"
    return None  # the result is the root's RE property


def match_to_sgf(
    row: MatchRow,
    events: Sequence[EventRecord],
    *,
    site: str = "gammon-bot",
    date: _dt.datetime | None = None,
) -> str:
    """The match as GNU Backgammon's SGF (``load match``): one game tree per game.

    Unlike ``.mat``, SGF states the Jacoby rule and automatic doubles, and a resignation is
    the result of the game (``RE[W+2R]``).
    """
    builder = _build(row, events)
    options = row.options
    names = _names(row)
    when = _when(row, date)
    trees = []
    for index, game in enumerate(builder.games):
        root = [
            "FF[4]GM[6]CA[UTF-8]AP[gammon-bot]",
            f"MI[length:{options.length}][game:{index}][ws:{game.score[0]}][bs:{game.score[1]}]",
            f"PW[{_sgf_text(names[0])}]PB[{_sgf_text(names[1])}]",
            f"DT[{when:%Y-%m-%d}]PC[{_sgf_text(site)}]",
        ]
        if options.length:
            root.append("RU[Crawford:CrawfordGame]" if game.crawford else "RU[Crawford]")
        elif options.jacoby:
            root.append("RU[Jacoby]")
        if game.cube > 1:
            root.append(f"CV[{game.cube}]")
        notes = game.notes + (builder.notes if index == len(builder.games) - 1 else [])
        if notes:
            root.append(f"GC[{_sgf_text(' '.join(notes))}]")
        if game.result is not None:
            winner, points, resigned = game.result
            root.append(f"RE[{'W' if winner == 0 else 'B'}+{points}{'R' if resigned else ''}]")
        nodes = [node for node in map(_sgf_node, game.entries) if node is not None]
        trees.append("(;" + "".join(root) + "".join(f"\n;{node}" for node in nodes) + ")")
    return "".join(f"{tree}\n" for tree in trees)


FORMATS = ("mat", "sgf")


def export_text(
    row: MatchRow,
    events: Sequence[EventRecord],
    kind: str = "mat",
    *,
    site: str = "gammon-bot",
    date: _dt.datetime | None = None,
) -> str:
    """The match as ``kind`` ("mat" or "sgf")."""
    if kind not in FORMATS:
        raise ValueError(f"a match file is .mat or .sgf, not {kind!r}")
    write = match_to_mat if kind == "mat" else match_to_sgf
    return write(row, events, site=site, date=date)


async def export_match(
    store: Storage, match_id: int, kind: str = "mat", *, site: str = "gammon-bot"
) -> str:
    """Load a match and its events and return its ``.mat`` (or SGF) text.

    Raises LookupError when there is no such match.
    """
    row = await store.get_match(match_id)
    if row is None:
        raise LookupError(f"there is no match {match_id}")
    events = await store.events(match_id)
    return export_text(row, events, kind, site=site)


async def export_from_database(database: str | Path, match_id: int, kind: str = "mat") -> str:
    """Open the bot's database, export one match, close it (``python -m bot export``).

    Raises LookupError when there is no such match.
    """
    store = await open_store(database)
    try:
        return await export_match(store, match_id, kind)
    finally:
        await store.close()


def mat_filename(row: MatchRow, kind: str = "mat") -> str:
    """A file name for the attachment, e.g. ``match-42-alice-vs-bob.mat``."""

    def slug(name: str) -> str:
        text = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")
        return text[:20] or "player"

    names = f"{slug(row.player_names[0])}-vs-{slug(row.player_names[1])}"
    return f"match-{row.id}-{names}.{kind}"


__all__ = [
    "FORMATS",
    "clean_name",
    "export_from_database",
    "export_match",
    "export_text",
    "mat_filename",
    "match_to_mat",
    "match_to_sgf",
]
