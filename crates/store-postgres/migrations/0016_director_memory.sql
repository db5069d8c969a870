-- An arena's director keeps its entries in memory between ticks (issue
-- 43): the tournament's `entries_rev` grows with every change of one of
-- its entries (a join, a withdrawal, a pause, the first-move rule's pause
-- in a game's end), in the same statement, so that one row read tells
-- the director whether to read the entries again.
ALTER TABLE tournaments ADD COLUMN entries_rev BIGINT NOT NULL DEFAULT 0;
CREATE FUNCTION tournament_entries_changed() RETURNS trigger AS $$
BEGIN
    UPDATE tournaments SET entries_rev = entries_rev + 1 WHERE id = NEW.tournament_id;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER tournament_entries_rev AFTER INSERT OR UPDATE ON tournament_entries
    FOR EACH ROW EXECUTE FUNCTION tournament_entries_changed();
