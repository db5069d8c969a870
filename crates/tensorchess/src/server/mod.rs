//! The web app's server: a JSON API, a WebSocket for live updates, and the
//! page's files, embedded. Games are kept by a [`GameStore`] (SQLite here).
//!
//! | route | what |
//! |---|---|
//! | `GET /api/info` | games and levels on offer |
//! | `GET /api/games`, `POST /api/games` | saved games; a new game (start, FEN or PGN) |
//! | `GET/DELETE /api/games/{id}` | a game's whole state |
//! | `POST /api/games/{id}/moves` | `{"move": "c1e3>g5", "ply": 4}` |
//! | `POST /api/games/{id}/{takeback,resign,draw,hint}` | |
//! | `GET /api/games/{id}/eval?ply=N`, `GET /api/games/{id}/pgn` | |
//! | `POST /api/position` | legal moves of any position, optionally after a move |
//! | `GET /api/ws` | WebSocket: `{"type":"subscribe","topic":"game:ID"}` |

pub mod anygame;
pub mod api;
pub mod assets;
pub mod engine_player;
pub mod error;
pub mod games;
pub mod hub;
pub mod requests;
pub mod store;
pub mod views;
pub mod ws;

use axum::extract::DefaultBodyLimit;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use engine_player::EnginePlayer;
use error::AppError;
use games::Games;
use hub::Hub;
use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use store::{GameStore, SqliteStore, StoreError};
use tokio::sync::watch;

/// Largest request body (a PGN import is the largest thing sent).
pub const MAX_BODY: usize = 1 << 20;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    pub games: Arc<Games>,
    shutdown: Arc<watch::Sender<bool>>,
}

impl AppState {
    pub fn new(store: Arc<dyn GameStore>) -> AppState {
        let games = Games::new(store, Arc::new(Hub::new()), Arc::new(EnginePlayer::new()));
        AppState {
            games: Arc::new(games),
            shutdown: Arc::new(watch::channel(false).0),
        }
    }

    /// State over an SQLite file (created, and its schema migrated, if needed).
    pub fn open(db: &Path) -> Result<AppState, StoreError> {
        Ok(AppState::new(Arc::new(SqliteStore::open(db)?)))
    }

    /// Stops engine searches and closes WebSockets (server shutdown).
    pub fn shutdown(&self) {
        self.games.shutdown();
        self.shutdown.send_replace(true);
    }

    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }
}

/// The router: API, WebSocket and page.
pub fn app(state: AppState) -> Router {
    let api = Router::new()
        .route("/info", get(api::info))
        .route("/games", get(api::list_games).post(api::create_game))
        .route("/games/{id}", get(api::get_game).delete(api::delete_game))
        .route("/games/{id}/moves", post(api::play_move))
        .route("/games/{id}/takeback", post(api::takeback))
        .route("/games/{id}/resign", post(api::resign))
        .route("/games/{id}/draw", post(api::offer_draw))
        .route("/games/{id}/hint", post(api::hint))
        .route("/games/{id}/eval", get(api::evaluate))
        .route("/games/{id}/pgn", get(api::pgn))
        .route("/position", post(api::position))
        .route("/ws", get(ws::handler))
        .fallback(api::not_found);
    Router::new()
        .nest("/api", api)
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            |_: Box<dyn std::any::Any + Send>| {
                AppError::Internal("the server hit a bug answering this request".into())
                    .into_response()
            },
        ))
        .with_state(state)
}

/// Serves until `signal` completes, then stops searches, closes WebSockets
/// and lets requests in flight finish (their moves are stored).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    signal: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let router = app(state.clone());
    let on_stop = state.clone();
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            signal.await;
            on_stop.shutdown();
        })
        .await
}
