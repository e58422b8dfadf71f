"""Club competitions (issue 28): the pure rules of tournaments and ladders.

This package is the core the ``/tournament`` and ``/ladder`` commands will stand on: the
lifecycle, seeding and the draw, single elimination with a progressive consolation, the
Swiss system, round robin groups, a challenge ladder, and what happens at a deadline. Like
:mod:`bot.engine` it is pure and stdlib only: no discord, no database, no clock, no I/O.
Players are plain ints; times are passed in; randomness comes from a given seed.

Each event is an immutable value holding its draw, options and recorded results; who
plays whom next, who advanced, the standings and the podium are derived from it. Every
change returns a new value or raises a :class:`CompetitionError` subclass and changes
nothing; recording a result that is already there returns the same value, which is what
lets the storage layer advance a bracket exactly once when two shard processes report the
same match. The words players read about competitions live in
:mod:`bot.present.competitions`; the pictures in :mod:`renderers.standings`.

Modules: :mod:`~bot.features.tournaments.rules.model` (values, results, errors, match lengths),
:mod:`~bot.features.tournaments.rules.lifecycle`, :mod:`~bot.features.tournaments.rules.seeding`,
:mod:`~bot.features.tournaments.rules.knockout`, :mod:`~bot.features.tournaments.rules.swiss`,
:mod:`~bot.features.tournaments.rules.roundrobin`, :mod:`~bot.features.tournaments.rules.standings`
(tie-breaks),
:mod:`~bot.features.tournaments.rules.ladder`, :mod:`~bot.features.tournaments.rules.deadlines`.
"""

from bot.features.tournaments.rules.deadlines import (
    Activity,
    DeadlineDecision,
    Pace,
    PaceRules,
    Verdict,
    decide_at_deadline,
    due_reminder,
    reminder_times,
)
from bot.features.tournaments.rules.knockout import (
    Knockout,
    KnockoutMatch,
    MatchKey,
    Section,
    Slot,
    Status,
)
from bot.features.tournaments.rules.ladder import Challenge, ChallengeState, Ladder, LadderRules
from bot.features.tournaments.rules.lifecycle import (
    Phase,
    Registration,
    Step,
    advance,
    allowed_steps,
)
from bot.features.tournaments.rules.model import (
    CompetitionError,
    Entrant,
    Format,
    Game,
    NotReady,
    OutcomeKind,
    Pairing,
    PlayerId,
    Result,
    ResultConflict,
    ResultError,
    RoundKey,
    UnknownMatch,
    match_length,
)
from bot.features.tournaments.rules.roundrobin import GroupKey, RoundRobin, berger_rounds
from bot.features.tournaments.rules.seeding import Seeding, bracket_order, seed, snake_groups
from bot.features.tournaments.rules.standings import Standing, TieBreak, standings
from bot.features.tournaments.rules.swiss import Swiss, default_rounds, pair_round

__all__ = [
    "Activity",
    "Challenge",
    "ChallengeState",
    "CompetitionError",
    "DeadlineDecision",
    "Entrant",
    "Format",
    "Game",
    "GroupKey",
    "Knockout",
    "KnockoutMatch",
    "Ladder",
    "LadderRules",
    "MatchKey",
    "NotReady",
    "OutcomeKind",
    "Pace",
    "PaceRules",
    "Pairing",
    "Phase",
    "PlayerId",
    "Registration",
    "Result",
    "ResultConflict",
    "ResultError",
    "RoundKey",
    "RoundRobin",
    "Section",
    "Seeding",
    "Slot",
    "Standing",
    "Status",
    "Step",
    "Swiss",
    "TieBreak",
    "UnknownMatch",
    "Verdict",
    "advance",
    "allowed_steps",
    "berger_rounds",
    "bracket_order",
    "decide_at_deadline",
    "default_rounds",
    "due_reminder",
    "match_length",
    "pair_round",
    "reminder_times",
    "seed",
    "snake_groups",
    "standings",
]
