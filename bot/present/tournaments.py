"""Tournaments in words: the announcement, a match opened, reminders, decisions, the podium.

The tournament service tells typed news (:mod:`bot.features.tournaments.news`); these functions turn
it into :class:`~bot.i18n.Text` for the server's language. Names and mentions come in
already escaped from the front end (``mention(user_id)`` gives ``<@id>`` on Discord);
times are Unix seconds, shown with Discord's own time markup by the caller's ``when``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.core.errors import CompetitionRefusal
from bot.features.tournaments.rules import Format, OutcomeKind, Pace, Phase, Result, Verdict
from bot.i18n import Text, _, say
from bot.storage.competition_rows import PairingRow, TournamentRow

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}

FORMAT_WORDS: dict[Format, Text] = {
    Format.KNOCKOUT: _("knockout"),
    Format.SWISS: _("Swiss"),
    Format.ROUND_ROBIN: _("round robin"),
    Format.LADDER: _("ladder"),
}
PHASE_WORDS: dict[Phase, Text] = {
    Phase.DRAFT: _("being set up"),
    Phase.REGISTRATION: _("open for registration"),
    Phase.CHECK_IN: _("check-in open"),
    Phase.RUNNING: _("under way"),
    Phase.FINISHED: _("finished"),
    Phase.CANCELLED: _("cancelled"),
}
VERDICT_WORDS: dict[str, Text] = {
    Verdict.DOUBLE_FORFEIT.value: _("neither player moved before the deadline"),
    Verdict.WALKOVER.value: _("one player never moved before the deadline"),
    Verdict.TIMEOUT.value: _("the match waited on one player too long at the deadline"),
    "idle": _("the loser kept the match waiting past the idle limit"),
}

Mention = Callable[[int], str]


def _lengths(lengths: Sequence[int]) -> str:
    return ", ".join(str(n) for n in lengths)


def announcement(
    row: TournamentRow, entrants: Sequence[str], when: Callable[[float], str], language: str
) -> str:
    """The event's announcement: format, lengths, pace, entrants, and what to do."""
    options = row.options
    pace = (
        _("live: {minutes} minutes a point", minutes=f"{options.per_point_minutes:g}")
        if options.pace is Pace.LIVE
        else _("correspondence: {hours} hours a round", hours=f"{options.round_hours:g}")
    )
    lines = [
        say(
            _(
                "🏆 **{name}** (#{number}): {format}, {phase}",
                name=row.name,
                number=row.id,
                format=say(FORMAT_WORDS[row.format], language),
                phase=say(PHASE_WORDS[row.phase], language),
            ),
            language,
        ),
        say(
            _(
                "Match lengths by round, up to the final: {lengths} points. Crawford, rated.",
                lengths=_lengths(options.lengths),
            ),
            language,
        ),
        say(pace, language),
    ]
    if options.starts_at is not None and row.phase in (Phase.REGISTRATION, Phase.CHECK_IN):
        lines.append(say(_("The draw is made {time}.", time=when(options.starts_at)), language))
    if options.consolation and row.format is Format.KNOCKOUT:
        lines.append(say(_("With a consolation bracket for first-round losers."), language))
    if options.check_in:
        lines.append(say(_("Check in before the start, or you will be dropped."), language))
    lines.append(
        say(
            _("Entrants ({count}): {names}", count=len(entrants), names=", ".join(entrants) or "-"),
            language,
        )
    )
    if row.phase in (Phase.REGISTRATION, Phase.CHECK_IN):
        lines.append(say(_("Join or leave with the buttons below."), language))
    return "\n".join(lines)


def match_opened(
    row: TournamentRow, pairing: PairingRow, mention: Mention, deadline: str, in_thread: bool
) -> Text:
    assert pairing.b is not None
    text = _(
        "**{name}**: {first} vs {second}, {length}-point match. Play it by {deadline}.",
        name=row.name,
        first=mention(pairing.a),
        second=mention(pairing.b),
        length=pairing.length,
        deadline=deadline,
    )
    return text if in_thread else _("{text} (No thread could be opened: play here.)", text=text)


def match_opened_in(
    row: TournamentRow, pairing: PairingRow, names: Mapping[int, str], thread: str
) -> Text:
    assert pairing.b is not None
    return _(
        "{first} vs {second} is on in {thread}.",
        first=names.get(pairing.a, str(pairing.a)),
        second=names.get(pairing.b, str(pairing.b)),
        thread=thread,
    )


def reminder(row: TournamentRow, pairing: PairingRow, mention: Mention, deadline: str) -> Text:
    return _(
        "⏰ **{name}**: {players}, your match must be finished by {deadline}.",
        name=row.name,
        players=" ".join(mention(p) for p in pairing.players),
        deadline=deadline,
    )


def referred(
    row: TournamentRow, pairing: PairingRow, names: Mapping[int, str], verdict: Verdict | None
) -> Text:
    players = " vs ".join(names.get(p, str(p)) for p in pairing.players)
    if verdict is Verdict.REFER_TO_TD:
        return _(
            "**{name}**: {players} is past its deadline and both players were active. "
            "Directors: /tournament extend or /tournament decide.",
            name=row.name,
            players=players,
        )
    return _(
        "**{name}**: {players} needs a director's ruling: /tournament decide.",
        name=row.name,
        players=players,
    )


def result_words(result: Result, names: Mapping[int, str]) -> Text:
    def name(player: int | None) -> str:
        return names.get(player or 0, str(player))

    if result.kind is OutcomeKind.DOUBLE_FORFEIT:
        return _("double forfeit: nobody goes on")
    if result.kind is OutcomeKind.WALKOVER:
        return _("{winner} wins by walkover (unrated)", winner=name(result.winner))
    if result.kind is OutcomeKind.BYE:
        return _("{winner} has a bye", winner=name(result.winner))
    assert result.score is not None
    return _(
        "{winner} beats {loser} {won}-{lost}",
        winner=name(result.winner),
        loser=name(result.loser),
        won=result.score[0],
        lost=result.score[1],
    )


def decided(
    row: TournamentRow,
    pairing: PairingRow,
    result: Result,
    names: Mapping[int, str],
    director: str | None,
    reason: str,
    language: str,
) -> Text:
    words = say(result_words(result, names), language)
    if director is None:
        why = say(VERDICT_WORDS.get(reason, _("the deadline passed")), language)
        return _("**{name}**: {result}: {why}.", name=row.name, result=words, why=why)
    return _(
        "**{name}**: {director} decided: {result}. Reason: {reason}",
        name=row.name,
        director=director,
        result=words,
        reason=reason,
    )


def round_over(row: TournamentRow, number: int) -> Text:
    return _("**{name}**: round {number} is complete.", name=row.name, number=number)


def podium(
    row: TournamentRow, placings: Sequence[tuple[int, int]], names: Mapping[int, str]
) -> Text:
    places = "  ".join(
        f"{MEDALS.get(place, str(place))} {names.get(player, str(player))}"
        for place, player in placings
    )
    return _(
        "🏆 **{name}** is over. {places}\nEvery match's file and dice secret are attached.",
        name=row.name,
        places=places,
    )


def start_refused(row: TournamentRow, why: str) -> Text:
    return _(
        "**{name}** could not start at its time: {why} Directors: /tournament start when ready.",
        name=row.name,
        why=why,
    )


def cancelled(row: TournamentRow, director: str) -> Text:
    return _("**{name}** was cancelled by {director}.", name=row.name, director=director)


def status_line(row: TournamentRow, language: str) -> str:
    return say(
        _(
            "#{number} {name}: {format}, {phase}",
            number=row.id,
            name=row.name,
            format=say(FORMAT_WORDS[row.format], language),
            phase=say(PHASE_WORDS[row.phase], language),
        ),
        language,
    )


CANCEL_REFERRED = _(
    "This is a tournament match: it is not voided. The tournament directors rule on it with "
    "/tournament decide (they have been told)."
)
NOT_DIRECTOR = _(
    "Only tournament directors can do that: members with Manage Server, or the role the "
    "server set with /tournament directors."
)


def entry_done(action: str, name: str) -> Text:
    """The private answer to Join, Leave or Check in."""
    if action == "join":
        return _("You are in **{name}**. The draw is made when it starts.", name=name)
    if action == "leave":
        return _("You have left **{name}**.", name=name)
    return _("You are checked in for **{name}**.", name=name)


NO_EVENT = _("There is no tournament open here. A director starts one with /tournament create.")
BAD_LENGTHS = _("Write the match lengths as numbers from 1 to 25, like 5,5,7,9.")

__all__ = [
    "CANCEL_REFERRED",
    "MEDALS",
    "announcement",
    "decided",
    "match_opened",
    "podium",
    "referred",
    "reminder",
    "round_over",
]


# --- the ladder ------------------------------------------------------------------------------


def ladder_challenge(challenger: str, defender: str, accept_by: str) -> Text:
    return _(
        "🪜 {challenger} challenges {defender} on the ladder. {defender}: accept or refuse by "
        "{accept_by}; no answer by then gives the place to {challenger}.",
        challenger=challenger,
        defender=defender,
        accept_by=accept_by,
    )


def ladder_opened(first: str, second: str, length: int, play_by: str) -> Text:
    return _(
        "🪜 Ladder match: {first} vs {second}, {length} points. Play it by {play_by}.",
        first=first,
        second=second,
        length=length,
        play_by=play_by,
    )


def ladder_result(result_words: str, reason: str) -> Text:
    if reason == "refused":
        return _("🪜 Challenge refused: {result}. The ladder is updated.", result=result_words)
    if reason == "timeout":
        return _(
            "🪜 Challenge not answered in time: {result}. The ladder is updated.",
            result=result_words,
        )
    return _("🪜 {result}. The ladder is updated.", result=result_words)


def ladder_decided(result_words: str, director: str, reason: str) -> Text:
    """A director's ruling on a ladder match, with their reason."""
    return _(
        "🪜 {director} decided: {result}. Reason: {reason}. The ladder is updated.",
        director=director,
        result=result_words,
        reason=reason,
    )


def ladder_left(name: str) -> Text:
    return _("🪜 {name} has left the ladder; everyone below moves up.", name=name)


LADDER_TITLE = _("Ladder")
LADDER_JOINED = _("You are on the ladder, at the bottom. Challenge someone above you.")
LADDER_EMPTY = _("This server has no ladder yet: /ladder join starts it.")
LADDER_ANSWERED = _("Answered.")
LADDER_CHALLENGED = _("Challenge sent.")
LADDER_LEFT = _("You have left the ladder.")
LADDER_DECIDED = _("Decided. The result and your reason are posted in the ladder's channel.")

# --- the directors' commands, answered ------------------------------------------------------

PAUSED = _("Paused: no deadline runs.")
RESUMED = _("Resumed: deadlines run again.")
DECIDED = _("Decided. The reason is posted.")
REMOVED = _("Removed.")
REPLACED = _("Replaced.")
CANCELLED = _("Cancelled.")
SAVED = _("Saved.")
MANAGERS_CHOOSE_DIRECTORS = _("Only members with Manage Server can choose the directors.")


def extended(count: int, hours: int) -> Text:
    """How many deadlines ``/tournament extend`` pushed back."""
    return _("{count} deadline(s) pushed back by {hours} hours.", count=count, hours=hours)


# --- refusals --------------------------------------------------------------------------------

Why = CompetitionRefusal

COMPETITION_REFUSALS: dict[CompetitionRefusal, Text] = {
    Why.CANNOT_NOW: _("The competition cannot do that now."),
    Why.REGISTRATION_CLOSED: _("Registration is closed."),
    Why.EVENT_FULL: _("The competition is full."),
    Why.ALREADY_IN: _("You are already in."),
    Why.NOT_ENTERED: _("You have not joined this competition."),
    Why.TOO_FEW_PLAYERS: _("At least two players are needed to start."),
    Why.ROUND_INCOMPLETE: _("Wait for every match of this round to finish."),
    Why.LATE_ENTRY_CLOSED: _("It is too late to join this knockout."),
    Why.MATCH_NOT_READY: _("This match waits for a player: it cannot be decided yet."),
    Why.RESULT_CONFLICT: _("This match already has another result; a director can correct it."),
    Why.RESULT_MISFIT: _("That result does not fit this match."),
    Why.UNKNOWN_MATCH: _("There is no such match in this competition."),
    Why.NOT_ON_LADDER: _("Join the ladder first."),
    Why.OUT_OF_REACH: _("You can only challenge players a few places above you."),
    Why.CHALLENGE_LIMIT: _(
        "One challenge at a time: finish or withdraw yours, or pick a player with fewer "
        "challenges waiting."
    ),
    Why.CHALLENGE_CLOSED: _("This challenge is closed."),
    Why.NOT_YOUR_CHALLENGE: _("This challenge is not yours to answer."),
    Why.NO_TOURNAMENT: _("There is no tournament #{number} here."),
    Why.NAME_NEEDED: _("Give the tournament a name."),
    Why.LADDER_NOT_TOURNAMENT: _("A ladder is run with /ladder, not as a tournament."),
    Why.ALREADY_JOINED: _("You have already joined this tournament."),
    Why.EVENT_CHANGED: _("The tournament changed while you were asking. Look again and retry."),
    Why.EVENT_STARTED: _("The tournament has already started."),
    Why.ALREADY_DECIDED: _("That match is already decided."),
    Why.NOT_RUNNING: _("That tournament is not running."),
    Why.NO_MATCH_TO_DECIDE: _("That player has no match to decide in this tournament."),
    Why.SAY_WHY: _("Say why: the reason is posted with the decision."),
    Why.OWN_MATCH: _("You play in this match: another director must decide it."),
    Why.EXTEND_RANGE: _("Extend by 1 hour to 30 days."),
    Why.NOTHING_TO_EXTEND: _("No open match to extend."),
    Why.NOT_JOINED: _("That player has not joined."),
    Why.NOT_IN_EVENT: _("That player is not in this tournament."),
    Why.ALREADY_OVER: _("That tournament is already over."),
    Why.NEW_PLAYER_IN: _("The new player is already in this tournament."),
    Why.ONLY_UNDECIDED: _("Only a player with no result yet can be replaced."),
    Why.LEFT_LADDER: _("That player has left the server and the ladder."),
    Why.NO_LADDER_MATCH: _("That player has no accepted ladder match to decide."),
}
