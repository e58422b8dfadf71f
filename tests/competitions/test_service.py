"""The tournament service over a real store and session, on both backends: a knockout and
a Swiss from registration to the podium with results read from the games, deadlines and the
director's tools. No Discord: the front end is a recording host."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.errors import CompetitionRefusal as Why
from bot.core.errors import UserError
from bot.core.facts import Fact, TournamentOver
from bot.core.reports import Player
from bot.core.session import SessionSettings
from bot.engine import MatchOptions, ResultKind
from bot.features.puzzles.rules.selection import TournamentStage
from bot.features.tournaments.news import (
    Decided,
    EventFinished,
    EventStarted,
    MatchOpened,
    News,
    ReferredToDirector,
    Reminder,
    RoundOver,
    StartRefused,
)
from bot.features.tournaments.rules import Format, OutcomeKind, Pace, Phase
from bot.services import Services, build_services
from bot.storage import open_store
from bot.storage.competition_rows import PairingRow, TournamentOptions, TournamentRow
from tests.conftest import FakeClock
from tests.telling import refused, refuses

GUILD, CHANNEL = 5, 500
PLAYERS = [Player(i, f"p{i}") for i in range(1, 9)]
TD = Player(99, "director")


class Host:
    """Threads numbered from 1000; everything told is kept."""

    def __init__(self) -> None:
        self.news: list[News] = []
        self.threads = 1000

    async def open_thread(self, event: TournamentRow, pairing: PairingRow) -> int | None:
        self.threads += 1
        return self.threads

    async def tell(self, news: News) -> None:
        self.news.append(news)

    async def present(self, guild_id: int, users: Sequence[int]) -> set[int]:
        return set(users)

    def of(self, kind: type) -> list:
        return [n for n in self.news if isinstance(n, kind)]


@pytest.fixture
async def world(database: Path | str) -> AsyncIterator[tuple[Services, Host, ScriptedRoller]]:
    store = await open_store(database)
    roller = ScriptedRoller()
    services = build_services(
        store, roller=roller, settings=SessionSettings(), clock=FakeClock(1_700_000_000.0)
    )
    host = Host()
    services.tournaments.host = host
    try:
        yield services, host, roller
    finally:
        await services.tournaments.settle()
        await store.close()


async def everyone_present(users: Sequence[int]) -> set[int]:
    return set(users)


async def win(services: Services, roller: ScriptedRoller, opened: MatchOpened, winner: int):
    """End an opened 1-point match: the loser, on roll, resigns and the winner accepts."""
    channel = opened.pairing.channel_id
    assert channel is not None
    row = await services.session.store.live_match(channel)
    assert row is not None and row.game is not None and row.game.actor is not None
    actor = row.player_ids[row.game.actor]
    loser = next(p for p in PLAYERS if p.id in row.player_ids and p.id != winner)
    assert actor == loser.id, "the scripted opening roll put the loser on roll"
    await services.session.resign(channel, loser, ResultKind.BACKGAMMON)
    await services.session.answer_resignation(
        channel, next(p for p in PLAYERS if p.id == winner), True
    )
    await services.tournaments.settle()


def opening_for(opened_first: int, loser: int) -> list[int]:
    """Opening dice that put ``loser`` on roll: the first die is the challenger's."""
    return [3, 1] if loser == opened_first else [1, 3]


async def test_a_knockout_runs_from_registration_to_the_podium(world) -> None:
    services, host, roller = world
    tournaments = services.tournaments
    roller.extend([3, 1] * 10)
    event = await tournaments.create(
        GUILD, CHANNEL, TD, "  Friday   KO ", Format.KNOCKOUT, TournamentOptions(lengths=(1,))
    )
    assert event.name == "Friday KO" and event.phase is Phase.REGISTRATION
    for player in PLAYERS[:4]:
        await tournaments.join(event.id, player, None)
    with pytest.raises(UserError) as caught:
        await tournaments.join(event.id, PLAYERS[0], None)
    assert caught.value.reason is Why.ALREADY_IN
    assert refused(caught.value) == "You are already in."
    await tournaments.leave(event.id, PLAYERS[3])
    await tournaments.join(event.id, PLAYERS[4], None)

    async def present(users: Sequence[int]) -> set[int]:
        return set(users) - {PLAYERS[4].id}  # p5 left the server: dropped at the draw

    await tournaments.start(event.id, GUILD, present)
    names = await tournaments.names(event.id)
    assert sorted(names) == [1, 2, 3]
    opened = host.of(MatchOpened)
    assert len(opened) == 1  # three players: one semi-final, the top seed has a bye
    first = opened[0]
    assert first.in_thread and first.report.match.options.length == 1
    assert first.report.match.rated
    winner = first.pairing.a
    # Whoever is on roll resigns here; the scripted [3, 1] put the challenger on roll.
    row = await services.session.store.live_match(first.pairing.channel_id)
    on_roll = row.player_ids[row.game.actor]
    winner = first.pairing.b if on_roll == first.pairing.a else first.pairing.a
    # Puzzles wait for the end of the event (the hook build_services wires).
    ended: list[TournamentOver] = []

    async def hear(facts: Sequence[Fact]) -> None:
        ended.extend(fact for fact in facts if isinstance(fact, TournamentOver))

    services.facts.subscribe(hear)
    stage = services.puzzles.tournament_stage
    assert await stage(replace(first.report.match, id=10**9)) is None  # not an event's match
    await win(services, roller, first, winner)
    assert await stage(first.report.match) is TournamentStage.RUNNING
    assert [r.number for r in host.of(RoundOver)] == [1]
    final = host.of(MatchOpened)[1]
    assert winner in final.pairing.players
    row = await services.session.store.live_match(final.pairing.channel_id)
    on_roll = row.player_ids[row.game.actor]
    champion = final.pairing.b if on_roll == final.pairing.a else final.pairing.a
    await win(services, roller, final, champion)
    [finished] = host.of(EventFinished)
    assert finished.state.placings()[0] == (1, champion)
    assert ended == [TournamentOver(event.id, GUILD)]  # told once, a fact on the bus
    assert await stage(first.report.match) is TournamentStage.ENDED
    assert set(finished.match_ids) == {first.report.match.id, final.report.match.id}
    assert (await tournaments.event(event.id)).phase is Phase.FINISHED
    # The result came from the game, once, as a played result.
    pairings = await tournaments.store.pairings(event.id)
    played = [p for p in pairings if p.result is not None]
    assert {p.result.kind for p in played} == {OutcomeKind.PLAYED}


async def test_a_swiss_of_three_pairs_rounds_with_a_bye_each_round(world) -> None:
    services, host, roller = world
    tournaments = services.tournaments
    roller.extend([3, 1] * 20)
    options = TournamentOptions(lengths=(1,), rounds=3)
    event = await tournaments.create(GUILD, CHANNEL, TD, "Swiss", Format.SWISS, options)
    for player in PLAYERS[:3]:
        await tournaments.join(event.id, player, None)
    await tournaments.start(event.id, GUILD, everyone_present)
    byes = []
    for number in (1, 2, 3):
        pairings = [p for p in await tournaments.store.pairings(event.id) if p.round == number]
        assert len(pairings) == 2
        [bye] = [p for p in pairings if p.b is None]
        assert bye.result is not None and bye.result.kind is OutcomeKind.BYE
        byes.append(bye.a)
        [match] = [n for n in host.of(MatchOpened) if n.pairing.round == number]
        row = await services.session.store.live_match(match.pairing.channel_id)
        on_roll = row.player_ids[row.game.actor]
        winner = match.pairing.b if on_roll == match.pairing.a else match.pairing.a
        await win(services, roller, match, winner)
    assert sorted(byes) == [1, 2, 3]  # everybody once
    assert [r.number for r in host.of(RoundOver)] == [1, 2]
    assert len(host.of(EventFinished)) == 1


async def test_deadlines_remind_then_decide_and_the_director_rules(world) -> None:
    services, host, roller = world
    tournaments = services.tournaments
    clock = tournaments.clock
    roller.extend([3, 1] * 10)
    options = TournamentOptions(lengths=(3,), pace=Pace.CORRESPONDENCE, round_hours=48)
    event = await tournaments.create(GUILD, CHANNEL, TD, "Slow", Format.KNOCKOUT, options)
    for player in PLAYERS[:4]:
        await tournaments.join(event.id, player, None)
    await tournaments.start(event.id, GUILD, everyone_present)
    first, second = host.of(MatchOpened)
    clock.advance(23.5 * 3600)  # 24.5 h before the deadline: nothing due yet
    await tournaments.tick()
    assert not host.of(Reminder)
    clock.advance(3600)
    await tournaments.tick()
    await tournaments.tick()
    assert len(host.of(Reminder)) == 2  # one per open match, once
    # In the second match the challenger moves; in the first, nobody does.
    row = await services.session.store.live_match(second.pairing.channel_id)
    mover = next(p for p in PLAYERS if p.id == row.player_ids[row.game.actor])
    await services.session.move(second.pairing.channel_id, mover, "8/5 6/5")
    # A director cannot rule on a match they play in; a reason is required.
    with refuses(UserError, "another director must decide it"):
        await tournaments.directors.decide(event.id, GUILD, mover, mover.id, "mine")
    with refuses(UserError, "^Say why"):
        await tournaments.directors.decide(event.id, GUILD, TD, mover.id, "  ")
    clock.advance(25 * 3600)  # past the deadline
    await tournaments.tick()
    await tournaments.settle()
    decided = {d.pairing.key: d for d in host.of(Decided)}
    assert decided[first.pairing.key].result.kind is OutcomeKind.DOUBLE_FORFEIT
    walkover = decided[second.pairing.key].result
    assert walkover.kind is OutcomeKind.WALKOVER and walkover.winner == mover.id
    # The games were ended with no result: nobody is rated for them.
    for opened in (first, second):
        match = await services.session.store.get_match(opened.report.match.id)
        assert match is not None and not match.live and match.winner is None
    # A double forfeit sends nobody on: the walkover's winner takes the final by a bye.
    [finished] = host.of(EventFinished)
    assert finished.state.placings()[0] == (1, mover.id)
    assert not host.of(ReferredToDirector)


async def play_everything(
    services: Services, host: Host, skip: frozenset[int] = frozenset()
) -> int:
    """Play every opened match to its end (the player on roll resigns, the other accepts),
    including the matches that open as results arrive; the number played."""
    played: set[int] = set(skip)
    while True:
        waiting = [n for n in host.of(MatchOpened) if n.report.match.id not in played]
        if not waiting:
            return len(played - skip)
        for opened in waiting:
            played.add(opened.report.match.id)
            channel = opened.pairing.channel_id
            row = await services.session.store.live_match(channel)
            assert row is not None and row.game is not None and row.game.actor is not None
            on_roll = row.player_ids[row.game.actor]
            other = row.player_ids[1 - row.game.actor]
            await services.session.resign(channel, Player(on_roll, "x"), ResultKind.BACKGAMMON)
            await services.session.answer_resignation(channel, Player(other, "y"), True)
        await services.tournaments.settle()


@pytest.mark.parametrize(
    ("format", "players", "options", "matches"),
    [
        # 8 players, progressive consolation: 7 main, 4 + 2 + 1 consolation... as drawn,
        # and the playoff for second place.
        (Format.KNOCKOUT, 8, TournamentOptions(lengths=(1,), consolation=True), None),
        (Format.SWISS, 7, TournamentOptions(lengths=(1,)), 4 * 3),  # 4 rounds, 3 tables
        (Format.ROUND_ROBIN, 4, TournamentOptions(lengths=(1,)), 6),
    ],
)
async def test_every_format_is_played_to_its_podium(
    world, format: Format, players: int, options: TournamentOptions, matches: int | None
) -> None:
    services, host, roller = world
    tournaments = services.tournaments
    roller.extend([3, 1] * 40)
    event = await tournaments.create(GUILD, CHANNEL, TD, "Club night", format, options)
    for player in PLAYERS[:players]:
        await tournaments.join(event.id, player, 1500.0 + player.id)
    await tournaments.start(event.id, GUILD, everyone_present)
    played = await play_everything(services, host)
    [finished] = host.of(EventFinished)
    assert [place for place, _ in finished.state.placings()][:3] == [1, 2, 3]
    if matches is not None:
        assert played == matches
    else:
        keys = [p.key for p in await tournaments.store.pairings(event.id)]
        consolation = [k for k in keys if k.startswith("consolation")]
        playoff = [k for k in keys if k.startswith("playoff")]
        assert consolation and len(playoff) == 1
    assert len(finished.match_ids) == played
    rounds = [r.number for r in host.of(RoundOver)]
    assert rounds == sorted(set(rounds))  # each round's picture once, in order
    assert (await tournaments.event(event.id)).phase is Phase.FINISHED


async def test_two_matches_finishing_together_open_the_next_one_once(world) -> None:
    """Both semi-finals end at the same moment: the final opens exactly once."""
    import asyncio

    services, host, roller = world
    tournaments = services.tournaments
    roller.extend([3, 1] * 10)
    event = await tournaments.create(
        GUILD, CHANNEL, TD, "Race", Format.KNOCKOUT, TournamentOptions(lengths=(1,))
    )
    for player in PLAYERS[:4]:
        await tournaments.join(event.id, player, None)
    await tournaments.start(event.id, GUILD, everyone_present)
    semis = host.of(MatchOpened)
    offers = []
    for opened in semis:
        channel = opened.pairing.channel_id
        row = await services.session.store.live_match(channel)
        on_roll = row.player_ids[row.game.actor]
        other = row.player_ids[1 - row.game.actor]
        await services.session.resign(channel, Player(on_roll, "x"), ResultKind.BACKGAMMON)
        offers.append((channel, Player(other, "y")))
    await asyncio.gather(*(services.session.answer_resignation(c, p, True) for c, p in offers))
    await tournaments.settle()
    await tournaments.advance(event.id)  # a late, redundant pass changes nothing
    finals = [n for n in host.of(MatchOpened) if n.pairing.key == "main:2:0"]
    assert len(finals) == 1
    assert [r.number for r in host.of(RoundOver)] == [1]


async def test_a_player_in_two_events_at_once_and_bad_director_input(world) -> None:
    services, host, roller = world
    tournaments = services.tournaments
    roller.extend([3, 1] * 10)
    first = await tournaments.create(
        GUILD, CHANNEL, TD, "One", Format.KNOCKOUT, TournamentOptions(lengths=(1,))
    )
    second = await tournaments.create(
        GUILD, CHANNEL, TD, "Two", Format.KNOCKOUT, TournamentOptions(lengths=(1,))
    )
    for event in (first, second):
        for player in PLAYERS[:2]:
            await tournaments.join(event.id, player, None)
        await tournaments.start(event.id, GUILD, everyone_present)
    opened = host.of(MatchOpened)
    assert len(opened) == 2 and opened[0].pairing.channel_id != opened[1].pairing.channel_id
    # Bad director input: refused (a typed refusal), nothing changed.
    before = await tournaments.store.pairings(first.id)
    for call, why in (
        (  # not a player
            tournaments.directors.decide(first.id, GUILD, TD, PLAYERS[5].id, "no show"),
            Why.NO_MATCH_TO_DECIDE,
        ),
        (tournaments.directors.extend(first.id, GUILD, TD, 0, None), Why.EXTEND_RANGE),  # no time
        (  # another server
            tournaments.directors.decide(first.id, GUILD + 1, TD, PLAYERS[0].id, "x"),
            Why.NO_TOURNAMENT,
        ),
        (tournaments.start(first.id, GUILD, everyone_present), Why.CANNOT_NOW),  # started
    ):
        with pytest.raises(UserError) as caught:
            await call
        assert caught.value.reason is why
    assert await tournaments.store.pairings(first.id) == before
    with refuses(UserError, "^Give the tournament a name"):
        await tournaments.create(GUILD, CHANNEL, TD, "   ", Format.SWISS, TournamentOptions())


async def test_a_no_show_is_replaced_and_the_newcomer_plays_their_match(world) -> None:
    services, host, roller = world
    tournaments = services.tournaments
    roller.extend([3, 1] * 10)
    event = await tournaments.create(
        GUILD, CHANNEL, TD, "Swap", Format.KNOCKOUT, TournamentOptions(lengths=(1,))
    )
    for player in PLAYERS[:4]:
        await tournaments.join(event.id, player, None)
    await tournaments.start(event.id, GUILD, everyone_present)
    [first, _second] = host.of(MatchOpened)
    gone, newcomer = first.pairing.a, PLAYERS[6]
    with refuses(UserError, "^The new player is already in"):
        await tournaments.directors.replace(event.id, GUILD, TD, gone, PLAYERS[1], None)
    await tournaments.directors.replace(event.id, GUILD, TD, gone, newcomer, None)
    await tournaments.settle()
    old_match = await services.session.store.get_match(first.report.match.id)
    assert old_match is not None and not old_match.live and old_match.winner is None
    reopened = [n for n in host.of(MatchOpened) if n.pairing.key == first.pairing.key]
    assert len(reopened) == 2 and newcomer.id in reopened[-1].pairing.players
    names = await tournaments.names(event.id)
    assert gone not in names and names[newcomer.id] == newcomer.name
    # A player with a result can no longer be replaced: the other first-round match played,
    # its loser is refused.
    await play_everything(
        services, host, skip=frozenset({first.report.match.id, reopened[-1].report.match.id})
    )
    [played] = [p for p in await tournaments.store.pairings(event.id) if p.result is not None]
    assert played.result is not None and played.result.loser is not None
    with refuses(UserError, "^Only a player with no result yet"):
        await tournaments.directors.replace(
            event.id, GUILD, TD, played.result.loser, PLAYERS[7], None
        )
    # The newcomer's match counts: the event plays on to its podium.
    assert played.match_id is not None
    await play_everything(services, host, skip=frozenset({first.report.match.id, played.match_id}))
    assert len(host.of(EventFinished)) == 1
    with refuses(UserError, "^That tournament is already over"):
        await tournaments.directors.replace(event.id, GUILD, TD, newcomer.id, PLAYERS[7], None)


async def test_a_live_event_keeps_an_idle_limit_per_decision(world) -> None:
    """Live pace: the player the match waits on past the idle limit loses it, keeping the
    points won; a player who keeps moving is never timed out by it."""
    services, host, roller = world
    tournaments = services.tournaments
    clock = tournaments.clock
    roller.extend([3, 1] * 4)
    options = TournamentOptions(lengths=(3,), pace=Pace.LIVE, idle_minutes=2)
    event = await tournaments.create(GUILD, CHANNEL, TD, "Blitz", Format.KNOCKOUT, options)
    for player in PLAYERS[:2]:
        await tournaments.join(event.id, player, None)
    await tournaments.start(event.id, GUILD, everyone_present)
    [opened] = host.of(MatchOpened)
    assert opened.deadline - opened.pairing.opened_at == 9 * 60  # 3 minutes a point
    clock.advance(90)
    await tournaments.tick()
    assert not host.of(Decided)
    clock.advance(60)  # 2.5 minutes on one decision
    row = await services.session.store.live_match(opened.pairing.channel_id)
    stalled = row.player_ids[row.game.actor]
    await tournaments.tick()
    await tournaments.settle()
    [decided] = host.of(Decided)
    assert decided.reason == "idle" and decided.result.kind is OutcomeKind.TIMEOUT
    assert decided.result.loser == stalled and decided.result.score == (3, 0)
    assert len(host.of(EventFinished)) == 1


async def test_an_event_with_a_start_time_draws_by_itself(world) -> None:
    services, host, roller = world
    tournaments = services.tournaments
    clock = tournaments.clock
    roller.extend([3, 1] * 4)
    at = clock() + 3600
    options = TournamentOptions(lengths=(1,), starts_at=at)
    event = await tournaments.create(GUILD, CHANNEL, TD, "On time", Format.KNOCKOUT, options)
    lonely = await tournaments.create(GUILD, CHANNEL, TD, "Lonely", Format.SWISS, options)
    for player in PLAYERS[:3]:
        await tournaments.join(event.id, player, None)
    await tournaments.join(lonely.id, PLAYERS[0], None)
    await tournaments.tick()
    assert not host.of(EventStarted) and not host.of(MatchOpened)
    clock.advance(3600)
    await tournaments.tick()
    await tournaments.tick()
    assert [n.event.id for n in host.of(EventStarted)] == [event.id]
    assert len(host.of(MatchOpened)) == 1
    [refused] = host.of(StartRefused)  # told once; the directors take it from there
    assert refused.event.id == lonely.id
    assert (await tournaments.event(lonely.id)).phase is Phase.REGISTRATION


async def test_a_casual_game_beside_the_tournament_match_changes_nothing(world) -> None:
    """The same two players finish a casual match in another channel while their event
    match goes on: the event learns nothing from it (results come from its own match)."""
    services, host, roller = world
    tournaments = services.tournaments
    roller.extend([3, 1] * 6)
    event = await tournaments.create(
        GUILD, CHANNEL, TD, "Beside", Format.KNOCKOUT, TournamentOptions(lengths=(1,))
    )
    for player in PLAYERS[:2]:
        await tournaments.join(event.id, player, None)
    await tournaments.start(event.id, GUILD, everyone_present)
    [opened] = host.of(MatchOpened)
    first, second = (next(p for p in PLAYERS if p.id == i) for i in opened.pairing.players)
    casual = 777
    await services.session.challenge(GUILD, casual, first, second, MatchOptions(length=1))
    await services.session.accept(casual, second)
    row = await services.session.store.live_match(casual)
    on_roll = next(p for p in PLAYERS if p.id == row.player_ids[row.game.actor])
    other = first if on_roll is second else second
    await services.session.resign(casual, on_roll, ResultKind.BACKGAMMON)
    await services.session.answer_resignation(casual, other, True)
    await tournaments.settle()
    [pairing] = await tournaments.store.pairings(event.id)
    assert pairing.result is None and not host.of(EventFinished)
    assert await services.session.store.live_match(opened.pairing.channel_id) is not None
