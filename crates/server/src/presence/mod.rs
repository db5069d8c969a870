//! Who is connected to which online game: each WebSocket subscription of a
//! seat holder counts while it lasts. Changes are announced on the game's topic.
//! With several servers on one database, each also counts what the others
//! say they have connected (see `server::cluster`).
//!
//! It also counts, the same way, who watches a game without a seat (a
//! spectator is a player, counted once however many pages they have
//! open), and from it the site's counts: the players online and the games
//! with a player connected (the home page's), kept as keys come and go on
//! any server (`tally.rs`), never by going over every connection.

mod tally;

use crate::clock::Clock;
use crate::hub::Hub;
use crate::outbox::Cluster;
use crate::store::Notice;
use crate::topic::HubTopic;
use crate::views::ServerEvent;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use tensorchess_rules::Color;

fn idx(c: Color) -> usize {
    c.index()
}

/// The presence key of a seat of a game, as other servers are told it.
fn seat_key(id: &str, seat: Color) -> String {
    format!("g:{id}:{}", if seat == Color::White { 'w' } else { 'b' })
}

/// The presence key of a player with a connection open.
fn player_key(player: &str) -> String {
    format!("u:{player}")
}

/// The presence key of a spectator of game `id`.
fn watcher_key(id: &str, player: &str) -> String {
    format!("s:{id}:{player}")
}

/// The game a seat key or a spectator's key names.
fn game_of_key(key: &str) -> Option<&str> {
    if let Some(rest) = key.strip_prefix("g:") {
        return Some(rest.rsplit_once(':')?.0);
    }
    // A game's id has no colon; a player's id comes after it.
    Some(key.strip_prefix("s:")?.split_once(':')?.0)
}

/// Spectators of a game told of each coming and going; past this, told
/// once a second.
pub const SPECTATORS_TOLD_AT_ONCE: usize = 30;
/// How often the spectator counts held back are told (ms).
pub const SPECTATORS_TOLD_EVERY_MS: i64 = 1_000;

/// Games with a seat gone kept at most; past it, those whose players both
/// left long ago are forgotten (a bound on memory).
const MAX_SEEN: usize = 10_000;
/// A game whose seats have both been gone this long is forgotten first.
const FORGET_AFTER_MS: i64 = 3_600_000;

/// What the announcements of a game's presence last said, and since when
/// a seat that was connected is gone (for claiming a win, lichess's
/// `claimWinInSeconds`).
#[derive(Clone, Copy, Default)]
struct Seen {
    connected: [bool; 2],
    gone_since: [Option<i64>; 2],
}

/// What another server has connected, and when it was last heard of.
struct Remote {
    keys: HashSet<String>,
    heard: i64,
}

/// Who is connected to which online game: each WebSocket subscription of a
/// seat holder counts while it lasts. Changes are announced on the game's topic.
pub struct Presence {
    hub: Arc<Hub>,
    cluster: Arc<Cluster>,
    counts: Mutex<HashMap<String, [u32; 2]>>,
    /// Open connections by player.
    players: Mutex<HashMap<String, u32>>,
    /// Spectators' subscriptions here, by game and player.
    watchers: Mutex<HashMap<(String, String), u32>>,
    /// What the other servers on the database have connected, by server.
    remote: Mutex<HashMap<String, Remote>>,
    /// Each game's seats as last announced, and since when one is gone.
    seen: Mutex<HashMap<String, Seen>>,
    /// The keys of every server, counted (locked after `remote`).
    tally: Mutex<tally::Tally>,
    /// Games whose spectator count changed and is not told yet (a crowd's
    /// comings and goings are told once a second: [`Presence::tell_spectators`]).
    untold: Mutex<HashSet<String>>,
    /// The server's clock (when a seat was seen to go).
    clock: Arc<dyn Clock>,
}

impl Presence {
    /// Nobody here yet; changes are published on `hub` and told to the
    /// other servers through `cluster`; departures are timed on `clock`.
    pub fn new(hub: Arc<Hub>, cluster: Arc<Cluster>, clock: Arc<dyn Clock>) -> Presence {
        Presence {
            hub,
            cluster,
            counts: Mutex::new(HashMap::new()),
            players: Mutex::new(HashMap::new()),
            watchers: Mutex::new(HashMap::new()),
            remote: Mutex::new(HashMap::new()),
            seen: Mutex::new(HashMap::new()),
            tally: Mutex::default(),
            untold: Mutex::default(),
            clock,
        }
    }

    /// Since when `seat` of game `id` is gone: it was connected (to any
    /// server), and is not now. `None`: here, or never seen here.
    pub fn gone_since(&self, id: &str, seat: Color) -> Option<i64> {
        if self.connected(id)[idx(seat)] {
            return None;
        }
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.get(id).and_then(|s| s.gone_since[idx(seat)])
    }

    /// A request of `seat`'s player for game `id` (a move, any action)
    /// shows them there, page or not: a seat gone counts as gone from now,
    /// so that a player who moves by HTTP is not claimed against.
    pub fn seat_active(&self, id: &str, seat: Color) {
        let now = self.clock.now_ms();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(since) = seen
            .get_mut(id)
            .and_then(|s| s.gone_since[idx(seat)].as_mut())
        {
            *since = (*since).max(now);
        }
    }

    /// Notes what is announced for game `id`: a seat that goes starts its
    /// time gone; one that comes back ends it.
    fn note_seen(&self, id: &str, connected: [bool; 2]) {
        let now = self.clock.now_ms();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if seen.len() >= MAX_SEEN && !seen.contains_key(id) {
            seen.retain(|_, s| {
                s.connected.iter().any(|c| *c)
                    || s.gone_since
                        .iter()
                        .flatten()
                        .any(|t| now - t < FORGET_AFTER_MS)
            });
        }
        let s = seen.entry(id.to_string()).or_default();
        for (i, here) in connected.into_iter().enumerate() {
            if here {
                s.gone_since[i] = None;
            } else if s.connected[i] {
                s.gone_since[i] = Some(now);
            }
        }
        s.connected = connected;
    }

    fn tally(&self) -> std::sync::MutexGuard<'_, tally::Tally> {
        self.tally.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `key` became true or false here: counted, and told to the other
    /// servers.
    fn tell(&self, on: bool, key: String) {
        if on {
            self.tally().add(&key);
        } else {
            self.tally().remove(&key);
        }
        self.tell_others(on, key);
    }

    fn tell_others(&self, on: bool, key: String) {
        if self.cluster.is_shared() {
            self.cluster.send(Notice::Here {
                from: self.cluster.instance().to_string(),
                changes: vec![(on, key)],
            });
        }
    }

    /// Whether another server has `key`.
    fn remote_has(&self, key: &str) -> bool {
        let remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
        remote.values().any(|r| r.keys.contains(key))
    }

    /// Server `from` says what changed there (at `now`).
    pub fn remote_changes(&self, from: &str, changes: &[(bool, String)], now: i64) {
        // Games whose seats changed, and whose spectators did.
        let mut games = HashSet::new();
        let mut watched = HashSet::new();
        {
            let mut remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
            let r = remote.entry(from.to_string()).or_insert_with(|| Remote {
                keys: HashSet::new(),
                heard: now,
            });
            r.heard = now;
            let mut tally = self.tally();
            for (on, key) in changes {
                let changed = if *on {
                    r.keys.insert(key.clone())
                } else {
                    r.keys.remove(key)
                };
                match (changed, on) {
                    (true, true) => tally.add(key),
                    (true, false) => tally.remove(key),
                    _ => {}
                }
                if let (true, Some(game)) = (changed, game_of_key(key)) {
                    if key.starts_with("s:") {
                        watched.insert(game.to_string());
                    } else {
                        games.insert(game.to_string());
                    }
                }
            }
        }
        for game in &games {
            self.announce(game);
        }
        for game in watched.difference(&games) {
            self.spectators_changed(game);
        }
    }

    /// Server `from` is up at `now`.
    pub fn heard(&self, from: &str, now: i64) {
        let mut remote = self.remote.lock().unwrap_or_else(|e| e.into_inner());
        remote
            .entry(from.to_string())
            .or_insert_with(|| Remote {
                keys: HashSet::new(),
                heard: now,
            })
            .heard = now;
    }

    /// Forgets what server `from` had connected (it stopped, or was not
    /// heard from), telling the games concerned.
    pub fn forget(&self, from: &str) {
        let gone = self
            .remote
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(from);
        let gone = gone.map(|r| r.keys).unwrap_or_default();
        {
            let mut tally = self.tally();
            for key in &gone {
                tally.remove(key);
            }
        }
        self.announce_keys(gone);
    }

    /// Forgets the servers not heard from since `since`.
    pub fn expire(&self, since: i64) {
        let mut gone = HashSet::new();
        self.remote
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|from, r| {
                let alive = r.heard >= since;
                if !alive {
                    tracing::warn!(
                        "server {from} was not heard from: its connections are forgotten"
                    );
                    gone.extend(r.keys.drain());
                }
                alive
            });
        {
            let mut tally = self.tally();
            for key in &gone {
                tally.remove(key);
            }
        }
        self.announce_keys(gone);
    }

    fn announce_keys(&self, keys: HashSet<String>) {
        let games: HashSet<&str> = keys.iter().filter_map(|k| game_of_key(k)).collect();
        for game in games {
            self.announce(game);
        }
    }

    /// Everything connected here, for a server that just started listening.
    pub fn tell_all(&self) {
        let mut keys: Vec<String> = Vec::new();
        {
            let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            for (id, c) in counts.iter() {
                for seat in [Color::White, Color::Black] {
                    if c[idx(seat)] > 0 {
                        keys.push(seat_key(id, seat));
                    }
                }
            }
        }
        {
            let players = self.players.lock().unwrap_or_else(|e| e.into_inner());
            keys.extend(players.keys().map(|p| player_key(p)));
        }
        {
            let watchers = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
            keys.extend(watchers.keys().map(|(id, p)| watcher_key(id, p)));
        }
        // Counted here already: only told.
        for key in keys {
            self.tell_others(true, key);
        }
    }

    /// Counts a connection of `player` until [`PlayerHere::leave`].
    pub fn player_here(self: &Arc<Self>, player: &str) -> PlayerHere {
        let first = {
            let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
            let n = players.entry(player.to_string()).or_insert(0);
            *n += 1;
            *n == 1
        };
        if first {
            self.tell(true, player_key(player));
        }
        PlayerHere {
            presence: self.clone(),
            player: player.to_string(),
            left: false,
        }
    }

    /// Whether `player` has a connection open (here or on another server).
    pub fn is_here(&self, player: &str) -> bool {
        self.pages_here(player) > 0 || self.remote_has(&player_key(player))
    }

    /// The connections `player` has open on this server (their pages).
    pub fn pages_here(&self, player: &str) -> usize {
        let players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        players.get(player).map_or(0, |n| *n as usize)
    }

    /// Counts a connection out; true when it was the player's last, on
    /// every server.
    fn player_gone(&self, player: &str) -> bool {
        let last = {
            let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
            let Some(n) = players.get_mut(player) else {
                return false;
            };
            *n -= 1;
            let last = *n == 0;
            if last {
                players.remove(player);
            }
            last
        };
        if last {
            self.tell(false, player_key(player));
        }
        last && !self.remote_has(&player_key(player))
    }

    /// `[white, black]`: whether each player is connected (to any server).
    pub fn connected(&self, id: &str) -> [bool; 2] {
        let here = {
            let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            counts
                .get(id)
                .map_or([false, false], |c| [c[0] > 0, c[1] > 0])
        };
        [Color::White, Color::Black]
            .map(|seat| here[idx(seat)] || self.remote_has(&seat_key(id, seat)))
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
            self.tell(true, seat_key(id, seat));
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
            self.tell(false, seat_key(id, seat));
            self.announce(id);
        }
    }

    /// Counts `player` watching game `id` without a seat until the
    /// guard is dropped.
    pub fn watch(self: &Arc<Self>, id: &str, player: &str) -> WatchGuard {
        let key = (id.to_string(), player.to_string());
        let first = {
            let mut watchers = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
            let n = watchers.entry(key.clone()).or_insert(0);
            *n += 1;
            *n == 1
        };
        if first {
            self.tell(true, watcher_key(id, player));
            self.spectators_changed(id);
        }
        WatchGuard {
            presence: self.clone(),
            key,
        }
    }

    fn unwatch(&self, key: &(String, String)) {
        let last = {
            let mut watchers = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
            let Some(n) = watchers.get_mut(key) else {
                return;
            };
            *n = n.saturating_sub(1);
            let last = *n == 0;
            if last {
                watchers.remove(key);
            }
            last
        };
        if last {
            self.tell(false, watcher_key(&key.0, &key.1));
            self.spectators_changed(&key.0);
        }
    }

    /// How many players watch game `id` without a seat, on every server
    /// (each once, however many pages they have open).
    pub fn spectators(&self, id: &str) -> usize {
        self.tally().spectators(id)
    }

    /// How many players have a connection open, on every server.
    pub fn players_online(&self) -> usize {
        self.tally().players()
    }

    /// The games a player of which is connected, on every server.
    pub fn games_connected(&self) -> Vec<String> {
        self.tally().games().map(str::to_string).collect()
    }

    /// How many times a seat of a game came or went, on any server (the
    /// same number: the same seats connected).
    pub fn seat_changes(&self) -> u64 {
        self.tally().seat_changes()
    }

    /// The spectators of game `id` changed: told at once to a small
    /// audience, but to a crowd once a second at most (each coming or
    /// going told to every subscriber is a message per pair of them: a
    /// featured game under thousands of home pages).
    fn spectators_changed(&self, id: &str) {
        if self.spectators(id) <= SPECTATORS_TOLD_AT_ONCE {
            self.announce(id);
        } else {
            self.untold
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(id.to_string());
        }
    }

    /// Tells the spectator counts held back (the server's background work
    /// calls this every second).
    pub fn tell_spectators(&self) {
        let untold: Vec<String> = self
            .untold
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain()
            .collect();
        for id in untold {
            self.announce(&id);
        }
    }

    fn announce(&self, id: &str) {
        self.untold
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        let [white, black] = self.connected(id);
        self.note_seen(id, [white, black]);
        let spectators = self.spectators(id);
        let topic = HubTopic::game(id);
        self.hub.publish(
            &topic,
            ServerEvent::Presence {
                topic: topic.to_string(),
                white,
                black,
                spectators,
            },
        );
    }

    /// Games with a connected player (for tests and statistics).
    pub fn games(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// A spectator's subscription to a game; dropping it counts them out.
pub struct WatchGuard {
    presence: Arc<Presence>,
    key: (String, String),
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        self.presence.unwatch(&self.key);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    #[tokio::test]
    async fn a_crowd_of_spectators_is_told_once_a_second_not_one_by_one() {
        let hub = Arc::new(Hub::new());
        let presence = Arc::new(Presence::new(
            hub.clone(),
            Arc::new(Cluster::new()),
            Arc::new(ManualClock::new(0)),
        ));
        let mut rx = hub.subscribe(&HubTopic::game("g1"));
        let crowd = SPECTATORS_TOLD_AT_ONCE + 10;
        let guards: Vec<WatchGuard> = (0..crowd)
            .map(|i| presence.watch("g1", &format!("p{i}")))
            .collect();
        let told = |rx: &mut tokio::sync::broadcast::Receiver<crate::hub::Published>| {
            let mut counts = Vec::new();
            while let Ok(p) = rx.try_recv() {
                let crate::views::ServerEvent::Presence { spectators, .. } = p.event() else {
                    panic!("not presence: {:?}", p.event());
                };
                counts.push(*spectators as u64);
            }
            counts
        };
        // Each of the first ones told; the rest held back.
        let first: Vec<u64> = (1..=SPECTATORS_TOLD_AT_ONCE as u64).collect();
        assert_eq!(told(&mut rx), first);
        assert_eq!(presence.spectators("g1"), crowd);
        presence.tell_spectators();
        assert_eq!(told(&mut rx), [crowd as u64], "the crowd told once");
        presence.tell_spectators();
        assert!(told(&mut rx).is_empty(), "nothing new: nothing told");
        // The crowd goes: told at once again when few are left.
        drop(guards);
        let after = told(&mut rx);
        assert_eq!(after.last(), Some(&0));
        assert_eq!(after.len(), SPECTATORS_TOLD_AT_ONCE + 1, "{after:?}");
    }
}
