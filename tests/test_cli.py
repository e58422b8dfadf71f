"""``python -m bot`` as a newcomer meets it: with no token, and in offline play."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent


def run_bot(
    args: list[str],
    cwd: Path,
    stdin: str = "",
    env: dict[str, str] | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    environment["PYTHONPATH"] = str(ROOT)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=environment,
    )


def test_no_token_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    result = run_bot([], tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "DISCORD_TOKEN is not set" in lines[0]
    assert "python -m bot play" in lines[0]
    assert "Traceback" not in result.stderr


def test_bad_setting_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nLOG_LEVEL=shouty\n", encoding="utf-8")
    result = run_bot([], tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "LOG_LEVEL" in result.stderr
    assert "Traceback" not in result.stderr


SCRIPT = """\
roll
13/7 8/7
8/5 6/5
roll
24/13
double
take
drop
"""


def test_offline_scripted_game_writes_boards_and_ends(tmp_path: Path) -> None:
    out = tmp_path / "boards"
    db = tmp_path / "offline.db"
    # Opening 3-1 for alice, then bob rolls 6-5.
    result = run_bot(
        ["play", "--names", "alice,bob", "--dice", "3,1,6,5", "--out", str(out), "--db", str(db)],
        tmp_path,
        stdin=SCRIPT,
    )
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "alice rolls 3, bob rolls 1: alice moves first with 3-1." in text
    # Wrong inputs are explained and change nothing.
    assert "You have already rolled" in text
    assert "13/7 8/7 is not legal with 3-1" in text
    assert "alice rolls 3-1 and plays 8/5 6/5." in text
    assert "bob rolls 6-5 and plays 24/13." in text
    assert "alice doubles to 2." in text
    assert "bob takes" in text
    # There is no double pending any more, so a drop is refused and changes nothing.
    assert "There is no double to answer." in text or "no double to drop" in text
    pngs = sorted(out.rglob("*.png"))
    assert len(pngs) >= 5
    for png in pngs:
        with Image.open(png) as image:
            assert image.format == "PNG"
            assert image.width >= 600
    # The game was saved unfinished: running again resumes it.
    again = run_bot(
        ["play", "--names", "alice,bob", "--dice", "6,6", "--out", str(out), "--db", str(db)],
        tmp_path,
        stdin="resign gammon\naccept\n",
    )
    assert again.returncode == 0, again.stderr
    assert "Resuming your saved game" in again.stdout
    assert "accepts the resignation" in again.stdout
    assert "wins a gammon: 4 points" in again.stdout
    assert "Game over" in again.stdout


def test_offline_game_against_the_computer(tmp_path: Path) -> None:
    pytest.importorskip("bgsage")
    result = run_bot(
        [
            "play",
            "--names",
            "alice",
            "--computer",
            "expert",
            "--dice",
            "6,1,3,1,4,2",
            "--out",
            str(tmp_path / "out"),
            "--db",
            str(tmp_path / "c.db"),
        ],
        tmp_path,
        stdin="13/7 8/7\nhint\nroll\nresign\n",
    )
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "alice plays a game against GammonBot (expert)." in text
    assert "GammonBot rolls 3-1 and plays 8/5 6/5." in text
    assert "Proper cube action: No double" in text
    assert "GammonBot wins a single game: 1 point (alice resigned)." in text
    assert len(list((tmp_path / "out").rglob("*.png"))) == 4


def test_offline_play_uses_the_bots_postgresql_when_database_url_is_set(
    tmp_path: Path, pg_url: str
) -> None:
    # DATABASE_URL wins over DATABASE_PATH, as for the bot: the saved game is in PostgreSQL.
    env = {"DATABASE_URL": pg_url, "DATABASE_PATH": str(tmp_path / "unused.db")}
    args = ["play", "--names", "alice,bob", "--dice", "3,1", "--out", str(tmp_path / "b")]
    first = run_bot(args, tmp_path, stdin="8/5 6/5\n", env=env)
    assert first.returncode == 0, first.stderr
    assert "alice rolls 3-1 and plays 8/5 6/5." in first.stdout
    assert not (tmp_path / "unused.db").exists()
    again = run_bot(args, tmp_path, stdin="resign gammon\naccept\n", env=env)
    assert again.returncode == 0, again.stderr
    assert "Resuming your saved game" in again.stdout
    assert "Game over" in again.stdout


def test_offline_words_run_their_actions_and_an_unknown_word_changes_nothing(
    tmp_path: Path,
) -> None:
    """``pass`` is a drop, ``reject`` answers a resignation; a word that is no command is
    answered with the list and the game goes on."""
    out, db = tmp_path / "out", tmp_path / "g.db"
    result = run_bot(
        ["play", "--names", "alice,bob", "--dice", "3,1", "--out", str(out), "--db", str(db)],
        tmp_path,
        stdin="frobnicate\nresign\nreject\n8/5 6/5\ndouble\npass\n",
    )
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "Unknown command 'frobnicate'." in text
    assert "rejects the resignation" in text
    assert "bob doubles to 2." in text
    assert "alice drops." in text
    assert "Game over" in text


# --- the status line, resuming, and each match's pictures -----------------------------------


def board_images(text: str) -> list[Path]:
    """The pictures a run says it wrote, in order."""
    return [Path(m) for m in re.findall(r"^\[board image: (.+)\]$", text, flags=re.M)]


def test_a_resumed_or_new_match_never_overwrites_earlier_pictures(tmp_path: Path) -> None:
    out, db = tmp_path / "out", tmp_path / "p.db"
    files = ["--out", str(out), "--db", str(db)]
    runs = [
        (["--dice", "3,1"], "8/5 6/5\n"),  # the first match: two pictures
        (["--dice", "6,5"], "roll\n"),  # resumed: its board, then the roll
        (["--new", "--dice", "4,2"], "8/4 6/4\n"),  # a second match
    ]
    kept: dict[Path, bytes] = {}
    folders = []
    for extra, stdin in runs:
        result = run_bot(["play", "--names", "alice,bob", *extra, *files], tmp_path, stdin=stdin)
        assert result.returncode == 0, result.stderr
        written = [tmp_path / p if not p.is_absolute() else p for p in board_images(result.stdout)]
        assert len(written) == 2, result.stdout
        assert not set(written) & set(kept), "a picture was written over"
        for path, png in kept.items():
            assert path.read_bytes() == png, f"{path} changed"
        kept.update({path: path.read_bytes() for path in written})
        folders.append({path.parent for path in written})
    assert folders[0] == folders[1]  # one match, one folder
    assert not folders[2] & folders[0]  # the second match's pictures apart
    assert all(path.is_relative_to(out) for path in kept)
