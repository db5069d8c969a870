//! The topics a page follows on its socket, read once where they come in
//! (`subscribe`): `game:{id}`, `chat:{id}:{room}` (a game's two rooms, or
//! `chat:{id}:tournament`, a tournament's room), `tournament:{id}`,
//! `lobby` and `challenges`. Past that edge a topic is this type, and its
//! text is made again only to name it on the wire.

use crate::ids::{game_topic, GameId, TournamentId};
use crate::store::ChatRoom;
use std::fmt;

/// The topic of the lobby's updates.
pub const LOBBY_TOPIC: &str = "lobby";

/// The topic a player follows for their challenges (each sees their own).
pub const CHALLENGES_TOPIC: &str = "challenges";

/// The hub topic of `player`'s own challenges (what `challenges` names
/// for them).
pub fn challenges_of(player: &str) -> String {
    format!("{CHALLENGES_TOPIC}:{player}")
}

/// Whether a hub topic is one player's own (their challenges), which
/// hears little and of which there is one per page open.
pub fn is_personal(topic: &str) -> bool {
    topic
        .strip_prefix(CHALLENGES_TOPIC)
        .is_some_and(|rest| rest.starts_with(':'))
}

/// The prefix of a tournament's WebSocket topic (`tournament:{id}`).
pub const TOURNAMENT_TOPIC_PREFIX: &str = "tournament:";

/// The hub topic of tournament `id`.
pub fn tournament_topic(id: &str) -> String {
    format!("{TOURNAMENT_TOPIC_PREFIX}{id}")
}

/// The topic of a game's room.
pub fn chat_topic(game_id: &str, room: ChatRoom) -> String {
    format!("chat:{game_id}:{}", room.as_str())
}

/// A topic `chat:{id}:{room}`, read.
pub fn parse_chat_topic(topic: &str) -> Option<(&str, ChatRoom)> {
    let rest = topic.strip_prefix("chat:")?;
    let (id, room) = rest.rsplit_once(':')?;
    Some((id, ChatRoom::parse(room)?))
}

/// A topic a socket may follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Topic {
    /// A game's moves and changes.
    Game(GameId),
    /// One of a game's two chat rooms.
    Chat(GameId, ChatRoom),
    /// A tournament's chat room.
    TournamentChat(TournamentId),
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
        if room == ChatRoom::Tournament {
            return TournamentId::parse(id).map(Topic::TournamentChat);
        }
        Some(Topic::Chat(GameId::parse(id)?, room))
    }
}

impl fmt::Display for Topic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Topic::Game(id) => f.write_str(&game_topic(id)),
            Topic::Chat(id, room) => f.write_str(&chat_topic(id, *room)),
            Topic::TournamentChat(id) => f.write_str(&chat_topic(id, ChatRoom::Tournament)),
            Topic::Tournament(id) => f.write_str(&tournament_topic(id)),
            Topic::Lobby => f.write_str(LOBBY_TOPIC),
            Topic::Challenges => f.write_str(CHALLENGES_TOPIC),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_read_back() {
        let t = chat_topic("abc123", ChatRoom::Spectators);
        assert_eq!(t, "chat:abc123:spectators");
        assert_eq!(parse_chat_topic(&t), Some(("abc123", ChatRoom::Spectators)));
        assert_eq!(parse_chat_topic("chat:abc:lobby"), None);
        assert_eq!(parse_chat_topic("game:abc"), None);
    }

    #[test]
    fn a_player_s_challenges_are_a_personal_topic() {
        assert!(is_personal(&challenges_of("abc")));
        for other in [
            "challenges",
            "challengesx:a",
            "lobby",
            "game:abc",
            "tournament:t",
        ] {
            assert!(!is_personal(other), "{other}");
        }
    }

    #[test]
    fn every_topic_reads_back_as_it_is_written() {
        for text in [
            "game:abc123",
            "chat:abc123:players",
            "chat:abc123:spectators",
            "chat:t-9_x:tournament",
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
            "chat:a b:tournament",
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
