"""Post-game reviews owed, on both backends: kept until posted, once each, oldest first;
and finished games' reviews kept as written."""

from __future__ import annotations

from pathlib import Path

from bot.engine import MatchOptions
from bot.storage import open_store


async def test_reviews_owed_are_kept_until_posted(database: Path | str) -> None:
    store = await open_store(database)
    try:
        rows = [
            await store.create_challenge(
                guild_id=1,
                channel_id=channel,
                players=((1, "alice"), (2, "bob")),
                options=MatchOptions(length=3),
                rated=True,
                now=0.0,
                expires_at=900.0,
            )
            for channel in (7, 8)
        ]
        first, second = (row.id for row in rows)
        assert await store.pending_reviews() == []
        await store.queue_review(second, 1, 10.0)
        await store.queue_review(first, 2, 20.0)
        await store.queue_review(first, 1, 15.0)
        await store.queue_review(second, 1, 30.0)  # owed once, however often it is said
        assert await store.pending_reviews() == [(second, 1), (first, 1), (first, 2)]
        await store.review_posted(first, 1)
        await store.review_posted(first, 9)  # nothing owed: nothing happens
        assert await store.pending_reviews() == [(second, 1), (first, 2)]
        assert await store.game_review(first, 1) is None
        await store.save_game_review(first, 1, '{"format":1}')
        await store.save_game_review(first, 1, '{"format":1,"again":true}')  # no error
        await store.save_game_review(second, 1, "{}")
    finally:
        await store.close()
    reopened = await open_store(database)  # across a restart
    try:
        assert await reopened.pending_reviews() == [(second, 1), (first, 2)]
        assert await reopened.game_review(first, 1) == '{"format":1,"again":true}'
        assert await reopened.game_review(second, 1) == "{}"
        assert await reopened.game_review(second, 2) is None
    finally:
        await reopened.close()
