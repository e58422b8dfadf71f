"""The CDN: the files the bot uploaded, served at the URLs their attachments name, so
``Attachment.read()`` works against the fake.

Imports the message store (which holds the files) and the wire format.
"""

from __future__ import annotations

from aiohttp import web

from tests.e2e.fake_discord.messages import MessageStore
from tests.e2e.fake_discord.wire import ApiError


class Cdn:
    """The handler of ``/attachments/{channel}/{attachment}/{filename}``."""

    def __init__(self, store: MessageStore) -> None:
        self._store = store

    async def attachment(self, request: web.Request) -> web.Response:
        att = self._store.attachments.get(int(request.match_info["attachment_id"]))
        if att is None or att.filename != request.match_info["filename"]:
            raise ApiError(404, 0, "404: Not Found")
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )
