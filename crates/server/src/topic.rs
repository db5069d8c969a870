//! The topics a page follows on its socket, read once where they come in
//! (`subscribe`): `game:{id}`, `chat:{id}:{room}`, `tournament:{id}`,
//! `lobby` and `challenges`. Past that edge a topic is this type, and its
//! text is made again only to name it on the wire.

use crate::challenges::CHALLENGES_TOPIC;
use crate::chat::{chat_topic, parse_chat_topic};
use crate::ids::{game_topic, GameId, TournamentId};
use crate::lobby::LOBBY_TOPIC;
use crate::store::ChatRoom;
use crate::tournaments::{topic_of, TOURNAMENT_TOPIC_PREFIX};
use std::fmt;

/// A topic a socket may follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Topic {
    /// A game's moves and changes.
    Game(GameId),
    /// One of a game's two chat rooms.
    Chat(GameId, ChatRoom),
    /// A tournament's news.
    Tournament(TournamentId),
    /// The open seeks.
    Lobby,
    /// The follower's own challenges, sent and received (one name, each
    /// player's own hub topic).
    Challenges,
}

impl Topic {
    /// `text` as a topic, if it names one (and its ids could be ids).
    pub fn parse(text: &str) -> Option<Topic> {
        if text == LOBBY_TOPIC {
            return Some(Topic::Lobby);
        }
        if text == CHALLENGES_TOPIC {
            return Some(Topic::Challenges);
        }
        if let Some(id) = text.strip_prefix("game:") {
            return GameId::parse(id).map(Topic::Game);
        }
        if let Some(id) = text.strip_prefix(TOURNAMENT_TOPIC_PREFIX) {
            return TournamentId::parse(id).map(Topic::Tournament);
        }
        let (id, room) = parse_chat_topic(text)?;
        Some(Topic::Chat(GameId::parse(id)?, room))
    }
}

impl fmt::Display for Topic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Topic::Game(id) => f.write_str(&game_topic(id)),
            Topic::Chat(id, room) => f.write_str(&chat_topic(id, *room)),
            Topic::Tournament(id) => f.write_str(&topic_of(id)),
            Topic::Lobby => f.write_str(LOBBY_TOPIC),
            Topic::Challenges => f.write_str(CHALLENGES_TOPIC),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_topic_reads_back_as_it_is_written() {
        for text in [
            "game:abc123",
            "chat:abc123:players",
            "chat:abc123:spectators",
            "tournament:t-9_x",
            "lobby",
            "challenges",
        ] {
            let topic = Topic::parse(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(topic.to_string(), text);
        }
    }

    #[test]
    fn a_topic_that_is_none_or_whose_id_cannot_be_one_is_refused() {
        for text in [
            "",
            "game:",
            "game:a/b",
            "chat:abc:lobby",
            "chat:a b:players",
            "tournament:",
            "tournament:x\r\ny",
            "lobby:1",
            "Lobby",
            "games:abc",
        ] {
            assert_eq!(Topic::parse(text), None, "{text:?}");
        }
        let long = format!("game:{}", "a".repeat(41));
        assert_eq!(Topic::parse(&long), None);
    }
}
