-- Learning (issue 16): game reviews, puzzle ratings and tries, lesson progress.
-- Players are not referenced by key: a guest may learn before being stored.
CREATE TABLE game_reviews (
    game_id    TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    review     TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE puzzle_player_ratings (
    player_id  TEXT NOT NULL,
    variant    TEXT NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (player_id, variant)
);
CREATE TABLE puzzle_ratings (
    puzzle_id  TEXT PRIMARY KEY,
    variant    TEXT NOT NULL,
    rating     REAL NOT NULL,
    rd         REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL
);
CREATE INDEX puzzle_ratings_by_variant ON puzzle_ratings(variant);
CREATE TABLE puzzle_attempts (
    player_id   TEXT NOT NULL,
    puzzle_id   TEXT NOT NULL,
    variant     TEXT NOT NULL,
    solved      INTEGER NOT NULL,
    rated       INTEGER NOT NULL,
    rating_diff INTEGER,
    played_at   INTEGER NOT NULL
);
CREATE INDEX puzzle_attempts_by_player ON puzzle_attempts(player_id, variant, played_at DESC);
CREATE TABLE lesson_progress (
    player_id    TEXT NOT NULL,
    level_id     TEXT NOT NULL,
    stars        INTEGER NOT NULL,
    moves        INTEGER NOT NULL,
    completed_at INTEGER NOT NULL,
    PRIMARY KEY (player_id, level_id)
);
