"""What a player reads of the session's values, for tests: refusals and reports told in words.

The session hands back typed refusals and reports; :mod:`bot.present` tells them. Tests that
check the words a player reads go through here, as a front end does.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from bot import present
from bot.core.errors import UserError
from bot.core.reports import Report
from bot.i18n import join, say


def refused(error: UserError, language: str | None = None) -> str:
    """The words of a refused request (English unless ``language``)."""
    return say(present.refusal(error), language)


@contextlib.contextmanager
def refuses(kind: type[UserError], pattern: str) -> Iterator[None]:
    """``pytest.raises(kind, match=pattern)`` on the words the player reads."""
    with pytest.raises(kind) as caught:
        yield
    words = refused(caught.value)
    assert re.search(pattern, words), f"{pattern!r} not in {words!r}"


def told(report: Report, language: str | None = None) -> str:
    """A report's story in one line, as offline play tells it (English unless ``language``)."""
    return say(join(present.tell(report)), language)
