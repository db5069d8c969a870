//! The engine as a player and adviser: searches run on blocking threads,
//! off the async runtime, each stoppable by its own flag and by server
//! shutdown. Engines (and their hash tables) are pooled and reused. Every
//! search takes a slot of the server's [`SearchBudget`] (fair between
//! players, capped at about the number of cores, so memory stays bounded
//! too); advice (hints, evaluations, draw answers) is also limited per
//! player, and refused with 429 or 503 rather than queued without end.

use crate::budget::{Refusal, Requester, SearchBudget, Slot};
use crate::error::AppError;
use crate::game_views::{GameViews, VariantGame};
use crate::kind::Kind;
use crate::ratelimit::{KeyedLimiter, RateLimit};
use crate::views::{DrawAnswerCode, MoveView, ScoreView};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tensorchess_engine::{Engine, Eval, Level, Limits, Options, SearchHandler};
use tensorchess_rules::{Color, Move};

/// Hash table per pooled engine.
const HASH_MB: usize = 16;
/// Idle engines kept for reuse.
const POOL_SIZE: usize = 4;

/// What to search.
pub struct SearchRequest {
    /// The game (only the positions up to `ply` are searched).
    pub game: VariantGame,
    /// The position to search: after this many of the game's moves.
    pub ply: usize,
    /// A playing level; `None` is full strength (hints, evaluation).
    pub level: Option<Level>,
    /// The longest the search may take (a level may take less).
    pub movetime: Duration,
    /// Seeds a weak level's noise, so that games differ.
    pub seed: u64,
    /// Set to stop the search early (it still returns a legal move).
    pub stop: Arc<AtomicBool>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// The move found (the null move when the position has none).
    pub best: Move,
    /// That move as pages see it; `None` for the null move.
    pub best_view: Option<MoveView>,
    /// From the side to move's point of view.
    pub score: Eval,
    /// The depth completed, in plies.
    pub depth: u32,
    /// White's point of view, for pages.
    pub white_score: ScoreView,
    /// The stop flag or shutdown ended it.
    pub stopped: bool,
}

struct StopHandler {
    stop: Arc<AtomicBool>,
    shutdown: Arc<AtomicBool>,
}

impl SearchHandler for StopHandler {
    fn should_stop(&mut self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.shutdown.load(Ordering::Relaxed)
    }
}

/// Advisory searches per player: a burst for a page that asks for the
/// evaluation after each of a few quick moves, then one a second.
pub const ADVICE_PER_PLAYER: RateLimit = RateLimit {
    burst: 20,
    per_second: 1.0,
};

/// Advisory searches per client address, whatever the player (fresh
/// guests from one address share it): a few players' worth.
pub const ADVICE_PER_ADDRESS: RateLimit = RateLimit {
    burst: 60,
    per_second: 3.0,
};

/// Runs engine searches for the server.
pub struct EnginePlayer {
    idle: Mutex<Vec<Engine>>,
    shutdown: Arc<AtomicBool>,
    /// Slots for every search, handed out fairly between players.
    budget: Arc<SearchBudget>,
    /// Hints and evaluations per player.
    advice: KeyedLimiter<String>,
    /// Hints and evaluations per client address.
    advice_by_address: KeyedLimiter<std::net::IpAddr>,
    /// Search threads for the engine's own moves at full strength: two
    /// threads gained 127 Elo over one on two cores (docs/strength.md).
    full_strength_threads: usize,
}

impl Default for EnginePlayer {
    fn default() -> Self {
        EnginePlayer::new()
    }
}

impl EnginePlayer {
    /// An engine player running as many searches at once as there are CPUs.
    pub fn new() -> EnginePlayer {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        EnginePlayer::with_slots(cpus)
    }

    /// An engine player running at most `slots` searches at once.
    pub fn with_slots(slots: usize) -> EnginePlayer {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        EnginePlayer {
            idle: Mutex::new(Vec::new()),
            shutdown: Arc::new(AtomicBool::new(false)),
            budget: SearchBudget::new(slots),
            advice: KeyedLimiter::new(ADVICE_PER_PLAYER),
            advice_by_address: KeyedLimiter::new(ADVICE_PER_ADDRESS),
            full_strength_threads: cpus.clamp(1, 4),
        }
    }

    /// Stops every search now and refuses new ones.
    pub fn shutdown(&self) {
        self.shutdown.store(true, Ordering::SeqCst);
    }

    /// Whether [`EnginePlayer::shutdown`] was called.
    pub fn is_shut_down(&self) -> bool {
        self.shutdown.load(Ordering::SeqCst)
    }

    /// The budget every search takes a slot of.
    pub fn budget(&self) -> &Arc<SearchBudget> {
        &self.budget
    }

    /// Whether `who` may make a move the engine will answer (429 when
    /// their player or address has too many engine moves waiting).
    pub fn admits_game(&self, who: &Requester) -> Result<(), AppError> {
        self.budget.admits_game(who).map_err(|_| {
            AppError::refused(
                Kind::EngineBusy,
                "The engine is still answering your other games: try again in a moment",
            )
        })
    }

    /// A search for the engine's own move in `who`'s game: it waits its
    /// turn, however long the queue, and thinks for a share of its time
    /// when others wait.
    pub async fn play(
        &self,
        who: &Requester,
        mut req: SearchRequest,
    ) -> Result<SearchOutcome, AppError> {
        let _slot = self.slot(who, true).await?;
        req.movetime = self.budget.time_share(req.movetime);
        // Weaker levels stop at node limits, where more threads add nothing;
        // full strength uses more threads only when the server is quiet.
        let full = req.level.is_none_or(|l| l == Level::FULL);
        let (running, waiting) = self.budget.load();
        let quiet = running <= 1 && waiting == 0;
        let threads = if full && quiet {
            self.full_strength_threads
        } else {
            1
        };
        self.run(req, threads).await
    }

    /// An advisory search (hint, evaluation bar, draw offer) for `who`, at
    /// `now_ms`: limited per player and per address, and refused when the
    /// server is busy.
    pub async fn advise(
        &self,
        who: &Requester,
        now_ms: i64,
        req: SearchRequest,
    ) -> Result<SearchOutcome, AppError> {
        self.count_advice(who, now_ms)?;
        let _slot = self.slot(who, false).await?;
        self.run(req, 1).await
    }

    /// Counts one advisory request of `who` at `now_ms` (429 past the
    /// limits): an analysis counts once, however many searches it makes.
    pub fn count_advice(&self, who: &Requester, now_ms: i64) -> Result<(), AppError> {
        let too_many = |retry_ms| AppError::TooManyRequests { retry_ms };
        if let Some(ip) = who.client {
            self.advice_by_address.take(&ip, now_ms).map_err(too_many)?;
        }
        self.advice.take(&who.player, now_ms).map_err(too_many)
    }

    /// A slot for one advisory search of `who` (a slice of an analysis):
    /// refused when the server is busy.
    pub async fn advice_slot(&self, who: &Requester) -> Result<Slot, AppError> {
        self.slot(who, false).await
    }

    /// A slot for one background search (a position of a game review): it
    /// waits until no other search does.
    pub async fn background_slot(&self) -> Result<Slot, AppError> {
        self.refuse_if_shut_down()?;
        Ok(self.budget.background_slot().await)
    }

    /// An engine of the pool (or a new one) for work that searches many
    /// times (analysis, review); hand it back with [`EnginePlayer::recycle`].
    pub fn lend_engine(&self) -> Engine {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(|| {
                Engine::new(Options {
                    hash_mb: HASH_MB,
                    ..Options::default()
                })
            })
    }

    /// Gives a lent engine back to the pool (settings as they were).
    pub fn recycle(&self, mut engine: Engine) {
        engine.options.multipv = 1;
        engine.options.level = None;
        engine.options.threads = 1;
        engine.options.use_nnue = Options::default().use_nnue;
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        if idle.len() < POOL_SIZE {
            idle.push(engine);
        }
    }

    /// Set when the server shuts down: long work polls it to stop.
    pub fn shutdown_flag(&self) -> Arc<AtomicBool> {
        self.shutdown.clone()
    }

    /// Refuses new work once the server is shutting down.
    fn refuse_if_shut_down(&self) -> Result<(), AppError> {
        if self.is_shut_down() {
            return Err(AppError::Unavailable("The server is shutting down".into()));
        }
        Ok(())
    }

    async fn slot(&self, who: &Requester, game: bool) -> Result<Slot, AppError> {
        self.refuse_if_shut_down()?;
        self.budget
            .slot(who, game)
            .await
            .map_err(|refusal| match refusal {
                Refusal::Overloaded => AppError::Overloaded { retry_ms: 5_000 },
                Refusal::TooManyOfYours => AppError::TooManyRequests { retry_ms: 2_000 },
            })
    }

    async fn run(&self, req: SearchRequest, threads: usize) -> Result<SearchOutcome, AppError> {
        self.refuse_if_shut_down()?;
        let mut engine = self.lend_engine();
        let shutdown = self.shutdown.clone();
        let joined = tokio::task::spawn_blocking(move || {
            engine.new_game();
            engine.options.level = req.level;
            engine.options.seed = req.seed;
            engine.options.threads = threads;
            let mut handler = StopHandler {
                stop: req.stop.clone(),
                shutdown,
            };
            let limits = Limits::movetime(req.movetime);
            let (result, best_view) =
                req.game
                    .search_at(req.ply, &mut engine, &limits, &mut handler);
            let stopped = handler.should_stop();
            let mover = req.game.turn_at(req.ply);
            let outcome = SearchOutcome {
                best: result.best,
                best_view,
                score: result.score,
                depth: result.depth,
                white_score: white_score(result.score, mover, result.depth),
                stopped,
            };
            (engine, outcome)
        })
        .await;
        match joined {
            Ok((engine, outcome)) => {
                let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
                if idle.len() < POOL_SIZE {
                    idle.push(engine);
                }
                Ok(outcome)
            }
            Err(e) => Err(AppError::Internal(format!("the engine failed: {e}"))),
        }
    }
}

/// A score from the mover's view, turned to White's.
pub fn white_score(score: Eval, mover: Color, depth: u32) -> ScoreView {
    let s = match mover {
        Color::White => score,
        Color::Black => -score,
    };
    ScoreView {
        cp: (!s.is_mate()).then_some(s.0),
        mate: s.mate_moves(),
        depth,
    }
}

/// How the engine answers a draw offer, given its own score of the
/// position (positive: it is better) after `ply` moves.
pub fn accepts_draw(engine_score: Eval, ply: usize) -> DrawAnswerCode {
    if engine_score.is_mate() {
        return if engine_score.0 < 0 {
            DrawAnswerCode::Accepted
        } else {
            DrawAnswerCode::DeclinedMate
        };
    }
    let cp = engine_score.0;
    if cp <= -50 {
        DrawAnswerCode::Accepted
    } else if cp.abs() <= 15 && ply >= 60 {
        DrawAnswerCode::AcceptedLevel
    } else if cp >= 50 {
        DrawAnswerCode::DeclinedBetter
    } else {
        DrawAnswerCode::DeclinedPlayOn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_views::new_game;
    use tensorchess_rules::VariantKind;

    #[test]
    fn draw_decisions_follow_the_score() {
        assert!(accepts_draw(Eval(-300), 10).accepted());
        assert!(!accepts_draw(Eval(20), 10).accepted());
        assert!(accepts_draw(Eval(5), 80).accepted());
        assert!(!accepts_draw(Eval::mate_in(3), 10).accepted());
        assert!(accepts_draw(-Eval::mate_in(3), 10).accepted());
    }

    #[tokio::test]
    async fn a_stopped_search_still_gives_a_legal_move() {
        let player = EnginePlayer::new();
        let game = new_game(VariantKind::Tensor, None).unwrap();
        let stop = Arc::new(AtomicBool::new(true));
        let out = player
            .play(
                &Requester::new("p", None),
                SearchRequest {
                    game: game.clone(),
                    ply: 0,
                    level: Level::new(3),
                    movetime: Duration::from_secs(30),
                    seed: 1,
                    stop,
                },
            )
            .await
            .unwrap();
        assert!(out.stopped);
        assert!(game.parse_move(&game.move_string(out.best)).is_ok());
        player.shutdown();
        let refused = player
            .play(
                &Requester::new("p", None),
                SearchRequest {
                    game,
                    ply: 0,
                    level: None,
                    movetime: Duration::from_millis(10),
                    seed: 1,
                    stop: Arc::new(AtomicBool::new(false)),
                },
            )
            .await;
        assert!(matches!(refused, Err(AppError::Unavailable(_))));
    }
}
