"""Issue 25: the command translator keeps every localized name Discord accepts.

Discord's rule for a chat command's or option's name is
``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lowercase where the script has case. The
translator checked ``^[-_\\w]{1,32}$`` and silently dropped (kept the English name for) a
French name with an apostrophe, and Hindi or Thai names with vowel signs.
"""

from __future__ import annotations

import gettext

import pytest

from cogs import translator
from cogs.translator import NAME_RULE, translate_name


@pytest.mark.parametrize(
    "name",
    ["l'adversaire", "réglages", "minutes_inactif", "classe-mondiale", "नमस्ते", "สวัสดี", "x" * 32],
)
def test_names_discord_accepts_pass_the_rule(name: str) -> None:
    assert NAME_RULE.fullmatch(name)


@pytest.mark.parametrize("name", ["", "a b", "x" * 33, "été!", "pas.ça", "a/b"])
def test_names_discord_refuses_fail_the_rule(name: str) -> None:
    assert not NAME_RULE.fullmatch(name)


class _Catalogue(gettext.NullTranslations):
    def __init__(self, words: dict[str, str]) -> None:
        super().__init__()
        self.words = words

    def pgettext(self, context: str, message: str) -> str:
        return self.words.get(message, message)


@pytest.mark.parametrize(
    ("english", "french", "sent"),
    [
        ("opponent", "L'Adversaire", "l'adversaire"),  # lowered, apostrophe kept
        ("settings", "Réglages", "réglages"),
        ("idle_minutes", "minutes d'inactivité", "minutes-d'inactivité"),
        ("theme", "thème !", None),  # "!" is refused by Discord: the English name stays
    ],
)
def test_a_french_name_discord_accepts_is_kept(
    monkeypatch: pytest.MonkeyPatch, english: str, french: str, sent: str | None
) -> None:
    monkeypatch.setattr(translator, "catalogue", lambda language: _Catalogue({english: french}))
    assert translate_name(english, "option", "fr") == sent
