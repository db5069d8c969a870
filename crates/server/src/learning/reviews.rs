//! Game reviews in the app: the review library ([`tensorchess_analysis::review`]) run on a
//! finished game in the background, its progress asked for by polling, the
//! result stored with the game (so it opens at once next time).
//!
//! Reviews cannot starve play: each position's search takes a background
//! slot of the search budget (given only when no game, hint or analysis
//! waits), a player has one review at a time, at most [`max_running`]
//! run at once on the server and [`MAX_QUEUED`] more wait.

use crate::budget::Slot;
use crate::clock::Clock;
use crate::error::AppError;
use crate::kind::Kind;
use crate::round::engine_player::EnginePlayer;
use crate::store::{GameStore, ReviewRecord};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tensorchess_analysis::review::{
    review_any_game, Budget, Review, ReviewError, ReviewProgress, ReviewSettings,
};
use tensorchess_rules::VariantGame;
use tokio::sync::Semaphore;

/// Nodes searched in each position of a review.
pub const REVIEW_NODES: u64 = 150_000;
/// Reviews waiting for their turn, at most, on the server.
pub const MAX_QUEUED: usize = 32;

/// Reviews running at once: one core is always left to play.
pub fn max_running(cores: usize) -> usize {
    cores.saturating_sub(1).max(1)
}

/// Where a review is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum JobState {
    Queued,
    Running(ReviewProgress),
    Failed(String),
}

struct Job {
    player: String,
    state: JobState,
    stop: Arc<AtomicBool>,
}

/// Where a game's review is.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewStatus {
    /// Never reviewed.
    None,
    /// Waiting for its turn.
    Queued,
    /// Under way: positions analysed of all.
    Running(ReviewProgress),
    /// Stored: the review.
    Done(Box<Review>),
    /// Why it failed.
    Failed(String),
}

/// The review service.
pub struct Reviews {
    store: Arc<dyn GameStore>,
    engine: Arc<EnginePlayer>,
    clock: Arc<dyn Clock>,
    jobs: Mutex<HashMap<String, Job>>,
    running: Arc<Semaphore>,
    settings: ReviewSettings,
}

impl Reviews {
    /// Reviews stored in `store`, searching with `engine`'s budget in the
    /// background.
    pub fn new(
        store: Arc<dyn GameStore>,
        engine: Arc<EnginePlayer>,
        clock: Arc<dyn Clock>,
    ) -> Arc<Reviews> {
        let cores = engine.budget().capacity;
        Arc::new(Reviews {
            store,
            engine,
            clock,
            jobs: Mutex::new(HashMap::new()),
            running: Arc::new(Semaphore::new(max_running(cores))),
            settings: ReviewSettings {
                budget: Budget::Nodes(REVIEW_NODES),
                ..ReviewSettings::default()
            },
        })
    }

    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<String, Job>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where game `id`'s review is: stored, running, or none.
    pub async fn status(&self, id: &str) -> Result<ReviewStatus, AppError> {
        if let Some(status) = self.job_status(id) {
            return Ok(status);
        }
        Ok(match self.store.review(id).await? {
            Some(record) => done(id, &record)?,
            None => ReviewStatus::None,
        })
    }

    fn job_status(&self, id: &str) -> Option<ReviewStatus> {
        let jobs = self.jobs();
        Some(match &jobs.get(id)?.state {
            JobState::Queued => ReviewStatus::Queued,
            JobState::Running(p) => ReviewStatus::Running(*p),
            JobState::Failed(e) => ReviewStatus::Failed(e.clone()),
        })
    }

    /// Starts reviewing game `id` (finished, `game` its moves) for
    /// `player`, unless it is reviewed already or under way: answers
    /// where the review is, and whether it was started now.
    pub async fn start(
        self: &Arc<Self>,
        id: &str,
        game: VariantGame,
        player: &str,
    ) -> Result<(ReviewStatus, bool), AppError> {
        if let Some(record) = self.store.review(id).await? {
            return Ok((done(id, &record)?, false));
        }
        if game.ply() == 0 {
            return Err(AppError::Conflict("The game has no moves to review".into()));
        }
        {
            let mut jobs = self.jobs();
            match jobs.get(id).map(|j| &j.state) {
                Some(JobState::Queued | JobState::Running(_)) => {
                    drop(jobs);
                    return Ok((self.job_status(id).unwrap_or(ReviewStatus::None), false));
                }
                Some(JobState::Failed(_)) => {
                    jobs.remove(id);
                }
                None => {}
            }
            let busy = jobs.values().any(|j| {
                j.player == player && matches!(j.state, JobState::Queued | JobState::Running(_))
            });
            if busy {
                return Err(AppError::refused(
                    Kind::ReviewRunning,
                    "One review at a time: wait until your other review is done",
                ));
            }
            let waiting = jobs
                .values()
                .filter(|j| matches!(j.state, JobState::Queued | JobState::Running(_)))
                .count();
            if waiting >= MAX_QUEUED + max_running(self.engine.budget().capacity) {
                return Err(AppError::Overloaded { retry_ms: 30_000 });
            }
            jobs.insert(
                id.to_string(),
                Job {
                    player: player.to_string(),
                    state: JobState::Queued,
                    stop: Arc::new(AtomicBool::new(false)),
                },
            );
        }
        let this = self.clone();
        let id_owned = id.to_string();
        tokio::spawn(async move { this.run(id_owned, game).await });
        Ok((self.job_status(id).unwrap_or(ReviewStatus::None), true))
    }

    /// Stops game `id`'s review, if one runs (the game was deleted).
    pub fn cancel(&self, id: &str) {
        if let Some(job) = self.jobs().remove(id) {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    fn set_state(&self, id: &str, state: JobState) {
        if let Some(job) = self.jobs().get_mut(id) {
            job.state = state;
        }
    }

    async fn run(self: Arc<Self>, id: String, game: VariantGame) {
        let outcome = self.review(&id, game).await;
        match outcome {
            Ok(review) => {
                let saved = match serde_json::to_string(&review) {
                    Ok(json) => self
                        .store
                        .save_review(&ReviewRecord {
                            game_id: id.clone(),
                            review_json: json,
                            created_at: self.clock.now_ms(),
                        })
                        .await
                        .map_err(AppError::from),
                    Err(e) => Err(AppError::Internal(format!(
                        "a review did not serialise: {e}"
                    ))),
                };
                match saved {
                    Ok(()) => {
                        self.jobs().remove(&id);
                    }
                    Err(e) => self.set_state(&id, JobState::Failed(e.to_string())),
                }
            }
            Err(e) => {
                tracing::warn!("review of {id}: {e}");
                self.set_state(&id, JobState::Failed(e.to_string()));
            }
        }
    }

    /// Waits for a turn, then reviews on a blocking thread, each position's
    /// search in a background slot of the budget.
    async fn review(&self, id: &str, game: VariantGame) -> Result<Review, AppError> {
        let _turn = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| AppError::Unavailable("The server is shutting down".into()))?;
        let Some(stop) = self.jobs().get(id).map(|j| j.stop.clone()) else {
            return Err(AppError::Conflict("The review was cancelled".into()));
        };
        let total = game.ply() + 1;
        self.set_state(id, JobState::Running(ReviewProgress { done: 0, total }));
        let first = self.engine.background_slot().await?;
        let engine_player = self.engine.clone();
        let mut engine = engine_player.lend_engine();
        let settings = self.settings.clone();
        let handle = tokio::runtime::Handle::current();
        let shutdown = engine_player.shutdown_flag();
        // The blocking thread reports progress through a channel; the job
        // table is updated here, on the runtime.
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<ReviewProgress>();
        let ep = engine_player.clone();
        let task = tokio::task::spawn_blocking(move || {
            let mut slot: Option<Slot> = Some(first);
            let mut progress = |p: ReviewProgress| {
                slot = None;
                let _ = tx.send(p);
                if shutdown.load(Ordering::Relaxed) {
                    stop.store(true, Ordering::Relaxed);
                }
                if p.done < p.total && !stop.load(Ordering::Relaxed) {
                    // The next position waits for a background slot.
                    slot = handle.block_on(ep.background_slot()).ok();
                    if slot.is_none() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            };
            let result = review_any_game(&mut engine, &game, &settings, &mut progress, &stop);
            (engine, result)
        });
        while let Some(p) = rx.recv().await {
            self.set_state(id, JobState::Running(p));
        }
        let (engine, result) = task
            .await
            .map_err(|e| AppError::Internal(format!("the review failed: {e}")))?;
        engine_player.recycle(engine);
        result.map_err(|e| match e {
            ReviewError::Stopped => AppError::Unavailable("The review was stopped".into()),
        })
    }
}

fn done(id: &str, record: &ReviewRecord) -> Result<ReviewStatus, AppError> {
    let review: Review = serde_json::from_str(&record.review_json)
        .map_err(|e| AppError::Internal(format!("the stored review of {id} does not read: {e}")))?;
    Ok(ReviewStatus::Done(Box::new(review)))
}
