//! What one client or account may hold open at once, beyond the listener's
//! per-connection caps: the programs' event streams per account (all its
//! tokens together), a game's streams per account, and, behind a trusted
//! proxy (where every connection comes from the proxy), the requests and
//! the sockets and streams they open per forwarded client.
//!
//! A held place is a [`Slot`] kept by what it stands for: the request (in
//! its extensions, as [`ClientSlot`]), the WebSocket's task, or the NDJSON
//! body, so it is freed however the connection ends.

use crate::error::AppError;
use crate::kind::Kind;
use crate::slots::{Slot, Slots};
use std::net::IpAddr;
use std::sync::Arc;

/// Event streams (`/api/stream/event`) one account may have open at once,
/// whatever its tokens: a bot, a board program and one reconnecting.
pub const EVENT_STREAMS_PER_ACCOUNT: usize = 3;
/// Streams of one game one account may have open at once.
pub const GAME_STREAMS_PER_ACCOUNT: usize = 2;

/// A forwarded client's place, held by its request and what it opens.
#[derive(Clone)]
pub struct ClientSlot(#[allow(dead_code)] Arc<Slot<IpAddr>>);

/// The caps on what is held open.
pub struct Held {
    event_streams: Arc<Slots<String>>,
    game_streams: Arc<Slots<(String, String)>>,
    forwarded: Arc<Slots<IpAddr>>,
}

impl Held {
    /// Caps with `per_client` requests at once per forwarded client (the
    /// listener's per-address cap).
    pub fn new(per_client: usize) -> Held {
        Held {
            event_streams: Slots::new(EVENT_STREAMS_PER_ACCOUNT),
            game_streams: Slots::new(GAME_STREAMS_PER_ACCOUNT),
            forwarded: Slots::new(per_client),
        }
    }

    /// A place for one more event stream of `account`.
    pub fn event_stream(&self, account: &str) -> Result<Slot<String>, AppError> {
        self.event_streams
            .take(account.to_string())
            .ok_or_else(|| too_many(format!(
                "An account has at most {EVENT_STREAMS_PER_ACCOUNT} event streams open at once, whatever its tokens: close one first"
            )))
    }

    /// A place for one more stream of game `game` for `account`.
    pub fn game_stream(
        &self,
        account: &str,
        game: &str,
    ) -> Result<Slot<(String, String)>, AppError> {
        self.game_streams
            .take((account.to_string(), game.to_string()))
            .ok_or_else(|| too_many(format!(
                "An account has at most {GAME_STREAMS_PER_ACCOUNT} streams of one game open at once: close one first"
            )))
    }

    /// A place for one more request of a client behind a trusted proxy
    /// (`key`: its per-address limit key).
    pub fn forwarded_client(&self, key: IpAddr) -> Result<ClientSlot, AppError> {
        self.forwarded
            .take(key)
            .map(|slot| ClientSlot(Arc::new(slot)))
            .ok_or_else(|| {
                AppError::refused(
                    Kind::TooMany,
                    format!(
                        "At most {} requests and connections at once from one address",
                        self.forwarded.cap()
                    ),
                )
            })
    }
}

fn too_many(message: String) -> AppError {
    AppError::refused(Kind::TooMany, message)
}
