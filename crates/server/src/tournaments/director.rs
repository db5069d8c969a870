//! The director: on each tick of the server's clock, for every tournament
//! due or running, this instance takes (or renews) the tournament's lease
//! and, holding it, starts the tournament at its time, pairs what is due
//! (an arena's waiting players, a Swiss's or round robin's next round),
//! announces results as games end, and finishes it. Pairing is judged
//! against the stored games every time, and the store refuses a game for a
//! player still playing one (or a second board in a round), so a tick
//! repeated, or run by another instance after a lease changed hands,
//! pairs nobody twice. A director asks again for its lease right before
//! it writes a wave or a round (`still_holds`).

use super::Tournaments;
use crate::error::AppError;
use crate::round::online::timing::Timing;
use crate::round::online::TournamentBoard;
use crate::store::TournamentNews;
use crate::store::{
    PairedGame, RatingPool, TournamentGameLink, TournamentKind, TournamentRecord, TournamentState,
};

/// How often the director looks at the tournaments.
pub use crate::config::DIRECTOR_EVERY_MS;
/// How long a director's lease lasts unless renewed (a tick renews it).
pub const LEASE_MS: i64 = 10_000;
/// Tournaments a tick looks at, at most, in each state.
const DUE_AT_MOST: usize = 1_000;

impl Tournaments {
    /// One tick of the director, at the clock's time now: every tournament
    /// due to start or running is directed by this instance if it holds
    /// (or takes) its lease. Errors are logged; the next tick tries again.
    pub async fn tick(&self) {
        let _one = self.ticking.lock().await;
        self.tell_due().await;
        let now = self.live.now();
        let store = self.live.store();
        let mut due = match store
            .tournaments_in(TournamentState::Running, DUE_AT_MOST)
            .await
        {
            Ok(running) => running,
            Err(e) => {
                tracing::warn!("tournaments not read: {e}");
                return;
            }
        };
        match store
            .tournaments_in(TournamentState::Upcoming, DUE_AT_MOST)
            .await
        {
            Ok(upcoming) => due.extend(upcoming.into_iter().filter(|t| t.starts_at <= now)),
            Err(e) => tracing::warn!("tournaments not read: {e}"),
        }
        for t in due {
            if let Err(e) = self.direct(t.clone(), now).await {
                tracing::warn!("tournament {} not directed: {e}", t.id);
            }
        }
    }

    async fn direct(&self, t: TournamentRecord, now: i64) -> Result<(), AppError> {
        let Some(t) = self.hold(t, now).await? else {
            return Ok(());
        };
        match t.kind {
            TournamentKind::Arena => self.direct_arena(&t, now).await,
            TournamentKind::Swiss | TournamentKind::RoundRobin => self.direct_rounds(&t).await,
        }
    }

    /// Takes (or renews) `t`'s lease at `now` and starts it when it is
    /// due: the tournament as it is then, or `None` when another instance
    /// holds it (or started it first).
    pub(crate) async fn hold(
        &self,
        mut t: TournamentRecord,
        now: i64,
    ) -> Result<Option<TournamentRecord>, AppError> {
        if !self.lease(&t.id, now).await? {
            return Ok(None);
        }
        let store = self.live.store();
        if t.state == TournamentState::Upcoming {
            if !store
                .set_tournament_state(&t.id, TournamentState::Upcoming, TournamentState::Running)
                .await?
            {
                return Ok(None);
            }
            t.state = TournamentState::Running;
            self.announce(&t, TournamentNews::Started).await?;
        }
        Ok(Some(t))
    }

    /// Whether this instance still holds `t`'s lease at the clock's time
    /// now (renewing it): asked right before a wave or a round is written,
    /// since the reads and the pairing before may have outlasted the lease
    /// (a process stopped, a slow database) and another instance may
    /// direct the tournament now.
    pub(crate) async fn still_holds(&self, t: &TournamentRecord) -> Result<bool, AppError> {
        self.lease(&t.id, self.live.now()).await
    }

    /// Takes or renews the lease of tournament `id` at `now`; what this
    /// instance keeps of it as its director stays only while the lease
    /// runs without a break ([`super::memory`]).
    async fn lease(&self, id: &str, now: i64) -> Result<bool, AppError> {
        let holder = self.live.cluster().instance().to_string();
        let until = now.saturating_add(LEASE_MS);
        let held = self
            .live
            .store()
            .take_director_lease(id, &holder, now, until)
            .await?;
        if held {
            self.memory.leased(id, now, until);
        } else {
            self.memory.lost(id);
        }
        Ok(held)
    }

    /// Whether games ended since the last look (then the standings are
    /// to be told).
    pub(crate) fn note_results(&self, t: &TournamentRecord, finished: usize) -> bool {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let before = seen.insert(t.id.clone(), finished);
        before.is_some_and(|b| b != finished) || (before.is_none() && finished > 0)
    }

    /// Finishes a running tournament and tells its pages.
    pub(crate) async fn finish(&self, t: &TournamentRecord) -> Result<(), AppError> {
        if self
            .live
            .store()
            .set_tournament_state(&t.id, TournamentState::Running, TournamentState::Finished)
            .await?
        {
            self.seen
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .remove(&t.id);
            self.memory.lost(&t.id);
            let done = TournamentRecord {
                state: TournamentState::Finished,
                ..t.clone()
            };
            self.announce(&done, TournamentNews::Finished).await?;
        }
        Ok(())
    }

    /// Starts a game for each board (White's id first), all stored in one
    /// write, and tells the players; a board the store refuses (a player
    /// still playing, the round's board taken) is left out.
    pub(crate) async fn start_boards(
        &self,
        t: &TournamentRecord,
        boards: &[(String, String)],
        round: Option<u32>,
    ) -> Result<Vec<PairedGame>, AppError> {
        let pool = RatingPool {
            variant: t.variant,
            correspondence: t.days.is_some(),
        };
        let timing = match t.days {
            Some(days) => Timing::Days(days),
            None => Timing::Clock(t.clock),
        };
        // Every player's name and rating read at once, not four reads a
        // board: both answers are in the order of `ids`, two to a board.
        let ids: Vec<String> = boards
            .iter()
            .flat_map(|(white, black)| [white.clone(), black.clone()])
            .collect();
        let names = self.players.names_of(&ids).await?;
        let ratings = if t.rated {
            Some(self.live.ratings_in(pool, &ids).await?)
        } else {
            None
        };
        let mut names = names.into_iter();
        let mut ratings = ratings.map(|r| r.into_iter().map(|r| r.rating.round() as i32));
        let mut wave = Vec::with_capacity(boards.len());
        for (white, black) in boards {
            let (Some(white_name), Some(black_name)) = (names.next(), names.next()) else {
                break;
            };
            let names = [white_name, black_name];
            let rated = ratings.as_mut().and_then(|r| Some([r.next()?, r.next()?]));
            let link = TournamentGameLink {
                tournament_id: t.id.clone(),
                game_id: String::new(),
                round,
                white: white.clone(),
                black: black.clone(),
                white_berserked: false,
                black_berserked: false,
                created_at: self.live.now(),
            };
            wave.push(TournamentBoard { link, names, rated });
        }
        let started = self
            .online
            .start_tournament_games(t.variant, timing, wave)
            .await?;
        let mut paired = Vec::with_capacity(boards.len());
        let mut links = Vec::with_capacity(boards.len());
        for started in started {
            match started {
                Ok(link) => {
                    paired.push(PairedGame {
                        game: link.game_id.clone(),
                        white: link.white.clone(),
                        black: link.black.clone(),
                    });
                    links.push(link);
                }
                Err(why) => tracing::debug!("tournament {}: board not paired: {why}", t.id),
            }
        }
        // An arena directed here keeps its games (a round's are read).
        self.memory.started(&t.id, &links);
        if !paired.is_empty() {
            self.publish_pairings(&t.id, &paired);
        }
        Ok(paired)
    }
}
