"""Any position analysed, in words: ``/backgammon position``, the "Analyse this position"
message command, the deeper analysis and its progress line, and a board's description (the
alt text of every board picture the bot posts, which names its position).

A position's players have no names (it was pasted, or is a board of someone's game): the
picture calls them "on roll" and "opponent", and the text speaks of the player on roll.
Equities are the player on roll's (the doubler's while a double waits), normalized to the
cube; in a match, match-winning chances made equity (EMG), as GNU Backgammon and XG write
them.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.computer.positions import DeepAdvice, PositionAdvice
from bot.engine import EngineError, Game, Phase, PositionRecord
from bot.i18n import N_, Text, _, join, say
from bot.present.pages import hint_text
from bot.present.words import cube_action_words, dice_words, fit

__all__ = [
    "DEEPER_BUTTON",
    "PLAY_OUT_BUTTON",
    "board_description",
    "deep_progress",
    "deep_text",
    "position_names",
    "position_text",
]

PLAY_OUT_BUTTON = _("Play it out")
DEEPER_BUTTON = _("Look deeper")


def position_names(record: PositionRecord, language: str | None = None) -> tuple[str, str]:
    """The players' names in the picture of a position: (player 0's, player 1's)."""
    on_roll, other = say(_("on roll"), language), say(_("opponent"), language)
    return (on_roll, other) if record.on_roll == 0 else (other, on_roll)


def _situation(record: PositionRecord) -> Text:
    """The match or money game, the score and the cube, from the player on roll's side."""
    me, them = record.on_roll, 1 - record.on_roll
    if record.length:
        terms = _(
            "{length}-point match, on roll {mine} and opponent {theirs}",
            length=record.length,
            mine=record.score[me],
            theirs=record.score[them],
        )
        if record.crawford:
            terms = join([terms, _("(Crawford game)")])
    else:
        terms = _("Money game")
    if not record.cube_in_use:
        cube = _("no cube")
    elif record.cube_owner is None:
        cube = _("cube {value} in the middle", value=record.cube)
    elif record.cube_owner == me:
        cube = _("cube {value} owned by the player on roll", value=record.cube)
    else:
        cube = _("cube {value} owned by the opponent", value=record.cube)
    return join([terms, cube], ", ")


def _question(game: Game) -> Text:
    if game.phase is Phase.MOVE:
        return _("The player on roll plays {dice}.", dice=dice_words(game.dice))
    if game.phase is Phase.DOUBLED:
        return _("A double is offered: take or drop?")
    return _("Before the roll: double or not?")


def _ids(record: PositionRecord) -> str:
    return f"`{record.xgid()}`\n`{record.position_id()}:{record.match_id()}`"


def position_text(advice: PositionAdvice, *, language: str | None = None) -> str:
    """The analysis of a position: where it stands, the best plays with their equities and
    how far each is behind the best, or the cube decision; then the position's IDs."""
    record = advice.record
    head = join([_situation(record), Text(". "), _question(advice.game)], "")
    body = hint_text(advice.advice, language=language)
    note = _(
        "Equities for the player on roll, from the world-class search (3 plies), normalized "
        "to the cube."
    )
    text = "\n".join([say(head, language), body, say(note, language), _ids(record)])
    return fit(text)


def deep_progress(advice_kind: str, done: int, total: int, trials: int) -> Text:
    """The progress line of a deeper analysis: ``done`` of ``total`` rollouts."""
    if advice_kind == "cube":
        return _(
            "Looking deeper: rolling out the cube decision, {games} games a batch… "
            "{done} of {total} batches done.",
            games=trials,
            done=done,
            total=total,
        )
    return _(
        "Looking deeper: rolling out {plays}, {games} games each… {done} of {total} done.",
        plays=N_("{n} play", "{n} plays", total, n=total),
        games=trials,
        done=done,
        total=total,
    )


def _rolled(equity: float, error: float) -> Text:
    return Text("{equity:+.3f} ±{error:.3f}", {"equity": equity, "error": error})


def deep_text(deep: DeepAdvice, *, language: str | None = None) -> str:
    """The deeper analysis: each close play rolled out (its equity and standard error, and
    the search's equity beside it), or the cube decision rolled out."""
    settings = deep.settings
    how = _(
        "Rolled out: {games} games each, cut {plies} plies on, 2-ply play and cube "
        "decisions (truncated rollouts, deeper than the world-class search).",
        games=settings.trials,
        plies=settings.truncation,
    )
    lines: list[Text | str] = []
    if deep.cube is not None:
        how = _(
            "Rolled out: {games} games, cut {plies} plies on, 2-ply play and cube decisions "
            "(truncated rollouts, deeper than the world-class search).",
            games=settings.trials * deep.rollouts,
            plies=settings.truncation,
        )
        cube = deep.cube
        nd_error, dt_error = deep.cube_errors
        lines.append(
            _(
                "Proper cube action: {action}. No double {nd}, double/take {dt}, double/pass {dp}.",
                action=cube_action_words(cube.text),
                nd=_rolled(cube.no_double, nd_error),
                dt=_rolled(cube.double_take or 0.0, dt_error),
                dp=Text("{value:+.3f}", {"value": cube.double_pass or 0.0}),
            )
        )
    else:
        lines.append(_("Best plays, rolled out (equity ± standard error; the search's):"))
        best = deep.plays[0].equity if deep.plays else 0.0
        for number, play in enumerate(deep.plays, start=1):
            behind = play.equity - best
            template = "{number}. {play} — {equity} ({searched})"
            if number > 1:
                template = "{number}. {play} — {equity} [{behind:+.3f}] ({searched})"
            lines.append(
                Text(
                    template,
                    {
                        "number": number,
                        "play": play.notation,
                        "equity": _rolled(play.equity, play.error),
                        "behind": behind,
                        "searched": Text("{value:+.3f}", {"value": play.searched}),
                    },
                )
            )
    lines.append(how)
    lines.append(_ids(deep.record))
    return fit(say(join(lines, "\n"), language))


def board_description(
    game: Game, names: tuple[str, str], display: Callable[[str], str] = str
) -> Text:
    """A board picture's description (its alt text): whose game, and the position's IDs,
    the XGID last (the message command "Analyse this position" reads it back there)."""
    who = _(
        "Backgammon board: {first} vs {second}.", first=display(names[0]), second=display(names[1])
    )
    ids = _(
        "Position ID {position} · Match ID {match}",
        position=game.position_id(),
        match=game.match_id(),
    )
    if game.phase in (Phase.OPENING, Phase.OVER):
        return join([who, ids])
    try:
        xgid = game.xgid()
    except EngineError:  # a state no XGID can say: the board goes out all the same
        return join([who, ids])
    return join([who, ids, Text("· {xgid}", {"xgid": xgid})])
