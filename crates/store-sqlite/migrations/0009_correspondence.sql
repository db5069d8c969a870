-- Correspondence games: days per move instead of a clock in minutes.
ALTER TABLE online_games ADD COLUMN days_per_move INTEGER;
-- Challenges remember the address they came from: open challenges are
-- capped per address as well as per player.
ALTER TABLE challenges ADD COLUMN client TEXT;
CREATE INDEX challenges_client ON challenges (client, state);
