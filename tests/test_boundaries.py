"""The house's boundaries, checked: what each layer may import.

The engine is pure (the standard library only), so it can be tested, reused and reasoned
about alone; discord is imported only by the Discord adapter (cogs/) and the bot's start-up
(bot/client.py, bot/__main__.py), so everything else runs and is tested without it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "renderers")
DISCORD_ALLOWED = {Path("bot/client.py"), Path("bot/__main__.py")}


def _modules(folder: str) -> list[Path]:
    return sorted(p.relative_to(ROOT) for p in (ROOT / folder).rglob("*.py"))


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", _modules("bot/engine"), ids=str)
def test_the_engine_imports_only_the_standard_library_and_itself(path: Path) -> None:
    for name in _imports(path):
        top = name.split(".")[0]
        if name.startswith("bot.engine") or top == "__future__":
            continue
        assert top in sys.stdlib_module_names, f"{path} imports {name}"


@pytest.mark.parametrize("path", _modules("bot/features/chouette/rules"), ids=str)
def test_the_chouette_rules_import_only_the_standard_library_the_engine_and_themselves(
    path: Path,
) -> None:
    """The chouette core is as pure as the engine it plays the checkers with."""
    for name in _imports(path):
        top = name.split(".")[0]
        if name.startswith(("bot.engine", "bot.features.chouette.rules")) or top == "__future__":
            continue
        assert top in sys.stdlib_module_names, f"{path} imports {name}"


@pytest.mark.parametrize("path", [p for folder in PACKAGES for p in _modules(folder)], ids=str)
def test_only_the_adapter_and_start_up_import_discord(path: Path) -> None:
    if path.parts[0] == "cogs" or path in DISCORD_ALLOWED:
        return
    found = {name for name in _imports(path) if name.split(".")[0] == "discord"}
    assert not found, f"{path} imports {sorted(found)}"


@pytest.mark.parametrize("path", _modules("renderers"), ids=str)
def test_renderers_never_touch_the_database_or_the_session(path: Path) -> None:
    forbidden = ("bot.storage", "bot.core.session", "aiosqlite", "sqlite3", "discord")
    for name in _imports(path):
        assert not name.startswith(forbidden), f"{path} imports {name}"


PACKAGE_FOLDERS = [
    "bot",
    "bot/engine",
    "bot/core",
    "bot/computer",
    "bot/storage",
    "bot/features",
    "bot/features/tournaments",
    "bot/features/puzzles",
    "bot/features/chouette",
    "bot/features/chouette/rules",
    "bot/features/performance",
    "bot/web",
    "bot/present",
    "cogs",
    "renderers",
]


@pytest.mark.parametrize("package", PACKAGE_FOLDERS)
def test_each_package_says_what_it_owns(package: str) -> None:
    init = ROOT / package / "__init__.py"
    docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert docstring and len(docstring) > 40, f"{package}/__init__.py has no docstring"


# --- words live in bot/present; the session layer returns values -----------------------------

# The session layer: it returns facts, typed reports and typed refusals, never sentences.
SESSION_LAYER = [
    *_modules("bot/core"),
    *(p for p in _modules("bot/features") if "rules" not in p.parts),
    Path("bot/services.py"),
    Path("bot/computer/reviews.py"),
    Path("bot/computer/position_service.py"),
    Path("bot/web/activity.py"),
]
MARKERS = {"_", "N_"}


def marked_words(source: str) -> list[int]:
    """The lines of ``_()``/``N_()`` calls in ``source``, except a slash command's words
    (a call inside ``locale(...)``, which the command translator reads)."""
    found: list[int] = []

    def visit(node: ast.AST, in_locale: bool) -> None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in MARKERS and not in_locale:
                found.append(node.lineno)
            in_locale = in_locale or node.func.id == "locale"
        for child in ast.iter_child_nodes(node):
            visit(child, in_locale)

    visit(ast.parse(source), False)
    return found


def test_the_words_detector_sees_sentences_and_spares_command_descriptions() -> None:
    source = (
        "@app_commands.command(description=locale(_('Roll the dice')))\n"
        "async def roll(): raise UserError(_('Roll first.'))\n"
        "LINE = N_('{n} point', '{n} points', 2, n=2)\n"
    )
    assert marked_words(source) == [2, 3]


@pytest.mark.parametrize("path", [p for folder in PACKAGES for p in _modules(folder)], ids=str)
def test_player_words_are_written_only_in_bot_present(path: Path) -> None:
    if path.parts[:2] == ("bot", "present"):
        return
    lines = marked_words((ROOT / path).read_text(encoding="utf-8"))
    assert not lines, f"{path} writes player words on lines {lines}: move them to bot/present/"


def _imports_present(path: Path) -> bool:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("bot.present"):
                return True
            if node.module == "bot" and any(a.name == "present" for a in node.names):
                return True
        if isinstance(node, ast.Import) and any(
            a.name.startswith("bot.present") for a in node.names
        ):
            return True
    return False


@pytest.mark.parametrize("path", SESSION_LAYER, ids=str)
def test_the_session_layer_holds_no_words_and_imports_nothing_from_present(path: Path) -> None:
    assert not _imports_present(path), f"{path} imports bot.present"
    assert not marked_words((ROOT / path).read_text(encoding="utf-8")), f"{path} writes words"
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    markers = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "bot.i18n"
        for alias in node.names
    } & MARKERS
    assert not markers, f"{path} imports {sorted(markers)} from bot.i18n"


def test_the_present_detector_sees_each_spelling() -> None:
    assert _imports_present(Path("bot/offline.py"))  # from bot import present
    assert _imports_present(Path("cogs/picker.py"))  # from bot.present import picker
    assert not _imports_present(Path("bot/core/session.py"))


# --- one action table ------------------------------------------------------------------------

# The session's thin names for its actions: a front end names the Action and calls act().
VERBS = {
    "accept",
    "decline",
    "roll",
    "move",
    "double",
    "take",
    "beaver",
    "drop",
    "resign",
    "answer_resignation",
    "claim",
    "cancel",
}
FRONT_ENDS = [*_modules("cogs"), Path("bot/offline.py")]


SESSIONS = {"session", "service", "svc"}  # how front ends name the session they hold


def _name_of(node: ast.expr) -> str:
    """The last name of ``session``, ``self.session`` or ``cog.session``."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _is_code(node: ast.expr | None) -> bool:
    """A lambda or a call, other than words marked for translation."""
    if isinstance(node, ast.Call):
        return not (isinstance(node.func, ast.Name) and node.func.id in MARKERS)
    return isinstance(node, ast.Lambda)


def hand_mappings(source: str) -> list[str]:
    """Where ``source`` maps actions to session calls by hand: a verb called by name
    (``session.roll(...)``), a dict from ``Action.X`` to code, a ``match`` on ``Action.X``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in VERBS
            and _name_of(node.func.value) in SESSIONS
        ):
            found.append(f"line {node.lineno}: .{node.func.attr}(...)")
        elif isinstance(node, ast.Dict) and any(
            isinstance(key, ast.Attribute) and getattr(key.value, "id", "") == "Action"
            for key in node.keys
        ):
            if any(_is_code(value) for value in node.values):
                found.append(f"line {node.lineno}: a dict of actions to code")
        elif isinstance(node, ast.match_case) and any(
            isinstance(sub, ast.Attribute) and getattr(sub.value, "id", "") == "Action"
            for sub in ast.walk(node.pattern)
        ):
            found.append(f"line {node.pattern.lineno}: a match on actions")
    return found


def test_the_hand_mapping_detector_sees_each_kind() -> None:
    source = (
        "async def press(service, action, channel, user):\n"
        "    table = {Action.ROLL: lambda ctx: service.act(channel, user, Action.ROLL, ctx)}\n"
        "    match action:\n"
        "        case Action.DOUBLE:\n"
        "            return await service.double(channel, user)\n"
        "    return await service.act(channel, user, action)\n"
    )
    assert len(hand_mappings(source)) == 3
    labels = "BUTTONS = {Action.ROLL: Style.primary}\nLABELS = {Action.ROLL: _('Roll')}\n"
    labels += "task.cancel()\n"
    assert hand_mappings(labels) == []  # a label per action is words, not a mapping


@pytest.mark.parametrize("path", FRONT_ENDS, ids=str)
def test_front_ends_call_the_action_table_not_their_own_mapping(path: Path) -> None:
    found = hand_mappings((ROOT / path).read_text(encoding="utf-8"))
    assert not found, f"{path} maps actions by hand: " + "; ".join(found)


def test_every_action_a_player_can_take_is_in_the_one_table() -> None:
    from bot import offline
    from bot.core import actions
    from bot.core.records import Action
    from cogs.views import BUTTONS

    by_session = {Action.CLAIM, Action.CANCEL}  # the session adds what only it knows
    # Not game actions: a rematch (another match, from club life), a look at the board.
    taken = (
        {action for action in BUTTONS if action not in (Action.REMATCH, Action.BOARD)}
        | set(offline.COMMAND_ACTIONS.values())
        | {Action.MOVE, Action.RESIGN, Action.CLAIM, Action.CANCEL}
    )
    missing = taken - set(actions.RULES) - by_session
    assert not missing, f"actions outside the table: {sorted(missing)}"
    assert not set(actions.RULES) & by_session


# --- issue 36: features on the core's seams ------------------------------------------------

STORE_PRIVATES = ("_db", "_select", "_lock", "_pool", "_reader", "_tx", "_live")
CORE_OF_THE_STORE = {Path("bot/core/session.py")}  # the session owns the store it is given


def store_reaches(source: str) -> list[str]:
    """``x.store.<anything>`` reach-throughs (``session.store.get_match``...) and a store's
    private attributes (``store._db``...), as ``line: text``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Attribute):
            continue
        value = node.value
        if (
            isinstance(value, ast.Attribute)
            and value.attr == "store"
            and isinstance(value.value, ast.Attribute | ast.Name)
            and _name_of(value.value).split(".")[-1] in ("session", "services", "tournaments")
        ):
            found.append(f"{node.lineno}: {_name_of(value)}.{node.attr}")
        if node.attr in STORE_PRIVATES and "store" in _name_of(value).lower():
            found.append(f"{node.lineno}: {_name_of(value)}.{node.attr}")
    return found


def test_the_store_reach_detector_sees_each_kind() -> None:
    assert store_reaches("async def f(self):\n    await self.session.store.get_match(1)\n")
    assert store_reaches("async def f(services):\n    services.session.store.events(1)\n")
    assert store_reaches("def f(self):\n    return self.store._db\n")
    assert store_reaches("def f(store):\n    return store._pool.acquire()\n")
    assert not store_reaches("async def f(self):\n    await self.session.match(1)\n")
    assert not store_reaches("def f(self):\n    return self.store.fetch('x')\n")


@pytest.mark.parametrize(
    "path",
    [
        p
        for folder in PACKAGES
        for p in _modules(folder)
        if p.parts[:2] != ("bot", "storage") and p not in CORE_OF_THE_STORE
    ],
    ids=str,
)
def test_no_reach_into_the_store_outside_the_session_and_storage(path: Path) -> None:
    """Features read through the session (a MatchReader) or their own services, and write
    through the store's public primitives; nothing outside bot/storage touches a store's
    private attributes."""
    found = store_reaches((ROOT / path).read_text(encoding="utf-8"))
    assert not found, f"{path} reaches into a store:\n" + "\n".join(found)


COG_MODULES = (
    "cogs.backgammon",
    "cogs.puzzle",
    "cogs.tournament",
    "cogs.ladder",
    "cogs.chouette",
)


@pytest.mark.parametrize("path", _modules("cogs"), ids=str)
def test_no_cog_imports_another_cog(path: Path) -> None:
    """A cog (an extension, loaded on its own) is imported by nobody: what two cogs share
    lives in the kit and the helper modules, so one failing to load never takes another."""
    own = ".".join(path.with_suffix("").parts)
    found = {name for name in _imports(path) if name in COG_MODULES and name != own}
    assert not found, f"{path} imports the cog(s) {sorted(found)}"


def test_every_cog_is_an_extension_of_the_one_list() -> None:
    from bot.client import EXTENSIONS

    assert set(EXTENSIONS) == set(COG_MODULES)
    for name in EXTENSIONS:
        source = (ROOT / (name.replace(".", "/") + ".py")).read_text(encoding="utf-8")
        assert "async def setup(bot" in source, name


@pytest.mark.parametrize(
    "path", [p for folder in ("cogs", "renderers", "bot/web") for p in _modules(folder)], ids=str
)
def test_facts_come_only_from_the_core(path: Path) -> None:
    """Facts are what the core and its feature services say happened: a front end (the
    cogs, the web board and the Activity) hears them and never publishes one."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    published = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "publish"
        and "facts" in _name_of(node.func.value)
    ]
    assert not published, f"{path} publishes facts at lines {published}"
