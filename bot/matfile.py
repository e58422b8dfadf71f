"""Match files for GNU Backgammon: a stored match as Jellyfish ``.mat`` text.

GNU Backgammon, eXtreme Gammon and most other programs read this format (``import mat``).
The text is built from the event log alone, replayed through the engine, so it holds
exactly what was played: every roll and play (points numbered from the mover's own side,
bar 25, off 0, ``*`` for a hit, one move per die), cube actions, resignations and scores.

What GNU Backgammon makes of the text, checked by importing it (``tests/test_matfile.py``):

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
  gives the claimant their points (at most a backgammon).

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

from bot.engine import Game, Phase
from bot.session import replay_event
from bot.store import EventRecord, MatchRow, Store

# GNU Backgammon keeps at most 31 bytes of a player's name.
MAX_NAME_BYTES = 31
# Where the right-hand column starts, as GNU Backgammon's own export lays it out.
LEFT_WIDTH = 28
NAME_WIDTH = 31

_ROLL = re.compile(r"^[1-6][1-6]:")


def clean_name(name: str, fallback: str = "Player") -> str:
    """A player's name that the ``.mat`` format can hold.

    Commas (GamesGrid puts ratings after them), colons (they end the name in a game's score
    line) and control characters such as newlines become spaces; runs of white space shrink
    to one space; the result is cut to 31 bytes of UTF-8 on a character boundary.

    >>> clean_name("  Ann  Smith,1800 ")
    'Ann Smith 1800'
    >>> clean_name(":::", "Player 2")
    'Player 2'
    """
    chars = []
    for char in unicodedata.normalize("NFC", name):
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


@dataclass(slots=True)
class _Entry:
    """One action in a player's column. ``kind`` marks the entries rewritten later."""

    player: int
    text: str
    kind: str = ""


@dataclass(slots=True)
class _GameText:
    number: int
    score: tuple[int, int]
    entries: list[_Entry] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _moves_text(game: Game) -> str:
    """The play just made, one move per die in the order made, as the format writes it."""
    assert game.last_play is not None
    return " ".join(
        f"{move.source}/{move.target}{'*' if move.hit else ''}" for move in game.last_play.moves
    )


def _wins(points: int, *, match: bool) -> str:
    return f"Wins {_points(points)}{' and the match' if match else ''}"


class _Builder:
    """Walks the event log and collects each game's column entries."""

    def __init__(self, row: MatchRow) -> None:
        self.row = row
        self.games: list[_GameText] = []
        self.game: Game | None = None
        self.pending: Game | None = None  # rolled, not yet played
        self.notes: list[str] = []

    @property
    def current(self) -> _GameText:
        return self.games[-1]

    def add(self, player: int, text: str, kind: str = "") -> None:
        self.current.entries.append(_Entry(player, text, kind))

    def flush_roll(self) -> None:
        """Write a roll that was never played: the bare dice, unless its play was forced."""
        rolled, self.pending = self.pending, None
        if rolled is None or rolled.dice is None:
            return
        if len(rolled.legal_plays()) > 1:
            self.add(rolled.on_roll, f"{rolled.dice[0]}{rolled.dice[1]}:")

    def finish(self, game: Game) -> None:
        assert game.result is not None
        self.add(game.result.winner, _wins(game.result.points, match=self._wins_match(game)))

    def _wins_match(self, game: Game) -> bool:
        return bool(game.options.length) and game.match_over

    def feed(self, event: EventRecord) -> None:
        before = self.game
        game = self.game = replay_event(self.row.options, before, event)
        action = event.action
        if action in ("start", "next_game"):
            self.flush_roll()
            self.games.append(_GameText(game.game_number, game.score))
            return
        if action == "opening":
            if game.cube > (before.cube if before else 1):
                self.current.notes.append(
                    f"Game {game.game_number}: a tied opening roll turned the cube to "
                    f"{game.cube} (automatic doubles)."
                )
            if game.phase is Phase.MOVE:
                self.pending = game
        elif action == "roll":
            self.pending = game
        elif action == "move":
            assert before is not None and before.dice is not None
            self.pending = None
            d1, d2 = before.dice
            self.add(before.on_roll, f"{d1}{d2}: {_moves_text(game)}")
            if game.phase is Phase.OVER:
                self.finish(game)
        elif action == "pass":
            assert before is not None and before.dice is not None
            self.pending = None
            d1, d2 = before.dice
            self.add(before.on_roll, f"{d1}{d2}:")
        elif action == "double":
            assert before is not None
            self.add(before.on_roll, f"Doubles => {before.cube * 2}")
        elif action == "beaver":
            assert before is not None
            self.add(1 - before.on_roll, f"=> {game.cube * 2}", "beaver")
        elif action == "take":
            assert before is not None and before.actor is not None
            self.add(before.actor, "Takes", "take")
        elif action == "drop":
            assert before is not None and before.actor is not None
            self.add(before.actor, "Drops", "drop")
            self.finish(game)
        elif action in ("resign_accept", "claim"):
            self.flush_roll()
            self.finish(game)
            if action == "claim":
                assert game.result is not None
                names = self.row.player_names
                self.notes.append(
                    f"{clean_name(names[game.result.winner])} won game {game.game_number} "
                    f"by a claim for inactivity ({_points(game.result.points)})."
                )
        elif action == "cancel":
            self.flush_roll()
            self.notes.append("The match was cancelled by a moderator: no result.")

    def close(self) -> None:
        self.flush_roll()
        for game in self.games:
            game.entries = _settle_beavers(game.entries)


def _settle_beavers(entries: list[_Entry]) -> list[_Entry]:
    """Write each beaver the way GNU Backgammon reads it back without side effects."""
    out: list[_Entry] = []
    skip = -1
    for index, entry in enumerate(entries):
        if index == skip:
            continue
        if entry.kind != "beaver":
            out.append(entry)
            continue
        answer = entries[index + 1] if index + 1 < len(entries) else None
        after = entries[index + 2] if index + 2 < len(entries) else None
        if (
            answer is not None
            and answer.kind == "take"
            and after is not None
            and after.player == answer.player
            and _ROLL.match(after.text)
        ):
            # The doubler's roll says they took the beaver (GNU Backgammon's own export).
            out.append(_Entry(entry.player, f"Beavers {entry.text}"))
            skip = index + 1
        else:
            out.append(_Entry(entry.player, f"Doubles {entry.text}"))
    return out


def _lines(entries: Sequence[_Entry]) -> list[str]:
    """Lay the entries out in two columns, a new numbered line whenever the left one acts."""
    rows: list[list[str | None]] = []
    for entry in entries:
        if entry.player == 0 or not rows or rows[-1][1] is not None:
            rows.append([None, None])
        rows[-1][entry.player] = entry.text
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
    builder = _Builder(row)
    for event in events:
        builder.feed(event)
    builder.close()

    options = row.options
    names = (
        clean_name(row.player_names[0], "Player 1"),
        clean_name(row.player_names[1], "Player 2"),
    )
    when = date or _dt.datetime.fromtimestamp(row.created_at, _dt.UTC)
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
        f'; [CubeLimit "{4096 if options.cube else 1}"]',
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
        out.extend(_lines(game.entries))
        out.append("")
    return "\n".join(out) + "\n"


async def export_match(store: Store, match_id: int, **kwargs: object) -> str:
    """Load a match and its events and return its ``.mat`` text.

    Raises LookupError when there is no such match.
    """
    row = await store.get_match(match_id)
    if row is None:
        raise LookupError(f"there is no match {match_id}")
    events = await store.events(match_id)
    return match_to_mat(row, events, **kwargs)  # type: ignore[arg-type]


async def export_from_database(database: str | Path, match_id: int) -> str:
    """Open the bot's database, export one match, close it (``python -m bot export``).

    Raises LookupError when there is no such match.
    """
    store = await Store.open(database)
    try:
        return await export_match(store, match_id)
    finally:
        await store.close()


def mat_filename(row: MatchRow) -> str:
    """A file name for the attachment, e.g. ``match-42-alice-vs-bob.mat``."""

    def slug(name: str) -> str:
        text = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")
        return text[:20] or "player"

    return f"match-{row.id}-{slug(row.player_names[0])}-vs-{slug(row.player_names[1])}.mat"


__all__ = ["clean_name", "export_from_database", "export_match", "mat_filename", "match_to_mat"]
