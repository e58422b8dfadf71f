"""The one front-end kit of the Discord cogs, owned by the bot: the guard every command,
button and tap runs inside, and the way an action goes to the session and out again.

- **The guard** (:meth:`Kit.run`): every handler of every cog (games, puzzles, tournaments,
  the ladder, the tap picker) counts as in flight while it runs, so a stop
  (:meth:`Kit.drain`) waits for it; one arriving while the bot stops is refused privately
  ("the bot is restarting") and changes nothing; the acknowledgement watchdog defers
  whatever Discord would otherwise time out; any error goes to the command tree's one
  handler (:func:`bot.client.explain`), from inside the count.
- **Acting** (:meth:`Kit.act`, :meth:`Kit.perform`, :meth:`Kit.press`): a player's action
  through the session's one entry (:meth:`bot.core.session.SessionService.act`) with the exact
  state a button was posted for, then its report published (:class:`cogs.publishing.
  Publisher`).

The bot makes one kit in ``setup_hook`` and hands it to every cog; the buttons and menus,
which Discord sends to the bot rather than to a cog, find it with :func:`kit_of`.

May import: discord, :mod:`bot` (session values, errors), :mod:`cogs.replies`,
:mod:`cogs.helpers` (the publisher and the buttons' reference only for type hints: they
import this module). Never a cog.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.core.errors import Refusal, StaleButtonError, UserError
from bot.core.records import Action
from bot.core.reports import ActionContext, Player, Report
from bot.present import notices
from bot.services import Services
from cogs.helpers import board_report, player_of
from cogs.replies import Reply
from cogs.where import home_guild

if TYPE_CHECKING:  # the publisher's buttons (cogs.views) reach the kit through kit_of
    from cogs.publishing import Publisher
    from cogs.views import ButtonRef

Interaction = discord.Interaction[Any]
Request = Callable[[ActionContext], Awaitable[Report]]  # a session call for one interaction
Work = Callable[[Reply], Awaitable[None]]  # a handler's body, given the interaction's Reply


class Kit:
    """The guard, acting, publishing: what every Discord front end shares."""

    def __init__(self, bot: discord.Client, services: Services, publisher: Publisher) -> None:
        self.bot = bot
        self.services = services
        self.session = services.session
        self.publisher = publisher
        self.in_flight = 0
        self.idle = asyncio.Event()
        self.idle.set()
        self.accepting = True

    # --- the guard -------------------------------------------------------------------------

    async def run(
        self,
        interaction: Interaction,
        work: Work,
        *,
        pressed: bool = False,
        reply: Reply | None = None,
        private: bool = False,
    ) -> None:
        """Run a handler inside the in-flight count, with the acknowledgement watchdog.

        Any error goes to the command tree's ``on_error``, the one place that decides what
        the player sees. It is called from here, not left to discord.py, so the answer is
        sent while the action still counts as in flight (a stop waits for it) and so button
        presses, which never reach the tree, are answered the same way. ``reply``: a front
        end's own way of answering (the tap picker's), else a plain :class:`Reply`.
        """
        reply = reply or Reply(interaction, pressed=pressed, private=private)
        tree: Any = interaction.client.tree
        if not self.accepting:
            await tree.on_error(interaction, UserError(notices.RESTARTING))
            return
        self.in_flight += 1
        self.idle.clear()
        watchdog = asyncio.create_task(reply.watch())
        try:
            await work(reply)
        except Exception as exc:
            await tree.on_error(interaction, exc)
        finally:
            reply.finish()
            await watchdog
            self.in_flight -= 1
            if self.in_flight == 0:
                self.idle.set()

    async def drain(self, timeout: float) -> bool:
        """Stop taking handlers and wait (at most ``timeout``) for those in flight; whether
        they all finished."""
        self.accepting = False
        try:
            await asyncio.wait_for(self.idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    # --- acting ----------------------------------------------------------------------------

    async def act(
        self,
        interaction: Interaction,
        request: Request,
        *,
        pressed: bool = False,
        button: ButtonRef | None = None,
        reply: Reply | None = None,
    ) -> None:
        """Run a session call and publish its report. ``button``: the exact state a pressed
        button was posted for; the session refuses the press unless the channel's live game
        is still at it."""

        async def work(reply: Reply) -> None:
            ctx = reply.context(button.match_id if button is not None else None)
            if button is not None:
                ctx = replace(ctx, version=button.version, game_number=button.game_number)
            report = await request(ctx)
            reply.committed = report.action != Action.BOARD  # a look at the board stores nothing
            await self.publisher.publish(reply, report)

        await self.run(interaction, work, pressed=pressed, reply=reply)

    async def perform(
        self,
        interaction: Interaction,
        action: Action,
        *,
        button: ButtonRef | None = None,
        reply: Reply | None = None,
        **params: Any,
    ) -> None:
        """Run a player's ``action`` through the session's one entry (its action table) and
        publish the report: every command, button and picker confirmation comes here."""
        user = player_of(interaction.user)
        channel_id = interaction.channel_id or 0
        session = self.session
        await self.act(
            interaction,
            lambda ctx: session.act(channel_id, user, action, ctx, **params),
            pressed=button is not None or reply is not None,
            button=button,
            reply=reply,
        )

    def computer(self) -> Player | None:
        """The bot itself as a player (the computer opponent)."""
        me = self.bot.user
        return Player(me.id, me.display_name, True) if me is not None else None

    async def press(self, interaction: Interaction, action: Action, button: ButtonRef) -> None:
        """A game button was pressed (:class:`cogs.views.ActionButton`).

        The button's match, game and version travel to the session, which compares them with
        the channel's live game under the channel's lock: a button never acts on another
        game, nor on a later state of its own.
        """
        match_id, channel_id = button.match_id, interaction.channel_id or 0
        if action == Action.REMATCH:  # not a game action: another match, from club life
            user, club, computer = player_of(interaction.user), self.services.club, self.computer()
            guild_id = home_guild(interaction)
            await self.act(
                interaction,
                lambda ctx: club.rematch(guild_id, channel_id, user, match_id, computer, ctx),
                pressed=True,
            )
            return
        if action == Action.BOARD:  # a look: whatever the board is now, stores nothing
            row = await self.session.match(match_id)
            if row is not None and row.player_index(interaction.user.id) is None:
                # Someone watching (a group DM's third member): the board for them alone;
                # the players' board and its buttons stay as they are.
                await self.run(
                    interaction, lambda reply: self._show(reply, channel_id, match_id), private=True
                )
                return
            await self.act(interaction, lambda _ctx: self._look(channel_id, match_id), pressed=True)
            return
        await self.perform(interaction, action, button=button)

    async def _show(self, reply: Reply, channel_id: int, match_id: int) -> None:
        report = await self._look(channel_id, match_id)
        await reply.private(**await self.publisher.private_board(report, reply.interaction.locale))

    async def _look(self, channel_id: int, match_id: int) -> Report:
        """The current board of the match a Board button names (its last board, once over;
        refused once another match took the channel)."""
        row = await self.session.current(channel_id)
        if row is None or row.id != match_id:
            row = await self.session.match(match_id)
            if row is None or row.live or row.channel_id != channel_id:
                raise StaleButtonError(Refusal.GAME_OVER_BUTTON)
        if row.game is None:
            raise UserError(Refusal.NO_GAME)
        return board_report(row)


def kit_of(client: discord.Client) -> Kit:
    """The bot's kit (the buttons and menus reach it through the interaction's client)."""
    kit = getattr(client, "kit", None)
    if not isinstance(kit, Kit):  # pragma: no cover - the bot makes it before any component
        raise RuntimeError("the bot has no front-end kit")
    return kit


__all__ = ["Kit", "Request", "Work", "kit_of"]
