"""Interactions: the record of one interaction as the bot answers it (``InteractionResult``),
every interaction dispatched (in order, and by token for the webhook routes), and the rules
Discord times them by.

Why apart from the routes: the test-facing verbs create these and the REST routes fill them
in; both meet here. Imports the world, the recorded values and the traffic log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from tests.e2e.fake_discord.constants import (
    CALLBACK_DEFERRED_UPDATE_MESSAGE,
    CALLBACK_UPDATE_MESSAGE,
)
from tests.e2e.fake_discord.recorded import Callback, RecordedMessage, RequestRecord
from tests.e2e.fake_discord.traffic import FakeDiscordTimeout, Traffic
from tests.e2e.fake_discord.world import FakeChannel, FakeUser

T = TypeVar("T")


@dataclass
class InteractionRules:
    """How Discord times interactions, and whether the app has an Activity; a test may change
    them on the fake (``fake.interaction_deadline = None``)."""

    # The initial response must arrive within this many seconds (None: no deadline).
    interaction_deadline: float | None = 3.0
    # After this many seconds the token's webhook routes answer 401 "Invalid Webhook Token".
    interaction_token_lifetime: float = 15 * 60
    # Activities (tests/e2e/fake_oauth.py): called with (channel id, user id) for a
    # LAUNCH_ACTIVITY response (callback type 12), returns the new instance's id. None:
    # the app has no Activity, and Discord refuses type 12.
    launch_activity: Callable[[int, int], str] | None = None


class InteractionResult:
    """Everything the bot did in answer to one interaction we dispatched."""

    def __init__(
        self,
        payload: dict[str, Any],
        *,
        user: FakeUser,
        channel: FakeChannel,
        guild_id: int | None,
        messages: Mapping[int, RecordedMessage],
        traffic: Traffic,
        rules: InteractionRules,
        source_message_id: int | None = None,
        command_name: str | None = None,
        parent: InteractionResult | None = None,
    ) -> None:
        self._messages = messages
        self._traffic = traffic
        self._rules = rules
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.user = user
        self.channel_id = channel.id
        self.guild_id = guild_id
        self.source_message_id = source_message_id
        self.command_name = command_name
        self.parent = parent
        self.callback: Callback | None = None
        self.followups: list[RecordedMessage] = []
        self.log: list[tuple[str, int | None]] = []
        self.errors: list[RequestRecord] = []
        self.injected: list[RequestRecord] = []
        self.session_index: int | None = None
        self.late = False
        self.dispatched_at = 0.0
        self.original_id: int | None = None
        # A type-5 deferral's "thinking" message was filled in (by a followup or an edit).
        self.defer_consumed = False
        # Discord makes every message this interaction creates ephemeral (a user-installed
        # app on a server where the member lacks USE_EXTERNAL_APPS; ``installs``).
        self.force_ephemeral = False
        # Followup messages Discord accepted (POST /webhooks/{app}/{token}), for the cap of 5
        # on an interaction authorised by a user install alone.
        self.followup_posts = 0

    @property
    def owners(self) -> dict[str, str]:
        """The interaction's ``authorizing_integration_owners`` (keys "0" and/or "1")."""
        return dict(self.payload.get("authorizing_integration_owners") or {})

    @property
    def context(self) -> int | None:
        """The interaction's ``context``: 0 a guild, 1 the bot's DM, 2 another (group) DM."""
        return self.payload.get("context")

    @property
    def original(self) -> RecordedMessage | None:
        """The response message: created by type 4/5, or the clicked message for 6/7."""
        if self.original_id is not None:
            return self._messages.get(self.original_id)
        return None

    @property
    def messages(self) -> list[RecordedMessage]:
        """Original response message (if created by us) plus followups, deduplicated."""
        out: list[RecordedMessage] = []
        for m in [self.original, *self.followups]:
            if m is not None and m not in out:
                out.append(m)
        return out

    @property
    def choices(self) -> list[dict[str, Any]]:
        return self.callback.choices if self.callback else []

    async def wait_for(
        self,
        predicate: Callable[[InteractionResult], T | None],
        timeout: float = 5.0,
        what: str = "",
    ) -> T:
        """Wait until ``predicate(self)`` is truthy and return its value."""
        return await self._traffic.wait_for(
            lambda: predicate(self), timeout, what or f"condition on interaction {self.id}", self
        )

    async def response(self, timeout: float = 5.0) -> Callback:
        """The initial response (callback); raises FakeDiscordTimeout if none came in time.

        Fails at once if the bot already answered after ``interaction_deadline``.
        """

        def got(r: InteractionResult) -> Callback | None:
            if r.late and r.callback is None:
                raise FakeDiscordTimeout(
                    f"bot answered interaction {r.id} after the "
                    f"{r._rules.interaction_deadline}s deadline; Discord rejected it (10062)\n"
                    + r.describe()
                )
            return r.callback

        return await self.wait_for(got, timeout, "initial interaction response")

    async def followup(self, index: int = 0, timeout: float = 5.0) -> RecordedMessage:
        """The ``index``-th followup message (waits for it)."""
        return await self.wait_for(
            lambda r: r.followups[index] if len(r.followups) > index else None,
            timeout,
            f"followup #{index}",
        )

    async def answer(self, timeout: float = 5.0) -> RecordedMessage:
        """The message that answers the interaction, however the bot sent it: for a command,
        its response message once it is no longer "thinking..." (a type 4 response, or a
        type 5 deferral whose first followup fills it in); for a pressed button (a type 6
        or 7 update of the pressed message), its first followup."""
        callback = await self.response(timeout)
        if callback.type in (CALLBACK_DEFERRED_UPDATE_MESSAGE, CALLBACK_UPDATE_MESSAGE):
            return await self.followup(0, timeout)
        return await self.original_message(timeout)

    async def original_message(self, timeout: float = 5.0) -> RecordedMessage:
        """The response message once it exists and is no longer a 'thinking…' placeholder."""

        def ready(r: InteractionResult) -> RecordedMessage | None:
            m = r.original
            return m if m is not None and not m.loading else None

        return await self.wait_for(ready, timeout, "original response message (not loading)")

    def describe(self) -> str:
        lines = [f"interaction {self.id} type={self.type} command={self.command_name!r}"]
        lines.append(f"  callback: {self.callback!r}  late={self.late}")
        lines.extend(f"  {kind}: {mid}" for kind, mid in self.log)
        lines.extend(f"  error: {e}" for e in self.errors)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<InteractionResult id={self.id} type={self.type} callback={self.callback!r}>"


class Interactions:
    """Every interaction dispatched: in order, and by token (how its webhook routes and the
    request gate find it)."""

    def __init__(self, rules: InteractionRules) -> None:
        self.rules = rules
        self.results: list[InteractionResult] = []
        self.by_token: dict[str, InteractionResult] = {}

    def add(self, result: InteractionResult) -> None:
        self.by_token[result.token] = result
        self.results.append(result)
