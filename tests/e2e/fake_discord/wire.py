"""The REST API's wire format: JSON answers as discord.py reads them, Discord's error answers,
and request bodies in (JSON, or multipart with files) checked against Discord's contract.

Why here: every route group reads a body and answers the same way, and a body Discord would
refuse must be refused the same way everywhere (``discord_contract``). Imports nothing of the
fake; Discord's contract lives beside it.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

from tests.e2e.discord_contract import ContractViolation, check_request

log = logging.getLogger(__name__)


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def json_response(data: Any, status: int = 200) -> web.Response:
    """discord.py only decodes bodies whose Content-Type is exactly ``application/json``.

    aiohttp's ``json_response`` appends ``; charset=utf-8``, which discord.py would treat as text.
    """
    return web.Response(
        body=dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class ApiError(Exception):
    """An error answer in Discord's JSON error format; recorded by the request gate (``server``)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        unknown_route: bool = False,
    ) -> None:
        super().__init__(f"{status} {code} {message} {errors or ''}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.unknown_route = unknown_route

    def response(self) -> web.Response:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return json_response(body, self.status)


def form_error(field_path: str, message: str) -> ApiError:
    return ApiError(
        400,
        50035,
        "Invalid Form Body",
        {field_path: {"_errors": [{"code": "BASE_TYPE_INVALID", "message": message}]}},
    )


@dataclass
class Upload:
    """A file part of a multipart request (``files[n]``)."""

    index: int
    filename: str
    data: bytes


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The body, checked against Discord's contract (``discord_contract``): 400 50035.

    JSON, or multipart ``payload_json`` + ``files[n]`` parts (as discord.py sends), where
    the ``payload_json`` part is what Discord validates.
    """
    payload, uploads = await parse_body(request)
    try:
        check_request(request.method, request.path, payload)
    except ContractViolation as broken:
        log.warning("fake discord: contract: %s %s: %s", request.method, request.path, broken)
        raise ApiError(broken.status, broken.code, broken.message, broken.errors) from None
    return payload, uploads


async def parse_body(request: web.Request) -> tuple[Any, list[Upload]]:
    if request.content_type.startswith("multipart/"):
        payload: Any = {}
        uploads: list[Upload] = []
        reader = await request.multipart()
        next_index = 10_000
        async for part in reader:
            # aiohttp types a part as possibly a nested multipart: discord.py sends none.
            assert isinstance(part, BodyPartReader), part
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.filename is not None:
                m = re.fullmatch(r"files\[(\d+)\]", part.name or "")
                if m:
                    index = int(m.group(1))
                else:
                    index, next_index = next_index, next_index + 1
                data = await part.read(decode=False)
                uploads.append(Upload(index, part.filename, bytes(data)))
        return payload, uploads
    raw = await request.read()
    if not raw:
        return {}, []
    try:
        return json.loads(raw), []
    except ValueError:
        raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
