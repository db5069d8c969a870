//! `GET /api/bot/online`.

use crate::bot::{OnlineBot, BOT_TITLE};
use serde::Serialize;

/// One line per bot with a stream open.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct OnlineBotView {
    /// The player's id.
    pub id: String,
    /// The account's user name.
    pub username: String,
    /// Always `BOT`.
    pub title: &'static str,
}

impl From<OnlineBot> for OnlineBotView {
    fn from(b: OnlineBot) -> OnlineBotView {
        OnlineBotView {
            id: b.id,
            username: b.username,
            title: BOT_TITLE,
        }
    }
}
