"""The tournaments' and the ladder's refusals: typed in the services, worded once in
``bot.present``, raised with the facts their sentences name."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.core.errors import CompetitionRefusal, UserError
from bot.features.tournaments.refusals import RULES
from bot.i18n import LANGUAGES
from bot.present.tournaments import COMPETITION_REFUSALS
from tests.telling import refused

ROOT = Path(__file__).resolve().parents[2]
FIELD = re.compile(r"\{(\w+)")
ALIASES = {"CompetitionRefusal", "Why"}  # how the modules name the enum


@pytest.mark.parametrize("reason", list(CompetitionRefusal), ids=str)
def test_every_competition_refusal_has_a_sentence_in_every_language(
    reason: CompetitionRefusal,
) -> None:
    assert reason in COMPETITION_REFUSALS
    params = {name: 7 for name in FIELD.findall(COMPETITION_REFUSALS[reason].msgid)}
    for language in LANGUAGES:
        words = refused(UserError(reason, **params), language)
        assert words and "{" not in words


def test_a_refusal_carries_its_facts_and_is_worded_in_the_readers_language() -> None:
    error = UserError(CompetitionRefusal.NO_TOURNAMENT, number=12)
    assert str(error) == "no-tournament: number=12"  # a diagnostic for logs, no sentence
    assert refused(error) == "There is no tournament #12 here."
    assert refused(error, "fr") != refused(error)


def _sites() -> list[tuple[str, int, CompetitionRefusal, set[str]]]:
    """Every ``UserError(CompetitionRefusal.X, name=...)`` in the services, with its names."""
    sites = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        if path.parts[-2] == "present":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first = node.args[0]
            if isinstance(first, ast.Attribute) and getattr(first.value, "id", "") in ALIASES:
                names = {k.arg for k in node.keywords if k.arg is not None}
                where = path.relative_to(ROOT).as_posix()
                sites.append((where, node.lineno, CompetitionRefusal[first.attr], names))
    return sites


def test_every_competition_refusal_is_raised_with_the_facts_its_sentence_names() -> None:
    sites = _sites()
    assert len(sites) >= 20
    for where, line, reason, names in sites:
        wanted = set(FIELD.findall(COMPETITION_REFUSALS[reason].msgid))
        assert wanted == names, f"{where}:{line} {reason} gives {names}, wants {wanted}"
    unused = set(CompetitionRefusal) - {reason for _, _, reason, _ in sites} - set(RULES.values())
    assert not unused, f"refusals never raised: {sorted(unused)}"
