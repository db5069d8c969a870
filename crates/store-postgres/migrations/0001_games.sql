-- Games and their moves (as SQLite's 0001; times in ms since the epoch).
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    start_fen   TEXT NOT NULL,
    mode        TEXT NOT NULL,
    human_color TEXT,
    level       BIGINT,
    white       TEXT NOT NULL,
    black       TEXT NOT NULL,
    result      TEXT NOT NULL DEFAULT '*',
    end_reason  TEXT,
    rev         BIGINT NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply       BIGINT NOT NULL,
    uci       TEXT NOT NULL,
    san       TEXT NOT NULL,
    played_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX games_by_update ON games(updated_at DESC);
