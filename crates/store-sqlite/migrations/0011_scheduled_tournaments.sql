-- Tournaments the server's schedule makes: each occurrence's key (the
-- schedule entry's key and its start) is unique, so instances sharing the
-- database, or one restarted, make each occurrence once. Players'
-- tournaments have none (NULLs are distinct in a unique index).
ALTER TABLE tournaments ADD COLUMN schedule_key TEXT;
CREATE UNIQUE INDEX tournaments_schedule_key ON tournaments (schedule_key);
