"""Club life around the games: rematches, threads, settings, reminders, match files.

A service of its own (:class:`ClubService`), composed at start-up (:mod:`bot.services`):
none of this changes a game's rules; rematches go through the session's ordinary challenge,
threads only move where a game lives.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.core.errors import Name, NoGameError, NotYourTurnError, Refusal, UserError
from bot.core.matfile import export_text
from bot.core.records import (
    Action,
    BoardSide,
    ClaimRule,
    GuildSettings,
    MatchRow,
    Notify,
    Status,
    ThemeName,
    UserSettings,
    WebLinkRule,
)
from bot.core.reports import NO_CONTEXT, ActionContext, Player, Report
from bot.core.session import SessionService, expired
from bot.storage import Storage

Visible = Callable[[MatchRow], Awaitable[bool]]  # may the person asking see this match?


class ClubService:
    """Rematches, threads, per-server and per-player settings, reminders, match files.

    A rematch is an ordinary challenge (or game against the computer) of ``session``; the
    rest reads and writes the store.
    """

    def __init__(self, store: Storage, session: SessionService, *, clock: Callable[[], float]):
        self.store = store
        self.session = session
        self.clock = clock

    async def rematch(
        self,
        guild_id: int,
        channel_id: int,
        user: Player,
        match_id: int,
        computer: Player | None = None,
        ctx: ActionContext = NO_CONTEXT,
    ) -> Report:
        """Either player of a finished match asks for another with the same options.

        Between two people it is a challenge the other accepts; against the computer it
        starts at once. Refused politely while the channel holds another game.
        """
        row = await self.store.get_match(match_id)
        if row is None or row.guild_id != guild_id or row.status != Status.FINISHED:
            raise UserError(Refusal.REMATCH_NOT_OVER)
        me = row.player_index(user.id)
        if me is None:
            raise NotYourTurnError(
                Refusal.REMATCH_PLAYERS,
                first=Name(row.player_names[0]),
                second=Name(row.player_names[1]),
            )
        if row.computer_level is not None:
            if computer is None:
                raise UserError(Refusal.COMPUTER_AWAY)
            return await self.session.play_computer(
                guild_id,
                channel_id,
                user,
                computer,
                row.options,
                level=row.computer_level,
                ctx=ctx,
                venue=row.venue,
            )
        other = Player(row.player_ids[1 - me], row.player_names[1 - me])
        return await self.session.challenge(
            guild_id,
            channel_id,
            user,
            other,
            row.options,
            rated=row.rated,
            auto_play=row.auto_play,
            venue=row.venue,
        )

    async def move_to_thread(self, match_id: int, thread_id: int, home_id: int) -> MatchRow:
        """The match now lives in its own thread; its home channel is free for the next."""
        return await self.store.relocate(match_id, thread_id, home_id)

    async def note_board(self, match_id: int, channel_id: int, message_id: int) -> None:
        await self.store.note_board(match_id, channel_id, message_id)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.store.guild_settings(guild_id)

    async def set_threads(self, guild_id: int, on: bool) -> GuildSettings:
        settings = replace(await self.store.guild_settings(guild_id), threads=on)
        await self.store.save_guild_settings(guild_id, settings)
        return settings

    async def set_language(self, guild_id: int, language: str | None) -> GuildSettings:
        """The language of the server's public game messages (None: its Discord locale)."""
        settings = replace(await self.store.guild_settings(guild_id), language=language)
        await self.store.save_guild_settings(guild_id, settings)
        return settings

    async def set_claim(self, guild_id: int, rule: ClaimRule) -> GuildSettings:
        """What a claim for inactivity wins on this server (see :class:`ClaimRule`)."""
        settings = replace(await self.store.guild_settings(guild_id), claim=ClaimRule(rule))
        await self.store.save_guild_settings(guild_id, settings)
        return settings

    async def user_settings(self, user_id: int) -> UserSettings:
        return await self.store.user_settings(user_id)

    async def update_user_settings(
        self,
        user_id: int,
        *,
        notify: Notify | str | None = None,
        notify_minutes: int | None = None,
        board_side: BoardSide | str | None = None,
        theme: ThemeName | str | None = None,
    ) -> UserSettings:
        current = await self.store.user_settings(user_id)
        changes: dict[str, Any] = {}
        if notify is not None:
            if notify not in set(Notify):
                raise UserError(Refusal.PICK_NOTICE, choices=tuple(map(str, Notify)))
            changes["notify"] = Notify(notify)
        if notify_minutes is not None:
            if not 1 <= notify_minutes <= 24 * 60:
                raise UserError(Refusal.PICK_MINUTES)
            changes["notify_minutes"] = notify_minutes
            changes.setdefault("notify", Notify.IDLE)
        if board_side is not None:
            if board_side not in set(BoardSide):
                raise UserError(Refusal.PICK_BOARD_SIDE)
            changes["board_side"] = BoardSide(board_side)
        if theme is not None:
            if theme not in set(ThemeName):
                raise UserError(Refusal.PICK_THEME, choices=tuple(map(str, ThemeName)))
            changes["theme"] = ThemeName(theme)
        updated = replace(current, **changes)
        if changes:
            await self.store.save_user_settings(user_id, updated)
        return updated

    async def match(self, match_id: int) -> MatchRow | None:
        """A stored match as it stands now (a reminder checks nobody acted meanwhile)."""
        return await self.store.get_match(match_id)

    async def games_of(self, guild_id: int, user_id: int) -> list[MatchRow]:
        """A player's live challenges and games on a server, oldest first."""
        rows = await self.store.live_matches_in(guild_id)
        now = self.clock()
        return [
            row for row in rows if row.player_index(user_id) is not None and not expired(row, now)
        ]

    async def due_reminders(self) -> list[tuple[MatchRow, int]]:
        """(match, user id) of each player who asked to be reminded after some idle minutes
        and has waited that long on their turn, not yet reminded this turn: on servers that
        added the bot (elsewhere it cannot post; the board says how long the turn waited)."""
        now = self.clock()
        due = []
        # Only the few games the database finds worth a look: parsing every live game
        # each minute held the event loop ~35 ms per thousand games.
        for row in await self.store.reminder_candidates(now):
            game = row.game
            if row.status != Status.PLAYING or game is None or game.actor is None:
                continue
            if row.notified_version == row.version:
                continue
            if row.computer_level is not None and game.actor == 1:
                continue
            user_id = row.player_ids[game.actor]
            settings = await self.store.user_settings(user_id)
            if (
                settings.notify is Notify.IDLE
                and now - row.last_action_at >= 60 * settings.notify_minutes
            ):
                due.append((row, user_id))
        return due

    async def note_reminded(self, row: MatchRow) -> bool:
        return await self.store.note_notified(row.id, row.version)

    async def match_file(
        self,
        guild_id: int,
        channel_id: int,
        match_id: int | None = None,
        kind: str = "mat",
        *,
        visible: Visible | None = None,
    ) -> tuple[MatchRow, str]:
        """A match as a GNU Backgammon file: the channel's current or last one, or by number.

        A match asked for by number must be of this server and, when the front end passes
        ``visible`` (whether the person asking may see the match), one they can see; any
        other answers exactly as a number that was never used, so the command cannot tell
        anyone which matches exist elsewhere.
        """
        row = await self._named_match(guild_id, channel_id, match_id, visible)
        events = await self.store.events(row.id)
        if events and events[0].action == Action.START and events[0].notation:
            # Played on from a position (a practice game): a match file always starts
            # from the opening, so it would tell another game. Its log keeps the XGID.
            raise UserError(Refusal.EXPORT_FROM_POSITION, xgid=events[0].notation)
        text = await asyncio.to_thread(export_text, row, events, kind)
        return row, text

    async def _named_match(
        self, guild_id: int, channel_id: int, match_id: int | None, visible: Visible | None
    ) -> MatchRow:
        """The channel's current or last match, or the match of that number (see
        :meth:`match_file` for why one that may not be seen is "no such match")."""
        if match_id is None:
            row = await self.session.latest(channel_id)
            if row is None:
                raise NoGameError(Refusal.NO_MATCH_YET)
            return row
        row = await self.store.get_match(match_id)
        if (
            row is None
            or row.guild_id != guild_id
            or row.game is None
            or (visible is not None and not await visible(row))
        ):
            raise UserError(Refusal.NO_SUCH_MATCH, number=match_id)
        return row

    # --- the web board ---------------------------------------------------------------------

    async def set_web_links(self, guild_id: int, rule: WebLinkRule) -> GuildSettings:
        """Who a match's web link opens for on this server (see :class:`WebLinkRule`)."""
        settings = replace(await self.store.guild_settings(guild_id), web_links=rule)
        await self.store.save_guild_settings(guild_id, settings)
        return settings

    async def set_public_leaderboard(self, guild_id: int, public: bool) -> GuildSettings:
        """Whether the server's leaderboard page opens for anyone, or only its members."""
        settings = replace(await self.store.guild_settings(guild_id), public_leaderboard=public)
        await self.store.save_guild_settings(guild_id, settings)
        return settings

    async def match_by_key(self, key: str) -> MatchRow | None:
        """The match whose web address carries ``key`` (never found by its number)."""
        return await self.store.match_by_web_key(key)

    async def shared_match(self, token: str) -> MatchRow | None:
        """The finished match shared on purpose under ``token``, while it is shared."""
        row = await self.store.shared_match(token)
        return row if row is not None and not row.live else None

    async def guild_by_key(self, key: str) -> int | None:
        """The server whose leaderboard page carries ``key``."""
        return await self.store.guild_by_web_key(key)

    async def leaderboard_key(self, guild_id: int) -> str:
        """The key of the server's leaderboard page (made the first time it is linked)."""
        return await self.store.guild_web_key(guild_id)

    async def share_replay(
        self,
        guild_id: int,
        channel_id: int,
        match_id: int | None,
        user_id: int,
        *,
        moderator: bool,
        stop: bool = False,
        visible: Visible | None = None,
    ) -> tuple[MatchRow, str | None]:
        """Publish a finished match's replay, on purpose, as a link anyone may open (or,
        ``stop``, withdraw it): its players and the server's moderators may, for a match they
        can see. The match's token, None once withdrawn."""
        row = await self._named_match(guild_id, channel_id, match_id, visible)
        if row.live or row.game is None:
            raise UserError(Refusal.SHARE_FINISHED_ONLY)
        if row.player_index(user_id) is None and not moderator:
            raise UserError(Refusal.SHARE_PLAYERS_ONLY)
        if stop:
            if not await self.store.stop_sharing(row.id):
                raise UserError(Refusal.NOTHING_SHARED, number=row.id)
            return row, None
        return row, await self.store.share_replay(row.id, user_id, self.clock())


__all__ = ["ClubService"]
