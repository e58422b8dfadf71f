"""The story of a match: challenges, rolls, the cube, results, the next step, history.

:func:`tell` narrates a session :class:`~bot.core.reports.Report` (its action and its steps, each
event with the game before and after it) line by line; :func:`history_lines` narrates the
stored event log. Every sentence of a match's story is written here, once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.core.facts import Step
from bot.core.records import Action, ClaimRule, DiceSeal, EventRecord, MatchRow, Status
from bot.core.reports import Report
from bot.engine import EndReason, Game, Phase, ResultKind
from bot.i18n import N_, Text, _, join, say
from bot.present.words import (
    MESSAGE_LIMIT,
    RESULT_WORDS,
    Mention,
    dice_words,
    level_words,
    match_words,
    minutes_words,
    plain,
    points_words,
)

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
    challenger: str,
    opponent: str,
    length: int,
    cube: bool,
    rated: bool,
    minutes: int,
    *,
    called: str | None = None,
) -> list[Text]:
    """A challenge: who, what, and how long the opponent has to answer. ``called``: how the
    challenge names the opponent (a ping), when not as ``opponent``."""
    if cube:
        terms = _("rated") if rated else _("casual")
    else:
        terms = _("no cube, rated") if rated else _("no cube, casual")
    return [
        _(
            "{challenger} challenges {opponent} to {what} ({terms}).",
            challenger=challenger,
            opponent=opponent if called is None else called,
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
    # Marked apart: Babel does not see a _() nested in another call inside _()'s arguments.
    what = match_words(length, money=_("a game"))
    return _(
        "{human} plays {what} against {computer} ({level}).",
        human=human,
        computer=computer,
        what=what,
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


def forfeit_match_line(
    winner: str, loser: str, length: int, score: tuple[int, int], loser_seat: int
) -> Text:
    """A match won by forfeit (the opponent timed out), at the score reached: the loser
    keeps the points they won (``score`` is (player 0, player 1))."""
    lost = score[loser_seat]
    return _(
        "{winner} wins the {length}-point match by forfeit at {won}-{lost}: {loser} timed "
        "out and keeps {points}.",
        winner=winner,
        length=length,
        won=score[1 - loser_seat],
        lost=lost,
        loser=loser,
        points=points_words(lost),
    )


FORFEIT_NOT_RATED = _("A forfeit does not change ratings.")


def next_game_line(number: int, crawford: bool) -> Text:
    if crawford:
        return _("Game {number} begins. This is the Crawford game: no doubling.", number=number)
    return _("Game {number} begins.", number=number)


# --- telling a report ------------------------------------------------------------------------


def tell(
    report: Report, display: Callable[[str], str] = str, mention: Mention | None = None
) -> list[Text]:
    """What ``report`` did, line by line, as messages waiting for the reader's language.

    ``display`` formats a name (escaped for Discord, plain in a terminal); ``mention``, when
    given, names the challenged player of a new challenge (a ping on Discord).
    """
    row = report.match
    names = (display(row.player_names[0]), display(row.player_names[1]))
    lines = _action_lines(report, names, display, mention)
    steps = report.steps
    for index, step in enumerate(steps):
        following = steps[index + 1] if index + 1 < len(steps) else None
        lines.extend(_step_lines(report, step, following, names))
    if report.action is Action.CLAIM and report.match_over and row.rated:
        lines.append(FORFEIT_NOT_RATED)
    if report.reveal is not None:
        lines.append(reveal_line(report.reveal, report.reveal.public))
    return lines


def _action_lines(
    report: Report,
    names: tuple[str, str],
    display: Callable[[str], str],
    mention: Mention | None,
) -> list[Text]:
    """What the request itself says, before the events it logged."""
    row, action = report.match, report.action
    moderator = display(report.actor.name) if report.actor is not None else ""
    if action is Action.CHALLENGE:
        called = mention(row.player_ids[1], row.player_names[1]) if mention else names[1]
        minutes = max(1, round(((row.expires_at or row.created_at) - row.created_at) / 60))
        options = row.options
        lines = challenge_lines(
            names[0], names[1], options.length, options.cube, row.rated, minutes, called=called
        )
        if row.dice is not None:
            lines.append(commitment_line(row.dice))
        return lines
    if action is Action.DECLINE:
        return [_("{player} declines the challenge.", player=names[1])]
    if action is Action.WITHDRAW:
        return [_("{player} withdraws the challenge.", player=names[0])]
    if action is Action.CANCEL and report.unreadable:
        return [
            _(
                "{moderator} cancelled match #{number}: its saved state could not be "
                "read. No result is recorded; the channel is free.",
                moderator=moderator,
                number=row.id,
            )
        ]
    if action is Action.CANCEL:
        return [
            _(
                "{moderator} cancelled the game. No result is recorded.",
                moderator=moderator,
            )
        ]
    if action is Action.ACCEPT and row.computer_level is not None:  # it accepts at once
        return [computer_match_line(names[0], names[1], row.options.length, row.computer_level)]
    return []


def _step_lines(
    report: Report, step: Step, following: Step | None, names: tuple[str, str]
) -> list[Text]:
    """One logged event in words, and the end of the game it finished."""
    event, before, after = step.event, step.before, step.after
    seat = event.player
    who = names[seat] if seat is not None else ""
    other = names[1 - seat] if seat is not None else ""
    dice = dice_words(event.dice)
    lines: list[Text] = []
    match event.action:
        case Action.START:
            if event.notation:  # played on from an analysed position: its XGID
                lines.append(
                    _(
                        "Play starts from the position {xgid} ({player} to act).",
                        xgid=f"`{event.notation}`",
                        player=names[after.actor] if after.actor is not None else "",
                    )
                )
            else:
                lines.append(_("{player} accepts.", player=names[1]))
            seal = report.match.dice
            if seal is not None:
                lines.append(commitment_line(seal, seal.public))
        case Action.OPENING:
            assert event.dice is not None and before is not None
            lines.append(opening_line(names, event.dice, after, before.cube))
        case Action.ROLL if not _played_next(step, following):
            lines.append(_("{player} rolls {dice}.", player=who, dice=dice))
        case Action.MOVE if event.actor_id is None:
            lines.append(
                _(
                    "{player} rolls {dice} and plays {play} (the only legal play).",
                    player=who,
                    dice=dice,
                    play=event.notation,
                )
            )
        case Action.MOVE:
            lines.append(
                _(
                    "{player} rolls {dice} and plays {play}.",
                    player=who,
                    dice=dice,
                    play=event.notation,
                )
            )
        case Action.PASS:
            lines.append(
                _(
                    "{player} cannot move with {dice}: {opponent} to roll.",
                    player=who,
                    dice=dice,
                    opponent=other,
                )
            )
        case Action.DOUBLE:
            assert before is not None
            lines.append(
                _(
                    "{player} doubles to {cube}. {opponent}: take or drop.",
                    player=who,
                    cube=before.cube * 2,
                    opponent=other,
                )
            )
        case Action.TAKE:
            assert seat is not None
            # After a beaver the doubler is the one taking, and the beaverer keeps the cube.
            owner = after.cube_owner if after.cube_owner is not None else seat
            lines.append(
                _(
                    "{player} takes: the cube is at {cube} and {owner} owns it. {roller} to roll.",
                    player=who,
                    cube=after.cube,
                    owner=names[owner],
                    roller=names[after.on_roll],
                )
            )
        case Action.BEAVER:
            # The beaver is a take and a redouble: the doubler must now answer it.
            lines.append(
                _(
                    "{player} beavers: the cube is at {cube} and {player} owns it. {opponent}: "
                    "take the beaver (cube to {next}) or drop it ({points}).",
                    player=who,
                    cube=after.cube,
                    opponent=other,
                    next=after.cube * 2,
                    points=points_words(after.cube),
                )
            )
        case Action.DROP:
            lines.append(_("{player} drops.", player=who))
        case Action.RESIGN:
            kind = ResultKind[(event.notation or "single").upper()]
            # What accepting would score, Jacoby included (the engine works it out).
            accepted = after.accept_resignation().result
            assert accepted is not None
            lines.append(
                _(
                    "{player} offers to resign {what} ({points}). {opponent}: accept or reject.",
                    player=who,
                    what=RESULT_WORDS[kind],
                    points=points_words(accepted.points),
                    opponent=other,
                )
            )
        case Action.RESIGN_ACCEPT:
            lines.append(_("{player} accepts the resignation.", player=who))
        case Action.RESIGN_REJECT:
            lines.append(_("{player} rejects the resignation. Play on.", player=who))
        case Action.CLAIM:
            lines.extend(_claim_lines(report, step, names))
        case Action.NEXT_GAME:
            lines.append(next_game_line(after.game_number, after.crawford))
    if after.phase is Phase.OVER and after.result is not None:
        lines.append(result_line(names, after))
        if after.match_over and after.options.length:
            winner = after.match_winner
            assert winner is not None
            lines.append(match_won_line(names[winner], after.options.length, after.final_score))
    return lines


def _played_next(step: Step, following: Step | None) -> bool:
    """Whether a roll is followed at once by its player's play (told as one line)."""
    return (
        following is not None
        and following.event.action is Action.MOVE
        and following.event.actor_id is not None
        and following.event.player == step.event.player
    )


def _claim_lines(report: Report, step: Step, names: tuple[str, str]) -> list[Text]:
    """A claim on time: the match by forfeit at the score reached, or the game."""
    seat = step.event.player
    assert seat is not None
    before = report.before
    idle = report.at - before.last_action_at if before is not None else 0.0
    said = {"opponent": names[1 - seat], "player": names[seat]}
    minutes = minutes_words(round(idle / 60))
    if step.event.notation == ClaimRule.MATCH:
        game = step.after
        return [
            _(
                "{opponent} has not acted for {minutes}: {player} claims the match.",
                minutes=minutes,
                **said,
            ),
            forfeit_match_line(
                names[seat], names[1 - seat], game.options.length, game.score, 1 - seat
            ),
        ]
    return [
        _(
            "{opponent} has not acted for {minutes}: {player} claims the win.",
            minutes=minutes,
            **said,
        )
    ]


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
            case Action.START if event.notation:
                lines.append(_("Start: {xgid}", xgid=event.notation))
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
            case Action.CLAIM if event.notation == ClaimRule.MATCH:
                lines.append(_("{who} claims the match by forfeit (opponent idle)", who=who))
            case Action.CLAIM:
                lines.append(_("{who} claims the game (opponent idle)", who=who))
            case Action.CANCEL:
                lines.append(_("cancelled by a moderator"))
    numbered = [f"{i}. {say(line, language)}" for i, line in enumerate(lines, start=1)]
    if game is not None:
        numbered.append(say(ids_line(game), language))
    return numbered


def ids_line(game: Game) -> Text:
    """A position's IDs: GNU Backgammon's Position and Match IDs, and eXtreme Gammon's XGID
    when the game has a player on roll (not before the opening roll, not once it is over)."""
    ids = _(
        "Position ID {position} · Match ID {match}",
        position=game.position_id(),
        match=game.match_id(),
    )
    if game.phase in (Phase.OPENING, Phase.OVER):
        return ids
    return join([ids, Text("{xgid}", {"xgid": game.xgid()})], " · ")


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
    head = f"**{say(title, language)}**\n```\n"
    lines = history_lines(row, events, display=code, language=language)
    if not lines:
        lines = [say(_("No moves yet."), language)]
    return head + "\n".join(fit_middle(lines, MESSAGE_LIMIT - len(head) - 4, language)) + "\n```"


def fit_middle(lines: Sequence[str], limit: int, language: str | None = None) -> list[str]:
    """``lines`` whose joined text (one per line) fits ``limit``, leaving out the middle.

    A long game keeps its opening and its latest moves (and the IDs on the last line), with
    one line in their place saying how many were left out: a message's head and its code
    fence are never what is cut.
    """
    if sum(len(line) + 1 for line in lines) - 1 <= limit:
        return list(lines)
    widest = say(_left_out(len(lines)), language)
    budget = limit - len(widest) - 1  # the kept lines' text, each with its newline
    first: list[str] = []
    last: list[str] = []
    low, high = 0, len(lines) - 1
    take_end = True  # the newest news first, then alternate
    while low <= high:
        line = lines[high] if take_end else lines[low]
        if len(line) + 1 > budget:
            break
        budget -= len(line) + 1
        if take_end:
            last.insert(0, line)
            high -= 1
        else:
            first.append(line)
            low += 1
        take_end = not take_end
    skipped = len(lines) - len(first) - len(last)
    return [*first, say(_left_out(skipped), language), *last]


def _left_out(count: int) -> Text:
    return N_("… {n} move left out …", "… {n} moves left out …", count, n=count)
