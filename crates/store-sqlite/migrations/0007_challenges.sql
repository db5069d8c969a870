-- Challenges: a player invites a named other to a game; answered,
-- withdrawn or expired, a challenge is kept with how it ended.
CREATE TABLE challenges (
    id            TEXT PRIMARY KEY,
    challenger    TEXT NOT NULL,
    challenged    TEXT NOT NULL,
    variant       TEXT NOT NULL,
    clock_base_ms BIGINT,
    clock_inc_ms  BIGINT,
    days          BIGINT,
    rated         INTEGER NOT NULL,
    color         TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL,
    state         TEXT NOT NULL,
    game_id       TEXT,
    reason        TEXT
);
CREATE INDEX challenges_challenger ON challenges (challenger, state);
CREATE INDEX challenges_challenged ON challenges (challenged, state);
CREATE INDEX challenges_open ON challenges (state, expires_at);
