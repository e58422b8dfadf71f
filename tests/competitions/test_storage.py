"""The competition tables on both backends: events, entrants, the draw, pairings, results
written once, claims, settings and ladders, and that all of it survives reopening."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.core.errors import ConflictError
from bot.features.tournaments.rules import Format, Phase, Result, Seeding
from bot.storage import open_store
from bot.storage.competitions import CompetitionStore, EntrantRow, PairingRow, TournamentOptions

GUILD = 42


async def new_event(competitions: CompetitionStore, name: str = "Friday KO"):
    return await competitions.create_tournament(
        guild_id=GUILD,
        channel_id=9,
        name=name,
        format=Format.KNOCKOUT,
        options=TournamentOptions(lengths=(3, 5), seeding=Seeding.RATING, consolation=True),
        created_by=1,
        now=100.0,
        rng_seed=1234,
    )


async def test_an_event_is_kept_and_read_back_after_reopening(database: Path | str) -> None:
    store = await open_store(database)
    try:
        competitions = CompetitionStore(store)
        event = await new_event(competitions)
        second = await new_event(competitions, "Saturday Swiss")
        assert (event.id, second.id) == (1, 2)
        assert event.phase is Phase.DRAFT and event.options.consolation
        assert await competitions.add_entrant(event.id, EntrantRow(5, "eve", 1600.0, 1.0))
        assert not await competitions.add_entrant(event.id, EntrantRow(5, "eve", 1600.0, 2.0))
        assert await competitions.add_entrant(event.id, EntrantRow(6, "fay", None, 3.0))
        assert await competitions.add_entrant(event.id, EntrantRow(7, "gus", None, 4.0))
        opened = await competitions.update_tournament(event, phase=Phase.REGISTRATION)
        assert opened.version == event.version + 1
        with pytest.raises(ConflictError):  # a stale version writes nothing
            await competitions.update_tournament(event, phase=Phase.CANCELLED)
        with pytest.raises(ConflictError):  # nor does a stale draw, even in part
            await competitions.draw(event, [6, 5], [7], phase=Phase.RUNNING)
        assert [e.user_id for e in await competitions.entrants(event.id)] == [5, 6, 7]
        drawn = await competitions.draw(opened, [6, 5], [7], phase=Phase.RUNNING, round_number=1)
        assert drawn.phase is Phase.RUNNING and drawn.round_number == 1
        await competitions.add_pairings(
            event.id, [PairingRow("main:1:0", 1, 6, 5, 3), PairingRow("main:1:1", 1, 8, None, 3)]
        )
        await competitions.add_pairings(event.id, [PairingRow("main:1:0", 1, 6, 5, 3)])
        await competitions.set_td_role(GUILD, 77)
        version = await competitions.save_ladder(GUILD, 9, '{"ranking": []}', None)
        with pytest.raises(ConflictError):
            await competitions.save_ladder(GUILD, 9, "{}", None)
        assert await competitions.save_ladder(GUILD, 9, '{"ranking": [5]}', version) == 2
    finally:
        await store.close()

    store = await open_store(database)
    try:
        competitions = CompetitionStore(store)
        again = await competitions.tournament(1)
        assert again is not None and again.name == "Friday KO" and again.phase is Phase.RUNNING
        assert again.options == TournamentOptions(
            lengths=(3, 5), seeding=Seeding.RATING, consolation=True
        )
        entrants = await competitions.entrants(1)
        assert [(e.user_id, e.seed, e.rating) for e in entrants] == [(5, 2, 1600.0), (6, 1, None)]
        pairings = await competitions.pairings(1)
        assert [(p.key, p.players) for p in pairings] == [("main:1:0", (6, 5)), ("main:1:1", (8,))]
        running = await competitions.tournaments(GUILD, [Phase.RUNNING])
        assert [t.id for t in running] == [1]
        assert await competitions.td_role(GUILD) == 77
        assert await competitions.ladder_state(GUILD) == (9, '{"ranking": [5]}', 2)
    finally:
        await store.close()


async def test_a_result_is_written_once_even_when_two_report_it_together(
    database: Path | str,
) -> None:
    """Two processes (two stores) learn the same match is over at once: exactly one writes
    it; a different result afterwards is refused too, so the bracket advances once."""
    first, second = await open_store(database), await open_store(database)
    try:
        a, b = CompetitionStore(first), CompetitionStore(second)
        event = await new_event(a)
        await a.add_pairings(event.id, [PairingRow("main:1:0", 1, 6, 5, 3)])
        claims = await asyncio.gather(
            a.claim_pairing(event.id, "main:1:0", channel_id=70, opened_at=1.0, deadline=5.0),
            b.claim_pairing(event.id, "main:1:0", channel_id=71, opened_at=1.0, deadline=5.0),
        )
        assert sorted(claims) == [False, True]
        await a.attach_match(event.id, "main:1:0", 900)
        played = Result.played(6, 5, (3, 1))
        wrote = await asyncio.gather(
            a.record_result(event.id, "main:1:0", played, now=2.0),
            b.record_result(event.id, "main:1:0", played, now=2.0),
        )
        assert sorted(wrote) == [False, True]
        assert not await a.record_result(
            event.id, "main:1:0", Result.walkover(5, 6), now=3.0, decided_by=1, reason="x"
        )
        found = await b.pairing_of_match(900)
        assert found is not None
        tournament_id, pairing = found
        assert tournament_id == event.id and pairing.result == played
        assert pairing.channel_id in (70, 71) and pairing.decided_by is None
        assert (await b.pairing_in_channel(pairing.channel_id or 0)) == found
        await a.update_pairing(event.id, "main:1:0", reminders=(4.0,), deadline=8.0)
        [updated] = await b.pairings(event.id)
        assert updated.reminders == (4.0,) and updated.deadline == 8.0
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize(
    "result",
    [
        Result.played(1, 2, (5, 3)),
        Result.timeout(2, 1, (5, 4)),
        Result.walkover(1, 2),
        Result.bye(1),
        Result.double_forfeit(),
    ],
)
async def test_every_kind_of_result_reads_back_as_written(db_path: Path, result: Result) -> None:
    store = await open_store(db_path)
    try:
        competitions = CompetitionStore(store)
        event = await new_event(competitions)
        await competitions.add_pairings(event.id, [PairingRow("1:0", 1, 1, 2, 5)])
        assert await competitions.record_result(event.id, "1:0", result, now=1.0)
        [pairing] = await competitions.pairings(event.id)
        assert pairing.result == result
    finally:
        await store.close()
