//! `GET /api/health`: whether this instance is up and hears the others,
//! for a load balancer's health check and for tests, with the counters an
//! operator graphs. It reads no database.

use crate::AppState;
use axum::extract::State;
use axum::Json;
use serde::Serialize;
use std::sync::atomic::Ordering;

/// This instance's state.
#[derive(Serialize, Debug)]
pub struct HealthView {
    pub ok: bool,
    /// This instance's name in the notices instances send each other.
    pub instance: String,
    /// Whether other instances may share the database (PostgreSQL).
    pub shared: bool,
    /// Whether this instance hears the others' notices (always true when
    /// the database is not shared).
    pub listening: bool,
    /// Games held in memory.
    pub games_in_memory: usize,
    /// TCP connections open now.
    pub connections: usize,
    /// WebSockets open now.
    pub sockets: usize,
    /// Live-update topics with a subscriber.
    pub topics: usize,
    /// Engine searches running and waiting (and background ones waiting).
    pub engine_running: usize,
    pub engine_waiting: usize,
    pub engine_background_waiting: usize,
    /// Open seeks in the lobby (as this instance knows them).
    pub seeks: usize,
    /// Since this instance started: sockets dropped because their client
    /// did not read, requests and connections refused for overload, and
    /// request bodies that did not arrive in time.
    pub slow_sockets_dropped: u64,
    pub overloaded: u64,
    pub body_timeouts: u64,
    /// Other instances' commits to games held here since the start:
    /// played on from their notices (one plain move), and read again from
    /// the store (anything else, or a notice missed).
    pub games_played_on: u64,
    pub games_read_again: u64,
    /// Arena pairing waves this instance directed since it started, and
    /// the latest of them (oldest first).
    pub arena_waves: u64,
    pub arena_recent_waves: Vec<crate::tournaments::waves::WaveStat>,
    /// Arenas this instance directs and keeps in memory between ticks.
    pub arenas_in_memory: usize,
    /// Threads running this instance's work (`serve --workers`).
    pub workers: usize,
}

pub async fn health(State(state): State<AppState>) -> Json<HealthView> {
    let live = &state.games.live;
    let cluster = live.cluster();
    let shared = live.store().shared();
    let listening = !shared || cluster.is_listening();
    let budget = state.games.local.engine().budget();
    let (engine_running, engine_waiting) = budget.load();
    let m = &state.metrics;
    let (arena_waves, arena_recent_waves) = state.tournaments.waves.snapshot();
    Json(HealthView {
        ok: !live.is_stopping() && listening,
        instance: cluster.instance().to_string(),
        shared,
        listening,
        games_in_memory: live.count(),
        connections: m.connections(),
        sockets: m.sockets(),
        topics: live.hub().topic_count(),
        engine_running,
        engine_waiting,
        engine_background_waiting: budget.background_waiting(),
        seeks: state.lobby.open_seeks(),
        slow_sockets_dropped: m.slow_sockets_dropped.load(Ordering::Relaxed),
        overloaded: m.overloaded.load(Ordering::Relaxed),
        body_timeouts: m.body_timeouts.load(Ordering::Relaxed),
        games_played_on: cluster.played_on.load(Ordering::Relaxed),
        games_read_again: cluster.read_again.load(Ordering::Relaxed),
        arena_waves,
        arena_recent_waves,
        arenas_in_memory: state.tournaments.arenas_in_memory(),
        workers: tokio::runtime::Handle::current().metrics().num_workers(),
    })
}
