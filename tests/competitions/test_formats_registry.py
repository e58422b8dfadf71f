"""Issue 36: the tournament formats live in one registry, from which the command's choices,
the words and the pictures derive: a format is all of them or none."""

from __future__ import annotations

from bot.features.tournaments.formats import FORMATS, rules_of
from bot.features.tournaments.rules import Format
from bot.present.tournaments import FORMAT_WORDS
from cogs.tournament_posts import PICTURES


def test_every_format_has_its_rules_words_and_pictures() -> None:
    tournaments = set(Format) - {Format.LADDER}  # the ladder is a service of its own
    assert set(FORMATS) == tournaments
    assert set(FORMATS) <= set(FORMAT_WORDS)
    assert set(PICTURES) == set(FORMATS)
    for format in FORMATS:
        assert rules_of(format).format is format


def test_the_create_command_offers_the_registrys_formats() -> None:
    from cogs.tournament import Tournament

    (create,) = [c for c in Tournament.__cog_app_commands__ if c.name == "create"]
    (parameter,) = [p for p in create.parameters if p.name == "format"]  # type: ignore[union-attr]
    assert [choice.value for choice in parameter.choices] == [str(f) for f in FORMATS]
