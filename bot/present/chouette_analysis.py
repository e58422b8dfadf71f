"""A chouette's analysis in words: for each player, their checker plays (the captain's, and
the box's) and their cube decisions (each member's own cube, the box's answers), apart, as
the issue asks, then their biggest mistakes, in the reader's language.

Built from the analysis's values (:class:`bot.computer.PlayerAnalysis` by player id) and the
session's names; the ratings' and mistakes' words are the match analysis's own
(:mod:`bot.present.pages`), so a chouette and a match read alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.computer import PlayerAnalysis
from bot.features.chouette.rules import Chouette
from bot.i18n import N_, Text, _, join, say
from bot.present.pages import RATING_WORDS
from bot.present.words import fit

Display = Callable[[str], str]


def _rate(error: float, decisions: int) -> float:
    """Millipoints lost per decision (GNU Backgammon's error rate)."""
    return 1000.0 * error / decisions if decisions else 0.0


def _games(games: Sequence[int]) -> Text:
    listed = ", ".join(str(number) for number in games)
    return N_("game {games}", "games {games}", len(games), games=listed)


def analysis_text(
    session: int,
    games: Sequence[int],
    analyses: Mapping[int, PlayerAnalysis],
    s: Chouette,
    language: str,
    display: Display = str,
) -> str:
    """Per player: checker plays and cube decisions with their error rates, the rating,
    blunders and the three biggest mistakes; players in seat order."""
    title = _("**Chouette #{number}: analysis of {games}**", number=session, games=_games(games))
    if not analyses:
        return say(join([title, _("There is nothing to analyse yet.")], "\n"), language)
    blocks: list[Text] = [title]
    for seat in s.seats:
        result = analyses.get(seat.id)
        if result is None:
            continue
        head = _(
            "**{name}**: checker {checker} ({checker_rate:.1f} millipoints each), cube "
            "{cube} ({cube_rate:.1f} millipoints each); {rating}, {blunders}.",
            name=display(seat.name),
            checker=N_(
                "{n} play", "{n} plays", result.checker_decisions, n=result.checker_decisions
            ),
            checker_rate=_rate(result.checker_error, result.checker_decisions),
            cube=N_(
                "{n} decision", "{n} decisions", result.cube_decisions, n=result.cube_decisions
            ),
            cube_rate=_rate(result.cube_error, result.cube_decisions),
            rating=RATING_WORDS.get(str(result.rating), str(result.rating)),
            blunders=N_("{n} blunder", "{n} blunders", result.blunders, n=result.blunders),
        )
        lines: list[Text] = [head]
        for number, mistake in enumerate(result.mistakes, start=1):
            lines.append(
                _(
                    "{number}. {position}: played {made}, better {best} (−{lost:.3f})",
                    number=number,
                    position=mistake.position_id,
                    made=mistake.made,
                    best=mistake.best,
                    lost=mistake.equity_lost,
                )
            )
        blocks.append(join(lines, "\n"))
    return fit(say(join(blocks, "\n\n"), language))


__all__ = ["analysis_text"]
