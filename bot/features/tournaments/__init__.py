"""Club competitions run by the bot: knockouts, Swiss, round robins and the ladder.

- :mod:`.rules`: the pure competition core (brackets, pairings, standings, deadlines);
- :mod:`.service`: the tournaments' service (registration, the draw, matches opened by
  themselves, results read from the games, rounds advanced, deadlines kept);
- :mod:`.directors`: the directors' tools;
- :mod:`.formats`: the formats in one registry (:data:`.formats.FORMATS`) and the stored
  event as its format sees it;
- :mod:`.news`: the typed news the service tells its host; :mod:`.refusals`: the core's
  errors as typed refusals; :mod:`.ladders`: the challenge ladder's service.

Pure of Discord.
"""
