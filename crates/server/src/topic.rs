//! The topics a page follows on its socket, read once where they come in
//! (`subscribe`): `game:{id}`, `chat:{id}:{room}` (a game's two rooms, or
//! `chat:{id}:tournament`, a tournament's room), `tournament:{id}`,
//! `lobby` and `challenges`. Past that edge a topic is [`Topic`], and in
//! the hub a [`HubTopic`] (where `challenges` is the follower's own); its
//! text is made again only to name it on the wire or between instances.

use crate::ids::{GameId, PlayerId, TournamentId};
use crate::store::ChatRoom;
use std::fmt;

/// The topic of the lobby's updates.
pub const LOBBY_TOPIC: &str = "lobby";

/// The topic a player follows for their challenges (each sees their own).
pub const CHALLENGES_TOPIC: &str = "challenges";

/// The prefix of a tournament's WebSocket topic (`tournament:{id}`).
pub const TOURNAMENT_TOPIC_PREFIX: &str = "tournament:";

/// The prefix of a player's games' starts (`started:{player}`).
const STARTED_PREFIX: &str = "started:";

/// A topic `chat:{id}:{room}`, read.
fn parse_chat_topic(topic: &str) -> Option<(&str, ChatRoom)> {
    let rest = topic.strip_prefix("chat:")?;
    let (id, room) = rest.rsplit_once(':')?;
    Some((id, ChatRoom::parse(room)?))
}

/// A topic of the hub: what is published and followed. One for each
/// topic a page may follow, but a player's challenges are their own
/// (`challenges:{player}`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HubTopic {
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
    /// One player's own challenges, sent and received.
    ChallengesOf(PlayerId),
    /// One player's games as they begin (the programs' event stream's
    /// `gameStart`): the server's own, no page follows it.
    StartedOf(PlayerId),
}

impl HubTopic {
    /// The topic of a game's updates (its id from the store or a checked
    /// request).
    pub fn game(id: &str) -> HubTopic {
        HubTopic::Game(GameId::stored(id.to_string()))
    }

    /// The topic of a room: a game's two, or a tournament's (whose id is
    /// the tournament's).
    pub fn chat(id: &str, room: ChatRoom) -> HubTopic {
        match room {
            ChatRoom::Tournament => HubTopic::TournamentChat(TournamentId::stored(id.to_string())),
            room => HubTopic::Chat(GameId::stored(id.to_string()), room),
        }
    }

    /// The topic of a tournament's news.
    pub fn tournament(id: &str) -> HubTopic {
        HubTopic::Tournament(TournamentId::stored(id.to_string()))
    }

    /// The topic of `player`'s own challenges.
    pub fn challenges_of(player: &str) -> HubTopic {
        HubTopic::ChallengesOf(PlayerId::new(player))
    }

    /// The topic on which `player` hears of their games' starts.
    pub fn started_of(player: &str) -> HubTopic {
        HubTopic::StartedOf(PlayerId::new(player))
    }

    /// Whether a topic may be followed by thousands of pages at once (a
    /// large arena's, the lobby): its messages reach them a shard at a
    /// time (the hub's `crowd`).
    pub fn is_crowded(&self) -> bool {
        matches!(self, HubTopic::Tournament(_) | HubTopic::Lobby)
    }

    /// Whether this is one player's own topic (their challenges), which
    /// hears little and of which there is one per page open.
    pub fn is_personal(&self) -> bool {
        matches!(self, HubTopic::ChallengesOf(_))
    }

    /// A topic named by another instance (its [`Display`](fmt::Display)).
    pub fn parse(text: &str) -> Option<HubTopic> {
        if let Some(player) = text
            .strip_prefix(CHALLENGES_TOPIC)
            .and_then(|rest| rest.strip_prefix(':'))
        {
            return (!player.is_empty()).then(|| HubTopic::challenges_of(player));
        }
        if let Some(player) = text.strip_prefix(STARTED_PREFIX) {
            return (!player.is_empty()).then(|| HubTopic::started_of(player));
        }
        Some(match Topic::parse(text)? {
            Topic::Game(id) => HubTopic::Game(id),
            Topic::Chat(id, room) => HubTopic::Chat(id, room),
            Topic::TournamentChat(id) => HubTopic::TournamentChat(id),
            Topic::Tournament(id) => HubTopic::Tournament(id),
            Topic::Lobby => HubTopic::Lobby,
            // Always named with its player between instances.
            Topic::Challenges => return None,
        })
    }
}

impl fmt::Display for HubTopic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubTopic::Game(id) => write!(f, "game:{id}"),
            HubTopic::Chat(id, room) => write!(f, "chat:{id}:{}", room.as_str()),
            HubTopic::TournamentChat(id) => {
                write!(f, "chat:{id}:{}", ChatRoom::Tournament.as_str())
            }
            HubTopic::Tournament(id) => write!(f, "{TOURNAMENT_TOPIC_PREFIX}{id}"),
            HubTopic::Lobby => f.write_str(LOBBY_TOPIC),
            HubTopic::ChallengesOf(player) => write!(f, "{CHALLENGES_TOPIC}:{player}"),
            HubTopic::StartedOf(player) => write!(f, "{STARTED_PREFIX}{player}"),
        }
    }
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

impl Topic {
    /// The hub's topic that `follower` hears this one on.
    pub fn in_hub(&self, follower: &str) -> HubTopic {
        match self {
            Topic::Game(id) => HubTopic::Game(id.clone()),
            Topic::Chat(id, room) => HubTopic::Chat(id.clone(), *room),
            Topic::TournamentChat(id) => HubTopic::TournamentChat(id.clone()),
            Topic::Tournament(id) => HubTopic::Tournament(id.clone()),
            Topic::Lobby => HubTopic::Lobby,
            Topic::Challenges => HubTopic::challenges_of(follower),
        }
    }
}

impl fmt::Display for Topic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Topic::Challenges => f.write_str(CHALLENGES_TOPIC),
            other => other.in_hub("").fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topics_read_back() {
        let t = HubTopic::chat("abc123", ChatRoom::Spectators).to_string();
        assert_eq!(t, "chat:abc123:spectators");
        assert_eq!(parse_chat_topic(&t), Some(("abc123", ChatRoom::Spectators)));
        assert_eq!(parse_chat_topic("chat:abc:lobby"), None);
        assert_eq!(parse_chat_topic("game:abc"), None);
        assert_eq!(
            HubTopic::chat("t1", ChatRoom::Tournament),
            HubTopic::TournamentChat(TournamentId::stored("t1".into()))
        );
    }

    #[test]
    fn a_player_s_challenges_are_a_personal_topic() {
        assert!(HubTopic::challenges_of("abc").is_personal());
        for other in ["lobby", "game:abc", "tournament:t", "chat:t:tournament"] {
            let topic = HubTopic::parse(other).unwrap_or_else(|| panic!("{other}"));
            assert!(!topic.is_personal(), "{other}");
        }
        // The page's `challenges` is the follower's own in the hub.
        assert_eq!(
            Topic::Challenges.in_hub("p1"),
            HubTopic::challenges_of("p1")
        );
    }

    /// Topics written alike by pages and in the hub.
    const SHARED_TOPICS: [&str; 6] = [
        "game:abc123",
        "chat:abc123:players",
        "chat:abc123:spectators",
        "chat:t-9_x:tournament",
        "tournament:t-9_x",
        "lobby",
    ];

    /// Another instance's topic reads back as it was written; a page's
    /// bare `challenges` is never one (the hub's is a player's).
    #[test]
    fn hub_topics_read_back_as_they_are_written() {
        let own = ["challenges:p-1", "started:p-1"];
        for text in SHARED_TOPICS.into_iter().chain(own) {
            let topic = HubTopic::parse(text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(topic.to_string(), text);
        }
        for text in [
            "challenges",
            "challenges:",
            "challengesx:a",
            "started:",
            "game:a b",
            "",
        ] {
            assert_eq!(HubTopic::parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn every_topic_reads_back_as_it_is_written() {
        for text in SHARED_TOPICS.into_iter().chain(["challenges"]) {
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
