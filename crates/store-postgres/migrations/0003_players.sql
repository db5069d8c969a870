-- Players (every browser is one), optional accounts and their sessions,
-- ratings, who owns or plays which game, and the lobby's seeks.
CREATE TABLE players (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE accounts (
    username      TEXT NOT NULL,
    username_key  TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    player_id     TEXT NOT NULL UNIQUE REFERENCES players(id),
    created_at    BIGINT NOT NULL
);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);
CREATE INDEX sessions_by_player ON sessions(player_id);
CREATE TABLE ratings (
    player_id  TEXT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    variant    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant)
);
ALTER TABLE games ADD COLUMN owner TEXT;
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX games_by_owner ON games(owner, updated_at DESC);
ALTER TABLE online_games ADD COLUMN white_player TEXT;
ALTER TABLE online_games ADD COLUMN black_player TEXT;
ALTER TABLE online_games ADD COLUMN white_draw_ply BIGINT;
ALTER TABLE online_games ADD COLUMN black_draw_ply BIGINT;
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
    clock_base_ms BIGINT,
    clock_inc_ms  BIGINT,
    rated         BOOLEAN NOT NULL,
    color         TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL
);
CREATE INDEX seeks_by_player ON seeks(player_id);
