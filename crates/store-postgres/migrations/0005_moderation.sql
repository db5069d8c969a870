-- Moderation: the operator's bans, closed accounts, and the account
-- events every server acts on at once (a session ended, a ban), read in
-- order of their sequence number.
CREATE TABLE bans (
    player_id TEXT PRIMARY KEY,
    reason    TEXT NOT NULL,
    banned_at BIGINT NOT NULL
);
ALTER TABLE accounts ADD COLUMN closed_at BIGINT;
CREATE TABLE account_events (
    seq        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    player_id  TEXT NOT NULL,
    kind       TEXT NOT NULL,
    token_hash TEXT,
    at         BIGINT NOT NULL
);
-- The client address (its limit key) a seek came from: seeks are capped
-- per address as well as per player.
ALTER TABLE seeks ADD COLUMN client TEXT;
-- Every puzzle a player ever tried (the tries themselves are pruned): only
-- a first try is rated.
CREATE TABLE puzzles_tried (
    player_id TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);
