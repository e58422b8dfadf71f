"""The contract the fake Discord holds the bot to (issue 25), checked on bodies directly.

``discord_contract.check_request`` is what the fake runs on every request body; these tests
pin what it refuses (Discord's OpenAPI description and its documented limits, the docs
winning where the two disagree) and what it must accept, so the fake is neither kinder nor
harsher than Discord.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.discord_contract import (
    MAX_NUMBER,
    MAX_SAFE_INTEGER,
    ContractViolation,
    check_request,
    find_operation,
)

COMMANDS = "/api/v10/applications/1/guilds/2/commands"
CALLBACK = "/api/v10/interactions/3/tok/callback"
FOLLOWUP = "/api/v10/webhooks/1/tok"
CHANNEL = "/api/v10/channels/4/messages"


def command(*options: dict[str, Any], description: str = "A command") -> dict[str, Any]:
    return {"type": 1, "name": "game", "description": description, "options": list(options)}


def integer(name: str = "n", **extra: Any) -> dict[str, Any]:
    return {"type": 4, "name": name, "description": "a number", **extra}


def subcommand(*options: dict[str, Any], name: str = "sub") -> dict[str, Any]:
    return {"type": 1, "name": name, "description": "a subcommand", "options": list(options)}


def refused(method: str, path: str, body: Any) -> ContractViolation:
    with pytest.raises(ContractViolation) as caught:
        check_request(method, path, body)
    assert caught.value.status == 400 and caught.value.code == 50035
    return caught.value


def leaf(errors: dict[str, Any], *path: str) -> list[dict[str, str]]:
    node: Any = errors
    for step in path:
        node = node[step]
    return node["_errors"]


def test_operations_are_found_by_method_and_template() -> None:
    commands = find_operation("PUT", COMMANDS)
    assert commands is not None and commands.template.endswith("/guilds/{guild_id}/commands")
    original = find_operation("PATCH", "/api/v10/webhooks/1/tok/messages/@original")
    assert original is not None and original.template.endswith("/messages/@original")
    bulk = find_operation("POST", "/api/v10/channels/4/messages/bulk-delete")
    assert bulk is not None and bulk.template.endswith("/bulk-delete")
    assert find_operation("POST", "/api/v10/no/such/route") is None


def test_an_integer_option_bounded_past_2_53_is_refused_like_discord() -> None:
    """The bound the bot used to declare (2^62): Discord answers 400 50035 at the sync."""
    body = [command(subcommand(integer(min_value=1, max_value=2**62), name="export"))]
    broken = refused("PUT", COMMANDS, body)
    (error,) = leaf(broken.errors, "0", "options", "0", "options", "0", "max_value")
    assert error["code"] == "NUMBER_TYPE_MAX"
    assert broken.body()["message"] == "Invalid Form Body"
    check_request("PUT", COMMANDS, [command(integer(min_value=1, max_value=MAX_SAFE_INTEGER))])


@pytest.mark.parametrize(
    "option",
    [
        integer(min_value=-MAX_SAFE_INTEGER - 1),
        integer(choices=[{"name": "big", "value": MAX_SAFE_INTEGER + 1}]),
        {"type": 10, "name": "x", "description": "a number", "max_value": MAX_NUMBER + 1},
    ],
)
def test_numbers_past_discords_safe_range_are_refused(option: dict[str, Any]) -> None:
    refused("PUT", COMMANDS, [command(option)])


def test_a_number_option_may_reach_2_53() -> None:
    number = {"type": 10, "name": "x", "description": "a number", "max_value": MAX_NUMBER}
    check_request("PUT", COMMANDS, [command(number)])


def test_a_command_over_8000_characters_counts_the_longest_localization() -> None:
    """Names, descriptions and choice values, the longest of each field's versions."""
    long_fr = {"fr": "d" * 100}
    options = [
        {**integer(f"o{i}", description="x"), "description_localizations": long_fr}
        for i in range(25)
    ]
    subs = [subcommand(*options, name=f"s{j}") for j in range(4)]  # 4 x 25 x ~103 > 8000
    broken = refused("PUT", COMMANDS, [command(*subs)])
    assert leaf(broken.errors, "0")[0]["code"] == "APPLICATION_COMMAND_TOO_LARGE"
    check_request("PUT", COMMANDS, [command(*subs[:3])])  # ~7,800: accepted


def test_option_and_choice_counts_and_string_choice_values() -> None:
    many = [integer(f"o{i}") for i in range(26)]
    refused("PUT", COMMANDS, [command(*many)])
    choices = [{"name": f"c{i}", "value": i} for i in range(26)]
    refused("PUT", COMMANDS, [command(integer(choices=choices))])
    text = {"type": 3, "name": "s", "description": "text"}
    long_value = [{"name": "c", "value": "v" * 101}]  # the spec allows 6000, the docs 100
    broken = refused("PUT", COMMANDS, [command({**text, "choices": long_value})])
    assert leaf(broken.errors, "0", "options", "0", "choices", "0", "value")
    check_request(
        "PUT", COMMANDS, [command({**text, "choices": [{"name": "c", "value": "v" * 100}]})]
    )


def button(custom_id: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "Go", "custom_id": custom_id}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


@pytest.mark.parametrize(
    ("message", "path"),
    [
        ({"content": "x" * 2001}, ("content",)),  # the docs: 2000 (the spec says 4000)
        ({"embeds": [{"description": "x"}] * 11}, ("embeds",)),
        ({"embeds": [{"description": "x" * 4000}, {"description": "y" * 2001}]}, ("embeds",)),
        ({"components": [row(button(f"b{i}")) for i in range(6)]}, ("components",)),
        ({"components": [row(*(button(f"b{i}") for i in range(6)))]}, ("components", "0")),
        ({"components": [row(button("x" * 101))]}, ("components", "0", "components", "0")),
        (
            {
                "components": [
                    row(
                        {
                            "type": 3,
                            "custom_id": "pick",
                            "options": [{"label": f"{i}", "value": f"{i}"} for i in range(26)],
                        }
                    )
                ]
            },
            ("components", "0", "components", "0"),
        ),
    ],
)
def test_message_limits_on_every_route_that_sends_one(
    message: dict[str, Any], path: tuple[str, ...]
) -> None:
    for method, route, body, prefix in (
        ("POST", CHANNEL, message, ()),
        ("POST", FOLLOWUP, message, ()),
        ("PATCH", FOLLOWUP + "/messages/@original", message, ()),
        ("POST", CALLBACK, {"type": 4, "data": message}, ("data",)),
    ):
        broken = refused(method, route, body)
        node: Any = broken.errors
        for step in (*prefix, *path):
            node = node[step]  # Discord's nesting: the error sits under the field's path


def test_good_messages_pass() -> None:
    check_request("POST", CHANNEL, {"content": "x" * 2000, "components": [row(button("a"))]})
    check_request("POST", CALLBACK, {"type": 5, "data": {"flags": 64}})
    check_request("POST", CALLBACK, {"type": 4, "data": {"content": "hi", "flags": 64}})


def test_a_wrong_type_names_the_field() -> None:
    broken = refused("POST", CHANNEL, {"content": 5})
    assert "content" in broken.errors
