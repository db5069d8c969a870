//! Games being played: loaded from the store on first use, changed one
//! request at a time, every change written to the store before it is
//! answered or announced, and the engine's moves made in the background.

use super::anygame::{
    color_title, end_view, imported_end_view, parse_reason, parse_variant, reason_str, AnyGame,
};
use super::clock::{Clock, SystemClock};
use super::engine_player::{accepts_draw, EnginePlayer, SearchRequest};
use super::error::AppError;
use super::hub::Hub;
use super::online::{parse_color, time_in_runs, Cookies, OnlineState, Presence};
use super::ratelimit::RateLimit;
use super::requests::{MoveRequest, NewGameRequest, OnlineAction};
use super::store::{
    GameMode, GameRecord, GameStore, GameSummary, GameUpdate, StoredGame, StoredMove,
};
use super::views::{
    AnalysisView, DrawAnswerView, EndView, GameSummaryView, GameView, History, ServerEvent,
};
use rand::Rng;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tensorchess_engine::Level;
use tensorchess_rules::{Color, EndReason, Move, Outcome, VariantKind};
use tokio::sync::{watch, OnceCell};

/// Thinking time of a hint.
const HINT_TIME: Duration = Duration::from_millis(1000);
/// Thinking time behind the evaluation bar.
const EVAL_TIME: Duration = Duration::from_millis(400);
/// Thinking time before answering a draw offer.
const DRAW_TIME: Duration = Duration::from_millis(600);

/// The default level against the engine.
pub const DEFAULT_LEVEL: u8 = 3;
/// The stored reason of a game a player aborted.
const ABORTED: &str = "aborted";
/// The stored reason of a game aborted because a side did not make its
/// first move, after the side's name (`white_did_not_move`).
const NO_FIRST_MOVE: &str = "_did_not_move";

/// Timings and limits of the server, with the clock they are read on.
#[derive(Clone)]
pub struct ServerConfig {
    pub clock: Arc<dyn Clock>,
    /// A finished game nobody watches leaves memory after this long.
    pub evict_finished_after_ms: i64,
    /// A game in progress nobody touches or watches leaves memory after this
    /// long (a game whose clock runs, or whose engine thinks, stays).
    pub evict_idle_after_ms: i64,
    /// How often idle games are looked for.
    pub sweep_every_ms: i64,
    /// How often the server notes in the database that it is still up.
    pub heartbeat_every_ms: i64,
    /// Messages per WebSocket connection.
    pub rate_limit: RateLimit,
    /// API requests that change something (POST, DELETE) per client
    /// address; loopback clients are not limited.
    pub write_limit: RateLimit,
    /// In an online game with a clock, the side to move has this long to
    /// make its first move (counted from the second seat being taken, or
    /// from White's first move); then the game is aborted.
    pub first_move_wait_ms: i64,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            clock: Arc::new(SystemClock),
            evict_finished_after_ms: 60_000,
            evict_idle_after_ms: 10 * 60_000,
            sweep_every_ms: 15_000,
            heartbeat_every_ms: 5_000,
            rate_limit: RateLimit::default(),
            write_limit: RateLimit::WRITES,
            first_move_wait_ms: 60_000,
        }
    }
}

/// Why a game is over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// By the rules: mate, stalemate, repetition, ...
    Rules(Outcome),
    /// By the players or the clock: resignation, agreement, time.
    Decided(Outcome),
    /// A finished game imported from PGN, with its result.
    Imported(String),
    /// Called off before it started (online games): no result. `no_show`
    /// is the side that did not make its first move in time; `None` when a
    /// player aborted.
    Aborted { no_show: Option<Color> },
}

/// A game in memory.
pub struct LiveGame {
    pub(crate) record: GameRecord,
    pub(crate) game: AnyGame,
    pub(crate) history: History,
    pub(crate) ending: Option<Ending>,
    /// The engine's search for its move: an id and its stop flag.
    pub(crate) search: Option<(u64, Arc<AtomicBool>)>,
    /// Seats, clocks and offers of an online game.
    pub(crate) online: Option<OnlineState>,
}

impl LiveGame {
    fn human_color(&self) -> Option<Color> {
        match self.record.human_color.as_deref() {
            Some("black") => Some(Color::Black),
            Some("white") => Some(Color::White),
            _ => None,
        }
    }

    fn engine_to_move(&self) -> bool {
        self.record.mode == GameMode::Engine
            && self.ending.is_none()
            && self.human_color() != Some(self.game.turn())
    }

    fn end_view(&self) -> Option<EndView> {
        match &self.ending {
            None => None,
            Some(Ending::Rules(o)) | Some(Ending::Decided(o)) => {
                Some(end_view(self.game.kind(), *o))
            }
            Some(Ending::Imported(r)) => imported_end_view(r),
            Some(Ending::Aborted { no_show }) => Some(EndView {
                result: "*".into(),
                reason: "aborted".into(),
                winner: None,
                title: "Game aborted".into(),
                text: match no_show {
                    None => "before both sides had moved: no result".into(),
                    Some(c) => format!(
                        "{} did not make a first move in time: no result",
                        color_title(*c)
                    ),
                },
            }),
        }
    }

    pub(crate) fn result_fields_of(ending: Option<&Ending>) -> (String, Option<String>) {
        match ending {
            None => ("*".into(), None),
            Some(Ending::Rules(o)) | Some(Ending::Decided(o)) => (
                o.result_str().to_string(),
                Some(reason_str(o.reason()).to_string()),
            ),
            Some(Ending::Imported(r)) => (r.clone(), Some("imported".into())),
            Some(Ending::Aborted { no_show }) => (
                "*".into(),
                Some(match no_show {
                    None => ABORTED.into(),
                    Some(c) => format!("{}{NO_FIRST_MOVE}", c.name()),
                }),
            ),
        }
    }

    fn result_fields(&self) -> (String, Option<String>) {
        Self::result_fields_of(self.ending.as_ref())
    }

    /// The next state's stored fields.
    fn next_update(&self) -> GameUpdate {
        let (result, end_reason) = self.result_fields();
        GameUpdate {
            rev: self.record.rev + 1,
            result,
            end_reason,
            updated_at: now_ms().max(self.record.updated_at),
            online: self.online.as_ref().map(|o| o.record.clone()),
        }
    }

    pub(crate) fn commit_update(&mut self, update: GameUpdate) {
        self.record.rev = update.rev;
        self.record.result = update.result;
        self.record.end_reason = update.end_reason;
        self.record.updated_at = update.updated_at;
        if let (Some(o), Some(rec)) = (self.online.as_mut(), update.online) {
            o.record = rec;
        }
    }

    fn stop_search(&mut self) {
        if let Some((_, stop)) = self.search.take() {
            stop.store(true, Ordering::SeqCst);
        }
    }

    fn level(&self) -> Option<Level> {
        self.record.level.and_then(Level::new)
    }

    /// The state a page shows.
    pub fn view(&self) -> GameView {
        let level = self.level();
        GameView {
            id: self.record.id.clone(),
            variant: self.game.kind().name(),
            variant_title: self.game.kind().title(),
            mode: self.record.mode.as_str(),
            human_color: self.record.human_color.clone(),
            level: level.map(|l| l.number()),
            level_name: level.map(|l| l.name()),
            white: self.record.white.clone(),
            black: self.record.black.clone(),
            rev: self.record.rev,
            start_fen: self.record.start_fen.clone(),
            position: self.game.position_view(self.ending.is_some()),
            moves: self.history.clone(),
            end: self.end_view(),
            engine_thinking: self.search.is_some(),
            created_at: self.record.created_at,
            updated_at: self.record.updated_at,
            online: self.online.as_ref().map(|o| {
                o.view(
                    &self.record.id,
                    self.game.turn(),
                    self.game.ply(),
                    self.ending.is_some(),
                )
            }),
            you: None,
            moves_from: 0,
            moves_before: None,
        }
    }

    /// The game as PGN, with the players' names and the date.
    pub fn pgn(&self) -> String {
        let date = date_string(self.record.created_at);
        let tags = vec![
            ("Event".to_string(), "tensorchess game".to_string()),
            ("Site".to_string(), "tensorchess".to_string()),
            ("Date".to_string(), date),
            ("White".to_string(), self.record.white.clone()),
            ("Black".to_string(), self.record.black.clone()),
        ];
        let outcome = match &self.ending {
            Some(Ending::Rules(o)) | Some(Ending::Decided(o)) => Some(*o),
            _ => None,
        };
        let mut text = self.game.pgn(&tags, outcome);
        if let Some(Ending::Imported(r)) = &self.ending {
            // Keep the imported result.
            text = text.replace("[Result \"*\"]", &format!("[Result \"{r}\"]"));
            if let Some(stripped) = text.trim_end().strip_suffix('*') {
                text = format!("{stripped}{r}\n");
            }
        }
        text
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// `YYYY.MM.DD` for PGN, from milliseconds since the epoch (UTC).
fn date_string(ms: i64) -> String {
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}.{m:02}.{d:02}")
}

pub(crate) fn new_id() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..10)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Whether `id` could be a game id (anything else is not looked up).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 40
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn seed_of(id: &str, ply: usize) -> u64 {
    id.bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        })
        .wrapping_add(ply as u64)
}

/// A game in memory, with when it was last asked for.
struct LiveEntry {
    game: Arc<tokio::sync::Mutex<LiveGame>>,
    touched: i64,
}

/// The games service behind the API and the WebSocket.
pub struct Games {
    pub(crate) store: Arc<dyn GameStore>,
    hub: Arc<Hub>,
    engine: Arc<EnginePlayer>,
    live: Mutex<HashMap<String, LiveEntry>>,
    next_search: AtomicU64,
    pub(crate) config: ServerConfig,
    pub(crate) presence: Arc<Presence>,
    /// When this server started, on its clock.
    pub(crate) boot_ms: i64,
    /// This run's id in the store's list of runs (registered on first need).
    run: OnceCell<i64>,
    stopping: watch::Sender<bool>,
}

impl Games {
    pub fn new(store: Arc<dyn GameStore>, hub: Arc<Hub>, engine: Arc<EnginePlayer>) -> Games {
        Games::with_config(store, hub, engine, ServerConfig::default())
    }

    pub fn with_config(
        store: Arc<dyn GameStore>,
        hub: Arc<Hub>,
        engine: Arc<EnginePlayer>,
        config: ServerConfig,
    ) -> Games {
        Games {
            store,
            presence: Arc::new(Presence::new(hub.clone())),
            hub,
            engine,
            live: Mutex::new(HashMap::new()),
            next_search: AtomicU64::new(1),
            boot_ms: config.clock.now_ms(),
            config,
            run: OnceCell::new(),
            stopping: watch::channel(false).0,
        }
    }

    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    pub fn engine(&self) -> &Arc<EnginePlayer> {
        &self.engine
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.config.clock
    }

    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    pub fn topic(id: &str) -> String {
        format!("game:{id}")
    }

    /// Stops every engine search, flag timer and background task (server shutdown).
    pub fn shutdown(&self) {
        self.engine.shutdown();
        self.stopping.send_replace(true);
    }

    pub fn is_stopping(&self) -> bool {
        *self.stopping.borrow()
    }

    /// Resolves when the server stops.
    pub(crate) fn stopping(&self) -> watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// This run's id, registering the run in the store the first time.
    pub(crate) async fn run_id(&self) -> Result<i64, AppError> {
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
        self.store
            .heartbeat(run, self.config.clock.now_ms())
            .await?;
        Ok(())
    }

    /// Games held in memory now.
    pub fn live_games(&self) -> usize {
        self.live.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Drops from memory the games nobody uses: finished ones after a
    /// short while, others after a long idle time. A game stays while a
    /// request, an engine search or a running clock holds it, or while a
    /// WebSocket watches it. Returns how many left.
    pub fn sweep(&self) -> usize {
        let now = self.config.clock.now_ms();
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        let before = live.len();
        live.retain(|id, entry| {
            // Only the map holds it: nobody can be using it, and nobody can
            // take it without the map's lock, which is held here.
            if Arc::strong_count(&entry.game) > 1 {
                return true;
            }
            if self.hub.subscriber_count(&Self::topic(id)) > 0 {
                return true;
            }
            let Ok(lg) = entry.game.try_lock() else {
                return true;
            };
            let limit = if lg.ending.is_some() {
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

    pub(crate) fn publish(&self, lg: &LiveGame, event: &'static str) {
        let topic = Self::topic(&lg.record.id);
        if self.hub.subscriber_count(&topic) == 0 {
            return;
        }
        // Online games send only what changed in the move list: the move
        // just played, or none (pages keep the moves they have).
        let mut game = lg.view();
        if lg.record.mode == GameMode::Online {
            let ply = lg.history.len();
            let from = if event == "move" {
                ply.saturating_sub(1)
            } else {
                ply
            };
            game.moves = History::new(lg.history[from..].to_vec());
            game.moves_from = from;
            game.moves_before = from.checked_sub(1).map(|i| lg.history[i].uci.clone());
        }
        self.hub.publish(
            &topic,
            &ServerEvent::Game {
                topic: topic.clone(),
                event,
                game: Box::new(game),
            },
        );
    }

    /// Creates a game, stores it, and starts the engine if it moves first.
    pub async fn create(self: &Arc<Self>, req: NewGameRequest) -> Result<GameView, AppError> {
        let mode = match req.mode.as_deref().unwrap_or("engine") {
            "engine" => GameMode::Engine,
            "local" => GameMode::Local,
            "online" => {
                return Err(AppError::bad(
                    "Online games are created with POST /api/online",
                ))
            }
            other => {
                return Err(AppError::bad(format!(
                    "Unknown mode '{other}': expected engine or local"
                )))
            }
        };
        let variant = match req.variant.as_deref() {
            Some(v) => Some(parse_variant(v)?),
            None => None,
        };
        let (game, tags, imported_result) = match (&req.pgn, &req.fen) {
            (Some(_), Some(_)) => return Err(AppError::bad("Give a FEN or a PGN, not both")),
            (Some(pgn), None) => {
                let imported = AnyGame::from_pgn(pgn, variant)?;
                (imported.game, imported.tags, Some(imported.result))
            }
            (None, fen) => (
                AnyGame::new(variant.unwrap_or(VariantKind::Tensor), fen.as_deref())?,
                Vec::new(),
                None,
            ),
        };
        let (human_color, level) = match mode {
            GameMode::Engine => {
                let color = match req.color.as_deref().unwrap_or("white") {
                    "white" => Color::White,
                    "black" => Color::Black,
                    "random" => {
                        if rand::rng().random_bool(0.5) {
                            Color::White
                        } else {
                            Color::Black
                        }
                    }
                    other => {
                        return Err(AppError::bad(format!(
                            "Unknown colour '{other}': expected white, black or random"
                        )))
                    }
                };
                let n = req.level.unwrap_or(DEFAULT_LEVEL);
                let level = Level::new(n).ok_or_else(|| {
                    AppError::bad(format!(
                        "Level {n} does not exist: choose {} to {}",
                        Level::MIN,
                        Level::MAX
                    ))
                })?;
                (Some(color), Some(level))
            }
            GameMode::Local | GameMode::Online => (None, None),
        };
        let tag = |name: &str| {
            tags.iter()
                .find(|(k, v)| k == name && !v.is_empty() && v != "?")
                .map(|(_, v)| v.clone())
        };
        let engine_name = level.map(|l| format!("Engine (level {}: {})", l.number(), l.name()));
        let (white, black) = match (human_color, &engine_name) {
            (Some(Color::White), Some(e)) => ("You".to_string(), e.clone()),
            (Some(Color::Black), Some(e)) => (e.clone(), "You".to_string()),
            _ => (
                tag("White").unwrap_or_else(|| "White".into()),
                tag("Black").unwrap_or_else(|| "Black".into()),
            ),
        };
        let now = now_ms();
        let history = History::new(game.history());
        let mut ending = game.outcome().map(Ending::Rules);
        if ending.is_none() {
            if let Some(r) = imported_result.filter(|r| r != "*") {
                ending = Some(Ending::Imported(r));
            }
        }
        let mut lg = LiveGame {
            record: GameRecord {
                id: new_id(),
                variant: game.kind().name().to_string(),
                start_fen: game.start_fen(),
                mode,
                human_color: human_color.map(|c| c.name().to_string()),
                level: level.map(|l| l.number()),
                white,
                black,
                result: "*".into(),
                end_reason: None,
                rev: 1,
                created_at: now,
                updated_at: now,
            },
            game,
            history,
            ending,
            search: None,
            online: None,
        };
        let (result, end_reason) = lg.result_fields();
        lg.record.result = result;
        lg.record.end_reason = end_reason;
        let stored = StoredGame {
            record: lg.record.clone(),
            moves: lg
                .history
                .iter()
                .map(|h| StoredMove {
                    ply: h.ply,
                    uci: h.uci.clone(),
                    san: h.san.clone(),
                })
                .collect(),
            online: None,
        };
        self.store.create_game(&stored).await?;
        let arc = self.insert_live(lg);
        let mut lg = arc.lock().await;
        self.start_engine(&arc, &mut lg);
        Ok(lg.view())
    }

    /// Puts a new game in memory.
    pub(crate) fn insert_live(&self, lg: LiveGame) -> Arc<tokio::sync::Mutex<LiveGame>> {
        let id = lg.record.id.clone();
        let arc = Arc::new(tokio::sync::Mutex::new(lg));
        self.live.lock().unwrap_or_else(|e| e.into_inner()).insert(
            id,
            LiveEntry {
                game: arc.clone(),
                touched: self.config.clock.now_ms(),
            },
        );
        arc
    }

    /// The game, loaded from the store if it is not in memory. A loaded game
    /// whose engine was to move (the server stopped while it thought)
    /// resumes; an online game's clock picks up where it was.
    pub async fn get(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<Arc<tokio::sync::Mutex<LiveGame>>, AppError> {
        let not_found = || AppError::NotFound(format!("There is no game {id}"));
        if !valid_id(id) {
            return Err(not_found());
        }
        let now = self.config.clock.now_ms();
        if let Some(e) = self
            .live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(id)
        {
            e.touched = now;
            return Ok(e.game.clone());
        }
        let stored = self.store.load_game(id).await?.ok_or_else(not_found)?;
        // A clock that was running when an earlier server stopped: count
        // only the time that server (and any since) was up.
        let mut origin = None;
        if let Some(started) = stored.online.as_ref().and_then(|o| o.turn_started_at) {
            origin = Some(if started >= self.boot_ms {
                started
            } else {
                let run = self.run_id().await?;
                let runs = self.store.runs_since(started).await?;
                self.boot_ms.max(started) - time_in_runs(started, &runs, run)
            });
        }
        let mut lg = Self::revive(stored)?;
        if let Some(o) = lg.online.as_mut() {
            o.clock = self.config.clock.clone();
            o.presence = self.presence.clone();
            o.turn_origin = if lg.ending.is_some() { None } else { origin };
        }
        self.start_first_move_wait(&mut lg, self.config.clock.now_ms());
        let arc = {
            let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
            live.entry(id.to_string())
                .or_insert_with(|| LiveEntry {
                    game: Arc::new(tokio::sync::Mutex::new(lg)),
                    touched: now,
                })
                .game
                .clone()
        };
        {
            let mut lg = arc.lock().await;
            self.start_engine(&arc, &mut lg);
            if lg.online.as_ref().is_some_and(|o| o.timer.is_none()) {
                self.arm_timer(&arc, &mut lg);
            }
        }
        Ok(arc)
    }

    fn revive(stored: StoredGame) -> Result<LiveGame, AppError> {
        let online = stored.online;
        let record = stored.record;
        let kind = parse_variant(&record.variant)
            .map_err(|e| AppError::Internal(format!("game {}: {e}", record.id)))?;
        let moves: Vec<String> = stored.moves.into_iter().map(|m| m.uci).collect();
        let game = AnyGame::replay(kind, &record.start_fen, &moves)?;
        let decided = |reason: EndReason| -> Option<Outcome> {
            match (record.result.as_str(), reason) {
                ("1-0", r) => Some(Outcome::Decisive {
                    winner: Color::White,
                    reason: r,
                }),
                ("0-1", r) => Some(Outcome::Decisive {
                    winner: Color::Black,
                    reason: r,
                }),
                ("1/2-1/2", r) => Some(Outcome::Draw { reason: r }),
                _ => None,
            }
        };
        let ending = match record.end_reason.as_deref() {
            Some("imported") => Some(Ending::Imported(record.result.clone())),
            Some(ABORTED) => Some(Ending::Aborted { no_show: None }),
            Some(r) if r.ends_with(NO_FIRST_MOVE) => Some(Ending::Aborted {
                no_show: parse_color(r.trim_end_matches(NO_FIRST_MOVE)),
            }),
            Some(r) => match parse_reason(r) {
                Some(
                    reason @ (EndReason::Resignation
                    | EndReason::Agreement
                    | EndReason::Timeout
                    | EndReason::Abandoned),
                ) => decided(reason).map(Ending::Decided),
                _ => game.outcome().map(Ending::Rules),
            },
            None => game.outcome().map(Ending::Rules),
        };
        let history = History::new(game.history());
        let online = online.map(|record| OnlineState {
            record,
            turn_origin: None,
            first_move_deadline: None,
            timer_gen: 0,
            timer: None,
            last_offer: [None, None],
            clock: Arc::new(SystemClock),
            presence: Arc::new(Presence::new(Arc::new(Hub::new()))),
        });
        Ok(LiveGame {
            record,
            game,
            history,
            ending,
            search: None,
            online,
        })
    }

    pub async fn view(self: &Arc<Self>, id: &str) -> Result<GameView, AppError> {
        let arc = self.get(id).await?;
        let lg = arc.lock().await;
        Ok(lg.view())
    }

    pub async fn pgn(self: &Arc<Self>, id: &str) -> Result<String, AppError> {
        let arc = self.get(id).await?;
        let lg = arc.lock().await;
        Ok(lg.pgn())
    }

    /// Saved games: engine and local games, and the online games `cookies`
    /// hold a seat cookie of.
    pub async fn list(
        &self,
        limit: usize,
        cookies: &Cookies,
    ) -> Result<Vec<GameSummaryView>, AppError> {
        let rows = self.store.list_games(limit, &cookies.seat_games()).await?;
        Ok(rows.into_iter().map(summary_view).collect())
    }

    pub async fn delete(self: &Arc<Self>, id: &str) -> Result<(), AppError> {
        if !valid_id(id) {
            return Err(AppError::NotFound(format!("There is no game {id}")));
        }
        if self.get(id).await?.lock().await.record.mode == GameMode::Online {
            return Err(AppError::Conflict(
                "Online games are kept: both players and their spectators may come back to them"
                    .into(),
            ));
        }
        let live = self
            .live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        if let Some(entry) = live {
            entry.game.lock().await.stop_search();
        }
        if self.store.delete_game(id).await? {
            Ok(())
        } else {
            Err(AppError::NotFound(format!("There is no game {id}")))
        }
    }

    /// Plays a person's move (in an online game: the move of the seat
    /// `cookies` hold).
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        req: MoveRequest,
        cookies: &Cookies,
    ) -> Result<GameView, AppError> {
        let arc = self.get(id).await?;
        let mut lg = arc.lock().await;
        if lg.record.mode == GameMode::Online {
            let Some(ply) = req.ply else {
                return Err(AppError::bad(
                    "A move in an online game must say at which ply it is played (\"ply\")",
                ));
            };
            let action = OnlineAction::Move { mv: req.mv, ply };
            self.act_locked(&arc, &mut lg, cookies, action).await?;
            return Ok(self.view_for_locked(&lg, cookies));
        }
        if lg.ending.is_some() {
            return Err(AppError::Conflict("The game is over".into()));
        }
        if let Some(ply) = req.ply {
            if ply != lg.game.ply() {
                return Err(AppError::Conflict(format!(
                    "The game has moved on (move {} was expected, the game is at {}): reload it",
                    ply,
                    lg.game.ply()
                )));
            }
        }
        if lg.engine_to_move() {
            return Err(AppError::Conflict(
                "It is the engine's turn: wait for its move".into(),
            ));
        }
        let m = lg.game.parse_move(&req.mv)?;
        self.apply_move(&mut lg, m).await?;
        self.start_engine(&arc, &mut lg);
        self.publish(&lg, "move");
        Ok(lg.view())
    }

    /// Plays a legal move: stored first, then made in memory.
    async fn apply_move(&self, lg: &mut LiveGame, m: Move) -> Result<(), AppError> {
        let mut next = lg.game.clone();
        let entry = next.push(m);
        let ending = next.outcome().map(Ending::Rules);
        let (result, end_reason) = match &ending {
            Some(Ending::Rules(o)) => (
                o.result_str().to_string(),
                Some(reason_str(o.reason()).to_string()),
            ),
            _ => ("*".to_string(), None),
        };
        let update = GameUpdate {
            rev: lg.record.rev + 1,
            result,
            end_reason,
            updated_at: now_ms().max(lg.record.updated_at),
            online: None,
        };
        let stored = StoredMove {
            ply: entry.ply,
            uci: entry.uci.clone(),
            san: entry.san.clone(),
        };
        self.store
            .append_move(&lg.record.id, &stored, &update)
            .await?;
        lg.game = next;
        lg.history.make_mut().push(entry);
        lg.ending = ending;
        lg.commit_update(update);
        Ok(())
    }

    /// Starts the engine's search when it is to move and not already thinking.
    fn start_engine(self: &Arc<Self>, arc: &Arc<tokio::sync::Mutex<LiveGame>>, lg: &mut LiveGame) {
        if !lg.engine_to_move() || lg.search.is_some() || self.engine.is_shut_down() {
            return;
        }
        let level = lg.level().unwrap_or(Level::FULL);
        let search_id = self.next_search.fetch_add(1, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        lg.search = Some((search_id, stop.clone()));
        let req = SearchRequest {
            game: lg.game.clone(),
            ply: lg.game.ply(),
            level: Some(level),
            movetime: level.settings().move_time,
            seed: seed_of(&lg.record.id, lg.game.ply()),
            stop,
        };
        let this = self.clone();
        let arc = arc.clone();
        tokio::spawn(async move {
            let found = this.engine.play(req).await;
            let mut lg = arc.lock().await;
            if lg.search.as_ref().map(|s| s.0) != Some(search_id) {
                return; // taken back, resigned or deleted meanwhile
            }
            lg.search = None;
            match found {
                Ok(out) if !out.best.is_null() && !this.engine.is_shut_down() => {
                    if let Err(e) = this.apply_move(&mut lg, out.best).await {
                        tracing::error!(
                            "game {}: the engine's move was not stored: {e}",
                            lg.record.id
                        );
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!("game {}: engine search failed: {e}", lg.record.id),
            }
            this.publish(&lg, "move");
        });
    }

    /// Takes back the last move (against the engine: the person's last move
    /// and the engine's answer).
    pub async fn takeback(self: &Arc<Self>, id: &str) -> Result<GameView, AppError> {
        let arc = self.get(id).await?;
        let mut lg = arc.lock().await;
        if lg.record.mode == GameMode::Online {
            return Err(AppError::refused(
                "not_allowed",
                "There are no takebacks in online games",
            ));
        }
        match lg.ending {
            Some(Ending::Decided(_)) | Some(Ending::Imported(_)) | Some(Ending::Aborted { .. }) => {
                return Err(AppError::Conflict("The game is over".into()))
            }
            _ => {}
        }
        let count = match lg.human_color() {
            Some(human) if lg.record.mode == GameMode::Engine && lg.game.turn() == human => 2,
            _ => 1,
        };
        if lg.game.ply() < count {
            return Err(AppError::Conflict(
                "There is no move of yours to take back".into(),
            ));
        }
        let keep = lg.game.ply() - count;
        let mut next = lg.game.clone();
        for _ in 0..count {
            next.pop();
        }
        let ending = next.outcome().map(Ending::Rules);
        let (result, end_reason) = match &ending {
            Some(Ending::Rules(o)) => (
                o.result_str().to_string(),
                Some(reason_str(o.reason()).to_string()),
            ),
            _ => ("*".to_string(), None),
        };
        let update = GameUpdate {
            rev: lg.record.rev + 1,
            result,
            end_reason,
            updated_at: now_ms().max(lg.record.updated_at),
            online: None,
        };
        self.store
            .truncate_moves(&lg.record.id, keep, &update)
            .await?;
        lg.stop_search();
        lg.game = next;
        lg.history.make_mut().truncate(keep);
        lg.ending = ending;
        lg.commit_update(update);
        self.start_engine(&arc, &mut lg);
        self.publish(&lg, "takeback");
        Ok(lg.view())
    }

    /// The person resigns (two players on one device: the side to move
    /// resigns; online: the seat `cookies` hold).
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        cookies: &Cookies,
    ) -> Result<GameView, AppError> {
        let arc = self.get(id).await?;
        let mut lg = arc.lock().await;
        if lg.record.mode == GameMode::Online {
            self.act_locked(&arc, &mut lg, cookies, OnlineAction::Resign)
                .await?;
            return Ok(self.view_for_locked(&lg, cookies));
        }
        if lg.ending.is_some() {
            return Err(AppError::Conflict("The game is over".into()));
        }
        let loser = match (lg.record.mode, lg.human_color()) {
            (GameMode::Engine, Some(c)) => c,
            _ => lg.game.turn(),
        };
        self.finish(
            &mut lg,
            Outcome::Decisive {
                winner: !loser,
                reason: EndReason::Resignation,
            },
        )
        .await?;
        self.publish(&lg, "resign");
        Ok(lg.view())
    }

    async fn finish(&self, lg: &mut LiveGame, outcome: Outcome) -> Result<(), AppError> {
        let previous = lg.ending.replace(Ending::Decided(outcome));
        let update = lg.next_update();
        if let Err(e) = self.store.update_game(&lg.record.id, &update).await {
            lg.ending = previous;
            return Err(e.into());
        }
        lg.stop_search();
        lg.commit_update(update);
        Ok(())
    }

    /// A draw offer: the engine decides by its evaluation; on one device,
    /// the players have already agreed.
    pub async fn offer_draw(self: &Arc<Self>, id: &str) -> Result<DrawAnswerView, AppError> {
        let arc = self.get(id).await?;
        let (game, rev, engine_color) = {
            let lg = arc.lock().await;
            if lg.record.mode == GameMode::Online {
                return Err(AppError::refused(
                    "not_allowed",
                    "In an online game, offer a draw with the offer_draw action",
                ));
            }
            if lg.ending.is_some() {
                return Err(AppError::Conflict("The game is over".into()));
            }
            let engine_color = match lg.record.mode {
                GameMode::Engine => lg.human_color().map(|c| !c),
                GameMode::Local | GameMode::Online => None,
            };
            (lg.game.clone(), lg.record.rev, engine_color)
        };
        let mut message = "Draw agreed.".to_string();
        if let Some(engine_color) = engine_color {
            let ply = game.ply();
            let out = self
                .engine
                .advise(SearchRequest {
                    game: game.clone(),
                    ply,
                    level: None,
                    movetime: DRAW_TIME,
                    seed: 0,
                    stop: Arc::new(AtomicBool::new(false)),
                })
                .await?;
            let engine_score = if game.turn() == engine_color {
                out.score
            } else {
                -out.score
            };
            let (accepted, says) = accepts_draw(engine_score, ply);
            message = says.to_string();
            if !accepted {
                let lg = arc.lock().await;
                return Ok(DrawAnswerView {
                    accepted: false,
                    message,
                    game: lg.view(),
                });
            }
        }
        let mut lg = arc.lock().await;
        if lg.record.rev != rev || lg.ending.is_some() {
            return Ok(DrawAnswerView {
                accepted: false,
                message: "The game moved on before the offer was answered.".into(),
                game: lg.view(),
            });
        }
        self.finish(
            &mut lg,
            Outcome::Draw {
                reason: EndReason::Agreement,
            },
        )
        .await?;
        self.publish(&lg, "draw");
        Ok(DrawAnswerView {
            accepted: true,
            message,
            game: lg.view(),
        })
    }

    /// The engine's best move for the side to move now.
    pub async fn hint(self: &Arc<Self>, id: &str) -> Result<AnalysisView, AppError> {
        let arc = self.get(id).await?;
        let game = {
            let lg = arc.lock().await;
            if lg.ending.is_some() {
                return Err(AppError::Conflict("The game is over".into()));
            }
            if lg.record.mode == GameMode::Online {
                return Err(AppError::refused(
                    "not_allowed",
                    "No engine help while an online game is played",
                ));
            }
            lg.game.clone()
        };
        self.analyse(game, None, HINT_TIME).await
    }

    /// A short evaluation of the position after `ply` moves (default: now).
    pub async fn evaluate(
        self: &Arc<Self>,
        id: &str,
        ply: Option<usize>,
    ) -> Result<AnalysisView, AppError> {
        let arc = self.get(id).await?;
        let game = {
            let lg = arc.lock().await;
            if lg.record.mode == GameMode::Online && lg.ending.is_none() {
                return Err(AppError::refused(
                    "not_allowed",
                    "No engine evaluation while an online game is played",
                ));
            }
            lg.game.clone()
        };
        if let Some(p) = ply {
            if p > game.ply() {
                return Err(AppError::bad(format!(
                    "The game has {} moves, not {p}",
                    game.ply()
                )));
            }
        }
        self.analyse(game, ply, EVAL_TIME).await
    }

    async fn analyse(
        &self,
        game: AnyGame,
        ply: Option<usize>,
        time: Duration,
    ) -> Result<AnalysisView, AppError> {
        let ply = ply.unwrap_or(game.ply());
        let out = self
            .engine
            .advise(SearchRequest {
                game,
                ply,
                level: None,
                movetime: time,
                seed: 0,
                stop: Arc::new(AtomicBool::new(false)),
            })
            .await?;
        Ok(AnalysisView {
            ply,
            best: out.best_view,
            score: out.white_score,
        })
    }
}

fn summary_view(s: GameSummary) -> GameSummaryView {
    let r = s.record;
    let title = r
        .variant
        .parse::<VariantKind>()
        .map_or("Unknown game", |k| k.title());
    GameSummaryView {
        finished: r.result != "*" || r.end_reason.is_some(),
        id: r.id,
        variant: r.variant,
        variant_title: title,
        mode: r.mode.as_str(),
        human_color: r.human_color,
        level: r.level,
        white: r.white,
        black: r.black,
        result: r.result,
        end_reason: r.end_reason,
        move_count: s.move_count,
        created_at: r.created_at,
        updated_at: r.updated_at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(date_string(0), "1970.01.01");
        assert_eq!(date_string(1_700_000_000_000), "2023.11.14");
        assert_eq!(date_string(951_782_400_000), "2000.02.29");
    }

    #[test]
    fn ids_are_checked_before_lookup() {
        assert!(valid_id(&new_id()));
        assert!(!valid_id(""));
        assert!(!valid_id("../etc"));
        assert!(!valid_id(&"a".repeat(41)));
    }
}
