//! An arena's tick: results announced, the waiting players paired (those
//! in, not paused, not withdrawn, connected to the site, not playing a
//! game of the arena), and, once its time is up, no new pairing: it
//! finishes when its last games have ended (they count). A wave is
//! planned under the director's lease and written only if the lease still
//! holds then (a director stopped between the two finds it taken).

use super::memory::Arena;
use super::views::{arena_end, Keyed};
use super::waves::WaveStat;
use super::Tournaments;
use crate::error::AppError;
use crate::ids::TournamentId;
use crate::store::TournamentNews;
use crate::store::{EntryRecord, TournamentKind, TournamentRecord, TournamentState};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
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
        let began = std::time::Instant::now();
        let arena = self.arena_now(t).await?;
        let (entries, games) = (&*arena.entries, &*arena.games);
        let keyed = Keyed::new(entries);
        let finished = keyed.finished(games);
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
        let at_ms = self.live.now();
        let made = self.start_boards(t, &wave.boards, None).await?;
        self.waves.note(WaveStat {
            waiting: wave.waiting,
            boards: made.len(),
            pair_us: wave.pair_us,
            start_us: started.elapsed().as_micros() as u64,
            at_ms,
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

impl Tournaments {
    /// Arena `t` as its director reads it at a tick: what this instance
    /// keeps of it, brought up to date (the entries if their revision
    /// moved, the games going on that ended), or read whole and kept.
    async fn arena_now(&self, t: &TournamentRecord) -> Result<Arena, AppError> {
        let now = self.live.now();
        let Some(kept) = self.memory.arena(&t.id, now) else {
            let store = self.live.store();
            // The revision first: entries changed after it are read again.
            let entries_rev = store.tournament_entries_rev(&t.id).await?.unwrap_or(0);
            let arena = Arena {
                entries_rev,
                entries: Arc::new(store.tournament_entries(&t.id).await?),
                games: Arc::new(store.tournament_games(&t.id).await?),
                marks: (0, 0),
            };
            self.memory.keep(&t.id, arena.clone());
            return Ok(arena);
        };
        self.refresh(t, &kept, true).await?;
        Ok(self.memory.arena(&t.id, now).unwrap_or(kept))
    }

    /// Arena `t` as this instance, its director, keeps it, its entries
    /// read again if they changed (its games are as the last tick read
    /// them, but for a berserk mark told of since); `None` when it is not
    /// kept here.
    pub(crate) async fn arena_kept(&self, t: &TournamentRecord) -> Result<Option<Arena>, AppError> {
        if t.kind != TournamentKind::Arena {
            return Ok(None);
        }
        let now = self.live.now();
        let Some(kept) = self.memory.arena(&t.id, now) else {
            return Ok(None);
        };
        self.refresh(t, &kept, false).await?;
        Ok(self.memory.arena(&t.id, now))
    }

    /// Brings what is kept of arena `t` up to date: its entries if their
    /// revision moved, and, with `games` (or when a berserk mark is to be
    /// read), its games going on: those that ended, or all of them.
    async fn refresh(
        &self,
        t: &TournamentRecord,
        kept: &Arena,
        games: bool,
    ) -> Result<(), AppError> {
        let store = self.live.store();
        let rev = store.tournament_entries_rev(&t.id).await?.unwrap_or(0);
        if rev != kept.entries_rev {
            let entries = store.tournament_entries(&t.id).await?;
            self.memory.set_entries(&t.id, rev, entries);
        }
        let whole = kept.marks_stale();
        if games || whole {
            let going = kept.going_on();
            let read = if going.is_empty() {
                Vec::new()
            } else {
                store.tournament_games_among(&t.id, &going, !whole).await?
            };
            self.memory
                .update_games(&t.id, read, whole.then_some(kept.marks.0));
        }
        Ok(())
    }
}
