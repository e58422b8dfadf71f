"""The session layer end to end on a real database file, with scripted dice and a fake clock.

Every game here is a script: the dice and the plays are chosen so the outcome is known in
advance, and the tests assert the report lines, the stored rows and the statistics.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.errors import (
    ChannelBusyError,
    ConflictError,
    NoGameError,
    NotYourTurnError,
    UserError,
)
from bot.core.records import Action, Status
from bot.core.replay import replay
from bot.core.session import Player, Report, SessionService
from bot.engine import EndReason, MatchOptions, Phase, ResultKind
from bot.present import tell
from bot.storage import Store
from tests.telling import refused, refuses, told


def english(lines: Sequence[object]) -> list[str]:
    """A report's lines as the English a reader sees."""
    return [str(line) for line in lines]


GUILD = 10
ALICE = Player(1, "alice")
BOB = Player(2, "bob")
CAROL = Player(3, "carol")
ROBOT = Player(99, "robot", is_bot=True)
BY_INDEX = (ALICE, BOB)

# A game that is played out to the last checker. Alice opens with 6-1 (13/7 8/7), then
# always rolls 6-6 or 5-5 while Bob crawls with 2-1 and never moves his back checkers:
# Alice dances once with 5-5 (her 6-point checker is blocked and she may not bear off the
# others) and wins a backgammon, Bob's two checkers still on her 1-point.
BACKGAMMON_SCRIPT: list[tuple[int, tuple[int, int], str | None]] = [
    (1, (2, 1), "8/7 8/6"),
    (0, (6, 6), "13/7(2) 8/2(2)"),
    (1, (2, 1), "8/7 6/4"),
    (0, (5, 5), "13/3 13/8 7/2"),
    (1, (2, 1), "7/6 7/5"),
    (0, (6, 6), "24/18(2) 8/2"),
    (1, (2, 1), "6/5 6/4"),
    (0, (5, 5), "18/13 7/2(3)"),
    (1, (2, 1), "6/5 6/4"),
    (0, (6, 6), "13/7"),
    (1, (2, 1), "6/5 6/4"),
    (0, (5, 5), "18/3 7/2"),
    (1, (2, 1), "5/4 5/3"),
    (0, (6, 6), "6/off(4)"),
    (1, (2, 1), "5/4 5/3"),
    (0, (5, 5), None),
    (1, (2, 1), "4/3 4/2"),
    (0, (6, 6), "6/off 3/off(2) 2/off"),
    (1, (2, 1), "4/3 4/2"),
    (0, (5, 5), "2/off(4)"),
    (1, (2, 1), "4/3 4/2"),
    (0, (6, 6), "2/off(3)"),
]

# A money game played out: again Alice opens 6-1 (13/7 8/7); Bob always rolls 6-6 and
# dances once from the bar, then races; Alice (6-6, 5-5, 4-4) bears off first while Bob
# has one checker left: a single game.
SINGLE_SCRIPT: list[tuple[int, tuple[int, int], str | None]] = [
    (1, (6, 6), "13/7(4)"),
    (0, (6, 6), "13/7(2) 8/2(2)"),
    (1, (6, 6), "13/7 8/2(3)"),
    (0, (5, 5), "13/3 13/8 7/2"),
    (1, (6, 6), None),
    (0, (4, 4), "24/12 24/20"),
    (1, (6, 6), "7/1(4)"),
    (0, (6, 6), "20/2 12/6"),
    (1, (6, 6), "7/1"),
    (0, (5, 5), "8/3 7/2(3)"),
    (1, (6, 6), "24/6 24/18"),
    (0, (4, 4), "6/2(4)"),
    (1, (6, 6), "18/off 6/off"),
    (0, (6, 6), "6/off(2) 3/off(2)"),
    (1, (6, 6), "6/off(4)"),
    (0, (5, 5), "2/off(4)"),
    (1, (6, 6), "6/off 2/off(3)"),
    (0, (4, 4), "2/off(4)"),
    (1, (6, 6), "1/off(4)"),
    (0, (6, 6), "2/off(3)"),
]


async def start(
    service: SessionService,
    roller: ScriptedRoller,
    channel: int,
    opening: tuple[int, int],
    options: MatchOptions | None = None,
    *,
    rated: bool = True,
    players: tuple[Player, Player] = (ALICE, BOB),
) -> Report:
    """Challenge and accept; ``opening`` is (first player's die, second player's die)."""
    await service.challenge(GUILD, channel, players[0], players[1], options, rated=rated)
    roller.extend(opening)
    return await service.accept(channel, players[1])


async def turn(
    service: SessionService,
    roller: ScriptedRoller,
    channel: int,
    player: Player,
    dice: tuple[int, int],
    play: str | None,
) -> Report:
    """Roll the given dice and make the play (None: the roll must pass automatically)."""
    roller.extend(dice)
    report = await service.roll(channel, player)
    if play is None:
        name = player.name
        assert f"{name} cannot move with {dice[0]}-{dice[1]}" in told(report)
        return report
    return await service.move(channel, player, play)


async def play_script(
    service: SessionService,
    roller: ScriptedRoller,
    channel: int,
    script: list[tuple[int, tuple[int, int], str | None]],
    *,
    next_opening: Sequence[int] = (),
) -> Report:
    report: Report | None = None
    for index, (who, dice, play) in enumerate(script):
        if index == len(script) - 1:
            roller.extend(next_opening)  # dice for the next game's opening roll, if any
        report = await turn(service, roller, channel, BY_INDEX[who], dice, play)
    assert report is not None
    return report


async def assert_replays(service: SessionService, channel: int) -> None:
    row, events = await service.history(channel)
    assert replay(row.options, events) == row.game


# --- complete games and matches -----------------------------------------------------------


async def test_match_to_five_with_crawford(
    service: SessionService, roller: ScriptedRoller, store: Store
) -> None:
    channel = 100
    report = await start(service, roller, channel, (3, 1), MatchOptions(length=5))
    assert told(report) == ("bob accepts. alice rolls 3, bob rolls 1: alice moves first with 3-1.")
    match_id = report.match.id

    # Game 1: Bob doubles, Alice drops.
    report = await service.move(channel, ALICE, "8/5 6/5")
    assert english(tell(report)) == ["alice rolls 3-1 and plays 8/5 6/5."]
    report = await service.double(channel, BOB)
    assert told(report) == "bob doubles to 2. alice: take or drop."
    roller.extend([6, 1])
    report = await service.drop(channel, ALICE)
    assert english(tell(report)) == [
        "alice drops.",
        "bob wins 1 point: the double was dropped. Score: alice 0, bob 1 (match to 5).",
        "Game 2 begins.",
        "alice rolls 6, bob rolls 1: alice moves first with 6-1.",
    ]
    assert report.finished is not None and report.finished.points == 1
    assert not report.match_over
    assert report.boards[0].phase is Phase.OVER and report.boards[-1] == report.game
    assert report.game is not None and report.game.score == (0, 1)

    # Game 2: Alice doubles, Bob takes, then resigns a gammon: 4 points.
    await service.move(channel, ALICE, "13/7 8/7")
    await turn(service, roller, channel, BOB, (2, 1), "24/21")
    assert told(await service.double(channel, ALICE)) == "alice doubles to 2. bob: take or drop."
    report = await service.take(channel, BOB)
    assert told(report) == "bob takes: the cube is at 2 and bob owns it. alice to roll."
    report = await service.resign(channel, BOB, ResultKind.GAMMON)
    assert told(report) == "bob offers to resign a gammon (4 points). alice: accept or reject."
    roller.extend([1, 3])
    report = await service.answer_resignation(channel, ALICE, accept=True)
    assert english(tell(report)) == [
        "alice accepts the resignation.",
        "alice wins a gammon: 4 points (bob resigned). Score: alice 4, bob 1 (match to 5).",
        "Game 3 begins. This is the Crawford game: no doubling.",
        "alice rolls 1, bob rolls 3: bob moves first with 3-1.",
    ]
    assert report.game is not None and report.game.crawford

    # Game 3, the Crawford game: neither player may double; Alice resigns a single game.
    await service.move(channel, BOB, "8/5 6/5")
    with refuses(UserError, "No doubling in the Crawford game"):
        await service.double(channel, ALICE)
    await turn(service, roller, channel, ALICE, (2, 1), "24/21")
    with refuses(UserError, "No doubling in the Crawford game"):
        await service.double(channel, BOB)
    await service.resign(channel, ALICE)
    roller.extend([6, 1])
    report = await service.answer_resignation(channel, BOB, accept=True)
    assert english(tell(report))[1:3] == [
        "bob wins a single game: 1 point (alice resigned). Score: alice 4, bob 2 (match to 5).",
        "Game 4 begins.",
    ]
    assert report.game is not None and not report.game.crawford
    assert report.game.post_crawford

    # Game 4, after Crawford: Bob may double again; Alice takes and plays it out.
    await service.move(channel, ALICE, "13/7 8/7")
    report = await service.double(channel, BOB)
    assert told(report) == "bob doubles to 2. alice: take or drop."
    report = await service.take(channel, ALICE)
    assert told(report) == "alice takes: the cube is at 2 and alice owns it. bob to roll."
    for who, dice, play in BACKGAMMON_SCRIPT:
        if who == 0 and dice == (6, 6) and play == "13/7":
            # Alice owns the cube but already wins the match with it: a redouble is refused.
            with refuses(UserError, "already win the match"):
                await service.double(channel, ALICE)
        report = await turn(service, roller, channel, BY_INDEX[who], dice, play)
        if play is None:
            assert english(tell(report)) == [
                "alice rolls 5-5.",
                "alice cannot move with 5-5: bob to roll.",
            ]
    assert english(tell(report)) == [
        "alice rolls 6-6 and plays 2/off(3).",
        "alice wins a backgammon: 6 points. Score: alice 10, bob 2 (match to 5).",
        "alice wins the 5-point match 10-2.",
    ]
    assert report.match_over and report.next_actor is None
    assert roller.remaining() == 0

    row = report.match
    assert row.status == "finished"
    assert row.winner == 0 and row.final_score == (10, 2) and row.end_reason == "borne_off"
    assert await store.live_match(channel) is None
    results = [
        (f.game_number, f.result.winner, f.result.kind, f.result.cube, f.result.points,
         f.result.reason)
        for f in await store.game_results(match_id)
    ]  # fmt: skip
    assert results == [
        (1, 1, ResultKind.SINGLE, 1, 1, EndReason.DROPPED),
        (2, 0, ResultKind.GAMMON, 2, 4, EndReason.RESIGNED),
        (3, 1, ResultKind.SINGLE, 1, 1, EndReason.RESIGNED),
        (4, 0, ResultKind.BACKGAMMON, 2, 6, EndReason.BORNE_OFF),
    ]
    events = await store.events(match_id)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert [e.action for e in events].count(Action.PASS) == 1
    assert replay(row.options, events) == row.game

    alice = await service.stats(GUILD, ALICE.id)
    bob = await service.stats(GUILD, BOB.id)
    assert alice is not None and bob is not None
    assert (alice.games, alice.game_wins, alice.game_losses) == (4, 2, 2)
    assert (alice.gammons, alice.backgammons, alice.points_won, alice.points_lost) == (1, 1, 10, 2)
    assert (alice.matches, alice.match_wins, alice.match_losses) == (1, 1, 0)
    assert (alice.streak, alice.best_streak) == (1, 1)
    assert (bob.games, bob.game_wins, bob.game_losses) == (4, 2, 2)
    assert (bob.gammons, bob.backgammons, bob.points_won, bob.points_lost) == (0, 0, 2, 10)
    assert (bob.matches, bob.match_wins, bob.match_losses, bob.streak) == (1, 0, 1, 0)
    # Two new players in a 5-point match: 4 * K(5) * sqrt(5) * P(0.5) = 22.36068.
    assert alice.rating == pytest.approx(1522.36068, abs=1e-4)
    assert bob.rating == pytest.approx(1477.63932, abs=1e-4)
    assert (alice.experience, bob.experience) == (5, 5)
    assert (alice.rated_matches, bob.rated_matches) == (1, 1)

    # The match is over: acting in the channel now finds no game.
    with pytest.raises(NoGameError):
        await service.roll(channel, ALICE)


async def test_money_game_played_out(
    service: SessionService, roller: ScriptedRoller, store: Store
) -> None:
    channel = 101
    report = await start(service, roller, channel, (6, 1))
    await service.move(channel, ALICE, "13/7 8/7")
    report = await play_script(service, roller, channel, SINGLE_SCRIPT)
    assert english(tell(report)) == [
        "alice rolls 6-6 and plays 2/off(3).",
        "alice wins: 1 point.",
    ]
    assert report.match_over and report.match.status == "finished"
    assert report.match.final_score == (1, 0)
    assert report.finished is not None and report.finished.kind is ResultKind.SINGLE
    [finished] = await store.game_results(report.match.id)
    assert finished.result.reason is EndReason.BORNE_OFF
    await assert_replays(service, channel)
    # A money game counts as a 1-point match for the ratings: new players move by 10.
    alice = await service.stats(GUILD, ALICE.id)
    assert alice is not None and alice.rating == pytest.approx(1510.0)
    assert alice.experience == 1


async def test_turn_passes_when_the_roll_dances_on_a_closed_point(
    service: SessionService, roller: ScriptedRoller, store: Store
) -> None:
    channel = 102
    report = await start(service, roller, channel, (1, 2))
    assert told(report).endswith("bob moves first with 2-1.")
    await service.move(channel, BOB, "24/21")
    report = await turn(service, roller, channel, ALICE, (4, 2), "8/4* 6/4")
    assert told(report) == "alice rolls 4-2 and plays 8/4* 6/4."
    # Bob is on the bar; 6-6 enters only on Alice's 6-point, which she holds.
    roller.extend([6, 6])
    report = await service.roll(channel, BOB)
    assert english(tell(report)) == ["bob rolls 6-6.", "bob cannot move with 6-6: alice to roll."]
    assert report.game is not None and report.game.phase is Phase.ROLL
    assert report.next_actor == 0
    assert await service.legal_play_texts(channel, BOB.id) == []
    events = await store.events(report.match.id)
    assert [(e.action, e.player, e.dice) for e in events[-2:]] == [
        ("roll", 1, (6, 6)),
        ("pass", 1, (6, 6)),
    ]
    await assert_replays(service, channel)


async def test_restart_in_the_middle_of_a_game(
    db_path: Path, store: Store, service: SessionService, roller: ScriptedRoller
) -> None:
    channel = 103
    await start(service, roller, channel, (6, 1))
    await service.move(channel, ALICE, "13/7 8/7")
    half = len(SINGLE_SCRIPT) // 2
    before = await play_script(service, roller, channel, SINGLE_SCRIPT[:half])
    await store.close()

    reopened = await Store.open(db_path)
    try:
        new_roller = ScriptedRoller()
        new_service = SessionService(reopened, roller=new_roller, clock=service.clock)
        row = await new_service.current(channel)
        assert row is not None and row.game == before.game and row.version == before.match.version
        report = await play_script(new_service, new_roller, channel, SINGLE_SCRIPT[half:])
        assert report.match.status == "finished" and report.match.final_score == (1, 0)
        await assert_replays(new_service, channel)
        events = await reopened.events(report.match.id)
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        stats = await new_service.stats(GUILD, ALICE.id)
        assert stats is not None and stats.match_wins == 1
    finally:
        await reopened.close()


class SeededRoller:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def die(self) -> int:
        return self.rng.randint(1, 6)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
async def test_replay_equals_stored_state_for_random_matches(store: Store, seed: int) -> None:
    rng = random.Random(seed)
    service = SessionService(store, roller=SeededRoller(seed))
    channel = 200 + seed
    options = MatchOptions(length=seed % 3 + 1) if seed != 5 else MatchOptions(beavers=True)
    await service.challenge(GUILD, channel, ALICE, BOB, options)
    report = await service.accept(channel, BOB)
    games = 0
    while report.match.status == "playing":
        game = report.match.game
        assert game is not None
        actor = BY_INDEX[game.actor]  # type: ignore[index]
        if game.resignation is not None:
            report = await service.answer_resignation(channel, actor, rng.random() < 0.5)
        elif game.phase is Phase.ROLL:
            if rng.random() < 0.02:
                report = await service.resign(channel, BY_INDEX[1 - game.actor])  # type: ignore[operator]
            elif game.can_double() and rng.random() < 0.1:
                report = await service.double(channel, actor)
            else:
                report = await service.roll(channel, actor)
        elif game.phase is Phase.DOUBLED:
            choice = rng.random()
            if options.beavers and not game.beaver_pending and choice < 0.2:
                report = await service.beaver(channel, actor)
            elif choice < 0.7:
                report = await service.take(channel, actor)
            else:
                report = await service.drop(channel, actor)
        else:
            texts = await service.legal_play_texts(channel, actor.id)
            report = await service.move(channel, actor, rng.choice(texts))
        if report.finished is not None:
            games += 1
            await assert_replays(service, channel)
    results = await store.game_results(report.match.id)
    await assert_replays(service, channel)
    assert len(results) == games >= 1
    assert (
        sum(r.result.points for r in results if r.result.winner == 0)
        == (
            report.match.final_score[0]  # type: ignore[index]
        )
    )


# --- concurrency ----------------------------------------------------------------------------


async def test_the_same_action_sent_twice_at_once_applies_once(
    service: SessionService, roller: ScriptedRoller, store: Store
) -> None:
    channel = 104
    await start(service, roller, channel, (3, 1))
    await service.move(channel, ALICE, "8/5 6/5")
    roller.extend([5, 2, 6, 4])  # enough dice for both, should both roll
    outcomes = await asyncio.gather(
        service.roll(channel, BOB), service.roll(channel, BOB), return_exceptions=True
    )
    reports = [o for o in outcomes if isinstance(o, Report)]
    errors = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(reports) == 1 and len(errors) == 1
    assert isinstance(errors[0], UserError)
    assert "already rolled" in refused(errors[0])
    assert roller.remaining() == 2  # the refused roll took no dice
    events = await store.events(reports[0].match.id)
    assert [e.action for e in events].count(Action.ROLL) == 1

    # Two moves at once: one plays, the other finds the dice gone.
    outcomes = await asyncio.gather(
        service.move(channel, BOB, "13/8 13/11"),
        service.move(channel, BOB, "24/22 24/19"),
        return_exceptions=True,
    )
    assert sum(isinstance(o, Report) for o in outcomes) == 1
    assert all(isinstance(o, UserError) for o in outcomes if not isinstance(o, Report))


async def test_two_processes_racing_on_one_file_apply_once(
    db_path: Path, service: SessionService, roller: ScriptedRoller, store: Store
) -> None:
    """Two services with their own connections and locks: the row version decides."""
    channel = 105
    await start(service, roller, channel, (3, 1))
    await service.move(channel, ALICE, "8/5 6/5")
    other_store = await Store.open(db_path)
    try:
        other = SessionService(other_store, roller=ScriptedRoller([6, 4]), clock=service.clock)
        roller.extend([5, 2])
        outcomes = await asyncio.gather(
            service.roll(channel, BOB), other.roll(channel, BOB), return_exceptions=True
        )
        reports = [o for o in outcomes if isinstance(o, Report)]
        assert len(reports) == 1
        [error] = [o for o in outcomes if not isinstance(o, Report)]
        assert isinstance(error, UserError)  # ConflictError, or "already rolled"
        events = await store.events(reports[0].match.id)
        assert [e.action for e in events].count(Action.ROLL) == 1
    finally:
        await other_store.close()


async def test_stale_version_is_a_conflict(
    service: SessionService, roller: ScriptedRoller, store: Store
) -> None:
    from bot.core.records import Change

    report = await start(service, roller, 106, (3, 1))
    row = report.match
    await service.move(106, ALICE, "8/5 6/5")
    with pytest.raises(ConflictError):
        await store.apply(Change(row.id, row.version, Status.PLAYING, row.game, 0.0))


# --- refusals change nothing ----------------------------------------------------------------


async def _refusal_setup(service: SessionService, roller: ScriptedRoller, channel: int) -> Report:
    # Alice has moved; Bob is to roll.
    await start(service, roller, channel, (3, 1), MatchOptions(length=3))
    return await service.move(channel, ALICE, "8/5 6/5")


REFUSALS = {
    "out of turn roll": (lambda s, c: s.roll(c, ALICE), NotYourTurnError, "It's bob's turn"),
    "out of turn double": (lambda s, c: s.double(c, ALICE), NotYourTurnError, "bob's turn"),
    "move before rolling": (lambda s, c: s.move(c, BOB, "13/7"), UserError, "Roll first"),
    "take with no double": (lambda s, c: s.take(c, ALICE), UserError, "no double to answer"),
    "drop with no double": (lambda s, c: s.drop(c, ALICE), UserError, "no double to answer"),
    "stranger rolls": (lambda s, c: s.roll(c, CAROL), NotYourTurnError, "not playing"),
    "stranger resigns": (lambda s, c: s.resign(c, CAROL), NotYourTurnError, "not playing"),
    "stranger claims": (lambda s, c: s.claim(c, CAROL), NotYourTurnError, "not playing"),
    "stranger declines": (lambda s, c: s.decline(c, CAROL), UserError, "already started"),
    "accept a running game": (lambda s, c: s.accept(c, BOB), UserError, "already started"),
    "answer no resignation": (
        lambda s, c: s.answer_resignation(c, BOB, True),
        UserError,
        "no resignation offer",
    ),
    "claim too early": (lambda s, c: s.claim(c, ALICE), UserError, "60 minutes"),
    "claim on your own turn": (lambda s, c: s.claim(c, BOB), UserError, "It's your turn"),
}


@pytest.mark.parametrize("name", list(REFUSALS))
async def test_refused_actions_change_nothing(
    name: str, service: SessionService, roller: ScriptedRoller, snapshot
) -> None:
    channel = 300
    report = await _refusal_setup(service, roller, channel)
    act, error, text = REFUSALS[name]
    before = await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id, CAROL.id))
    with refuses(error, text):
        await act(service, channel)
    assert await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id, CAROL.id)) == before


@pytest.mark.parametrize(
    "text, message",
    [
        ("13/2", "13/2 is not legal with 5-2"),
        ("25/18", "no checker on the bar"),
        ("6/off", "not legal with 5-2"),
        ("hello", "'hello' is not a move"),
        ("", "Write a play like"),
    ],
)
async def test_illegal_or_garbled_moves_change_nothing(
    text: str, message: str, service: SessionService, roller: ScriptedRoller, snapshot
) -> None:
    channel = 301
    report = await _refusal_setup(service, roller, channel)
    roller.extend([5, 2])
    report = await service.roll(channel, BOB)
    before = await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id))
    with refuses(UserError, message):
        await service.move(channel, BOB, text)
    assert await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id)) == before


async def test_actions_in_an_empty_channel_or_after_the_end(
    service: SessionService, roller: ScriptedRoller, store: Store, snapshot
) -> None:
    for act in (service.roll, service.double, service.take, service.resign, service.claim):
        with refuses(NoGameError, "no game in this channel"):
            await act(400, ALICE)
    with pytest.raises(NoGameError):
        await service.accept(400, BOB)
    with pytest.raises(NoGameError):
        await service.history(400)
    assert await service.legal_play_texts(400, ALICE.id) == []

    report = await start(service, roller, 401, (3, 1))
    await service.move(401, ALICE, "8/5 6/5")
    await service.double(401, BOB)
    report = await service.drop(401, ALICE)
    assert report.match.status == "finished"
    before = await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id))
    for act in (service.roll, service.double, service.take, service.drop, service.claim):
        with pytest.raises(NoGameError):
            await act(401, BOB)
    with pytest.raises(NoGameError):
        await service.move(401, BOB, "13/7")
    assert await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id)) == before


async def test_playing_before_the_challenge_is_accepted_is_refused(
    service: SessionService, snapshot
) -> None:
    report = await service.challenge(GUILD, 402, ALICE, BOB, MatchOptions(length=3))
    before = await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id))
    with refuses(UserError, "starts when bob accepts"):
        await service.roll(402, ALICE)
    assert await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id)) == before


async def test_legal_play_texts_only_for_the_player_to_move(
    service: SessionService, roller: ScriptedRoller
) -> None:
    await start(service, roller, 403, (3, 1))
    texts = await service.legal_play_texts(403, ALICE.id)
    assert "8/5 6/5" in texts and len(texts) == len(set(texts))
    assert await service.legal_play_texts(403, BOB.id) == []
    assert await service.legal_play_texts(403, CAROL.id) == []


# --- challenges ------------------------------------------------------------------------------


async def test_one_live_game_or_challenge_per_channel(
    service: SessionService, roller: ScriptedRoller
) -> None:
    report = await service.challenge(GUILD, 500, ALICE, BOB, MatchOptions(length=3))
    assert english(tell(report)) == [
        "alice challenges bob to a 3-point match (rated).",
        "bob: accept or decline within 15 minutes.",
    ]
    with pytest.raises(ChannelBusyError):
        await service.challenge(GUILD, 500, CAROL, BOB)
    roller.extend([3, 1])
    await service.accept(500, BOB)
    with pytest.raises(ChannelBusyError):
        await service.challenge(GUILD, 500, CAROL, ALICE)
    # The same players in other channels at the same time.
    report = await service.challenge(GUILD, 501, BOB, ALICE, rated=False)
    assert english(tell(report))[0] == "bob challenges alice to a money game (casual)."
    roller.extend([1, 3])
    await service.accept(501, ALICE)
    await service.challenge(GUILD, 502, ALICE, CAROL, MatchOptions(length=1, cube=False))
    assert {r.channel_id for r in await service.store.live_matches()} == {500, 501, 502}
    assert (await service.current(501)).status == "playing"  # type: ignore[union-attr]
    await service.move(500, ALICE, "8/5 6/5")
    await service.move(501, ALICE, "8/5 6/5")  # Alice (second player) won 501's opening


async def test_challenge_expires_after_the_configured_time(
    service: SessionService, clock, roller: ScriptedRoller, store: Store
) -> None:
    report = await service.challenge(GUILD, 510, ALICE, BOB)
    clock.advance(15 * 60 - 1)
    assert await service.current(510) is not None
    with pytest.raises(ChannelBusyError):
        await service.challenge(GUILD, 510, CAROL, BOB)
    clock.advance(1)
    assert await service.current(510) is None
    with pytest.raises(NoGameError):
        await service.accept(510, BOB)
    expired = await store.get_match(report.match.id)
    assert expired is not None and expired.status == "expired"
    # The channel is free again.
    report = await service.challenge(GUILD, 510, CAROL, BOB)
    roller.extend([4, 2])
    assert (await service.accept(510, BOB)).match.status == "playing"


async def test_expired_challenge_is_replaced_by_a_new_one(
    service: SessionService, clock, store: Store
) -> None:
    old = await service.challenge(GUILD, 511, ALICE, BOB)
    clock.advance(16 * 60)
    new = await service.challenge(GUILD, 511, ALICE, CAROL)
    assert (await store.get_match(old.match.id)).status == "expired"  # type: ignore[union-attr]
    assert new.match.status == "challenge"


async def test_decline_and_withdraw(service: SessionService, roller: ScriptedRoller) -> None:
    await service.challenge(GUILD, 520, ALICE, BOB)
    with refuses(NotYourTurnError, "This challenge is for bob"):
        await service.decline(520, CAROL)
    report = await service.decline(520, BOB)
    assert told(report) == "bob declines the challenge."
    assert report.match.status == "declined"
    assert await service.current(520) is None

    await service.challenge(GUILD, 520, ALICE, BOB)
    report = await service.decline(520, ALICE)
    assert told(report) == "alice withdraws the challenge." and report.match.status == "withdrawn"
    assert await service.current(520) is None
    with pytest.raises(NoGameError):
        await service.decline(520, BOB)


async def test_only_the_challenged_player_can_accept(
    service: SessionService, roller: ScriptedRoller, snapshot
) -> None:
    report = await service.challenge(GUILD, 530, ALICE, BOB)
    before = await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id, CAROL.id))
    with refuses(NotYourTurnError, "Waiting for bob to accept"):
        await service.accept(530, ALICE)
    with refuses(NotYourTurnError, "This challenge is for bob"):
        await service.accept(530, CAROL)
    assert await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id, CAROL.id)) == before
    roller.extend([2, 2, 5, 6])  # a tie first: the opening is rolled again
    report = await service.accept(530, BOB)
    assert english(tell(report)) == [
        "bob accepts.",
        "alice rolls 2, bob rolls 2: a tie, rolling again.",
        "alice rolls 5, bob rolls 6: bob moves first with 6-5.",
    ]


async def test_challenging_yourself_or_a_bot_is_refused(service: SessionService) -> None:
    with refuses(UserError, "challenge yourself"):
        await service.challenge(GUILD, 540, ALICE, Player(ALICE.id, "alice again"))
    with refuses(UserError, "Bots can't play"):
        await service.challenge(GUILD, 540, ALICE, ROBOT)
    assert await service.current(540) is None


# --- inactivity ------------------------------------------------------------------------------


async def test_claim_for_inactivity(
    service: SessionService, roller: ScriptedRoller, clock, store: Store, snapshot
) -> None:
    channel = 600
    await start(service, roller, channel, (3, 1), MatchOptions(length=5))
    report = await service.move(channel, ALICE, "8/5 6/5")  # Bob to roll from now on
    clock.advance(20 * 60)
    before = await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id))
    with refuses(UserError, "bob still has 40 minutes to act before you can claim"):
        await service.claim(channel, ALICE)
    clock.advance(39 * 60 + 50)
    with refuses(UserError, "bob still has 1 minute to act"):
        await service.claim(channel, ALICE)
    clock.advance(10)
    with refuses(UserError, "It's your turn"):
        await service.claim(channel, BOB)
    assert await snapshot(report.match.id, GUILD, (ALICE.id, BOB.id)) == before

    report = await service.claim(channel, ALICE)
    # The match is forfeited at the score reached (see tests/test_trust_session.py).
    assert english(tell(report)) == [
        "bob has not acted for 60 minutes: alice claims the match.",
        "alice wins the 5-point match by forfeit at 0-0: bob timed out and keeps 0 points.",
        "A forfeit does not change ratings.",
    ]
    assert report.match_over and report.match.status == "finished"
    assert report.match.end_reason == "forfeit" and report.match.final_score == (0, 0)
    assert await store.game_results(report.match.id) == []  # the game was not won
    alice = await service.stats(GUILD, ALICE.id)
    bob = await service.stats(GUILD, BOB.id)
    assert alice is not None and bob is not None
    assert (alice.match_wins, alice.points_won, alice.game_wins) == (1, 0, 0)
    assert (bob.match_losses, bob.points_lost, bob.game_losses) == (1, 0, 0)
    assert alice.rating == bob.rating == 1500 and alice.rated_matches == 0
    await assert_replays(service, channel)


async def test_any_action_resets_the_inactivity_clock(
    service: SessionService, roller: ScriptedRoller, clock
) -> None:
    await start(service, roller, 601, (3, 1))
    clock.advance(59 * 60)
    await service.move(601, ALICE, "8/5 6/5")
    clock.advance(59 * 60)
    with refuses(UserError, "1 minute"):
        await service.claim(601, ALICE)
    clock.advance(60)
    assert (await service.claim(601, ALICE)).match_over


async def test_waiting_on_a_double_or_a_resignation_can_be_claimed(
    service: SessionService, roller: ScriptedRoller, clock
) -> None:
    await start(service, roller, 602, (3, 1), MatchOptions(length=3))
    await service.move(602, ALICE, "8/5 6/5")
    await service.double(602, BOB)  # Alice must answer
    clock.advance(3600)
    with refuses(UserError, "It's your turn"):
        await service.claim(602, ALICE)
    report = await service.claim(602, BOB)
    # A forfeit at the score reached: alice keeps her 0 points, bob wins the match.
    assert report.match.final_score == (0, 0) and report.match.winner == 1


# --- statistics and ratings -----------------------------------------------------------------


async def quick_match(
    service: SessionService,
    roller: ScriptedRoller,
    channel: int,
    players: tuple[Player, Player],
    winner: int,
    *,
    rated: bool = True,
    length: int = 1,
) -> Report:
    """A match decided by resignation: the loser moves first and resigns a single game."""
    opening = (1, 2) if winner == 0 else (2, 1)
    await start(
        service, roller, channel, opening, MatchOptions(length=length), rated=rated,
        players=players,
    )  # fmt: skip
    loser = players[1 - winner]
    await service.resign(channel, loser)
    report = await service.answer_resignation(channel, players[winner], accept=True)
    assert report.match_over
    return report


async def test_streaks_and_points(service: SessionService, roller: ScriptedRoller) -> None:
    for channel, winner in [(700, 0), (701, 0), (702, 0), (703, 1), (704, 0)]:
        await quick_match(service, roller, channel, (ALICE, BOB), winner)
    alice = await service.stats(GUILD, ALICE.id)
    bob = await service.stats(GUILD, BOB.id)
    assert alice is not None and bob is not None
    assert (alice.matches, alice.match_wins, alice.match_losses) == (5, 4, 1)
    assert (alice.streak, alice.best_streak) == (1, 3)
    assert (bob.streak, bob.best_streak) == (0, 1)
    assert (alice.points_won, alice.points_lost, bob.points_won) == (4, 1, 1)
    assert alice.rated_matches == 5 and alice.experience == 5


async def test_casual_matches_count_in_stats_but_not_ratings(
    service: SessionService, roller: ScriptedRoller
) -> None:
    await quick_match(service, roller, 710, (ALICE, BOB), 0, rated=False)
    alice = await service.stats(GUILD, ALICE.id)
    assert alice is not None
    assert (alice.matches, alice.match_wins, alice.games) == (1, 1, 1)
    assert (alice.rating, alice.experience, alice.rated_matches) == (1500.0, 0, 0)
    assert await service.leaderboard(GUILD) == []


async def test_cancelled_games_record_nothing(
    service: SessionService, roller: ScriptedRoller, store: Store
) -> None:
    await start(service, roller, 720, (3, 1), MatchOptions(length=3))
    await service.move(720, ALICE, "8/5 6/5")
    moderator = Player(50, "mod")
    report = await service.cancel(720, moderator)
    assert told(report) == "mod cancelled the game. No result is recorded."
    assert report.match.status == "cancelled" and report.match.winner is None
    assert await store.game_results(report.match.id) == []
    assert await service.stats(GUILD, ALICE.id) is None
    assert await service.stats(GUILD, BOB.id) is None
    assert await service.current(720) is None
    # A pending challenge can be cancelled too.
    await service.challenge(GUILD, 720, ALICE, BOB)
    assert (await service.cancel(720, moderator)).match.status == "cancelled"
    await service.challenge(GUILD, 720, ALICE, BOB)


async def test_leaderboard_by_rating_with_a_minimum_of_rated_matches(
    service: SessionService, roller: ScriptedRoller
) -> None:
    dave = Player(4, "dave")
    # carol beats alice twice; alice beats bob once; dave plays only casual games.
    await quick_match(service, roller, 730, (CAROL, ALICE), 0)
    await quick_match(service, roller, 731, (CAROL, ALICE), 0)
    await quick_match(service, roller, 732, (ALICE, BOB), 0)
    await quick_match(service, roller, 733, (dave, BOB), 0, rated=False)
    board = await service.leaderboard(GUILD)
    assert [p.name for p in board] == ["carol", "alice", "bob"]
    assert [p.rating for p in board] == sorted((p.rating for p in board), reverse=True)
    assert [p.name for p in await service.leaderboard(GUILD, min_rated_matches=2)] == [
        "carol",
        "alice",
    ]
    assert [p.name for p in await service.leaderboard(GUILD, limit=1)] == ["carol"]
    assert await service.leaderboard(GUILD + 1) == []


async def test_stats_are_per_server(service: SessionService, roller: ScriptedRoller) -> None:
    await quick_match(service, roller, 740, (ALICE, BOB), 0)
    assert await service.stats(GUILD + 1, ALICE.id) is None


# --- report wording ------------------------------------------------------------------------


async def test_beaver_take_and_drop_reports(
    service: SessionService, roller: ScriptedRoller
) -> None:
    options = MatchOptions(beavers=True)
    await start(service, roller, 800, (3, 1), options)
    await service.move(800, ALICE, "8/5 6/5")
    await service.double(800, BOB)
    report = await service.beaver(800, ALICE)
    assert told(report) == (
        "alice beavers: the cube is at 2 and alice owns it. "
        "bob: take the beaver (cube to 4) or drop it (2 points)."
    )
    with refuses(NotYourTurnError, "Waiting for bob to take or drop"):
        await service.take(800, ALICE)
    report = await service.take(800, BOB)
    assert told(report) == "bob takes: the cube is at 4 and alice owns it. bob to roll."
    assert report.game is not None and report.game.cube == 4 and report.game.cube_owner == 0
    await assert_replays(service, 800)


async def test_dropping_a_beaver_concedes_the_taken_double(
    service: SessionService, roller: ScriptedRoller
) -> None:
    await start(service, roller, 801, (3, 1), MatchOptions(beavers=True))
    await service.move(801, ALICE, "8/5 6/5")
    await service.double(801, BOB)
    await service.beaver(801, ALICE)
    report = await service.drop(801, BOB)
    assert english(tell(report)) == ["bob drops.", "alice wins 2 points: the double was dropped."]
    assert report.match.final_score == (2, 0)


async def test_a_resignation_offer_names_what_accepting_scores(
    service: SessionService, roller: ScriptedRoller
) -> None:
    """Under the Jacoby rule with the cube centred a gammon counts single, and the offer
    says so instead of promising two points."""
    roller.extend([3, 1])
    await service.challenge(1, 930, ALICE, BOB, MatchOptions(jacoby=True))
    await service.accept(930, BOB)
    offer = await service.resign(930, ALICE, ResultKind.GAMMON)
    assert english(tell(offer)) == [
        "alice offers to resign a gammon (1 point). bob: accept or reject."
    ]
    done = await service.answer_resignation(930, BOB, True)
    assert english(tell(done))[-1] == "bob wins a single game: 1 point (alice resigned)."
