"""The docstring examples of the engine's public API are executable and must stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bot.engine",
    "bot.engine.game",
    "bot.engine.match_id",
    "bot.engine.moves",
    "bot.engine.notation",
    "bot.engine.position",
    "bot.engine.record",
    "bot.engine.steps",
    "bot.engine.xgid",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
