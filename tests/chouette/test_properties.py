"""Random chouettes: any sequence of allowed actions (doubles, answers, beavers, moves, joins,
leaves, house rules on or off) keeps the session table at zero, and every settled game pays
each member exactly their own cube: the cube's value times the game's (Jacoby judged per
member), or the value before a refused double, or the value of a cube a side abandoned. The
events alone replay every board (the analysis's walk)."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import EngineError
from bot.features.chouette.rules import (
    Answer,
    AnswerOrder,
    Chouette,
    ChouetteError,
    ChouetteOptions,
    GameRecord,
    Offer,
    Rotation,
    Seat,
    Settled,
    Side,
    Stage,
    Status,
)
from bot.features.chouette.rules import play as verbs
from bot.features.chouette.rules.replay import boards, decisions

STEPS = 400

options = st.builds(
    ChouetteOptions,
    jacoby=st.booleans(),
    beavers=st.booleans(),
    box_takes_captain=st.booleans(),
    box_takes_half=st.booleans(),
    answer_order=st.sampled_from(list(AnswerOrder)),
    captain_must_beaver=st.booleans(),
    partner=st.booleans(),
    auto_doubles=st.integers(0, 2),
    rotation=st.sampled_from(list(Rotation)),
)


def candidates(s: Chouette, rng: random.Random) -> list[Callable[[], verbs.Applied]]:
    """Actions worth trying now, most of them allowed (a refused one is skipped)."""

    def die() -> int:
        return rng.randint(1, 6)

    out: list[Callable[[], verbs.Applied]] = []
    g = s.game
    people = list(s.present)
    if rng.random() < 0.01:
        newcomer = 100 + rng.randint(0, 20)
        out.append(lambda: verbs.join(s, Seat(newcomer, f"p{newcomer}")))
    if rng.random() < 0.01 and people:
        leaver = rng.choice(people)
        out.append(lambda: verbs.leave(s, leaver, die))
    if g is None or g.over or s.status is not Status.PLAYING:
        return out
    if g.stage is Stage.MOVE:
        mover = g.to_move
        assert mover is not None
        plays = list(g.board.legal_plays())
        play = rng.choice(plays)
        out.append(lambda: verbs.move(s, mover, play, die))
    elif g.stage is Stage.WINDOW:
        for member in g.team:
            if rng.random() < 0.3:
                out.append(lambda m=member: verbs.double(s, m, die))  # type: ignore[misc]
        out.append(lambda: verbs.roll(s, g.acting, die))
    elif g.stage is Stage.BOX_ANSWERS:
        offered = [c.member for c in g.cubes if c.offer is Offer.BY_MEMBER]
        for _ in range(4):
            answers = {m: rng.choice(list(Answer)) for m in offered}
            out.append(lambda a=answers: verbs.answer_box(s, g.box, a, die))  # type: ignore[misc]
    elif g.stage is Stage.BOX_TURN:
        team = list(g.team)
        subset = [m for m in team if rng.random() < 0.5]
        if rng.random() < 0.3:
            out.append(lambda: verbs.double(s, g.box, die, subset))
        out.append(lambda: verbs.roll(s, g.box, die))
    elif g.stage is Stage.MEMBER_ANSWERS:
        for member in g.team:
            answer = rng.choice(list(Answer))
            out.append(lambda m=member, a=answer: verbs.answer_member(s, m, a, die))  # type: ignore[misc]
        out.append(lambda: verbs.follow_captain(s, list(g.team), die))
    return out


def check_record(record: GameRecord, options: ChouetteOptions) -> None:
    assert sum(points for _, points in record.points) == 0, record
    by_player = record.by_player
    for cube in record.cubes:
        assert cube.points is not None and by_player[cube.member] == cube.points
        if cube.settled is Settled.PLAYED:
            assert record.winner is not None
            kind = 1 if options.jacoby and not cube.turned else record.kind
            sign = 1 if record.winner is Side.TEAM else -1
            assert cube.points == sign * kind * cube.value, (cube, record)
        elif cube.settled in (Settled.MEMBER_DROPPED, Settled.TEAM_LEFT):
            assert cube.points == -cube.value
        else:
            assert cube.settled in (Settled.BOX_DROPPED, Settled.BOX_LEFT)
            assert cube.points == cube.value
        assert cube.value >= 1 and cube.value & (cube.value - 1) == 0  # a power of two


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options, players=st.integers(3, 6), seed=st.integers(0, 2**32))
def test_the_table_sums_to_zero_and_each_member_is_paid_by_their_own_cube(
    options: ChouetteOptions, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    s = Chouette(options)
    for player in range(1, players + 1):
        s = verbs.join(s, Seat(player, f"p{player}")).session
    begun = verbs.begin(s, 1, lambda: rng.randint(1, 6))
    s, log = begun.session, list(begun.events)
    checked = 0
    for _ in range(STEPS):
        if s.status is Status.ENDED:
            break
        tries = candidates(s, rng)
        rng.shuffle(tries)
        for attempt in tries:
            try:
                applied = attempt()
            except (ChouetteError, EngineError):
                continue
            s = applied.session
            log.extend(applied.events)
            break
        for record in s.records[checked:]:
            check_record(record, options)
        checked = len(s.records)
        assert sum(s.table.values()) == 0
        assert len(s.present) <= 6
        if s.game is not None and s.status is Status.PLAYING:
            g = s.game
            assert g.box not in g.team and len(set(g.team)) == len(g.team)
            assert g.acting in g.team
    # The log alone replays the board (the analysis walks exactly the game played), and
    # every decision in it is one the engine can judge: someone acts in its view.
    if s.game is not None and s.status is Status.PLAYING:
        replayed, board = boards(log)[s.game.number], s.game.board
        assert (replayed.position, replayed.on_roll, replayed.dice, replayed.phase) == (
            board.position,
            board.on_roll,
            board.dice,
            board.phase,
        )
    assert all(d.view.actor is not None for d in decisions(log, options))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_refused_action_changes_nothing(seed: int) -> None:
    """Every verb works on a copy: a refusal leaves the session it was given as it was."""
    rng = random.Random(seed)
    s = Chouette(ChouetteOptions())
    for player in (1, 2, 3, 4):
        s = verbs.join(s, Seat(player, f"p{player}")).session
    s = verbs.begin(s, 1, lambda: rng.randint(1, 6)).session
    for _ in range(60):
        before = s
        for attempt in candidates(s, rng):
            try:
                attempt()
            except (ChouetteError, EngineError):
                assert s == before
        moves = candidates(s, rng)
        for attempt in moves:
            try:
                s = attempt().session
                break
            except (ChouetteError, EngineError):
                continue
