"""The fake's HTTP server: where it listens (its URLs), and the gate every request passes
through before its route: logged, answered by an injected fault or a rate limit, refused
without the bot's token, and its error answer recorded as judging the bot or not.

Why one gate: whatever route a request takes, Discord treats it the same way first, and a
test judges the bot on the answers recorded here (``assert_clean``). Imports the fault rules,
the rate limits, the traffic log and the interactions (an answer is also noted on its
interaction).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from aiohttp import web

from tests.e2e.fake_discord.faults import Faults
from tests.e2e.fake_discord.interactions import Interactions
from tests.e2e.fake_discord.recorded import RequestRecord
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.wire import ApiError, json_response
from tests.e2e.fake_ratelimit import RateLimits

log = logging.getLogger(__name__)


class Listener:
    """The aiohttp server on ``host``; ``port`` 0 takes a free one, known once started."""

    def __init__(self, host: str, port: int) -> None:
        self._host = host
        self._port = port
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def start(self, app: web.Application) -> None:
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, self._host, self._port).start()
        self.port = self._runner.addresses[0][1]
        log.info("fake discord listening on %s", self.base_url)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def http_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self._host}:{self.port}/gateway/"


class RequestGate:
    """The aiohttp middleware in front of every route (``handle``)."""

    def __init__(
        self,
        *,
        token: str,
        traffic: Traffic,
        faults: Faults,
        rate_limits: RateLimits,
        interactions: Interactions,
    ) -> None:
        self._token = token
        self._traffic = traffic
        self._faults = faults
        self.rate_limits = rate_limits
        self._interactions = interactions

    @web.middleware
    async def handle(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        rec = RequestRecord(request.method, request.path, request.query_string)
        self._traffic.requests.append(rec)
        path = request.path
        rule = self._faults.matching(request.method, path)
        if rule is not None:
            # An injected failure: no effect, not a bot error (assert_clean ignores it).
            rule.hits += 1
            response = rule.response()
            rec.status, rec.code, rec.message = rule.status, rule.code, rule.message
            rule.records.append(rec)
            self._traffic.injected.append(rec)
            token = request.match_info.get("token")
            if token and token in self._interactions.by_token:
                self._interactions.by_token[token].injected.append(rec)
            log.info("fake discord: injected %s for %s %s", rule.status, request.method, path)
            self._traffic.changed()
            return response
        verdict = self.rate_limits.check(request.method, path)
        if verdict is not None and verdict.refused:
            # Discord's 429: no effect; discord.py waits and retries (not a bot error).
            rec.status, rec.code, rec.message = 429, 0, "You are being rate limited."
            self._traffic.rate_limited.append(rec)
            self._traffic.changed()
            response = json_response(verdict.body(), 429)
            response.headers.update(verdict.headers)
            return response
        try:
            if (
                path.startswith("/api/")
                and "/webhooks/" not in path
                and "/interactions/" not in path
                and not path.rstrip("/").endswith("/gateway")
                and request.headers.get("Authorization") != f"Bot {self._token}"
            ):
                raise ApiError(401, 0, "401: Unauthorized")
            response = await handler(request)
        except ApiError as err:
            response = err.response()
            rec.code, rec.message, rec.errors = err.code, err.message, err.errors
            if err.unknown_route:
                self._traffic.unknown_routes.append(rec)
                log.warning("fake discord: unknown route %s %s", request.method, path)
            else:
                self._traffic.errors.append(rec)
                log.info("fake discord: %s %s -> %s", request.method, path, err)
            self._note_interaction_error(request, rec)
        except web.HTTPException:
            raise
        except Exception as exc:
            log.exception("fake discord crashed handling %s %s", request.method, path)
            rec.code, rec.message = 0, f"fake server error: {exc!r}"
            self._traffic.server_errors.append(rec)
            response = json_response({"message": rec.message, "code": 0}, 500)
        rec.status = response.status
        if verdict is not None:
            response.headers.update(verdict.headers)
        self._traffic.changed()
        return response

    def _note_interaction_error(self, request: web.Request, rec: RequestRecord) -> None:
        token = request.match_info.get("token")
        if token and token in self._interactions.by_token:
            self._interactions.by_token[token].errors.append(rec)
