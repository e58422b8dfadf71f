"""Issue #25: a long /backgammon history keeps its title and its code fences.

Over Discord's 2000-character limit the middle of the game is left out (saying how many
moves), never the head: before, the text was cut from the front, losing the title and the
opening fence, so the rest rendered as broken Markdown.
"""

from __future__ import annotations

import itertools
import re

import pytest

from bot.core.dice import ScriptedRoller
from bot.core.records import Action, EventRecord
from bot.core.session import Player, SessionService
from bot.engine import MatchOptions
from bot.present import MESSAGE_LIMIT, history_text
from bot.present.story import fit_middle
from tests.test_session import GUILD

LONG = Player(1, "a" * 32)
OTHER = Player(2, "b" * 32)


def _moves(count: int, game_number: int = 1) -> list[EventRecord]:
    return [
        EventRecord(
            seq=seq,
            game_number=game_number,
            actor_id=None,
            player=seq % 2,
            action=Action.MOVE,
            notation="24/18*/13 13/7* 8/2(2)",
            dice=(6, 5),
            position_id="4HPwATDgc/ABMA",
            gnu_match_id="cAkAAAAAAAAA",
            created_at=0.0,
        )
        for seq in range(1, count + 1)
    ]


@pytest.mark.parametrize("moves", [1, 20, 45, 46, 60, 200, 2000])
@pytest.mark.parametrize("language", ["en", "fr"])
async def test_a_long_history_keeps_its_head_and_fences(
    service: SessionService, roller: ScriptedRoller, moves: int, language: str
) -> None:
    await service.challenge(GUILD, 1, LONG, OTHER, MatchOptions(length=7))
    roller.extend([3, 1])
    row = (await service.accept(1, OTHER)).match
    text = history_text(row, _moves(moves), language=language)
    assert len(text) <= MESSAGE_LIMIT
    title = "**Game 1: " if language == "en" else "**Partie 1 : "
    assert text.startswith(f"{title}{'a' * 32} ") and text.endswith("\n```")
    assert text.count("```") == 2  # one code block, opened and closed
    numbered = [int(n) for n in re.findall(r"^(\d+)\. ", text, flags=re.MULTILINE)]
    assert numbered[-1] == moves and numbered[0] == 1  # the opening and the latest move
    assert text.splitlines()[-2].startswith("Position ID")  # the IDs, just above the fence
    gap = re.search(r"… (\d+) (?:moves?|coups?) ", text)
    left_out = moves - len(numbered)
    if left_out:
        assert gap is not None and int(gap.group(1)) == left_out, text
        steps = [b - a for a, b in itertools.pairwise(numbered)]
        assert sorted(steps)[-1] == left_out + 1 and steps.count(1) == len(steps) - 1
    else:
        assert gap is None and numbered == list(range(1, moves + 1))


def test_fit_middle_leaves_out_only_what_it_must() -> None:
    lines = [f"{i}. line" for i in range(1, 11)]
    assert fit_middle(lines, 1000) == lines
    kept = fit_middle(lines, 60)
    assert sum(len(line) + 1 for line in kept) - 1 <= 60
    assert kept[0] == "1. line" and kept[-1] == "10. line"
    (marker,) = [line for line in kept if "left out" in line]
    assert marker == f"… {len(lines) - len(kept) + 1} moves left out …"
