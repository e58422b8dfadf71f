"""Pure helpers of the Discord layer: the words and orderings the cog and publisher share.

Owns the autocomplete order of legal plays, board captions and links, the text of a result
message with the users it pings, reminder and "your games" lines, and waited-time words.
Nothing here does I/O or touches Discord objects beyond reading a user's id and name: every
function takes plain records and returns text, so each is testable alone.

May import: :mod:`bot.present`, :mod:`bot.records`, :mod:`bot.session` (its records) and
:mod:`cogs.replies` (name escaping). Never :mod:`cogs.backgammon` or :mod:`cogs.publishing`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot import present
from bot.records import Action, MatchRow, Status
from bot.session import Player, Report
from cogs.replies import safe_name

if TYPE_CHECKING:
    import discord

AUTOCOMPLETE_LIMIT = 25
CHOICE_NAME_LIMIT = 100


def player_of(user: discord.abc.User) -> Player:
    """The session's view of a Discord user."""
    return Player(user.id, user.display_name, user.bot)


def rank_plays(plays: list[str], typed: str) -> list[str]:
    """Autocomplete order: prefix matches first, then plays containing the text.

    >>> rank_plays(["8/5 6/5", "24/21 13/11", "13/10 13/11"], "13")
    ['13/10 13/11', '24/21 13/11']
    """
    needle = " ".join(typed.lower().split())
    ordered = sorted(plays, key=_natural_key)
    if not needle:
        return ordered[:AUTOCOMPLETE_LIMIT]
    prefix = [p for p in ordered if p.lower().startswith(needle)]
    contains = [p for p in ordered if needle in p.lower() and p not in prefix]
    return (prefix + contains)[:AUTOCOMPLETE_LIMIT]


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
        return f"<#{row.channel_id}>"
    channel_id, message_id = row.board
    return f"https://discord.com/channels/{row.guild_id}/{channel_id}/{message_id}"


def waited(seconds: float) -> str:
    """How long someone has waited, in the largest unit that reads naturally.

    >>> waited(30), waited(60), waited(119 * 60), waited(3 * 3600), waited(50 * 3600)
    ('under a minute', '1 minute', '119 minutes', '3 hours', '2 days')
    """
    minutes = int(seconds // 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = minutes // 60
    return f"{hours} hours" if hours < 48 else f"{hours // 24} days"


def versus(row: MatchRow) -> str:
    """Both players' escaped names: "alice vs bob"."""
    return f"{safe_name(row.player_names[0])} vs {safe_name(row.player_names[1])}"


def board_caption(row: MatchRow) -> str:
    """One line saying which game the board shows: the match and score, or the cube."""
    game = row.game
    assert game is not None
    if game.options.length:
        a, b = game.score
        return (
            f"{versus(row)}, game {game.game_number} of a "
            f"{game.options.length}-point match ({a}-{b})."
        )
    return f"{versus(row)}: money game, cube at {game.cube}."


def board_report(row: MatchRow) -> Report:
    """A report that only shows the current board (stores nothing)."""
    assert row.game is not None
    return Report(Action.BOARD, row, [board_caption(row)], [row.game])


def next_actor(report: Report) -> int | None:
    """The person who must act next, if any (never the computer)."""
    row, game = report.match, report.match.game
    if row.status != Status.PLAYING or game is None or game.actor is None:
        return None
    if row.computer_level is not None and game.actor == 1:
        return None
    return row.player_ids[game.actor]


def message_content(report: Report, notify: int | None = None) -> tuple[str, list[int]]:
    """A result message's text and the users it pings.

    ``notify``: the player to act, when they are to be pinged; the challenged player of a
    new challenge is always pinged.
    """
    parts = [report.text]
    pinged: list[int] = []

    def mention(user_id: int, name: str) -> str:
        if user_id != notify:
            return safe_name(name)
        pinged.append(user_id)
        return f"<@{user_id}>"

    step = present.next_step(report.match, mention)
    if step:
        parts.append(step)
    if report.match.status == Status.CHALLENGE:
        # Ping the challenged player: only the "challenges <name> " phrase, so a
        # challenger whose name contains the opponent's is left alone.
        user_id = report.match.player_ids[1]
        name = safe_name(report.match.player_names[1])
        notify = user_id
        parts[0] = parts[0].replace(
            f" challenges {name} to ", f" challenges {mention(user_id, name)} to ", 1
        )
    return present.fit("\n".join(p for p in parts if p)), pinged


def reminder_text(row: MatchRow, user_id: int, idle_seconds: float) -> str:
    """The ping for a player who has sat on their turn for ``idle_seconds``."""
    me = row.player_index(user_id)
    assert me is not None
    minutes = max(1, round(idle_seconds / 60))
    board = f" {board_link(row)}" if row.board else ""
    return (
        f"<@{user_id}>, it's your turn against {safe_name(row.player_names[1 - me])} "
        f"(waiting {minutes} minute{'s' if minutes != 1 else ''}).{board}"
    )


def games_text(rows: list[MatchRow], me: int, now: float) -> str:
    """A player's live games, one line each: where, against whom, whose turn, how long."""
    lines = []
    for row in rows:
        mine = row.player_index(me)
        assert mine is not None
        other = safe_name(row.player_names[1 - mine])
        if row.status == Status.CHALLENGE:
            who = "waiting for you to accept" if mine == 1 else f"waiting for {other}"
            lines.append(f"<#{row.channel_id}> challenge with {other}: {who}.")
            continue
        game = row.game
        assert game is not None
        turn = (
            "your turn"
            if game.actor == mine
            else f"{other}'s turn"
            if game.actor is not None
            else "between games"
        )
        lines.append(
            f"{board_link(row)} vs {other}: {turn}, waiting {waited(now - row.last_action_at)}."
        )
    return "\n".join(lines) or "You have no live games on this server."


def settings_text(
    notify: str, notify_minutes: int, board_side: str, theme: str, threads: bool
) -> str:
    """A player's own settings and the server's thread choice, as the settings reply."""
    notice = {
        "on": "pinged when it becomes your turn",
        "off": "never pinged for your turn",
        "idle": f"pinged after {notify_minutes} idle minutes on your turn",
    }[notify]
    lines = [
        f"Turn notices: {notice}.",
        f"Board: home board on the {board_side}, {theme} colours.",
        "This server: " + ("a thread for each game." if threads else "games in the channel."),
    ]
    return "\n".join(lines)
