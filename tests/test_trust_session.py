"""Issue #25 at the session layer: buttons name an exact state; a match asked for by number
is found only on its own server and only when the front end says the asker may see it."""

from __future__ import annotations

import pytest

from bot.dice import ScriptedRoller
from bot.engine import MatchOptions
from bot.errors import StaleButtonError, UserError
from bot.records import MatchRow
from bot.reports import ActionContext
from bot.session import SessionService
from tests.test_session import ALICE, BOB, GUILD, start


async def test_a_button_acts_only_at_the_version_it_was_posted_for(
    service: SessionService, roller: ScriptedRoller
) -> None:
    channel = 700
    await start(service, roller, channel, (3, 1), MatchOptions(length=3))
    moved = await service.move(channel, ALICE, "8/5 6/5")
    row = moved.match
    assert row.game is not None
    at = ActionContext(match_id=row.id, version=row.version, game_number=row.game.game_number)
    old = ActionContext(match_id=row.id, version=row.version - 1, game_number=1)
    legacy = ActionContext(match_id=row.id)  # posted by a bot before ids carried a version
    roller.extend([6, 5])
    for ctx, words in ((old, "earlier turn"), (legacy, "older board")):
        with pytest.raises(StaleButtonError, match=words):
            await service.roll(channel, BOB, ctx)
    assert roller.remaining() == 2
    rolled = await service.roll(channel, BOB, at)
    assert rolled.match.version == row.version + 1
    with pytest.raises(StaleButtonError, match="earlier turn"):  # the same press again
        await service.roll(channel, BOB, at)


async def test_a_legacy_accept_still_answers_its_own_challenge(
    service: SessionService, roller: ScriptedRoller
) -> None:
    channel = 701
    report = await service.challenge(GUILD, channel, ALICE, BOB)
    roller.extend([3, 1])
    accepted = await service.accept(channel, BOB, ActionContext(match_id=report.match.id))
    assert accepted.match.status == "playing"


async def test_a_match_by_number_only_on_its_server_and_when_visible(
    service: SessionService, roller: ScriptedRoller
) -> None:
    channel = 702
    await start(service, roller, channel, (3, 1))
    offer = await service.resign(channel, BOB)
    await service.answer_resignation(channel, ALICE, True)
    number = offer.match.id
    seen: list[MatchRow] = []

    async def hidden(row: MatchRow) -> bool:
        seen.append(row)
        return False

    async def shown(row: MatchRow) -> bool:
        return True

    row, text = await service.match_file(GUILD, 1, number, visible=shown)
    assert row.id == number and text
    for guild, visible in ((GUILD + 1, shown), (GUILD, hidden)):
        with pytest.raises(UserError) as refused:
            await service.match_file(guild, 1, number, visible=visible)
        with pytest.raises(UserError) as missing:
            await service.match_file(guild, 1, number + 100, visible=visible)
        assert str(refused.value) == str(missing.value).replace(str(number + 100), str(number))
    assert [r.id for r in seen] == [number]
