"""Competitions in pictures: the labels of brackets and tables.

The competition core (:mod:`bot.features.tournaments.rules`) holds only facts; the renderer
(:mod:`renderers.standings`) only draws finished words. This module is between them: it
turns an event into a :class:`~renderers.standings.BracketPicture` or
:class:`~renderers.standings.TablePicture` in the reader's language (round names, column
headers, "bye", walkover marks, decimals written the language's way); a refused request is
worded by :mod:`bot.present.refusals`. Names are passed in (the front end knows them); a
player without one is shown by number.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.features.tournaments.rules import (
    Knockout,
    KnockoutMatch,
    Ladder,
    OutcomeKind,
    PlayerId,
    RoundRobin,
    Section,
    Slot,
    Standing,
    Status,
    Swiss,
    TieBreak,
)
from bot.i18n import DECIMAL_SEPARATORS, N_, _, language_of, say
from renderers.standings import (
    BracketMatch,
    BracketPicture,
    BracketSide,
    TablePicture,
    TableRow,
)

MAX_BRACKET_ROUNDS = 3  # columns of matches in one picture: more would not read on a phone


@dataclass(frozen=True, slots=True)
class CompetitionLabels:
    """Every word the competition pictures show; English defaults, translated by
    :func:`competition_labels`."""

    round_n: str = "Round {n}"
    quarter_finals: str = "Quarter-finals"
    semi_finals: str = "Semi-finals"
    final: str = "Final"
    consolation_n: str = "Consolation {n}"
    consolation_final: str = "Consolation final"
    playoff: str = "For 2nd place"
    champion: str = "Champion"
    player: str = "Player"
    points: str = "Pts"
    buchholz: str = "Buch"
    sonneborn_berger: str = "SB"
    points_difference: str = "+/-"
    record: str = "W-L"
    bye: str = "bye"
    walkover: str = "W/O"
    after_round: str = "after round {n} of {total}"
    round_of: str = "round {n} of {total} · {length}-point matches"
    final_standings: str = "final standings"
    group: str = "Group {letter}"
    consolation: str = "Consolation"


@functools.cache
def competition_labels(language: str) -> CompetitionLabels:
    """The pictures' words in ``language``."""
    w = functools.partial(say, language=language)
    return CompetitionLabels(
        round_n=w(_("Round {n}")),
        quarter_finals=w(_("Quarter-finals")),
        semi_finals=w(_("Semi-finals")),
        final=w(_("Final")),
        consolation_n=w(_("Consolation {n}")),
        consolation_final=w(_("Consolation final")),
        playoff=w(_("For 2nd place")),
        champion=w(_("Champion")),
        player=w(_("Player")),
        # Column headers: a few letters each, the table's columns are narrow.
        points=w(_("Pts")),
        buchholz=w(_("Buch")),
        sonneborn_berger=w(_("SB")),
        points_difference=w(_("+/-")),
        record=w(_("W-L")),
        bye=w(_("bye")),
        walkover=w(_("W/O")),
        after_round=w(_("after round {n} of {total}")),
        round_of=w(_("round {n} of {total} · {length}-point matches")),
        final_standings=w(_("final standings")),
        group=w(_("Group {letter}")),
        consolation=w(_("Consolation")),
    )


def _number(value: float, language: str) -> str:
    """A score or tie-break as players write it: 2, 2.5 (2,5 in French)."""
    text = str(int(value)) if value == int(value) else f"{value:.1f}"
    return text.replace(".", DECIMAL_SEPARATORS.get(language, "."))


def _name(names: Mapping[PlayerId, str], player: PlayerId) -> str:
    return names.get(player) or str(player)


# --- the knockout ------------------------------------------------------------------------


def round_title(labels: CompetitionLabels, section: Section, number: int, rounds: int) -> str:
    """A round's name: the last three of the main bracket by their names (final,
    semi-finals, quarter-finals), earlier ones by number; the consolation's by number
    and its final; the playoff for second place."""
    if section is Section.PLAYOFF:
        return labels.playoff
    if section is Section.CONSOLATION:
        if number == rounds:
            return labels.consolation_final
        return labels.consolation_n.format(n=number)
    from_end = rounds - number
    if from_end < 3:
        return (labels.final, labels.semi_finals, labels.quarter_finals)[from_end]
    return labels.round_n.format(n=number)


def _side(
    slot: Slot,
    match: KnockoutMatch,
    seeds: Mapping[PlayerId, int],
    names: Mapping[PlayerId, str],
    labels: CompetitionLabels,
    withdrawn: frozenset[PlayerId],
) -> BracketSide:
    if not slot.decided:
        return BracketSide(pending=True)
    if slot.player is None:
        return BracketSide(name=labels.bye, muted=True)
    player, result = slot.player, match.result
    won = result is not None and result.winner == player
    score = ""
    if result is not None and result.score is not None:
        score = str(result.score[0] if won else result.score[1])
    elif result is not None and result.kind is OutcomeKind.WALKOVER and won:
        score = labels.walkover
    elif result is not None and result.kind is OutcomeKind.DOUBLE_FORFEIT:
        score = "–"
    return BracketSide(
        name=_name(names, player),
        seed=seeds.get(player),
        score=score,
        won=won,
        muted=player in withdrawn,
    )


def knockout_picture(
    event: Knockout,
    *,
    names: Mapping[PlayerId, str],
    title: str,
    language: str | None = None,
    section: Section = Section.MAIN,
    max_rounds: int = MAX_BRACKET_ROUNDS,
) -> BracketPicture:
    """One section of the bracket: from its first round still being played, at most
    ``max_rounds`` rounds, the champion once the final is decided, and the podium at the
    end of the event."""
    lang = language_of(language)
    labels = competition_labels(lang)
    rounds = event.section(section)
    seeds = {p: i + 1 for i, p in enumerate(event.seeds)} if section is Section.MAIN else {}
    current = next(
        (i for i, r in enumerate(rounds) if any(m.status is not Status.DONE for m in r)),
        len(rounds) - 1,
    )
    start = max(0, min(current, len(rounds) - max_rounds))
    shown = rounds[start : start + max_rounds]
    total = len(rounds)
    matches = tuple(
        tuple(
            BracketMatch(
                _side(m.top, m, seeds, names, labels, event.withdrawn),
                _side(m.bottom, m, seeds, names, labels, event.withdrawn),
            )
            for m in r
        )
        for r in shown
    )
    titles = tuple(round_title(labels, section, start + 1 + i, total) for i in range(len(shown)))
    champion = None
    if section is Section.MAIN and start + len(shown) == total and event.champion is not None:
        champion = _name(names, event.champion)
    podium: tuple[tuple[int, str], ...] = ()
    if event.finished:
        podium = tuple((place, _name(names, p)) for place, p in event.placings())
        subtitle = labels.final_standings
    else:
        length = rounds[current][0].length if rounds else 0
        subtitle = labels.round_of.format(n=current + 1, total=total, length=length)
    if section is Section.CONSOLATION:
        subtitle = f"{labels.consolation} · {subtitle}"
    return BracketPicture(
        title=title,
        subtitle=subtitle,
        round_titles=titles,
        rounds=matches,
        champion=champion,
        champion_title=labels.champion,
        podium=podium,
    )


# --- tables ------------------------------------------------------------------------------


def standings_picture(
    rows: Sequence[Standing],
    *,
    names: Mapping[PlayerId, str],
    title: str,
    subtitle: str,
    tie_breaks: Sequence[TieBreak],
    language: str | None = None,
    medals: bool = True,
    withdrawn: frozenset[PlayerId] = frozenset(),
) -> TablePicture:
    """A Swiss or round robin table: points, the tie-breaks that have a figure of their
    own (head-to-head only reorders), then wins and losses."""
    lang = language_of(language)
    labels = competition_labels(lang)
    shown = [t for t in tie_breaks if t is not TieBreak.HEAD_TO_HEAD]
    headers = {
        TieBreak.BUCHHOLZ: labels.buchholz,
        TieBreak.SONNEBORN_BERGER: labels.sonneborn_berger,
        TieBreak.POINTS_DIFFERENCE: labels.points_difference,
    }

    def cells(row: Standing) -> tuple[str, ...]:
        figures = [_number(row.points, lang)]
        for tie_break in shown:
            value = row.value(tie_break)
            text = _number(value, lang)
            if tie_break is TieBreak.POINTS_DIFFERENCE and value > 0:
                text = "+" + text
            figures.append(text)
        figures.append(f"{row.won}-{row.lost}")
        return tuple(figures)

    return TablePicture(
        title=title,
        subtitle=subtitle,
        name_header=labels.player,
        columns=(labels.points, *(headers[t] for t in shown), labels.record),
        rows=tuple(
            TableRow(
                rank=row.rank,
                name=_name(names, row.player),
                cells=cells(row),
                medal=row.rank if medals and row.rank <= 3 else None,
                muted=row.player in withdrawn,
            )
            for row in rows
        ),
    )


def swiss_picture(
    event: Swiss, *, names: Mapping[PlayerId, str], title: str, language: str | None = None
) -> TablePicture:
    """The Swiss table after the last complete round; medals once the event is over."""
    labels = competition_labels(language_of(language))
    done = event.rounds_completed
    if event.finished:
        subtitle = labels.final_standings
    else:
        subtitle = labels.after_round.format(n=done, total=event.rounds)
    return standings_picture(
        event.standings(),
        names=names,
        title=title,
        subtitle=subtitle,
        tie_breaks=event.tie_breaks,
        language=language,
        medals=event.finished,
        withdrawn=event.withdrawn,
    )


def group_picture(
    event: RoundRobin,
    group: int,
    *,
    names: Mapping[PlayerId, str],
    title: str,
    language: str | None = None,
) -> TablePicture:
    """One round robin group's table; medals once the whole group has played."""
    labels = competition_labels(language_of(language))
    finished = not any(m.result is None for m in event.matches(group))
    heading = labels.group.format(letter=chr(ord("A") + group)) if len(event.groups) > 1 else ""
    status = labels.final_standings if finished else ""
    return standings_picture(
        event.standings(group),
        names=names,
        title=title,
        subtitle=" · ".join(part for part in (heading, status) if part),
        tie_breaks=event.tie_breaks,
        language=language,
        medals=finished,
        withdrawn=event.forfeited,
    )


def ladder_picture(
    event: Ladder, *, names: Mapping[PlayerId, str], title: str, language: str | None = None
) -> TablePicture:
    """The ladder from the top, medals for the first three; each player's challenge
    record (won-lost, walkovers included)."""
    lang = language_of(language)
    labels = competition_labels(lang)
    won: dict[PlayerId, int] = {}
    lost: dict[PlayerId, int] = {}
    for challenge in event.challenges:
        result = challenge.result
        if result is not None and result.winner is not None and result.loser is not None:
            won[result.winner] = won.get(result.winner, 0) + 1
            lost[result.loser] = lost.get(result.loser, 0) + 1
    players = len(event.ranking)
    open_count = len(event.open_challenges())
    subtitle = say(N_("{n} player", "{n} players", players, n=players), lang)
    if open_count:
        counted = N_("{n} challenge open", "{n} challenges open", open_count, n=open_count)
        subtitle += " · " + say(counted, lang)
    return TablePicture(
        title=title,
        subtitle=subtitle,
        name_header=labels.player,
        columns=(labels.record,),
        rows=tuple(
            TableRow(
                rank=place,
                name=_name(names, player),
                cells=(f"{won.get(player, 0)}-{lost.get(player, 0)}",),
                medal=place if place <= 3 else None,
            )
            for place, player in enumerate(event.ranking, start=1)
        ),
    )
