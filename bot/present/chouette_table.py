"""A chouette's table in words: the seats and cubes at a glance (the picture's panel), the
session table after each game, the all-time table of a server, the lobby and the house rules.

Decides what each seat's row says and how it is drawn (whose decision it is, which cube is
offered, who is out); :mod:`renderers.chouette` only draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.features.chouette.rules import (
    AnswerOrder,
    Chouette,
    ChouetteOptions,
    Consultation,
    Cube,
    Offer,
    Rotation,
    Side,
    Stage,
    Status,
)
from bot.i18n import N_, Text, _, join, say
from bot.present.chouette_story import signed, to_call
from bot.present.words import level_words
from bot.storage.chouette import PointsRow
from renderers.chouette import ChouettePanel, SeatLine, Tone

Display = Callable[[str], str]


def _cube_note(cube: Cube, s: Chouette) -> Text:
    if not cube.in_play:
        if cube.settled is not None and cube.settled.value.startswith("box"):
            return _("won {points}", points=signed(cube.points or 0))
        return _("out: {points}", points=signed(cube.points or 0))
    if cube.offer is Offer.BY_MEMBER:
        return _("doubles to {value}", value=cube.value * 2)
    if cube.offer is Offer.BY_BOX:
        return _("doubled to {value}", value=cube.value * 2)
    if cube.owner is Side.BOX:
        return _("the box owns it")
    if cube.owner is Side.TEAM:
        return _("owns it")
    return _("centred")


def panel(s: Chouette, language: str) -> ChouettePanel:
    """The table at a glance, in ``language``: one row a seat, in rotation order."""
    g = s.game
    waiting_on = set(to_call(s))
    if g is not None and s.is_computer(g.box) and g.stage in (Stage.BOX_TURN, Stage.BOX_ANSWERS):
        waiting_on.add(g.box)
    lines: list[SeatLine] = []
    if g is None or s.status is Status.OPEN:
        title = say(_("Chouette: {count} at the table", count=len(s.players)), language)
        for player in s.players:
            lines.append(SeatLine(say(_("Seated"), language), s.name(player), "", ""))
        return ChouettePanel(title, tuple(lines), _footer(s, language))
    title = say(_("Game {number}", number=g.number), language)
    acts = g.box in waiting_on
    lines.append(
        SeatLine(
            say(_("Box"), language),
            s.name(g.box),
            "",
            say(_("to act"), language) if acts else "",
            Tone.TO_ACT if acts else Tone.PLAIN,
        )
    )
    if g.partner is not None:
        lines.append(SeatLine(say(_("Partner"), language), s.name(g.partner), "", ""))
    for index, cube in enumerate(g.cubes):
        member = cube.member
        role = _("Captain") if index == 0 else _("Line {place}", place=index + 1)
        if member == g.acting and member != g.captain:
            role = _("Acting captain")
        note = say(_cube_note(cube, s), language)
        if member in g.away:
            note = say(_("away: follows the captain"), language)
        tone = Tone.PLAIN
        if member in waiting_on:
            tone = Tone.TO_ACT
        elif not cube.in_play or member in g.away:
            tone = Tone.OUT
        lines.append(
            SeatLine(
                say(role, language),
                s.name(member),
                str(cube.value),
                note,
                tone,
                offered=cube.offer is not None,
            )
        )
    for player in s.waiting:
        lines.append(SeatLine(say(_("Next game"), language), s.name(player), "", "", Tone.OUT))
    return ChouettePanel(title, tuple(lines), _footer(s, language))


def _footer(s: Chouette, language: str) -> str:
    if not s.records:
        return say(rules_line(s.options), language)
    table = sorted(s.table.items(), key=lambda item: -item[1])
    return (
        say(_("Session:"), language)
        + " "
        + " · ".join(f"{s.name(p)} {signed(v)}" for p, v in table)
    )


def rules_line(o: ChouetteOptions) -> Text:
    """The house rules in one line."""
    parts: list[Text] = [_("Jacoby") if o.jacoby else _("no Jacoby")]
    parts.append(_("beavers") if o.beavers else _("no beavers"))
    parts.append(
        {
            Consultation.NONE: _("no consulting"),
            Consultation.CUBE_TURNED: _("no cube, no talk"),
            Consultation.FULL: _("full consultation"),
        }[o.consultation]
    )
    if o.box_takes_captain:
        parts.append(_("the box takes the captain's cube"))
    if o.box_takes_half:
        parts.append(_("the box takes half or none"))
    if o.answer_order is AnswerOrder.LINE_TO_CAPTAIN:
        parts.append(_("answers from the end of the line"))
    if o.captain_must_beaver:
        parts.append(_("a captain taking alone beavers"))
    if o.partner:
        parts.append(_("a partner for the box from six players"))
    if o.auto_doubles:
        parts.append(_("automatic doubles: {count}", count=o.auto_doubles))
    if o.rotation is Rotation.NET:
        parts.append(_("the box stays when it does not lose"))
    return _("House rules: {rules}.", rules=join(parts, ", "))


def lobby_text(s: Chouette, language: str, display: Display) -> str:
    """The open table: who sits, and the house rules."""
    names = ", ".join(display(s.name(p)) for p in s.players)
    lines = [
        say(_("A chouette table is open. At the table: {names}.", names=names), language),
        say(rules_line(s.options), language),
    ]
    computer = next((seat for seat in s.seats if seat.computer), None)
    if computer is not None:
        level = say(level_words(s.options.level), language)
        lines.append(say(_("The computer plays at the {level} level.", level=level), language))
    return "\n".join(lines)


def table_text(s: Chouette, language: str, display: Display, title: Text | None = None) -> str:
    """The session's running table (it sums to zero), best first."""
    rows = sorted(s.table.items(), key=lambda item: (-item[1], s.name(item[0])))
    games = len(s.records)
    head = title or N_(
        "Session table after {games} game:",
        "Session table after {games} games:",
        games,
        games=games,
    )
    lines = [say(head, language)]
    for place, (player, points) in enumerate(rows, start=1):
        lines.append(f"{place}. {display(s.name(player))} {signed(points)}")
    return "\n".join(lines)


def standings_text(rows: Sequence[PointsRow], language: str, display: Display) -> str:
    """The server's all-time chouette table."""
    if not rows:
        return say(_("No chouette game has been played on this server yet."), language)
    lines = [say(_("All-time chouette points on this server:"), language)]
    for place, row in enumerate(rows, start=1):
        games = say(N_("{games} game", "{games} games", row.games, games=row.games), language)
        lines.append(f"{place}. {display(row.name)} {signed(row.points)} ({games})")
    return "\n".join(lines)


__all__ = ["lobby_text", "panel", "rules_line", "standings_text", "table_text"]
