"""Discord's own limits on what a bot sends (embeds, components, select options, modals,
autocomplete choices, commands and their options and localizations, a global command's
installation and interaction contexts against the app's), beyond what the OpenAPI
description says (``discord_contract``).

Why: a limit the fake lets through is a bug found in production instead of in a test; each
check answers Discord's 400 (``Invalid Form Body``). Imports the fake's numbers, the wire
format and the component walk.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence, Set
from typing import Any

from tests.e2e.fake_discord.constants import (
    COMMAND_MESSAGE,
    COMMAND_USER,
    COMPONENT_ACTION_ROW,
    COMPONENT_BUTTON,
    COMPONENT_STRING_SELECT,
    COMPONENT_TEXT_INPUT,
    CONTEXT_PRIVATE_CHANNEL,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    SELECT_TYPES,
    USER_INSTALL,
)
from tests.e2e.fake_discord.recorded import walk_components
from tests.e2e.fake_discord.wire import form_error

_COMMAND_NAME_RE = re.compile(
    r"[-_'\w\u0900-\u0950\u0955-\u0963\u0966-\u097f\ua8e0-\ua8ff\u0e01-\u0e3a\u0e40-\u0e5b]{1,32}"
)  # Discord's: [-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]
# The locales Discord knows (https://discord.com/developers/docs/reference#locales):
# localization keys must be one of them.
DISCORD_LOCALES = frozenset(
    {
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    }
)


def validate_embeds(embeds: Sequence[Mapping[str, Any]]) -> None:
    if len(embeds) > 10:
        raise form_error("embeds", "Must be 10 or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        limits = {"title": 256, "description": 4096}
        for key, lim in limits.items():
            n = len(e.get(key) or "")
            total += n
            if n > lim:
                raise form_error(f"embeds.{i}.{key}", f"Must be {lim} or fewer in length.")
        fields = e.get("fields") or []
        if len(fields) > 25:
            raise form_error(f"embeds.{i}.fields", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            name, value = str(f.get("name") or ""), str(f.get("value") or "")
            if not name or len(name) > 256:
                raise form_error(f"embeds.{i}.fields.{j}.name", "Must be 1-256 in length.")
            if not value or len(value) > 1024:
                raise form_error(f"embeds.{i}.fields.{j}.value", "Must be 1-1024 in length.")
            total += len(name) + len(value)
        footer = (e.get("footer") or {}).get("text") or ""
        author = (e.get("author") or {}).get("name") or ""
        if len(footer) > 2048 or len(author) > 256:
            raise form_error(f"embeds.{i}", "footer/author text too long")
        total += len(footer) + len(author)
    if total > 6000:
        raise form_error("embeds", "Embed size exceeds maximum size of 6000")


def validate_components(components: Sequence[Mapping[str, Any]], *, v2: bool) -> None:
    if not isinstance(components, list):
        raise form_error("components", "Must be an array.")
    seen: set[str] = set()
    if not v2:
        if len(components) > 5:
            raise form_error("components", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != COMPONENT_ACTION_ROW:
                raise form_error(f"components.{i}.type", "Top level must be action rows.")
            children = row.get("components") or []
            if not children:
                raise form_error(f"components.{i}.components", "Must be 1 or more in length.")
            kinds = {c.get("type") for c in children}
            if COMPONENT_BUTTON in kinds and len(kinds) > 1:
                raise form_error(f"components.{i}", "Cannot mix buttons and selects in a row.")
            if COMPONENT_BUTTON in kinds and len(children) > 5:
                raise form_error(f"components.{i}.components", "Must be 5 or fewer in length.")
            if kinds & set(SELECT_TYPES) and len(children) != 1:
                raise form_error(f"components.{i}.components", "A select must be alone in a row.")
    elif sum(1 for _ in walk_components(components)) > 40:
        raise form_error("components", "Must be 40 or fewer components in total.")
    for c in walk_components(components):
        t = c.get("type")
        cid = c.get("custom_id")
        if t == COMPONENT_BUTTON:
            style = c.get("style")
            if style == 5:
                if not c.get("url") or cid:
                    raise form_error("components", "Link buttons need a url and no custom_id.")
            elif style != 6 and not cid:
                raise form_error("components", "Non-link buttons need a custom_id.")
            label = c.get("label")
            if label is not None and len(label) > 80:
                raise form_error("components", f"Button label must be 80 or fewer: {label!r}")
            if not label and not c.get("emoji"):
                raise form_error("components", "Button needs a label or an emoji.")
        elif t in SELECT_TYPES:
            if not cid:
                raise form_error("components", "Selects need a custom_id.")
            opts = c.get("options") or []
            if t == COMPONENT_STRING_SELECT and not 1 <= len(opts) <= 25:
                raise form_error("components", "String select needs 1-25 options.")
            if len(c.get("placeholder") or "") > 150:
                raise form_error("components", "Select placeholder must be 150 or fewer.")
            if t == COMPONENT_STRING_SELECT:
                _validate_select_options(opts, c)
        if cid is not None:
            if not 1 <= len(cid) <= 100:
                raise form_error("components", f"custom_id must be 1-100 in length: {cid!r}")
            if cid in seen:
                raise form_error("components", f"Component custom id cannot be duplicated: {cid}")
            seen.add(cid)


def _validate_select_options(
    options: Sequence[Mapping[str, Any]], select: Mapping[str, Any]
) -> None:
    """A string select's options as Discord documents them (Select Option Structure): label
    and value 1-100 characters, description up to 100, values distinct, no more defaults
    than ``max_values`` allows."""
    values: set[str] = set()
    for i, option in enumerate(options):
        where = f"components.options.{i}"
        label, value = option.get("label"), option.get("value")
        if not isinstance(label, str) or not 1 <= len(label) <= 100:
            raise form_error(f"{where}.label", "Must be between 1 and 100 in length.")
        if not isinstance(value, str) or not 1 <= len(value) <= 100:
            raise form_error(f"{where}.value", "Must be between 1 and 100 in length.")
        if len(option.get("description") or "") > 100:
            raise form_error(f"{where}.description", "Must be 100 or fewer in length.")
        if value in values:
            raise form_error(f"{where}.value", f"Select option values must be unique: {value}")
        values.add(value)
    defaults = sum(1 for option in options if option.get("default"))
    if defaults > int(select.get("max_values") or 1):
        raise form_error("components.options", "More default options than max_values.")


def validate_modal(data: Mapping[str, Any]) -> None:
    title, cid = data.get("title") or "", data.get("custom_id") or ""
    if not 1 <= len(title) <= 45:
        raise form_error("data.title", "Must be 1-45 in length.")
    if not 1 <= len(cid) <= 100:
        raise form_error("data.custom_id", "Must be 1-100 in length.")
    comps = data.get("components") or []
    if not 1 <= len(comps) <= 5:
        raise form_error("data.components", "Must be 1-5 in length.")
    seen: set[str] = set()
    for c in walk_components(comps):
        if c.get("type") == COMPONENT_TEXT_INPUT:
            tid = c.get("custom_id") or ""
            if not 1 <= len(tid) <= 100 or tid in seen:
                raise form_error("data.components", f"bad/duplicate text input id {tid!r}")
            seen.add(tid)
            if len(c.get("label") or "") > 45 or len(c.get("value") or "") > 4000:
                raise form_error("data.components", "text input label/value too long")


def validate_choices(choices: Any) -> None:
    if not isinstance(choices, list) or len(choices) > 25:
        raise form_error("data.choices", "Must be 25 or fewer in length.")
    for i, ch in enumerate(choices):
        name = ch.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise form_error(f"data.choices.{i}.name", "Must be 1-100 in length.")
        value = ch.get("value")
        if isinstance(value, str) and len(value) > 100:
            raise form_error(f"data.choices.{i}.value", "Must be 100 or fewer in length.")
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            raise form_error(f"data.choices.{i}.value", "Must be a string or number.")


def validate_command(cmd: Mapping[str, Any]) -> None:
    ctype = cmd.get("type", 1)
    name = cmd.get("name") or ""
    if ctype == 1:
        if not _COMMAND_NAME_RE.fullmatch(name) or name != name.lower():
            raise form_error("name", f"Invalid chat input command name {name!r}")
        if not 1 <= len(cmd.get("description") or "") <= 100:
            raise form_error("description", f"Command {name!r} description must be 1-100 long")
    else:
        if not 1 <= len(name) <= 32:
            raise form_error("name", f"Invalid context menu name {name!r}")
        # application-commands.mdx, User Commands and Message Commands: "The description
        # field is not allowed" (Discord itself stores ""); "options can only be set for
        # application commands of type CHAT_INPUT".
        if ctype in (COMMAND_USER, COMMAND_MESSAGE) and cmd.get("description"):
            raise form_error("description", f"Context menu {name!r} takes no description")
        if ctype in (COMMAND_USER, COMMAND_MESSAGE) and cmd.get("options"):
            raise form_error("options", f"Context menu {name!r} takes no options")
    _validate_localizations(cmd, name, name_rule=ctype == 1)
    _validate_options(cmd.get("options") or [], name)


def validate_command_installs(cmd: Mapping[str, Any], app_integration_types: Set[int]) -> None:
    """A global command's ``integration_types`` and ``contexts`` as Discord checks them
    against each other and against the app: every installation context it names must be
    "already supported on the application-level" (application-commands.mdx, Installation
    Context), and "the PRIVATE_CHANNEL interaction context can only be included in
    contexts if USER_INSTALL is included in integration_types" (tutorials/developing-a-user-
    installable-app.mdx). A body without ``integration_types`` gets the app's own
    (``Commands.default_integration_types``)."""
    name = cmd.get("name")
    raw_types = cmd.get("integration_types")
    types = set(app_integration_types) if raw_types is None else {int(t) for t in raw_types}
    unsupported = sorted(types - set(app_integration_types))
    if unsupported:
        raise form_error(
            "integration_types",
            f"Command {name!r}: installation contexts {unsupported} are not supported by the "
            f"app (it supports {sorted(app_integration_types)})",
        )
    contexts = cmd.get("contexts")
    if contexts is not None and CONTEXT_PRIVATE_CHANNEL in contexts and USER_INSTALL not in types:
        raise form_error(
            "contexts",
            f"Command {name!r}: PRIVATE_CHANNEL (2) in contexts needs USER_INSTALL (1) in "
            "integration_types",
        )


def _validate_localizations(item: Mapping[str, Any], where: str, *, name_rule: bool) -> None:
    """A command's or option's translated names and descriptions, as Discord checks them."""
    for locale, words in (item.get("name_localizations") or {}).items():
        if locale not in DISCORD_LOCALES:
            raise form_error("name_localizations", f"{where}: unknown locale {locale!r}")
        if name_rule and (not _COMMAND_NAME_RE.fullmatch(words) or words != words.lower()):
            raise form_error("name_localizations", f"{where}: bad {locale} name {words!r}")
    for locale, words in (item.get("description_localizations") or {}).items():
        if locale not in DISCORD_LOCALES:
            raise form_error("description_localizations", f"{where}: unknown locale {locale!r}")
        if not 1 <= len(words) <= 100:
            raise form_error("description_localizations", f"{where}: {locale} 1-100 long")


def unique_localized_names(items: Sequence[Mapping[str, Any]], where: str) -> None:
    """No two siblings may share a name in any locale (their own or a translated one)."""
    locales = {loc for item in items for loc in item.get("name_localizations") or {}}
    for locale in locales:
        seen: set[str | None] = set()
        for item in items:
            words = (item.get("name_localizations") or {}).get(locale) or item.get("name")
            if words in seen:
                raise form_error("name_localizations", f"{where}: {locale} name {words!r} twice")
            seen.add(words)


def _validate_options(options: Sequence[Mapping[str, Any]], where: str) -> None:
    if len(options) > 25:
        raise form_error("options", f"{where}: at most 25 options")
    seen_optional = False
    names: set[str] = set()
    unique_localized_names(options, where)
    for opt in options:
        name = opt.get("name") or ""
        if not _COMMAND_NAME_RE.fullmatch(name) or name != name.lower() or name in names:
            raise form_error("options", f"{where}: bad or duplicate option name {name!r}")
        names.add(name)
        if not 1 <= len(opt.get("description") or "") <= 100:
            raise form_error("options", f"{where}.{name}: description must be 1-100 long")
        _validate_localizations(opt, f"{where}.{name}", name_rule=True)
        if opt.get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            _validate_options(opt.get("options") or [], f"{where} {name}")
            continue
        if opt.get("required"):
            if seen_optional:
                raise form_error("options", f"{where}: required options must come first")
        else:
            seen_optional = True
        if len(opt.get("choices") or []) > 25:
            raise form_error("options", f"{where}.{name}: at most 25 choices")
        for choice in opt.get("choices") or []:
            for locale, words in (choice.get("name_localizations") or {}).items():
                if locale not in DISCORD_LOCALES or not 1 <= len(words) <= 100:
                    raise form_error("options", f"{where}.{name}: bad choice name {words!r}")
        if opt.get("choices") and opt.get("autocomplete"):
            raise form_error("options", f"{where}.{name}: choices and autocomplete conflict")
