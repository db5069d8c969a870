//! What servers sharing one database tell each other (PostgreSQL's
//! `NOTIFY`): a game's new revision, the lobby's changes, who is connected.
//! Each notice is one JSON object tagged by `t`, far below PostgreSQL's
//! 8,000-byte payload limit; anything that does not parse is ignored (a
//! newer server may send more kinds).
//!
//! Notices can be lost (a listener's connection drops): every game notice
//! carries the revision, so a server that reconnects reloads the games it
//! holds and compares ([`StoreNotice::Listening`]).

use crate::{GameUpdate, MovesChange, OnlineRecord, StoredMove};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Presence keys sent in one notice at most (keeps a payload short).
pub const KEYS_PER_NOTICE: usize = 64;

/// A commit that added one move and changed nothing else but the
/// revision, the time and the online state (no end, no names, no
/// ratings): all a server needs to play it on from the revision before.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStep {
    /// The move (its ply is the game's length before it).
    pub played: StoredMove,
    /// When it was made (the game's `updated_at`).
    pub updated_at: i64,
    /// The online state after it (`None`: unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub online: Option<OnlineRecord>,
}

/// A notice with a [`GameStep`] above this many bytes goes without it
/// (PostgreSQL refuses a payload of 8,000 bytes or more).
pub const MAX_STEP_NOTICE: usize = 6_000;

impl GameStep {
    /// The step of a commit, if it is one plain move.
    pub fn of(moves: &MovesChange, update: &GameUpdate) -> Option<GameStep> {
        let MovesChange::Push(played) = moves else {
            return None;
        };
        let plain = update.ending.is_none() && update.names.is_none() && update.ratings.is_empty();
        plain.then(|| GameStep {
            played: played.clone(),
            updated_at: update.updated_at,
            online: update.online.clone(),
        })
    }
}

/// A tournament's new game and its players, as [`Notice::Pairings`]
/// carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedGame {
    /// The game's id.
    pub game: String,
    /// White's player id.
    pub white: String,
    /// Black's player id.
    pub black: String,
}

/// One server's notice to the others.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Notice {
    /// A game was committed at revision `rev` (sent by the store, in the
    /// commit's own transaction, so it is heard only if the commit holds).
    Game {
        /// The game's id.
        id: String,
        /// Its new revision.
        rev: i64,
        /// The server whose commit it was (it ignores its own); absent
        /// from servers that do not say.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<String>,
        /// The change itself when it was one plain move: a server holding
        /// the revision before plays it on without reading the game.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<Box<GameStep>>,
    },
    /// A game was deleted.
    Deleted {
        /// The game's id.
        id: String,
    },
    /// An account event was logged (sent by the store, in the event's own
    /// transaction): read the events after the last one acted on.
    Account {
        /// The event's number ([`AccountEvent::seq`](crate::AccountEvent::seq)).
        seq: i64,
    },
    /// A seek was posted on `from`: the lobby's `seek_added` event, as
    /// that server's lobby serialized it (the store does not read it).
    SeekAdded {
        /// The server that sends it (its instance name).
        from: String,
        /// The event, as pages receive it.
        text: String,
    },
    /// Seeks went (cancelled, taken, lapsed, or their creator left).
    SeeksRemoved {
        /// The server that sends it (its instance name).
        from: String,
        /// The seeks' ids.
        ids: Vec<String>,
    },
    /// A seek became a game: the seek's creator may be on another server.
    Paired {
        /// The server that sends it (its instance name).
        from: String,
        /// The seek's id.
        seek: String,
        /// The new game's id.
        game: String,
        /// The players' ids, White's first.
        players: [String; 2],
    },
    /// A message `from` sent to its pages following `topic` (a chat
    /// line, a challenge's news): the others send it to theirs.
    Relay {
        /// The sending server.
        from: String,
        /// The hub topic (`chat:{game}:{room}`, `challenges:{player}`).
        topic: String,
        /// The message as pages receive it: the sender's typed event,
        /// serialized once for its pages and the others'.
        text: String,
    },
    /// Tournament `id` changed on `from` (`event`: `joined`, `standings`,
    /// …): the others tell their pages, from the store (a tournament's view
    /// is far above a notice's size).
    Tournament {
        /// The sending server.
        from: String,
        /// The tournament's id.
        id: String,
        /// What happened.
        event: crate::TournamentNews,
    },
    /// New games of tournament `id`, paired on `from`: the others tell
    /// each player's own pages (their `challenges:{player}` topic) of
    /// theirs, so that the page opens it.
    Pairings {
        /// The sending server.
        from: String,
        /// The tournament's id.
        id: String,
        /// The games, with their players.
        games: Vec<PairedGame>,
    },
    /// Presence keys that became true (`true`) or false on `from`.
    Here {
        /// The server that sends it (its instance name).
        from: String,
        /// Each key with whether it is now here, in the order they changed
        /// (at most [`KEYS_PER_NOTICE`]).
        changes: Vec<(bool, String)>,
    },
    /// `from` (re)connected its listener: the others tell it what they hold.
    Hello {
        /// The server that sends it (its instance name).
        from: String,
    },
    /// `from` is up (sent with every heartbeat); a server not heard from
    /// for a while is taken for dead and its presence forgotten.
    Alive {
        /// The server that sends it (its instance name).
        from: String,
    },
    /// `from` stops (its presence goes at once).
    Bye {
        /// The server that sends it (its instance name).
        from: String,
    },
}

/// What a store's listener hands on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreNotice {
    /// A notice's text, to [`Notice::parse`].
    Text(String),
    /// The listener (re)connected: notices may have been missed before.
    Listening,
}

impl Notice {
    /// Reads a notice's text; `None` for anything else.
    ///
    /// ```
    /// use tensorchess_store::Notice;
    /// let n = Notice::Game { id: "abc".into(), rev: 7, from: Some("f00d".into()), step: None };
    /// assert_eq!(Notice::parse(&n.to_string()), Some(n));
    /// assert_eq!(Notice::parse(r#"{"t":"game","id":"abc","rev":"seven"}"#), None);
    /// ```
    pub fn parse(text: &str) -> Option<Notice> {
        serde_json::from_str(text).ok()
    }

    /// The server that sent it, for the notices that name one.
    pub fn from(&self) -> Option<&str> {
        match self {
            Notice::Game { from, .. } => from.as_deref(),
            Notice::Deleted { .. } | Notice::Account { .. } => None,
            Notice::SeekAdded { from, .. }
            | Notice::SeeksRemoved { from, .. }
            | Notice::Paired { from, .. }
            | Notice::Relay { from, .. }
            | Notice::Tournament { from, .. }
            | Notice::Pairings { from, .. }
            | Notice::Here { from, .. }
            | Notice::Hello { from }
            | Notice::Alive { from }
            | Notice::Bye { from } => Some(from),
        }
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Serializing plain data does not fail.
        f.write_str(&serde_json::to_string(self).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notice_reads_back() {
        let from = "f00d".to_string();
        for n in [
            Notice::Game {
                id: "g1".into(),
                rev: 12,
                from: None,
                step: None,
            },
            Notice::Game {
                id: "g1".into(),
                rev: 13,
                from: Some(from.clone()),
                step: None,
            },
            Notice::Game {
                id: "g1".into(),
                rev: 14,
                from: Some(from.clone()),
                step: Some(Box::new(GameStep {
                    played: StoredMove {
                        ply: 12,
                        uci: "e2e4".into(),
                        san: "e4".into(),
                    },
                    updated_at: 1_700_000_000_000,
                    online: Some(OnlineRecord {
                        ms: tensorchess_rules::ByColor::new(170_000, 175_500),
                        turn_started_at: Some(1_700_000_000_000),
                        draw_offer_plies: tensorchess_rules::ByColor::new(Some(8), None),
                        ..OnlineRecord::default()
                    }),
                })),
            },
            Notice::Deleted { id: "g1".into() },
            Notice::Account { seq: 41 },
            Notice::SeekAdded {
                from: from.clone(),
                text:
                    r#"{"type":"seek_added","seek":{"id":"s1","player":{"name":"Ann \"A\" 💡"}}}"#
                        .into(),
            },
            Notice::SeeksRemoved {
                from: from.clone(),
                ids: vec!["s1".into(), "s2".into()],
            },
            Notice::Paired {
                from: from.clone(),
                seek: "s1".into(),
                game: "g2".into(),
                players: ["p1".into(), "p2".into()],
            },
            Notice::Pairings {
                from: from.clone(),
                id: "t1".into(),
                games: vec![PairedGame {
                    game: "g3".into(),
                    white: "p1".into(),
                    black: "p2".into(),
                }],
            },
            Notice::Relay {
                from: from.clone(),
                topic: "chat:g1:players".into(),
                text: r#"{"type":"chat","line":{"text":"gg \"well\" played"}}"#.into(),
            },
            Notice::Tournament {
                from: from.clone(),
                id: "t1".into(),
                event: crate::TournamentNews::Standings,
            },
            Notice::Here {
                from: from.clone(),
                changes: vec![(true, "g:g1:w".into()), (false, "u:p1".into())],
            },
            Notice::Here {
                from: from.clone(),
                changes: vec![],
            },
            Notice::Hello { from: from.clone() },
            Notice::Alive { from: from.clone() },
            Notice::Bye { from },
        ] {
            let text = n.to_string();
            assert!(text.len() < 8000);
            assert_eq!(Notice::parse(&text), Some(n), "{text}");
        }
    }

    #[test]
    fn anything_else_is_ignored() {
        for text in [
            "",
            "g id 1",
            "{}",
            r#"{"t":"game"}"#,
            r#"{"t":"game","id":"g","rev":"1"}"#,
            r#"{"t":"someday","id":"g"}"#,
            r#"{"t":"paired","from":"a","seek":"b","game":"c","players":["d"]}"#,
            r#"{"t":"here","from":"a","changes":[[true]]}"#,
        ] {
            assert_eq!(Notice::parse(text), None, "{text:?}");
        }
    }
}
