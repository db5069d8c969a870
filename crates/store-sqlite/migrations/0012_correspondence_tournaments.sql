-- Correspondence tournaments (Swiss and round robin): days per move for
-- every game instead of a clock (the clock columns then hold zeros).
ALTER TABLE tournaments ADD COLUMN days_per_move BIGINT;
