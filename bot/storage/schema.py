"""The SQLite schema as numbered migrations: each runs once, in order, in a transaction.

``PRAGMA user_version`` records how many have run; :meth:`bot.storage.Store.open` runs the
rest. Add a migration at the end; never edit one that has shipped.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: matches, their event log, finished games and per-server player statistics.
    """
    CREATE TABLE matches (
        id             INTEGER PRIMARY KEY,
        guild_id       INTEGER NOT NULL,
        channel_id     INTEGER NOT NULL,
        status         TEXT NOT NULL CHECK (status IN ('challenge', 'playing', 'finished',
                            'declined', 'withdrawn', 'expired', 'cancelled')),
        player0_id     INTEGER NOT NULL,
        player0_name   TEXT NOT NULL,
        player1_id     INTEGER NOT NULL,
        player1_name   TEXT NOT NULL,
        options        TEXT NOT NULL,
        rated          INTEGER NOT NULL,
        computer_level TEXT,
        state          TEXT,
        version        INTEGER NOT NULL DEFAULT 0,
        created_at     REAL NOT NULL,
        updated_at     REAL NOT NULL,
        last_action_at REAL NOT NULL,
        expires_at     REAL,
        winner         INTEGER,
        score0         INTEGER,
        score1         INTEGER,
        end_reason     TEXT
    );
    CREATE UNIQUE INDEX matches_one_live_per_channel
        ON matches (channel_id) WHERE status IN ('challenge', 'playing');
    CREATE INDEX matches_by_channel ON matches (channel_id, id);
    CREATE TABLE events (
        id           INTEGER PRIMARY KEY,
        match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seq          INTEGER NOT NULL,
        game_number  INTEGER NOT NULL,
        actor_id     INTEGER,
        player       INTEGER,
        action       TEXT NOT NULL,
        notation     TEXT,
        dice         TEXT,
        position_id  TEXT NOT NULL,
        gnu_match_id TEXT NOT NULL,
        created_at   REAL NOT NULL,
        UNIQUE (match_id, seq)
    );
    CREATE TABLE game_results (
        match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        game_number INTEGER NOT NULL,
        winner      INTEGER NOT NULL,
        kind        INTEGER NOT NULL,
        cube        INTEGER NOT NULL,
        points      INTEGER NOT NULL,
        reason      TEXT NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (match_id, game_number)
    );
    CREATE TABLE players (
        guild_id      INTEGER NOT NULL,
        user_id       INTEGER NOT NULL,
        name          TEXT NOT NULL,
        rating        REAL NOT NULL DEFAULT 1500,
        experience    INTEGER NOT NULL DEFAULT 0,
        rated_matches INTEGER NOT NULL DEFAULT 0,
        games         INTEGER NOT NULL DEFAULT 0,
        game_wins     INTEGER NOT NULL DEFAULT 0,
        game_losses   INTEGER NOT NULL DEFAULT 0,
        matches       INTEGER NOT NULL DEFAULT 0,
        match_wins    INTEGER NOT NULL DEFAULT 0,
        match_losses  INTEGER NOT NULL DEFAULT 0,
        gammons       INTEGER NOT NULL DEFAULT 0,
        backgammons   INTEGER NOT NULL DEFAULT 0,
        points_won    INTEGER NOT NULL DEFAULT 0,
        points_lost   INTEGER NOT NULL DEFAULT 0,
        streak        INTEGER NOT NULL DEFAULT 0,
        best_streak   INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, user_id)
    );
    """,
    # 2: results against the computer, per player and level (kept out of the leaderboard).
    """
    CREATE TABLE computer_results (
        guild_id     INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        level        TEXT NOT NULL,
        games        INTEGER NOT NULL DEFAULT 0,
        game_wins    INTEGER NOT NULL DEFAULT 0,
        matches      INTEGER NOT NULL DEFAULT 0,
        match_wins   INTEGER NOT NULL DEFAULT 0,
        points_won   INTEGER NOT NULL DEFAULT 0,
        points_lost  INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, user_id, level)
    );
    """,
    # 3: dice anyone can verify (a secret committed to per match, the public value mixed in
    # at the accept, how many dice were drawn), and each player's rating after every match.
    """
    ALTER TABLE matches ADD COLUMN dice_secret TEXT;
    ALTER TABLE matches ADD COLUMN dice_commitment TEXT;
    ALTER TABLE matches ADD COLUMN dice_public TEXT;
    ALTER TABLE matches ADD COLUMN dice_drawn INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX matches_by_dice_public ON matches (dice_public);
    CREATE TABLE rating_history (
        guild_id  INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        rated_at  REAL NOT NULL,
        rating    REAL NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
    CREATE INDEX rating_history_by_player ON rating_history (guild_id, user_id, rated_at);
    """,
    # 4: club life: a game moved to its own thread remembers its home channel; the latest
    # board message (for /backgammon games); the turn whose player was last reminded; and
    # server and player settings.
    """
    ALTER TABLE matches ADD COLUMN home_channel_id INTEGER;
    ALTER TABLE matches ADD COLUMN board_channel_id INTEGER;
    ALTER TABLE matches ADD COLUMN board_message_id INTEGER;
    ALTER TABLE matches ADD COLUMN notified_version INTEGER;
    CREATE INDEX matches_live_by_guild ON matches (guild_id)
        WHERE status IN ('challenge', 'playing');
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        threads  INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE user_settings (
        user_id        INTEGER PRIMARY KEY,
        notify         TEXT NOT NULL DEFAULT 'on' CHECK (notify IN ('on', 'off', 'idle')),
        notify_minutes INTEGER NOT NULL DEFAULT 10,
        board_side     TEXT NOT NULL DEFAULT 'right' CHECK (board_side IN ('right', 'left')),
        theme          TEXT NOT NULL DEFAULT 'classic'
    );
    """,
    # 5: the language a server's moderators chose for its public game messages (NULL: the
    # server's own Discord locale).
    """
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    """,
    # 6: what a claim for inactivity wins on this server (bot.core.records.ClaimRule).
    """
    ALTER TABLE guild_settings ADD COLUMN claim TEXT NOT NULL DEFAULT 'match'
        CHECK (claim IN ('match', 'game'));
    """,
    # 7: post-game reviews not posted yet: kept until posted, so a restart (or a review
    # still being worked out at shutdown) loses none; the next start posts them. And each
    # finished game's review once worked out (bot.computer.reviewcodec's JSON), read instead of
    # evaluating the game again.
    """
    CREATE TABLE pending_reviews (
        match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        game_number INTEGER NOT NULL,
        queued_at   REAL NOT NULL,
        PRIMARY KEY (match_id, game_number)
    );
    CREATE TABLE game_reviews (
        match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        game_number INTEGER NOT NULL,
        review      TEXT NOT NULL,
        PRIMARY KEY (match_id, game_number)
    );
    """,
    # 8: puzzles from the server's own mistakes (issue 29, bot/storage/puzzles.py): the
    # puzzles, the matches owed an extraction, who was given and answered what, solver
    # ratings, the daily post and its schedule, and the players who keep their games out.
    """
    CREATE TABLE puzzles (
        id           INTEGER PRIMARY KEY,
        guild_id     INTEGER NOT NULL,
        puzzle_key   TEXT NOT NULL,
        match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        owner_id     INTEGER,
        player0_id   INTEGER,
        player1_id   INTEGER,
        data         TEXT NOT NULL,
        rating       REAL NOT NULL,
        deviation    REAL NOT NULL,
        volatility   REAL NOT NULL,
        created_at   REAL NOT NULL,
        UNIQUE (guild_id, puzzle_key)
    );
    CREATE TABLE puzzle_sources (
        match_id  INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        queued_at REAL NOT NULL
    );
    CREATE TABLE puzzle_given (
        guild_id  INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        puzzle_id INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        given_at  REAL NOT NULL,
        PRIMARY KEY (guild_id, user_id, puzzle_id)
    );
    CREATE TABLE puzzle_attempts (
        puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        user_id     INTEGER NOT NULL,
        guild_id    INTEGER NOT NULL,
        answer      TEXT NOT NULL,
        grade       TEXT NOT NULL CHECK (grade IN ('right', 'doubtful', 'wrong')),
        equity_lost REAL NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (puzzle_id, user_id)
    );
    CREATE INDEX puzzle_attempts_by_solver ON puzzle_attempts (guild_id, user_id, answered_at);
    CREATE TABLE puzzle_solvers (
        guild_id   INTEGER NOT NULL,
        user_id    INTEGER NOT NULL,
        rating     REAL NOT NULL,
        deviation  REAL NOT NULL,
        volatility REAL NOT NULL,
        solved     INTEGER NOT NULL,
        attempts   INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    );
    CREATE TABLE puzzle_settings (
        guild_id     INTEGER PRIMARY KEY,
        channel_id   INTEGER,
        post_minute  INTEGER NOT NULL DEFAULT 0 CHECK (post_minute BETWEEN 0 AND 1439),
        next_post_at REAL,
        name_players INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE puzzle_posts (
        id         INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        puzzle_id  INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        posted_at  REAL NOT NULL,
        reveal_at  REAL NOT NULL,
        revealed   INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX puzzle_posts_to_reveal ON puzzle_posts (revealed, reveal_at);
    CREATE TABLE puzzle_optouts (
        user_id INTEGER PRIMARY KEY,
        since   REAL NOT NULL
    );
    """,
    # 9: competitions (issue 28): tournaments, their entrants, their pairings with the match
    # each became and its result (written once: the row's result columns are set only while
    # empty, so two processes reporting one match advance the bracket once), the server's
    # tournament-director role, and each server's ladder (its state as JSON, versioned).
    """
    CREATE TABLE tournaments (
        id              INTEGER PRIMARY KEY,
        guild_id        INTEGER NOT NULL,
        channel_id      INTEGER NOT NULL,
        name            TEXT NOT NULL,
        format          TEXT NOT NULL,
        phase           TEXT NOT NULL,
        options         TEXT NOT NULL,
        created_by      INTEGER NOT NULL,
        created_at      REAL NOT NULL,
        announcement_id INTEGER,
        rng_seed        INTEGER NOT NULL,
        version         INTEGER NOT NULL DEFAULT 1,
        round_number    INTEGER NOT NULL DEFAULT 0,
        paused_at       REAL
    );
    CREATE INDEX tournaments_by_guild ON tournaments (guild_id, phase);
    CREATE TABLE tournament_entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        user_id       INTEGER NOT NULL,
        name          TEXT NOT NULL,
        rating        REAL,
        joined_at     REAL NOT NULL,
        checked_in    INTEGER NOT NULL DEFAULT 0,
        seed          INTEGER,
        withdrawn     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament_id, user_id)
    );
    CREATE TABLE tournament_matches (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
        match_key     TEXT NOT NULL,
        round         INTEGER NOT NULL,
        player_a      INTEGER NOT NULL,
        player_b      INTEGER,
        length        INTEGER NOT NULL,
        match_id      INTEGER UNIQUE,
        channel_id    INTEGER,
        opened_at     REAL,
        deadline      REAL,
        reminders     TEXT NOT NULL DEFAULT '',
        result_kind   TEXT,
        winner        INTEGER,
        loser         INTEGER,
        score_won     INTEGER,
        score_lost    INTEGER,
        decided_by    INTEGER,
        reason        TEXT,
        decided_at    REAL,
        PRIMARY KEY (tournament_id, match_key)
    );
    CREATE TABLE competition_settings (
        guild_id   INTEGER PRIMARY KEY,
        td_role_id INTEGER
    );
    CREATE TABLE ladders (
        guild_id   INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL,
        state      TEXT NOT NULL,
        version    INTEGER NOT NULL DEFAULT 1
    );
    """,
    # 10: a queued match is claimed by the process that works on it, until its lease
    # runs out (a crashed process's claim is then taken over): shards never extract the
    # same match twice (bot/storage/puzzles.py, claim_source).
    """
    ALTER TABLE puzzle_sources ADD COLUMN claimed_by TEXT;
    ALTER TABLE puzzle_sources ADD COLUMN lease_until REAL;
    """,
    # 11: the web board's addresses (bot/storage/web_keys.py): each match's key of 128
    # random bits (SQLite's randomblob draws from the operating system's randomness), each
    # server's leaderboard key and the replays shared on purpose; and the server's choices of
    # who a link opens for and whether its leaderboard page is public (bot.core.records).
    """
    ALTER TABLE matches ADD COLUMN web_key TEXT;
    UPDATE matches SET web_key = lower(hex(randomblob(16)));
    CREATE UNIQUE INDEX matches_by_web_key ON matches (web_key);
    ALTER TABLE guild_settings ADD COLUMN web_links TEXT NOT NULL DEFAULT 'link'
        CHECK (web_links IN ('link', 'members'));
    ALTER TABLE guild_settings ADD COLUMN public_leaderboard INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE web_guild_keys (
        guild_id INTEGER PRIMARY KEY,
        web_key  TEXT NOT NULL UNIQUE
    );
    CREATE TABLE replay_shares (
        token     TEXT PRIMARY KEY,
        match_id  INTEGER NOT NULL UNIQUE REFERENCES matches (id) ON DELETE CASCADE,
        shared_by INTEGER NOT NULL,
        shared_at REAL NOT NULL
    );
    """,
    # 12: where on Discord a match is played (bot.core.records.Venue): a server that
    # installed the bot, or, with the app installed by a player, the bot's DM, a DM or group
    # DM between people, or a server without the bot. Older matches were all on servers.
    """
    ALTER TABLE matches ADD COLUMN venue TEXT NOT NULL DEFAULT 'server'
        CHECK (venue IN ('server', 'bot_dm', 'private', 'guest'));
    """,
    # 13: the PR ladder (bot/storage/performance.py): each player's PR and luck in each rated
    # match recorded in full, once its analysis exists.
    """
    CREATE TABLE match_performance (
        match_id          INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id           INTEGER NOT NULL,
        guild_id          INTEGER NOT NULL,
        name              TEXT NOT NULL,
        played_at         REAL NOT NULL,
        money             INTEGER NOT NULL,
        checker_decisions INTEGER NOT NULL,
        checker_error     REAL NOT NULL,
        cube_decisions    INTEGER NOT NULL,
        cube_error        REAL NOT NULL,
        rolls             INTEGER NOT NULL,
        luck              REAL NOT NULL,
        actual            REAL,
        own_luck          REAL,
        opponent_luck     REAL,
        PRIMARY KEY (match_id, user_id)
    );
    CREATE INDEX match_performance_by_player
        ON match_performance (guild_id, user_id, played_at);
    """,
    # 14: chouette sessions (issue 39, bot/storage/chouette.py): each session's state as JSON
    # at a version (one live session per channel), its event log, and each server's
    # all-time chouette points (apart from the rated leaderboard); a session's web key names
    # its page on the web board (128 random bits, never its number).
    """
    CREATE TABLE chouettes (
        id              INTEGER PRIMARY KEY,
        guild_id        INTEGER NOT NULL,
        channel_id      INTEGER NOT NULL,
        home_channel_id INTEGER,
        status          TEXT NOT NULL CHECK (status IN ('open', 'playing', 'ended')),
        state           TEXT NOT NULL,
        version         INTEGER NOT NULL DEFAULT 1,
        started_by      INTEGER NOT NULL,
        created_at      REAL NOT NULL,
        updated_at      REAL NOT NULL,
        web_key         TEXT NOT NULL
    );
    CREATE UNIQUE INDEX chouettes_one_live_per_channel
        ON chouettes (channel_id) WHERE status IN ('open', 'playing');
    CREATE INDEX chouettes_by_guild ON chouettes (guild_id, id);
    CREATE UNIQUE INDEX chouettes_by_web_key ON chouettes (web_key);
    CREATE TABLE chouette_events (
        chouette_id INTEGER NOT NULL REFERENCES chouettes (id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        game_number INTEGER NOT NULL,
        kind        TEXT NOT NULL,
        data        TEXT NOT NULL,
        created_at  REAL NOT NULL,
        PRIMARY KEY (chouette_id, seq)
    );
    CREATE TABLE chouette_points (
        guild_id INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        name     TEXT NOT NULL,
        points   INTEGER NOT NULL DEFAULT 0,
        games    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, user_id)
    );
    """,
)


__all__ = ["MIGRATIONS"]
