"""The puzzle service over a real store and the real computer: a finished match's mistake
becomes a puzzle (confirmed at the strongest level), is given to its maker first, graded
and rated once; a kept-out player's games give none; the daily post is claimed once."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.computer import computer_available
from bot.core.errors import UserError
from bot.core.records import MatchRow
from bot.core.session import Player
from bot.engine import MatchOptions
from bot.features.puzzles.rules import Grade, PuzzleKind, TournamentStage
from bot.features.puzzles.service import DAY, next_time
from bot.services import Services
from tests.channel_readers import EVERYONE, Readers
from tests.telling import refuses

pytestmark = pytest.mark.skipif(not computer_available(), reason="needs bgsage")

GUILD = 10
ALICE = Player(1, "alice")
BOB = Player(2, "bob")
CAROL = Player(3, "carol")
BAD_OPENING = "24/23 24/21"  # an opening 3-1 not played 8/5 6/5: a clear mistake


async def blunder_and_drop(services: Services, roller, channel: int = 1) -> None:
    """Alice opens 3-1 badly, Bob doubles at once, Alice drops a clear take."""
    services.puzzles.start()
    session = services.session
    await session.challenge(GUILD, channel, ALICE, BOB, MatchOptions(length=0))
    roller.extend([3, 1])
    await session.accept(channel, BOB)
    await session.move(channel, ALICE, BAD_OPENING)
    await session.double(channel, BOB)
    await session.drop(channel, ALICE)


async def test_a_finished_match_gives_confirmed_puzzles_owned_by_who_erred(
    services: Services, roller
) -> None:
    await blunder_and_drop(services, roller)
    await services.puzzles.idle()
    pool = await services.puzzles.puzzles.pool(GUILD)
    assert pool, "the bad opening and the wrong drop make puzzles"
    kinds = {}
    for entry in pool:
        puzzle = await services.puzzles.load(GUILD, entry.puzzle_id)
        assert puzzle.confirmed_level == "world-class"
        assert puzzle.equity_lost >= 0.08 and puzzle.margin >= 0.04
        kinds[puzzle.kind] = puzzle
    opening = kinds[PuzzleKind.CHECKER_PLAY]
    assert opening.owner_id == ALICE.id and opening.situation.dice == (3, 1)
    assert await services.puzzles.puzzles.sources() == []
    # Alice's own mistakes come first for her.
    given = await services.puzzles.next_for(GUILD, ALICE.id, EVERYONE)
    assert given.own and given.puzzle.owner_id == ALICE.id


async def test_answers_are_graded_and_the_first_one_rated(services: Services, roller) -> None:
    await blunder_and_drop(services, roller)
    await services.puzzles.idle()
    puzzles = services.puzzles
    given = await puzzles.next_for(GUILD, CAROL.id, EVERYONE)
    while given.puzzle.kind is not PuzzleKind.CHECKER_PLAY:
        given = await puzzles.next_for(GUILD, CAROL.id, EVERYONE)
    assert not given.own
    texts = await puzzles.play_texts(GUILD, CAROL.id)
    assert "8/5 6/5" in texts and BAD_OPENING in texts
    first = await puzzles.answer(GUILD, CAROL.id, None, "8/5 6/5")
    assert first.verdict.grade is Grade.RIGHT and first.verdict.best and first.rated
    assert first.after > first.before
    assert first.solved.current == 1 and first.days.current == 1
    again = await puzzles.answer(GUILD, CAROL.id, given.puzzle_id, BAD_OPENING)
    assert again.verdict.grade is Grade.WRONG and not again.rated
    assert again.after == again.before == first.after


async def test_a_player_who_keeps_out_gives_no_puzzle(services: Services, roller) -> None:
    await services.puzzles.keep_out(BOB.id, True)
    await blunder_and_drop(services, roller)
    await services.puzzles.idle()
    assert await services.puzzles.puzzles.pool(GUILD) == []
    assert await services.puzzles.puzzles.sources() == []


async def test_a_running_tournaments_match_waits_until_it_ends(services: Services, roller) -> None:
    stage = {"now": TournamentStage.RUNNING}

    async def hook(row: MatchRow) -> TournamentStage | None:
        return stage["now"]

    services.puzzles.tournament_stage = hook
    await blunder_and_drop(services, roller)
    await services.puzzles.idle()
    assert await services.puzzles.puzzles.pool(GUILD) == []
    assert len(await services.puzzles.puzzles.sources()) == 1  # kept, not dropped
    stage["now"] = TournamentStage.ENDED
    services.puzzles.kick()  # what the competitions service calls when a tournament ends
    await services.puzzles.idle()
    assert await services.puzzles.puzzles.sources() == []
    assert await services.puzzles.puzzles.pool(GUILD)


@pytest.mark.parametrize(
    ("now", "minute", "expected"),
    [
        ("2027-01-15 08:00", 600, "2027-01-15 10:00"),
        ("2027-01-15 10:00", 600, "2027-01-16 10:00"),  # exactly now: tomorrow's
        ("2027-01-15 23:59", 0, "2027-01-16 00:00"),
    ],
)
def test_the_next_daily_post_time(now: str, minute: int, expected: str) -> None:
    def at(text: str) -> float:
        return datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp()

    assert next_time(at(now), minute) == at(expected)


async def test_another_servers_puzzle_and_a_revealed_daily_post_are_refused(
    services: Services, roller, clock
) -> None:
    await blunder_and_drop(services, roller)
    await services.puzzles.idle()
    puzzles = services.puzzles
    (first, *_rest) = await puzzles.puzzles.pool(GUILD)
    with refuses(UserError, "^This puzzle is gone"):
        await puzzles.load(GUILD + 1, first.puzzle_id)
    with refuses(UserError, "^This puzzle is gone"):
        await puzzles.answer(GUILD + 1, CAROL.id, first.puzzle_id, "8/5 6/5")
    await puzzles.set_daily(GUILD, channel_id=77, minute=0)
    clock.advance(DAY)
    ((post, given),) = await puzzles.due_posts(EVERYONE)
    assert given.puzzle_id == first.puzzle_id
    await puzzles.post_sent(post.id, 1234)
    assert (await puzzles.daily_post(GUILD, post.id)).id == post.id
    clock.advance(DAY)
    (reveal,) = await puzzles.due_reveals(EVERYONE)
    await puzzles.revealed(reveal.post.id)
    with refuses(UserError, "^This daily puzzle is over"):
        await puzzles.daily_post(GUILD, post.id)


async def test_offline_play_queues_its_matches_for_the_bot(services: Services, roller) -> None:
    """Without start() (offline play) a finished match is queued, not extracted: the bot
    extracts it when it starts."""
    session = services.session
    await session.challenge(GUILD, 1, ALICE, BOB, MatchOptions(length=0))
    roller.extend([3, 1])
    await session.accept(1, BOB)
    await session.move(1, ALICE, BAD_OPENING)
    await session.double(1, BOB)
    await session.drop(1, ALICE)
    await services.puzzles.idle()
    assert len(await services.puzzles.puzzles.sources()) == 1
    assert await services.puzzles.puzzles.pool(GUILD) == []
    services.puzzles.start()
    await services.puzzles.idle()
    assert await services.puzzles.puzzles.sources() == []
    assert await services.puzzles.puzzles.pool(GUILD)


async def test_a_hidden_channels_puzzle_reaches_only_who_can_see_that_channel(
    services: Services, roller, clock
) -> None:
    """Issue 41: the position is the private part, not only the names. A puzzle from a
    channel hidden from carol is never given to her (as if there were none), nor posted
    in a daily channel others read; in the hidden channel itself it may be."""
    staff = 9
    await blunder_and_drop(services, roller, channel=staff)
    await services.puzzles.idle()
    puzzles = services.puzzles
    hidden = Readers(hidden={staff}, allowed={staff: {ALICE.id}})
    with refuses(UserError, "^This server has no puzzles yet"):
        await puzzles.next_for(GUILD, CAROL.id, hidden)
    assert (await puzzles.next_for(GUILD, ALICE.id, hidden)).puzzle is not None
    await puzzles.set_daily(GUILD, channel_id=77, minute=0)
    clock.advance(DAY)
    assert await puzzles.due_posts(hidden) == []
    await puzzles.set_daily(GUILD, channel_id=staff, minute=0)
    clock.advance(DAY)
    ((post, _given),) = await puzzles.due_posts(hidden)
    assert post.channel_id == staff


async def test_a_daily_puzzle_whose_channel_was_hidden_since_is_not_revealed(
    services: Services, roller, clock
) -> None:
    await blunder_and_drop(services, roller, channel=1)
    await services.puzzles.idle()
    puzzles = services.puzzles
    await puzzles.set_daily(GUILD, channel_id=77, minute=0)
    clock.advance(DAY)
    ((post, _given),) = await puzzles.due_posts(EVERYONE)
    await puzzles.post_sent(post.id, 1234)
    clock.advance(DAY)
    (reveal,) = await puzzles.due_reveals(Readers(hidden={1}))
    assert reveal.puzzle is None and reveal.source is None  # the Answer button only leaves
