"""The bot in French, end to end through discord.py against the local fake Discord.

A French server (guild locale ``fr``) with French-speaking players: the synced commands
carry French names and descriptions, every public message and private error is French,
buttons too, and the board picture is drawn with French words (the words the renderer was
given are recorded). An English speaker on the same server reads their own errors in
English while the game stays French; the moderators' ``language:`` setting wins over the
server's Discord locale.

Expected sentences are the catalogue's own French (:func:`fr`), which fails loudly when an
entry is missing: a test failure that names a msgid is a gap in the catalogue.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import Text, say
from bot.present import board_words
from renderers import render_board
from renderers.panels import BoardWords
from tests.e2e.conftest import TOKEN, Harness
from tests.e2e.fake_discord import FakeDiscord, FakeMember, InteractionResult, RecordedMessage

# English that must never reach a French reader (whole words: names are alice, bob, carol).
ENGLISH = re.compile(
    r"\b(challenges|accept or decline|rolls|moves first|your turn|plays|wins|offers to resign"
    r"|take or drop|roll or double|This challenge is for|It's \w+'s turn)\b"
)


def fr(msgid: str, /, **params: object) -> str:
    """The catalogue's French for a message; fails if the catalogue lacks it."""
    french = say(Text(msgid, params), "fr")
    assert french != say(Text(msgid, params), "en"), f"no French in the catalogue for {msgid!r}"
    return french


def french(text: str | None) -> str:
    """``text``, checked to hold no English sentence."""
    assert text, "an empty message"
    found = ENGLISH.search(text)
    assert found is None, f"English {found.group(0)!r} in {text!r}"
    return text


@pytest.fixture
async def french_fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(token=TOKEN) as fake:
        fake.guild.preferred_locale = "fr"  # before the bot connects: GUILD_CREATE says so
        with fake.patch_discord():
            yield fake


class Drawn:
    """The board renderer, recording the words each picture was drawn with."""

    def __init__(self) -> None:
        self.words: list[BoardWords] = []

    def __call__(self, game: Any, **options: Any) -> bytes:
        self.words.append(options["words"])
        return render_board(game, **options)


@pytest.fixture
async def h(french_fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Harness]:
    harness = Harness(french_fake, tmp_path / "gammon.db")
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


@pytest.fixture
def drawn(h: Harness) -> Drawn:
    assert h.bot is not None
    recorder = Drawn()
    h.bot.get_cog("Backgammon")._renderer = recorder  # type: ignore[union-attr]
    return recorder


async def slash(
    h: Harness, who: FakeMember, sub: str, locale: str = "fr", **options: object
) -> InteractionResult:
    return await h.fake.slash(who, "games", "backgammon", sub, options=options, locale=locale)


async def press(
    h: Harness, who: FakeMember, message: RecordedMessage, action: str, locale: str = "fr"
) -> InteractionResult:
    (custom_id,) = [c for c in message.custom_ids if c.startswith(f"bg:{action}:")]
    return await h.fake.click(who, message, custom_id, locale=locale)


def labels(message: RecordedMessage) -> list[str]:
    return sorted(button.label or "" for button in message.buttons)


# --- the command picker ----------------------------------------------------------------------


async def test_synced_commands_carry_french_names_and_descriptions(h: Harness) -> None:
    synced = await h.fake.wait_for_commands(h.fake.guild.id, names=["backgammon"])
    (group,) = [c for c in synced if c["name"] == "backgammon"]
    assert group["description_localizations"]["fr"] == "Jouer au backgammon"
    subs = {sub["name"]: sub for sub in group["options"]}
    french_names = [(sub.get("name_localizations") or {}).get("fr", n) for n, sub in subs.items()]
    assert len(set(french_names)) == len(french_names)  # unique at their level
    for name, sub in subs.items():
        described = sub["description_localizations"]["fr"]
        assert described and described != sub["description"], name
        for option in sub.get("options", []):
            assert option["description_localizations"]["fr"] != option["description"], name
    names = {name: (sub.get("name_localizations") or {}).get("fr") for name, sub in subs.items()}
    assert names["roll"] == "lancer"
    assert names["challenge"] == "défier"
    assert names["move"] == "jouer" and names["play"] == "ordinateur"
    assert names["settings"] == "réglages"
    challenge = {o["name"]: o for o in subs["challenge"]["options"]}
    assert challenge["opponent"]["name_localizations"]["fr"] == "adversaire"
    kinds = {o["name"]: o for o in subs["resign"]["options"]}["kind"]["choices"]
    assert kinds[0]["name_localizations"]["fr"] == "simple"  # gammon is gammon in French
    language = {o["name"]: o for o in subs["settings"]["options"]}["language"]
    assert language["name_localizations"]["fr"] == "langue"
    assert [c["value"] for c in language["choices"]] == ["auto", "en", "fr"]
    assert language["choices"][0]["name_localizations"]["fr"] == "la langue Discord du serveur"


# --- a game in French ------------------------------------------------------------------------


async def test_a_french_game_is_french_everywhere(h: Harness, drawn: Drawn) -> None:
    h.roller.extend([3, 1, 6, 5])
    challenge = await (await slash(h, h.alice, "challenge", opponent=h.bob.id)).original_message()
    french(challenge.content)
    assert h.bob.mention in (challenge.content or "")  # the challenged player is pinged
    assert labels(challenge) == ["Accepter", "Refuser"]

    stranger = await press(h, h.carol, challenge, "accept")
    assert await h.error_of(stranger) == fr("This challenge is for {player}.", player="bob")

    board = await h.board_after(await press(h, h.bob, challenge, "accept"))
    opening = fr(
        "{first} rolls {a}, {second} rolls {b}: {starter} moves first with {dice}.",
        first="alice",
        a=3,
        second="bob",
        b=1,
        starter="alice",
        dice="3-1",
    )
    assert opening in french(board.content)
    assert drawn.words[-1] == board_words("fr")
    assert drawn.words[-1].to_move == "doit jouer" and drawn.words[-1].pips == "POINTS"

    early = await slash(h, h.bob, "roll")
    assert await h.error_of(early) == fr("It's {player}'s turn.", player="alice")

    moved = await h.board_after(await slash(h, h.alice, "move", play="8/5 6/5"))
    french(moved.content)
    assert labels(moved) == ["Doubler", "Lancer"]
    assert drawn.words[-1].to_roll_or_double == "doit lancer ou doubler"

    offer = await h.board_after(await slash(h, h.bob, "resign"))
    french(offer.content)
    assert labels(offer) == ["Accepter l'abandon", "Rejeter"]
    over = await h.board_after(await press(h, h.alice, offer, "resign_accept"))
    french(over.content)
    assert labels(over) == ["Revanche"]
    assert drawn.words[-1] == board_words("fr")  # the banner's words, too

    # Private answers read French too: help, the player's games, a refused moderator action.
    helped = await (await slash(h, h.alice, "help")).response()
    assert helped.ephemeral and helped.embeds[0]["title"] == "Backgammon"
    french(helped.embeds[0]["description"])
    refused = await slash(h, h.alice, "settings", language="en")
    assert await h.error_of(refused) == fr(
        "Only members with Manage Messages can change the server's language."
    )


async def test_board_words_are_french_in_the_picture_labels(h: Harness) -> None:
    words = board_words("fr")
    assert words != BoardWords()
    english = BoardWords()
    for name in (field.name for field in dataclasses.fields(BoardWords)):
        if name in ("score", "point", "points", "kinds"):  # the same words in French
            continue
        assert getattr(words, name) != getattr(english, name), name


async def test_an_english_speaker_reads_errors_in_english_on_a_french_server(
    h: Harness,
) -> None:
    challenge = await (await slash(h, h.alice, "challenge", opponent=h.bob.id)).original_message()
    french(challenge.content)
    stranger = await press(h, h.carol, challenge, "accept", locale="en-US")
    assert await h.error_of(stranger) == "This challenge is for bob."
    # Discord locales the bot has no catalogue for read English.
    other = await press(h, h.carol, challenge, "accept", locale="de")
    assert await h.error_of(other) == "This challenge is for bob."
    # The public message stays in the server's language whoever acts.
    declined = await h.board_after(await press(h, h.bob, challenge, "decline", locale="en-US"))
    french(declined.content)


async def test_the_moderators_language_wins_over_the_server_locale(h: Harness) -> None:
    assert h.bot is not None
    publisher = h.bot.get_cog("Backgammon").publisher  # type: ignore[union-attr]
    guild_id = h.fake.guild.id
    assert await publisher.language(guild_id) == "fr"  # from GUILD_CREATE, no interaction

    chosen = await (await slash(h, h.mod, "settings", language="en")).response()
    assert chosen.ephemeral
    assert fr("Game messages: {language}.", language="English") in (chosen.content or "")
    assert await publisher.language(guild_id) == "en"

    challenge = await (await slash(h, h.alice, "challenge", opponent=h.bob.id)).original_message()
    assert "alice challenges" in (challenge.content or "")
    assert labels(challenge) == ["Accept", "Decline"]
    # Private errors still follow the reader.
    stranger = await press(h, h.carol, challenge, "accept")
    assert await h.error_of(stranger) == fr("This challenge is for {player}.", player="bob")
    await h.board_after(await press(h, h.bob, challenge, "decline"))

    back = await (await slash(h, h.mod, "settings", language="auto")).response()
    assert fr("Game messages: the server's Discord language.") in (back.content or "")
    assert await publisher.language(guild_id) == "fr"


async def test_a_moderator_makes_an_english_server_french(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    harness = Harness(fake, tmp_path / "gammon.db")
    await harness.start()
    try:
        await (await slash(harness, harness.mod, "settings", "en-US", language="fr")).response()
        challenge = await (
            await slash(harness, harness.alice, "challenge", "en-US", opponent=harness.bob.id)
        ).original_message()
        french(challenge.content)
        assert labels(challenge) == ["Accepter", "Refuser"]
    finally:
        await harness.stop()


async def test_a_turn_reminder_nobody_asked_for_is_in_the_servers_language(h: Harness) -> None:
    h.roller.extend([3, 1])
    idle = await (await slash(h, h.bob, "settings", notify="idle", idle_minutes=5)).response()
    assert "5" in french(idle.content)  # a private answer, in bob's language
    challenge = await (await slash(h, h.alice, "challenge", opponent=h.bob.id)).original_message()
    await h.board_after(await press(h, h.bob, challenge, "accept"))
    await h.board_after(await slash(h, h.alice, "move", play="8/5 6/5"))
    h.clock.advance(6 * 60)
    assert h.bot is not None
    assert await h.bot.get_cog("Backgammon").send_reminders() == 1  # type: ignore[union-attr]
    reminder = h.fake.last_message("games")
    assert reminder is not None
    expected = say(
        Text(
            "<@{user}>, it's your turn against {opponent} (waiting {n} minute).",
            {"user": h.bob.id, "opponent": "alice", "n": 6},
            "<@{user}>, it's your turn against {opponent} (waiting {n} minutes).",
            6,
        ),
        "fr",
    )
    assert french(reminder.content).startswith(expected)
