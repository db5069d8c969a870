-- Online games (seats, clocks, offers, rematches) and server runs.
CREATE TABLE online_games (
    game_id         TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    white_seat      TEXT,
    black_seat      TEXT,
    clock_base_ms   INTEGER,
    clock_inc_ms    INTEGER,
    white_ms        INTEGER NOT NULL DEFAULT 0,
    black_ms        INTEGER NOT NULL DEFAULT 0,
    turn_started_at INTEGER,
    draw_offer      TEXT,
    rematch_offer   TEXT,
    rematch_of      TEXT,
    rematch_id      TEXT
);
CREATE INDEX online_clocks_running ON online_games(turn_started_at)
    WHERE turn_started_at IS NOT NULL;
CREATE TABLE server_runs (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    boot_ms      INTEGER NOT NULL,
    last_seen_ms INTEGER NOT NULL
);
