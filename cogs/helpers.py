"""Pure helpers of the Discord layer: the words and orderings the cog and publisher share.

Owns the autocomplete order of legal plays, board links, the text of a result message with
the users it pings, and Discord's way with names, links and places in club life's words
(the words themselves are in :mod:`bot.present.club`). Nothing here does I/O or touches
Discord objects beyond reading a user's id and name: every function takes plain records and
returns words waiting for a language (:class:`bot.i18n.Text`) or, given the language, the
finished text, so each is testable alone.

May import: :mod:`bot.i18n`, :mod:`bot.present`, :mod:`bot.core.records`, :mod:`bot.core.session`
(its records), :mod:`cogs.replies` (name escaping) and the renderers' word records
(:class:`~renderers.panels.BoardWords`, :class:`~renderers.charts.ChartLabels`). Never
:mod:`cogs.backgammon` or :mod:`cogs.publishing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot import present
from bot.core.records import Action, MatchRow, Status
from bot.core.session import Player, Report
from bot.i18n import Text, say
from bot.present import club
from cogs.replies import safe_name

if TYPE_CHECKING:
    import discord

AUTOCOMPLETE_LIMIT = 25
CHOICE_NAME_LIMIT = 100


def player_of(user: discord.abc.User) -> Player:
    """The session's view of a Discord user."""
    return Player(user.id, user.display_name, user.bot)


def rank_plays(plays: list[str], typed: str) -> list[str]:
    """Autocomplete order: plays the text begins, then plays holding the typed moves in
    any order, then plays containing the text; each group from the highest points.

    Discord's mobile app sends only the text before the cursor, so what is typed is read
    as the start of a play. It is read the way players write: commas or spaces, ``25/``
    for the bar, ``/0`` for off, the hit mark ``*`` optional.

    >>> rank_plays(["8/5 6/5", "24/21 13/11", "13/10 13/11"], "13")
    ['13/10 13/11', '24/21 13/11']
    >>> rank_plays(["24/18* 13/8", "24/18* 18/13"], "13/8, 24/18")
    ['24/18* 13/8']
    """
    needle = _normal(typed)
    ordered = sorted(plays, key=_natural_key)
    if not needle:
        return ordered[:AUTOCOMPLETE_LIMIT]
    keys = {p: _normal(p) for p in ordered}
    prefix = [p for p in ordered if keys[p].startswith(needle)]
    taken = set(prefix)
    tokens = needle.split()
    any_order = [p for p in ordered if p not in taken and _holds(keys[p].split(), tokens)]
    taken.update(any_order)
    contains = [p for p in ordered if needle in keys[p] and p not in taken]
    return (prefix + any_order + contains)[:AUTOCOMPLETE_LIMIT]


def play_choices(plays: list[str], typed: str) -> list[tuple[str, str]]:
    """The autocomplete choices as (name, value): every name distinct (Discord's mobile
    app merges choices of the same name) and within Discord's 100 characters."""
    choices: dict[str, str] = {}
    for play in rank_plays(plays, typed):
        if len(play) <= CHOICE_NAME_LIMIT and play not in choices:
            choices[play] = play
    return list(choices.items())


def _normal(text: str) -> str:
    """A play as compared: lower case, single spaces, ``bar``/``off`` words, no ``*``."""
    words = []
    for word in text.lower().replace(",", " ").replace("*", "").split():
        parts = word.split("/")
        parts = [
            "bar" if p == "25" else "off" if p == "0" and i else p for i, p in enumerate(parts)
        ]
        words.append("/".join(parts))
    return " ".join(words)


def _holds(moves: list[str], typed: list[str]) -> bool:
    """Whether a play's moves include every typed move (the last one may be unfinished)."""
    left = list(moves)
    for word in typed[:-1]:
        if word not in left:
            return False
        left.remove(word)
    return any(move.startswith(typed[-1]) for move in left)


def _natural_key(play: str) -> tuple[tuple[int, ...], str]:
    """Plays that move from the highest points first, the way players read them."""
    numbers = []
    for part in play.replace("(", " ").replace(")", " ").replace("*", "").split():
        for point in part.split("/"):
            numbers.append(25 if point == "bar" else 0 if point == "off" else int(point))
    return tuple(-n for n in numbers), play


def board_link(row: MatchRow) -> str:
    """A link that jumps to the match's latest board (or to its channel)."""
    if row.board is None:
        return channel_place(row)
    channel_id, message_id = row.board
    return f"https://discord.com/channels/{_server_part(row)}/{channel_id}/{message_id}"


def _server_part(row: MatchRow) -> str:
    """How Discord's links name a match's server: its id, or ``@me`` for a DM or group DM."""
    return str(row.guild_id) if row.guild_id else "@me"


def board_report(row: MatchRow) -> Report:
    """A report that only shows the current board (stores nothing)."""
    assert row.game is not None
    return Report(Action.BOARD, row, [row.game])


def next_actor(report: Report) -> int | None:
    """The person who must act next, if any (never the computer)."""
    row, game = report.match, report.match.game
    if row.status != Status.PLAYING or game is None or game.actor is None:
        return None
    if row.computer_level is not None and game.actor == 1:
        return None
    return row.player_ids[game.actor]


def message_content(
    report: Report,
    notify: int | None = None,
    language: str = "en",
    notes: Sequence[Text] = (),
) -> tuple[str, list[int]]:
    """A result message's text in ``language`` and the users it pings.

    ``notify``: the player to act, when they are to be pinged; the challenged player of a
    new challenge is always pinged (the challenge names them by their mention, whatever the
    language). ``notes``: the front end's own lines after the story (a thread it could not
    open).
    """
    pinged: list[int] = []

    def mention(user_id: int, name: str) -> str:
        if user_id != notify:
            return safe_name(name)
        pinged.append(user_id)
        return f"<@{user_id}>"

    challenge = report.match.status == Status.CHALLENGE
    if challenge:
        notify = report.match.player_ids[1]
    if report.action is Action.BOARD:
        lines = [board_caption(report.match)]
    else:
        lines = present.tell(report, safe_name, mention if challenge else None)
    lines.extend(notes)
    text = " ".join(say(line, language) for line in lines)
    row = report.match
    # Where the bot is not in the channel the players have buttons, not commands, and no
    # reminder comes: the board says how long the turn has waited (Discord shows the time
    # relative to the reader's clock, and keeps it current).
    elsewhere = not row.venue.reachable
    step = present.next_step(row, mention, commands=not elsewhere, language=language)
    if step and elsewhere:
        since = say(club.last_action_line(f"<t:{int(row.last_action_at)}:R>"), language)
        step = f"{step} {since}"
    parts = [text, step or ""]
    return present.fit("\n".join(p for p in parts if p)), pinged


# --- club life's words, with Discord's names, links and places ------------------------------

waited = club.waited
settings_text = club.settings_text
verify_words = club.verify_words
LANGUAGE_NAMES = club.LANGUAGE_NAMES


def versus(row: MatchRow) -> Text:
    """Both players' escaped names: "alice vs bob"."""
    return club.versus(row, safe_name)


def board_caption(row: MatchRow) -> Text:
    """One line saying which game the board shows: the match and score, or the cube."""
    return club.board_caption(row, safe_name)


def reminder_text(row: MatchRow, user_id: int, idle_seconds: float, language: str = "en") -> str:
    """The ping, in ``language``, for a player who has sat on their turn for ``idle_seconds``."""
    return club.reminder_text(
        row, user_id, idle_seconds, language, display=safe_name, link=board_link
    )


def games_text(rows: list[MatchRow], me: int, now: float, language: str = "en") -> str:
    """A member's live games in ``language``, one line each, with links to their boards."""
    return club.games_text(
        rows, me, now, language, display=safe_name, link=board_link, place=channel_place
    )


def channel_place(row: MatchRow) -> str:
    """Where a match is played, as Discord links a channel (a DM or group DM by its address:
    a mention of one does not resolve)."""
    if not row.guild_id:
        return f"https://discord.com/channels/@me/{row.channel_id}"
    return f"<#{row.channel_id}>"
