"""The competition core's docstring examples run and stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bot.features.tournaments.rules.deadlines",
    "bot.features.tournaments.rules.knockout",
    "bot.features.tournaments.rules.lifecycle",
    "bot.features.tournaments.rules.model",
    "bot.features.tournaments.rules.roundrobin",
    "bot.features.tournaments.rules.seeding",
    "bot.features.tournaments.rules.swiss",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
