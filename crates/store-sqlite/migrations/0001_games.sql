-- Games and their moves.
CREATE TABLE games (
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    start_fen   TEXT NOT NULL,
    mode        TEXT NOT NULL,
    human_color TEXT,
    level       INTEGER,
    white       TEXT NOT NULL,
    black       TEXT NOT NULL,
    result      TEXT NOT NULL DEFAULT '*',
    end_reason  TEXT,
    rev         INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE TABLE moves (
    game_id   TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply       INTEGER NOT NULL,
    uci       TEXT NOT NULL,
    san       TEXT NOT NULL,
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX games_by_update ON games(updated_at DESC);
