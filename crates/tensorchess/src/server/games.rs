//! Games being played: loaded from the store on first use, changed one
//! request at a time, every change written to the store before it is
//! answered or announced, and the engine's moves made in the background.

use super::anygame::{
    end_view, imported_end_view, parse_reason, parse_variant, reason_str, AnyGame,
};
use super::engine_player::{accepts_draw, EnginePlayer, SearchRequest};
use super::error::AppError;
use super::hub::Hub;
use super::requests::{MoveRequest, NewGameRequest};
use super::store::{
    GameMode, GameRecord, GameStore, GameSummary, GameUpdate, StoredGame, StoredMove,
};
use super::views::{
    AnalysisView, DrawAnswerView, EndView, GameSummaryView, GameView, HistoryEntry, ServerEvent,
};
use rand::Rng;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tensorchess_engine::Level;
use tensorchess_rules::{Color, EndReason, Move, Outcome, VariantKind};

/// Thinking time of a hint.
const HINT_TIME: Duration = Duration::from_millis(1000);
/// Thinking time behind the evaluation bar.
const EVAL_TIME: Duration = Duration::from_millis(400);
/// Thinking time before answering a draw offer.
const DRAW_TIME: Duration = Duration::from_millis(600);

/// The default level against the engine.
pub const DEFAULT_LEVEL: u8 = 3;

/// Why a game is over.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Ending {
    /// By the rules: mate, stalemate, repetition, ...
    Rules(Outcome),
    /// By the players: resignation, agreement.
    Decided(Outcome),
    /// A finished game imported from PGN, with its result.
    Imported(String),
}

/// A game in memory.
pub struct LiveGame {
    record: GameRecord,
    game: AnyGame,
    history: Vec<HistoryEntry>,
    ending: Option<Ending>,
    /// The engine's search for its move: an id and its stop flag.
    search: Option<(u64, Arc<AtomicBool>)>,
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
        }
    }

    fn result_fields(&self) -> (String, Option<String>) {
        match &self.ending {
            None => ("*".into(), None),
            Some(Ending::Rules(o)) | Some(Ending::Decided(o)) => (
                o.result_str().to_string(),
                Some(reason_str(o.reason()).to_string()),
            ),
            Some(Ending::Imported(r)) => (r.clone(), Some("imported".into())),
        }
    }

    /// The next state's stored fields.
    fn next_update(&self) -> GameUpdate {
        let (result, end_reason) = self.result_fields();
        GameUpdate {
            rev: self.record.rev + 1,
            result,
            end_reason,
            updated_at: now_ms().max(self.record.updated_at),
        }
    }

    fn commit_update(&mut self, update: GameUpdate) {
        self.record.rev = update.rev;
        self.record.result = update.result;
        self.record.end_reason = update.end_reason;
        self.record.updated_at = update.updated_at;
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

fn new_id() -> String {
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

/// The games service behind the API and the WebSocket.
pub struct Games {
    store: Arc<dyn GameStore>,
    hub: Arc<Hub>,
    engine: Arc<EnginePlayer>,
    live: Mutex<HashMap<String, Arc<tokio::sync::Mutex<LiveGame>>>>,
    next_search: AtomicU64,
}

impl Games {
    pub fn new(store: Arc<dyn GameStore>, hub: Arc<Hub>, engine: Arc<EnginePlayer>) -> Games {
        Games {
            store,
            hub,
            engine,
            live: Mutex::new(HashMap::new()),
            next_search: AtomicU64::new(1),
        }
    }

    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    pub fn engine(&self) -> &Arc<EnginePlayer> {
        &self.engine
    }

    pub fn topic(id: &str) -> String {
        format!("game:{id}")
    }

    /// Stops every engine search (server shutdown).
    pub fn shutdown(&self) {
        self.engine.shutdown();
    }

    fn publish(&self, lg: &LiveGame, event: &'static str) {
        let topic = Self::topic(&lg.record.id);
        if self.hub.subscriber_count(&topic) == 0 {
            return;
        }
        self.hub.publish(
            &topic,
            &ServerEvent::Game {
                topic: topic.clone(),
                event,
                game: Box::new(lg.view()),
            },
        );
    }

    /// Creates a game, stores it, and starts the engine if it moves first.
    pub async fn create(self: &Arc<Self>, req: NewGameRequest) -> Result<GameView, AppError> {
        let mode = match req.mode.as_deref().unwrap_or("engine") {
            "engine" => GameMode::Engine,
            "local" => GameMode::Local,
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
            GameMode::Local => (None, None),
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
        let history = game.history();
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
        };
        self.store.create_game(&stored).await?;
        let id = lg.record.id.clone();
        let arc = Arc::new(tokio::sync::Mutex::new(lg));
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, arc.clone());
        let mut lg = arc.lock().await;
        self.start_engine(&arc, &mut lg);
        Ok(lg.view())
    }

    /// The game, loaded from the store if it is not in memory. A loaded game
    /// whose engine was to move (the server stopped while it thought) resumes.
    pub async fn get(
        self: &Arc<Self>,
        id: &str,
    ) -> Result<Arc<tokio::sync::Mutex<LiveGame>>, AppError> {
        let not_found = || AppError::NotFound(format!("There is no game {id}"));
        if !valid_id(id) {
            return Err(not_found());
        }
        if let Some(g) = self.live.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            return Ok(g.clone());
        }
        let stored = self.store.load_game(id).await?.ok_or_else(not_found)?;
        let lg = Self::revive(stored)?;
        let arc = {
            let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
            live.entry(id.to_string())
                .or_insert_with(|| Arc::new(tokio::sync::Mutex::new(lg)))
                .clone()
        };
        {
            let mut lg = arc.lock().await;
            self.start_engine(&arc, &mut lg);
        }
        Ok(arc)
    }

    fn revive(stored: StoredGame) -> Result<LiveGame, AppError> {
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
        let history = game.history();
        Ok(LiveGame {
            record,
            game,
            history,
            ending,
            search: None,
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

    pub async fn list(&self, limit: usize) -> Result<Vec<GameSummaryView>, AppError> {
        let rows = self.store.list_games(limit).await?;
        Ok(rows.into_iter().map(summary_view).collect())
    }

    pub async fn delete(self: &Arc<Self>, id: &str) -> Result<(), AppError> {
        if !valid_id(id) {
            return Err(AppError::NotFound(format!("There is no game {id}")));
        }
        let live = self
            .live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        if let Some(arc) = live {
            arc.lock().await.stop_search();
        }
        if self.store.delete_game(id).await? {
            Ok(())
        } else {
            Err(AppError::NotFound(format!("There is no game {id}")))
        }
    }

    /// Plays a person's move.
    pub async fn play(self: &Arc<Self>, id: &str, req: MoveRequest) -> Result<GameView, AppError> {
        let arc = self.get(id).await?;
        let mut lg = arc.lock().await;
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
        lg.history.push(entry);
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
        match lg.ending {
            Some(Ending::Decided(_)) | Some(Ending::Imported(_)) => {
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
        };
        self.store
            .truncate_moves(&lg.record.id, keep, &update)
            .await?;
        lg.stop_search();
        lg.game = next;
        lg.history.truncate(keep);
        lg.ending = ending;
        lg.commit_update(update);
        self.start_engine(&arc, &mut lg);
        self.publish(&lg, "takeback");
        Ok(lg.view())
    }

    /// The person resigns (two players on one device: the side to move resigns).
    pub async fn resign(self: &Arc<Self>, id: &str) -> Result<GameView, AppError> {
        let arc = self.get(id).await?;
        let mut lg = arc.lock().await;
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
            if lg.ending.is_some() {
                return Err(AppError::Conflict("The game is over".into()));
            }
            let engine_color = match lg.record.mode {
                GameMode::Engine => lg.human_color().map(|c| !c),
                GameMode::Local => None,
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
        let game = arc.lock().await.game.clone();
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
        finished: r.result != "*",
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
