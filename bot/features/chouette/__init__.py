"""Chouette sessions run by the bot: one box against a team on one board, a cube for every
team member, the bot as the monitor (issue 39).

- :mod:`.rules`: the pure chouette core (seats, cubes, the verbs C1-C8, settlement);
- :mod:`.codec`: a session as JSON, the one place that knows how it looks on disk;
- :mod:`.service`: :class:`~.service.ChouetteService`, every chouette action under the
  channel's lock, stored at a version, told as facts;
- :mod:`.computer`: the computer's seat (its checker plays and each cube decision);
- :mod:`.facts`: the facts the service publishes on the core's bus;
- :mod:`.analysis`: the captain's checker errors and each member's cube errors.

Pure of Discord and of words: the front end is ``cogs/chouette.py``, the words
:mod:`bot.present.chouette`.
"""
