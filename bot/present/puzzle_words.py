"""The words around a puzzle in Discord: the private puzzle, the daily post and its reveal,
the puzzle settings and leaderboard. The puzzle itself (question, grade, reveal) is told by
:mod:`bot.present.puzzles`.

Privacy: nobody is named unless the server chose to name players (then the source match's
two players and a link to its channel); a solver is told that a mistake was their own only
in their private messages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.features.puzzles.rules import Puzzle, SolverStanding, Streak, Verdict
from bot.i18n import N_, Text, _, join, say
from bot.present.puzzles import (
    answer_words,
    puzzle_leaderboard_lines,
    puzzle_prompt,
    rating_change_line,
    streak_line,
    verdict_text,
)

__all__ = [
    "ANSWER",
    "BOARD_NAMES",
    "WITHDRAWN",
    "daily_text",
    "given_text",
    "leaderboard_text",
    "outcome_text",
    "reveal_text",
    "settings_text",
]

ANSWER = _("Answer")
BOARD_NAMES = (_("You"), _("Opponent"))
NOT_ADMIN = _("Only members with Manage Server can change the daily puzzle.")
LEADERBOARD_TITLE = _("Puzzle leaderboard")
WITHDRAWN = _(
    "This daily puzzle was withdrawn: a player of its game keeps their games out of puzzles."
)
OWN = _(
    "This position is from one of your own games, where you went wrong. Find the better answer."
)


def _source(names: tuple[str, str] | None, link: str | None) -> Text | None:
    if names is None:
        return None
    if link:
        return _("From {first} vs {second}: {link}", first=names[0], second=names[1], link=link)
    return _("From {first} vs {second}.", first=names[0], second=names[1])


def given_text(
    puzzle: Puzzle,
    *,
    own: bool,
    names: tuple[str, str] | None = None,
    link: str | None = None,
    language: str | None = None,
) -> str:
    """The words of a puzzle given privately: whose mistake it was (only to its maker),
    the source when the server names players, then the situation and the question."""
    lines: list[Text | str] = []
    if own:
        lines.append(OWN)
    source = _source(names, link)
    if source is not None:
        lines.append(source)
    lines.append(puzzle_prompt(puzzle))
    return say(join(lines, "\n"), language)


def outcome_text(
    verdict: Verdict,
    *,
    rated: bool,
    before: float,
    after: float,
    solved: Streak,
    days: Streak,
    language: str | None = None,
) -> str:
    """The private reveal after an answer, with the rating change and the streaks."""
    lines: list[Text | str] = [verdict_text(verdict, language=language)]
    if rated:
        lines.append(rating_change_line(before, after))
    else:
        lines.append(_("You had answered this puzzle before: graded, not rated again."))
    lines.append(streak_line(solved, days))
    return say(join(lines, "\n"), language)


def daily_text(
    puzzle: Puzzle,
    *,
    names: tuple[str, str] | None = None,
    link: str | None = None,
    language: str | None = None,
) -> str:
    """The public daily post: the question, and how to answer (privately); the source
    match only where the server chose to name players."""
    lines: list[Text | str] = [
        _(
            "**Puzzle of the day.** Press Answer to solve it privately; the answer comes "
            "in 24 hours."
        )
    ]
    source = _source(names, link)
    if source is not None:
        lines.append(source)
    lines.append(puzzle_prompt(puzzle))
    return say(join(lines, "\n"), language)


def reveal_text(
    puzzle: Puzzle,
    solvers: Sequence[int],
    *,
    name: Callable[[int], str],
    names: tuple[str, str] | None = None,
    link: str | None = None,
    language: str | None = None,
) -> str:
    """The public reveal of a daily puzzle: the best answer, the runners-up and who solved
    it, behind spoilers; the source match as the post gave it, only where the server
    names players."""
    best = puzzle.best
    lines: list[Text | str] = [
        _(
            "**Yesterday's puzzle:** the best answer was ||{answer} ({equity:+.3f})||.",
            answer=answer_words(best),
            equity=best.equity,
        )
    ]
    source = _source(names, link)
    if source is not None:
        lines.append(source)
    others = [
        Text(
            "{answer} ({behind:+.3f})",
            {"answer": answer_words(item), "behind": item.equity - best.equity},
        )
        for item in puzzle.top(3)[1:]
    ]
    if others:
        lines.append(_("Next best: ||{others}||", others=join(others, ", ")))
    if solvers:
        shown = ", ".join(name(uid) for uid in solvers[:20])
        lines.append(
            N_(
                "Solved by {n} player: ||{names}||",
                "Solved by {n} players: ||{names}||",
                len(solvers),
                n=len(solvers),
                names=shown,
            )
        )
    else:
        lines.append(_("Nobody found it this time."))
    situation = puzzle.situation
    lines.append(
        _(
            "Position ID {position} · Match ID {match}",
            position=situation.position_id,
            match=situation.match_id,
        )
    )
    return say(join(lines, "\n"), language)


def settings_text(
    channel: str | None, minute: int, name_players: bool, *, language: str | None = None
) -> str:
    """The server's puzzle settings, after a change."""
    if channel is None:
        daily: Text = _("The daily puzzle is off.")
    else:
        daily = _(
            "The daily puzzle is posted in {channel} at {time} UTC.",
            channel=channel,
            time=f"{minute // 60:02d}:{minute % 60:02d}",
        )
    names = (
        _("Puzzles name the players of the source match and link it.")
        if name_players
        else _("Puzzles never name players.")
    )
    return say(join([daily, names], "\n"), language)


def leaderboard_text(
    rows: Sequence[SolverStanding], *, name: Callable[[int], str], language: str | None = None
) -> str:
    if not rows:
        return say(_("No one has a settled puzzle rating yet: solve a few more puzzles."), language)
    return "\n".join(puzzle_leaderboard_lines(rows, name=name, language=language))


def kept_out_line(kept_out: bool) -> Text:
    """The player's puzzle privacy, for /backgammon settings."""
    if kept_out:
        return _("Puzzles: your games are kept out.")
    return _("Puzzles: your games may be used for this server's puzzles.")
