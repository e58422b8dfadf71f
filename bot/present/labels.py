"""The words the pictures show, in the reader's language: the renderers never translate.

The board and the charts take a record of finished strings (:class:`~renderers.panels.BoardWords`,
:class:`~renderers.charts.ChartLabels`); this module fills them from the catalogue, once per
language. Both front ends (Discord and the terminal) use it.
"""

from __future__ import annotations

import functools

from bot.i18n import N_, _, say
from renderers.charts import ChartLabels
from renderers.panels import BoardWords


@functools.cache
def board_words(language: str) -> BoardWords:
    """Every word the board picture shows, in ``language`` (the renderer never translates)."""
    w = functools.partial(say, language=language)
    return BoardWords(
        pips=w(_("PIPS")),
        score=w(_("SCORE")),
        to_roll=w(_("to roll")),
        to_roll_or_double=w(_("to roll or double")),
        to_move=w(_("to move")),
        to_take_or_drop=w(_("to take or drop")),
        to_accept_or_reject=w(_("to accept or reject")),
        opening_roll=w(_("opening roll")),
        doubles_to=w(_("doubles to {cube}")),
        wins_points=w(_("wins {points}")),
        resigns=w(_("resigns {kind}")),
        # The templates of the counted message, kept for the renderer to fill ({n} stays).
        point=w(N_("{n} point", "{n} points", 1, n="{n}")),
        points=w(N_("{n} point", "{n} points", 2, n="{n}")),
        kind_names=(w(_("a single game")), w(_("a gammon")), w(_("a backgammon"))),
        kinds=(w(_("single game")), w(_("gammon")), w(_("backgammon"))),
        winner_wins=w(_("{winner} wins {points}")),
        dropped=w(_("{loser} dropped the double")),
        resigned=w(_("{loser} resigned {kind}")),
        forfeited=w(_("{loser} forfeited")),
        wins_match=w(_("wins the match {a}–{b}")),
        tied=w(_("tied {a}–{b}")),
        leads=w(_("{leader} leads {a}–{b}")),
        match_terms=w(_("{length}-point match")),
        crawford=w(_("Crawford game")),
        money_terms=w(_("Money game · stake {cube}")),
        ids=w(_("Position ID {position}   Match ID {match}")),
        player=w(_("Player {n}")),
    )


# The rating chart's month abbreviations, January first.
MONTHS = (
    _("Jan"), _("Feb"), _("Mar"), _("Apr"), _("May"), _("Jun"),
    _("Jul"), _("Aug"), _("Sep"), _("Oct"), _("Nov"), _("Dec"),
)  # fmt: skip


@functools.cache
def chart_labels(language: str) -> ChartLabels:
    """Every word the charts show, in ``language``."""
    w = functools.partial(say, language=language)
    return ChartLabels(
        win_title=w(_("{name}'s chance of winning")),
        game=w(_("game {number}")),
        wins=w(_("{name} wins")),
        play=w(_("play")),
        error=w(_("error")),
        blunder=w(_("blunder")),
        luckiest=w(_("luckiest roll")),
        unluckiest=w(_("unluckiest roll")),
        rating_title=w(_("{name}'s rating")),
        pr_title=w(_("{name}'s PR (lower is better)")),
        no_data=w(_("nothing to show yet")),
        months=tuple(w(month) for month in MONTHS),
    )
