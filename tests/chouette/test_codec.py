"""A session read back from its JSON is the session written, at every step of random games
(cubes offered and settled, members away, records, advice), and so is every event."""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import EngineError
from bot.features.chouette import codec
from bot.features.chouette.rules import (
    Chouette,
    ChouetteError,
    ChouetteOptions,
    Consultation,
    Seat,
)
from bot.features.chouette.rules import play as verbs
from tests.chouette.test_properties import candidates


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), partner=st.booleans())
def test_a_session_and_its_events_survive_the_round_trip(seed: int, partner: bool) -> None:
    rng = random.Random(seed)
    s = Chouette(
        ChouetteOptions(
            partner=partner, beavers=True, auto_doubles=1, consultation=Consultation.FULL
        )
    )
    for player in range(1, 7):
        s = verbs.join(s, Seat(player, f"p{player} ✓")).session
    s = verbs.begin(s, 1, lambda: rng.randint(1, 6)).session
    assert s.game is not None
    with contextlib.suppress(ChouetteError):  # advice kept in the state: the team moves first
        s = verbs.advise(s, s.game.team[1], "13/7 8/7").session
    for _ in range(150):
        assert codec.loads(codec.dumps(s)) == s
        tries = candidates(s, rng)
        for attempt in tries:
            try:
                applied = attempt()
            except (ChouetteError, EngineError):
                continue
            for event in applied.events:
                assert codec.event_loads(event.kind, event.game, codec.event_dumps(event)) == event
            s = applied.session
            break
