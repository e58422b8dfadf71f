"""Discord's HTTP contract, as the fake Discord enforces it on every request body.

Why: a fake that accepts what Discord refuses lets a bot pass every test and fail at its first
real start (issue 25: a command option bounded at 2^62 was refused by Discord with 400 50035, and
the fake had accepted it 64 times). So the fake checks each body the bot sends against Discord's
own published OpenAPI description (``discord_api/openapi.json``, vendored with its licence) and
against the documented limits that schema does not encode. Where the docs and the spec disagree
the docs win (``discord_api/README.md``): content <= 2000, a string choice value <= 100. One
place the spec is stricter than Discord: it types snowflakes as strings only, while Discord
takes integers (and discord.py sends them), so an integer snowflake passes.

``check_request(method, path, body)`` raises ``ContractViolation`` (status 400, code 50035, and
Discord's nested ``errors`` object: ``{"data": {"content": {"_errors": [{"code", "message"}]}}}``)
or returns quietly. Paths are the request's own (``/api/v10/...``); the operation is found by
method and path template, its validator built once and cached (the spec is 1.2 MB: loading and
preparing it takes ~0.4 s once per test run; Discord's tagged unions are rewritten so a body
is checked against its own kind only, ~3 ms for a message with an embed and a row of buttons).
Multipart bodies are checked through their ``payload_json``, which is what the caller passes.

This module imports only the standard library, ``jsonschema`` and ``referencing``; it knows
nothing of the fake's state.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).parent / "discord_api" / "openapi.json"
_SPEC_URI = "urn:discord-openapi"
_METHODS = ("get", "put", "post", "patch", "delete")

# Documented limits the schema does not encode (discord-api-docs; ``discord_api/README.md``).
MAX_SAFE_INTEGER = 2**53 - 1  # INTEGER options, their choices, min_value and max_value
MAX_NUMBER = 2**53  # NUMBER options
COMMAND_TOTAL_CHARS = 8000
MAX_CHOICES = 25
MAX_OPTIONS = 25
MAX_CHOICE_VALUE = 100  # a string choice's value (the spec says 6000)
MAX_CONTENT = 2000  # message content (the spec says 4000)
MAX_ACTION_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_EMBEDS = 10
MAX_EMBED_CHARS = 6000

OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP, OPT_INTEGER, OPT_NUMBER = 1, 2, 4, 10
_ACTION_ROW, _BUTTON, _STRING_SELECT = 1, 2, 3
_MESSAGE_CALLBACKS = frozenset({4, 7})  # CHANNEL_MESSAGE_WITH_SOURCE, UPDATE_MESSAGE


class ContractViolation(Exception):
    """A body Discord would refuse: ``status`` 400, ``code`` 50035 and Discord's ``errors``."""

    status = 400
    code = 50035
    message = "Invalid Form Body"

    def __init__(self, where: Sequence[str | int], error_code: str, text: str) -> None:
        super().__init__(f"{'.'.join(map(str, where)) or '_root'}: {error_code}: {text}")
        self.where = tuple(where)
        self.error_code = error_code
        self.text = text

    @property
    def errors(self) -> dict[str, Any]:
        """Discord's nested error object: one key per path step, ``_errors`` at the leaf."""
        leaf: dict[str, Any] = {"_errors": [{"code": self.error_code, "message": self.text}]}
        for step in reversed(self.where or ("_root",)):
            leaf = {str(step): leaf}
        return leaf

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "errors": self.errors, "message": self.message}


# ---------------------------------------------------------------------------------------------
# The spec: operations and their cached validators
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Operation:
    method: str
    template: str
    pattern: re.Pattern[str]
    schema_pointer: str | None  # JSON pointer to the JSON request body schema, if any


@functools.cache
def _spec() -> dict[str, Any]:
    with SPEC_PATH.open(encoding="utf-8") as f:
        return json.load(f)


# Snowflakes: the spec types them as strings only, but Discord takes a JSON integer too
# (its docs only promise that it *returns* strings), and discord.py sends integers: an
# attachment's id is its index, a DM's recipient_id an int. A non-negative integer passes.
_SNOWFLAKE = {
    "anyOf": [
        {"type": "string", "pattern": "^(0|[1-9][0-9]*)$"},
        {"type": "integer", "minimum": 0, "maximum": 2**64 - 1},
    ]
}


@functools.cache
def _registry() -> Registry:
    spec = copy.deepcopy(_spec())
    schemas = spec["components"]["schemas"]
    schemas["SnowflakeType"] = _SNOWFLAKE
    _dispatch_unions(spec, schemas)
    resource = Resource.from_contents(spec, default_specification=DRAFT202012)
    return Registry().with_resource(_SPEC_URI, resource)


def _tags(branch: Any, schemas: Mapping[str, Any]) -> list[Any] | None:
    """The ``type`` values an object schema (or a ``$ref`` to one) requires, if it has any."""
    if isinstance(branch, Mapping) and set(branch) == {"$ref"}:
        ref = str(branch["$ref"])
        if not ref.startswith("#/components/schemas/"):
            return None
        branch = schemas.get(ref.rsplit("/", 1)[1])
    if not isinstance(branch, Mapping) or branch.get("type") != "object":
        return None
    if "type" not in (branch.get("required") or ()):
        return None
    tag = (branch.get("properties") or {}).get("type") or {}
    values = tag.get("enum") or ([tag["const"]] if "const" in tag else None)
    return list(values) if values else None


def _dispatch_unions(node: Any, schemas: Mapping[str, Any]) -> None:
    """Rewrite unions tagged by ``type`` so a body is checked against its own kind only.

    Discord's unions (callback kinds, component kinds...) are ``anyOf``/``oneOf`` of object
    schemas each requiring its own ``type`` values, and its enumerations unions of named
    constants (checked as one ``enum``). Checked as written, every message body
    is tried against every kind of every component: ~7 ms a body, 10 % of the e2e suite. As
    ``if type in tags then branch`` for each branch (tags disjoint, so it accepts exactly
    what the union does), only the matching branch is walked, and an error names the field
    of the kind the body is.
    """
    if isinstance(node, list):
        for item in node:
            _dispatch_unions(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _dispatch_unions(value, schemas)
    for keyword in ("anyOf", "oneOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list) or len(branches) < 2:
            continue
        consts = [b.get("const") for b in branches if isinstance(b, Mapping) and "const" in b]
        if len(consts) == len(branches) and all(
            set(b) <= {"const", "title", "description"} for b in branches
        ):
            # An enumeration spelled as a union of named constants: one ``enum`` check.
            del node[keyword]
            node["enum"] = consts
            continue
        tags = [_tags(branch, schemas) for branch in branches]
        flat = [v for values in tags if values for v in values]
        if any(t is None for t in tags) or len(flat) != len(set(map(repr, flat))):
            continue
        del node[keyword]
        rules: list[Any] = [{"type": "object", "required": ["type"]}]
        rules.append({"properties": {"type": {"enum": flat}}})
        rules += [
            {"if": {"properties": {"type": {"enum": values}}}, "then": branch}
            for values, branch in zip(tags, branches, strict=True)
        ]
        node["allOf"] = [*node.get("allOf", []), *rules]


def _pointer_escape(step: str) -> str:
    return step.replace("~", "~0").replace("/", "~1")


@functools.cache
def operations() -> tuple[Operation, ...]:
    """Every operation, literal paths before templated ones (``@original`` before an id)."""
    ops: list[tuple[tuple[int, int], Operation]] = []
    for template, item in _spec()["paths"].items():
        regex = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        params = template.count("{")
        for method in _METHODS:
            op = item.get(method)
            if op is None:
                continue
            content = (op.get("requestBody") or {}).get("content") or {}
            pointer = None
            if "application/json" in content:
                where = f"#/paths/{_pointer_escape(template)}/{method}/requestBody/content"
                pointer = where + "/application~1json/schema"
            ops.append(
                (
                    (params, -len(template)),
                    Operation(method.upper(), template, re.compile(regex), pointer),
                )
            )
    return tuple(op for _, op in sorted(ops, key=lambda pair: pair[0]))


def find_operation(method: str, path: str) -> Operation | None:
    """The operation for ``method`` and a request path (with or without ``/api/v10``)."""
    path = re.sub(r"^/api/v\d+", "", path).rstrip("/") or "/"
    return _find(method.upper(), path)


@functools.lru_cache(maxsize=4096)
def _find(method: str, path: str) -> Operation | None:
    return next(
        (op for op in operations() if op.method == method and op.pattern.fullmatch(path)), None
    )


@functools.cache
def _validator(pointer: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": _SPEC_URI + pointer}, registry=_registry())


# ---------------------------------------------------------------------------------------------
# Schema errors in Discord's words
# ---------------------------------------------------------------------------------------------

_DISCRIMINATORS = ("enum", "const")


def _branch_fits(errors: Sequence[ValidationError], depth: int) -> bool:
    """False when a union branch is plainly another kind (wrong ``type`` tag or JSON type)."""
    for err in errors:
        rel = list(err.absolute_path)[depth:]
        if err.validator in _DISCRIMINATORS and rel == ["type"]:
            return False
        if err.validator == "type" and not rel:
            return False
    return True


def _pick(errors: Sequence[ValidationError]) -> ValidationError:
    """The error that explains a failure: inside unions, follow the branch the body meant.

    (``jsonschema``'s ``best_match`` guesses the branch by depth and would blame a
    subcommand option for not being a subcommand.)
    """
    error = max(errors, key=lambda e: len(e.absolute_path))
    while error.context:
        depth = len(error.absolute_path)
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [errs for errs in branches.values() if _branch_fits(errs, depth)]
        if not fitting:
            return error
        chosen = min(fitting, key=len)
        error = max(chosen, key=lambda e: len(e.absolute_path))
    return error


def _describe(error: ValidationError) -> tuple[str, str]:
    kind, value = error.validator, error.validator_value
    if kind == "maxLength":
        return "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length."
    if kind == "minLength":
        return "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length."
    if kind == "maxItems":
        return "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length."
    if kind == "minItems":
        return "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length."
    if kind == "maximum":
        return "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}."
    if kind == "minimum":
        return "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {value}."
    if kind == "required":
        return "BASE_TYPE_REQUIRED", "This field is required"
    if kind in ("enum", "const"):
        return "BASE_TYPE_CHOICES", f"Value must be one of {value!r}."
    return "BASE_TYPE_INVALID", error.message[:300]


def _schema_check(pointer: str, body: Any) -> None:
    errors = list(_validator(pointer).iter_errors(body))
    if not errors:
        return
    error = _pick(errors)
    where = list(error.absolute_path)
    if error.validator == "required":
        missing = re.match(r"'([^']+)' is a required property", error.message)
        if missing:
            where.append(missing.group(1))
    raise ContractViolation(where, *_describe(error))


# ---------------------------------------------------------------------------------------------
# Documented limits the schema leaves out
# ---------------------------------------------------------------------------------------------


def _fail(where: Iterable[str | int], code: str, text: str) -> ContractViolation:
    return ContractViolation(list(where), code, text)


def _longest(item: Mapping[str, Any], key: str) -> int:
    """A field's cost toward the 8000: the longest of its default text and localizations."""
    texts = [str(item.get(key) or "")]
    texts += [str(t) for t in (item.get(f"{key}_localizations") or {}).values()]
    return max(len(t) for t in texts)


def _check_bound(value: Any, bound: int, where: list[str | int]) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    if value > bound:
        raise _fail(where, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {bound}.")
    if value < -bound:
        raise _fail(
            where, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {-bound}."
        )


def _check_options(options: Sequence[Mapping[str, Any]], where: list[str | int]) -> int:
    """Option limits, recursively; returns the options' characters toward the 8000."""
    if len(options) > MAX_OPTIONS:
        raise _fail(
            [*where, "options"],
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {MAX_OPTIONS} or fewer in length.",
        )
    total = 0
    for i, opt in enumerate(options):
        at: list[str | int] = [*where, "options", i]
        total += _longest(opt, "name") + _longest(opt, "description")
        kind = opt.get("type")
        if kind in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            total += _check_options(opt.get("options") or [], at)
            continue
        bound = MAX_SAFE_INTEGER if kind == OPT_INTEGER else MAX_NUMBER
        if kind in (OPT_INTEGER, OPT_NUMBER):
            for key in ("min_value", "max_value"):
                _check_bound(opt.get(key), bound, [*at, key])
        choices = opt.get("choices") or []
        if len(choices) > MAX_CHOICES:
            raise _fail(
                [*at, "choices"],
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CHOICES} or fewer in length.",
            )
        for j, choice in enumerate(choices):
            value = choice.get("value")
            if kind in (OPT_INTEGER, OPT_NUMBER):
                _check_bound(value, bound, [*at, "choices", j, "value"])
            elif isinstance(value, str) and len(value) > MAX_CHOICE_VALUE:
                raise _fail(
                    [*at, "choices", j, "value"],
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_CHOICE_VALUE} or fewer in length.",
                )
            total += _longest(choice, "name") + len(str(value if value is not None else ""))
    return total


def check_command(command: Mapping[str, Any], where: Sequence[str | int] = ()) -> None:
    """One application command's documented limits (bounds, counts, the 8000 characters)."""
    base = list(where)
    total = _longest(command, "name") + _longest(command, "description")
    total += _check_options(command.get("options") or [], base)
    if int(command.get("type") or 1) == 1 and total > COMMAND_TOTAL_CHARS:
        raise _fail(
            base or ["_root"],
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({COMMAND_TOTAL_CHARS}): {total} characters.",
        )


def _walk(components: Sequence[Mapping[str, Any]], where: list[str | int]) -> Iterator[Any]:
    for i, comp in enumerate(components):
        if not isinstance(comp, Mapping):
            continue
        at = [*where, i]
        yield comp, at
        for key in ("components", "accessory"):
            inner = comp.get(key)
            if isinstance(inner, Mapping):
                yield from _walk([inner], [*at, key])
            elif isinstance(inner, list):
                yield from _walk(inner, [*at, key])


def _check_components(
    components: Sequence[Mapping[str, Any]], where: list[str | int], v2: bool
) -> None:
    if not v2 and len(components) > MAX_ACTION_ROWS:
        raise _fail(where, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_ACTION_ROWS} or fewer in length.")
    for comp, at in _walk(components, where):
        kind = comp.get("type")
        if kind == _ACTION_ROW:
            buttons = [c for c in comp.get("components") or [] if c.get("type") == _BUTTON]
            if len(buttons) > MAX_BUTTONS_PER_ROW:
                raise _fail(
                    [*at, "components"],
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_BUTTONS_PER_ROW} or fewer in length.",
                )
        if kind == _STRING_SELECT and len(comp.get("options") or []) > MAX_SELECT_OPTIONS:
            raise _fail(
                [*at, "options"],
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_SELECT_OPTIONS} or fewer in length.",
            )
        cid = comp.get("custom_id")
        if cid is not None and not 1 <= len(str(cid)) <= 100:
            raise _fail(
                [*at, "custom_id"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
            )


def _embed_chars(embed: Mapping[str, Any]) -> int:
    total = len(str(embed.get("title") or "")) + len(str(embed.get("description") or ""))
    for fld in embed.get("fields") or []:
        total += len(str(fld.get("name") or "")) + len(str(fld.get("value") or ""))
    total += len(str((embed.get("footer") or {}).get("text") or ""))
    total += len(str((embed.get("author") or {}).get("name") or ""))
    return total


def check_message(message: Mapping[str, Any], where: Sequence[str | int] = ()) -> None:
    """A message body's documented limits (content, embeds, components)."""
    base = list(where)
    content = message.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        raise _fail(
            [*base, "content"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length."
        )
    embeds = message.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise _fail(
            [*base, "embeds"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length."
        )
    if sum(_embed_chars(e) for e in embeds if isinstance(e, Mapping)) > MAX_EMBED_CHARS:
        raise _fail(
            [*base, "embeds"],
            "MAX_EMBED_SIZE_EXCEEDED",
            f"Embed size exceeds maximum size of {MAX_EMBED_CHARS}",
        )
    components = message.get("components")
    if isinstance(components, list):
        v2 = bool(int(message.get("flags") or 0) & (1 << 15))
        _check_components(components, [*base, "components"], v2)


def _check_limits(op: Operation, body: Any) -> None:
    template = op.template
    if template.endswith("/commands") and op.method == "PUT" and isinstance(body, list):
        for i, command in enumerate(body):
            if isinstance(command, Mapping):
                check_command(command, [i])
    elif re.search(r"/commands(/\{command_id\})?$", template) and isinstance(body, Mapping):
        check_command(body)
    elif template.endswith("/callback") and isinstance(body, Mapping):
        data = body.get("data")
        if body.get("type") in _MESSAGE_CALLBACKS and isinstance(data, Mapping):
            check_message(data, ["data"])
    elif (
        ("/messages" in template or template.startswith("/webhooks/"))
        and op.method in ("POST", "PATCH")
        and isinstance(body, Mapping)
    ):
        check_message(body)


def check_request(method: str, path: str, body: Any) -> None:
    """Raise ``ContractViolation`` if Discord would refuse ``body`` on ``method path``.

    Requests the spec does not describe, or that carry no JSON body schema, pass: the fake's
    routing answers unknown routes itself.
    """
    op = find_operation(method, path)
    if op is None or op.schema_pointer is None:
        return
    _schema_check(op.schema_pointer, body)
    _check_limits(op, body)


# ---------------------------------------------------------------------------------------------
# The Entry Point command (Activities)
# ---------------------------------------------------------------------------------------------

PRIMARY_ENTRY_POINT = 4  # application command type 4: launches the app's Activity


class EntryPointRemoved(ContractViolation):
    """A bulk overwrite of the global commands that leaves out the Entry Point command.

    Discord creates the Entry Point command (``type`` 4, "Launch") when Activities are
    enabled, and refuses any ``PUT /applications/{app}/commands`` whose list does not carry
    it: ``400 {"code": 50240, "message": "You cannot remove this app's Entry Point command
    in a bulk update operation"}`` (``developers/interactions/application-commands``, "Entry
    Point commands"; the error other libraries' registrars handle). A bot that syncs with
    discord.py's ``tree.sync()`` alone hits it as soon as the Activity is switched on.
    """

    code = 50240
    message = "You cannot remove this app's Entry Point command in a bulk update operation"

    @property
    def errors(self) -> dict[str, Any]:
        return {}  # Discord's answer has the code and message only


def check_bulk_overwrite(
    existing: Sequence[Mapping[str, Any]], payload: Sequence[Any], *, guild: bool
) -> None:
    """Raise if Discord would refuse this bulk overwrite of a command scope for what it
    removes: the global Entry Point command must stay (matched by id, or by type and name);
    Entry Point commands are global only, and an app has at most one."""
    entries = [
        c for c in payload if isinstance(c, Mapping) and c.get("type") == PRIMARY_ENTRY_POINT
    ]
    if entries and guild:
        raise _fail(
            ["0", "type"], "APPLICATION_COMMAND_INVALID", "Entry Point commands are global."
        )
    if len(entries) > 1:
        raise _fail(["_root"], "APPLICATION_COMMAND_INVALID", "Only one Entry Point command.")
    for old in existing:
        if old.get("type") != PRIMARY_ENTRY_POINT:
            continue
        kept = any(
            str(c.get("id")) == str(old.get("id")) or c.get("name") == old.get("name")
            for c in entries
        )
        if not kept:
            raise EntryPointRemoved((), "", "")
