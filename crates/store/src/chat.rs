//! Chat: the players' room and the spectators' room of each online game,
//! and each tournament's room (stored alike, the tournament's id in
//! `game_id`: the room tells them apart); the reports players make of
//! messages, and mutes (the operator's, everywhere; a player's, of their
//! opponent in one game).

use crate::rows::Row;
use crate::StoreError;
use async_trait::async_trait;

/// Messages of one room kept and shown after a reload (the newest).
pub const CHAT_HISTORY: usize = 100;

/// A chat room: one of a game's two, or a tournament's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ChatRoom {
    /// The two players (spectators do not see it).
    Players,
    /// The spectators (players do not see it while the game runs).
    Spectators,
    /// A tournament's room: its players and everyone watching it.
    Tournament,
}

impl ChatRoom {
    /// Its name in URLs, topics and the database.
    pub fn as_str(self) -> &'static str {
        match self {
            ChatRoom::Players => "players",
            ChatRoom::Spectators => "spectators",
            ChatRoom::Tournament => "tournament",
        }
    }

    /// The room named `s`.
    pub fn parse(s: &str) -> Option<ChatRoom> {
        match s {
            "players" => Some(ChatRoom::Players),
            "spectators" => Some(ChatRoom::Spectators),
            "tournament" => Some(ChatRoom::Tournament),
            _ => None,
        }
    }
}

/// A message to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChatMessage {
    /// The game it was written in (a tournament's room: the tournament).
    pub game_id: String,
    /// Its room.
    pub room: ChatRoom,
    /// The author's player id.
    pub author: String,
    /// The author's name when it was written.
    pub name: String,
    /// The text (checked by the server: short, plain text).
    pub text: String,
    /// When it was written (ms, server clock).
    pub at: i64,
}

/// A stored message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatMessage {
    /// Its number, increasing in the order messages were stored.
    pub id: i64,
    /// The message itself.
    pub message: NewChatMessage,
}

/// A player's report of a message, for the operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatReport {
    /// The report's number.
    pub id: i64,
    /// The message reported.
    pub message: ChatMessage,
    /// Who reported it (player id).
    pub reporter: String,
    /// When (ms).
    pub at: i64,
}

/// The columns of a message, in [`read_message`]'s order.
pub const MESSAGE_COLUMNS: &str = "id, game_id, room, author, name, body, at";

/// A message from its columns (from column `at` on).
pub fn read_message(row: &impl Row, at: usize) -> Result<ChatMessage, StoreError> {
    let room = row.text_nn(at + 2)?;
    Ok(ChatMessage {
        id: row.int_nn(at)?,
        message: NewChatMessage {
            game_id: row.text_nn(at + 1)?,
            // Only these rooms are ever written.
            room: ChatRoom::parse(&room).unwrap_or(ChatRoom::Spectators),
            author: row.text_nn(at + 3)?,
            name: row.text_nn(at + 4)?,
            text: row.text_nn(at + 5)?,
            at: row.int_nn(at + 6)?,
        },
    })
}

/// An open report's columns (the report `r`), then its message's (`m`),
/// in [`read_report`]'s order.
pub const REPORT_COLUMNS: &str =
    "r.id, r.reporter, r.at, m.id, m.game_id, m.room, m.author, m.name, m.body, m.at";

/// A report from [`REPORT_COLUMNS`].
pub fn read_report(row: &impl Row) -> Result<ChatReport, StoreError> {
    Ok(ChatReport {
        id: row.int_nn(0)?,
        reporter: row.text_nn(1)?,
        at: row.int_nn(2)?,
        message: read_message(row, 3)?,
    })
}

/// Storage for chat. Each method is one atomic write or one read.
#[async_trait]
pub trait ChatRepo: Send + Sync + 'static {
    /// Stores a message; returns it with its number.
    async fn add_chat(&self, message: &NewChatMessage) -> Result<ChatMessage, StoreError>;
    /// The newest `limit` messages of a game's (or a tournament's) room,
    /// oldest first.
    async fn chat(
        &self,
        game_id: &str,
        room: ChatRoom,
        limit: usize,
    ) -> Result<Vec<ChatMessage>, StoreError>;
    /// One message.
    async fn chat_message(&self, id: i64) -> Result<Option<ChatMessage>, StoreError>;
    /// Reports a message for the operator, once per reporter and message,
    /// unless one of `caps` is full (counted in the same transaction).
    /// [`StoreError::Conflict`] for no such message.
    async fn report_chat(
        &self,
        report: &crate::trust::NewReport,
        caps: &crate::trust::ReportCaps,
    ) -> Result<crate::trust::Reported, StoreError>;
    /// Reports not yet closed, oldest first.
    async fn open_reports(&self) -> Result<Vec<ChatReport>, StoreError>;
    /// Closes a report (the operator dealt with it); `false` if no open
    /// report has that number.
    async fn close_report(&self, id: i64, at: i64) -> Result<bool, StoreError>;
    /// The operator mutes `player`'s chat everywhere until `until` (ms;
    /// `None` lifts the mute).
    async fn set_chat_mute(&self, player: &str, until: Option<i64>) -> Result<(), StoreError>;
    /// Until when `player`'s chat is muted, if it is.
    async fn chat_muted_until(&self, player: &str) -> Result<Option<i64>, StoreError>;
    /// `player` mutes (or unmutes) the other side's chat in game `game_id`.
    async fn set_opponent_muted(
        &self,
        player: &str,
        game_id: &str,
        muted: bool,
    ) -> Result<(), StoreError>;
    /// Whether `player` muted the other side's chat in game `game_id`.
    async fn opponent_muted(&self, player: &str, game_id: &str) -> Result<bool, StoreError>;
}
