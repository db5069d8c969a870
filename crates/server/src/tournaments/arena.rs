//! An arena's tick: results announced, the waiting players paired (those
//! in, not paused, not withdrawn, connected to the site, not playing a
//! game of the arena), and, once its time is up, no new pairing: it
//! finishes when its last games have ended (they count). A wave is
//! planned under the director's lease and written only if the lease still
//! holds then (a director stopped between the two finds it taken).

use super::views::{arena_end, Keyed};
use super::waves::WaveStat;
use super::Tournaments;
use crate::error::AppError;
use crate::ids::TournamentId;
use crate::store::TournamentNews;
use crate::store::{EntryRecord, TournamentKind, TournamentRecord, TournamentState};
use std::collections::{HashMap, HashSet};
use tensorchess_tournament::arena::{pair_arena, rank_arena, ArenaCandidate};
use tensorchess_tournament::{games_by_player, PlayerKey};

/// An arena's wave as planned, not yet written.
#[derive(Debug)]
pub struct ArenaWave {
    t: TournamentRecord,
    /// White's player id first.
    boards: Vec<(String, String)>,
    /// Games ended since the last look: the standings are to be told.
    results: bool,
    waiting: usize,
    pair_us: u64,
}

impl ArenaWave {
    /// The boards planned, White's player id first.
    pub fn boards(&self) -> &[(String, String)] {
        &self.boards
    }
}

impl Tournaments {
    /// Directs arena `t` at `now` (this instance took its lease at `now`).
    pub(crate) async fn direct_arena(
        &self,
        t: &TournamentRecord,
        now: i64,
    ) -> Result<(), AppError> {
        if let Some(wave) = self.plan_arena(t, now).await? {
            self.write_wave(wave).await?;
        }
        Ok(())
    }

    /// What the director's tick does first to arena `id` at the clock's
    /// time: takes its lease (`None` when another instance holds it) and
    /// plans the wave (`None` when nobody is to be paired, or it is not an
    /// arena due or running).
    pub async fn plan_wave(&self, id: &TournamentId) -> Result<Option<ArenaWave>, AppError> {
        let now = self.live.now();
        let t = self.record(id).await?;
        let due = t.state == TournamentState::Running
            || (t.state == TournamentState::Upcoming && t.starts_at <= now);
        if t.kind != TournamentKind::Arena || !due {
            return Ok(None);
        }
        match self.hold(t, now).await? {
            Some(t) => self.plan_arena(&t, now).await,
            None => Ok(None),
        }
    }

    async fn plan_arena(
        &self,
        t: &TournamentRecord,
        now: i64,
    ) -> Result<Option<ArenaWave>, AppError> {
        let store = self.live.store();
        let began = std::time::Instant::now();
        let entries = store.tournament_entries(&t.id).await?;
        let games = store.tournament_games(&t.id).await?;
        let keyed = Keyed::new(&entries);
        let finished = keyed.finished(&games);
        let ended = games.iter().filter(|g| g.ending.is_some()).count();
        let results = self.note_results(t, ended);
        let playing: HashSet<&str> = games
            .iter()
            .filter(|g| g.ending.is_none())
            .flat_map(|g| [g.link.white.as_str(), g.link.black.as_str()])
            .collect();
        if now >= arena_end(t).unwrap_or(t.starts_at) {
            if playing.is_empty() {
                self.finish(t).await?;
            } else if results {
                self.announce(t, TournamentNews::Standings).await?;
            }
            return Ok(None);
        }
        let players: Vec<(PlayerKey, i32)> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (PlayerKey(i as u64), e.rating))
            .collect();
        let ranks: HashMap<PlayerKey, u32> = rank_arena(&players, &finished)
            .into_iter()
            .map(|s| (s.key, s.rank))
            .collect();
        // Only players connected to the site (a page's socket, a program's
        // stream, on any instance): one who joined and left is not paired
        // against someone who waits for them.
        let presence = self.live.presence();
        let active: Vec<(PlayerKey, &EntryRecord)> = entries
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.withdrawn && !e.paused && presence.is_here(&e.player))
            .map(|(i, e)| (PlayerKey(i as u64), e))
            .collect();
        let by_player = games_by_player(&finished);
        let waiting: Vec<ArenaCandidate> = active
            .iter()
            .filter(|(_, e)| !playing.contains(e.player.as_str()))
            .map(|&(key, e)| {
                let rank = ranks.get(&key).copied().unwrap_or(u32::MAX);
                let own = by_player.get(&key).map_or(&[][..], Vec::as_slice);
                ArenaCandidate::from_games(key, e.rating, rank, own)
            })
            .collect();
        if waiting.len() < 2 {
            if results {
                self.announce(t, TournamentNews::Standings).await?;
            }
            return Ok(None);
        }
        let boards: Vec<(String, String)> = pair_arena(&waiting, active.len())
            .into_iter()
            .filter_map(|p| {
                Some((
                    keyed.entry(p.white)?.player.clone(),
                    keyed.entry(p.black)?.player.clone(),
                ))
            })
            .collect();
        Ok(Some(ArenaWave {
            t: t.clone(),
            boards,
            results,
            waiting: waiting.len(),
            pair_us: began.elapsed().as_micros() as u64,
        }))
    }

    /// Writes a planned wave if this instance still holds the arena's
    /// lease at the clock's time (renewing it); returns the boards started
    /// (none when the lease passed to another instance meanwhile).
    pub async fn write_wave(&self, wave: ArenaWave) -> Result<usize, AppError> {
        let t = &wave.t;
        if !self.still_holds(t).await? {
            tracing::info!(
                "tournament {}: the lease passed to another instance: its wave is not written",
                t.id
            );
            return Ok(0);
        }
        let started = std::time::Instant::now();
        let made = self.start_boards(t, &wave.boards, None).await?;
        self.waves.note(WaveStat {
            waiting: wave.waiting,
            boards: made.len(),
            pair_us: wave.pair_us,
            start_us: started.elapsed().as_micros() as u64,
        });
        // One piece of news a tick: the new standings with the new games.
        if wave.results {
            self.announce(t, TournamentNews::Standings).await?;
        } else if !made.is_empty() {
            self.announce(t, TournamentNews::Paired).await?;
        }
        Ok(made.len())
    }
}
