"""Every word a player reads is marked for translation, and French has all of them.

The catalogue is checked against a fresh Babel extraction of the sources (so a new message
without a French translation fails here), the compiled ``.mo`` against its ``.po``, plural
forms in both languages, the engine's error codes, and a whole game played in French.
"""

from __future__ import annotations

import ast
import io
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.engine import EngineError, EngineErrorCode
from bot.i18n import LANGUAGES, LOCALE_DIR, N_, Text, _, join, say

babel = pytest.importorskip("babel")
from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.extract import extract_from_dir  # noqa: E402
from babel.messages.mofile import read_mo, write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from tests.telling import told  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PO = LOCALE_DIR / "fr" / "LC_MESSAGES" / "gammon.po"
MO = PO.with_suffix(".mo")
# The markers: _() and N_() (bot.i18n), and the command layer's names under a context
# (cogs.translator.pgettext), as `pybabel extract -F babel.cfg -k _ -k N_:1,2` reads them.
KEYWORDS = {"_": None, "N_": (1, 2), "pgettext": ((1, "c"), 2)}

# --- (a) no player-facing prose outside _() / N_() -----------------------------------------

# The packages whose strings players read. bot/engine is not among them: its messages are
# for developers (python-chess style), and players read bot/present.py's sentence for each
# error code instead (checked by test_every_engine_code_has_a_sentence).
SOURCES = ("bot", "cogs", "renderers")
DEVELOPER_ONLY = ("bot/engine/",)
# Words for whoever runs the bot, not for players: the command line (``python -m bot``,
# its settings and its export and verify commands, whose verdicts players read through
# cogs.helpers.verify_words) and the .mat file format, English by definition.
OPERATOR_ONLY = (
    "bot/__main__.py",
    "bot/config.py",
    "bot/core/fairdice.py",
    "bot/core/matfile.py",
    "bot/storage/copy.py",  # python -m bot copy-db
)

# Modules whose words are not (yet) all marked. Each entry is a debt, not a policy: remove
# a module from here once it is marked. Empty means every module is checked.

# Words that look like prose but are not for players; keep this list short and say why.
ALLOWLIST = {
    # GNU Backgammon's rating names, identifiers here: bot.present.RATING_WORDS says them
    "World class",
    "Casual player",
    "(no move)",  # the standard notation of a forced pass
}

# Exceptions whose messages are for players (always built with _()); every other
# exception's message is for developers and the log.
USER_ERRORS = {
    "UserError",
    "NoGameError",
    "NotYourTurnError",
    "ChannelBusyError",
    "ConflictError",
    "StaleButtonError",
    "QuarantinedError",
    "ComputerUnavailableError",
}
# Command, option and choice names and descriptions: discord.py asks cogs.translator's
# Translator for them (the e2e tests check the synced localizations).
COMMAND_LAYER_CALLS = {"Choice", "describe", "command", "Group", "rename", "locale_str"}
LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical", "log"}
# Keyword arguments that carry identifiers, operator help or markup, never player prose.
NON_PROSE_KEYWORDS = {"help", "metavar", "custom_id", "emoji", "encoding", "description"}
PROSE = re.compile(r"[A-Za-z]{2,}[,;:]? [a-z]{2,}")
SQL = re.compile(
    r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|PRAGMA|WHERE|SAVEPOINT|ROLLBACK|RELEASE)\b"
    r"|^[a-z0-9_]+(, [a-z0-9_]+)+$"  # a column list
)


def _is_docstring(node: ast.AST, parent: ast.AST | None) -> bool:
    return isinstance(parent, ast.Expr) and isinstance(node, ast.Constant)


def _call_name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literal_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value
            for part in node.values
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        )
    return None


def _english_defaults(node: ast.ClassDef) -> bool:
    """An enum (its values are identifiers) or a renderer's word list (``BoardWords``,
    ``ChartLabels``: English defaults the front end replaces with translated words)."""
    bases = {getattr(base, "id", getattr(base, "attr", "")) for base in node.bases}
    return any(base.endswith("Enum") for base in bases) or node.name.endswith(("Words", "Labels"))


def unmarked_prose(path: Path) -> Iterator[tuple[int, str]]:
    """(line, text) of each prose-like string literal in ``path`` that is not marked."""
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def visit(node: ast.AST, parent: ast.AST | None, skip: bool) -> Iterator[tuple[int, str]]:
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if name in ("_", "N_", "pgettext", "Text"):
                return  # marked (or a template with no words of its own)
            if name in COMMAND_LAYER_CALLS:
                return  # localized by discord.py's Translator (cogs/translator.py)
            if name in LOG_METHODS and isinstance(node.func, ast.Attribute):
                return
            if name.endswith(("Error", "Exception")) and name not in USER_ERRORS:
                return  # a developer's message
            if name == "__init__":
                return  # a user error's own constructor gets a Text; others are developers'
            if name in ("print", "exit") and any(
                keyword.arg == "file" for keyword in node.keywords
            ):
                return  # the command line's errors, for the operator
            for keyword in node.keywords:
                quiet = skip or keyword.arg in NON_PROSE_KEYWORDS
                yield from visit(keyword.value, node, quiet)
            yield from visit(node.func, node, skip)
            for arg in node.args:
                yield from visit(arg, node, skip)
            return
        if (
            isinstance(node, ast.Raise)
            and isinstance(node.exc, ast.Call)
            and _call_name(node.exc) not in USER_ERRORS
        ):
            return
        if isinstance(node, ast.Assert):
            return  # a developer's check
        if isinstance(node, ast.Dict):
            for value in node.values:
                yield from visit(value, node, skip)
            return  # keys are identifiers
        if isinstance(node, ast.Subscript):
            yield from visit(node.value, node, skip)
            return
        if isinstance(node, ast.Compare):
            return  # compared with input, not shown
        if isinstance(node, ast.ClassDef) and _english_defaults(node):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            body = node.body
            start = (
                1
                if body
                and isinstance(body[0], ast.Expr)
                and isinstance(getattr(body[0], "value", None), ast.Constant)
                else 0
            )
            for child in ast.iter_child_nodes(node):
                if child in body[:start]:
                    continue  # the docstring
                yield from visit(child, node, skip)
            return
        text = _literal_text(node)
        if text is not None:
            if isinstance(node, ast.JoinedStr):
                pass
            elif isinstance(parent, ast.JoinedStr):
                return  # counted with its f-string
            if (
                not skip
                and not _is_docstring(node, parent)
                and PROSE.search(text)
                and not SQL.search(text)
                and text not in ALLOWLIST
            ):
                yield getattr(node, "lineno", 0), text
            if isinstance(node, ast.JoinedStr):
                for value in node.values:
                    if isinstance(value, ast.FormattedValue):
                        yield from visit(value.value, node, skip)
            return
        for child in ast.iter_child_nodes(node):
            yield from visit(child, node, skip)

    yield from visit(tree, None, False)


def _sources() -> list[Path]:
    paths = []
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(DEVELOPER_ONLY + OPERATOR_ONLY):
                continue
            paths.append(path)
    return paths


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_player_facing_strings_are_marked(path: Path) -> None:
    found = [f"{line}: {text!r}" for line, text in unmarked_prose(path)]
    assert not found, "unmarked prose (wrap it in _() or N_()):\n" + "\n".join(found)


def test_the_detector_sees_unmarked_prose(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        '"""A docstring is fine."""\n'
        "import logging\n"
        "log = logging.getLogger()\n"
        "def f(name):\n"
        '    """So is this one."""\n'
        '    log.info("logged words are fine %s", name)\n'
        '    good = _("Roll the dice, {name}.", name=name)\n'
        '    raise ValueError(f"a developer reads this {name}")\n'
        "def g(name):\n"
        '    return f"{name} wins the match."\n'
        "def h():\n"
        '    raise UserError("Pick another player.")\n'
    )
    assert [text for _, text in unmarked_prose(source)] == [
        " wins the match.",
        "Pick another player.",
    ]


# --- (b) the French catalogue is complete ---------------------------------------------------


def fresh_extraction() -> set[tuple[str | None, str]]:
    """Every message the sources mark now, as (context, msgid)."""
    messages: set[tuple[str | None, str]] = set()
    for package in SOURCES:
        for _filename, _lineno, message, _comments, context in extract_from_dir(
            ROOT / package,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,
        ):
            msgid = message[0] if isinstance(message, tuple) else message
            messages.add((context, msgid))
    return messages


def french() -> Catalog:
    with PO.open("rb") as handle:
        return read_po(handle)


FIELD = re.compile(r"\{[^{}]*\}")


def _fields(text: str) -> list[str]:
    return sorted(FIELD.findall(text))


def test_french_has_every_message_of_a_fresh_extraction() -> None:
    catalog = french()
    missing = sorted(
        (context or "", msgid)
        for context, msgid in fresh_extraction()
        if catalog.get(msgid, context=context) is None
    )
    assert not missing, f"{len(missing)} messages missing from {PO.name}: {missing[:10]}"


def test_french_translations_are_whole_and_keep_their_fields() -> None:
    catalog = french()
    assert catalog.plural_forms == "nplurals=2; plural=(n > 1);"
    problems = []
    for message in catalog:
        if not message.id:
            continue
        if message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        # A plural's id and strings are sequences (Babel's own test: list or tuple).
        ids = tuple(message.id) if isinstance(message.id, list | tuple) else (message.id,)
        raw = message.string
        strings = tuple(raw) if isinstance(raw, list | tuple) else (raw,)
        if not all(strings):
            problems.append(f"untranslated: {message.id!r}")
            continue
        for text in strings:
            assert text is not None  # every string is there (all(strings) above)
            if _fields(text) != _fields(ids[0]) and _fields(text) != _fields(ids[-1]):
                problems.append(f"fields differ: {ids[0]!r} -> {text!r}")
    assert not problems, "\n".join(problems)


def test_no_obsolete_messages_linger() -> None:
    assert not french().obsolete


# --- (c) the compiled catalogue matches its source -----------------------------------------


def _messages(mo: io.BufferedIOBase | io.BytesIO) -> dict[object, object]:
    def frozen(value: object) -> object:
        return tuple(value) if isinstance(value, (list, tuple)) else value

    return {
        (message.context, frozen(message.id)): frozen(message.string)
        for message in read_mo(mo)
        if message.id
    }


def test_the_compiled_catalogue_is_up_to_date() -> None:
    compiled = io.BytesIO()
    write_mo(compiled, french())
    compiled.seek(0)
    with MO.open("rb") as handle:
        shipped = _messages(handle)
    assert shipped == _messages(compiled), "run: pybabel compile -d bot/locales -D gammon"


# --- (d) plurals --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "language, count, words",
    [
        ("en", 0, "0 points"),
        ("en", 1, "1 point"),
        ("en", 2, "2 points"),
        ("fr", 0, "0 point"),
        ("fr", 1, "1 point"),
        ("fr", 2, "2 points"),
    ],
)
def test_points_have_proper_plurals(language: str, count: int, words: str) -> None:
    assert say(N_("{n} point", "{n} points", count, n=count), language) == words


def test_text_renders_nested_messages_and_joins_in_the_reader_language() -> None:
    line = join([_("{n} point", n=1), _("Roll first.")])
    assert str(line) == "1 point Roll first."
    assert say(line, "fr-FR") != str(line)
    assert say(_("Roll first."), "de") == "Roll first."  # no catalogue: English
    assert LANGUAGES[0] == "en"
    assert isinstance(_("x"), Text)


# --- (e) every engine error code has a sentence ---------------------------------------------


@pytest.mark.parametrize("code", list(EngineErrorCode))
def test_every_engine_code_has_a_sentence(code: EngineErrorCode) -> None:
    from bot.present import ENGINE_SENTENCES

    sentence = ENGINE_SENTENCES[code]
    catalog = french()
    assert sentence.msgid in catalog
    assert catalog[sentence.msgid].string


# --- (f) a whole game in French reads French ------------------------------------------------

# Words that would betray an English sentence in a French line (names are alice and bob).
ENGLISH_WORDS = re.compile(
    r"\b(rolls|plays|wins|accepts|takes|drops|challenges|your|the|with|and|to|"
    r"match to|moves|first|begins|resigned|game|offers|legal|cannot|roll)\b"
)


async def test_a_whole_match_in_french_reads_only_french(service, roller) -> None:
    from bot import present
    from bot.core.errors import UserError
    from bot.core.session import Player
    from bot.engine import MatchOptions, ResultKind
    from bot.present import next_step

    alice, bob = Player(1, "alice"), Player(2, "bob")
    channel = 4242
    said: list[str] = []

    def hear(report) -> None:
        words = told(report, "fr")
        said.append(words)
        step = next_step(report.match, language="fr")
        if step:
            said.append(step)

    hear(await service.challenge(1, channel, alice, bob, MatchOptions(length=3), rated=False))
    roller.extend([3, 1])
    hear(await service.accept(channel, bob))
    for attempt in ("24/18", "hello", "13/7 8/7"):
        with pytest.raises(UserError) as refused:
            await service.move(channel, alice, attempt)
        said.append(say(present.refusal(refused.value), "fr"))
    with pytest.raises(UserError) as refused:
        await service.roll(channel, bob)
    said.append(say(present.refusal(refused.value), "fr"))
    hear(await service.move(channel, alice, "8/5 6/5"))
    hear(await service.double(channel, bob))
    hear(await service.take(channel, alice))
    roller.extend([6, 5])
    hear(await service.roll(channel, bob))
    hear(await service.resign(channel, alice, ResultKind.GAMMON))
    roller.extend([4, 2])
    hear(await service.answer_resignation(channel, bob, True))
    assert said, "the game said nothing"
    text = "\n".join(said)
    assert "gagne" in text and "videau" in text
    english = [line for line in said if ENGLISH_WORDS.search(line)]
    assert not english, "English in French lines:\n" + "\n".join(english)


def test_offline_play_speaks_french(tmp_path: Path) -> None:
    from tests.test_cli import SCRIPT, run_bot

    out, db = tmp_path / "boards", tmp_path / "offline.db"
    files = ["--out", str(out), "--db", str(db)]
    result = run_bot(
        ["play", "--names", "alice,bob", "--dice", "3,1,6,5", *files, "--lang", "fr"],
        tmp_path,
        stdin=SCRIPT,
    )
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "alice fait 3, bob fait 1 : alice commence avec 3-1." in text
    assert "Vous avez déjà lancé : jouez votre coup." in text
    assert "alice fait 3-1 et joue 8/5 6/5." in text
    assert "alice double à 2." in text
    assert "Partie enregistrée" in text
    spoken = [
        line
        for line in text.splitlines()
        if not line.startswith(("alice> ", "bob> ", " ", "Commandes", "resign", "board"))
        and not re.fullmatch(r"[\d/ *()a-z]*", line)  # typed commands, echoed
    ]
    english = [line for line in spoken if ENGLISH_WORDS.search(line)]
    assert not english, "English in the French terminal:\n" + "\n".join(english)


# --- the engine's facts fill its sentences --------------------------------------------------


def _raise_sites() -> Iterator[tuple[str, int, str, set[str] | None]]:
    """(file, line, code, parameter names) of each engine error built in bot/engine and
    bot/computer; None when the names come from elsewhere (``**facts``)."""
    for package in ("bot/engine", "bot/computer"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and len(node.args) >= 2:
                    code = node.args[1]
                    names: set[str] | None = {k.arg for k in node.keywords if k.arg}
                    if any(k.arg is None for k in node.keywords):
                        spread = [k.value for k in node.keywords if k.arg is None]
                        if all(
                            isinstance(v, ast.Call) and _call_name(v) == "_legal" for v in spread
                        ):
                            names = (names or set()) | {"legal", "more"}
                        else:
                            names = None
                elif isinstance(node, ast.Tuple) and len(node.elts) == 2:
                    code, names = node.elts[0], None  # a cube refusal: game.cube_refusal_error
                elif isinstance(node, ast.Tuple) and len(node.elts) == 3:
                    code, _message, facts = node.elts
                    if not isinstance(facts, ast.Dict):
                        continue
                    keys = {k.value for k in facts.keys if isinstance(k, ast.Constant)}
                    names = {str(key) for key in keys} | {"play", "dice", "legal", "more"}
                else:
                    continue
                if isinstance(code, ast.Attribute) and getattr(code.value, "id", "") in (
                    "Code",
                    "EngineErrorCode",
                ):
                    yield path.name, node.lineno, code.attr, names


def test_every_raise_site_gives_its_sentence_the_facts_it_names() -> None:
    from bot.present import ENGINE_SENTENCES

    sites = list(_raise_sites())
    assert len(sites) >= 50
    seen = set()
    for filename, line, name, params in sites:
        code = EngineErrorCode[name]
        seen.add(code)
        if params is None:
            continue
        wanted = {
            field.strip("{}").split(":")[0] for field in FIELD.findall(ENGINE_SENTENCES[code].msgid)
        }
        assert wanted <= params, f"{filename}:{line} {name} lacks {wanted - params}"
    unused = (
        set(EngineErrorCode)
        - seen
        - {
            EngineErrorCode.NOT_STARTED,  # the phase codes, raised through game._PHASE_CODES
            EngineErrorCode.ROLL_FIRST,
            EngineErrorCode.ALREADY_ROLLED,
            EngineErrorCode.DOUBLE_PENDING,
        }
    )
    assert not unused, f"codes never raised: {sorted(unused)}"


# --- pages render in both languages -------------------------------------------------------


def _pages() -> dict[str, Callable[[str], str]]:
    from dataclasses import replace
    from types import SimpleNamespace as NS
    from typing import Any, cast

    from bot import present
    from bot.computer.cube import CubeAction
    from bot.computer.positions import DEEP, DeepAdvice, DeepPlay, PositionAdvice
    from bot.computer.pr import LuckAdjustedResult, PerformanceRating, PRPart
    from bot.core.records import PlayerStats
    from bot.engine import Play, PositionRecord
    from bot.features.performance.rules import LadderEntry, MatchPerformance, PlayerPerformance
    from bot.present import performance as performance_words
    from bot.present import positions as position_words

    figure = NS(observed=0.17, expected=0.1667, sample=120, surprise="ordinary")
    dice = NS(
        dice=240,
        rolls=120,
        doubles=figure,
        pips=NS(observed=8.2, expected=8.17, sample=120, surprise="unusual"),
        face_counts=(40,) * 6,
        faces=(figure,) * 6,
        chi_square=NS(statistic=1.2, df=5, p_value=0.94, surprise="ordinary"),
        entry=figure,
    )
    stats = PlayerStats(1, 2, "alice", 1512.5, 40, 3, 10, 6, 4, 3, 2, 1, 2, 0, 14, 9, 2, 3)
    mistake = NS(position_id="4HPwATDgc/ABMA", made="24/18 13/8", best="13/2", equity_lost=0.08)
    performance = PerformanceRating(PRPart(30, 0.3), PRPart(10, 0.05))
    analysis = NS(
        error_rate=7.5,
        rating="Expert",
        decisions=40,
        blunders=1,
        mistakes=[mistake],
        performance=performance,
    )
    luck = NS(
        players={0: NS(total=0.31, rolls=20, rate=15.5)},
        luck_adjusted=lambda player: LuckAdjustedResult(0.5, 0.31, 0.1, 20, 0.31),
    )
    plays = [
        NS(notation="13/7 8/7", equity=0.21, difference=0.0),
        NS(notation="24/18 13/8", equity=0.19, difference=-0.02),
    ]
    cube = NS(
        refusal=None,
        refusal_code=None,
        text=str(CubeAction.DOUBLE_TAKE),
        no_double=0.5,
        double_take=0.6,
        double_pass=1.0,
    )
    refused = NS(
        refusal="x",
        refusal_code=EngineErrorCode.CUBE_AT_MAXIMUM,
        refusal_params=(("cube", 64),),
        no_double=0.4,
    )
    record = NS(
        level="expert", games=3, game_wins=1, matches=1, match_wins=0, points_won=2, points_lost=5
    )
    played = MatchPerformance(
        1, 1, 1, "alice", 1.8e9, False, performance, LuckAdjustedResult(0.5, 0.2, 0.1, 30, 0.2)
    )
    position = PositionRecord.parse("XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:1:0:5:10")
    advice = PositionAdvice(position, position.to_game(), cast(Any, plays))
    deep_plays = DeepAdvice(
        position,
        position.to_game(),
        DEEP,
        plays=(DeepPlay(Play(()), 0.12, 0.01, 0.11), DeepPlay(Play(()), 0.05, 0.01, 0.07)),
        rollouts=2,
    )
    deep_cube = DeepAdvice(
        position, position.to_game(), DEEP, cube=cast(Any, cube), cube_errors=(0.01, 0.02)
    )
    return {
        "stats": lambda lang: present.stats_text(stats, "alice", language=lang),
        "leaderboard": lambda lang: "\n".join(present.leaderboard_lines([stats], language=lang)),
        "help": present.help_text,
        "plays": lambda lang: present.hint_text(plays, language=lang),
        "cube": lambda lang: present.hint_text(cube, language=lang),
        "refused": lambda lang: present.hint_text(refused, language=lang),
        "analysis": lambda lang: present.analysis_text(
            ["alice", "bob"], {0: analysis}, luck, language=lang
        ),
        "match analysis": lambda lang: present.analysis_text(
            ["alice", "bob"], {0: analysis}, luck, money=False, language=lang
        ),
        "pr ladder": lambda lang: "\n".join(
            performance_words.ladder_lines([LadderEntry(1, "alice", performance, 3)], language=lang)
        ),
        "pr record": lambda lang: performance_words.record_lines(
            PlayerPerformance(1, (played, replace(played, match_id=2, money=True))),
            language=lang,
        ),
        "position": lambda lang: position_words.position_text(advice, language=lang),
        "deep plays": lambda lang: position_words.deep_text(deep_plays, language=lang),
        "deep cube": lambda lang: position_words.deep_text(deep_cube, language=lang),
        "record": lambda lang: present.computer_record_text([record], language=lang),
        "dice": lambda lang: present.dice_text(dice, present.THIS_SERVER, language=lang),
    }


@pytest.mark.parametrize("page", list(_pages()))
def test_every_page_renders_in_both_languages(page: str) -> None:
    render = _pages()[page]
    english, french = render("en"), render("fr")
    assert english and french and english != french
    assert not ENGLISH_WORDS.search(french.replace("/backgammon", "")), french


def test_user_errors_keep_their_message_through_a_worker_and_the_store() -> None:
    import pickle

    from bot import present
    from bot.computer import ComputerUnavailableError
    from bot.core.errors import ChannelBusyError, ConflictError, Name, NotYourTurnError, Refusal

    busy = pickle.loads(pickle.dumps(ChannelBusyError()))  # as the storage layer raises it
    assert busy.reason is Refusal.CHANNEL_BUSY
    assert say(present.refusal(busy), "fr") != say(present.refusal(busy), "en")
    assert ConflictError().reason is Refusal.CONFLICT
    turn = pickle.loads(pickle.dumps(NotYourTurnError(Refusal.NOT_YOUR_TURN, player=Name("bo_b"))))
    assert type(turn) is NotYourTurnError and isinstance(turn.params["player"], Name)
    assert say(present.refusal(turn, display=str.upper)) == "It's BO_B's turn."
    unavailable = pickle.loads(pickle.dumps(ComputerUnavailableError()))
    assert unavailable.reason is Refusal.COMPUTER_UNAVAILABLE
    assert "bgsage" in say(present.refusal(unavailable), "fr")
    from bot.engine import Game

    with pytest.raises(ValueError) as refused:
        Game.new().roll((1, 2))
    assert isinstance(refused.value, EngineError)  # the engine's errors carry a code
    again = pickle.loads(pickle.dumps(refused.value))
    assert again.code == refused.value.code and str(again) == str(refused.value)


def _marked_in_source() -> Iterator[tuple[str, int, str | None, str]]:
    """(file, line, context, msgid) of every _(), N_() and pgettext() call with a literal,
    found by the AST: Babel's own reader misses a call nested in another's arguments."""
    for package in SOURCES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or not node.args:
                    continue
                name, args = _call_name(node), node.args
                if name == "pgettext" and len(args) >= 2:
                    context, msgid = _literal_text(args[0]), _literal_text(args[1])
                elif name in ("_", "N_"):
                    context, msgid = None, _literal_text(args[0])
                else:
                    continue
                if msgid is not None and not isinstance(args[-1], ast.JoinedStr):
                    yield path.relative_to(ROOT).as_posix(), node.lineno, context, msgid


def test_every_marked_literal_is_in_the_catalogue() -> None:
    catalog = french()
    missing = [
        f"{where}:{line}: {msgid!r}"
        for where, line, context, msgid in _marked_in_source()
        if catalog.get(msgid, context=context) is None
    ]
    assert not missing, "marked but not extracted (a _() nested in a call?):\n" + "\n".join(missing)
