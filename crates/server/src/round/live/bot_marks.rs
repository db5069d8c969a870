//! Which seated players are bot accounts, known without a store read when
//! a game's view is drawn (views are made under the game's lock, from
//! sync code): the players of a game are looked up when the game is made,
//! loaded or joined, and kept.
//!
//! Keeping "not a bot" is sound for a seated player: only an account that
//! has played no game becomes a bot account (`server::bot`), so a player
//! seated in a game never becomes one later. A player looked up for
//! another reason is kept only once known to be a bot.

use crate::store::{GameStore, StoreError};
use crate::views::Title;
use std::collections::HashMap;
use std::sync::Mutex;

/// More players than this kept, and the list starts again (read again
/// from the store as games are loaded): a bound on memory, never on truth.
const MAX_KEPT: usize = 100_000;

/// Seated players known to be bots or not.
#[derive(Default)]
pub struct BotMarks {
    known: Mutex<HashMap<String, bool>>,
}

impl BotMarks {
    /// Whether `player` is known to be a bot; `None`: not known here.
    pub fn known(&self, player: &str) -> Option<bool> {
        self.known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(player)
            .copied()
    }

    /// `BOT` for a player known to be a bot account.
    pub fn title(&self, player: Option<&str>) -> Option<Title> {
        player.and_then(|p| self.known(p)).and_then(Title::of_bot)
    }

    /// Notes what `player` is (an upgrade, a lookup).
    pub fn set(&self, player: &str, bot: bool) {
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() >= MAX_KEPT && !known.contains_key(player) {
            known.clear();
        }
        known.insert(player.to_string(), bot);
    }

    /// Looks up the seated `players` not known yet.
    pub async fn note_seated<'a>(
        &self,
        store: &dyn GameStore,
        players: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), StoreError> {
        for player in players {
            if self.known(player).is_none() {
                let bot = store.is_bot(player).await?;
                self.set(player, bot);
            }
        }
        Ok(())
    }
}
