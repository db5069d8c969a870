//! What the app offers for learning after playing (issue 16): live
//! analysis over the WebSocket ([`analysis`]), game reviews stored with
//! their games ([`reviews`]), rated puzzles from the shipped files
//! ([`puzzles`]) and interactive lessons judged by the rules ([`lessons`]).
//! (PGN import with variations for the analysis board is a request and
//! its answer alone: `crate::http::views::pgn_tree`.)
//!
//! Every engine search goes through the server's search budget
//! ([`super::budget`]): analyses as advice, reviews in the background.

pub mod analysis;
pub mod lessons;
pub mod puzzles;
pub mod reviews;

use super::clock::Clock;
use super::store::GameStore;
use crate::round::engine_player::EnginePlayer;
use std::sync::Arc;

/// The learning services, together.
pub struct Learning {
    /// Live analyses, over the WebSocket.
    pub analyses: Arc<analysis::Analyses>,
    /// Game reviews, run in the background and stored.
    pub reviews: Arc<reviews::Reviews>,
    /// Rated puzzles.
    pub puzzles: puzzles::Puzzles,
    /// Lessons and the players' progress.
    pub lessons: lessons::Lessons,
}

impl Learning {
    /// The services over `store`, searching with `engine`'s budget.
    pub fn new(
        store: Arc<dyn GameStore>,
        engine: Arc<EnginePlayer>,
        clock: Arc<dyn Clock>,
    ) -> Learning {
        Learning {
            analyses: analysis::Analyses::new(engine.clone()),
            reviews: reviews::Reviews::new(store.clone(), engine, clock.clone()),
            puzzles: puzzles::Puzzles::new(store.clone(), clock.clone()),
            lessons: lessons::Lessons::new(store, clock),
        }
    }
}
