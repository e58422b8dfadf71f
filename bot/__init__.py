"""gammon-bot: backgammon for Discord servers, and everything under the Discord layer.

``bot.engine`` holds the rules (pure, standard library only); ``bot.core.records`` the plain
records every layer shares; ``bot.core.session`` runs each action under its channel's lock and
stores it through ``bot.storage``; ``bot.computer`` is the computer opponent (bgsage behind
one module); ``bot.workers`` runs drawing and thinking off the event loop; ``bot.present``
holds the words players read. Nothing in this package imports discord except the start-up
(``bot.client``, ``bot.__main__``); the Discord adapter is ``cogs``.
"""
