"""Words for players in their language: lazy messages, rendered by gettext catalogues.

The session, the engine's error mapping and the presentation layer build :class:`Text`
values (a message id and its parameters: a fact still waiting for a language); only the
front end, which knows who reads the message, turns one into words with :func:`say`.

``_`` and ``N_`` are the markers Babel extracts (``pybabel extract -k _ -k N_:1,2``); the
catalogues live in ``bot/locales/<lang>/LC_MESSAGES/gammon.po`` with their compiled ``.mo``
beside them, so a fresh install needs nothing built. English is the source language: it
has no catalogue of its own.

Adding a language is adding one catalogue (``de`` here)::

    pybabel extract -F babel.cfg -k _ -k N_:1,2 -o bot/locales/gammon.pot .
    pybabel init -i bot/locales/gammon.pot -d bot/locales -D gammon -l de
    # translate bot/locales/de/LC_MESSAGES/gammon.po, then
    pybabel compile -d bot/locales -D gammon -l de
    # and add "de" to LANGUAGES (and DECIMAL_SEPARATORS if it writes 0,5)

Later extractions update it with ``pybabel update -i bot/locales/gammon.pot -d bot/locales
-D gammon --no-fuzzy-matching``; ``tests/test_i18n.py`` fails until every message is
translated and compiled.

Parameters are formatted with ``str.format`` by name, so translators may reorder them. A
parameter that is itself a :class:`Text` is rendered in the same language first; numbers
(floats) take the language's decimal separator (``0,5`` in French); anything else (names,
move notation) is shown as it is.
"""

from __future__ import annotations

import functools
import gettext
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

DOMAIN = "gammon"
LOCALE_DIR = Path(__file__).resolve().parent / "locales"
SOURCE_LANGUAGE = "en"
# Every language with a catalogue, source first, each by its own name (as its readers say it):
# the one list the commands' choices, the settings and the pages take theirs from.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "fr": "Français"}
LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_NAMES)
DECIMAL_SEPARATORS: Mapping[str, str] = {"fr": ","}  # where it is not "."


class LocaleValue(Protocol):
    """A Discord locale (``discord.Locale``) without importing discord: its ``value`` is
    the language code."""

    @property
    def value(self) -> str: ...


Language = str | LocaleValue | None  # a language code, a Discord locale, or none (English)


@dataclass(frozen=True, slots=True)
class Text:
    """A message waiting for a language: its id (the English source) and its parameters."""

    msgid: str
    params: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None  # the English plural form, for counted messages
    count: int | None = None  # which plural form to use

    def __str__(self) -> str:
        """The English words: for logs, tests and places with no reader's language."""
        return say(self, SOURCE_LANGUAGE)


def _(msgid: str, /, **params: object) -> Text:
    """Mark a message for translation; its ``{name}`` fields come from ``params``."""
    return Text(msgid, params)


def N_(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """Mark a counted message: ``N_("{n} point", "{n} points", n, n=n)``."""
    return Text(singular, params, plural, count)


def join(parts: Iterable[Text | str], sep: str = " ") -> Text:
    """Several messages as one (the sentences of a line, the lines of a page).

    Each part is rendered in the reader's language; ``sep`` stays as it is. The joined
    message has no words of its own, so it is never extracted nor translated.
    """
    items = list(parts)
    escaped = sep.replace("{", "{{").replace("}", "}}")
    template = escaped.join(f"{{p{index}}}" for index in range(len(items)))
    return Text(template, {f"p{index}": part for index, part in enumerate(items)})


def language_of(locale: object) -> str:
    """The catalogue for a Discord locale (``"fr"``, ``"en-GB"``, a ``discord.Locale``).

    Unknown or missing locales read English.
    """
    value = getattr(locale, "value", locale)
    if not isinstance(value, str) or not value:
        return SOURCE_LANGUAGE
    language = value.replace("_", "-").split("-")[0].lower()
    return language if language in LANGUAGES else SOURCE_LANGUAGE


@functools.cache
def catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of a language (English, or a missing file: the source text)."""
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)


def say(text: Text | str, language: Language = None) -> str:
    """The words of ``text`` in ``language`` (a language code or a Discord locale)."""
    if isinstance(text, str):
        return text
    if not text.msgid:
        return ""  # gettext would answer the empty id with the catalogue's header
    lang = language_of(language)
    words = catalogue(lang)
    if text.plural is not None and text.count is not None:
        template = words.ngettext(text.msgid, text.plural, text.count)
    else:
        template = words.gettext(text.msgid)
    if not text.params:
        return template
    values = {
        key: say(value, lang) if isinstance(value, Text) else value
        for key, value in text.params.items()
    }
    return _formatter(lang).vformat(template, (), values)


class _Numbers(string.Formatter):
    """``str.format``, writing the decimals of numbers the language's way (``0,5``)."""

    def __init__(self, separator: str) -> None:
        super().__init__()
        self.separator = separator

    def format_field(self, value: object, format_spec: str) -> str:
        text = super().format_field(value, format_spec)
        if self.separator != "." and isinstance(value, float):
            text = text.replace(".", self.separator)
        return text


@functools.cache
def _formatter(language: str) -> _Numbers:
    return _Numbers(DECIMAL_SEPARATORS.get(language, "."))


__all__ = [
    "DECIMAL_SEPARATORS",
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "LOCALE_DIR",
    "N_",
    "SOURCE_LANGUAGE",
    "Language",
    "LocaleValue",
    "Text",
    "_",
    "catalogue",
    "join",
    "language_of",
    "say",
]
