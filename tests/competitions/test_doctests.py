"""The competition core's docstring examples run and stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bot.competitions.deadlines",
    "bot.competitions.knockout",
    "bot.competitions.lifecycle",
    "bot.competitions.model",
    "bot.competitions.roundrobin",
    "bot.competitions.seeding",
    "bot.competitions.swiss",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
