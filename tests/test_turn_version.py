"""A request built for one turn (the tap picker's Confirm) acts on that turn or on none.

The session compares the version the request names with the stored one under the channel's
lock: a play built for an earlier turn is refused even when the same player holds the same
roll again, so a stale picker can never play into a later turn.
"""

from __future__ import annotations

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.errors import StaleButtonError
from bot.core.reports import ActionContext
from bot.core.session import SessionService
from bot.storage import Store
from tests.telling import told
from tests.test_session import ALICE, BOB, start, turn


async def test_a_play_built_for_an_earlier_turn_is_refused(store: Store) -> None:
    roller = ScriptedRoller()
    service = SessionService(store, roller=roller)
    report = await start(service, roller, 5, (3, 1))
    built_for = report.match.version  # alice's opening 3-1
    await service.move(5, ALICE, "13/10 24/23")
    await turn(service, roller, 5, BOB, (2, 1), "13/11 6/5")
    roller.extend([3, 1])
    await service.roll(5, ALICE)  # alice holds 3-1 again: 8/5 6/5 is legal now
    before = await store.live_match(5)
    assert before is not None
    stale = ActionContext(match_id=before.id, version=built_for)
    with pytest.raises(StaleButtonError):
        await service.move(5, ALICE, "8/5 6/5", stale)
    after = await store.live_match(5)
    assert after is not None and (after.version, after.game) == (before.version, before.game)
    fresh = ActionContext(match_id=before.id, version=before.version)
    assert "plays 8/5 6/5" in told(await service.move(5, ALICE, "8/5 6/5", fresh))
