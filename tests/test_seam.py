"""The seam between the session and the front ends: steps and typed refusals out, one action
table in. The session hands back values; ``bot.present`` words them; every front end acts
through ``SessionService.act``."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.core import actions
from bot.core.dice import ScriptedRoller
from bot.core.errors import Name, NotYourTurnError, Refusal, UserError
from bot.core.facts import ActionTaken, Fact, TurnResumed
from bot.core.records import Action, Status
from bot.core.session import Player, SessionSettings
from bot.engine import EngineErrorCode, Game, MatchOptions, Play, ResultKind
from bot.present import REFUSALS, refusal, tell
from bot.services import Services, build_services
from bot.storage import Store
from tests.telling import told

ROOT = Path(__file__).resolve().parents[1]
GUILD, CHANNEL = 1, 77
ALICE = Player(1, "alice")
BOB = Player(2, "b*b")  # a name Discord would show in italics: formatted by the front end


async def test_every_step_carries_the_game_before_and_after_it(
    services: Services, roller: ScriptedRoller
) -> None:
    session = services.session
    await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=3))
    roller.extend([3, 3, 3, 1])  # a tie, rolled again; then Alice opens
    started = await session.act(CHANNEL, BOB, Action.ACCEPT)
    assert [s.event.action for s in started.steps] == [
        Action.START,
        Action.OPENING,
        Action.OPENING,
    ]
    assert started.steps[0].before is None  # a challenge has no game yet
    for earlier, later in zip(started.steps, started.steps[1:], strict=False):
        assert later.before is earlier.after  # one unbroken chain of states
    assert started.steps[-1].after == started.match.game
    moved = await session.act(CHANNEL, ALICE, Action.MOVE, play="8/5 6/5")
    (step,) = moved.steps
    assert step.before == started.match.game and step.after == moved.match.game
    assert (moved.before, moved.actor) == (started.match, ALICE)
    taken = [f for f in moved.facts if isinstance(f, ActionTaken)]
    assert taken[0].steps == tuple(moved.steps)  # the same story for subscribers


async def test_the_front_end_formats_names_as_it_tells(
    services: Services, roller: ScriptedRoller
) -> None:
    session = services.session
    await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(length=3))
    roller.extend([3, 1])
    report = await session.act(CHANNEL, BOB, Action.ACCEPT)
    assert told(report) == "b*b accepts. alice rolls 3, b*b rolls 1: alice moves first with 3-1."
    loud = [str(line) for line in tell(report, display=str.upper)]
    assert loud == ["B*B accepts.", "ALICE rolls 3, B*B rolls 1: ALICE moves first with 3-1."]
    with pytest.raises(NotYourTurnError) as caught:
        await session.act(CHANNEL, BOB, Action.ROLL)
    assert caught.value.reason is Refusal.NOT_YOUR_TURN
    assert caught.value.params == {"player": "alice"}
    assert isinstance(caught.value.params["player"], Name)
    assert str(refusal(caught.value, display=str.upper)) == "It's ALICE's turn."
    assert str(caught.value) == "not-your-turn: player='alice'"  # a diagnostic for logs


async def test_act_runs_every_action_of_the_table_and_refuses_others(
    services: Services, roller: ScriptedRoller
) -> None:
    session = services.session
    await session.challenge(GUILD, CHANNEL, ALICE, BOB, MatchOptions(beavers=True))
    roller.extend([3, 1])
    await session.act(CHANNEL, BOB, Action.ACCEPT)
    await session.act(CHANNEL, ALICE, Action.MOVE, play="8/5 6/5")
    assert (await session.act(CHANNEL, BOB, Action.DOUBLE)).action is Action.DOUBLE
    assert (await session.act(CHANNEL, ALICE, Action.BEAVER)).action is Action.BEAVER
    assert (await session.act(CHANNEL, BOB, Action.TAKE)).match.game.cube == 4  # type: ignore[union-attr]
    offer = await session.act(CHANNEL, BOB, Action.RESIGN, kind=ResultKind.SINGLE)
    assert offer.match.game is not None and offer.match.game.resignation is not None
    rejected = await session.act(CHANNEL, ALICE, Action.RESIGN_REJECT)
    assert rejected.action is Action.RESIGN_REJECT
    for outside in (Action.BOARD, Action.REMATCH, Action.OPENING):
        with pytest.raises(ValueError, match="not an action a player takes"):
            await session.act(CHANNEL, ALICE, outside)
    cancelled = await session.act(CHANNEL, Player(9, "mod"), Action.CANCEL)
    assert cancelled.match.status == Status.CANCELLED
    assert told(cancelled).startswith("mod cancelled the game.")


def test_the_table_names_each_rule_once() -> None:
    assert all(callable(rule) for rule in actions.RULES.values())
    assert {Action.ACCEPT, Action.DECLINE} <= actions.ON_CHALLENGE


@pytest.mark.parametrize("reason", list(Refusal), ids=str)
def test_every_refusal_has_a_sentence(reason: Refusal) -> None:
    assert reason in REFUSALS


FIELD = re.compile(r"\{(\w+)")


def _refusal_sites() -> list[tuple[str, int, Refusal, set[str]]]:
    """Every ``SomeError(Refusal.X, name=...)`` in the sources, with the names it passes."""
    sites = []
    for path in sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first = node.args[0]
            if isinstance(first, ast.Attribute) and getattr(first.value, "id", "") == "Refusal":
                names = {k.arg for k in node.keywords if k.arg is not None}
                where = path.relative_to(ROOT).as_posix()
                sites.append((where, node.lineno, Refusal[first.attr], names))
    return sites


def test_every_refusal_is_raised_with_the_facts_its_sentence_names() -> None:
    sites = _refusal_sites()
    assert len(sites) >= 40
    for where, line, reason, names in sites:
        wanted = set(FIELD.findall(REFUSALS[reason].msgid))
        assert wanted == names, f"{where}:{line} {reason} gives {names}, wants {wanted}"
    defaults = {Refusal.CHANNEL_BUSY, Refusal.CONFLICT, Refusal.STORE_DOWN}
    defaults |= {Refusal.STORE_IN_DOUBT, Refusal.COMPUTER_UNAVAILABLE}  # a subclass's default
    # Carried as a value (bot/web/activity.py's Placed.why), raised as UserError(placed.why):
    # so it may name no facts.
    carried = {Refusal.GAMES_IN_THREADS}
    assert all(not FIELD.findall(REFUSALS[reason].msgid) for reason in carried)
    defaults |= carried
    unused = set(Refusal) - {reason for _, _, reason, _ in sites} - defaults
    assert not unused, f"refusals never raised: {sorted(unused)}"


def test_a_front_ends_own_words_pass_through() -> None:
    assert refusal(UserError("plain words")) == "plain words"


class FailsOnce:
    """A stand-in computer whose first evaluation fails (a worker that died), then plays."""

    def __init__(self) -> None:
        self.calls = 0

    def choose_play(self, game: Game) -> Play:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("the evaluator went away")
        plays = game.legal_plays()
        return Play(()) if plays.is_forced_pass else sorted(plays, key=str)[0]

    def should_double(self, game: Game) -> bool:
        return False


async def test_a_resumed_computer_turn_is_published_even_when_the_request_is_refused(
    store: Store,
) -> None:
    computer = FailsOnce()
    services = build_services(
        store,
        roller=ScriptedRoller([1, 3]),  # the computer wins the opening
        settings=SessionSettings(computer_retry=3600.0),  # no timer during the test
        computer=lambda level: computer,
    )
    session = services.session
    human, bot = Player(1, "alice"), Player(99, "GammonBot", is_bot=True)
    heard: list[Fact] = []

    async def listen(facts: Sequence[Fact]) -> None:
        heard.extend(facts)

    services.facts.subscribe(listen)
    try:
        started = await session.play_computer(GUILD, CHANNEL, human, bot, MatchOptions())
        assert started.match.game is not None and started.match.game.actor == 1  # left open
        heard.clear()
        with pytest.raises(UserError) as caught:
            await session.act(CHANNEL, human, Action.TAKE)  # no double: refused
        assert caught.value.reason is EngineErrorCode.NO_DOUBLE_TO_TAKE
        (resumed,) = [f for f in heard if isinstance(f, TurnResumed)]
        assert [s.event.action for s in resumed.report.steps] == [Action.MOVE]
        assert resumed.report.action is Action.COMPUTER
        assert told(resumed.report).startswith("GammonBot rolls 3-1 and plays ")
    finally:
        for timer in list(session.computer._timers.values()):
            timer.cancel()
