"""``python -m bot`` as a newcomer meets it: with no token, and in offline play."""

from __future__ import annotations

import itertools
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


def status_lines(text: str) -> list[str]:
    """The status lines, each as printed under a board (the line after "(X = ..., O = ...)")."""
    lines = text.splitlines()
    return [after for before, after in itertools.pairwise(lines) if before.startswith("(X = ")]


def board_images(text: str) -> list[Path]:
    """The pictures a run says it wrote, in order."""
    return [Path(m) for m in re.findall(r"^\[board image: (.+)\]$", text, flags=re.M)]


def test_offline_status_line_under_every_board_shows_pips_cube_score_and_dice(
    tmp_path: Path,
) -> None:
    """A user reads, under each board: both pip counts, the cube and who owns it, the score
    and match length, and the dice once rolled."""
    files = ["--out", str(tmp_path / "out"), "--db", str(tmp_path / "s.db")]
    result = run_bot(
        ["play", "--names", "alice,bob", "--length", "5", "--dice", "3,1,6,5", *files],
        tmp_path,
        stdin="8/5 6/5\ndouble\ntake\nroll\n24/13\nboard\n",
    )
    assert result.returncode == 0, result.stderr
    score = "Score: alice 0, bob 0, match to 5"
    middle = f"Pips: alice 163, bob 167 · Cube: 1, in the middle · {score}"
    taken = f"Pips: alice 163, bob 167 · Cube: 2, owned by alice · {score}"
    moved = f"Pips: alice 163, bob 156 · Cube: 2, owned by alice · {score}"
    assert status_lines(result.stdout) == [
        f"Pips: alice 167, bob 167 · Cube: 1, in the middle · {score} · Dice: 3-1",
        middle,  # alice played: bob to roll, no dice out
        middle,  # bob doubles: the cube is still 1 until alice answers
        taken,
        f"{taken} · Dice: 6-5",
        moved,
        moved,  # "board" shows it again
    ]


def test_offline_status_line_of_a_money_game_without_the_cube(tmp_path: Path) -> None:
    files = ["--out", str(tmp_path / "out"), "--db", str(tmp_path / "m.db")]
    result = run_bot(
        ["play", "--names", "alice,bob", "--no-cube", "--dice", "6,1", *files],
        tmp_path,
        stdin="13/7 8/7\n",
    )
    assert result.returncode == 0, result.stderr
    assert status_lines(result.stdout) == [
        "Pips: alice 167, bob 167 · No cube · Money game · Dice: 6-1",
        "Pips: alice 160, bob 167 · No cube · Money game",
    ]


def test_the_status_line_says_the_crawford_game() -> None:
    from bot.engine import Game, MatchOptions, Phase
    from bot.i18n import say
    from bot.present import notices

    game = Game(options=MatchOptions(length=5), score=(4, 2), crawford=True, phase=Phase.ROLL)
    line = say(notices.status_line(game, ("alice", "bob")), "en")
    assert line == (
        "Pips: alice 167, bob 167 · Cube: 1, in the middle · "
        "Score: alice 4, bob 2, match to 5, Crawford game"
    )
    french = say(notices.status_line(game, ("alice", "bob")), "fr")
    assert french.startswith("Points : alice 167, bob 167 · Videau : 1, au centre")


def test_resuming_a_saved_game_with_other_players_asks_first(tmp_path: Path) -> None:
    """A command for other players (or other options) says what the saved game is and asks;
    "n" abandons it (no result) and starts the game asked for, "y" resumes the saved one,
    and the command of the saved game itself resumes it without a question."""
    files = ["--out", str(tmp_path / "out"), "--db", str(tmp_path / "r.db")]
    first = run_bot(
        ["play", "--names", "alice,bob", "--length", "5", "--dice", "3,1", *files],
        tmp_path,
        stdin="8/5 6/5\n",
    )
    assert first.returncode == 0, first.stderr
    assert "(y/n)" not in first.stdout  # nothing saved yet: nothing to ask

    other = run_bot(
        ["play", "--names", "carol,dave", "--dice", "4,2", *files],
        tmp_path,
        stdin="maybe\nn\n8/4 6/4\n",
    )
    assert other.returncode == 0, other.stderr
    text = other.stdout
    question = text.index("Your saved game is alice vs bob, a 5-point match")
    assert "(y/n)" in text[question:]
    assert "Resuming" not in text
    assert text.index("Answer y or n.") > question
    abandoned = text.index("The saved game is abandoned, with no result.")
    assert text.index("carol rolls 4, dave rolls 2") > abandoned
    assert "carol rolls 4-2 and plays 8/4 6/4." in text

    back = run_bot(["play", "--names", "alice,bob", "--length", "5", *files], tmp_path, stdin="y\n")
    assert back.returncode == 0, back.stderr
    assert "Your saved game is carol vs dave, a money game" in back.stdout
    assert "Resuming your saved game" in back.stdout
    assert status_lines(back.stdout) == [
        "Pips: carol 161, dave 167 · Cube: 1, in the middle · Money game"
    ]

    same = run_bot(["play", "--names", "carol,dave", *files], tmp_path, stdin="")
    assert same.returncode == 0, same.stderr
    assert "(y/n)" not in same.stdout and "Resuming your saved game" in same.stdout


def test_other_options_ask_too_and_no_answer_keeps_the_saved_game(tmp_path: Path) -> None:
    files = ["--out", str(tmp_path / "out"), "--db", str(tmp_path / "o.db")]
    first = run_bot(["play", "--names", "alice,bob", "--dice", "3,1", *files], tmp_path)
    assert first.returncode == 0, first.stderr
    asked = run_bot(["play", "--names", "alice,bob", "--length", "3", *files], tmp_path, stdin="")
    assert asked.returncode == 0, asked.stderr
    assert "Your saved game is alice vs bob, a money game" in asked.stdout
    assert "Game saved" in asked.stdout
    kept = run_bot(["play", "--names", "alice,bob", *files], tmp_path, stdin="8/5 6/5\n")
    assert "(y/n)" not in kept.stdout and "Resuming your saved game" in kept.stdout
    assert "alice rolls 3-1 and plays 8/5 6/5." in kept.stdout


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


async def test_offline_play_serves_its_live_board_with_web_url(tmp_path: Path) -> None:
    """Issue 40: with WEB_URL set, the terminal game is on the web board too, so a newcomer
    sees it with no Discord at all; and only the terminal's own game opens there."""
    import asyncio
    import socket

    import aiohttp

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    environment.update(PYTHONPATH=str(ROOT), WEB_URL=f"http://127.0.0.1:{port}", WEB_PORT=str(port))
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "play",
        "--names",
        "alice,bob",
        "--dice",
        "3,1",
        "--db",
        str(tmp_path / "gammon.db"),
        "--out",
        str(tmp_path / "out"),
        cwd=tmp_path,
        env=environment,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None and process.stdin is not None
    try:
        url = None
        while url is None:
            line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
            assert line, "offline play ended before it showed the board's address"
            found = re.search(r"(http://127\.0\.0\.1:\d+/m/[A-Za-z0-9_-]+)", line)
            url = found.group(1) if found else None
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as page:
                text = await page.text()
                assert page.status == 200 and 'data-page="live"' in text and "alice" in text
            async with http.get(f"http://127.0.0.1:{port}/m/{'A' * 22}") as missing:
                assert missing.status == 404
        process.stdin.write(b"quit\n")
        await process.stdin.drain()
        assert await asyncio.wait_for(process.wait(), 30) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
