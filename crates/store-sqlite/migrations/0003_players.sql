-- Players (every browser is one), optional accounts and their sessions,
-- ratings, who owns or plays which game, and the lobby's seeks.
CREATE TABLE players (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE accounts (
    username      TEXT NOT NULL,
    username_key  TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    player_id     TEXT NOT NULL UNIQUE REFERENCES players(id),
    created_at    INTEGER NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
);
CREATE INDEX sessions_by_player ON sessions(player_id);
CREATE TABLE ratings (
    player_id  TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    variant    TEXT NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
);
ALTER TABLE games ADD COLUMN owner TEXT;
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_by_owner ON games(owner, updated_at DESC);
ALTER TABLE online_games ADD COLUMN white_player TEXT;
ALTER TABLE online_games ADD COLUMN black_player TEXT;
ALTER TABLE online_games ADD COLUMN white_draw_ply INTEGER;
ALTER TABLE online_games ADD COLUMN black_draw_ply INTEGER;
ALTER TABLE online_games ADD COLUMN white_rating INTEGER;
ALTER TABLE online_games ADD COLUMN black_rating INTEGER;
ALTER TABLE online_games ADD COLUMN white_rating_diff INTEGER;
ALTER TABLE online_games ADD COLUMN black_rating_diff INTEGER;
CREATE INDEX online_by_white ON online_games(white_player);
CREATE INDEX online_by_black ON online_games(black_player);
CREATE TABLE seeks (
    id            TEXT PRIMARY KEY,
    player_id     TEXT NOT NULL,
    variant       TEXT NOT NULL,
    clock_base_ms INTEGER,
    clock_inc_ms  INTEGER,
    rated         INTEGER NOT NULL,
    color         TEXT NOT NULL,
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL
);
CREATE INDEX seeks_by_player ON seeks(player_id);
