//! What servers sharing one database tell each other (PostgreSQL's
//! `NOTIFY`): a game's new revision, the lobby's changes, who is connected.
//! Each notice is one short line of text, far below PostgreSQL's 8,000-byte
//! payload limit; anything that does not parse is ignored (a newer server
//! may send more kinds).
//!
//! Notices can be lost (a listener's connection drops): every game notice
//! carries the revision, so a server that reconnects reloads the games it
//! holds and compares ([`StoreNotice::Listening`]).

use std::fmt;

/// Presence keys sent in one notice at most (keeps a payload short).
pub const KEYS_PER_NOTICE: usize = 64;

/// One server's notice to the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A game was committed at revision `rev` (sent by the store, in the
    /// commit's own transaction, so it is heard only if the commit holds).
    Game { id: String, rev: i64 },
    /// A game was deleted.
    Deleted { id: String },
    /// An account event was logged (sent by the store, in the event's own
    /// transaction): read the events after the last one acted on.
    Account { seq: i64 },
    /// The open seeks changed (`from`: the server that changed them).
    Lobby { from: String },
    /// A seek became a game: the seek's creator may be on another server.
    Paired {
        from: String,
        seek: String,
        game: String,
        players: [String; 2],
    },
    /// Presence keys that became true (`true`) or false on `from`.
    Here {
        from: String,
        changes: Vec<(bool, String)>,
    },
    /// `from` (re)connected its listener: the others tell it what they hold.
    Hello { from: String },
    /// `from` is up (sent with every heartbeat); a server not heard from
    /// for a while is taken for dead and its presence forgotten.
    Alive { from: String },
    /// `from` stops (its presence goes at once).
    Bye { from: String },
}

/// What a store's listener hands on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreNotice {
    /// A notice's text, to [`Notice::parse`].
    Text(String),
    /// The listener (re)connected: notices may have been missed before.
    Listening,
}

/// Words in notices are ids, tokens and hashes: never empty, never spaces.
fn word(s: &str) -> bool {
    !s.is_empty() && s.len() <= 200 && !s.chars().any(char::is_whitespace)
}

impl Notice {
    /// Reads a notice's text; `None` for anything else.
    ///
    /// ```
    /// use tensorchess::server::store::Notice;
    /// let n = Notice::Game { id: "abc".into(), rev: 7 };
    /// assert_eq!(Notice::parse(&n.to_string()), Some(n));
    /// assert_eq!(Notice::parse("g abc seven"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Notice> {
        let mut w = text.split(' ');
        let kind = w.next()?;
        let mut next = || w.next().filter(|s| word(s)).map(str::to_string);
        let notice = match kind {
            "g" => Notice::Game {
                id: next()?,
                rev: next()?.parse().ok()?,
            },
            "x" => Notice::Deleted { id: next()? },
            "e" => Notice::Account {
                seq: next()?.parse().ok()?,
            },
            "l" => Notice::Lobby { from: next()? },
            "P" => Notice::Paired {
                from: next()?,
                seek: next()?,
                game: next()?,
                players: [next()?, next()?],
            },
            "h" => {
                let from = next()?;
                let mut changes = Vec::new();
                while let Some(c) = next() {
                    let (on, key) = match c.split_at(1) {
                        ("+", key) => (true, key),
                        ("-", key) => (false, key),
                        _ => return None,
                    };
                    if !word(key) {
                        return None;
                    }
                    changes.push((on, key.to_string()));
                }
                return Some(Notice::Here { from, changes });
            }
            "H" => Notice::Hello { from: next()? },
            "a" => Notice::Alive { from: next()? },
            "b" => Notice::Bye { from: next()? },
            _ => return None,
        };
        // Nothing may follow.
        next().is_none().then_some(notice)
    }

    /// The server that sent it, for the notices that name one.
    pub fn from(&self) -> Option<&str> {
        match self {
            Notice::Game { .. } | Notice::Deleted { .. } | Notice::Account { .. } => None,
            Notice::Lobby { from }
            | Notice::Paired { from, .. }
            | Notice::Here { from, .. }
            | Notice::Hello { from }
            | Notice::Alive { from }
            | Notice::Bye { from } => Some(from),
        }
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Game { id, rev } => write!(f, "g {id} {rev}"),
            Notice::Deleted { id } => write!(f, "x {id}"),
            Notice::Account { seq } => write!(f, "e {seq}"),
            Notice::Lobby { from } => write!(f, "l {from}"),
            Notice::Paired {
                from,
                seek,
                game,
                players: [white, black],
            } => write!(f, "P {from} {seek} {game} {white} {black}"),
            Notice::Here { from, changes } => {
                write!(f, "h {from}")?;
                for (on, key) in changes {
                    write!(f, " {}{key}", if *on { '+' } else { '-' })?;
                }
                Ok(())
            }
            Notice::Hello { from } => write!(f, "H {from}"),
            Notice::Alive { from } => write!(f, "a {from}"),
            Notice::Bye { from } => write!(f, "b {from}"),
        }
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
            },
            Notice::Deleted { id: "g1".into() },
            Notice::Account { seq: 41 },
            Notice::Lobby { from: from.clone() },
            Notice::Paired {
                from: from.clone(),
                seek: "s1".into(),
                game: "g2".into(),
                players: ["p1".into(), "p2".into()],
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
            "g",
            "g id",
            "g id x",
            "g id 1 more",
            "g  1",
            "z a",
            "h f00d *key",
            "h f00d +",
            "P a b c d",
        ] {
            assert_eq!(Notice::parse(text), None, "{text:?}");
        }
    }
}
