"""Features built on the core's seams: tournaments and the ladder (:mod:`.tournaments`),
puzzles from the server's own games (:mod:`.puzzles`), the PR ladder (:mod:`.performance`).

Each is a package: its pure rules (``rules``) and the service the front ends ask, composed
at start-up (:mod:`bot.services`). A feature reads matches through the session's read face
(:class:`bot.core.reader.MatchReader`), writes its own tables through the store's public
primitives (:class:`bot.storage.base.Database`), learns what happened from the core's facts
and publishes its own on the same bus. May import the core, the engine, the computer and
the storage interface; never a front end nor :mod:`bot.present`.
"""
