//! Games being played: loaded from the store on first use, changed one
//! request at a time, every change stored before it is made in memory and
//! announced (`LiveGames::commit`). The local-game and online services
//! (`server::round::local`, `server::round::online`) are built on this.

mod bot_marks;
mod commit;
pub use crate::views::event::GameEvent;
use commit::Staged;
mod game;
pub mod move_event;
mod offer;
mod online;

pub use bot_marks::BotMarks;
pub use commit::{Change, Committed, EndingEdit, MovesEdit, OnlineEdit};
pub use game::{date_string, LiveGame};
pub use offer::{Offer, Offered};
pub use online::OnlineState;

use crate::config::ServerConfig;
use crate::error::AppError;
use crate::hub::Hub;
use crate::ids::GameId;
use crate::outbox::Cluster;
use crate::presence::Presence;
use crate::store::{GameMode, GameStore, RunRecord, StoreError, StoredGame};
use crate::topic::HubTopic;
use crate::views::{GameView, History, ServerEvent};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tensorchess_rules::Color;
use tokio::sync::{mpsc, watch, OnceCell};

/// A game in memory, shared by the requests and tasks working on it (one at
/// a time: the lock is held for a whole change).
pub type SharedGame = Arc<tokio::sync::Mutex<LiveGame>>;

/// A game in memory, with when it was last asked for.
struct LiveEntry {
    game: SharedGame,
    touched: i64,
}

/// The games in memory, over the store.
pub struct LiveGames {
    store: Arc<dyn GameStore>,
    hub: Arc<Hub>,
    presence: Arc<Presence>,
    cluster: Arc<Cluster>,
    config: ServerConfig,
    live: Mutex<HashMap<String, LiveEntry>>,
    /// Which seated players are bots (their views carry `BOT`).
    bot_marks: BotMarks,
    /// When this server started, on its clock.
    boot_ms: i64,
    /// This run's id in the store's list of runs (registered on first need).
    run: OnceCell<i64>,
    stopping: watch::Sender<bool>,
    /// Where the ids of online games that end here are told (the
    /// explorer's feed), once someone listens: see [`LiveGames::on_ended`].
    ended: Mutex<Option<mpsc::Sender<String>>>,
}

/// Online games ended and not yet taken by the listener: past this many, an
/// id is dropped (and logged) rather than making a move wait; the
/// explorer's rebuild counts such a game later.
pub const ENDED_QUEUE: usize = 4096;

impl LiveGames {
    /// No game in memory yet; games come from `store` when asked for.
    pub fn new(store: Arc<dyn GameStore>, hub: Arc<Hub>, config: ServerConfig) -> LiveGames {
        let cluster = Arc::new(Cluster::new());
        LiveGames {
            store,
            presence: Arc::new(Presence::new(
                hub.clone(),
                cluster.clone(),
                config.clock.clone(),
            )),
            cluster,
            hub,
            boot_ms: config.clock.now_ms(),
            config,
            live: Mutex::new(HashMap::new()),
            bot_marks: BotMarks::default(),
            run: OnceCell::new(),
            stopping: watch::channel(false).0,
            ended: Mutex::new(None),
        }
    }

    /// The store every change is committed to.
    pub fn store(&self) -> &Arc<dyn GameStore> {
        &self.store
    }

    /// Which seated players are bot accounts.
    pub fn bot_marks(&self) -> &BotMarks {
        &self.bot_marks
    }

    /// Looks up whether the players seated in `lg` are bots, for its views.
    pub async fn note_players(&self, lg: &LiveGame) -> Result<(), AppError> {
        let Some(o) = lg.online() else {
            return Ok(());
        };
        let seated = [o.player(Color::White), o.player(Color::Black)];
        self.bot_marks
            .note_seated(self.store.as_ref(), seated.into_iter().flatten())
            .await?;
        Ok(())
    }

    /// Where changes are announced.
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// Who is connected, here and on the other servers.
    pub fn presence(&self) -> &Arc<Presence> {
        &self.presence
    }

    /// This server among the others on a shared database.
    pub fn cluster(&self) -> &Arc<Cluster> {
        &self.cluster
    }

    /// The server's settings.
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    /// Now on the server's clock (milliseconds since the Unix epoch, or a
    /// test's clock): game clocks, timers and `updated_at` alike.
    pub fn now(&self) -> i64 {
        self.config.clock.now_ms()
    }

    /// Stops background work (server shutdown).
    pub fn shutdown(&self) {
        self.stopping.send_replace(true);
    }

    /// Whether the server is shutting down (background work ends).
    pub fn is_stopping(&self) -> bool {
        *self.stopping.borrow()
    }

    /// Resolves when the server stops.
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// This run's id, registering the run in the store the first time.
    pub async fn run_id(&self) -> Result<i64, AppError> {
        let id = self
            .run
            .get_or_try_init(|| self.store.start_run(self.boot_ms))
            .await?;
        Ok(*id)
    }

    /// Notes in the store that this server is up now (the clocks of online
    /// games count the time between a run's start and its last heartbeat).
    pub async fn heartbeat(&self) -> Result<(), AppError> {
        let run = self.run_id().await?;
        self.store.heartbeat(run, self.now()).await?;
        Ok(())
    }

    /// Games held in memory now.
    pub fn count(&self) -> usize {
        self.live.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The state a page shows.
    pub fn view(&self, lg: &LiveGame) -> GameView {
        let mut view = lg.view(self.now(), self.presence.connected(lg.id()));
        if let (Some(v), Some(o)) = (view.online.as_mut(), lg.online()) {
            v.white.title = self.bot_marks.title(o.player(Color::White));
            v.black.title = self.bot_marks.title(o.player(Color::Black));
            v.spectators = self.presence.spectators(lg.id());
        }
        view
    }

    /// Drops from memory the games nobody uses: finished ones after a
    /// short while, others after a long idle time. A game stays while a
    /// request, an engine search or a running clock holds it, or while a
    /// WebSocket watches it. Returns how many left.
    pub fn sweep(&self) -> usize {
        let now = self.now();
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        let before = live.len();
        live.retain(|id, entry| {
            // Only the map holds it: nobody can be using it, and nobody can
            // take it without the map's lock, which is held here.
            if Arc::strong_count(&entry.game) > 1 {
                return true;
            }
            if self.hub.subscriber_count(&HubTopic::game(id)) > 0 {
                return true;
            }
            let Ok(lg) = entry.game.try_lock() else {
                return true;
            };
            let limit = if lg.is_over() {
                self.config.evict_finished_after_ms
            } else {
                self.config.evict_idle_after_ms
            };
            now - entry.touched < limit
        });
        let gone = before - live.len();
        drop(live);
        self.hub.topic_count(); // forgets topics nobody follows
        gone
    }

    /// Puts a new game in memory; an online game's wait for a first move
    /// starts now.
    pub fn insert(&self, mut lg: LiveGame) -> SharedGame {
        self.start_first_move_wait(&mut lg);
        let id = lg.id().to_string();
        let arc = Arc::new(tokio::sync::Mutex::new(lg));
        self.live.lock().unwrap_or_else(|e| e.into_inner()).insert(
            id,
            LiveEntry {
                game: arc.clone(),
                touched: self.now(),
            },
        );
        arc
    }

    /// Forgets a game held in memory (it was deleted); returns it if it was there.
    pub fn remove(&self, id: &str) -> Option<SharedGame> {
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id)
            .map(|e| e.game)
    }

    /// The game, loaded from the store if it is not in memory; `true` with
    /// it when it was loaded now (then the services resume what ran for it:
    /// the engine's search, an online game's timer). An online game's clock
    /// picks up where it was.
    pub async fn get(&self, id: &GameId) -> Result<(SharedGame, bool), AppError> {
        let not_found = || AppError::NotFound(format!("There is no game {id}"));
        let now = self.now();
        if let Some(e) = self
            .live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(id.as_str())
        {
            e.touched = now;
            return Ok((e.game.clone(), false));
        }
        let stored = self.store.load_game(id).await?.ok_or_else(not_found)?;
        let origin = self.clock_origin(&stored).await?;
        let mut lg = LiveGame::revive(stored)?;
        self.note_players(&lg).await?;
        let over = lg.is_over();
        if let Some(o) = lg.online_mut() {
            o.turn_origin = if over { None } else { origin };
        }
        self.start_first_move_wait(&mut lg);
        let mut fresh = false;
        let arc = {
            let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
            live.entry(id.to_string())
                .or_insert_with(|| {
                    fresh = true;
                    LiveEntry {
                        game: Arc::new(tokio::sync::Mutex::new(lg)),
                        touched: now,
                    }
                })
                .game
                .clone()
        };
        Ok((arc, fresh))
    }

    /// When the running clock of a stored game started, on this server's
    /// clock: a clock that ran while no server did (all were stopped)
    /// counts only the time some server was up.
    async fn clock_origin(&self, stored: &StoredGame) -> Result<Option<i64>, AppError> {
        let Some(started) = stored.online.as_ref().and_then(|o| o.turn_started_at) else {
            return Ok(None);
        };
        if started >= self.boot_ms {
            return Ok(Some(started));
        }
        let run = self.run_id().await?;
        let runs = self.store.runs_since(started).await?;
        let now = self.now();
        let counted = time_in_runs(started, &runs, (run, self.boot_ms, now));
        Ok(Some(now - counted))
    }

    /// The game, if it is in memory.
    pub fn cached(&self, id: &str) -> Option<SharedGame> {
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .map(|e| e.game.clone())
    }

    /// The ids of the games in memory.
    pub fn cached_ids(&self) -> Vec<String> {
        let live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        live.keys().cloned().collect()
    }

    /// Reads the game again if the store has a newer revision than memory
    /// (another server changed it), and if so tells its subscribers; the
    /// wait for a first move starts again after a move or a seat taken.
    /// Returns whether it was newer (the caller re-arms what runs for the
    /// game: [`Games::reload`](crate::round::games::Games::reload)).
    pub async fn reload(&self, lg: &mut LiveGame) -> Result<bool, AppError> {
        // Only the moves after the last one held (and it, to check that
        // they follow on from it): one indexed read, not the whole game.
        let tail_from = lg.ply().saturating_sub(1);
        let Some(stored) = self.store.load_game_from(lg.id(), tail_from).await? else {
            return Ok(false);
        };
        if stored.record.rev <= lg.rev() {
            return Ok(false);
        }
        self.take_stored(lg, stored, tail_from).await
    }

    /// Another server's plain move at revision `rev`, told in its notice,
    /// played on the revision before without reading the game: what the
    /// store holds now is the game held, that move, and the notice's time
    /// and online state. `Ok(false)` when it does not follow on from what
    /// is held (then the game is read).
    pub async fn play_step(
        &self,
        lg: &mut LiveGame,
        rev: i64,
        step: crate::store::GameStep,
    ) -> Result<bool, AppError> {
        let ply = lg.ply();
        if rev != lg.rev() + 1 || step.played.ply != ply || lg.is_over() {
            return Ok(false);
        }
        let mut record = lg.record().clone();
        record.rev = rev;
        record.updated_at = step.updated_at;
        let online = step
            .online
            .or_else(|| lg.online().map(|o| o.record().clone()));
        let stored = StoredGame {
            record,
            moves: vec![step.played],
            online,
        };
        self.take_stored(lg, stored, ply).await
    }

    /// Makes `lg` the game `stored` (its moves from `tail_from`), and tells
    /// the pages: the move event when it is one move more.
    async fn take_stored(
        &self,
        lg: &mut LiveGame,
        stored: StoredGame,
        tail_from: usize,
    ) -> Result<bool, AppError> {
        let (rev, ply) = (lg.rev(), lg.ply());
        let origin = self.clock_origin(&stored).await?;
        let (from, moved) = match lg.refresh(stored, tail_from, origin)? {
            Some(done) => done,
            None => {
                // Moves were taken back below what was read: all of it.
                let Some(stored) = self.store.load_game(lg.id()).await? else {
                    return Ok(false);
                };
                let origin = self.clock_origin(&stored).await?;
                lg.refresh(stored, 0, origin)?
                    .ok_or_else(|| AppError::Internal("a whole game did not read".into()))?
            }
        };
        if moved {
            self.start_first_move_wait(lg);
            // A move made on another instance shows its player there.
            self.presence.seat_active(lg.id(), !lg.turn());
        }
        // One move more, and nothing else between: the same compact move
        // event the server that made it sent.
        if lg.rev() == rev + 1 && from == ply && lg.ply() == ply + 1 {
            self.publish(lg, GameEvent::Move);
        } else {
            self.publish_from(lg, GameEvent::Update, from);
        }
        Ok(true)
    }

    /// Starts an online game's wait for a first move from now (when the
    /// rule applies to it; see [`LiveGames::first_move_deadline`]).
    fn start_first_move_wait(&self, lg: &mut LiveGame) {
        let now = self.now();
        let deadline = lg
            .online()
            .and_then(|o| self.first_move_deadline(o.record(), lg.ply(), lg.is_over(), now));
        if let Some(o) = lg.online_mut() {
            o.first_move_deadline = deadline;
        }
    }

    /// When the side to move must have made its first move, counted from
    /// `now`: only in a clocked online game with both seats taken, before
    /// both sides have moved (`plies` < 2), while it goes on.
    pub fn first_move_deadline(
        &self,
        record: &crate::store::OnlineRecord,
        plies: usize,
        over: bool,
        now: i64,
    ) -> Option<i64> {
        let seated =
            OnlineState::taken(record, Color::White) && OnlineState::taken(record, Color::Black);
        let applies = !over && plies < 2 && record.timed() && seated;
        // Correspondence: a first move, too, may take the days per move.
        let wait = match record.days {
            Some(days) => i64::from(days) * crate::round::online::timing::DAY_MS,
            None => self.config.first_move_wait_ms,
        };
        applies.then_some(now + wait)
    }

    /// A write found the game moved on in the store (another server got
    /// there first): the request may be judged again once memory has
    /// caught up ([`LiveGames::reload`]).
    fn stale(&self, e: StoreError) -> AppError {
        match e {
            StoreError::Stale { .. } => {
                AppError::StaleGame("The game changed meanwhile: reload it and try again".into())
            }
            e => e.into(),
        }
    }

    /// Commits a change: stores it (the game's next revision) and makes it
    /// in memory. Nothing changes if it cannot be stored. The caller starts
    /// what runs after the change (the engine's search, a flag timer), then
    /// announces it with [`LiveGames::publish`], so that the announcement
    /// shows it.
    pub(in crate::round) async fn commit(
        &self,
        lg: &mut LiveGame,
        change: Change,
    ) -> Result<Committed, AppError> {
        let mut staged = lg.stage(change, self.now());
        let event = staged.event;
        let was_over = lg.is_over();
        let rated_end = lg.record().rated && !lg.is_over() && staged.update.ending.is_some();
        // A rated result changes both ratings in the same transaction; a
        // rating another game changed meanwhile is read again.
        let mut tries = 0;
        loop {
            if rated_end {
                self.rate(lg, &mut staged).await?;
            }
            match self
                .store
                .commit(lg.id(), &staged.stored_moves, &staged.update)
                .await
            {
                Ok(()) => break,
                Err(StoreError::Stale { ref id, .. })
                    if rated_end && id != lg.id() && tries < 3 =>
                {
                    tries += 1;
                }
                Err(e) => return Err(self.stale(e)),
            }
        }
        lg.apply(staged);
        if !was_over && lg.is_over() && lg.mode() == GameMode::Online {
            // This server stored the end (the revision was its): it alone
            // tells, so one server counts the game.
            self.tell_ended(lg.id());
        }
        Ok(Committed { event })
    }

    /// Tells the ids of online games that end on this server (ended by
    /// its commit) to `to`, from now on: the explorer counts them.
    pub fn on_ended(&self, to: mpsc::Sender<String>) {
        *self.ended.lock().unwrap_or_else(|e| e.into_inner()) = Some(to);
    }

    fn tell_ended(&self, id: &str) {
        let ended = self.ended.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(to) = ended.as_ref() {
            if to.try_send(id.to_string()).is_err() {
                tracing::warn!("game {id} ended but the explorer's queue is full or closed");
            }
        }
    }

    /// A player's rating in a game (the start for a player without one).
    pub async fn rating_of(
        &self,
        player: &str,
        pool: crate::store::RatingPool,
    ) -> Result<crate::store::RatingRecord, AppError> {
        Ok(self
            .store
            .ratings(player)
            .await?
            .into_iter()
            .find(|(p, _)| *p == pool)
            .map_or(crate::rating::START, |(_, r)| r))
    }

    /// The ratings in `pool` of `ids`, in their order (the start for those
    /// without one), read at once (a tournament's wave).
    pub async fn ratings_in(
        &self,
        pool: crate::store::RatingPool,
        ids: &[String],
    ) -> Result<Vec<crate::store::RatingRecord>, AppError> {
        let stored: std::collections::HashMap<_, _> = self
            .store
            .pool_ratings(pool, ids)
            .await?
            .into_iter()
            .collect();
        Ok(ids
            .iter()
            .map(|id| stored.get(id).copied().unwrap_or(crate::rating::START))
            .collect())
    }

    /// Works the players' new ratings into a staged end of a rated game.
    async fn rate(&self, lg: &LiveGame, staged: &mut Staged) -> Result<(), AppError> {
        staged.update.ratings.clear();
        let (Some(ending), Some(edit)) = (staged.update.ending, staged.online.as_mut()) else {
            return Ok(());
        };
        let (Some(white), Some(black)) = (
            edit.record.players.white.clone(),
            edit.record.players.black.clone(),
        ) else {
            return Ok(());
        };
        let Some(score) = crate::rating::white_score(ending) else {
            return Ok(());
        };
        let pool = edit.record.rating_pool(lg.record().variant);
        let mut before = [None, None];
        for (slot, player) in before.iter_mut().zip([&white, &black]) {
            *slot = self
                .store
                .ratings(player)
                .await?
                .into_iter()
                .find(|(p, _)| *p == pool)
                .map(|(_, r)| r);
        }
        let (writes, diffs) = crate::rating::after_game(pool, [&white, &black], before, score);
        edit.record.rating_diffs = tensorchess_rules::ByColor::from_array(diffs.map(Some));
        staged.update.online = Some(edit.record.clone());
        staged.update.ratings = writes;
        Ok(())
    }

    /// [`LiveGames::commit`] of a change that creates another game in the
    /// same transaction (a rematch, stored with the game it follows).
    pub(in crate::round) async fn commit_creating(
        &self,
        lg: &mut LiveGame,
        change: Change,
        new_game: &StoredGame,
    ) -> Result<Committed, AppError> {
        let staged = lg.stage(change, self.now());
        let event = staged.event;
        if let Err(e) = self
            .store
            .create_rematch(new_game, lg.id(), &staged.update)
            .await
        {
            return Err(self.stale(e));
        }
        lg.apply(staged);
        Ok(Committed { event })
    }

    /// Announces the game's state to its subscribers after `event`.
    pub(in crate::round) fn publish(&self, lg: &LiveGame, event: GameEvent) {
        // A move of an online game that goes on: the compact move event.
        if event == GameEvent::Move && lg.mode() == GameMode::Online && !lg.is_over() {
            let topic = HubTopic::game(lg.id());
            if self.hub.subscriber_count(&topic) == 0 {
                return;
            }
            let side = lg.turn();
            let for_side = self.hub.has_audience(&topic, side);
            match move_event::move_events(lg, &topic.to_string(), self.now(), for_side) {
                Some((everyone, Some(to_move))) => {
                    self.hub.publish_for(&topic, everyone, (side, to_move));
                    return;
                }
                Some((everyone, None)) => {
                    self.hub.publish(&topic, everyone);
                    return;
                }
                None => {}
            }
        }
        // Online games send only what changed in the move list: the move
        // just played, or none (pages keep the moves they have).
        let ply = lg.history().len();
        let from = if event == GameEvent::Move {
            ply.saturating_sub(1)
        } else {
            ply
        };
        self.publish_from(lg, event, from);
    }

    /// [`LiveGames::publish`], an online game's moves from ply `from` on.
    fn publish_from(&self, lg: &LiveGame, event: GameEvent, from: usize) {
        let topic = HubTopic::game(lg.id());
        if self.hub.subscriber_count(&topic) == 0 {
            return;
        }
        let mut game = self.view(lg);
        if lg.mode() == GameMode::Online {
            let history = lg.history();
            let from = from.min(history.len());
            game.moves = History::new(history[from..].to_vec());
            game.moves_from = from;
            game.moves_before = from.checked_sub(1).map(|i| history[i].uci.clone());
        }
        self.hub.publish(
            &topic,
            ServerEvent::Game {
                topic: topic.to_string(),
                event,
                game: Box::new(game),
            },
        );
    }
}

/// How much of the time since `turn_started` some server was up: the
/// union, from the turn's start, of the `runs` (each up to its last
/// heartbeat) and of the current run `(id, boot, now)`. Several servers
/// may run at once (their times overlap and count once); the time when
/// none ran is not counted.
pub fn time_in_runs(turn_started: i64, runs: &[RunRecord], current: (i64, i64, i64)) -> i64 {
    let (current_id, boot, now) = current;
    let mut spans: Vec<(i64, i64)> = runs
        .iter()
        .filter(|r| r.id != current_id)
        .map(|r| (r.boot_ms.max(turn_started), r.last_seen_ms.min(now)))
        .chain(std::iter::once((boot.max(turn_started), now)))
        .filter(|(a, b)| b > a)
        .collect();
    spans.sort_unstable();
    let (mut total, mut reached) = (0, i64::MIN);
    for (a, b) in spans {
        let a = a.max(reached);
        if b > a {
            total += b - a;
            reached = b;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_time_while_a_server_ran_counts() {
        let runs = [
            RunRecord {
                id: 1,
                boot_ms: 0,
                last_seen_ms: 10_000,
            },
            RunRecord {
                id: 2,
                boot_ms: 50_000,
                last_seen_ms: 53_000,
            },
            RunRecord {
                id: 3,
                boot_ms: 90_000,
                last_seen_ms: 90_000,
            },
        ];
        // The turn began at 4 s in run 1: 6 s there, 3 s in run 2, and 5 s
        // of the current run (3), which started at 90 s; it is 95 s now.
        assert_eq!(time_in_runs(4_000, &runs, (3, 90_000, 95_000)), 14_000);
        assert_eq!(time_in_runs(52_000, &runs, (3, 90_000, 95_000)), 6_000);
    }

    #[test]
    fn servers_running_together_count_once() {
        // Run 1 from 0 to 60 s and run 2 from 20 to 50 s ran together;
        // the current run started at 40 s (it is 100 s now).
        let runs = [
            RunRecord {
                id: 1,
                boot_ms: 0,
                last_seen_ms: 60_000,
            },
            RunRecord {
                id: 2,
                boot_ms: 20_000,
                last_seen_ms: 50_000,
            },
        ];
        // From 10 s on, someone was up the whole time.
        assert_eq!(time_in_runs(10_000, &runs, (3, 40_000, 100_000)), 90_000);
        // Run 1 alone, then a gap from 60 s to 70 s, then the current run.
        assert_eq!(time_in_runs(0, &runs[..1], (3, 70_000, 100_000)), 90_000);
    }
}
