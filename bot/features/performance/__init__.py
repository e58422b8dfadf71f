"""The PR ladder (issue 38): eXtreme Gammon's Performance Rating over every rated match a
server played in full. The pure rules (:mod:`.rules`: which matches count, the values, the
ordering) and the service (:mod:`.service`: it hears that a match has been analysed and keeps
its players' PR, then answers the leaderboard and ``/backgammon stats``). Pure of Discord."""
