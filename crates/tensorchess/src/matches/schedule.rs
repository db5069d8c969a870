//! Which game a worker plays next, and when the match stops.
//!
//! The workers hand out games and tally results under one lock, so the
//! SPRT's decision is taken from every finished game before the next game
//! is handed out: no game starts after the game whose result decided it,
//! however many workers there are and however the scheduler runs them
//! (an engine that forfeits at once used to run ahead of a decision read
//! on another thread). Games already in progress at the decision are
//! played out and counted, as cutechess-cli and fastchess do.

use super::stats::{Sprt, SprtState, Tally};
use std::sync::{Mutex, MutexGuard};

/// The SPRT's verdict and when it came.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// What the SPRT decided.
    pub state: SprtState,
    /// Games tallied when the verdict was reached.
    pub after_games: u32,
}

/// A game handed to a worker.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ticket {
    /// The game's index in the match (0-based).
    pub index: usize,
    /// Games tallied when it was handed out.
    pub tallied_before: u32,
}

#[derive(Debug, Default)]
struct State {
    next: usize,
    tally: Tally,
    decision: Option<Decision>,
    failed: bool,
}

/// The games of a match, shared by its workers.
#[derive(Debug)]
pub struct Schedule {
    games: usize,
    sprt: Option<Sprt>,
    state: Mutex<State>,
}

impl Schedule {
    /// A match of `games` games, stopped early when `sprt` decides.
    pub fn new(games: usize, sprt: Option<Sprt>) -> Schedule {
        Schedule {
            games,
            sprt,
            state: Mutex::new(State::default()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A worker that panicked left whole values behind: go on with them.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The next game to play, or `None` once the games are all handed out,
    /// the SPRT has decided, a worker failed, or `interrupted` is set.
    pub fn take(&self, interrupted: bool) -> Option<Ticket> {
        let mut s = self.lock();
        if interrupted || s.failed || s.decision.is_some() || s.next >= self.games {
            return None;
        }
        let ticket = Ticket {
            index: s.next,
            tallied_before: s.tally.games(),
        };
        s.next += 1;
        Some(ticket)
    }

    /// Counts a finished game (the first engine's score) and takes the
    /// SPRT's decision from it, before any other game is handed out.
    pub fn record(&self, score: f64) {
        let mut s = self.lock();
        s.tally.add(score);
        if s.decision.is_none() {
            if let Some(sprt) = &self.sprt {
                let state = sprt.state(&s.tally);
                if state != SprtState::Continue {
                    s.decision = Some(Decision {
                        state,
                        after_games: s.tally.games(),
                    });
                }
            }
        }
    }

    /// Stops handing out games (an engine could not start).
    pub fn fail(&self) {
        self.lock().failed = true;
    }

    /// The SPRT's verdict, once reached.
    pub fn decision(&self) -> Option<Decision> {
        self.lock().decision
    }

    /// The games tallied so far.
    pub fn tally(&self) -> Tally {
        self.lock().tally
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_game_is_handed_out_after_the_decision() {
        let sprt = Sprt::parse("elo0=0,elo1=400,alpha=0.1,beta=0.1").unwrap();
        let schedule = Schedule::new(100, Some(sprt));
        let mut played = 0;
        while let Some(t) = schedule.take(false) {
            assert_eq!(t.index, played);
            assert_eq!(t.tallied_before as usize, played);
            schedule.record(1.0);
            played += 1;
        }
        let d = schedule.decision().expect("decided");
        assert_eq!(d.state, SprtState::H1);
        assert_eq!(d.after_games as usize, played);
        assert!(played < 12, "{played}");
    }

    #[test]
    fn games_in_progress_are_counted_but_none_starts_after() {
        let sprt = Sprt::parse("elo0=0,elo1=400,alpha=0.1,beta=0.1").unwrap();
        let schedule = Schedule::new(100, Some(sprt));
        // Three workers hold a game each; results come in one by one.
        let mut held: Vec<Ticket> = (0..3).filter_map(|_| schedule.take(false)).collect();
        let mut finished = 0;
        while let Some(_t) = held.pop() {
            schedule.record(1.0);
            finished += 1;
            if let Some(next) = schedule.take(false) {
                assert!(schedule.decision().is_none());
                held.insert(0, next);
            }
        }
        let d = schedule.decision().expect("decided");
        assert!(finished as u32 <= d.after_games + 2);
        assert_eq!(schedule.tally().games(), finished as u32);
    }

    #[test]
    fn stops_when_interrupted_failed_or_done() {
        let schedule = Schedule::new(2, None);
        assert!(schedule.take(true).is_none());
        assert_eq!(schedule.take(false).map(|t| t.index), Some(0));
        assert_eq!(schedule.take(false).map(|t| t.index), Some(1));
        assert!(schedule.take(false).is_none());
        let schedule = Schedule::new(2, None);
        schedule.fail();
        assert!(schedule.take(false).is_none());
    }
}
