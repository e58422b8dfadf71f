"""The Discord adapter: the ``/backgammon`` commands, buttons and how each is answered.

Thin on purpose: a command turns an interaction into a session call (:mod:`bot.core.session`)
and the report that comes back into messages, board images and buttons. The only place,
with the bot's start-up, that imports discord.

It also picks each answer's language: the reader's Discord locale for private answers and
errors, the server's language for public ones (:mod:`cogs.publishing`), and the command
picker's words through :mod:`cogs.translator`.
"""
