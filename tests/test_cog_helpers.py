"""The Discord layer's pure helpers (cogs/helpers.py): orderings, links and words."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.core.records import Action, BoardSide, ClaimRule, MatchRow, Notify, Status, ThemeName
from bot.core.session import Report
from bot.engine import Game, MatchOptions
from bot.present import board_words, chart_labels
from cogs.helpers import (
    board_caption,
    board_link,
    games_text,
    message_content,
    rank_plays,
    reminder_text,
    settings_text,
    waited,
)
from cogs.translator import NAME_RULE, NAMES, translate_description, translate_name
from renderers.charts import ChartLabels
from renderers.panels import BoardWords

ALICE, BOB = 11, 22


def _row(**changes: Any) -> MatchRow:
    row = MatchRow(
        id=7,
        guild_id=1,
        channel_id=2,
        status=Status.PLAYING,
        player_ids=(ALICE, BOB),
        player_names=("alice", "b*b"),
        options=MatchOptions(length=5),
        rated=True,
        computer_level=None,
        game=Game.new(MatchOptions(length=5)),
        version=1,
        created_at=0.0,
        updated_at=0.0,
        last_action_at=0.0,
        expires_at=None,
        winner=None,
        final_score=None,
        end_reason=None,
    )
    return dataclasses.replace(row, **changes)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("", ["24/18 13/11", "13/7 8/7", "8/2 6/2"]),
        ("8/", ["8/2 6/2", "13/7 8/7"]),
        ("  13/7   8/7 ", ["13/7 8/7"]),
        ("bar", []),
    ],
)
def test_rank_plays_puts_prefixes_first_then_highest_points(
    typed: str, expected: list[str]
) -> None:
    assert rank_plays(["8/2 6/2", "13/7 8/7", "24/18 13/11"], typed) == expected


def test_rank_plays_reads_bar_and_off_and_keeps_25() -> None:
    plays = [f"{n}/off" for n in range(1, 7)] + ["bar/20", *(f"{n}/1" for n in range(2, 25))]
    ranked = rank_plays(plays, "")
    assert len(ranked) == 25 and ranked[0] == "bar/20"


@pytest.mark.parametrize(
    ("seconds", "words"),
    [
        (0, "under a minute"),
        (59, "under a minute"),
        (60, "1 minute"),
        (7 * 60, "7 minutes"),
        (119 * 60, "119 minutes"),
        (120 * 60, "2 hours"),
        (47 * 3600, "47 hours"),
        (72 * 3600, "3 days"),
    ],
)
def test_waited_words(seconds: float, words: str) -> None:
    assert str(waited(seconds)) == words


def test_board_link_jumps_to_the_latest_board_or_the_channel() -> None:
    assert board_link(_row()) == "<#2>"
    assert board_link(_row(board=(3, 4))) == "https://discord.com/channels/1/3/4"


def test_board_caption_names_the_match_with_escaped_names() -> None:
    assert str(board_caption(_row())) == r"alice vs b\*b, game 1 of a 5-point match (0-0)."
    money = _row(game=Game.new(MatchOptions(length=0)))
    assert str(board_caption(money)) == r"alice vs b\*b: money game, cube at 1."


def test_reminder_pings_only_the_waiting_player_with_a_link() -> None:
    text = reminder_text(_row(board=(3, 4)), BOB, 6 * 60)
    assert text.startswith(f"<@{BOB}>, it's your turn against alice (waiting 6 minutes).")
    assert text.endswith("https://discord.com/channels/1/3/4")
    assert "(waiting 1 minute)." in reminder_text(_row(), ALICE, 10)


def test_games_text_lists_challenges_and_turns() -> None:
    challenge = _row(status=Status.CHALLENGE, game=None)
    assert (
        games_text([challenge], BOB, 0) == "<#2> challenge with alice: waiting for you to accept."
    )
    assert games_text([challenge], ALICE, 0) == r"<#2> challenge with b\*b: waiting for b\*b."
    assert games_text([], ALICE, 0) == "You have no live games on this server."


def test_settings_text_says_each_choice() -> None:
    text = settings_text(Notify.IDLE, 5, BoardSide.LEFT, ThemeName.DARK, True)
    assert text.splitlines() == [
        "Turn notices: pinged after 5 idle minutes on your turn.",
        "Board: home board on the left, dark colours.",
        "This server: a thread for each game.",
        "Game messages: the server's Discord language.",
        "A claim for inactivity wins the match by forfeit (unrated).",
    ]
    chosen = settings_text(
        Notify.ON, 5, BoardSide.RIGHT, ThemeName.CLASSIC, False, "fr", claim=ClaimRule.GAME
    )
    assert chosen.splitlines()[-2:] == [
        "Game messages: Français.",
        "A claim for inactivity wins the game in progress.",
    ]


def test_the_docstring_examples_hold() -> None:
    import doctest

    import bot.present.club
    import cogs.helpers

    assert doctest.testmod(cogs.helpers).failed == 0
    assert doctest.testmod(bot.present.club).attempted > 0
    assert doctest.testmod(bot.present.club).failed == 0


def test_board_and_chart_words_in_english_are_the_renderers_own() -> None:
    # The renderers' defaults and the marked messages must not drift apart.
    assert board_words("en") == BoardWords()
    assert chart_labels("en") == ChartLabels()


def test_a_challenge_pings_the_challenged_player_in_any_language() -> None:
    row = _row(
        status=Status.CHALLENGE,
        game=None,
        player_names=("bob", "bo"),
        options=MatchOptions(),
        expires_at=900.0,
    )
    report = Report(Action.CHALLENGE, row)
    content, pinged = message_content(report)
    assert content == (
        f"bob challenges <@{BOB}> to a money game (rated). bo: accept or decline within 15 minutes."
    )
    assert pinged == [BOB]
    french, _pinged = message_content(report, language="fr")
    assert f"<@{BOB}>" in french and french != content
    # Both players with the same name: the challenged one (the opponent) is pinged.
    same = dataclasses.replace(row, player_names=("bo", "bo"))
    content, _pinged = message_content(Report(Action.CHALLENGE, same))
    assert content.startswith(f"bo challenges <@{BOB}> to a money game")


def test_command_names_are_translated_only_when_discord_accepts_them() -> None:
    assert translate_name("roll", "command", "en") is None
    assert translate_description("Roll the dice", "en") is None
    assert NAME_RULE.fullmatch("lancer") and not NAME_RULE.fullmatch("Lancer les dés")


def test_every_name_in_the_command_tree_is_marked() -> None:
    from discord import app_commands

    from cogs import puzzle
    from cogs.backgammon import Backgammon

    for cog, marked in ((Backgammon, set(NAMES)), (puzzle.Puzzles, set(puzzle.NAMES) | set(NAMES))):
        assert isinstance(cog.__cog_group_name__, str)  # a plain name, marked for gettext
        names: set[str] = {cog.__cog_group_name__}
        for command in cog.__cog_app_commands__:
            assert isinstance(command, app_commands.Command)
            names.add(command.name)
            for parameter in command.parameters:
                names.add(parameter.name)
                names.update(choice.name for choice in parameter.choices)
        assert names <= marked, cog
