-- Learning (issue 16): game reviews, puzzle ratings and tries, lesson progress
-- (the same schema as SQLite's migration 4).
CREATE TABLE game_reviews (
    game_id    TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    review     TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE TABLE puzzle_player_ratings (
    player_id  TEXT NOT NULL,
    variant    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE TABLE puzzle_ratings (
    puzzle_id  TEXT PRIMARY KEY,
    variant    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    rd         DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL
);
CREATE INDEX puzzle_ratings_by_variant ON puzzle_ratings(variant);
CREATE TABLE puzzle_attempts (
    player_id   TEXT NOT NULL,
    puzzle_id   TEXT NOT NULL,
    variant     TEXT NOT NULL,
    solved      BOOLEAN NOT NULL,
    rated       BOOLEAN NOT NULL,
    rating_diff INTEGER,
    played_at   BIGINT NOT NULL
);
CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts(player_id, variant, played_at DESC);
CREATE TABLE lesson_progress (
    player_id    TEXT NOT NULL,
    level_id     TEXT NOT NULL,
    stars        BIGINT NOT NULL,
    moves        BIGINT NOT NULL,
    completed_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, level_id)
);
