//! `GET /api/site`: what the home page says is going on.

use crate::learning::puzzles::DailyPuzzle;
use crate::round::featured::FeaturedGame;
use crate::views::tournament::TournamentSummaryView;
use serde::Serialize;

/// The site now: who is here, what is played, what comes.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct SiteView {
    /// Players with a page open (a connection), on every server.
    pub players_online: usize,
    /// Online games in progress with a player connected, on every server.
    pub games_playing: usize,
    /// The highest-rated real-time game in progress (lichess's TV).
    pub featured: Option<FeaturedGame>,
    /// Tournaments being played (at most a few, as listed).
    pub tournaments_running: Vec<TournamentSummaryView>,
    /// Tournaments starting soon (at most a few, soonest first).
    pub tournaments_upcoming: Vec<TournamentSummaryView>,
    /// The puzzle of the day.
    pub puzzle: Option<DailyPuzzle>,
}
