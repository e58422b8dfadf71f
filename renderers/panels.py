"""The words around the board: the players' panels, the footer and the game-over banner.

Each player's panel holds their checker, name, what they must do now ("to roll", "to take or
drop"), pip count and match score; the footer the match terms and the Position and Match
IDs; the banner who won what. Drawn on a :class:`~renderers.regions.Canvas` where the
:class:`~renderers.theme.Layout` says; never mirrored, so text always reads.

Every word comes from a :class:`BoardWords` (English by default): the presentation layer
passes translated ones; the renderer never translates.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine import Game, Phase, ResultKind
from bot.engine.game import EndReason
from renderers.regions import Canvas
from renderers.sprites import ascent, checker, keyed_text
from renderers.text import fit, text_image, text_width
from renderers.theme import Layout, Theme


@dataclass(frozen=True, slots=True)
class BoardWords:
    """Every word drawn on the board, as templates with ``{name}`` fields.

    ``point``/``points``: a result's points are never under 1, so the singular is for 1
    and the plural for more in every language (English and French agree there).
    ``kinds``/``kind_names``: per :class:`~bot.engine.ResultKind`, single, gammon, backgammon.
    """

    pips: str = "PIPS"
    score: str = "SCORE"
    to_roll: str = "to roll"
    to_roll_or_double: str = "to roll or double"
    to_move: str = "to move"
    to_take_or_drop: str = "to take or drop"
    to_accept_or_reject: str = "to accept or reject"
    opening_roll: str = "opening roll"
    doubles_to: str = "doubles to {cube}"
    wins_points: str = "wins {points}"
    resigns: str = "resigns {kind}"
    point: str = "{n} point"
    points: str = "{n} points"
    kind_names: tuple[str, str, str] = ("a single game", "a gammon", "a backgammon")
    kinds: tuple[str, str, str] = ("single game", "gammon", "backgammon")
    winner_wins: str = "{winner} wins {points}"
    dropped: str = "{loser} dropped the double"
    resigned: str = "{loser} resigned {kind}"
    forfeited: str = "{loser} forfeited"
    wins_match: str = "wins the match {a}–{b}"
    tied: str = "tied {a}–{b}"
    leads: str = "{leader} leads {a}–{b}"
    match_terms: str = "{length}-point match"
    crawford: str = "Crawford game"
    money_terms: str = "Money game · stake {cube}"
    ids: str = "Position ID {position}   Match ID {match}"
    player: str = "Player {n}"

    def points_words(self, points: int) -> str:
        return (self.point if points == 1 else self.points).format(n=points)

    def kind_name(self, kind: ResultKind) -> str:
        return self.kind_names[int(kind) - 1]

    def kind(self, kind: ResultKind) -> str:
        return self.kinds[int(kind) - 1]


ENGLISH = BoardWords()


def draw_panels(
    canvas: Canvas,
    game: Game,
    me: int,
    theme: Theme,
    layout: Layout,
    names: tuple[str, str],
    words: BoardWords = ENGLISH,
) -> None:
    """Each player's panel: their checker, name, what they must do, pips and score."""
    pips = game.pips()
    for side in ("far", "near"):
        player = me if side == "near" else 1 - me
        x0, y0, x1, y1 = layout.panel_rect(side)
        said, active = status(game, player, words)
        pad = layout.px(8)
        box = (x0 + pad, y0 + pad, x1 - pad, y1 - pad)
        canvas.rounded_rectangle(
            box,
            ("panel", active),
            radius=layout.px(12),
            fill=theme.panel_active if active else theme.panel,
            outline=theme.accent if active else None,
            width=layout.px(3),
        )
        cy = (y0 + y1) // 2
        disc_r = layout.px(19)
        disc = checker(theme, disc_r, player)
        canvas.centre(disc, (box[0] + layout.px(12) + disc_r, cy), ("disc", player))
        x = box[0] + layout.px(24) + 2 * disc_r
        right = _draw_figures(canvas, game, theme, layout, pips[player], player, box, words)
        name_size = layout.px(30)
        status_size = layout.px(24)
        room = right - x - layout.px(16)
        status_img, status_key = (
            keyed_text(
                said,
                status_size,
                theme.text if active else theme.muted,
                bold=active,
                max_width=max(room // 2, 1),
            )
            if said
            else (None, None)
        )
        name_room = room - (status_img.width + layout.px(14) if status_img else 0)
        name_img, name_key = keyed_text(
            names[player],
            name_size,
            theme.text,
            bold=True,
            max_width=max(name_room, layout.px(40)),
        )
        canvas.paste(name_img, (x, cy - name_img.height // 2), name_key)
        if status_img is not None:
            sx = x + name_img.width + layout.px(14)
            # Share the name's baseline: both images put it at their font's ascent.
            name_ascent = ascent(name_size, bold=True)
            status_ascent = ascent(status_size, bold=active)
            sy = cy - name_img.height // 2 + name_ascent - status_ascent
            canvas.paste(status_img, (sx, sy), status_key)


def _draw_figures(
    canvas: Canvas,
    game: Game,
    theme: Theme,
    layout: Layout,
    pips: int,
    player: int,
    box: tuple[int, int, int, int],
    words: BoardWords = ENGLISH,
) -> int:
    """Pip count and match score at the panel's right end; returns where they begin."""
    columns: list[tuple[str, str]] = [(words.pips, str(pips))]
    if game.options.length:
        columns.append((words.score, str(game.final_score[player])))
    x = box[2] - layout.px(16)
    label_size, value_size = layout.px(15), layout.px(28)
    cy = (box[1] + box[3]) // 2
    for label, value in reversed(columns):
        value_img, value_key = keyed_text(value, value_size, theme.text, bold=True)
        label_img, label_key = keyed_text(label, label_size, theme.muted, bold=True)
        w = max(value_img.width, label_img.width, layout.px(56))
        centre = x - w // 2
        canvas.centre(label_img, (centre, cy - layout.px(15)), label_key)
        canvas.centre(value_img, (centre, cy + layout.px(10)), value_key)
        x -= w + layout.px(18)
    return x


def status(game: Game, player: int, words: BoardWords = ENGLISH) -> tuple[str, bool]:
    """What ``player``'s panel says, and whether it is their turn to act."""
    actor = game.actor
    if game.phase is Phase.OVER:
        result = game.result
        if result is not None and result.winner == player:
            return words.wins_points.format(points=words.points_words(result.points)), False
        return "", False
    if game.resignation is not None:
        if game.resignation.player == player:
            kind = words.kind_name(game.resignation.kind)
            return words.resigns.format(kind=kind), False
        return words.to_accept_or_reject, True
    if game.phase is Phase.OPENING:
        return words.opening_roll, False
    if game.phase is Phase.DOUBLED:
        if player == game.on_roll:
            return words.doubles_to.format(cube=game.cube * 2), False
        return words.to_take_or_drop, True
    if player != actor:
        return "", False
    if game.phase is Phase.ROLL:
        return (words.to_roll_or_double if game.can_double() else words.to_roll), True
    return words.to_move, True


def draw_footer(
    canvas: Canvas, game: Game, theme: Theme, layout: Layout, words: BoardWords = ENGLISH
) -> None:
    """The match terms on the left, the Position and Match IDs on the right."""
    x0, y0, x1, y1 = layout.footer_rect()
    cy = (y0 + y1) // 2
    if game.options.length:
        terms = words.match_terms.format(length=game.options.length)
        if game.crawford:
            terms += " · " + words.crawford
    else:
        terms = words.money_terms.format(cube=game.cube)
    pad = layout.px(14)
    size = layout.px(18)
    left, left_key = keyed_text(terms, size, theme.muted, bold=True)
    canvas.paste(left, (x0 + pad, cy - left.height // 2), left_key)
    ids = words.ids.format(position=game.position_id(), match=game.match_id())
    right, right_key = keyed_text(ids, layout.px(13), theme.muted)
    canvas.paste(right, (x1 - pad - right.width, cy - right.height // 2), right_key)


def draw_banner(
    canvas: Canvas,
    game: Game,
    theme: Theme,
    layout: Layout,
    names: tuple[str, str],
    words: BoardWords = ENGLISH,
) -> None:
    """Across the field when the game is over: who won what, and the match score.

    Long names are shortened (with an ellipsis) so that the words around them always show.
    """
    left, right = layout.field_left + layout.px(24), layout.field_right - layout.px(24)
    height = layout.px(112)
    top = layout.mid_y - height // 2
    box = (left, top, right, top + height)
    overlay = Image.new("RGBA", (right - left, height), (0, 0, 0, 0))
    ImageDraw.Draw(overlay).rounded_rectangle(
        (0, 0, right - left - 1, height - 1),
        radius=layout.px(16),
        fill=(*theme.banner, 232),
        outline=(*theme.accent, 255),
        width=layout.px(4),
    )
    canvas.paste(overlay, box[:2])
    width = right - left - layout.px(40)
    head_size, sub_size = layout.px(38), layout.px(22)
    headline = banner_lines(game, _fitted(game, names, words, 0, head_size, True, width), words)[0]
    details = banner_lines(game, _fitted(game, names, words, 1, sub_size, False, width), words)[1]
    head = text_image(headline, head_size, theme.banner_text, bold=True, max_width=width)
    sub = text_image(details, sub_size, theme.banner_text, max_width=width)
    cx = (left + right) // 2
    canvas.centre(head, (cx, top + height * 0.38))
    canvas.centre(sub, (cx, top + height * 0.76))


def _fitted(
    game: Game,
    names: tuple[str, str],
    words: BoardWords,
    line: int,
    size: int,
    bold: bool,
    width: int,
) -> tuple[str, str]:
    """``names`` shortened just enough for banner ``line`` (0 or 1) to fit in ``width``.

    A name that fits in its fair share of the room stays whole; the others share the rest.
    """
    if text_width(banner_lines(game, names, words)[line], size, bold=bold) <= width:
        return names
    marked = banner_lines(game, ("\x01", "\x02"), words)[line]
    counts = (marked.count("\x01"), marked.count("\x02"))
    if not any(counts):
        return names
    fixed = text_width(marked.replace("\x01", "").replace("\x02", ""), size, bold=bold)
    room = max(width - fixed, 1.0)
    needs = [text_width(name, size, bold=bold) for name in names]
    fair = room / sum(counts)
    rooms = [fair, fair]
    for short, long in ((0, 1), (1, 0)):
        if counts[short] and counts[long] and needs[short] <= fair < needs[long]:
            rooms = [0.0, 0.0]
            rooms[short] = needs[short]
            rooms[long] = (room - counts[short] * needs[short]) / counts[long]
    step = max(size // 4, 1)
    while True:  # joined text measures a little differently from its parts: check it whole
        cut = [
            name
            if r >= need
            else "".join(run.text for run in fit(name, size, max(int(r), 1), bold=bold))
            for name, r, need in zip(names, rooms, needs, strict=True)
        ]
        shortened = (cut[0], cut[1])
        text = banner_lines(game, shortened, words)[line]
        if max(rooms) <= size or text_width(text, size, bold=bold) < width:
            return shortened
        cut_ones = [index for index in (0, 1) if rooms[index] < needs[index]]
        for index in cut_ones or [0, 1]:  # shorten the cut names further, else both
            rooms[index] -= step


def banner_lines(
    game: Game, names: tuple[str, str], words: BoardWords = ENGLISH
) -> tuple[str, str]:
    """The banner's headline (who won what) and its second line (how, and the score)."""
    result = game.result
    assert result is not None
    winner, loser = names[result.winner], names[1 - result.winner]
    headline = words.winner_wins.format(winner=winner, points=words.points_words(result.points))
    details = {
        EndReason.DROPPED: words.dropped.format(loser=loser),
        EndReason.RESIGNED: words.resigned.format(loser=loser, kind=words.kind_name(result.kind)),
        EndReason.FORFEIT: words.forfeited.format(loser=loser),
    }.get(result.reason, words.kind(result.kind))
    if game.match_over and game.options.length:
        a, b = game.final_score[result.winner], game.final_score[1 - result.winner]
        details += " · " + words.wins_match.format(a=a, b=b)
    elif game.options.length:
        a, b = game.final_score
        if a == b:
            details += " · " + words.tied.format(a=a, b=b)
        else:
            leader = names[0] if a > b else names[1]
            details += " · " + words.leads.format(leader=leader, a=max(a, b), b=min(a, b))
    return headline, details
