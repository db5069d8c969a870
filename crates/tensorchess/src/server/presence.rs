//! Who is connected to which online game: each WebSocket subscription of a
//! seat holder counts while it lasts. Changes are announced on the game's topic.

use super::hub::Hub;
use super::ids::game_topic;
use super::views::ServerEvent;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tensorchess_rules::Color;

fn idx(c: Color) -> usize {
    c.index()
}

/// Who is connected to which online game: each WebSocket subscription of a
/// seat holder counts while it lasts. Changes are announced on the game's topic.
pub struct Presence {
    hub: Arc<Hub>,
    counts: Mutex<HashMap<String, [u32; 2]>>,
    /// Open connections by player.
    players: Mutex<HashMap<String, u32>>,
}

impl Presence {
    pub fn new(hub: Arc<Hub>) -> Presence {
        Presence {
            hub,
            counts: Mutex::new(HashMap::new()),
            players: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a connection of `player` until [`PlayerHere::leave`].
    pub fn player_here(self: &Arc<Self>, player: &str) -> PlayerHere {
        *self
            .players
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(player.to_string())
            .or_insert(0) += 1;
        PlayerHere {
            presence: self.clone(),
            player: player.to_string(),
            left: false,
        }
    }

    /// Whether `player` has a connection open.
    pub fn is_here(&self, player: &str) -> bool {
        self.players
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(player)
    }

    /// Counts a connection out; true when it was the player's last.
    fn player_gone(&self, player: &str) -> bool {
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        let Some(n) = players.get_mut(player) else {
            return false;
        };
        *n -= 1;
        if *n == 0 {
            players.remove(player);
            true
        } else {
            false
        }
    }

    /// `[white, black]`: whether each player is connected.
    pub fn connected(&self, id: &str) -> [bool; 2] {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts
            .get(id)
            .map_or([false, false], |c| [c[0] > 0, c[1] > 0])
    }

    /// Counts a connection of `seat` until the guard is dropped.
    pub fn enter(self: &Arc<Self>, id: &str, seat: Color) -> PresenceGuard {
        let changed = {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            let c = counts.entry(id.to_string()).or_insert([0, 0]);
            c[idx(seat)] += 1;
            c[idx(seat)] == 1
        };
        if changed {
            self.announce(id);
        }
        PresenceGuard {
            presence: self.clone(),
            id: id.to_string(),
            seat,
        }
    }

    fn leave(&self, id: &str, seat: Color) {
        let changed = {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            let Some(c) = counts.get_mut(id) else {
                return;
            };
            c[idx(seat)] = c[idx(seat)].saturating_sub(1);
            let changed = c[idx(seat)] == 0;
            if *c == [0, 0] {
                counts.remove(id);
            }
            changed
        };
        if changed {
            self.announce(id);
        }
    }

    fn announce(&self, id: &str) {
        let [white, black] = self.connected(id);
        let topic = game_topic(id);
        self.hub.publish(
            &topic,
            &ServerEvent::Presence {
                topic: topic.clone(),
                white,
                black,
            },
        );
    }

    /// Games with a connected player (for tests and statistics).
    pub fn games(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// A connected player; dropping it (unsubscribe, disconnect) counts them out.
pub struct PresenceGuard {
    presence: Arc<Presence>,
    id: String,
    seat: Color,
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        self.presence.leave(&self.id, self.seat);
    }
}

/// A player's open connection.
pub struct PlayerHere {
    presence: Arc<Presence>,
    player: String,
    left: bool,
}

impl PlayerHere {
    /// The connection closed; true when it was the player's last.
    pub fn leave(mut self) -> bool {
        self.left = true;
        self.presence.player_gone(&self.player)
    }
}

impl Drop for PlayerHere {
    fn drop(&mut self) {
        if !self.left {
            self.presence.player_gone(&self.player);
        }
    }
}
