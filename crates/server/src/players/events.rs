//! Account events acted on at once, on every server: a logout, a password
//! change, a ban or a closed account is logged in the store
//! ([`AccountEvent`]); each server reads the log (when told by a notice,
//! and by polling, which also covers a single server over a file that an
//! `admin` command changed), forgets the tokens it remembered for the
//! player, and tells the player's open sockets ([`AccountSignal`]).

use super::Players;
use crate::store::{AccountChange, AccountEvent, StoreError};
use crate::views::ServerEvent;
use tokio::sync::broadcast;

/// Events read from the log at a time.
const EVENTS_PER_READ: usize = 500;

/// What a player's open sockets are told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountSignal {
    /// The sessions of `player` ended: a socket of a session other than
    /// `keep` closes (`keep: None` and `token_hash: Some`: only that one).
    SessionsEnded {
        /// The player's id.
        player: String,
        /// The one session that ended (a logout), by its token's hash.
        token_hash: Option<String>,
        /// The session that stays (a password change), by its token's hash.
        keep: Option<String>,
    },
    /// `player` was banned: their sockets say why and close.
    Banned {
        /// The player's id.
        player: String,
        /// The operator's reason, shown to the player.
        reason: String,
    },
}

impl AccountSignal {
    /// Whether a socket of `player` with session `token_hash` must close,
    /// and the event the page is sent first.
    pub fn closes(&self, player: &str, token_hash: &str) -> Option<ServerEvent> {
        match self {
            AccountSignal::SessionsEnded {
                player: p,
                token_hash: only,
                keep,
            } if p == player => {
                let ends = match (only, keep) {
                    (Some(only), _) => only == token_hash,
                    (None, Some(keep)) => keep != token_hash,
                    (None, None) => true,
                };
                ends.then(|| ServerEvent::SessionEnded {
                    message: "You were logged out (on another page, or by the server)".to_string(),
                })
            }
            AccountSignal::Banned { player: p, reason } if p == player => {
                Some(ServerEvent::Banned {
                    message: format!("You are banned from this server: {reason}"),
                })
            }
            _ => None,
        }
    }
}

impl Players {
    /// Open sockets listen here for their player's account events.
    pub fn signals(&self) -> broadcast::Receiver<AccountSignal> {
        self.signals.subscribe()
    }

    /// Starts reading the log after its newest event (nothing older
    /// concerns a server that remembers nothing yet).
    pub async fn start_events(&self) -> Result<(), StoreError> {
        let last = self.store.last_account_event().await?;
        let mut seen = self.events_seen.lock().await;
        *seen = (*seen).max(last);
        Ok(())
    }

    /// Reads the account events not yet acted on, and acts on them.
    pub async fn catch_up(&self) {
        // One reader at a time, so that no event is acted on twice.
        let mut seen = self.events_seen.lock().await;
        loop {
            let events = match self.store.account_events(*seen, EVENTS_PER_READ).await {
                Ok(events) => events,
                Err(e) => {
                    tracing::warn!("account events could not be read: {e}");
                    return;
                }
            };
            let Some(last) = events.last().map(|e| e.seq) else {
                return;
            };
            for event in &events {
                self.act_on(event).await;
            }
            *seen = last;
            if events.len() < EVENTS_PER_READ {
                return;
            }
        }
    }

    async fn act_on(&self, event: &AccountEvent) {
        let player = &event.player_id;
        match &event.change {
            AccountChange::Logout { token_hash } => {
                self.forget(token_hash);
                let _ = self.signals.send(AccountSignal::SessionsEnded {
                    player: player.clone(),
                    token_hash: Some(token_hash.clone()),
                    keep: None,
                });
            }
            AccountChange::SessionsEnded { keep } => {
                self.forget_player(player);
                let _ = self.signals.send(AccountSignal::SessionsEnded {
                    player: player.clone(),
                    token_hash: None,
                    keep: keep.clone(),
                });
            }
            AccountChange::Closed => {
                self.forget_player(player);
                let _ = self.signals.send(AccountSignal::SessionsEnded {
                    player: player.clone(),
                    token_hash: None,
                    keep: None,
                });
            }
            AccountChange::Banned => {
                self.forget_player(player);
                let reason = match self.store.ban_of(player).await {
                    Ok(Some(ban)) => ban.reason,
                    // Lifted meanwhile: an unban event follows.
                    Ok(None) => return,
                    Err(e) => {
                        tracing::warn!("the ban of {player} could not be read: {e}");
                        String::new()
                    }
                };
                let _ = self.signals.send(AccountSignal::Banned {
                    player: player.clone(),
                    reason,
                });
            }
            AccountChange::Unbanned | AccountChange::Renamed => self.forget_player(player),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signals_close_the_right_sockets() {
        let only = AccountSignal::SessionsEnded {
            player: "p".into(),
            token_hash: Some("t1".into()),
            keep: None,
        };
        assert!(only.closes("p", "t1").is_some());
        assert!(only.closes("p", "t2").is_none());
        assert!(only.closes("q", "t1").is_none());
        let others = AccountSignal::SessionsEnded {
            player: "p".into(),
            token_hash: None,
            keep: Some("t1".into()),
        };
        assert!(others.closes("p", "t1").is_none());
        assert!(others.closes("p", "t2").is_some());
        let ban = AccountSignal::Banned {
            player: "p".into(),
            reason: "spam".into(),
        };
        let Some(ServerEvent::Banned { message }) = ban.closes("p", "t9") else {
            panic!("not banned")
        };
        assert!(message.contains("spam"));
        assert!(ban.closes("q", "t9").is_none());
    }
}
