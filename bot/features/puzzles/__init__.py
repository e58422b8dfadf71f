"""Puzzles from the server's own mistakes: the pure rules (:mod:`.rules`: selection,
grading, Glicko-2 ratings, streaks) and the service (:mod:`.service`: extraction in the
analysis lane, solving, the daily puzzle). Pure of Discord."""
