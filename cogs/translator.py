"""Command names, options, choices and descriptions in the picker's language.

discord.py asks an :class:`app_commands.Translator` for every name and description of the
command tree, in every Discord locale, when it syncs; Discord then shows French users the
French words by itself. The words come from the same gettext catalogues as everything else
(:mod:`bot.i18n`):

- descriptions are ordinary messages, marked where they are written (``locale(_("..."))``
  in :mod:`cogs.backgammon`);
- names (commands, options, choices, context menus) are looked up with a context
  (``command``, ``option``, ``choice``, ``menu``): the same English word may name a command
  and mean something else in a sentence ("play"). They are marked below with
  :func:`pgettext`, which Babel extracts by default (``msgctxt``).

A name Discord would refuse (punctuation other than "-", "_" and "'", too long) is never
sent: the English name stays; capitals are lowered and spaces become "-", as Discord
wants. May import: discord and :mod:`bot.i18n`.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.i18n import SOURCE_LANGUAGE, Text, catalogue, language_of, say

Location = app_commands.TranslationContextLocation

# Discord's rule for a chat command's or option's name,
# ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, lowercase where the script has case:
# letters and digits of any script, "-", "_", the apostrophe ("l'adversaire"), and the
# Devanagari and Thai scripts whole, vowel signs included (marks, not letters). Python's
# ``\w`` is letters, digits and "_".
_DEVANAGARI = "\u0900-\u0950\u0955-\u0963\u0966-\u097f\ua8e0-\ua8ff\U00011b00-\U00011b09"
_THAI = "\u0e01-\u0e3a\u0e40-\u0e5b"
NAME_RULE = re.compile(rf"^[-'\w{_DEVANAGARI}{_THAI}]{{1,32}}$")
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 100
MENU_LIMIT = 32  # a context menu command's name: any words, 1-32 characters

# The context of each kind of name in the catalogue.
CONTEXTS: dict[Location, str] = {
    Location.command_name: "command",
    Location.group_name: "command",
    Location.parameter_name: "option",
    Location.choice_name: "choice",
}


def pgettext(context: str, name: str) -> str:
    """Mark a name for the catalogue under ``context``; the English name is returned."""
    return name


def locale(text: Text) -> app_commands.locale_str:
    """A description marked with ``_``, as discord.py wants it (translated at sync)."""
    return app_commands.locale_str(text.msgid)


# Every name in the command tree, marked for extraction (a test keeps this list whole).
NAMES = (
    pgettext("command", "backgammon"),
    pgettext("command", "challenge"),
    pgettext("command", "play"),
    pgettext("command", "hint"),
    pgettext("command", "analyze"),
    pgettext("command", "roll"),
    pgettext("command", "move"),
    pgettext("command", "double"),
    pgettext("command", "take"),
    pgettext("command", "drop"),
    pgettext("command", "resign"),
    pgettext("command", "claim"),
    pgettext("command", "cancel"),
    pgettext("command", "board"),
    pgettext("command", "history"),
    pgettext("command", "stats"),
    pgettext("command", "leaderboard"),
    pgettext("command", "verify"),
    pgettext("command", "dice"),
    pgettext("command", "games"),
    pgettext("command", "settings"),
    pgettext("command", "export"),
    pgettext("command", "help"),
    pgettext("command", "play-here"),
    pgettext("command", "share"),
    pgettext("command", "position"),
    pgettext("option", "opponent"),
    pgettext("option", "length"),
    pgettext("option", "cube"),
    pgettext("option", "rated"),
    pgettext("option", "autoplay"),
    pgettext("option", "level"),
    pgettext("option", "play"),
    pgettext("option", "kind"),
    pgettext("option", "user"),
    pgettext("option", "secret"),
    pgettext("option", "public"),
    pgettext("option", "notify"),
    pgettext("option", "idle_minutes"),
    pgettext("option", "board"),
    pgettext("option", "theme"),
    pgettext("option", "threads"),
    pgettext("option", "language"),
    pgettext("option", "match"),
    pgettext("option", "format"),
    pgettext("option", "claim"),
    pgettext("option", "puzzles"),
    pgettext("option", "stop"),
    pgettext("option", "web_links"),
    pgettext("option", "web_leaderboard"),
    pgettext("option", "id"),
    pgettext("option", "dice"),
    pgettext("option", "sort"),
    pgettext("choice", "beginner"),
    pgettext("choice", "intermediate"),
    pgettext("choice", "advanced"),
    pgettext("choice", "expert"),
    pgettext("choice", "world-class"),
    pgettext("choice", "single"),
    pgettext("choice", "gammon"),
    pgettext("choice", "backgammon"),
    pgettext("choice", "on"),
    pgettext("choice", "off"),
    pgettext("choice", "idle"),
    pgettext("choice", "right"),
    pgettext("choice", "left"),
    pgettext("choice", "classic"),
    pgettext("choice", "dark"),
    pgettext("choice", "the server's Discord language"),
    pgettext("choice", "English"),
    pgettext("choice", "Français"),
    pgettext("choice", "mat"),
    pgettext("choice", "sgf"),
    pgettext("choice", "match"),
    pgettext("choice", "game"),
    pgettext("choice", "link"),
    pgettext("choice", "members"),
    pgettext("choice", "public"),
    pgettext("command", "tournament"),
    pgettext("command", "create"),
    pgettext("command", "join"),
    pgettext("command", "leave"),
    pgettext("command", "check_in"),
    pgettext("command", "start"),
    pgettext("command", "standings"),
    pgettext("command", "pause"),
    pgettext("command", "extend"),
    pgettext("command", "decide"),
    pgettext("command", "remove"),
    pgettext("command", "directors"),
    pgettext("command", "ladder"),
    pgettext("command", "replace"),
    pgettext("option", "by"),
    pgettext("option", "start_in_hours"),
    pgettext("option", "name"),
    pgettext("option", "lengths"),
    pgettext("option", "pace"),
    pgettext("option", "hours"),
    pgettext("option", "seeding"),
    pgettext("option", "consolation"),
    pgettext("option", "rounds"),
    pgettext("option", "check_in"),
    pgettext("option", "max_players"),
    pgettext("option", "tournament"),
    pgettext("option", "player"),
    pgettext("option", "winner"),
    pgettext("option", "reason"),
    pgettext("option", "role"),
    pgettext("choice", "knockout"),
    pgettext("choice", "swiss"),
    pgettext("choice", "round_robin"),
    pgettext("choice", "correspondence"),
    pgettext("choice", "live"),
    pgettext("choice", "random"),
    pgettext("choice", "rating"),
    pgettext("choice", "pr"),
    pgettext("menu", "Challenge to backgammon"),
    pgettext("menu", "Analyse this position"),
)


def translate_name(name: str, context: str, language: str) -> str | None:
    """A name's translation in ``language`` that Discord accepts, or None (keep English)."""
    if language == SOURCE_LANGUAGE:
        return None
    words = catalogue(language).pgettext(context, name)
    if words == name:
        return None
    if context == "choice":  # a choice's name is shown as it is: any words, 1-100
        return words[:CHOICE_LIMIT] or None
    if context == "menu":  # a context menu's name, as it is, if it fits
        return words if 1 <= len(words) <= MENU_LIMIT else None
    words = words.strip().lower().replace(" ", "-")
    return words if NAME_RULE.fullmatch(words) else None


def translate_description(message: str, language: str) -> str | None:
    """A description's translation in ``language`` (at most 100 characters), or None."""
    if language == SOURCE_LANGUAGE:
        return None
    words = say(Text(message), language)
    if words == message:
        return None
    return words[:DESCRIPTION_LIMIT]


class CommandTranslator(app_commands.Translator):
    """Gives discord.py the catalogue's words for each locale we have a catalogue for."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if language == SOURCE_LANGUAGE:
            return None
        if isinstance(context.data, app_commands.ContextMenu):  # "Apps > ..." on a person
            return translate_name(string.message, "menu", language)
        name_context = CONTEXTS.get(context.location)
        if name_context is not None:
            return translate_name(string.message, name_context, language)
        return translate_description(string.message, language)


__all__ = [
    "NAMES",
    "CommandTranslator",
    "locale",
    "pgettext",
    "translate_description",
    "translate_name",
]
