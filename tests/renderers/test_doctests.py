"""The renderer's docstring examples run and stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "renderers",
    "renderers.board",
    "renderers.png",
    "renderers.text",
    "renderers.theme",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
