//! A game's chat as pages see it: a line, and a room's newest lines.

use crate::store::ChatRoom;
use serde::{Deserialize, Serialize};
use tensorchess_rules::Color;

/// One chat message as pages see it (its author's id is not shown).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct ChatLineView {
    /// The message's number (to report it).
    pub id: i64,
    /// `players` or `spectators`.
    pub room: ChatRoom,
    /// The author's name when it was written.
    pub name: String,
    /// The author's account (its username, for a link to the profile);
    /// absent for a guest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub account: Option<String>,
    /// The author's seat, in the players' room.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seat: Option<Color>,
    /// `BOT` when the author is a bot account (shown before the name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<super::Title>,
    /// The text, to be shown as text (never as HTML, links not made).
    pub text: String,
    /// When it was written (ms).
    pub at: i64,
}

/// A room's messages (`GET /api/games/{id}/chat?room=`).
#[derive(Serialize, Clone, Debug, ts_rs::TS)]
pub struct ChatView {
    /// The room.
    pub room: ChatRoom,
    /// The newest messages, oldest first.
    pub lines: Vec<ChatLineView>,
    /// Whether the asker muted the other side in this game (their lines
    /// are left out here, and the page hides new ones).
    pub muted: bool,
    /// Whether the asker may write in this room.
    pub can_write: bool,
}
