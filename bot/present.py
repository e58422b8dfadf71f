"""Every word a player reads, built from facts, in the reader's language.

The session, the turn rules and the engine hand over facts (a report, an error code and its
parameters, a record); this module is the one place that turns them into sentences, each
marked for translation with ``_``/``N_`` (see :mod:`bot.i18n`). Each vocabulary is written
once: result kinds, points, dice, score lines, the next step, cube words, statuses.

One rule for callers:

- *Sentences* (a report line, an error, a refusal) are built as :class:`~bot.i18n.Text`:
  facts still waiting for a reader. The functions named ``*_line``, ``*_words`` and
  :func:`engine_error` return one; the front end renders it with
  ``say(text, language)``.
- *Pages* the front ends show whole (``next_step``, ``history_text``, ``stats_text``,
  ``hint_text``, ``analysis_text``, ``dice_text`` ...) take the reader's ``language``
  (a language code or a Discord locale; English when omitted) and return finished ``str``.

Names are always parameters, never part of a message id, and are escaped by the caller's
``display``/``mention`` exactly as before. The move notation, Position IDs and numbers
stay as players write them. Nothing here knows about Discord: mentions come from a callback
the front end passes (``<@id>`` on Discord, the plain name in a terminal).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.engine import EndReason, EngineError, EngineErrorCode, Game, Phase, ResultKind
from bot.i18n import N_, Text, _, join, say
from bot.records import Action, DiceSeal, EventRecord, MatchRow, PlayerStats, Status

MESSAGE_LIMIT = 2000
Code = EngineErrorCode

# --- the vocabulary: each word for players written once -------------------------------------

RESULT_WORDS: dict[ResultKind, Text] = {
    ResultKind.SINGLE: _("a single game"),
    ResultKind.GAMMON: _("a gammon"),
    ResultKind.BACKGAMMON: _("a backgammon"),
}


def points_words(points: int) -> Text:
    """``1 point``, ``2 points`` (French ``0 point``, ``1 point``, ``2 points``)."""
    return N_("{n} point", "{n} points", points, n=points)


def minutes_words(minutes: int) -> Text:
    return N_("{n} minute", "{n} minutes", minutes, n=minutes)


def rolls_words(rolls: int) -> Text:
    return N_("{n} roll", "{n} rolls", rolls, n=rolls)


def dice_words(dice: tuple[int, int] | None) -> str:
    """A roll as players write it, in every language: ``6-5``."""
    return f"{dice[0]}-{dice[1]}" if dice else ""


def match_words(length: int, *, money: Text | None = None) -> Text:
    """``a 5-point match``, or (length 0) ``a money game`` unless ``money`` says otherwise."""
    if length:
        return _("a {length}-point match", length=length)
    return money if money is not None else _("a money game")


LEVEL_WORDS: dict[str, Text] = {
    "beginner": _("beginner"),
    "intermediate": _("intermediate"),
    "advanced": _("advanced"),
    "expert": _("expert"),
    "world-class": _("world-class"),
}


def level_words(level: str) -> Text | str:
    return LEVEL_WORDS.get(level, level)


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


def fit(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Trim text to a message limit, keeping the end (the newest news) when it must cut."""
    if len(text) <= limit:
        return text
    return "…" + text[-(limit - 1) :]


# --- the next step ----------------------------------------------------------------------------


def next_step_line(
    row: MatchRow, mention: Mention = plain, *, commands: bool = True
) -> Text | None:
    """One sentence telling the right player what to do next."""
    if row.status == Status.CHALLENGE:
        return None
    game = row.game
    if row.status != Status.PLAYING or game is None or game.actor is None:
        return None
    actor = game.actor
    who = mention(row.player_ids[actor], row.player_names[actor])
    if game.resignation is not None:
        return _("{who}: accept or reject the resignation.", who=who)
    if game.phase is Phase.DOUBLED:
        return _("{who}: take or drop?", who=who)
    if game.phase is Phase.ROLL:
        if game.can_double():
            return _("{who}, your turn: roll or double.", who=who)
        return _("{who}, your turn: roll.", who=who)
    if game.phase is Phase.MOVE and game.dice:
        dice = dice_words(game.dice)
        if commands:
            return _("{who}, move your {dice} with /backgammon move.", who=who, dice=dice)
        return _("{who}, move your {dice}.", who=who, dice=dice)
    return None


def next_step(
    row: MatchRow,
    mention: Mention = plain,
    *,
    commands: bool = True,
    language: str | None = None,
) -> str | None:
    """:func:`next_step_line` in the reader's language."""
    line = next_step_line(row, mention, commands=commands)
    return None if line is None else say(line, language)


# --- challenges and the match's story -------------------------------------------------------


def challenge_lines(
    challenger: str, opponent: str, length: int, cube: bool, rated: bool, minutes: int
) -> list[Text]:
    """A challenge: who, what, and how long the opponent has to answer."""
    if cube:
        terms = _("rated") if rated else _("casual")
    else:
        terms = _("no cube, rated") if rated else _("no cube, casual")
    return [
        _(
            "{challenger} challenges {opponent} to {what} ({terms}).",
            challenger=challenger,
            opponent=opponent,
            what=match_words(length),
            terms=terms,
        ),
        _(
            "{opponent}: accept or decline within {minutes}.",
            opponent=opponent,
            minutes=minutes_words(minutes),
        ),
    ]


def computer_match_line(human: str, computer: str, length: int, level: str) -> Text:
    return _(
        "{human} plays {what} against {computer} ({level}).",
        human=human,
        computer=computer,
        what=match_words(length, money=_("a game")),
        level=level_words(level),
    )


def commitment_line(seal: DiceSeal, public: str | None = None) -> Text:
    if public is None:
        return _(
            "Dice commitment (SHA-256 of this match's secret): `{commitment}`.",
            commitment=seal.commitment,
        )
    return _(
        "Dice: committed to `{commitment}` (SHA-256); public value `{public}`. "
        "The secret is revealed when the match ends.",
        commitment=seal.commitment,
        public=public,
    )


def reveal_line(seal: DiceSeal, public: str | None) -> Text:
    return _(
        "Dice secret: `{secret}` (public value `{public}`). Check every roll with "
        "/backgammon verify or python -m bot verify SECRET PUBLIC.",
        secret=seal.secret,
        public=public,
    )


def opening_line(names: tuple[str, str], dice: tuple[int, int], game: Game, cube: int) -> Text:
    """One opening roll: a tie (the cube may turn) or who moves first."""
    head = {"first": names[0], "second": names[1], "a": dice[0], "b": dice[1]}
    if game.phase is Phase.OPENING:
        if game.cube > cube:
            return _(
                "{first} rolls {a}, {second} rolls {b}: a tie, rolling again. "
                "The cube turns to {cube}.",
                cube=game.cube,
                **head,
            )
        return _("{first} rolls {a}, {second} rolls {b}: a tie, rolling again.", **head)
    return _(
        "{first} rolls {a}, {second} rolls {b}: {starter} moves first with {dice}.",
        starter=names[game.on_roll],
        dice=dice_words(game.dice),
        **head,
    )


def result_line(names: tuple[str, str], game: Game) -> Text:
    """How a game ended, and the score of a match."""
    result = game.result
    assert result is not None
    winner = names[result.winner]
    points = points_words(result.points)
    what = RESULT_WORDS[result.kind]
    if result.reason is EndReason.DROPPED:
        line = _("{winner} wins {points}: the double was dropped.", winner=winner, points=points)
    elif result.reason is EndReason.RESIGNED:
        line = _(
            "{winner} wins {what}: {points} ({loser} resigned).",
            winner=winner,
            what=what,
            points=points,
            loser=names[1 - result.winner],
        )
    elif result.reason is EndReason.FORFEIT:
        line = _("{winner} wins by forfeit.", winner=winner)
    elif result.kind is ResultKind.SINGLE:
        line = _("{winner} wins: {points}.", winner=winner, points=points)
    else:
        line = _("{winner} wins {what}: {points}.", winner=winner, what=what, points=points)
    if not game.options.length:
        return line
    return join([line, score_line(names, game.final_score, game.options.length)])


def score_line(names: tuple[str, str], score: tuple[int, int], length: int) -> Text:
    return _(
        "Score: {first} {a}, {second} {b} (match to {length}).",
        first=names[0],
        a=score[0],
        second=names[1],
        b=score[1],
        length=length,
    )


def match_won_line(winner: str, length: int, score: tuple[int, int]) -> Text:
    a, b = score
    return _(
        "{winner} wins the {length}-point match {high}-{low}.",
        winner=winner,
        length=length,
        high=max(a, b),
        low=min(a, b),
    )


def next_game_line(number: int, crawford: bool) -> Text:
    if crawford:
        return _("Game {number} begins. This is the Crawford game: no doubling.", number=number)
    return _("Game {number} begins.", number=number)


# --- the cube -------------------------------------------------------------------------------

CUBE_ACTION_WORDS: dict[str, Text] = {
    "No double, take": _("No double, take"),
    "No double, beaver": _("No double, beaver"),
    "Double, take": _("Double, take"),
    "Double, beaver": _("Double, beaver"),
    "Double, pass": _("Double, pass"),
    "Too good to double, take": _("Too good to double, take"),
    "Too good to double, pass": _("Too good to double, pass"),
    "No double": _("No double"),
    "No redouble, take": _("No redouble, take"),
    "No redouble, beaver": _("No redouble, beaver"),
    "Redouble, take": _("Redouble, take"),
    "Redouble, beaver": _("Redouble, beaver"),
    "Redouble, pass": _("Redouble, pass"),
    "Too good to redouble, take": _("Too good to redouble, take"),
    "Too good to redouble, pass": _("Too good to redouble, pass"),
    "No redouble": _("No redouble"),
}


def cube_action_words(text: str) -> Text | str:
    """A proper cube action as GNU Backgammon writes it (``Double, take``), translated."""
    return CUBE_ACTION_WORDS.get(text, text)


# --- the engine's refusals, in the player's words -------------------------------------------

ENGINE_SENTENCES: dict[EngineErrorCode, Text] = {
    Code.BOARD_SIZE: _("That is not a backgammon board."),
    Code.NEGATIVE_BAR: _("That is not a backgammon board."),
    Code.TOO_MANY_CHECKERS: _("A side has at most 15 checkers."),
    Code.POSITION_ID_LENGTH: _("'{text}' is not a Position ID: it has 14 characters."),
    Code.POSITION_ID_INVALID: _("'{text}' is not a valid Position ID."),
    Code.POSITION_ID_SHARED_POINT: _("'{text}' puts both sides on one point."),
    Code.CUBE_NOT_POWER_OF_TWO: _("The cube is a power of two, not {cube}."),
    Code.MATCH_ID_FIELD: _("That position does not fit a Match ID."),
    Code.MATCH_ID_LENGTH: _("'{text}' is not a Match ID: it has 12 characters."),
    Code.MATCH_ID_INVALID: _("'{text}' is not a valid Match ID."),
    Code.NO_SUCH_POINT: _("There is no point {point}: use 1-24, bar or off."),
    Code.TOO_LONG: _("That is too long to be a backgammon play."),
    Code.EMPTY_PLAY: _("Write a play like 13/7 8/7 (from/to for each checker)."),
    Code.NOT_A_MOVE: _(
        "'{token}' is not a move: write from/to points, like 13/7, bar/22 or 6/off."
    ),
    Code.BAD_REPEAT: _("'{token}': a move can be repeated 1 to 4 times."),
    Code.TO_THE_BAR: _("'{token}': a checker never moves to the bar."),
    Code.FROM_OFF: _("'{token}': a borne-off checker cannot move."),
    Code.WRONG_DIRECTION: _(
        "'{token}': checkers move from higher points to lower ones, like 13/7."
    ),
    Code.TOO_MANY_MOVES: _("That is more moves than one roll allows."),
    Code.NOT_LEGAL: _("{play} is not legal with {dice}."),
    Code.NO_LEGAL_MOVE: _("You cannot move with {dice}: no checker can move. Pass."),
    Code.MUST_MOVE: _("You can move with {dice}, so you must."),
    Code.ENTER_FIRST: _("You must enter from the bar first."),
    Code.AMBIGUOUS: _("{play} could mean more than one play: {options}. Write the one you mean."),
    Code.USE_BOTH_DICE: _("Use both dice: {moves} alone leaves the {die} unplayed."),
    Code.PLAY_MORE_DICE: _(
        "{play} is not legal with {dice}: you can play {count} of your {die}s, not {played}."
    ),
    Code.PLAY_LARGER_DIE: _(
        "{play} is not legal with {dice}: only one die can be played, so you must play the {die}."
    ),
    Code.IMPOSSIBLE_MOVE: _("{move} is not possible in this position."),
    Code.NO_CHECKER: _(
        "{play} is not legal with {dice}: you have no checker on the {point}-point."
    ),
    Code.NO_CHECKER_ON_BAR: _("{play} is not legal with {dice}: you have no checker on the bar."),
    Code.MUST_ENTER_FIRST: _("{play} is not legal with {dice}: you must enter from the bar first."),
    Code.POINT_BLOCKED: _("{play} is not legal with {dice}: the {point}-point is blocked."),
    Code.BEAR_OFF_NOT_HOME: _(
        "{play} is not legal with {dice}: you can bear off only when all your checkers are home."
    ),
    Code.BEAR_OFF_HIGHER_POINT: _(
        "{play} is not legal with {dice}: a {die} bears off from the {point}-point only when no "
        "checker is on a higher point."
    ),
    Code.NEEDS_MORE_DICE: _(
        "{play} is not legal with {dice}: it needs more than the {dice} you rolled."
    ),
    Code.DOES_NOT_FIT: _("{play} is not legal with {dice}: {move} does not fit {dice}."),
    Code.MATCH_LENGTH: _("A match is 1 to {most} points (or 0 for a money game), not {length}."),
    Code.MONEY_OPTIONS: _("Jacoby, beavers and automatic doubles are money-game options."),
    Code.AUTO_DOUBLES: _("Automatic doubles are limited to 0-6."),
    Code.GAME_NOT_OVER: _("This game is not over yet."),
    Code.MATCH_OVER: _("The match is over."),
    Code.NO_DICE: _("There are no dice to play: roll first."),
    Code.OPENING_DONE: _("The opening roll has already been made."),
    Code.NOT_STARTED: _("The game has not started yet."),
    Code.ROLL_FIRST: _("Roll first."),
    Code.ALREADY_ROLLED: _("You have already rolled: make your move."),
    Code.DOUBLE_PENDING: _("A double is waiting for an answer: take or drop."),
    Code.GAME_OVER: _("The game is over."),
    Code.MUST_PLAY: _("You have a legal play, so you must move."),
    Code.NO_DOUBLE_TO_TAKE: _("There is no double to take."),
    Code.NO_DOUBLE_TO_BEAVER: _("There is no double to beaver."),
    Code.NO_DOUBLE_TO_DROP: _("There is no double to drop."),
    Code.NO_DOUBLE_TO_ANSWER: _("There is no double to answer."),
    Code.BEAVERS_OFF: _("Beavers are not allowed in this game."),
    Code.BEAVER_PENDING: _("The beaver is waiting for an answer: take or drop."),
    Code.BEAVER_TOO_HIGH: _("A beaver would take the cube past {most}: take or drop instead."),
    Code.RESIGN_BEFORE_OPENING: _("Wait for the opening roll before resigning."),
    Code.RESIGNATION_PENDING: _("A resignation offer is already waiting for an answer."),
    Code.NO_RESIGNATION: _("There is no resignation offer to answer."),
    Code.ANSWER_RESIGNATION: _("Answer the resignation offer first."),
    Code.NO_CUBE_DECISION: _("There is no cube decision to advise on now."),
    Code.DOUBLE_IN_OPENING: _("You can double only before your own roll, after the opening."),
    Code.DOUBLE_ALREADY_OFFERED: _("A double is already offered."),
    Code.DOUBLE_AFTER_ROLL: _("You can double only before you roll."),
    Code.CUBE_OFF: _("The cube is off in this game."),
    Code.CUBE_DEAD: _("The cube is dead in a 1-point match: the game is worth 1 point anyway."),
    Code.CRAWFORD: _("No doubling in the Crawford game."),
    Code.OPPONENT_OWNS_CUBE: _("Your opponent owns the cube: only the cube's owner can redouble."),
    Code.CUBE_GAINS_NOTHING: _(
        "You already win the match with the current cube: doubling gains nothing."
    ),
    Code.CUBE_AT_MAXIMUM: _("The cube is at {cube}, its highest value: play on without doubling."),
}


def engine_sentence(code: EngineErrorCode, params: Mapping[str, object]) -> Text:
    """The player's sentence for an engine refusal, and the first legal plays when known."""
    template = ENGINE_SENTENCES[code]
    values = {key: _shown(value) for key, value in params.items()}
    sentence = Text(template.msgid, values)
    legal = params.get("legal")
    if not legal:
        return sentence
    assert isinstance(legal, tuple)
    more = " …" if params.get("more") else ""
    return join([sentence, _("Legal: {plays}", plays=", ".join(legal) + more)])


def engine_error(error: EngineError) -> Text:
    """What a player reads for an engine error: :func:`engine_sentence` of its code."""
    return engine_sentence(error.code, error.params)


def _shown(value: object) -> object:
    """Typed input is shown as written, in quotes only where the engine needs them."""
    return value


# --- the story of the current game ------------------------------------------------------------


def history_lines(
    row: MatchRow,
    events: Sequence[EventRecord],
    *,
    display: Callable[[str], str] = str,
    language: str | None = None,
) -> list[str]:
    """The current (or last) game's moves in standard notation, one turn a line."""
    game = row.game
    current = game.game_number if game else 1
    names = (display(row.player_names[0]), display(row.player_names[1]))
    lines: list[Text] = []
    for event in events:
        if event.game_number != current:
            continue
        who = names[event.player] if event.player is not None else ""
        dice = dice_words(event.dice)
        match event.action:
            case Action.OPENING:
                assert event.dice is not None
                lines.append(
                    _(
                        "Opening: {first} {a}, {second} {b}",
                        first=names[0],
                        a=event.dice[0],
                        second=names[1],
                        b=event.dice[1],
                    )
                )
            case Action.MOVE:
                lines.append(
                    Text("{who} {dice}: {play}", {"who": who, "dice": dice, "play": event.notation})
                )
            case Action.PASS:
                lines.append(_("{who} {dice}: cannot move", who=who, dice=dice))
            case Action.DOUBLE:
                lines.append(_("{who} doubles", who=who))
            case Action.TAKE:
                lines.append(_("{who} takes", who=who))
            case Action.DROP:
                lines.append(_("{who} drops", who=who))
            case Action.BEAVER:
                lines.append(_("{who} beavers", who=who))
            case Action.RESIGN:
                kind = ResultKind[(event.notation or "single").upper()]
                lines.append(
                    _("{who} offers to resign ({what})", who=who, what=RESIGN_KIND_WORDS[kind])
                )
            case Action.RESIGN_ACCEPT:
                lines.append(_("{who} accepts the resignation", who=who))
            case Action.RESIGN_REJECT:
                lines.append(_("{who} rejects the resignation", who=who))
            case Action.CLAIM:
                lines.append(_("{who} claims the game (opponent idle)", who=who))
            case Action.CANCEL:
                lines.append(_("cancelled by a moderator"))
    numbered = [f"{i}. {say(line, language)}" for i, line in enumerate(lines, start=1)]
    if game is not None:
        numbered.append(
            say(
                _(
                    "Position ID {position} · Match ID {match}",
                    position=game.position_id(),
                    match=game.match_id(),
                ),
                language,
            )
        )
    return numbered


RESIGN_KIND_WORDS: dict[ResultKind, Text] = {
    ResultKind.SINGLE: _("single"),
    ResultKind.GAMMON: _("gammon"),
    ResultKind.BACKGAMMON: _("backgammon"),
}


def history_text(
    row: MatchRow,
    events: Sequence[EventRecord],
    *,
    display: Callable[[str], str] = str,
    code: Callable[[str], str] = str,
    language: str | None = None,
) -> str:
    """The history as a message: ``display`` formats names in text, ``code`` in the block."""
    title = _(
        "Game {number}: {first} vs {second}",
        number=row.game.game_number if row.game else 1,
        first=display(row.player_names[0]),
        second=display(row.player_names[1]),
    )
    body = "\n".join(history_lines(row, events, display=code, language=language)) or say(
        _("No moves yet."), language
    )
    return fit(f"**{say(title, language)}**\n```\n{body}\n```", MESSAGE_LIMIT)


# --- records ------------------------------------------------------------------------------


def stats_text(stats: PlayerStats | None, name: str, *, language: str | None = None) -> str:
    if stats is None or stats.games == 0:
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
    "**Cube**: `double`, then your opponent `take`s or `drop`s (`pass`). No doubling in the "
    "Crawford game or a 1-point match.\n"
    "**Computer**: `/backgammon play [level]` (or challenge the bot itself); `hint` in casual "
    "games; `analyze` after a game shows each player's error rate, luck and biggest mistakes.\n"
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


def help_text(language: str | None = None) -> str:
    return say(HELP, language)


# --- the computer's advice and reviews --------------------------------------------------------


def hint_text(advice: Any, *, language: str | None = None) -> str:
    """The computer's advice: ranked plays with equities, or the cube decision."""
    if isinstance(advice, list):
        if not advice:
            return say(_("No hint: you have no choice to make."), language)
        lines: list[Text | str] = [_("Best plays (equity, and how far behind the best):")]
        for number, hint in enumerate(advice, start=1):
            behind = "" if number == 1 else f" ({hint.difference:+.3f})"
            lines.append(f"{number}. {hint.notation} — {hint.equity:+.3f}{behind}")
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
    language: str | None = None,
) -> str:
    """Per player: error rate (GNU style), blunders, the three biggest mistakes, and luck."""
    if not analyses:
        return say(_("There is nothing to analyse yet."), language)
    if luck is not None and luck.players:
        tail = (
            "\n\n**"
            + say(_("Skill and luck"), language)
            + "**\n"
            + luck_lines(names, luck, analyses, language=language)
        )
        return fit(analysis_text(names, analyses, language=language) + tail)
    blocks: list[Text] = []
    for player, result in sorted(analyses.items()):
        head = _(
            "**{name}**: {rate:.1f} millipoints per decision ({rating}) over {decisions} "
            "decisions, {blunders}.",
            name=names[player],
            rate=result.error_rate,
            rating=RATING_WORDS.get(str(result.rating), str(result.rating)),
            decisions=result.decisions,
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


def _figure(label: Text, figure: Any, unit: str = "%", scale: float = 100.0) -> Text:
    if unit == "%":
        observed, expected = f"{figure.observed * scale:.1f}%", f"{figure.expected * scale:.1f}%"
    else:
        observed, expected = f"{figure.observed:.2f}", f"{figure.expected:.2f}"
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
    faces = ", ".join(
        f"{face}: {count} ({figure.observed * 100:.1f}%)"
        for face, (count, figure) in enumerate(
            zip(stats.face_counts, stats.faces, strict=True), start=1
        )
    )
    lines.append(
        _(
            "Faces (fair dice: {fair} each, {dice} dice): {faces}",
            fair="16.7%",
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
    language: str | None = None,
) -> str:
    """Each player's luck (normalized equity, and per roll), beside their error rate."""
    lines: list[Text] = []
    for player, total in sorted(luck.players.items()):
        if analyses and player in analyses:
            lines.append(
                _(
                    "**{name}**: luck {luck:+.3f} over {rolls} rolls ({rate:+.1f} millipoints a "
                    "roll); error rate {error:.1f} millipoints a decision.",
                    name=names[player],
                    luck=total.total,
                    rolls=total.rolls,
                    rate=total.rate,
                    error=analyses[player].error_rate,
                )
            )
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
