-- Trust (issue 38): who follows whom, per-account preferences, the caps'
-- keys (a challenge from a stranger, the address a tournament or a report
-- came from), mutes that hold an address, and the skeleton of each user
-- name (display names that pass for one are refused).
CREATE TABLE follows (
    follower TEXT NOT NULL,
    followed TEXT NOT NULL,
    at       BIGINT NOT NULL,
    PRIMARY KEY (follower, followed)
);
CREATE INDEX follows_followed ON follows (followed);
CREATE TABLE preferences (
    player_id              TEXT PRIMARY KEY,
    challenges_from_guests BOOLEAN NOT NULL
);
-- Open challenges from strangers count toward the receiver's cap; those
-- made before this column existed count as strangers'.
ALTER TABLE challenges ADD COLUMN stranger BOOLEAN NOT NULL DEFAULT TRUE;
CREATE INDEX challenges_received ON challenges (challenged, created_at);
ALTER TABLE tournaments ADD COLUMN client TEXT;
CREATE INDEX tournaments_client ON tournaments (client, created_at);
ALTER TABLE chat_reports ADD COLUMN client TEXT;
CREATE INDEX chat_reports_open ON chat_reports (closed_at);
CREATE TABLE chat_address_mutes (
    address TEXT PRIMARY KEY,
    until   BIGINT NOT NULL
);
-- Filled for every account when the store opens (a Rust function).
ALTER TABLE accounts ADD COLUMN skeleton TEXT;
CREATE INDEX accounts_skeleton ON accounts (skeleton);
