"""The Discord adapter: the ``/backgammon`` commands, buttons and how each is answered.

Thin on purpose: a command turns an interaction into a session call (:mod:`bot.session`)
and the report that comes back into messages, board images and buttons. The only place,
with the bot's start-up, that imports discord.
"""
