-- Tournaments (arena, Swiss, round robin), their entries, the link of a
-- game to its tournament, and the lease of the instance directing one.
CREATE TABLE tournaments (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL,
    name          TEXT NOT NULL,
    variant       TEXT NOT NULL,
    clock_base_ms BIGINT NOT NULL,
    clock_inc_ms  BIGINT NOT NULL,
    rated         INTEGER NOT NULL,
    starts_at     BIGINT NOT NULL,
    minutes       BIGINT,
    rounds        BIGINT,
    max_players   BIGINT NOT NULL,
    created_by    TEXT NOT NULL,
    state         TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE INDEX tournaments_state ON tournaments (state, starts_at);
CREATE INDEX tournaments_creator ON tournaments (created_by, created_at);
CREATE TABLE tournament_entries (
    tournament_id TEXT NOT NULL,
    player        TEXT NOT NULL,
    joined_at     BIGINT NOT NULL,
    withdrawn     INTEGER NOT NULL,
    paused        INTEGER NOT NULL,
    rating        BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, player)
);
CREATE TABLE tournament_games (
    tournament_id   TEXT NOT NULL,
    game_id         TEXT PRIMARY KEY,
    round           BIGINT,
    white           TEXT NOT NULL,
    black           TEXT NOT NULL,
    white_berserked INTEGER NOT NULL,
    black_berserked INTEGER NOT NULL,
    created_at      BIGINT NOT NULL
);
CREATE INDEX tournament_games_of ON tournament_games (tournament_id, created_at);
-- A round is paired once: a player has one board per round.
CREATE UNIQUE INDEX tournament_games_round_white ON tournament_games (tournament_id, round, white);
CREATE UNIQUE INDEX tournament_games_round_black ON tournament_games (tournament_id, round, black);
CREATE TABLE tournament_leases (
    tournament_id TEXT PRIMARY KEY,
    holder        TEXT NOT NULL,
    expires_at    BIGINT NOT NULL
);
-- A round's byes (Swiss, round robin): who sat out, and what it scored.
CREATE TABLE tournament_byes (
    tournament_id TEXT NOT NULL,
    round         BIGINT NOT NULL,
    player        TEXT NOT NULL,
    half_points   BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, round, player)
);
-- A side that berserked (an arena) gets no increment.
ALTER TABLE online_games ADD COLUMN white_berserked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE online_games ADD COLUMN black_berserked INTEGER NOT NULL DEFAULT 0;
