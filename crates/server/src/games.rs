//! The games service the handlers use: the live games with the local-game
//! and online services over them, the saved-games list, and the server's
//! background work (heartbeat, resuming clocks, evicting idle games).

use super::cluster;
use super::config::ServerConfig;
use super::engine_player::EnginePlayer;
use super::error::AppError;
use super::hub::Hub;
use super::live::{LiveGames, SharedGame};
use super::lobby::Lobby;
use super::local::LocalGames;
use super::online::OnlineGames;
use super::players::{Me, Players};
use super::store::{GameListQuery, GameMode, GameStore, GameSummary, Notice};
use super::views::{GameListView, GameSummaryView};
use std::sync::Arc;

/// Every game service, together.
pub struct Games {
    pub live: Arc<LiveGames>,
    pub local: Arc<LocalGames>,
    pub online: Arc<OnlineGames>,
}

/// Hands freed memory back to the system after games left memory (glibc
/// keeps freed pages otherwise, and the process would look as large as at
/// its busiest moment).
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free heap pages; no memory in use is touched.
    unsafe {
        libc::malloc_trim(0);
    }
}

impl Games {
    pub fn new(
        store: Arc<dyn GameStore>,
        hub: Arc<Hub>,
        engine: Arc<EnginePlayer>,
        config: ServerConfig,
    ) -> Games {
        let live = Arc::new(LiveGames::new(store, hub, config));
        let online = Arc::new(OnlineGames::new(live.clone()));
        let weak = Arc::downgrade(&online);
        live.on_reload(Box::new(move |arc, lg, moved| {
            if let Some(online) = weak.upgrade() {
                online.reloaded(arc, lg, moved);
            }
        }));
        Games {
            local: Arc::new(LocalGames::new(live.clone(), engine)),
            online,
            live,
        }
    }

    pub fn config(&self) -> &ServerConfig {
        self.live.config()
    }

    pub fn hub(&self) -> &Arc<Hub> {
        self.live.hub()
    }

    /// The game, loaded from the store if needed; a game loaded now resumes
    /// what ran for it (the engine's search, an online game's timer).
    pub async fn get(&self, id: &str) -> Result<SharedGame, AppError> {
        let (arc, fresh) = self.live.get(id).await?;
        if fresh {
            let mut lg = arc.lock().await;
            match lg.mode() {
                GameMode::Engine | GameMode::Local => self.local.resume(&arc, &mut lg),
                GameMode::Online => self.online.resume(&arc, &mut lg),
            }
        }
        Ok(arc)
    }

    /// The game, if `me` may see it: an online game is seen by everyone
    /// (spectators), a local game only by the player who made it; to
    /// anyone else it does not exist. A local game stored before players
    /// existed belongs to nobody until the operator gives it to someone
    /// (`tensorchess admin adopt`).
    pub async fn get_for(&self, id: &str, me: &Me) -> Result<SharedGame, AppError> {
        let arc = self.get(id).await?;
        let mine = {
            let mut lg = arc.lock().await;
            if lg.mode() == GameMode::Online {
                drop(lg);
                return Ok(arc);
            }
            if lg.record().owner.is_none() {
                // The operator may have given it an owner since it was read.
                self.live.reload(&arc, &mut lg).await?;
            }
            lg.record().owner.as_deref() == Some(me.id.as_str())
        };
        if mine {
            Ok(arc)
        } else {
            Err(AppError::NotFound(format!("There is no game {id}")))
        }
    }

    /// A page of `me`'s games, newest first: the local games they made and
    /// the online games they sit in; and the cursor of the next page.
    pub async fn list(
        &self,
        me: &Me,
        limit: usize,
        cursor: Option<&str>,
    ) -> Result<GameListView, AppError> {
        let before = match cursor {
            None => None,
            Some(c) => Some(parse_cursor(c).ok_or_else(|| {
                AppError::bad("Unknown cursor: use the `next` of an earlier answer")
            })?),
        };
        let query = GameListQuery {
            player: me.id.clone(),
            limit: limit + 1,
            before,
        };
        let mut rows = self.live.store().list_games(&query).await?;
        let next = (rows.len() > limit).then(|| {
            rows.truncate(limit);
            let last = &rows[limit - 1].record;
            format!("{}.{}", last.updated_at, last.id)
        });
        Ok(GameListView {
            games: rows.into_iter().map(summary_view).collect(),
            next,
        })
    }

    /// Games held in memory now.
    pub fn live_games(&self) -> usize {
        self.live.count()
    }

    /// Drops idle games from memory; see [`LiveGames::sweep`].
    pub fn sweep(&self) -> usize {
        self.live.sweep()
    }

    /// Notes in the store that this server is up now.
    pub async fn heartbeat(&self) -> Result<(), AppError> {
        self.live.heartbeat().await
    }

    /// Stops every engine search, flag timer and background task (server shutdown).
    pub fn shutdown(&self) {
        self.local.engine().shutdown();
        self.live.shutdown();
    }

    /// Starts the server's background work: the run's registration and
    /// heartbeat, resuming running clocks, and evicting idle games. It stops
    /// with [`Games::shutdown`].
    pub fn spawn_background(&self, lobby: Arc<Lobby>, players: Arc<Players>) {
        let lobby = Arc::downgrade(&lobby);
        let players = Arc::downgrade(&players);
        let live = Arc::downgrade(&self.live);
        // Weak references: a server whose state is dropped (killed, in
        // tests) leaves nothing running.
        let online = Arc::downgrade(&self.online);
        let config = self.config();
        let clock = config.clock.clone();
        let beat_every = config.heartbeat_every_ms.max(1);
        let sweep_every = config.sweep_every_ms.max(1);
        let poll_every = config.account_poll_every_ms.max(1);
        let mut stopping = self.live.stopping();
        let follow_stopping = self.live.stopping();
        tokio::spawn(async move {
            if let Some(players) = players.upgrade() {
                if let Err(e) = players.start_events().await {
                    tracing::error!("account events: {e}");
                }
            }
            if let Some(l) = live.upgrade() {
                // Other servers may share the database: hear them before
                // loading anything.
                let store = l.store().clone();
                if store.shared() {
                    l.cluster().start_sending(store.clone());
                    match store.listen().await {
                        Ok(Some(notices)) => {
                            let (live, lobby, players) =
                                (live.clone(), lobby.clone(), players.clone());
                            tokio::spawn(cluster::follow(
                                live,
                                lobby,
                                players,
                                notices,
                                follow_stopping,
                            ));
                        }
                        Ok(None) => {}
                        Err(e) => tracing::error!("cannot listen to the other servers: {e}"),
                    }
                }
            }
            if let (Some(l), Some(online)) = (live.upgrade(), online.upgrade()) {
                if let Err(e) = l.heartbeat().await {
                    tracing::error!("heartbeat: {e}");
                }
                online.resume_clocks().await;
            }
            let now = clock.now_ms();
            let (mut next_beat, mut next_sweep) = (now + beat_every, now + sweep_every);
            let mut next_poll = now + poll_every;
            loop {
                tokio::select! {
                    _ = clock.sleep_until(next_beat.min(next_sweep).min(next_poll)) => {}
                    _ = stopping.wait_for(|s| *s) => return,
                }
                let Some(l) = live.upgrade() else {
                    return;
                };
                let now = clock.now_ms();
                if now >= next_poll {
                    // Account events (a logout elsewhere, an operator's
                    // ban) also come by notice on PostgreSQL; polling
                    // covers a lost notice and an SQLite file.
                    if let Some(players) = players.upgrade() {
                        players.catch_up().await;
                    }
                    next_poll = now + poll_every;
                }
                if now >= next_beat {
                    if let Err(e) = l.heartbeat().await {
                        tracing::error!("heartbeat: {e}");
                    }
                    let cluster = l.cluster();
                    if cluster.is_shared() {
                        let from = cluster.instance().to_string();
                        cluster.send(Notice::Alive { from });
                        l.presence()
                            .expire(now.saturating_sub(beat_every.saturating_mul(3)));
                    }
                    next_beat = now + beat_every;
                }
                if now >= next_sweep {
                    let gone = l.sweep();
                    if gone > 0 {
                        tracing::debug!("{gone} idle games left memory");
                        give_back_memory();
                    }
                    if let Some(lobby) = lobby.upgrade() {
                        lobby.sweep().await;
                    }
                    next_sweep = now + sweep_every;
                }
            }
        });
    }
}

/// A list cursor: `UPDATED_AT.ID` of the last game of the page before.
fn parse_cursor(c: &str) -> Option<(i64, String)> {
    let (at, id) = c.split_once('.')?;
    if !super::ids::valid_id(id) {
        return None;
    }
    Some((at.parse().ok()?, id.to_string()))
}

/// A line of a games list.
pub fn summary_view(s: GameSummary) -> GameSummaryView {
    let r = s.record;
    let (result, end_reason) = super::store::columns::ending_columns(r.ending);
    GameSummaryView {
        finished: r.ending.is_some(),
        id: r.id,
        variant: r.variant.name().to_string(),
        variant_title: r.variant.title(),
        mode: r.mode.as_str(),
        human_color: r.human_color.map(|c| c.name().to_string()),
        level: r.level,
        white: r.white,
        black: r.black,
        result: result.to_string(),
        end_reason,
        move_count: s.move_count,
        moves: s.move_count.div_ceil(2),
        created_at: r.created_at,
        updated_at: r.updated_at,
    }
}
