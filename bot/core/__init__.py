"""The action core: a game's actions, the session that runs them, and what they say happened.

One table of actions (:mod:`.actions`) applied to a :class:`~.turn.Turn` under a channel's
lock by the session (:mod:`.session`), which stores one change and publishes its typed facts
(:mod:`.facts`) and returns a :class:`~.reports.Report` of values, never words. The records
every layer shares (:mod:`.records`, :mod:`.errors`), the read face features take
(:mod:`.reader`), the rule of who may see a match (:mod:`.visibility`), club life
(:mod:`.club`), the dice (:mod:`.dice`, :mod:`.fairdice`) and the game record's forms
(:mod:`.codec`, :mod:`.replay`, :mod:`.matfile`) live here too.

May import the engine, the storage interface and the computer; never a front end (cogs,
the web, the terminal) nor :mod:`bot.present`.
"""
