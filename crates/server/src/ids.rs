//! Ids and the topics their updates go out on. A game's id is a
//! [`GameId`], checked once where it comes in (a path, a topic, a list
//! cursor); past that edge nothing checks it again.

use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Deref;

/// A new id (games, seeks, challenges, tournaments, tokens): 10
/// characters from an alphabet without look-alikes.
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..10)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Whether `id` could be an id made here (anything else is not looked up).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What an id made of text reads as: its text (`Deref`, `AsRef`,
/// `Display`), and the text it turns back into.
macro_rules! text_id {
    ($id:ident) => {
        impl From<$id> for String {
            fn from(id: $id) -> String {
                id.0
            }
        }

        impl Deref for $id {
            type Target = str;

            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $id {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $id {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

/// An id read from a request: checked when it is read (deserializing, or
/// [`parse`](GameId::parse)), so past the edge nothing checks it again; an
/// id from the store is taken as it is (`stored`).
macro_rules! checked_id {
    ($(#[$doc:meta])* $id:ident, $not_one:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $id(String);

        impl $id {
            /// `id` if it could be one.
            pub fn parse(id: &str) -> Option<$id> {
                valid_id(id).then(|| $id(id.to_string()))
            }

            /// An id read from the store (made here, so valid).
            pub fn stored(id: String) -> $id {
                debug_assert!(valid_id(&id), "stored id {id:?}");
                $id(id)
            }

            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl TryFrom<String> for $id {
            type Error = &'static str;

            fn try_from(id: String) -> Result<$id, &'static str> {
                if valid_id(&id) {
                    Ok($id(id))
                } else {
                    Err($not_one)
                }
            }
        }

        text_id!($id);
    };
}

/// What a game id that cannot be one deserializes to as an error (in a
/// request's body or a socket's message; a path's is `IdPath`'s 404, as for
/// an unknown id).
pub const NOT_A_GAME_ID: &str = "not a game id";

/// The same for a tournament's id ("no such tournament").
pub const NOT_A_TOURNAMENT_ID: &str = "not a tournament id";

checked_id!(
    /// A game's id: 1–40 ASCII letters, digits, `-` or `_` (so it is safe in
    /// a header, a file name or a topic).
    GameId,
    NOT_A_GAME_ID
);

impl GameId {
    /// A new random id.
    pub fn new_random() -> GameId {
        GameId(new_id())
    }
}

checked_id!(
    /// A tournament's id, made of the same characters as a game's.
    TournamentId,
    NOT_A_TOURNAMENT_ID
);

/// A player's public id: made by the server (a hash of a guest's token,
/// or an account's stored id), never read from a request, so it needs no
/// check; its own type keeps it from being taken for a game's id or a
/// name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PlayerId(String);

impl PlayerId {
    /// An id made or stored by the server.
    pub fn new(id: impl Into<String>) -> PlayerId {
        PlayerId(id.into())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

text_id!(PlayerId);

impl PartialEq<str> for PlayerId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<String> for PlayerId {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl PartialEq<PlayerId> for String {
    fn eq(&self, other: &PlayerId) -> bool {
        *self == other.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_before_lookup() {
        assert!(valid_id(&new_id()));
        assert!(!valid_id(""));
        assert!(!valid_id("../etc"));
        assert!(!valid_id(&"a".repeat(41)));
    }

    #[test]
    fn a_game_id_is_checked_when_it_is_read() {
        let id: GameId = serde_json::from_str("\"abc-9_Z\"").unwrap();
        assert_eq!(id.as_str(), "abc-9_Z");
        assert_eq!(serde_json::to_string(&id).unwrap(), "\"abc-9_Z\"");
        for bad in ["\"\"", "\"a/b\"", "\"a b\"", "\"caf\u{e9}\"", "7"] {
            assert!(serde_json::from_str::<GameId>(bad).is_err(), "{bad}");
        }
        let long = format!("\"{}\"", "a".repeat(41));
        let err = serde_json::from_str::<GameId>(&long).unwrap_err();
        assert!(err.to_string().contains(NOT_A_GAME_ID), "{err}");
        assert!(GameId::parse("x\r\ny").is_none());
        assert!(valid_id(&GameId::new_random()));
        let err = serde_json::from_str::<TournamentId>("\"a/b\"").unwrap_err();
        assert!(err.to_string().contains(NOT_A_TOURNAMENT_ID), "{err}");
        assert_eq!(TournamentId::parse("t-1").unwrap().as_str(), "t-1");
    }
}
