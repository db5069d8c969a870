-- Game chat: messages by game and room, players' reports of them, the
-- operator's mutes, and the opponents a player muted in a game.
CREATE TABLE chat_messages (
    id         BIGSERIAL PRIMARY KEY,
    game_id    TEXT NOT NULL,
    room       TEXT NOT NULL,
    author     TEXT NOT NULL,
    name       TEXT NOT NULL,
    body       TEXT NOT NULL,
    at         BIGINT NOT NULL
);
CREATE INDEX chat_messages_room ON chat_messages (game_id, room, id);
CREATE TABLE chat_reports (
    id         BIGSERIAL PRIMARY KEY,
    message_id BIGINT NOT NULL REFERENCES chat_messages (id),
    reporter   TEXT NOT NULL,
    at         BIGINT NOT NULL,
    closed_at  BIGINT,
    UNIQUE (message_id, reporter)
);
CREATE TABLE chat_mutes (
    player_id  TEXT PRIMARY KEY,
    until      BIGINT NOT NULL
);
CREATE TABLE chat_opponent_mutes (
    player_id  TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    PRIMARY KEY (player_id, game_id)
);
