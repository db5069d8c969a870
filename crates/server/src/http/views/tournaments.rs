//! `GET /api/tournaments`.

use crate::tournaments::schedule::Schedule;
use crate::tournaments::views::{summary, TournamentSummaryView};
use crate::tournaments::TournamentLists;
use serde::Serialize;

/// Upcoming, running and recently finished tournaments.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct TournamentsView {
    /// Not started yet, soonest first.
    pub upcoming: Vec<TournamentSummaryView>,
    /// Going on.
    pub running: Vec<TournamentSummaryView>,
    /// Over, latest first.
    pub finished: Vec<TournamentSummaryView>,
}

impl TournamentsView {
    /// The lists, scheduled tournaments named as `schedule` names them.
    pub fn of(lists: TournamentLists, schedule: &Schedule) -> TournamentsView {
        let summaries = |list: Vec<(_, usize)>| {
            list.iter()
                .map(|(t, players)| summary(t, *players, schedule))
                .collect()
        };
        TournamentsView {
            upcoming: summaries(lists.upcoming),
            running: summaries(lists.running),
            finished: summaries(lists.finished),
        }
    }
}
