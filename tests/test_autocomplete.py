"""The move autocomplete, robust to Discord's mobile app (issue 27).

The mobile app sends only the text before the cursor and merges choices that share a name;
players write the bar as 25, off as 0, commas between moves, moves in any order, hits with
or without ``*``.
"""

from __future__ import annotations

import pytest

from bot.engine import Position, legal_plays
from cogs.helpers import AUTOCOMPLETE_LIMIT, CHOICE_NAME_LIMIT, play_choices, rank_plays

PLAYS = ["bar/22 6/off", "bar/20", "24/18* 13/8", "24/18*/13", "13/8 6/5", "8/7 6/off"]


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("25/22", "bar/22 6/off"),  # the bar as 25
        ("BAR/22 6/0", "bar/22 6/off"),  # off as 0, upper case
        ("13/8, 24/18", "24/18* 13/8"),  # any order, a comma, no hit mark
        ("24/18/1", "24/18*/13"),  # the hit mark optional in a prefix
        ("6/off 8/7", "8/7 6/off"),
        ("24/18*/", "24/18*/13"),
    ],
)
def test_typed_text_finds_the_play(typed: str, first: str) -> None:
    assert rank_plays(PLAYS, typed)[0] == first


def test_only_the_text_before_the_cursor_still_finds_the_plays_it_begins() -> None:
    # The player typed "24/18* 13/8" then moved the cursor back after "24/": only that comes.
    found = rank_plays(PLAYS, "24/")
    assert set(found[:2]) == {"24/18* 13/8", "24/18*/13"}


def test_choices_have_distinct_names_within_the_limits() -> None:
    plays = [str(p) for p in legal_plays(Position.start(), (1, 1))]
    for typed in ("", "8/", "6/5", "24/23, 8/7"):
        choices = play_choices(plays + plays, typed)
        names = [name for name, _ in choices]
        assert len(names) == len(set(names)) and 0 < len(names) <= AUTOCOMPLETE_LIMIT
        assert all(name == value and len(name) <= CHOICE_NAME_LIMIT for name, value in choices)
        assert all(value in plays for _, value in choices)
