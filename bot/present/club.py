"""The words of club life: captions, waits, reminders, a member's games, settings, dice checks.

The front end formats names (``display``), links to a board (``link``) and places
(``place``) its own way; the sentences are here, once.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.fairdice import Verdict, VerifyResult
from bot.core.records import (
    BoardSide,
    ClaimRule,
    MatchRow,
    Notify,
    Status,
    ThemeName,
    WebLinkRule,
)
from bot.i18n import LANGUAGE_NAMES, N_, Text, _, say
from bot.present.words import minutes_words


def waited(seconds: float) -> Text:
    """How long someone has waited, in the largest unit that reads naturally.

    >>> [str(waited(s)) for s in (30, 60, 119 * 60, 3 * 3600, 50 * 3600)]
    ['under a minute', '1 minute', '119 minutes', '3 hours', '2 days']
    """
    minutes = int(seconds // 60)
    if minutes < 1:
        return _("under a minute")
    if minutes < 120:
        return minutes_words(minutes)
    hours = minutes // 60
    if hours < 48:
        return N_("{n} hour", "{n} hours", hours, n=hours)
    return N_("{n} day", "{n} days", hours // 24, n=hours // 24)


def last_action_line(when: str) -> Text:
    """How long a turn has waited, on a board where no reminder comes (a DM game): ``when``
    is the front end's time of the last action, relative ("5 minutes ago")."""
    return _("Last action {when}.", when=when)


def versus_names(first: str, second: str) -> Text:
    return _("{first} vs {second}", first=first, second=second)


def versus(row: MatchRow, display: Callable[[str], str] = str) -> Text:
    """Both players' names as ``display`` formats them: "alice vs bob"."""
    return versus_names(display(row.player_names[0]), display(row.player_names[1]))


def board_caption(row: MatchRow, display: Callable[[str], str] = str) -> Text:
    """One line saying which game the board shows: the match and score, or the cube."""
    game = row.game
    assert game is not None
    if game.options.length:
        a, b = game.score
        return _(
            "{players}, game {number} of a {length}-point match ({a}-{b}).",
            players=versus(row, display),
            number=game.game_number,
            length=game.options.length,
            a=a,
            b=b,
        )
    return _("{players}: money game, cube at {cube}.", players=versus(row, display), cube=game.cube)


def reminder_text(
    row: MatchRow,
    user_id: int,
    idle_seconds: float,
    language: str = "en",
    *,
    display: Callable[[str], str] = str,
    link: Callable[[MatchRow], str] = lambda row: "",
) -> str:
    """The ping, in ``language``, for a player who has sat on their turn for ``idle_seconds``."""
    me = row.player_index(user_id)
    assert me is not None
    minutes = max(1, round(idle_seconds / 60))
    text = N_(
        "<@{user}>, it's your turn against {opponent} (waiting {n} minute).",
        "<@{user}>, it's your turn against {opponent} (waiting {n} minutes).",
        minutes,
        user=user_id,
        opponent=display(row.player_names[1 - me]),
        n=minutes,
    )
    board = f" {link(row)}" if row.board else ""
    return say(text, language) + board


def games_text(
    rows: list[MatchRow],
    me: int,
    now: float,
    language: str = "en",
    *,
    display: Callable[[str], str] = str,
    link: Callable[[MatchRow], str] = lambda row: "",
    place: Callable[[MatchRow], str] = lambda row: "",
) -> str:
    """A player's live games in ``language``, one line each: where, against whom, whose
    turn, how long."""
    lines: list[Text] = []
    for row in rows:
        mine = row.player_index(me)
        assert mine is not None
        other = display(row.player_names[1 - mine])
        if row.status == Status.CHALLENGE:
            where = place(row)
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
                link=link(row),
                other=other,
                turn=turn,
                waited=waited(now - row.last_action_at),
            )
        )
    if not lines:
        return say(_("You have no live games on this server."), language)
    return "\n".join(say(line, language) for line in lines)


# Each language's name in its own words: the same whichever language reads it.


def settings_text(
    notify: Notify,
    notify_minutes: int,
    board_side: BoardSide,
    theme: ThemeName,
    threads: bool,
    server_language: str | None = None,
    language: str = "en",
    *,
    claim: ClaimRule = ClaimRule.MATCH,
    web: bool = False,
    web_links: WebLinkRule = WebLinkRule.LINK,
    public_leaderboard: bool = False,
) -> str:
    """A player's own settings and the server's choices, as the settings reply in
    ``language``. ``server_language``: the language moderators chose for the server's games
    (None: the server's Discord language); ``web``: the bot has a web board, whose
    choices are told too."""
    notice = {
        Notify.ON: _("pinged when it becomes your turn"),
        Notify.OFF: _("never pinged for your turn"),
        Notify.IDLE: N_(
            "pinged after {n} idle minute on your turn",
            "pinged after {n} idle minutes on your turn",
            notify_minutes,
            n=notify_minutes,
        ),
    }[notify]
    side = {BoardSide.RIGHT: _("right"), BoardSide.LEFT: _("left")}[board_side]
    colours = {ThemeName.CLASSIC: _("classic"), ThemeName.DARK: _("dark")}[theme]
    lines = [
        _("Turn notices: {notice}.", notice=notice),
        _("Board: home board on the {side}, {theme} colours.", side=side, theme=colours),
        _("This server: a thread for each game.")
        if threads
        else _("This server: games in the channel."),
        _("Game messages: {language}.", language=LANGUAGE_NAMES[server_language])
        if server_language is not None and server_language in LANGUAGE_NAMES
        else _("Game messages: the server's Discord language."),
        _("A claim for inactivity wins the match by forfeit (unrated).")
        if claim is ClaimRule.MATCH
        else _("A claim for inactivity wins the game in progress."),
    ]
    if web:
        lines.append(
            _(
                "Web board: a match of a channel every member sees opens from its link; any"
                " other only for who signs in with Discord and can see its channel."
            )
            if web_links is WebLinkRule.LINK
            else _("Web board: every match opens only for who signs in and can see it in Discord.")
        )
        lines.append(
            _("The leaderboard page is public.")
            if public_leaderboard
            else _("The leaderboard page is for this server's members.")
        )
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
