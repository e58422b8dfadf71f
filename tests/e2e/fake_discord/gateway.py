"""The gateway: bots connect over a websocket (HELLO, IDENTIFY, READY and GUILD_CREATEs,
heartbeats, RESUME, Request Guild Members; zlib or zstd stream compression), and the fake
dispatches events to the live sessions: broadcasts that honour intents and shards, and each
interaction to one session (``interaction_routing``).

Why one module: who is connected and what each session is sent are one piece of state; the
REST routes and the test-facing verbs only ask it to send. Imports the world, the recorded
values, the traffic log and the server's address (READY names the gateway URL to resume at).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import zlib
from typing import Any

from aiohttp import WSMsgType, web

from tests.e2e.fake_discord.constants import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILD_PRESENCES,
    INTENT_MESSAGE_CONTENT,
)
from tests.e2e.fake_discord.recorded import RecordedMessage, RequestRecord
from tests.e2e.fake_discord.server import Listener
from tests.e2e.fake_discord.traffic import Traffic
from tests.e2e.fake_discord.wire import dumps
from tests.e2e.fake_discord.world import FakeGuild, World

log = logging.getLogger(__name__)

HEARTBEAT_ACK_DELAY = 0.05  # seconds: a network's round trip, see Gateway._heartbeat_ack


class _Connection:
    """One websocket plus its (stateful) compression stream."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.lock = asyncio.Lock()
        self._mode = compress
        self._zlib: Any = None
        self._zstd: Any = None
        if compress == "zlib-stream":
            self._zlib = zlib.compressobj()
        elif compress == "zstd-stream":  # only asked for when zstandard/compression.zstd exist
            try:
                import zstandard

                self._zstd = ("zstandard", zstandard.ZstdCompressor().compressobj())
            except ImportError:
                from compression import zstd  # type: ignore[import-not-found]

                self._zstd = ("stdlib", zstd.ZstdCompressor())
        elif compress:
            raise ValueError(f"unsupported compress={compress!r}")

    @property
    def closed(self) -> bool:
        return self.ws.closed

    async def send_locked(self, payload: dict[str, Any]) -> None:
        raw = dumps(payload).encode()
        if self._zlib is not None:
            await self.ws.send_bytes(self._zlib.compress(raw) + self._zlib.flush(zlib.Z_SYNC_FLUSH))
        elif self._zstd is not None:
            kind, obj = self._zstd
            if kind == "zstandard":
                import zstandard

                chunk = obj.compress(raw) + obj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
            else:
                chunk = obj.compress(raw, mode=obj.FLUSH_BLOCK)
            await self.ws.send_bytes(chunk)
        else:
            await self.ws.send_str(raw.decode())


class GatewaySession:
    """A gateway session (survives RESUME onto a new connection)."""

    def __init__(self, conn: _Connection) -> None:
        self.conn: _Connection | None = conn
        self.session_id: str | None = None
        self.seq = 0
        self.intents = 0
        self.shard: tuple[int, int] | None = None
        self.ready_index = 0

    @property
    def live(self) -> bool:
        return self.conn is not None and not self.conn.closed and self.ready_index > 0

    async def send(self, payload: dict[str, Any]) -> bool:
        conn = self.conn
        if conn is None or conn.closed:
            return False
        async with conn.lock:
            if conn.closed:
                return False
            try:
                await conn.send_locked(payload)
            except (ConnectionError, RuntimeError) as exc:
                log.debug("gateway send failed: %r", exc)
                return False
        return True

    async def dispatch(self, event: str, data: Any) -> bool:
        conn = self.conn
        if conn is None or conn.closed:
            return False
        async with conn.lock:
            if conn.closed:
                return False
            self.seq += 1
            try:
                await conn.send_locked({"op": 0, "t": event, "s": self.seq, "d": data})
            except (ConnectionError, RuntimeError) as exc:
                log.debug("gateway dispatch %s failed: %r", event, exc)
                return False
        return True

    def wants_guild(self, guild_id: int) -> bool:
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (guild_id >> 22) % max(count, 1) == shard_id


class Gateway:
    """The gateway's sessions (identified ones by session id, and connections not yet
    identified) and everything sent to them, including background sends it owns."""

    def __init__(
        self,
        world: World,
        traffic: Traffic,
        listener: Listener,
        *,
        token: str,
        heartbeat_interval_ms: int,
    ) -> None:
        self._world = world
        self._traffic = traffic
        self._listener = listener
        self._token = token
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.interaction_routing: str = "newest"
        self._round_robin = 0
        self._sessions: dict[str, GatewaySession] = {}
        self._pending_sessions: set[GatewaySession] = set()
        self.ready_count = 0
        self.identify_count = 0
        self._tasks: set[asyncio.Task[Any]] = set()

    async def close(self) -> None:
        """Close the sockets (code 1001, so a still-running client gives up); cancel the sends."""
        for sess in [*self._sessions.values(), *self._pending_sessions]:
            conn = sess.conn
            if conn is not None and not conn.closed:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=1001, message=b"fake discord stopping")
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ----- sessions --------------------------------------------------------------------------

    @property
    def sessions(self) -> list[GatewaySession]:
        return [s for s in self._sessions.values() if s.live]

    async def wait_until_ready(self, timeout: float = 5.0, *, after: int | None = None) -> None:
        """Wait for a live session that received READY + GUILD_CREATEs.

        ``after``: only count sessions readied after ``ready_count`` had this value (restarts).
        """
        floor = -1 if after is None else after

        def ready() -> bool:
            return any(s.live and s.ready_index > floor for s in self._sessions.values())

        await self._traffic.wait_for(ready, timeout, "bot gateway READY")

    def _pick_session(self) -> GatewaySession | None:
        live = self.sessions
        return max(live, key=lambda s: s.ready_index) if live else None

    def interaction_session(
        self, index: int | None, guild_id: int | None = None
    ) -> GatewaySession | None:
        """The session an interaction goes to: ``index`` into the live sessions (oldest first),
        else one that owns the guild's shard (as Discord routes them), chosen among those by
        ``interaction_routing``: ``"newest"`` or ``"round_robin"``."""
        live = sorted(self.sessions, key=lambda s: s.ready_index)
        if not live:
            return None
        if index is not None:
            return live[index] if -len(live) <= index < len(live) else None
        if guild_id is not None:
            live = [s for s in live if s.wants_guild(guild_id)]
            if not live:
                return None  # the shard's process is down: wait for it (or a takeover)
        if self.interaction_routing == "newest":
            return live[-1]
        if self.interaction_routing == "round_robin":
            sess = live[self._round_robin % len(live)]
            self._round_robin += 1
            return sess
        raise ValueError(f"unknown interaction_routing {self.interaction_routing!r}")

    # ----- sending ---------------------------------------------------------------------------

    async def dispatch(self, event: str, data: Any, *, timeout: float = 5.0) -> None:
        """Send a raw DISPATCH to the newest live session (waits for one to exist)."""
        sess = await self._traffic.wait_for(self._pick_session, timeout, "a connected bot")
        self._traffic.gateway_log.append((event, data))
        if not await sess.dispatch(event, data):
            raise RuntimeError(f"could not dispatch {event}: gateway connection closed")

    async def force_reconnect(self) -> None:
        """Send op 7 RECONNECT to every live session; discord.py then reconnects and RESUMEs."""
        for sess in self.sessions:
            await sess.send({"op": 7, "d": None, "s": None, "t": None})

    async def broadcast(self, event: str, data: Any, intent: int | None) -> None:
        """``event`` to the live sessions with ``intent``; a guild's events only to the
        sessions whose shard owns the guild, as Discord does."""
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        if guild_id is not None and not self._world.bot_in_guild(int(guild_id)):
            return  # a guild without the bot: its gateway hears nothing of it
        for sess in list(self._sessions.values()):
            if not sess.live or (intent is not None and not sess.intents & intent):
                continue
            if guild_id is not None and not sess.wants_guild(int(guild_id)):
                continue
            await sess.dispatch(event, data)

    def broadcast_later(self, event: str, data: Any, intent: int | None) -> None:
        if any(s.live for s in self._sessions.values()):
            self._spawn(self.broadcast(event, data, intent))

    def announce_guild(self, guild: FakeGuild) -> None:
        """A guild added while bots are connected: its GUILD_CREATE to the sessions that own it
        (none for a guild the bot is not a member of)."""
        if self._sessions and self._world.bot_in_guild(guild.id):
            self._spawn(self._send_guild_create_to_all(guild))

    async def _send_guild_create_to_all(self, guild: FakeGuild) -> None:
        for sess in list(self._sessions.values()):
            if sess.live and sess.wants_guild(guild.id):
                await sess.dispatch("GUILD_CREATE", self._guild_create_payload(guild, sess))

    def _guild_create_payload(self, g: FakeGuild, sess: GatewaySession) -> dict[str, Any]:
        data = g.payload()
        if sess.intents & INTENT_GUILD_PRESENCES:
            members = list(g.members.values())
        else:  # Discord only sends yourself (and voice members) without the presences intent
            members = [g.members[self._world.bot_user.id]]
        data.update(
            joined_at=g.joined_at,
            large=False,
            unavailable=False,
            member_count=len(g.members),
            members=[m.payload() for m in members],
            channels=[
                c.payload() for c in g.channels.values() if not c.is_thread and not c.deleted
            ],
            threads=[
                c.payload()
                for c in g.channels.values()
                if c.is_thread and not c.deleted and not c.archived
            ],
            voice_states=[],
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
            embedded_activities=[],
        )
        return data

    async def broadcast_message(self, event: str, msg: RecordedMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE to sessions with the matching intent (never ephemeral),
        and only of channels the bot is in: not of a DM or group DM between people, nor of a
        guild without the bot, even for the messages that answer its interactions there."""
        if msg.ephemeral:
            return
        channel = self._world.channels.get(msg.channel_id)
        if channel is None or not self._world.bot_can_access(channel):
            return
        intent = INTENT_GUILD_MESSAGES if msg.guild_id is not None else INTENT_DIRECT_MESSAGES
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
            await self.broadcast(event, data, intent)
            return
        full = msg.payload()
        for sess in list(self._sessions.values()):
            if not sess.live or not sess.intents & intent:
                continue
            if msg.guild_id is not None and not sess.wants_guild(msg.guild_id):
                continue
            data = full
            if (
                msg.author_id != self._world.bot_user.id
                and not sess.intents & INTENT_MESSAGE_CONTENT
            ):
                data = {**full, "content": "", "embeds": [], "attachments": [], "components": []}
            await sess.dispatch(event, data)

    # ----- the websocket ---------------------------------------------------------------------

    async def serve(self, request: web.Request) -> web.StreamResponse:
        """One bot's websocket: HELLO, then its ops (heartbeat, IDENTIFY, RESUME, Request
        Guild Members) until it disconnects."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        query = request.query
        if query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"only json encoding is supported")
            return ws
        if query.get("v", "10") not in ("9", "10"):
            await ws.close(code=4012, message=b"Invalid API version")
            return ws
        try:
            conn = _Connection(ws, query.get("compress"))
        except (ValueError, ImportError) as exc:
            await ws.close(code=4000, message=str(exc).encode())
            return ws
        sess = GatewaySession(conn)
        self._pending_sessions.add(sess)
        self._traffic.gateway_log.append(("CONNECT", dict(query)))
        try:
            await sess.send(
                {
                    "op": 10,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms, "_trace": ["fake"]},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    try:
                        packet = json.loads(msg.data)
                    except ValueError:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                        break
                    sess = await self._gateway_op(sess, conn, packet)
                elif msg.type == WSMsgType.ERROR:
                    log.debug("gateway ws error: %r", ws.exception())
                    break
        finally:
            self._pending_sessions.discard(sess)
            if sess.conn is conn:
                sess.conn = None
            self._traffic.gateway_log.append(("DISCONNECT", ws.close_code))
            self._traffic.changed()
        return ws

    async def _heartbeat_ack(self, sess: GatewaySession) -> None:
        """Ack a heartbeat a moment later, as over a network. discord.py's keep-alive thread
        notes the send time only after the send returns, so an ack on the same instant can
        be read first and logged as "Can't keep up ... 41.3s behind" (one interval)."""
        await asyncio.sleep(HEARTBEAT_ACK_DELAY)
        await sess.send({"op": 11, "d": None, "s": None, "t": None})

    async def _gateway_op(
        self, sess: GatewaySession, conn: _Connection, packet: dict[str, Any]
    ) -> GatewaySession:
        op = packet.get("op")
        d: Any = packet.get("d")  # its shape depends on op (identify: a dict)
        self._traffic.gateway_log.append((f"op{op}", d if op != 2 else {**d, "token": "***"}))
        if op == 1:
            self._spawn(self._heartbeat_ack(sess))
        elif op == 2:
            await self._identify(sess, conn, d or {})
        elif op == 6:
            return await self._resume(sess, conn, d or {})
        elif op == 8:
            await self._request_members(sess, d or {})
        elif op in (3, 4):
            pass  # presence / voice state updates: accepted and ignored
        else:
            log.warning("fake gateway: unknown op %r", op)
        return sess

    def _token_ok(self, token: Any) -> bool:
        return token in (self._token, f"Bot {self._token}")

    async def _identify(self, sess: GatewaySession, conn: _Connection, d: dict[str, Any]) -> None:
        if not self._token_ok(d.get("token")):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if sess.session_id is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        self.identify_count += 1
        sess.session_id = secrets.token_hex(16)
        sess.intents = int(d.get("intents") or 0)
        shard = d.get("shard")
        sess.shard = (int(shard[0]), int(shard[1])) if shard else None
        self._pending_sessions.discard(sess)
        self._sessions[sess.session_id] = sess
        guilds = [
            g
            for g in self._world.guilds.values()
            if sess.wants_guild(g.id) and self._world.bot_in_guild(g.id)
        ]
        ready: dict[str, Any] = {
            "v": 10,
            "user": {**self._world.bot_user.payload(), "verified": True, "mfa_enabled": False},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": sess.session_id,
            "session_type": "normal",
            "resume_gateway_url": self._listener.gateway_url,
            "application": {"id": str(self._world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake"],
        }
        if sess.shard is not None:
            ready["shard"] = list(sess.shard)
        await sess.dispatch("READY", ready)
        for g in guilds:
            await sess.dispatch("GUILD_CREATE", self._guild_create_payload(g, sess))
        self.ready_count += 1
        sess.ready_index = self.ready_count
        self._traffic.changed()

    async def _resume(
        self, sess: GatewaySession, conn: _Connection, d: dict[str, Any]
    ) -> GatewaySession:
        old = self._sessions.get(str(d.get("session_id")))
        if old is None or not self._token_ok(d.get("token")):
            await sess.send({"op": 9, "d": False, "s": None, "t": None})
            return sess
        self._pending_sessions.discard(sess)
        old.conn = conn
        await old.dispatch("RESUMED", {"_trace": ["fake"]})
        self._traffic.changed()
        return old

    def _members_refusal(self, sess: GatewaySession, d: dict[str, Any]) -> str | None:
        """Why Discord would not answer this Request Guild Members (op 8), or None.

        From the gateway docs (Request Guild Members): at most 100 ``user_ids``; the whole
        member list (``query`` "" with ``limit`` 0) needs the GUILD_MEMBERS intent; presences
        need GUILD_PRESENCES."""
        user_ids = d.get("user_ids")
        if isinstance(user_ids, list) and len(user_ids) > 100:
            return f"{len(user_ids)} user_ids (at most 100)"
        whole = user_ids is None and d.get("query") == "" and not int(d.get("limit") or 0)
        if whole and not sess.intents & INTENT_GUILD_MEMBERS:
            return "the whole member list without the GUILD_MEMBERS intent"
        if d.get("presences") and not sess.intents & INTENT_GUILD_PRESENCES:
            return "presences without the GUILD_PRESENCES intent"
        return None

    async def _request_members(self, sess: GatewaySession, d: dict[str, Any]) -> None:
        refusal = self._members_refusal(sess, d)
        if refusal is not None:
            # Discord sends no chunk: the request is an error the test must see.
            self._traffic.errors.append(RequestRecord("GATEWAY", "op 8", "", 4000, None, refusal))
            return
        raw_ids: Any = d.get("guild_id")  # one snowflake or a list of them
        for raw in raw_ids if isinstance(raw_ids, list) else [raw_ids]:
            g = self._world.guilds.get(int(raw))
            if g is None or not self._world.bot_in_guild(g.id):
                continue
            members = list(g.members.values())
            user_ids = d.get("user_ids")
            query = d.get("query")
            not_found: list[str] = []
            if user_ids is not None:
                wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
                members = [m for m in members if m.id in wanted]
                not_found = [str(u) for u in sorted(wanted - {m.id for m in members})]
            elif query:
                q = str(query).lower()
                members = [
                    m
                    for m in members
                    if m.username.lower().startswith(q) or (m.nick or "").lower().startswith(q)
                ]
            limit = int(d.get("limit") or 0)
            if limit:
                members = members[:limit]
            chunk: dict[str, Any] = {
                "guild_id": str(g.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": not_found,  # ids asked for that are not members
            }
            if d.get("nonce") is not None:
                chunk["nonce"] = d["nonce"]
            if d.get("presences"):
                chunk["presences"] = []
            await sess.dispatch("GUILD_MEMBERS_CHUNK", chunk)
