"""Pure helpers of the Discord layer: the words and orderings the cog and publisher share.

Owns the autocomplete order of legal plays, board captions and links, the text of a result
message with the users it pings, reminder and "your games" lines, and waited-time words.
Nothing here does I/O or touches Discord objects beyond reading a user's id and name: every
function takes plain records and returns words waiting for a language (:class:`bot.i18n.Text`)
or, given the language, the finished text, so each is testable alone.

May import: :mod:`bot.i18n`, :mod:`bot.present`, :mod:`bot.records`, :mod:`bot.session`
(its records), :mod:`cogs.replies` (name escaping) and the renderers' word records
(:class:`~renderers.panels.BoardWords`, :class:`~renderers.charts.ChartLabels`). Never
:mod:`cogs.backgammon` or :mod:`cogs.publishing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot import present
from bot.fairdice import Verdict, VerifyResult
from bot.i18n import N_, Text, _, say
from bot.records import Action, ClaimRule, MatchRow, Status
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
        return f"<#{row.channel_id}>"
    channel_id, message_id = row.board
    return f"https://discord.com/channels/{row.guild_id}/{channel_id}/{message_id}"


def waited(seconds: float) -> Text:
    """How long someone has waited, in the largest unit that reads naturally.

    >>> [str(waited(s)) for s in (30, 60, 119 * 60, 3 * 3600, 50 * 3600)]
    ['under a minute', '1 minute', '119 minutes', '3 hours', '2 days']
    """
    minutes = int(seconds // 60)
    if minutes < 1:
        return _("under a minute")
    if minutes < 120:
        return N_("{n} minute", "{n} minutes", minutes, n=minutes)
    hours = minutes // 60
    if hours < 48:
        return N_("{n} hour", "{n} hours", hours, n=hours)
    return N_("{n} day", "{n} days", hours // 24, n=hours // 24)


def versus(row: MatchRow) -> Text:
    """Both players' escaped names: "alice vs bob"."""
    return _(
        "{first} vs {second}",
        first=safe_name(row.player_names[0]),
        second=safe_name(row.player_names[1]),
    )


def board_caption(row: MatchRow) -> Text:
    """One line saying which game the board shows: the match and score, or the cube."""
    game = row.game
    assert game is not None
    if game.options.length:
        a, b = game.score
        return _(
            "{players}, game {number} of a {length}-point match ({a}-{b}).",
            players=versus(row),
            number=game.game_number,
            length=game.options.length,
            a=a,
            b=b,
        )
    return _("{players}: money game, cube at {cube}.", players=versus(row), cube=game.cube)


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
    step = present.next_step(report.match, mention, language=language)
    parts = [text, step or ""]
    return present.fit("\n".join(p for p in parts if p)), pinged


def reminder_text(row: MatchRow, user_id: int, idle_seconds: float, language: str = "en") -> str:
    """The ping, in ``language``, for a player who has sat on their turn for ``idle_seconds``."""
    me = row.player_index(user_id)
    assert me is not None
    minutes = max(1, round(idle_seconds / 60))
    text = N_(
        "<@{user}>, it's your turn against {opponent} (waiting {n} minute).",
        "<@{user}>, it's your turn against {opponent} (waiting {n} minutes).",
        minutes,
        user=user_id,
        opponent=safe_name(row.player_names[1 - me]),
        n=minutes,
    )
    board = f" {board_link(row)}" if row.board else ""
    return say(text, language) + board


def games_text(rows: list[MatchRow], me: int, now: float, language: str = "en") -> str:
    """A player's live games in ``language``, one line each: where, against whom, whose
    turn, how long."""
    lines: list[Text] = []
    for row in rows:
        mine = row.player_index(me)
        assert mine is not None
        other = safe_name(row.player_names[1 - mine])
        if row.status == Status.CHALLENGE:
            where = f"<#{row.channel_id}>"
            if mine == 1:
                line = _(
                    "{where} challenge with {other}: waiting for you to accept.",
                    where=where,
                    other=other,
                )
            else:
                line = _(
                    "{where} challenge with {other}: waiting for {other}.", where=where, other=other
                )
            lines.append(line)
            continue
        game = row.game
        assert game is not None
        turn = (
            _("your turn")
            if game.actor == mine
            else _("{other}'s turn", other=other)
            if game.actor is not None
            else _("between games")
        )
        lines.append(
            _(
                "{link} vs {other}: {turn}, waiting {waited}.",
                link=board_link(row),
                other=other,
                turn=turn,
                waited=waited(now - row.last_action_at),
            )
        )
    if not lines:
        return say(_("You have no live games on this server."), language)
    return "\n".join(say(line, language) for line in lines)


# Each language's name in its own words: the same whichever language reads it.
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}


def settings_text(
    notify: str,
    notify_minutes: int,
    board_side: str,
    theme: str,
    threads: bool,
    server_language: str | None = None,
    language: str = "en",
    *,
    claim: ClaimRule = ClaimRule.MATCH,
) -> str:
    """A player's own settings and the server's choices, as the settings reply in
    ``language``. ``server_language``: the language moderators chose for the server's games
    (None: the server's Discord language)."""
    notice = {
        "on": _("pinged when it becomes your turn"),
        "off": _("never pinged for your turn"),
        "idle": N_(
            "pinged after {n} idle minute on your turn",
            "pinged after {n} idle minutes on your turn",
            notify_minutes,
            n=notify_minutes,
        ),
    }[notify]
    side = {"right": _("right"), "left": _("left")}.get(board_side, board_side)
    colours = {"classic": _("classic"), "dark": _("dark")}.get(theme, theme)
    lines = [
        _("Turn notices: {notice}.", notice=notice),
        _("Board: home board on the {side}, {theme} colours.", side=side, theme=colours),
        _("This server: a thread for each game.")
        if threads
        else _("This server: games in the channel."),
        _("Game messages: {language}.", language=LANGUAGE_NAMES[server_language])
        if server_language in LANGUAGE_NAMES
        else _("Game messages: the server's Discord language."),
        _("A claim for inactivity wins the match by forfeit (unrated).")
        if claim is ClaimRule.MATCH
        else _("A claim for inactivity wins the game in progress."),
    ]
    return "\n".join(say(line, language) for line in lines)


def verify_words(result: VerifyResult) -> Text:
    """A dice check's verdict in one sentence (:attr:`VerifyResult.text`, for readers)."""
    if result.verdict is Verdict.MATCH:
        return N_(
            "The dice match: the secret regenerates the {n} roll of the match.",
            "The dice match: the secret regenerates all {n} rolls of the match.",
            result.rolls_checked,
            n=result.rolls_checked,
        )
    if result.verdict is Verdict.MISMATCH:
        return _(
            "The dice do NOT match: roll {roll} should be {expected} but the record shows "
            "{recorded}.",
            roll=result.roll,
            expected=_pair(result.expected),
            recorded=_pair(result.recorded),
        )
    if result.verdict is Verdict.COMMITMENT_MISMATCH:
        return _(
            "The secret does NOT match the commitment posted at the start: its SHA-256 is "
            "{commitment}.",
            commitment=result.commitment,
        )
    return _("That is not a dice secret: {problem}.", problem=result.problem)


def _pair(dice: tuple[int, ...] | None) -> Text | str:
    return "-".join(str(d) for d in dice) if dice else _("nothing")
