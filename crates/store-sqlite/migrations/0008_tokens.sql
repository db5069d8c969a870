-- Personal API tokens (a program plays for an account: the Bot and Board
-- APIs): only the token's SHA-256 is kept; a revoked token stays, marked.
CREATE TABLE api_tokens (
    id           TEXT PRIMARY KEY,
    player_id    TEXT NOT NULL,
    token_hash   TEXT NOT NULL UNIQUE,
    description  TEXT NOT NULL,
    scopes       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT,
    revoked_at   BIGINT
);
CREATE INDEX api_tokens_player ON api_tokens (player_id);
-- Bot accounts: played by a program, shown as BOT.
CREATE TABLE bots (
    player_id TEXT PRIMARY KEY,
    since     BIGINT NOT NULL
);
