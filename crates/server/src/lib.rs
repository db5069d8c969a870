//! The web app's server: a JSON API, a WebSocket for live updates, and the
//! page's files, embedded. Games are kept by a [`GameStore`] (an SQLite
//! file, or a PostgreSQL server that several instances share).
//! The routes are listed in `api::routes` and described, with the limits
//! that keep a public server usable, in `docs/server.md`; online play in
//! `docs/online.md`.

pub mod background;
pub mod bot;
pub mod budget;
#[cfg(test)]
mod catalogues;
pub mod challenges;
pub mod chat;
pub mod client;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod error;
pub mod explorer;
pub mod follows;
pub mod game_views;
pub mod http;
pub mod hub;
pub mod identity;
pub mod ids;
pub mod kind;
pub mod learning;
pub mod lobby;
pub mod metrics;
pub mod outbox;
pub mod players;
pub mod presence;
pub mod ratelimit;
pub mod rating;
pub mod requests;
pub mod round;
pub mod slots;
pub mod text;
pub mod tokens;
pub mod topic;
/// The store: the records and repositories (`tensorchess-store`), the
/// backends and what `--db` opens (`tensorchess-store-open`).
pub mod store {
    pub use tensorchess_store::*;
    pub use tensorchess_store_open::{Database, PgStore, SqliteStore};
}
pub mod tournaments;
pub mod views;

pub use config::ServerConfig;
pub use http::listener::serve;
pub use http::{app, MAX_BODY};
use hub::Hub;
use learning::Learning;
use lobby::Lobby;
use players::Players;
use ratelimit::ClientLimiter;
use round::engine_player::EnginePlayer;
use round::games::Games;

use std::path::Path;
use std::sync::Arc;
use store::{Database, GameStore, SqliteStore, StoreError};
use tokio::sync::watch;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The games being played (engine, local and online), in memory and
    /// in the store.
    pub games: Arc<Games>,
    /// Identities, accounts, sessions and ratings.
    pub players: Arc<Players>,
    /// Open seeks, and pairing.
    pub lobby: Arc<Lobby>,
    /// Analysis, reviews, puzzles and lessons.
    pub learning: Arc<Learning>,
    /// Game chat.
    pub chat: Arc<chat::Chat>,
    /// Challenges between named players.
    pub challenges: Arc<challenges::Challenges>,
    /// Personal API tokens.
    pub tokens: Arc<tokens::Tokens>,
    /// Bot accounts and the Bot and Board APIs' streams.
    pub bots: Arc<bot::Bots>,
    /// Tournaments and their director.
    pub tournaments: Arc<tournaments::Tournaments>,
    /// Follows and accounts' preferences.
    pub follows: Arc<follows::Follows>,
    /// The opening explorer.
    pub explorer: Arc<explorer::Explorer>,
    /// API writes per client address.
    writes: Arc<ClientLimiter>,
    /// API searches per client address.
    searches: Arc<ClientLimiter>,
    /// Counters for `GET /api/health`.
    pub metrics: Arc<metrics::Metrics>,
    /// Streams and sockets held open, per account and forwarded client.
    held: Arc<http::held::Held>,
    /// The WebSockets' settings, with the deflate states they share.
    socket_options: yawc::Options,
    shutdown: Arc<watch::Sender<bool>>,
}

impl AppState {
    /// State over `store`, with the default configuration.
    pub fn new(store: Arc<dyn GameStore>) -> AppState {
        AppState::with_config(store, ServerConfig::default())
    }

    /// State with its own clock and timings (tests use a manual clock).
    /// Nothing runs until [`AppState::start`].
    pub fn with_config(store: Arc<dyn GameStore>, config: ServerConfig) -> AppState {
        let writes = Arc::new(ClientLimiter::new(config.write_limit));
        let searches = Arc::new(ClientLimiter::new(config.search_limit));
        let held = Arc::new(http::held::Held::new(config.connections.per_client));
        let players = Arc::new(Players::new(store.clone(), config.clock.clone()));
        let games = Games::new(
            store,
            Arc::new(Hub::new()),
            Arc::new(EnginePlayer::with_slots(config.search_slots)),
            config,
        );
        let lobby = Arc::new(Lobby::new(
            games.live.clone(),
            games.online.clone(),
            players.clone(),
        ));
        let learning = Arc::new(Learning::new(
            games.live.store().clone(),
            games.local.engine().clone(),
            games.config().clock.clone(),
        ));
        let challenges = Arc::new(challenges::Challenges::new(
            games.live.clone(),
            games.online.clone(),
            players.clone(),
        ));
        let tournaments = Arc::new(tournaments::Tournaments::new(
            games.live.clone(),
            games.online.clone(),
            players.clone(),
        ));
        let tokens = Arc::new(tokens::Tokens::new(
            games.live.store().clone(),
            games.config().clock.clone(),
        ));
        let bots = Arc::new(bot::Bots::new(games.live.clone(), players.clone()));
        let explorer = Arc::new(explorer::Explorer::new(
            games.live.store().clone(),
            games.local.engine().clone(),
        ));
        AppState {
            chat: Arc::new(chat::Chat::new(games.live.clone())),
            follows: Arc::new(follows::Follows::new(games.live.clone(), players.clone())),
            tokens,
            bots,
            explorer,
            challenges,
            tournaments,
            games,
            players,
            lobby,
            learning,
            writes,
            searches,
            held,
            metrics: Arc::default(),
            socket_options: http::ws::socket_options(),
            shutdown: Arc::new(watch::channel(false).0),
        }
    }

    /// Starts the background work (the heartbeat, the instances' bus,
    /// resuming online clocks, the tournaments' director, evicting idle
    /// games...): see [`background`]. Call once, inside a Tokio runtime.
    pub fn start(&self) {
        background::start(self);
    }

    /// State over an SQLite file (created, and its schema migrated, if needed).
    pub fn open(db: &Path) -> Result<AppState, StoreError> {
        Ok(AppState::new(Arc::new(SqliteStore::open(db)?)))
    }

    /// [`AppState::open`] with a configuration.
    pub fn open_with(db: &Path, config: ServerConfig) -> Result<AppState, StoreError> {
        Ok(AppState::with_config(
            Arc::new(SqliteStore::open(db)?),
            config,
        ))
    }

    /// State over the database `--db` names (SQLite or PostgreSQL), its
    /// schema migrated if needed.
    pub async fn connect(db: &Database, config: ServerConfig) -> Result<AppState, StoreError> {
        Ok(AppState::with_config(db.open().await?, config))
    }

    /// Stops engine searches, flag timers and background work, and closes
    /// WebSockets (server shutdown).
    pub fn shutdown(&self) {
        self.games.shutdown();
        self.shutdown.send_replace(true);
    }

    /// [`AppState::shutdown`], then a last heartbeat, so that online clocks
    /// know exactly when this server stopped.
    pub async fn close(&self) {
        self.shutdown();
        if let Err(e) = self.games.heartbeat().await {
            tracing::error!("the last heartbeat was not stored: {e}");
        }
        // The other servers forget this one's connections at once.
        let live = &self.games.live;
        if live.cluster().is_shared() {
            let from = live.cluster().instance().to_string();
            if let Err(e) = live.store().notify(&store::Notice::Bye { from }).await {
                tracing::warn!("the other servers were not told of the stop: {e}");
            }
        }
    }

    /// Becomes `true` when the server stops (WebSockets close on it).
    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }
}
