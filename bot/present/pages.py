"""Pages shown whole: records, leaderboard, help, hints, analysis, dice and luck."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.core.records import PlayerStats
from bot.i18n import N_, Language, Text, _, join, say
from bot.present.performance import luck_adjusted_words, performance_words
from bot.present.refusals import engine_sentence
from bot.present.words import cube_action_words, fit, level_words, rolls_words

# --- records ------------------------------------------------------------------------------


def stats_text(
    stats: PlayerStats | None, name: str, *, language: str | None = None, server: bool = True
) -> str:
    """A player's record: on a server (``server``), else outside servers (their DMs, group
    DMs and servers without the bot, all together)."""
    if stats is None or stats.games == 0:
        if not server:
            none_yet = _("{name} has not finished a game outside servers yet.", name=name)
            return say(none_yet, language)
        return say(_("{name} has not finished a game on this server yet.", name=name), language)
    if stats.rated_matches:
        rating = _("{rating:.1f} ({rated} rated)", rating=stats.rating, rated=stats.rated_matches)
    else:
        rating = _("unrated")
    lines = [
        _("Rating: {rating}", rating=rating),
        _(
            "Matches: {count} ({won} won, {lost} lost)",
            count=stats.matches,
            won=stats.match_wins,
            lost=stats.match_losses,
        ),
        _(
            "Games: {count} ({won} won, {lost} lost)",
            count=stats.games,
            won=stats.game_wins,
            lost=stats.game_losses,
        ),
        _(
            "Gammons: {gammons} · Backgammons: {backgammons}",
            gammons=stats.gammons,
            backgammons=stats.backgammons,
        ),
        _("Points: {won} won, {lost} lost", won=stats.points_won, lost=stats.points_lost),
        _("Streak: {streak} (best {best})", streak=stats.streak, best=stats.best_streak),
    ]
    return say(join(lines, "\n"), language)


def elsewhere_line(stats: PlayerStats | None, *, language: str | None = None) -> str | None:
    """On a server's record, one line for the player's games outside servers (DMs, group
    DMs, servers without the bot), which count on no server; None when there are none."""
    if stats is None or stats.matches == 0:
        return None
    line = N_(
        "Outside servers: {count} match ({won} won, {lost} lost), unrated",
        "Outside servers: {count} matches ({won} won, {lost} lost), unrated",
        stats.matches,
        count=stats.matches,
        won=stats.match_wins,
        lost=stats.match_losses,
    )
    return say(line, language)


def leaderboard_lines(
    rows: Sequence[PlayerStats],
    *,
    display: Callable[[str], str] = str,
    language: str | None = None,
) -> list[str]:
    return [
        say(
            _(
                "{rank}. {name} — {rating:.1f} ({won}-{lost} in {rated} rated)",
                rank=i,
                name=display(row.name),
                rating=row.rating,
                won=row.match_wins,
                lost=row.match_losses,
                rated=row.rated_matches,
            ),
            language,
        )
        for i, row in enumerate(rows, start=1)
    ]


HELP = _(
    "**Start**: `/backgammon challenge opponent:@friend` (options: `length` 0 for a money game "
    "or 1-25 for a match, `cube`, `rated`). Your friend presses Accept; the bot rolls the "
    "opening.\n"
    "**Each turn**: press **Roll** (or `/backgammon roll`), or **Double** before rolling. Then "
    "`/backgammon move` — the `play` box lists your legal plays as you type.\n"
    "**Writing moves**: from/to for each checker: `13/7 8/7`, `24/13` (one checker, both "
    "dice), `8/5(2) 6/5(2)` (doubles), `bar/22` to enter, `6/off` to bear off, `*` marks a "
    "hit (optional).\n"
    "**Cube**: `double`, then your opponent `take`s or `drop`s (pass). No doubling in the "
    "Crawford game or a 1-point match.\n"
    "**Computer**: `/backgammon play [level]` (or challenge the bot itself); `hint` in casual "
    "games; `analyze` after a game shows each player's PR (XG's Performance Rating), luck and "
    "biggest mistakes.\n"
    "**Any position**: `position` with an XGID or GNU Position and Match IDs (and `dice`), or "
    "Apps > Analyse this position on a board: the best plays or the cube, then Look deeper "
    "or Play it out against the computer. `leaderboard sort:pr` ranks the rated matches "
    "played in full by PR.\n"
    "**Your games**: `games` lists them; `settings` sets your turn notices (on, off, or after "
    "idle minutes) and board; `export` gives a match as a file for GNU Backgammon.\n"
    "**Dice**: every match commits to its dice before the first roll and reveals the secret "
    "at the end: `verify` checks every roll; `dice` shows the rolls played here against fair "
    "dice.\n"
    "**Also**: `resign` (single, gammon or backgammon), `board`, `history`, `stats`, "
    "`leaderboard`, `claim` (win when your opponent has been idle too long), `cancel` "
    "(moderators).\n"
)
HELP_TEXT = str(HELP)  # English, for callers that have no reader's language


HELP_TAPS = _(
    "**On a phone**: press **Play** under the board and build your play with taps: a checker, "
    "then where it goes; **Confirm** plays it."
)


def help_text(language: Language = None) -> str:
    return say(HELP, language) + "\n" + say(HELP_TAPS, language)


# --- the computer's advice and reviews --------------------------------------------------------


def hint_text(advice: Any, *, language: Language = None) -> str:
    """The computer's advice: ranked plays with equities, or the cube decision."""
    if isinstance(advice, list):
        if not advice:
            return say(_("No hint: you have no choice to make."), language)
        lines: list[Text | str] = [_("Best plays (equity, and how far behind the best):")]
        for number, hint in enumerate(advice, start=1):
            template = "{number}. {play} — {equity:+.3f}"
            if number > 1:
                template += " ({behind:+.3f})"
            lines.append(
                Text(
                    template,
                    {
                        "number": number,
                        "play": hint.notation,
                        "equity": hint.equity,
                        "behind": hint.difference,
                    },
                )
            )
        return say(join(lines, "\n"), language)
    code = getattr(advice, "refusal_code", None)
    if code is not None or advice.refusal:
        params = dict(getattr(advice, "refusal_params", ()))
        refusal = engine_sentence(code, params) if code is not None else advice.refusal
        return say(
            _(
                "{refusal} No double; equity {equity:+.3f}.",
                refusal=refusal,
                equity=advice.no_double,
            ),
            language,
        )
    figures = [_("No double {equity:+.3f}", equity=advice.no_double)]
    if advice.double_take is not None:
        figures.append(_("double/take {equity:+.3f}", equity=advice.double_take))
    if advice.double_pass is not None:
        figures.append(_("double/pass {equity:+.3f}", equity=advice.double_pass))
    return say(
        _(
            "Proper cube action: {action}. {figures}.",
            action=cube_action_words(advice.text),
            figures=join(figures, ", "),
        ),
        language,
    )


RATING_WORDS: dict[str, Text] = {
    "Supernatural": _("Supernatural"),
    "World class": _("World class"),
    "Expert": _("Expert"),
    "Advanced": _("Advanced"),
    "Intermediate": _("Intermediate"),
    "Casual player": _("Casual player"),
    "Beginner": _("Beginner"),
    "Awful!": _("Awful!"),
}


def analysis_text(
    names: Sequence[str],
    analyses: Mapping[int, Any],
    luck: Any = None,
    *,
    money: bool = True,
    language: str | None = None,
) -> str:
    """Per player: the PR (XG's, with its checker and cube parts and band), blunders, the
    error rate (GNU Backgammon's, a detail), the three biggest mistakes; then skill and luck
    (``money``: results in points, else in match-winning chances)."""
    if not analyses:
        return say(_("There is nothing to analyse yet."), language)
    if luck is not None and luck.players:
        tail = (
            "\n\n**"
            + say(_("Skill and luck"), language)
            + "**\n"
            + luck_lines(names, luck, analyses, money=money, language=language)
        )
        return fit(analysis_text(names, analyses, language=language) + tail)
    blocks: list[Text] = []
    for player, result in sorted(analyses.items()):
        head = _(
            "**{name}**: {performance}; {blunders}.",
            name=names[player],
            performance=performance_words(result.performance),
            blunders=N_("{n} blunder", "{n} blunders", result.blunders, n=result.blunders),
        )
        detail = _(
            "GNU Backgammon's error rate: {rate:.1f} millipoints per decision ({rating}) over "
            "{decisions} decisions.",
            rate=result.error_rate,
            rating=RATING_WORDS.get(str(result.rating), str(result.rating)),
            decisions=result.decisions,
        )
        lines: list[Text] = [head, detail]
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


def computer_record_text(rows: Sequence[Any], *, language: str | None = None) -> str:
    """A player's results against the computer, one line per level."""
    return say(
        join(
            [
                _(
                    "vs computer ({level}): games {won}/{games} won, matches "
                    "{match_wins}/{matches}, points {points_won}-{points_lost}",
                    level=level_words(row.level),
                    won=row.game_wins,
                    games=row.games,
                    match_wins=row.match_wins,
                    matches=row.matches,
                    points_won=row.points_won,
                    points_lost=row.points_lost,
                )
                for row in rows
            ],
            "\n",
        ),
        language,
    )


# --- dice, luck and verification -------------------------------------------------------------

SURPRISE_WORDS: dict[str, Text] = {
    "too_few": _("too few rolls to tell"),
    "ordinary": _("what fair dice do all the time"),
    "unusual": _("unusual, but fair dice do it now and then"),
    "rare": _("rare: fair dice do this about once in a hundred tries or less"),
    "extreme": _("fair dice almost never do this"),
}


def _number(value: float, spec: str) -> Text:
    """A number alone, written the reader's way (``16,7%`` in French): no words to translate."""
    return Text("{value:" + spec + "}", {"value": float(value)})


def _figure(label: Text, figure: Any, unit: str = "%") -> Text:
    spec = ".1%" if unit == "%" else ".2f"
    observed, expected = _number(figure.observed, spec), _number(figure.expected, spec)
    return _(
        "{label}: {observed} (fair dice: {expected}; {rolls}) — {surprise}",
        label=label,
        observed=observed,
        expected=expected,
        rolls=rolls_words(figure.sample),
        surprise=SURPRISE_WORDS[str(figure.surprise)],
    )


def dice_text(stats: Any, who: str | Text, *, language: str | None = None) -> str:
    """One player's (or the server's) dice figures beside what fair dice give.

    ``who`` is a (display) name, or a :class:`Text` such as :data:`THIS_SERVER`.
    """
    if stats.dice == 0:
        return say(_("No rolls played yet for {who}.", who=who), language)
    lines: list[Text] = [
        _(
            "**Dice of {who}**: {rolls}, {dice} (openings included).",
            who=who,
            rolls=rolls_words(stats.rolls),
            dice=N_("{n} die", "{n} dice", stats.dice, n=stats.dice),
        ),
        _figure(_("Doubles"), stats.doubles),
        _figure(_("Average pips per roll"), stats.pips, unit="pips"),
    ]
    faces = join(
        [
            Text(
                "{face}: {count} ({share:.1%})",
                {"face": face, "count": count, "share": float(figure.observed)},
            )
            for face, (count, figure) in enumerate(
                zip(stats.face_counts, stats.faces, strict=True), start=1
            )
        ],
        ", ",
    )
    lines.append(
        _(
            "Faces (fair dice: {fair} each, {dice} dice): {faces}",
            fair=_number(1 / 6, ".1%"),
            dice=stats.dice,
            faces=faces,
        )
    )
    chi = stats.chi_square
    lines.append(
        _(
            "Are the faces even? Chi-square {statistic:.2f} with {df} degrees of freedom, "
            "p = {p:.3f} — {surprise}.",
            statistic=chi.statistic,
            df=chi.df,
            p=chi.p_value,
            surprise=SURPRISE_WORDS[str(chi.surprise)],
        )
    )
    if stats.entry is not None:
        lines.append(_figure(_("Entering from the bar"), stats.entry))
    return say(join(lines, "\n"), language)


THIS_SERVER = _("this server")


def luck_lines(
    names: Sequence[str],
    luck: Any,
    analyses: Mapping[int, Any] | None = None,
    *,
    money: bool = True,
    language: str | None = None,
) -> str:
    """Each player's luck (normalized equity, and per roll), beside their PR, and their
    luck-adjusted result (GNU Backgammon's: the result with both sides' luck taken out, in
    points when ``money``, else in match-winning chances)."""
    lines: list[Text] = []
    for player, total in sorted(luck.players.items()):
        if analyses and player in analyses:
            adjusted = luck.luck_adjusted(player)
            line = _(
                "**{name}**: {performance}. Luck {luck:+.3f} over {rolls} ({rate:+.1f} "
                "millipoints a roll).",
                name=names[player],
                performance=performance_words(analyses[player].performance),
                luck=total.total,
                rolls=rolls_words(total.rolls),
                rate=total.rate,
            )
            if adjusted is not None:
                line = join(
                    [line, _("Result: {words}.", words=luck_adjusted_words(adjusted, money))]
                )
            lines.append(line)
        else:
            lines.append(
                _(
                    "**{name}**: luck {luck:+.3f} over {rolls} rolls ({rate:+.1f} millipoints a "
                    "roll).",
                    name=names[player],
                    luck=total.total,
                    rolls=total.rolls,
                    rate=total.rate,
                )
            )
    return say(join(lines, "\n"), language)
