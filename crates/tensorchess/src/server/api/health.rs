//! `GET /api/health`: whether this instance is up and hears the others,
//! for a load balancer's health check and for tests. It reads no database.

use crate::server::AppState;
use axum::extract::State;
use axum::Json;
use serde::Serialize;

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
}

pub async fn health(State(state): State<AppState>) -> Json<HealthView> {
    let live = &state.games.live;
    let cluster = live.cluster();
    let shared = live.store().shared();
    let listening = !shared || cluster.is_listening();
    Json(HealthView {
        ok: !live.is_stopping() && listening,
        instance: cluster.instance().to_string(),
        shared,
        listening,
        games_in_memory: live.count(),
    })
}
