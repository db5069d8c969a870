//! A tournament's news as its topic sends it: the first lines of the
//! standings and the best games, each line whole only when it changed
//! since the last news this instance told, else named by its key and
//! version (`["player", v, rank]`, `["game", v]`), which the page already
//! holds. A large arena's standings are told every few seconds to every
//! page following it (a thousand, each 15 KB whole): most of the first
//! lines are the same from one news to the next.
//!
//! A version is a hash of the line's content, so a page checks by itself
//! that the line it holds is the one named, whoever told it (the snapshot
//! when it subscribed, a `GET`, another instance): one it lacks or holds
//! at another version makes it ask `GET` for the whole view.

use super::tournament::{PairingView, StandingView, TournamentSummaryView, TournamentView};
use super::tournament::{TOPIC_PAIRINGS, TOPIC_STANDINGS};
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// A line of the news: whole, or the key and version of the line the page
/// holds (with a standing's rank now: ranks move when others score).
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
#[serde(untagged)]
pub enum Told<T, Same> {
    /// The line, changed since the last news (or in a snapshot).
    Whole(T),
    /// As the page holds it.
    Same(Same),
}

/// A standings line told as unchanged: the player's id, the line's
/// version and its rank now.
pub type SameStanding = (String, u32, u32);
/// A game told as unchanged: its id and version.
pub type SamePairing = (String, u32);

/// The tournament topic's form of [`TournamentView`].
#[derive(Serialize, Clone, Debug, PartialEq, Eq, ts_rs::TS)]
pub struct TournamentNewsView {
    /// The settings.
    #[serde(flatten)]
    pub summary: TournamentSummaryView,
    /// The first lines of the standings, leader first.
    pub standings: Vec<Told<StandingView, SameStanding>>,
    /// The best games going on (or of the round).
    pub pairings: Vec<Told<PairingView, SamePairing>>,
    /// Lines in the whole standings.
    pub standings_total: usize,
    /// Games going on or in the round.
    pub pairings_total: usize,
    /// The current round (Swiss, round robin), once one is paired.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub round: Option<u32>,
    /// The game to watch.
    pub top_game: Option<String>,
}

/// The versions of the lines last told on a topic by this instance.
#[derive(Default, Debug)]
pub struct ToldLines {
    standings: HashMap<String, u32>,
    pairings: HashMap<String, u32>,
}

/// A version of a line: its content's hash, never 0 (0 is "not
/// stamped": [`StandingView::v`] before [`TournamentView::stamp`]).
fn version(hash: impl FnOnce(&mut std::collections::hash_map::DefaultHasher)) -> u32 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    hash(&mut h);
    (h.finish() as u32) | 1
}

impl StandingView {
    /// The line's version: all of it but its rank (which moves when
    /// others score) and its version.
    pub fn version(&self) -> u32 {
        version(|h| {
            (
                &self.player,
                self.rating,
                self.points,
                &self.points_line,
                &self.sheet,
                &self.rounds,
                &self.playing,
                self.games,
            )
                .hash(h);
            (self.on_fire, self.performance, self.withdrawn, self.paused).hash(h);
        })
    }
}

impl PairingView {
    /// The game's version: all of it but its version.
    pub fn version(&self) -> u32 {
        version(|h| {
            (
                &self.game,
                self.round,
                &self.white,
                &self.black,
                self.result,
                self.no_show,
                self.white_berserked,
                self.black_berserked,
            )
                .hash(h)
        })
    }
}

impl TournamentView {
    /// Sets every line's version (`v`), as pages receive them.
    pub fn stamp(&mut self) {
        for s in &mut self.standings {
            s.v = s.version();
        }
        if let Some(s) = self.you.as_mut().and_then(|y| y.standing.as_mut()) {
            s.v = s.version();
        }
        for p in &mut self.pairings {
            p.v = p.version();
        }
    }

    /// The view as the tournament's topic sends it to every page: the first
    /// lines of the standings and the best games, each whole.
    #[must_use]
    pub fn for_topic(self) -> TournamentNewsView {
        self.news(None)
    }

    /// The same, each line whole only if it is not as `told` last (which
    /// becomes what is told now).
    #[must_use]
    pub fn for_topic_after(self, told: &mut ToldLines) -> TournamentNewsView {
        self.news(Some(told))
    }

    fn news(mut self, told: Option<&mut ToldLines>) -> TournamentNewsView {
        self.standings.truncate(TOPIC_STANDINGS);
        self.pairings.truncate(TOPIC_PAIRINGS);
        self.stamp();
        let (standings, pairings) = match told {
            None => (
                self.standings.into_iter().map(Told::Whole).collect(),
                self.pairings.into_iter().map(Told::Whole).collect(),
            ),
            Some(told) => {
                let standings = self
                    .standings
                    .into_iter()
                    .map(|s| match told.standings.get(&s.player.id) {
                        Some(&v) if v == s.v => Told::Same((s.player.id, s.v, s.rank)),
                        _ => Told::Whole(s),
                    })
                    .collect::<Vec<_>>();
                let pairings = self
                    .pairings
                    .into_iter()
                    .map(|p| match told.pairings.get(&p.game) {
                        Some(&v) if v == p.v => Told::Same((p.game, p.v)),
                        _ => Told::Whole(p),
                    })
                    .collect::<Vec<_>>();
                told.standings = standings
                    .iter()
                    .map(|s| match s {
                        Told::Whole(s) => (s.player.id.clone(), s.v),
                        Told::Same((id, v, _)) => (id.clone(), *v),
                    })
                    .collect();
                told.pairings = pairings
                    .iter()
                    .map(|p| match p {
                        Told::Whole(p) => (p.game.clone(), p.v),
                        Told::Same((id, v)) => (id.clone(), *v),
                    })
                    .collect();
                (standings, pairings)
            }
        };
        TournamentNewsView {
            summary: self.summary,
            standings,
            pairings,
            standings_total: self.standings_total,
            pairings_total: self.pairings_total,
            round: self.round,
            top_game: self.top_game,
        }
    }
}

#[cfg(test)]
mod tests;
