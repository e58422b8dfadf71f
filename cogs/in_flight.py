"""The competitions' commands counted with /backgammon's actions in flight.

A shutdown (``GammonBot.drain``) stops taking actions and waits for the ones in flight:
the count lives in the Backgammon cog (``in_flight``, ``idle``, ``accepting``). The
tournament and ladder commands run through the same guard, so a stop waits for a draw,
a decision or a challenge half done, and a command arriving while the bot stops is
refused privately, as /backgammon's are.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from discord import Interaction
from discord.ext import commands

from cogs.backgammon import Backgammon
from cogs.replies import Reply


async def run_counted(
    bot: commands.Bot,
    interaction: Interaction,
    work: Callable[[Reply], Awaitable[None]],
    *,
    private: bool,
) -> None:
    """Run ``work`` inside /backgammon's in-flight count (with its refusal while stopping
    and its acknowledgement watchdog); a bot without that cog runs it with the watchdog."""
    games = bot.get_cog("Backgammon")
    if isinstance(games, Backgammon):
        await games._guarded(interaction, work, private=private)
        return
    reply = Reply(interaction, private=private)
    watchdog = asyncio.create_task(reply.watch())
    try:
        await work(reply)
    except Exception as exc:
        await bot.tree.on_error(interaction, exc)  # type: ignore[arg-type]
    finally:
        reply.finish()
        await watchdog
