"""Player-facing text built from session data, shared by the Discord cog and the terminal.

Nothing here knows about Discord: mentions are produced by a callback the front end passes
(``<@id>`` on Discord, the plain name in a terminal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine import Game, Phase, ResultKind
from bot.records import Action, EventRecord, MatchRow, PlayerStats, Status

MESSAGE_LIMIT = 2000

# --- the vocabulary: each word for players written once -------------------------------------

RESULT_WORDS = {
    ResultKind.SINGLE: "a single game",
    ResultKind.GAMMON: "a gammon",
    ResultKind.BACKGAMMON: "a backgammon",
}


def count_words(number: int, noun: str) -> str:
    """``1 point``, ``2 points``: a count with its noun."""
    return f"{number} {noun}{'s' if number != 1 else ''}"


def points_words(points: int) -> str:
    return count_words(points, "point")


def dice_words(dice: tuple[int, int] | None) -> str:
    """A roll as players write it: ``6-5``."""
    return f"{dice[0]}-{dice[1]}" if dice else ""


Mention = Callable[[int, str], str]


def plain(_: int, name: str) -> str:
    return name


def perspective(game: Game) -> int:
    """Whose side to draw the board from: the player who must act, or the winner."""
    if game.actor is not None:
        return game.actor
    if game.result is not None:
        return game.result.winner
    return game.on_roll


def next_step(row: MatchRow, mention: Mention = plain, *, commands: bool = True) -> str | None:
    """One sentence telling the right player what to do next."""
    if row.status == Status.CHALLENGE:
        return None
    game = row.game
    if row.status != Status.PLAYING or game is None or game.actor is None:
        return None
    actor = game.actor
    who = mention(row.player_ids[actor], row.player_names[actor])
    if game.resignation is not None:
        return f"{who}: accept or reject the resignation."
    if game.phase is Phase.DOUBLED:
        return f"{who}: take or drop?"
    if game.phase is Phase.ROLL:
        if game.can_double():
            return f"{who}, your turn: roll or double."
        return f"{who}, your turn: roll."
    if game.phase is Phase.MOVE and game.dice:
        how = " with /backgammon move" if commands else ""
        return f"{who}, move your {game.dice[0]}-{game.dice[1]}{how}."
    return None


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Trim text to a message limit, keeping the end (the newest news) when it must cut."""
    if len(text) <= limit:
        return text
    return "…" + text[-(limit - 1) :]


def history_lines(
    row: MatchRow, events: Sequence[EventRecord], *, display: Callable[[str], str] = str
) -> list[str]:
    """The current (or last) game's moves in standard notation, one turn a line."""
    game = row.game
    current = game.game_number if game else 1
    names = (display(row.player_names[0]), display(row.player_names[1]))
    lines: list[str] = []
    for event in events:
        if event.game_number != current:
            continue
        who = names[event.player] if event.player is not None else ""
        dice = dice_words(event.dice)
        match event.action:
            case Action.OPENING:
                assert event.dice is not None
                lines.append(f"Opening: {names[0]} {event.dice[0]}, {names[1]} {event.dice[1]}")
            case Action.MOVE:
                lines.append(f"{who} {dice}: {event.notation}")
            case Action.PASS:
                lines.append(f"{who} {dice}: cannot move")
            case Action.DOUBLE:
                lines.append(f"{who} doubles")
            case Action.TAKE | Action.DROP | Action.BEAVER:
                lines.append(f"{who} {event.action}s")
            case Action.RESIGN:
                lines.append(f"{who} offers to resign ({event.notation})")
            case Action.RESIGN_ACCEPT:
                lines.append(f"{who} accepts the resignation")
            case Action.RESIGN_REJECT:
                lines.append(f"{who} rejects the resignation")
            case Action.CLAIM:
                lines.append(f"{who} claims the game (opponent idle)")
            case Action.CANCEL:
                lines.append("cancelled by a moderator")
    numbered = [f"{i}. {line}" for i, line in enumerate(lines, start=1)]
    if game is not None:
        numbered.append(f"Position ID {game.position_id()} · Match ID {game.match_id()}")
    return numbered


def history_text(
    row: MatchRow,
    events: Sequence[EventRecord],
    *,
    display: Callable[[str], str] = str,
    code: Callable[[str], str] = str,
) -> str:
    """The history as a message: ``display`` formats names in text, ``code`` in the block."""
    title = (
        f"Game {row.game.game_number if row.game else 1}: {display(row.player_names[0])} vs "
        f"{display(row.player_names[1])}"
    )
    body = "\n".join(history_lines(row, events, display=code)) or "No moves yet."
    return fit(f"**{title}**\n```\n{body}\n```", MESSAGE_LIMIT)


def stats_text(stats: PlayerStats | None, name: str) -> str:
    if stats is None or stats.games == 0:
        return f"{name} has not finished a game on this server yet."
    rating = (
        f"{stats.rating:.1f} ({stats.rated_matches} rated)" if stats.rated_matches else ("unrated")
    )
    return "\n".join(
        [
            f"Rating: {rating}",
            f"Matches: {stats.matches} ({stats.match_wins} won, {stats.match_losses} lost)",
            f"Games: {stats.games} ({stats.game_wins} won, {stats.game_losses} lost)",
            f"Gammons: {stats.gammons} · Backgammons: {stats.backgammons}",
            f"Points: {stats.points_won} won, {stats.points_lost} lost",
            f"Streak: {stats.streak} (best {stats.best_streak})",
        ]
    )


def leaderboard_lines(
    rows: Sequence[PlayerStats], *, display: Callable[[str], str] = str
) -> list[str]:
    return [
        f"{i}. {display(row.name)} — {row.rating:.1f} "
        f"({row.match_wins}-{row.match_losses} in {row.rated_matches} rated)"
        for i, row in enumerate(rows, start=1)
    ]


HELP_TEXT = """\
**Start**: `/backgammon challenge opponent:@friend` (options: `length` 0 for a money game or \
1-25 for a match, `cube`, `rated`). Your friend presses Accept; the bot rolls the opening.
**Each turn**: press **Roll** (or `/backgammon roll`), or **Double** before rolling. Then \
`/backgammon move` — the `play` box lists your legal plays as you type.
**Writing moves**: from/to for each checker: `13/7 8/7`, `24/13` (one checker, both dice), \
`8/5(2) 6/5(2)` (doubles), `bar/22` to enter, `6/off` to bear off, `*` marks a hit (optional).
**Cube**: `double`, then your opponent `take`s or `drop`s (`pass`). No doubling in the \
Crawford game or a 1-point match.
**Computer**: `/backgammon play [level]` (or challenge the bot itself); `hint` in casual \
games; `analyze` after a game shows each player's error rate, luck and biggest mistakes.
**Your games**: `games` lists them; `settings` sets your turn notices (on, off, or after \
idle minutes) and board; `export` gives a match as a file for GNU Backgammon.
**Dice**: every match commits to its dice before the first roll and reveals the secret at \
the end: `verify` checks every roll; `dice` shows the rolls played here against fair dice.
**Also**: `resign` (single, gammon or backgammon), `board`, `history`, `stats`, \
`leaderboard`, `claim` (win when your opponent has been idle too long), `cancel` (moderators).
"""


def hint_text(advice: Any) -> str:
    """The computer's advice: ranked plays with equities, or the cube decision."""
    if isinstance(advice, list):
        if not advice:
            return "No hint: you have no choice to make."
        lines = ["Best plays (equity, and how far behind the best):"]
        for number, hint in enumerate(advice, start=1):
            behind = "" if number == 1 else f" ({hint.difference:+.3f})"
            lines.append(f"{number}. {hint.notation} — {hint.equity:+.3f}{behind}")
        return "\n".join(lines)
    if advice.refusal:
        return f"{advice.refusal} No double; equity {advice.no_double:+.3f}."
    parts = [f"Proper cube action: {advice.text}.", f"No double {advice.no_double:+.3f}"]
    if advice.double_take is not None:
        parts.append(f"double/take {advice.double_take:+.3f}")
    if advice.double_pass is not None:
        parts.append(f"double/pass {advice.double_pass:+.3f}")
    return parts[0] + " " + ", ".join(parts[1:]) + "."


def analysis_text(names: Sequence[str], analyses: Mapping[int, Any], luck: Any = None) -> str:
    """Per player: error rate (GNU style), blunders, the three biggest mistakes, and luck."""
    if not analyses:
        return "There is nothing to analyse yet."
    if luck is not None and luck.players:
        tail = "\n\n**Skill and luck**\n" + luck_lines(names, luck, analyses)
        return fit(analysis_text(names, analyses) + tail)
    blocks = []
    for player, result in sorted(analyses.items()):
        head = (
            f"**{names[player]}**: {result.error_rate:.1f} millipoints per decision "
            f"({result.rating}) over {result.decisions} decisions, "
            f"{count_words(result.blunders, 'blunder')}."
        )
        lines = [head]
        for number, mistake in enumerate(result.mistakes, start=1):
            lines.append(
                f"{number}. {mistake.position_id}: played {mistake.made}, better "
                f"{mistake.best} (−{mistake.equity_lost:.3f})"
            )
        blocks.append("\n".join(lines))
    return fit("\n\n".join(blocks))


def computer_record_text(rows: Sequence[Any]) -> str:
    """A player's results against the computer, one line per level."""
    return "\n".join(
        f"vs computer ({row.level}): games {row.game_wins}/{row.games} won, "
        f"matches {row.match_wins}/{row.matches}, points {row.points_won}-{row.points_lost}"
        for row in rows
    )


# --- dice, luck and verification -------------------------------------------------------------

SURPRISE_WORDS = {
    "too_few": "too few rolls to tell",
    "ordinary": "what fair dice do all the time",
    "unusual": "unusual, but fair dice do it now and then",
    "rare": "rare: fair dice do this about once in a hundred tries or less",
    "extreme": "fair dice almost never do this",
}


def _figure(label: str, figure: Any, unit: str = "%", scale: float = 100.0) -> str:
    if unit == "%":
        observed, expected = f"{figure.observed * scale:.1f}%", f"{figure.expected * scale:.1f}%"
    else:
        observed, expected = f"{figure.observed:.2f}", f"{figure.expected:.2f}"
    return (
        f"{label}: {observed} (fair dice: {expected}; {count_words(figure.sample, 'roll')}) "
        f"— {SURPRISE_WORDS[str(figure.surprise)]}"
    )


def dice_text(stats: Any, who: str) -> str:
    """One player's (or the server's) dice figures beside what fair dice give."""
    if stats.dice == 0:
        return f"No rolls played yet for {who}."
    dice = f"{stats.dice} {'die' if stats.dice == 1 else 'dice'}"
    lines = [f"**Dice of {who}**: {count_words(stats.rolls, 'roll')}, {dice} (openings included)."]
    lines.append(_figure("Doubles", stats.doubles))
    lines.append(_figure("Average pips per roll", stats.pips, unit="pips"))
    faces = ", ".join(
        f"{face}: {count} ({figure.observed * 100:.1f}%)"
        for face, (count, figure) in enumerate(
            zip(stats.face_counts, stats.faces, strict=True), start=1
        )
    )
    lines.append(f"Faces (fair dice: 16.7% each, {stats.dice} dice): {faces}")
    chi = stats.chi_square
    lines.append(
        f"Are the faces even? Chi-square {chi.statistic:.2f} with {chi.df} degrees of freedom, "
        f"p = {chi.p_value:.3f} — {SURPRISE_WORDS[str(chi.surprise)]}."
    )
    if stats.entry is not None:
        lines.append(_figure("Entering from the bar", stats.entry))
    return "\n".join(lines)


def luck_lines(names: Sequence[str], luck: Any, analyses: Mapping[int, Any] | None = None) -> str:
    """Each player's luck (normalized equity, and per roll), beside their error rate."""
    lines = []
    for player, total in sorted(luck.players.items()):
        line = (
            f"**{names[player]}**: luck {total.total:+.3f} over {total.rolls} rolls "
            f"({total.rate:+.1f} millipoints a roll)"
        )
        if analyses and player in analyses:
            line += f"; error rate {analyses[player].error_rate:.1f} millipoints a decision"
        lines.append(line + ".")
    return "\n".join(lines)
