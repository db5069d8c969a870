-- The opening explorer (issue 42): each finished online game counted once
-- (its row is inserted in the transaction that adds its moves' counts, so
-- a second add changes nothing), the counts of each move from each
-- position (Zobrist hash, as a signed 64-bit integer) split by what the
-- filters choose (rated, speed, rating band) so a filtered answer is a sum
-- of rows, the best rated games through each position, and the engine's evaluations of positions, deepest kept.
CREATE TABLE explorer_games (
    id           TEXT PRIMARY KEY,
    variant      TEXT NOT NULL,
    white        TEXT NOT NULL,
    black        TEXT NOT NULL,
    white_rating INTEGER,
    black_rating INTEGER,
    winner       TEXT,
    rated        INTEGER NOT NULL,
    speed        INTEGER NOT NULL,
    played_at    BIGINT NOT NULL
);
CREATE TABLE explorer_moves (
    variant      TEXT NOT NULL,
    hash         BIGINT NOT NULL,
    uci          TEXT NOT NULL,
    rated        INTEGER NOT NULL,
    speed        INTEGER NOT NULL,
    band         INTEGER NOT NULL,
    white        BIGINT NOT NULL,
    draws        BIGINT NOT NULL,
    black        BIGINT NOT NULL,
    rating_sum   BIGINT NOT NULL,
    rating_games BIGINT NOT NULL,
    PRIMARY KEY (variant, hash, uci, rated, speed, band)
);
-- The highest rated games through each position, at most four per
-- (rated, speed, band): the top four of any filter are among them.
CREATE TABLE explorer_top (
    variant TEXT NOT NULL,
    hash    BIGINT NOT NULL,
    rated   INTEGER NOT NULL,
    speed   INTEGER NOT NULL,
    band    INTEGER NOT NULL,
    rating  INTEGER NOT NULL,
    game_id TEXT NOT NULL,
    PRIMARY KEY (variant, hash, rated, speed, band, game_id)
);
-- The games through each position (game search by position).
CREATE TABLE explorer_positions (
    variant TEXT NOT NULL,
    hash    BIGINT NOT NULL,
    game_id TEXT NOT NULL,
    PRIMARY KEY (variant, hash, game_id)
);
CREATE TABLE explorer_evals (
    variant TEXT NOT NULL,
    hash    BIGINT NOT NULL,
    depth   INTEGER NOT NULL,
    cp      INTEGER,
    mate    INTEGER,
    PRIMARY KEY (variant, hash)
);
