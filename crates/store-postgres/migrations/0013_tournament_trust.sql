-- Who sits at which game of a tournament, a row a seat. A player has at
-- most one running game per tournament, and the database says so: a
-- director that lost its lease while stopped, writing its wave late, is
-- refused by the index rather than trusted to have looked first (two
-- instances' NOT EXISTS checks do not see each other's uncommitted rows).
-- A seat stops running in the transaction that ends its game.
CREATE TABLE tournament_seats (
    tournament_id TEXT NOT NULL,
    game_id       TEXT NOT NULL,
    player        TEXT NOT NULL,
    running       BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, player)
);
INSERT INTO tournament_seats (tournament_id, game_id, player, running)
SELECT tournament_id, game_id, white, FALSE FROM tournament_games
UNION SELECT tournament_id, game_id, black, FALSE FROM tournament_games;
-- The games going on: one a player and tournament (the oldest, where a
-- stalled director already paired someone twice).
UPDATE tournament_seats SET running = TRUE
WHERE game_id = (
    SELECT MIN(s.game_id) FROM tournament_seats s JOIN games g ON g.id = s.game_id
    WHERE s.tournament_id = tournament_seats.tournament_id
      AND s.player = tournament_seats.player AND g.end_reason IS NULL);
CREATE UNIQUE INDEX tournament_seats_running ON tournament_seats (tournament_id, player)
    WHERE running;
-- A player's entries (a bot upgrade asks for the open ones).
CREATE INDEX tournament_entries_player ON tournament_entries (player);
-- A tournament's game may not be aborted by a player (resigning takes its
-- place); a first move not made loses it.
ALTER TABLE online_games ADD COLUMN no_abort BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE online_games SET no_abort = TRUE WHERE game_id IN (SELECT game_id FROM tournament_games);
