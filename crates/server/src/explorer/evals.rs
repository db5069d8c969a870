//! The engine's evaluations of the positions the explorer shows: asked for
//! when a position is shown without one, queued (bounded, each position
//! once), searched one at a time in the background at a modest depth
//! (only when no other search waits: the budget's background slot), and
//! kept in the store for every server to answer from.

use crate::game_views::{GameViews, VariantGame};
use crate::round::engine_player::{white_score, EnginePlayer};
use crate::store::{ExplorerEval, GameStore};
use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tensorchess_engine::{Limits, SearchHandler};
use tensorchess_rules::VariantKind;
use tokio::sync::{watch, Notify};

/// The depth of the explorer's evaluations: enough to tell a blunder from
/// a main line, cheap enough (a few tens of milliseconds on one thread) to
/// evaluate every position shown.
pub const EVAL_DEPTH: u32 = 10;

/// No evaluation takes longer than this, whatever the position.
const EVAL_TIME: Duration = Duration::from_millis(500);

/// Positions waiting: past this many, a new ask is dropped (asked again
/// when the position is shown again).
const QUEUE: usize = 256;

struct Waiting {
    queue: VecDeque<(VariantGame, u64)>,
    queued: HashSet<(VariantKind, u64)>,
}

/// The positions waiting for an evaluation, and the worker that makes them.
pub struct EvalQueue {
    store: Arc<dyn GameStore>,
    engine: Arc<EnginePlayer>,
    waiting: Mutex<Waiting>,
    wake: Arc<Notify>,
}

struct StopOnShutdown(Arc<AtomicBool>);

impl SearchHandler for StopOnShutdown {
    fn should_stop(&mut self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl EvalQueue {
    pub fn new(store: Arc<dyn GameStore>, engine: Arc<EnginePlayer>) -> EvalQueue {
        EvalQueue {
            store,
            engine,
            waiting: Mutex::new(Waiting {
                queue: VecDeque::new(),
                queued: HashSet::new(),
            }),
            wake: Arc::new(Notify::new()),
        }
    }

    /// Asks for the evaluation of `game`'s position (hash `hash`), unless
    /// it is queued already or the queue is full.
    pub fn ask(&self, game: VariantGame, hash: u64) {
        let mut w = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if w.queue.len() >= QUEUE || !w.queued.insert((game.kind(), hash)) {
            return;
        }
        w.queue.push_back((game, hash));
        drop(w);
        self.wake.notify_one();
    }

    fn next(&self) -> Option<(VariantGame, u64)> {
        let mut w = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        w.queue.pop_front()
    }

    fn done(&self, kind: VariantKind, hash: u64) {
        let mut w = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        w.queued.remove(&(kind, hash));
    }

    /// What wakes the worker when a position is queued.
    pub fn wake(&self) -> Arc<Notify> {
        self.wake.clone()
    }

    /// Evaluates what is queued, one position at a time, until the server
    /// stops or the queue is gone (held weakly between positions).
    pub async fn run(
        queue: Weak<EvalQueue>,
        wake: Arc<Notify>,
        mut stopping: watch::Receiver<bool>,
    ) {
        loop {
            let Some(this) = queue.upgrade() else { return };
            let Some((game, hash)) = this.next() else {
                drop(this);
                tokio::select! {
                    _ = wake.notified() => continue,
                    _ = stopping.wait_for(|s| *s) => return,
                }
            };
            let kind = game.kind();
            let eval = tokio::select! {
                eval = this.evaluate(game) => eval,
                _ = stopping.wait_for(|s| *s) => return,
            };
            match eval {
                Some(eval) => {
                    if let Err(e) = this.store.put_explorer_eval(kind, hash, eval).await {
                        tracing::warn!("an explorer evaluation was not stored: {e}");
                    }
                }
                None => tracing::debug!("an explorer evaluation was not made"),
            }
            this.done(kind, hash);
        }
    }

    /// One search of the position at the end of `game`, White's view.
    async fn evaluate(&self, game: VariantGame) -> Option<ExplorerEval> {
        let _slot = self.engine.background_slot().await.ok()?;
        let mut engine = self.engine.lend_engine();
        let stop = StopOnShutdown(self.engine.shutdown_flag());
        let joined = tokio::task::spawn_blocking(move || {
            let mut stop = stop;
            engine.new_game();
            let limits = Limits {
                depth: Some(EVAL_DEPTH),
                movetime: Some(EVAL_TIME),
                ..Limits::default()
            };
            let ply = game.ply();
            let (result, _) = game.search_at(ply, &mut engine, &limits, &mut stop);
            let score = white_score(result.score, game.turn_at(ply), result.depth);
            (engine, score)
        })
        .await;
        let (engine, score) = joined.ok()?;
        self.engine.recycle(engine);
        Some(ExplorerEval {
            cp: score.cp,
            mate: score.mate,
            depth: score.depth,
        })
    }
}
