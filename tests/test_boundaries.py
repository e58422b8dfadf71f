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


@pytest.mark.parametrize("path", [p for folder in PACKAGES for p in _modules(folder)], ids=str)
def test_only_the_adapter_and_start_up_import_discord(path: Path) -> None:
    if path.parts[0] == "cogs" or path in DISCORD_ALLOWED:
        return
    found = {name for name in _imports(path) if name.split(".")[0] == "discord"}
    assert not found, f"{path} imports {sorted(found)}"


@pytest.mark.parametrize("path", _modules("renderers"), ids=str)
def test_renderers_never_touch_the_database_or_the_session(path: Path) -> None:
    forbidden = ("bot.storage", "bot.session", "aiosqlite", "sqlite3", "discord")
    for name in _imports(path):
        assert not name.startswith(forbidden), f"{path} imports {name}"


@pytest.mark.parametrize(
    "package", ["bot", "bot/engine", "bot/computer", "bot/storage", "cogs", "renderers"]
)
def test_each_package_says_what_it_owns(package: str) -> None:
    init = ROOT / package / "__init__.py"
    docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert docstring and len(docstring) > 40, f"{package}/__init__.py has no docstring"
