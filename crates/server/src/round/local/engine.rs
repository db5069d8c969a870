//! The engine in local games: its own moves (searched in the background,
//! committed like a person's), hints, evaluations and draw answers.

use super::{move_change, LocalGames};
use crate::budget::Requester;
use crate::error::AppError;
use crate::game_views::VariantGame;
use crate::identity::Me;
use crate::kind::Kind;
use crate::round::command::{Fired, Trigger};
use crate::round::engine_player::{accepts_draw, SearchRequest};
use crate::round::live::GameEvent;
use crate::round::live::{LiveGame, SharedGame};
use crate::store::GameMode;
use crate::views::{AnalysisView, DrawAnswerCode};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tensorchess_engine::Level;
use tensorchess_rules::Color;

/// Thinking time of a hint.
const HINT_TIME: Duration = Duration::from_millis(1000);
/// Thinking time behind the evaluation bar.
const EVAL_TIME: Duration = Duration::from_millis(400);
/// Thinking time before answering a draw offer.
const DRAW_TIME: Duration = Duration::from_millis(600);

/// Seeds a weak level's noise from the game and the ply, so that games
/// differ but a replayed position gets the same move.
fn seed_of(id: &str, ply: usize) -> u64 {
    id.bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        })
        .wrapping_add(ply as u64)
}

impl LocalGames {
    /// Starts the engine's search when it is to move and not already thinking.
    pub(super) fn start_engine(self: &Arc<Self>, arc: &SharedGame, lg: &mut LiveGame) {
        if !lg.engine_to_move() || lg.is_thinking() || self.engine.is_shut_down() {
            return;
        }
        let level = lg.level().unwrap_or(Level::FULL);
        let search_id = self.next_search.fetch_add(1, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        lg.start_search(search_id, stop.clone());
        let req = SearchRequest {
            game: lg.game().clone(),
            ply: lg.ply(),
            level: Some(level),
            movetime: level.settings().move_time,
            seed: seed_of(lg.id(), lg.ply()),
            stop,
        };
        let this = self.clone();
        let arc = arc.clone();
        let who = Requester::new(
            lg.record().owner.as_deref().unwrap_or_default(),
            lg.engine_client(),
        );
        tokio::spawn(async move {
            let found = this
                .engine
                .play(&who, req)
                .await
                .map(|out| out.best)
                .map_err(|e| e.to_string());
            // Through the round, as a player's move: committed, settled
            // and announced there.
            if let Some(round) = this.round.upgrade() {
                round
                    .fire(&arc, Trigger::EngineMove { search_id, found })
                    .await;
            }
        });
    }

    /// The local half of [`Games::fire`](crate::round::games::Games::fire)
    /// for the engine's search `search_id` ended with `found`: its move
    /// committed; or, without one, the pages told it stopped thinking.
    pub(in crate::round) async fn on_engine_move(
        &self,
        lg: &mut LiveGame,
        search_id: u64,
        found: Result<tensorchess_rules::Move, String>,
    ) -> Result<Fired, AppError> {
        if lg.search_id() != Some(search_id) {
            return Ok(Fired::Nothing); // taken back, resigned or deleted meanwhile
        }
        lg.search_done();
        match found {
            Ok(best) if !best.is_null() && !self.engine.is_shut_down() => {
                match self.live.commit(lg, move_change(best)).await {
                    Ok(moved) => Ok(Fired::Committed(moved)),
                    Err(e @ AppError::StaleGame(_)) => Err(e),
                    Err(e) => {
                        tracing::error!("game {}: the engine's move was not stored: {e}", lg.id());
                        Ok(Fired::Told(GameEvent::Move))
                    }
                }
            }
            Ok(_) => Ok(Fired::Told(GameEvent::Move)),
            Err(e) => {
                tracing::warn!("game {}: engine search failed: {e}", lg.id());
                Ok(Fired::Told(GameEvent::Move))
            }
        }
    }

    /// Whether the engine, playing `engine_color`, accepts a draw in `game`,
    /// and what it says.
    pub(super) async fn engine_answers_draw(
        &self,
        game: VariantGame,
        engine_color: Color,
        me: &Me,
    ) -> Result<DrawAnswerCode, AppError> {
        let ply = game.ply();
        let out = self
            .engine
            .advise(
                &me.requester(),
                self.live.now(),
                SearchRequest {
                    game: game.clone(),
                    ply,
                    level: None,
                    movetime: DRAW_TIME,
                    seed: 0,
                    stop: Arc::new(AtomicBool::new(false)),
                },
            )
            .await?;
        let engine_score = if game.turn() == engine_color {
            out.score
        } else {
            -out.score
        };
        Ok(accepts_draw(engine_score, ply))
    }

    /// The engine's best move for the side to move now.
    pub async fn hint(&self, arc: &SharedGame, me: &Me) -> Result<AnalysisView, AppError> {
        let game = {
            let lg = arc.lock().await;
            if lg.is_over() {
                return Err(AppError::Conflict("The game is over".into()));
            }
            if lg.mode() == GameMode::Online {
                return Err(AppError::refused(
                    Kind::NotAllowed,
                    "No engine help while an online game is played",
                ));
            }
            lg.game().clone()
        };
        self.analyse(game, None, HINT_TIME, me).await
    }

    /// A short evaluation of the position after `ply` moves (default: now).
    pub async fn evaluate(
        &self,
        arc: &SharedGame,
        ply: Option<usize>,
        me: &Me,
    ) -> Result<AnalysisView, AppError> {
        let game = {
            let lg = arc.lock().await;
            if lg.mode() == GameMode::Online && !lg.is_over() {
                return Err(AppError::refused(
                    Kind::NotAllowed,
                    "No engine evaluation while an online game is played",
                ));
            }
            lg.game().clone()
        };
        if let Some(p) = ply {
            if p > game.ply() {
                return Err(AppError::bad(format!(
                    "The game has {} moves, not {p}",
                    game.ply()
                )));
            }
        }
        self.analyse(game, ply, EVAL_TIME, me).await
    }

    async fn analyse(
        &self,
        game: VariantGame,
        ply: Option<usize>,
        time: Duration,
        me: &Me,
    ) -> Result<AnalysisView, AppError> {
        let ply = ply.unwrap_or(game.ply());
        let out = self
            .engine
            .advise(
                &me.requester(),
                self.live.now(),
                SearchRequest {
                    game,
                    ply,
                    level: None,
                    movetime: time,
                    seed: 0,
                    stop: Arc::new(AtomicBool::new(false)),
                },
            )
            .await?;
        Ok(AnalysisView {
            ply,
            best: out.best_view,
            score: out.white_score,
        })
    }
}
