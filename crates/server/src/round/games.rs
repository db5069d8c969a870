//! The games service the handlers use: the live games with the local-game
//! and online services over them, the saved-games list, and the server's
//! background work (heartbeat, resuming clocks, evicting idle games).

use crate::config::ServerConfig;
use crate::error::AppError;
use crate::hub::Hub;
use crate::identity::Me;
use crate::ids::GameId;
use crate::requests::OnlineAction;
use crate::round::command::{Acted, Command, Fired, Step, Trigger};
use crate::round::engine_player::EnginePlayer;
use crate::round::live::LiveGame;
use crate::round::live::{LiveGames, SharedGame};
use crate::round::local::LocalGames;
use crate::round::online::OnlineGames;
use crate::store::{GameListQuery, GameMode, GameStore, GameSummary};
use crate::views::{DrawAnswerCode, DrawAnswerView, GameView};
use std::sync::Arc;
use tensorchess_rules::{Color, VariantKind};

/// A game locked for one request.
pub type GameGuard = tokio::sync::OwnedMutexGuard<LiveGame>;

/// A page of a player's games, newest first.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePage {
    /// The games, the most recently changed first.
    pub games: Vec<GameSummary>,
    /// The cursor of the next page; `None` on the last one.
    pub next: Option<String>,
}

/// A correspondence game in progress, as one of its players sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrespondenceGame {
    /// The game's id.
    pub id: String,
    /// The game.
    pub variant: VariantKind,
    /// The player's colour.
    pub color: Color,
    /// The opponent's name.
    pub opponent: String,
    /// The player is to move.
    pub your_turn: bool,
    /// Days per move.
    pub days: u32,
    /// The side to move's time left for this move (ms).
    pub ms_left: i64,
    /// Plies played.
    pub ply: usize,
}

/// Every game service, together.
pub struct Games {
    /// Games in memory over the store, and their announcements.
    pub live: Arc<LiveGames>,
    /// Games against the engine and on one device.
    pub local: Arc<LocalGames>,
    /// Games of two people on their own devices.
    pub online: Arc<OnlineGames>,
    /// What is being played now (the home page's featured game).
    pub featured: crate::round::featured::Featured,
}

impl Games {
    /// The services over `store`, announcing on `hub`, searching with
    /// `engine`; their timers and the engine's moves fire through the
    /// round made here.
    pub fn new(
        store: Arc<dyn GameStore>,
        hub: Arc<Hub>,
        engine: Arc<EnginePlayer>,
        config: ServerConfig,
    ) -> Arc<Games> {
        Arc::new_cyclic(|round| {
            let live = Arc::new(LiveGames::new(store, hub, config));
            Games {
                local: Arc::new(LocalGames::new(live.clone(), engine, round.clone())),
                online: Arc::new(OnlineGames::new(live.clone(), round.clone())),
                featured: Default::default(),
                live,
            }
        })
    }

    /// The server's settings.
    pub fn config(&self) -> &ServerConfig {
        self.live.config()
    }

    /// Online games being played now and the featured one (cached a
    /// few seconds).
    pub async fn playing_now(&self) -> Result<crate::round::featured::PlayingNow, AppError> {
        self.featured.now(&self.live).await
    }

    /// Where changes are announced to WebSocket subscribers.
    pub fn hub(&self) -> &Arc<Hub> {
        self.live.hub()
    }

    /// The game, locked, if `me` may see it (loaded from the store if
    /// needed, resuming what ran for it): an online game is seen by
    /// everyone (spectators), a local game only by the player who made it;
    /// to anyone else it does not exist. A local game stored before
    /// players existed belongs to nobody until the operator gives it to
    /// someone (`tensorchess admin adopt`).
    pub async fn lock_for(
        &self,
        id: &GameId,
        me: &Me,
    ) -> Result<(SharedGame, GameGuard), AppError> {
        let (arc, fresh) = self.live.get(id).await?;
        let mut lg = arc.clone().lock_owned().await;
        if fresh {
            self.settle(&arc, &mut lg);
        }
        if lg.mode() == GameMode::Online {
            return Ok((arc, lg));
        }
        if lg.record().owner.is_none() {
            // The operator may have given it an owner since it was read.
            self.live.reload(&mut lg).await?;
        }
        if lg.record().owner.as_deref() == Some(me.id.as_str()) {
            Ok((arc, lg))
        } else {
            Err(AppError::NotFound(format!("There is no game {id}")))
        }
    }

    /// [`Games::lock_for`], unlocked (for work that locks the game when
    /// it needs to: an engine search for a hint waits without the lock).
    pub async fn get_for(&self, id: &GameId, me: &Me) -> Result<SharedGame, AppError> {
        Ok(self.lock_for(id, me).await?.0)
    }

    /// Does what `me` asks of game `id` (see [`Command`]), whichever door
    /// the command came through: the game is locked once, the seat or the
    /// ownership checked, the command applied and committed, what runs
    /// after it started, and the change announced. Should another server
    /// have changed the game first, it is read again and the command judged
    /// once more against what was stored. Returns what it did and the game,
    /// still locked, for the answer.
    pub async fn act(
        &self,
        id: &GameId,
        me: &Me,
        command: Command,
    ) -> Result<(Acted, GameGuard), AppError> {
        self.act_in(id, me, command, false).await
    }

    /// [`Games::act`] for an online game's action (`POST .../act`, the
    /// WebSocket, the programs' APIs): refused in a local game.
    pub async fn act_online(
        &self,
        id: &GameId,
        me: &Me,
        action: OnlineAction,
    ) -> Result<(Acted, GameGuard), AppError> {
        self.act_in(id, me, Command::from(action), true).await
    }

    async fn act_in(
        &self,
        id: &GameId,
        me: &Me,
        command: Command,
        online_only: bool,
    ) -> Result<(Acted, GameGuard), AppError> {
        let (arc, mut lg) = self.lock_for(id, me).await?;
        if online_only && lg.mode() != GameMode::Online {
            return Err(AppError::refused(
                crate::kind::Kind::NotOnline,
                "This game is not played online",
            ));
        }
        let rev = lg.rev();
        let step = self.act_locked(&arc, &mut lg, me, &command).await;
        if lg.rev() != rev {
            self.settle(&arc, &mut lg);
        }
        let step = step?;
        let event = step.committed.map(|c| {
            self.live.publish(&lg, c.event());
            c.event()
        });
        if let Some(refusal) = step.refusal {
            return Err(refusal);
        }
        let acted = Acted {
            event,
            rev: lg.rev(),
            ply: lg.ply(),
            rematch_id: step.rematch_id,
        };
        Ok((acted, lg))
    }

    /// [`Games::act`] and the game as `me` sees it afterwards (the answer
    /// of the HTTP routes).
    pub async fn act_view(
        &self,
        id: &GameId,
        me: &Me,
        command: Command,
    ) -> Result<GameView, AppError> {
        let (_, lg) = self.act(id, me, command).await?;
        Ok(self.online.view_for(&lg, me))
    }

    async fn act_locked(
        &self,
        arc: &SharedGame,
        lg: &mut LiveGame,
        me: &Me,
        command: &Command,
    ) -> Result<Step, AppError> {
        let shared = self.live.store().shared();
        // A move for a later ply than memory has: another server made the
        // move before it, and its notice has not come yet.
        if shared && command.ply().is_some_and(|ply| ply > lg.ply()) {
            self.reload(arc, lg).await?;
        }
        // Refusals on what memory holds, which may be behind the store (a
        // seat taken or an offer made on another server whose notice has
        // not come yet), are judged again if the store is newer: every
        // online command, and local moves that say their ply.
        let judged_again = shared && (lg.mode() == GameMode::Online || command.ply().is_some());
        match self.apply(lg, me, command).await {
            Err(AppError::StaleGame(_)) => {
                self.reload(arc, lg).await?;
                self.apply(lg, me, command).await
            }
            Err(refusal @ (AppError::Refused { .. } | AppError::Conflict(_))) if judged_again => {
                if self.reload(arc, lg).await? {
                    self.apply(lg, me, command).await
                } else {
                    Err(refusal)
                }
            }
            done => done,
        }
    }

    /// What the server itself does to a game ([`Trigger`]: a timer come
    /// due, the engine's search ended), through the same path as a
    /// player's command: the game locked once, the change committed, what
    /// runs after it started, the change announced. Returns when to fire
    /// again (a timer not yet due), if ever.
    pub(in crate::round) async fn fire(&self, arc: &SharedGame, trigger: Trigger) -> Option<i64> {
        let mut lg = arc.lock().await;
        let fired = match (trigger, lg.mode()) {
            (Trigger::Clock { gen }, GameMode::Online) => self.online.on_clock(&mut lg, gen).await,
            (Trigger::EngineMove { search_id, found }, GameMode::Engine | GameMode::Local) => {
                self.local.on_engine_move(&mut lg, search_id, found).await
            }
            _ => Ok(Fired::Nothing),
        };
        match fired {
            Ok(Fired::Committed(c)) => {
                self.settle(arc, &mut lg);
                self.live.publish(&lg, c.event());
                None
            }
            Ok(Fired::Told(event)) => {
                self.live.publish(&lg, event);
                None
            }
            Ok(Fired::Again(at)) => Some(at),
            Ok(Fired::Nothing) => None,
            // Another server changed the game first: reading it again
            // starts what its state needs (a timer, the engine).
            Err(e) => {
                if !matches!(e, AppError::StaleGame(_)) {
                    tracing::warn!("game {}: {e}", lg.id());
                }
                if let Err(e) = self.reload(arc, &mut lg).await {
                    tracing::warn!("game {}: not read again: {e}", lg.id());
                }
                self.live.publish(&lg, crate::round::live::GameEvent::Move);
                None
            }
        }
    }

    /// A draw offered in local game `id`: the engine answers by its
    /// evaluation (on one device the players have agreed), and an accepted
    /// draw is [`Command::AgreeDraw`] at the revision answered.
    pub async fn offer_local_draw(&self, id: &GameId, me: &Me) -> Result<DrawAnswerView, AppError> {
        let arc = self.get_for(id, me).await?;
        let answer = self.local.draw_answer(&arc, me).await?;
        let mut code = answer.code;
        if code.accepted() {
            match self
                .act(id, me, Command::AgreeDraw { rev: answer.rev })
                .await
            {
                Ok((_, lg)) => return Ok(draw_answer_view(code, self.live.view(&lg))),
                Err(AppError::Conflict(_)) => code = DrawAnswerCode::MovedOn,
                Err(e) => return Err(e),
            }
        }
        let lg = arc.lock().await;
        Ok(draw_answer_view(code, self.live.view(&lg)))
    }

    async fn apply(&self, lg: &mut LiveGame, me: &Me, command: &Command) -> Result<Step, AppError> {
        match lg.mode() {
            GameMode::Online => self.online.apply(lg, me, command).await,
            GameMode::Engine | GameMode::Local => self.local.apply(lg, me, command).await,
        }
    }

    /// Starts what runs for a game in its state now: an online game's flag
    /// timer, the engine's search when it is to move.
    fn settle(&self, arc: &SharedGame, lg: &mut LiveGame) {
        match lg.mode() {
            GameMode::Online => self.online.resume_after_change(arc, lg),
            GameMode::Engine | GameMode::Local => self.local.resume(arc, lg),
        }
    }

    /// Reads the game again if another server changed it, and starts what
    /// runs for its new state. Returns whether it was newer.
    pub async fn reload(&self, arc: &SharedGame, lg: &mut LiveGame) -> Result<bool, AppError> {
        let newer = self.live.reload(lg).await?;
        if newer {
            self.settle(arc, lg);
        }
        Ok(newer)
    }

    /// A page of `me`'s games, newest first: the local games they made and
    /// the online games they sit in; and the cursor of the next page.
    pub async fn list(
        &self,
        me: &Me,
        limit: usize,
        cursor: Option<&str>,
    ) -> Result<GamePage, AppError> {
        let before = match cursor {
            None => None,
            Some(c) => Some(parse_cursor(c).ok_or_else(|| {
                AppError::bad("Unknown cursor: use the `next` of an earlier answer")
            })?),
        };
        let query = GameListQuery {
            player: me.id.to_string(),
            limit: limit + 1,
            before,
        };
        let mut rows = self.live.store().list_games(&query).await?;
        let next = (rows.len() > limit).then(|| {
            rows.truncate(limit);
            let last = &rows[limit - 1].record;
            format!("{}.{}", last.updated_at, last.id)
        });
        Ok(GamePage { games: rows, next })
    }

    /// `me`'s correspondence games in progress, those where it is their
    /// move first (the header's "Your turn").
    pub async fn correspondence(&self, me: &Me) -> Result<Vec<CorrespondenceGame>, AppError> {
        let ids = self
            .live
            .store()
            .running_correspondence_games(&me.id)
            .await?;
        let now = self.live.now();
        let mut games = Vec::with_capacity(ids.len());
        for id in ids {
            let (_, lg) = self.lock_for(&GameId::stored(id), me).await?;
            let (Some(seat), Some(o)) = (OnlineGames::seat(&lg, me), lg.online()) else {
                continue;
            };
            if lg.is_over() {
                continue;
            }
            let turn = lg.turn();
            let names = [&lg.record().white, &lg.record().black];
            games.push(CorrespondenceGame {
                id: lg.id().to_string(),
                variant: lg.record().variant,
                color: seat,
                opponent: names[(!seat).index()].clone(),
                your_turn: turn == seat,
                days: o.record().days.unwrap_or(0),
                ms_left: o.remaining(turn, turn, now).unwrap_or(0).max(0),
                ply: lg.ply(),
            });
        }
        // Your move first, the least time left first.
        games.sort_by_key(|g| (!g.your_turn, g.ms_left));
        Ok(games)
    }

    /// The ids and start times of a player's online games `search` asks
    /// for, in its order.
    pub async fn search(
        &self,
        search: &crate::store::GameSearch,
    ) -> Result<Vec<(String, i64)>, AppError> {
        Ok(self.live.store().search_games(search).await?)
    }

    /// A player's rating in each pool after each of their rated games,
    /// oldest first: `(pool's name, [(when, rating)])`, every pool listed.
    pub async fn rating_history(
        &self,
        player: &str,
    ) -> Result<Vec<(String, Vec<(i64, i32)>)>, AppError> {
        use crate::store::RatingPool;
        let pools = [
            VariantKind::Chess,
            VariantKind::Tensor,
            VariantKind::Chessence,
        ]
        .into_iter()
        .flat_map(|v| [RatingPool::real_time(v), RatingPool::correspondence(v)]);
        let mut history: Vec<(RatingPool, Vec<(i64, i32)>)> =
            pools.map(|p| (p, Vec::new())).collect();
        let mut search = crate::store::GameSearch {
            player: player.to_string(),
            rated: Some(true),
            finished: true,
            oldest_first: true,
            limit: 200,
            ..crate::store::GameSearch::default()
        };
        loop {
            let page = self.live.store().search_games(&search).await?;
            for (id, _) in &page {
                let Some(g) = self.live.store().load_game(id).await? else {
                    continue;
                };
                let Some(o) = g.online else {
                    continue;
                };
                let seat = [Color::White, Color::Black]
                    .into_iter()
                    .find(|c| o.players[*c].as_deref() == Some(player));
                let Some(seat) = seat else {
                    continue;
                };
                let (Some(before), Some(diff)) = (o.ratings[seat], o.rating_diffs[seat]) else {
                    continue;
                };
                let pool = o.rating_pool(g.record.variant);
                if let Some((_, points)) = history.iter_mut().find(|(p, _)| *p == pool) {
                    points.push((g.record.updated_at, before + diff));
                }
            }
            match page.last() {
                Some(last) if page.len() == search.limit => {
                    search.after = Some((last.1, last.0.clone()));
                }
                _ => break,
            }
        }
        Ok(history
            .into_iter()
            .map(|(pool, points)| {
                let game = match pool.variant {
                    VariantKind::Chess => "Chess",
                    VariantKind::Tensor => "Tensor",
                    VariantKind::Chessence => "Chessence",
                };
                let name = if pool.correspondence {
                    format!("{game} Correspondence")
                } else {
                    game.to_string()
                };
                (name, points)
            })
            .collect())
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
}

/// A list cursor: `UPDATED_AT.ID` of the last game of the page before.
fn parse_cursor(c: &str) -> Option<(i64, String)> {
    let (at, id) = c.split_once('.')?;
    if !crate::ids::valid_id(id) {
        return None;
    }
    Some((at.parse().ok()?, id.to_string()))
}

/// A draw offer's answer, with the game after it.
fn draw_answer_view(code: DrawAnswerCode, game: GameView) -> DrawAnswerView {
    DrawAnswerView {
        accepted: code.accepted(),
        code,
        message: code.message().to_string(),
        game,
    }
}
