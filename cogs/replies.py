"""How the bot answers one interaction: acknowledge in time, then a result or a private error.

Discord gives an interaction 3 seconds for its first answer. The result of a command or a
pressed button (a board, drawn in milliseconds) is that first answer itself: one request to
Discord instead of a deferral and then a followup. A watchdog defers whatever is still
unanswered after :data:`WATCHDOG_SECONDS` (a locked database, the computer thinking long),
and :meth:`Reply.acknowledge` defers at once for work known to be slow (an analysis). The
pressed message loses its buttons by an edit of its own, sent while the new board is drawn.
A command whose answer is private (its Reply made with ``private=True``) is deferred
privately, since Discord gives the first followup the deferral's visibility. Errors stay
private whatever was acknowledged, and once the action is stored a Discord failure is never
reported as "nothing changed" (the ``committed`` flag, read by the tree's error handler in
:mod:`bot.client` through :meth:`Reply.of`).

Where the bot is not in the channel (a DM or group DM between people, a server without the
bot, and the bot's DM too: :mod:`cogs.where`), it may not touch a message except through the
interaction: there the pressed message loses its buttons by the interaction's own answer
(an update of the pressed message, type 7, or an edit of it after a deferral) and the new
board is a followup, a new message that notifies the other player; nothing ever falls back
to posting in the channel.

May import: discord, :mod:`bot.core.session` (the action context), :mod:`bot.i18n` and
:mod:`cogs.where` (which imports no other ``cogs`` module).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

from bot.core.session import ActionContext
from bot.i18n import Text, say
from cogs.where import venue_of

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

WATCHDOG_SECONDS = 2.0  # acknowledge by then whatever happens: Discord's limit is 3 s
POST_RETRIES = 2  # a failed board post is tried again this many times
_REPLY = "gammon.reply"  # where a Reply keeps itself in ``interaction.extras``

# No message pings anyone unless it names the users it pings.
NO_MENTIONS = discord.AllowedMentions.none()


def mentions_for(user_ids: list[int]) -> discord.AllowedMentions:
    """Ping exactly these users: never @everyone, @here, roles or anyone else."""
    return discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(id=user_id) for user_id in user_ids],
    )


def safe_name(name: str) -> str:
    """A display name as plain text in a message: no markdown, no mentions, no pings."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def code_safe(name: str) -> str:
    """A display name inside a code block, which a run of backticks would end early."""
    return discord.utils.escape_mentions(name.replace("`", "ˋ"))


class Reply:
    """The answer to one interaction.

    ``pressed``: a button was pressed, so acknowledging is a silent deferred update of the
    pressed message; otherwise (a command) it is a "thinking..." message, public unless
    ``private``: the command's answer is for its user alone (their games, their settings,
    a hint). Discord keeps a deferral's visibility for the first followup, whatever that
    followup asks, so a private answer must be deferred privately or it is shown to all.
    """

    def __init__(
        self, interaction: Interaction, *, pressed: bool = False, private: bool = False
    ) -> None:
        self.interaction = interaction
        self.pressed = pressed
        self.private_answer = private
        self._deferred_publicly = False
        self.committed = False  # the action is stored: never say "unchanged" after this
        # Whether the bot may post in the channel and edit its messages there (cogs.where).
        self.in_channel = venue_of(interaction).reachable
        self._lock = asyncio.Lock()
        self._finished = asyncio.Event()
        # The tree's error handler finds this Reply again (its committed flag, its lock).
        interaction.extras[_REPLY] = self

    @classmethod
    def of(cls, interaction: Interaction) -> Reply:
        """The Reply answering this interaction, or a new one if nothing made one yet."""
        reply = interaction.extras.get(_REPLY)
        return reply if isinstance(reply, Reply) else cls(interaction)

    def context(self, match_id: int | None = None) -> ActionContext:
        # No acknowledge hook: the result is the answer, or the watchdog defers in time.
        return ActionContext(match_id=match_id, public=str(self.interaction.id))

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def acknowledge(self) -> None:
        """Defer the interaction if nothing has answered it yet (idempotent)."""
        async with self._lock:
            if self.done:
                return
            if self.pressed:
                await self.interaction.response.defer()
            elif self.private_answer:
                await self.interaction.response.defer(thinking=True, ephemeral=True)
            else:
                await self.interaction.response.defer(thinking=True)
                self._deferred_publicly = True

    async def watch(self) -> None:
        """Acknowledge after :data:`WATCHDOG_SECONDS` unless the work finished first."""
        try:
            await asyncio.wait_for(self._finished.wait(), WATCHDOG_SECONDS)
        except TimeoutError:
            with contextlib.suppress(discord.HTTPException):
                await self.acknowledge()

    def finish(self) -> None:
        self._finished.set()

    async def error(self, message: str) -> None:
        """A private answer, whatever has been sent so far."""
        interaction = self.interaction
        try:
            async with self._lock:
                if not self.done:
                    await interaction.response.send_message(message, ephemeral=True)
                    return
            if not self.pressed and _is_thinking(interaction):
                # The public "thinking..." message would take the error's place and show
                # it to everyone: remove it, and answer privately instead.
                with contextlib.suppress(discord.HTTPException):
                    await interaction.delete_original_response()
            await interaction.followup.send(message, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not send an error to user %s", interaction.user.id)

    async def send(self, **kwargs: Any) -> discord.Message | None:
        """The public result: after a deferral a followup, else the response itself.

        A failure is retried (Discord 5xx, a rate limit), then the message goes to the
        channel directly, so the board is never lost just because the interaction's webhook
        failed. Returns the message when Discord said which it is.
        """
        interaction = self.interaction
        for attempt in range(POST_RETRIES + 1):
            try:
                async with self._lock:  # the watchdog must not defer while this is sent
                    if not self.done:
                        sent = await interaction.response.send_message(**kwargs)
                        message = sent.resource
                        return message if isinstance(message, discord.Message) else None
                return await interaction.followup.send(**kwargs, wait=True)
            except discord.NotFound:
                break  # the interaction is gone (expired): retrying cannot help
            except discord.HTTPException as exc:
                log.warning("posting a result failed (%s), attempt %d", exc.status, attempt + 1)
                if attempt < POST_RETRIES:
                    await asyncio.sleep(0.5 * (attempt + 1))
                    _rewind_files(kwargs)
        channel = interaction.channel
        if not self.in_channel or not isinstance(channel, discord.abc.Messageable):
            raise PostFailedError
        _rewind_files(kwargs)
        return await channel.send(**kwargs)

    async def progress(self, content: str) -> None:
        """Show how far long work has come, in the deferred answer's place (its "thinking..."
        message): a later :meth:`send` then posts the result beside it. Nothing when the
        interaction was not deferred (it would be the answer itself); a failure is only
        logged: progress is a courtesy, never the result."""
        if not self.done or self.pressed:
            return
        try:
            async with self._lock:
                await self.interaction.edit_original_response(content=content)
        except discord.HTTPException as exc:
            log.info("could not show progress (%s)", exc.status)

    async def private(self, **kwargs: Any) -> None:
        """A private answer that is not an error (settings, a player's own games, a hint).

        Make the Reply with ``private=True`` so a deferral is private too; should a public
        "thinking..." message stand anyway, it is removed first, as for an error: the
        followup would otherwise take its place and its public visibility.
        """
        interaction = self.interaction
        async with self._lock:
            if not self.done:
                await interaction.response.send_message(**kwargs, ephemeral=True)
                return
        if self._deferred_publicly and _is_thinking(interaction):
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await interaction.followup.send(**kwargs, ephemeral=True)

    async def remove_buttons(self) -> None:
        """Take the buttons off the pressed message, so it cannot be pressed again.

        In a channel of the bot's, an edit of that message of its own (not the interaction's
        answer, which is the new board); elsewhere the interaction's own answer, an update
        of the pressed message (the new board then follows as a followup). A failure leaves
        the buttons, whose presses the session then refuses.
        """
        message = self.interaction.message if self.pressed else None
        if message is None:
            return
        with contextlib.suppress(discord.HTTPException):
            if self.in_channel:
                await message.edit(view=None, allowed_mentions=NO_MENTIONS)
            else:
                await self.replace(view=None)

    async def replace(self, **kwargs: Any) -> None:
        """Change the pressed message through the interaction: the update that answers it
        (type 7), or, once something answered it (a deferral), an edit of it."""
        async with self._lock:
            if not self.done:
                await self.interaction.response.edit_message(**kwargs)
                return
        await self.interaction.edit_original_response(**kwargs)


class MenuReply(Reply):
    """The answer to a choice in a private menu (the tap picker, the kind of a resignation):
    once the action is stored the menu is replaced by a line saying what was sent, in the
    presser's language (in place of :meth:`Reply.remove_buttons`, which changes a public
    message), and the public board follows as a followup."""

    def __init__(self, interaction: Interaction) -> None:
        super().__init__(interaction, pressed=True)
        self.sent: Text | None = None  # what the menu says once its action is stored

    async def remove_buttons(self) -> None:
        if self.sent is None:
            return
        text = say(self.sent, self.interaction.locale)
        # The action is stored whatever happens here: the public board tells it.
        with contextlib.suppress(discord.HTTPException):
            await self.replace(content=text, view=None, attachments=[])


class PostFailedError(Exception):
    """The action was stored but its result could not be posted anywhere."""


def _is_thinking(interaction: Interaction) -> bool:
    response_type = interaction.response.type
    return response_type is discord.InteractionResponseType.deferred_channel_message


def _rewind_files(kwargs: dict[str, Any]) -> None:
    """discord.File objects are read once per request: rewind them for another attempt."""
    files = kwargs.get("files") or []
    for file in files:
        file.reset()
